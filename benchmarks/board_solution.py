"""Times the live board's "Show a solution": the solver searching from a dealt position inside
Pyodide in a real browser, beside the same search in CPython, for a few deals of the embedded games.

The browser search runs on the page's main thread, so its time is how long the page waits; the
board's budget (``engine.frontend.SOLUTION_BUDGET`` positions) is chosen to keep that to a few
seconds. Builds the project's site for one language with the Pyodide runtime (or uses --site),
serves it on 127.0.0.1 with ``patiencebook serve``'s server and drives Debian's chromium through
Playwright, headless. Each figure is the best of ``--runs`` searches, in milliseconds.

    .venv/bin/python benchmarks/board_solution.py
    .venv/bin/python benchmarks/board_solution.py --budget 10000 --runs 3
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from browser import CHROMIUM, CHROMIUM_ARGS, build  # noqa: E402

#: (game page, variant id or None, deal): a quick win, a long one, and searches that use the budget.
CASES = [("freecell", None, 5), ("klondike", "three-card-deals", 7), ("spider", "one-suit", 5),
         ("klondike", None, 1), ("klondike", None, 5)]


def _python_ms(lang: str, game: str, variant: str | None, deal: int, budget: int, runs: int) -> tuple[float, dict]:
    """The best time of the search in this process, and its answer."""
    from patiencebook.engine.frontend import BoardGame
    from patiencebook.generator.docbook.sources import load_document
    from patiencebook.generator.languages import get_language, ui_strings
    from patiencebook.generator.pages.board import board_payload
    from patiencebook.generator.play import player_pile_names

    page = load_document(ROOT / "rules").page(game)
    language = get_language(lang)
    payload = board_payload(page.rules, language, player_pile_names(page.rules, language), deal=deal,
                            variants=page.variants)
    best, answer = float("inf"), {}
    for _ in range(runs):
        board = BoardGame.from_json(json.dumps(payload))
        board.new_game(deal, variant)
        start = time.perf_counter()
        answer = board.solution(budget)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best, answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2, help="searches per case (default 2)")
    parser.add_argument("--lang", default="de", help="language of the pages (default de)")
    parser.add_argument("--budget", type=int, help="positions per search (default: the board's)")
    parser.add_argument("--site", type=Path, help="a built site with the live board (default: build one)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from patiencebook.engine.frontend import SOLUTION_BUDGET
    from patiencebook.generator.serve import make_server

    budget = args.budget or SOLUTION_BUDGET
    rows = []
    with tempfile.TemporaryDirectory(prefix="pb-bench-") as tmp:
        site = args.site or build(Path(tmp) / "site", args.lang, "klondike")
        httpd = make_server(site, port=0)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}/{args.lang}"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                page = browser.new_page()
                for game, variant, deal in CASES:
                    page.goto(f"{base}/{game}.html")
                    page.wait_for_function("() => performance.getEntriesByName('pb-board-playable').length > 0",
                                           timeout=60000)
                    browser_ms = page.evaluate("""([deal, variant, budget, runs]) => {
                        const board = window.PatienceBookBoards[0];
                        let best = Infinity;
                        for (let i = 0; i < runs; i++) {
                            board.newGame(deal, variant);
                            const start = performance.now();
                            board.call("solution", [budget]);
                            best = Math.min(best, performance.now() - start);
                        }
                        return best;
                    }""", [deal, variant, budget, args.runs])
                    python_ms, answer = _python_ms(args.lang, game, variant, deal, budget, args.runs)
                    rows.append((f"{game} {variant or ''} deal {deal}".replace("  ", " "), answer["status"],
                                 answer["nodes"], len(answer["moves"]), browser_ms, python_ms))
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()

    print(f"solution search, budget {budget} positions, best of {args.runs}, ms")
    print(f"{'case':<36} {'status':<10} {'nodes':>6} {'moves':>5} {'pyodide':>9} {'cpython':>9} {'ratio':>6}")
    for name, status, nodes, moves, browser_ms, python_ms in rows:
        print(f"{name:<36} {status:<10} {nodes:>6} {moves:>5} {browser_ms:>9.0f} {python_ms:>9.0f} "
              f"{browser_ms / python_ms:>6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
