"""Speed of our rules engine against GNOME AisleRiot's rules in guile, in random playouts.

For each game: the same deals (seeds 1..DEALS), up to STEPS actions each. An action is: list every
legal action (drags, stock click, double-clicks), draw one at random, play it, and test for the end
of the game, until the game is won or over or has no action. Ours runs in this process on one core
(timed on a second pass over the deals, once its lookup tables are built);
AisleRiot's playout loop runs inside guile (tests/aisleriot/shim.scm, ``playouts``) and is timed
there, so the pipe to guile costs it nothing. Each side is timed ``--repeat`` times and its best
rate kept, as timeit does: a virtual machine's speed drifts by a third between runs, and the best of
a few runs is what the code itself costs. Run from the repository root:

    .venv/bin/python benchmarks/engine.py [--deals 50] [--steps 300] [--repeat 3] [--no-aisleriot] [--game ID ...]

The last lines give the lowest ratio and the games below 10 times AisleRiot's rate, if any.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from patiencebook.engine.deals import deal_order  # noqa: E402
from patiencebook.engine.moves import legal_moves  # noqa: E402
from patiencebook.engine.position import Position  # noqa: E402
from patiencebook.generator.docbook.sources import load_document  # noqa: E402
from tests.aisleriot.conftest import GAMES as REFERENCE  # noqa: E402

# Page id of rules/ -> AisleRiot's game module (each game with the rules its page states).
GAMES = {page_id: reference.module for page_id, reference in sorted(REFERENCE.items())}


def ours(ruleset, seeds: list[int], steps: int) -> tuple[int, float]:
    """Random playouts with our engine: (actions played, seconds). Dealing is not timed."""
    actions = 0
    elapsed = 0.0
    for seed in seeds:
        position = Position.initial(ruleset, deal_order(ruleset, seed))
        rng = random.Random(seed)
        start = time.perf_counter()
        for _ in range(steps):
            moves = list(legal_moves(position, double_clicks=True))
            if not moves:
                break
            position = position.apply(rng.choice(moves))
            actions += 1
            if position.is_won() or position.is_lost():
                break
        elapsed += time.perf_counter() - start
    return actions, elapsed


def aisleriot(game: str, seeds: list[int], steps: int, repeat: int = 1) -> tuple[int, float] | None:
    """The same playouts in AisleRiot's rules, timed inside guile, the fastest of ``repeat`` runs in
    one guile process; ``None`` when not set up."""
    try:
        from tests.aisleriot.harness import AisleRiotGame, HarnessMissing
    except ImportError:
        return None
    try:
        with AisleRiotGame(game, seeds[0], timeout=3600) as ref:
            runs = [ref.playouts(seeds, steps) for _ in range(repeat)]
            return min(runs, key=lambda run: run[1])
    except HarnessMissing as err:
        print(f"AisleRiot not measured: {err}", file=sys.stderr)
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each side; the best counts")
    parser.add_argument("--no-aisleriot", action="store_true", help="measure our engine only")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), metavar="ID",
                        help="measure this game only (repeatable; default: every game compared with AisleRiot)")
    args = parser.parse_args(argv)
    games = {page_id: GAMES[page_id] for page_id in args.game} if args.game else GAMES
    document = load_document(REPO_ROOT / "rules")
    seeds = list(range(1, args.deals + 1))
    print(f"random playouts, seeds 1-{args.deals}, up to {args.steps} actions each "
          "(legal-action listing with double-clicks, a random pick, the move, the end test); "
          f"best of {max(1, args.repeat)} runs each side")
    header = f"{'game':<20}{'ours act':>10}{'ours act/s':>12}{'AR act':>10}{'AR act/s':>11}{'ratio':>8}"
    print(header)
    print("-" * len(header))
    ratios: dict[str, float] = {}
    for page_id, game in games.items():
        ruleset = document.page(page_id).rules
        # An untimed first pass builds the per-base-rank lookup tables (a one-time cost per
        # process, like AisleRiot loading its compiled rules); the second pass is timed.
        ours(ruleset, seeds, args.steps)
        n, secs = min((ours(ruleset, seeds, args.steps) for _ in range(max(1, args.repeat))), key=lambda run: run[1])
        rate = n / secs if secs else float("inf")
        ref = None if args.no_aisleriot else aisleriot(game, seeds, args.steps, max(1, args.repeat))
        if ref is None:
            print(f"{page_id:<20}{n:>10}{rate:>12,.0f}{'-':>10}{'-':>11}{'-':>8}")
            continue
        rn, rsecs = ref
        rrate = rn / rsecs if rsecs else float("inf")
        ratios[page_id] = rate / rrate
        print(f"{page_id:<20}{n:>10}{rate:>12,.0f}{rn:>10}{rrate:>11,.0f}{rate / rrate:>7.1f}x")
    if ratios:
        slowest = min(ratios, key=ratios.get)
        below = [page_id for page_id, ratio in ratios.items() if ratio < 10]
        print(f"lowest ratio: {ratios[slowest]:.1f}x ({slowest}); below 10x: {', '.join(below) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
