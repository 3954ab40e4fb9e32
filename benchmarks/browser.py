"""Times a game page in a real browser: how long until the live board is playable (the engine
started in Pyodide and the first position drawn) and until the first example step is drawn.

Builds the project's site for one language with the Pyodide runtime (or uses --site), serves it on
127.0.0.1 with ``patiencebook serve``'s server, and loads the page in Debian's chromium through
Playwright, headless. Both figures are the page's own performance marks (``pb-board-playable``,
``pb-example-first-step``), in milliseconds from the start of navigation. Cold: a fresh browser
context for every load (empty cache). Warm: one context, the page loaded once, then reloaded.

    .venv/bin/python benchmarks/browser.py
    .venv/bin/python benchmarks/browser.py --runs 9 --lang el --game eagle_wing
    .venv/bin/python benchmarks/browser.py --site /tmp/site   # a site built with the live board
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
BOARD_MARK = "pb-board-playable"
EXAMPLE_MARK = "pb-example-first-step"
#: Targets: a playable board within 5 s on a cold cache; the first example step within 200 ms.
BOARD_TARGET_MS = 5000
EXAMPLE_TARGET_MS = 200


def build(out: Path, lang: str, game: str) -> Path:
    """The project's site in ``lang`` with the live board's files, in ``out``."""
    from patiencebook.generator.pages.board import find_pyodide
    from patiencebook.generator.site.build import build_site

    if find_pyodide() is None:
        sys.exit("browser.py: node_modules/pyodide not found; run `npm ci` (scripts/setup.sh does)")
    build_site(ROOT / "rules", ROOT / "locales", out, langs=[lang], echo=False, report=False)
    return out


def _mark(page, name: str, timeout_ms: int) -> float | None:
    """The start time (ms from navigation) of performance mark ``name``, or None when none comes."""
    script = f"() => performance.getEntriesByName({name!r}).length > 0"
    try:
        page.wait_for_function(script, timeout=timeout_ms)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: the page has no such mark
        return None
    return page.evaluate(f"() => performance.getEntriesByName({name!r})[0].startTime")


def _load(page, url: str | None) -> tuple[float | None, float | None]:
    if url is None:
        page.reload()
    else:
        page.goto(url)
    example = _mark(page, EXAMPLE_MARK, 5000)
    board = _mark(page, BOARD_MARK, 60000)
    return board, example


def _summary(values: list[float | None]) -> str:
    got = [v for v in values if v is not None]
    if not got:
        return "no mark"
    return (f"median {statistics.median(got):7.0f} ms   min {min(got):7.0f}   max {max(got):7.0f}"
            f"   ({len(got)} of {len(values)} loads)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="loads per case (default 5)")
    parser.add_argument("--lang", default="de", help="language of the page (default de)")
    parser.add_argument("--game", default="hamilton", help="game page (default hamilton)")
    parser.add_argument("--site", type=Path, help="a built site with the live board (default: build one)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from patiencebook.generator.serve import make_server

    with tempfile.TemporaryDirectory(prefix="pb-bench-") as tmp:
        site = args.site or build(Path(tmp) / "site", args.lang, args.game)
        httpd = make_server(site, port=0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{httpd.server_address[1]}/{args.lang}/{args.game}.html"
        cold: list[tuple[float | None, float | None]] = []
        warm: list[tuple[float | None, float | None]] = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                for _ in range(args.runs):
                    context = browser.new_context()
                    cold.append(_load(context.new_page(), url))
                    context.close()
                context = browser.new_context()
                page = context.new_page()
                _load(page, url)  # fills the cache
                for _ in range(args.runs):
                    warm.append(_load(page, None))
                context.close()
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()

    print(f"{url.split('/', 3)[-1]}, {args.runs} loads per case, ms from navigation start")
    print(f"  board playable, cold cache:   {_summary([b for b, _ in cold])}")
    print(f"  board playable, warm cache:   {_summary([b for b, _ in warm])}")
    print(f"  first example step, cold:     {_summary([e for _, e in cold])}")
    print(f"  first example step, warm:     {_summary([e for _, e in warm])}")
    board_cold = [b for b, _ in cold if b is not None]
    example_cold = [e for _, e in cold if e is not None]
    if board_cold:
        ok = statistics.median(board_cold) < BOARD_TARGET_MS
        print(f"  target: board playable under {BOARD_TARGET_MS} ms cold: {'met' if ok else 'NOT met'}")
    if example_cold:
        ok = statistics.median(example_cold) < EXAMPLE_TARGET_MS
        print(f"  target: first example step under {EXAMPLE_TARGET_MS} ms: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
