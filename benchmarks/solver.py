"""Solver speed: positions per second and deals per second of `engine/solver.py` on each game of
the embedded rules, over the same deals, in this one process (one core), and beside Freecell
Solver (`fc-solve`, Debian `freecell-solver-bin`) on the same Microsoft FreeCell deals.

    .venv/bin/python benchmarks/solver.py [--deals 1-20] [--budget 20000] [--ms 1-100]

Prints, per game, the deals solved, proved unsolvable and left unknown, the positions searched,
and the rates; then, for Microsoft deals (default ms1-ms100), ours and fc-solve's deals solved,
positions (fc-solve: states checked) per second, deals per second, and the ratio of deals per
second (ours / fc-solve). fc-solve runs one process per deal, started from here, so its figures
include process start-up, as a user running it on a deal would see.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time

from pathlib import Path

from patiencebook.engine import Game, Position
from patiencebook.engine.msdeals import ms_deal_cards
from patiencebook.engine.solver import SOLVED, UNSOLVABLE, solve
from patiencebook.generator.play import known_games
from patiencebook.generator.solving import parse_deals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-20", help="AisleRiot deal numbers (default 1-20)")
    parser.add_argument("--budget", type=int, default=20_000, help="positions per deal (default 20000)")
    parser.add_argument("--ms", default="1-100", help="Microsoft FreeCell deals for the fc-solve comparison")
    args = parser.parse_args()
    deals = parse_deals(args.deals)
    games = known_games()
    print(f"deals {args.deals}, budget {args.budget} positions per deal, one process")
    print(f"{'game':<12}{'solved':>8}{'unsolv.':>9}{'unknown':>9}{'positions':>11}{'pos/s':>10}{'deals/s':>9}")
    for name, game in sorted(games.items()):
        started = time.perf_counter()
        counts = {SOLVED: 0, UNSOLVABLE: 0, "unknown": 0}
        nodes = 0
        for deal in deals:
            result = solve(Game.deal(game.ruleset, deal).position, args.budget)
            counts[result.status] += 1
            nodes += result.nodes
        seconds = time.perf_counter() - started
        print(f"{name:<12}{counts[SOLVED]:>8}{counts[UNSOLVABLE]:>9}{counts['unknown']:>9}{nodes:>11}"
              f"{nodes / seconds:>10,.0f}{len(deals) / seconds:>9.2f}")
    if shutil.which("fc-solve") is None:
        print("fc-solve comparison: fc-solve is not installed (scripts/setup.sh bench installs it)")
        return 1
    compare_fc_solve(games["freecell"].ruleset, parse_deals(args.ms), args.budget)
    return 0


def compare_fc_solve(ruleset, deals: list[int], budget: int) -> None:
    """Ours and fc-solve on the same Microsoft deals, one after the other in this process."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.fcsolve import fc_solve_run, ms_deal_board_columns

    started = time.perf_counter()
    ours = [solve(Position.initial(ruleset, ms_deal_cards(n)), budget) for n in deals]
    our_seconds = time.perf_counter() - started
    started = time.perf_counter()
    theirs = [fc_solve_run(ms_deal_board_columns(n), 2_000_000) for n in deals]
    their_seconds = time.perf_counter() - started
    our_nodes = sum(r.nodes for r in ours)
    their_states = sum(r.iterations or 0 for r in theirs)
    print(f"\nFreeCell, Microsoft deals ms{deals[0]}-ms{deals[-1]} ({len(deals)} deals), one core:")
    print(f"{'':<10}{'solved':>8}{'unsolv.':>9}{'unknown':>9}{'positions':>11}{'pos/s':>11}{'deals/s':>9}")
    print(f"{'ours':<10}{sum(r.status == SOLVED for r in ours):>8}{sum(r.status == UNSOLVABLE for r in ours):>9}"
          f"{sum(r.status not in (SOLVED, UNSOLVABLE) for r in ours):>9}{our_nodes:>11}"
          f"{our_nodes / our_seconds:>11,.0f}{len(deals) / our_seconds:>9.2f}")
    print(f"{'fc-solve':<10}{sum(r.verdict == 'solved' for r in theirs):>8}"
          f"{sum(r.verdict == 'unsolvable' for r in theirs):>9}{sum(r.verdict == 'unknown' for r in theirs):>9}"
          f"{their_states:>11}{their_states / their_seconds:>11,.0f}{len(deals) / their_seconds:>9.2f}")
    print(f"ratio of deals per second, ours / fc-solve: {their_seconds / our_seconds:.3f} "
          f"(fc-solve is {our_seconds / their_seconds:.0f} times as fast)")


if __name__ == "__main__":
    sys.exit(main())
