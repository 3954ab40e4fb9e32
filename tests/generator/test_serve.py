"""`patiencebook serve`: the site on 127.0.0.1 with the MIME types WebAssembly and modules need."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from patiencebook.generator.build import SITE_MARKER
from patiencebook.generator.errors import BuildError
from patiencebook.generator.serve import make_server


@pytest.fixture
def served(tmp_path):
    site = tmp_path / "site"
    (site / "en").mkdir(parents=True)
    (site / SITE_MARKER).write_text("", encoding="utf-8")
    (site / "en" / "index.html").write_text("<!DOCTYPE html><title>x</title>", encoding="utf-8")
    (site / "engine.wasm").write_bytes(b"\0asm\1\0\0\0")
    (site / "board.mjs").write_text("export const x = 1;", encoding="utf-8")
    (site / ".patiencebook-cache" / "en").mkdir(parents=True)
    (site / ".patiencebook-cache" / "en" / "state.json").write_text("{}", encoding="utf-8")
    server = make_server(site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def fetch(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers, response.read()


def test_server_binds_to_loopback_only_by_default(tmp_path):
    (tmp_path / SITE_MARKER).write_text("", encoding="utf-8")
    server = make_server(tmp_path, port=0)
    try:
        assert server.server_address[0] == "127.0.0.1"
    finally:
        server.server_close()


def test_wasm_and_modules_get_their_registered_types_and_nosniff(served):
    headers, body = fetch(f"{served}/engine.wasm")
    assert headers["Content-Type"] == "application/wasm"
    assert body == b"\0asm\1\0\0\0"
    assert headers["X-Content-Type-Options"] == "nosniff"
    headers, _ = fetch(f"{served}/board.mjs")
    assert headers["Content-Type"] == "text/javascript"
    headers, body = fetch(f"{served}/en/index.html")
    assert headers["Content-Type"] == "text/html" and body.startswith(b"<!DOCTYPE html>")


def test_a_folder_that_is_not_a_built_site_is_refused(tmp_path):
    with pytest.raises(BuildError, match="not a site built by patiencebook"):
        make_server(tmp_path, port=0)


@pytest.mark.parametrize("path", ["/.patiencebook-cache/en/state.json", "/.patiencebook-site",
                                  "/%2Epatiencebook-site", "/en/../.patiencebook-site"])
def test_dot_names_are_not_served(served, path):
    with pytest.raises(urllib.error.HTTPError) as caught:
        fetch(served + path)
    assert caught.value.code == 404
