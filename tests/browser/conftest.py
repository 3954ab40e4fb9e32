"""What every browser test shares: Debian's chromium driven headless through Playwright, and a
site served on 127.0.0.1 by ``patiencebook serve``'s own server."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from patiencebook.generator.serve import make_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 (a free port) in a thread; yields the base URL, then stops."""
    httpd = make_server(folder, port=0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    # The test command installs Debian's chromium; a missing browser is a broken setup, not a reason to skip.
    assert CHROMIUM.exists(), f"chromium not found at {CHROMIUM}: run `make test`, which installs it"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
