"""Solver speed: positions per second and deals per second of `engine/solver.py` on each game of
the embedded rules, over the same deals, in this one process (one core).

    .venv/bin/python benchmarks/solver.py [--deals 1-20] [--budget 20000]

Prints, per game, the deals solved, proved unsolvable and left unknown, the positions searched,
and the rates. The comparison with Freecell Solver (`fc-solve`, Debian `freecell-solver-bin`) on
the same FreeCell deals is printed once FreeCell is among the games; until then the line says so.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time

from patiencebook.engine import Game
from patiencebook.engine.solver import SOLVED, UNSOLVABLE, solve
from patiencebook.generator.play import known_games
from patiencebook.generator.solving import parse_deals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-20", help="AisleRiot deal numbers (default 1-20)")
    parser.add_argument("--budget", type=int, default=20_000, help="positions per deal (default 20000)")
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
    if "freecell" not in games:
        found = "installed" if shutil.which("fc-solve") else "not installed"
        print(f"fc-solve comparison: FreeCell is not among the games of the embedded rules yet (fc-solve {found})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
