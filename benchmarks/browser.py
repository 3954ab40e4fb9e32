"""Times a game page in a real browser: what it transfers before the reader does anything, how soon
its first example step is drawn, and how long the live board takes from the Play button to playable,
on the first game page of a visit (cold) and on another game page after that one (warm).

Builds the project's site for one language with the Pyodide runtime (or uses --site), serves it on
127.0.0.1 with ``patiencebook serve``'s server, and drives Debian's chromium through Playwright,
headless, all in this one process. Each run is a fresh browser context (empty HTTP cache, Cache
Storage and service workers):

1. it opens the game page and counts the bytes of every response (bodies and headers) from the
   start until 2 s after the page's load event, with no input: the page-load figure;
2. the first example step is the page's performance mark ``pb-example-first-step``, in ms from
   the start of navigation;
3. it clicks Play and times from the press (a mark set by a capturing ``pointerdown`` listener)
   to the mark ``pb-board-playable`` (the engine's first position drawn): cold;
4. in the same context it opens another game page, waits for its load, clicks Play and times the
   same way: warm, with the runtime kept by the site's service worker.

    .venv/bin/python benchmarks/browser.py
    .venv/bin/python benchmarks/browser.py --runs 9 --lang el --game eagle_wing --other klondike
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
PRESS_MARK = "bench-play-press"
#: Seconds after the load event during which page-load bytes are still counted.
QUIET_SECONDS = 2.0
#: Targets: page load before any input at most 1 MB; Play to playable at most 3 s on the first
#: game page, at most 1 s on a later one; the first example step at most 200 ms (cold).
PAGE_BYTES_TARGET = 1_000_000
PLAY_COLD_TARGET_MS = 3000
PLAY_WARM_TARGET_MS = 1000
EXAMPLE_TARGET_MS = 200


def build(out: Path, lang: str) -> Path:
    """The project's site in ``lang`` with the live board's files, in ``out``."""
    from patiencebook.generator.pages.board import find_pyodide
    from patiencebook.generator.site.build import build_site

    if find_pyodide() is None:
        sys.exit("browser.py: node_modules/pyodide not found; run `npm ci` (scripts/setup.sh does)")
    result = build_site(ROOT / "rules", ROOT / "locales", out, langs=[lang], echo=False, report=False)
    for warning in result.warnings:
        print(f"build: {warning}")
    return out


def _mark(page, name: str, timeout_ms: int) -> float | None:
    """The start time (ms from navigation) of performance mark ``name``, or None when none comes."""
    script = f"() => performance.getEntriesByName({name!r}).length > 0"
    try:
        page.wait_for_function(script, timeout=timeout_ms)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: the page has no such mark
        return None
    return page.evaluate(f"() => performance.getEntriesByName({name!r})[0].startTime")


def _bytes(requests: list) -> int:
    """Response bytes (headers and body as received) of the finished ``requests``."""
    total = 0
    for request in requests:
        try:
            sizes = request.sizes()
        except Exception:  # noqa: BLE001 - a request the browser dropped has no sizes
            continue
        total += max(sizes.get("responseBodySize", 0), 0) + max(sizes.get("responseHeadersSize", 0), 0)
    return total


def _play(page, timeout_ms: int = 60000) -> float | None:
    """Click Play like a reader; ms from the press to the board playable, or None."""
    page.evaluate(f"""() => document.addEventListener('pointerdown',
        () => performance.mark({PRESS_MARK!r}), {{capture: true, once: true}})""")
    page.locator(".pb-board-play").scroll_into_view_if_needed()
    page.click(".pb-board-play")
    playable = _mark(page, BOARD_MARK, timeout_ms)
    if playable is None:
        return None
    return playable - page.evaluate(f"() => performance.getEntriesByName({PRESS_MARK!r})[0].startTime")


def run_once(browser, url: str, other: str) -> dict:
    """One visit in a fresh context: page-load bytes, first example step, Play cold, Play warm."""
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    finished: list = []
    early: list[str] = []
    context.on("requestfinished", lambda request: finished.append(request))
    try:
        page = context.new_page()
        page.on("request", lambda request: early.append(request.url))
        page.goto(url, wait_until="load")
        page.wait_for_timeout(QUIET_SECONDS * 1000)
        quiet = list(finished)
        runtime_before_input = [u for u in early if "/_pyodide/" in u or "/_engine/" in u]
        result = {
            "bytes": _bytes(quiet),
            "requests": len(quiet),
            "runtime_early": runtime_before_input,
            "example": _mark(page, EXAMPLE_MARK, 5000),
            "cold": _play(page),
        }
        cold_end = len(finished)
        second = context.new_page()
        page.close()
        responses: list = []
        second.on("response", lambda response: responses.append(response))
        second.goto(other, wait_until="load")
        result["warm"] = _play(second)
        runtime = [r for r in responses if "/_pyodide/" in r.url or "/_engine/" in r.url]
        result["warm_from_worker"] = sum(1 for r in runtime if r.from_service_worker)
        result["warm_runtime"] = len(runtime)
        result["cold_bytes"] = _bytes(finished[len(quiet):cold_end])
    finally:
        context.close()
    return result


def _summary(values: list[float | None], unit: str = "ms", scale: float = 1.0) -> str:
    got = [v / scale for v in values if v is not None]
    if not got:
        return "no figure"
    fmt = "{:8.0f}" if unit == "ms" else "{:8.3f}"
    return (f"median {fmt.format(statistics.median(got))} {unit}   min {fmt.format(min(got))}"
            f"   max {fmt.format(max(got))}   ({len(got)} of {len(values)})")


def _target(name: str, values: list[float | None], target: float, unit: str, scale: float = 1.0) -> bool:
    got = [v for v in values if v is not None]
    if not got:
        print(f"  {name}: no figure")
        return False
    median = statistics.median(got)
    ok = median <= target
    shown = f"{median / scale:.3f}" if unit == "MB" else f"{median:.0f}"
    wanted = f"{target / scale:.3f}" if unit == "MB" else f"{target:.0f}"
    print(f"  {name}: median {shown} {unit}, target at most {wanted} {unit}, ratio {median / target:.2f}: "
          f"{'met' if ok else 'NOT met'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="visits, each in a fresh context (default 5)")
    parser.add_argument("--lang", default="de", help="language of the pages (default de)")
    parser.add_argument("--game", default="hamilton", help="game page opened first (default hamilton)")
    parser.add_argument("--other", default="klondike", help="game page opened second (default klondike)")
    parser.add_argument("--site", type=Path, help="a built site with the live board (default: build one)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from patiencebook.generator.serve import make_server

    with tempfile.TemporaryDirectory(prefix="pb-bench-") as tmp:
        site = args.site or build(Path(tmp) / "site", args.lang)
        httpd = make_server(site, port=0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}/{args.lang}"
        url, other = f"{base}/{args.game}.html", f"{base}/{args.other}.html"
        results = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                for _ in range(args.runs):
                    results.append(run_once(browser, url, other))
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()

    print(f"{args.lang}/{args.game}.html then {args.lang}/{args.other}.html, {args.runs} visits, "
          f"each in a fresh browser context")
    print(f"  page load, bytes until load + {QUIET_SECONDS:.0f} s, no input:  "
          f"{_summary([r['bytes'] for r in results], 'MB', 1e6)}   "
          f"({statistics.median(r['requests'] for r in results):.0f} responses)")
    early = sorted({u for r in results for u in r["runtime_early"]})
    print(f"  runtime requests before any input: {len(early)}" + (f" {early}" if early else ""))
    print(f"  first example step (ms from navigation):  {_summary([r['example'] for r in results])}")
    print(f"  Play to playable, first game page (cold):  {_summary([r['cold'] for r in results])}"
          f"   ({statistics.median(r['cold_bytes'] for r in results) / 1e6:.1f} MB fetched)")
    print(f"  Play to playable, next game page (warm):   {_summary([r['warm'] for r in results])}"
          f"   ({statistics.median(r['warm_from_worker'] for r in results):.0f} of "
          f"{statistics.median(r['warm_runtime'] for r in results):.0f} runtime files from the service worker)")
    print("targets (median of the visits):")
    _target("page load before input", [r["bytes"] for r in results], PAGE_BYTES_TARGET, "MB", 1e6)
    _target("first example step", [r["example"] for r in results], EXAMPLE_TARGET_MS, "ms")
    _target("Play to playable, cold", [r["cold"] for r in results], PLAY_COLD_TARGET_MS, "ms")
    _target("Play to playable, warm", [r["warm"] for r in results], PLAY_WARM_TARGET_MS, "ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
