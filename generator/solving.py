"""``patiencebook solve``: how many deals of a game can be won with all cards known.

Runs :func:`patiencebook.engine.solver.solve` on AisleRiot's deal numbers of a game of the
embedded rules, in parallel processes, and reports each deal and the rates.
"""

from __future__ import annotations

import multiprocessing
import os
import re
from dataclasses import dataclass
from typing import Callable, Iterable

from patiencebook.engine import Game, Ruleset
from patiencebook.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE, solve
from patiencebook.generator.build import _worker_signals  # workers end quietly when the pool closes
from patiencebook.generator.errors import PatienceBookError

__all__ = ["DealResult", "parse_deals", "solve_deals", "summary"]

_RANGE = re.compile(r"^\s*(\d{1,10})\s*(?:-\s*(\d{1,10})\s*)?$")
_MAX_DEALS = 1_000_000


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal's answer: ``deal`` number, ``status`` (solved, unsolvable, unknown), positions
    searched (``nodes``), and the number of moves of the win found (0 when none)."""

    deal: int
    status: str
    nodes: int
    moves: int


def parse_deals(text: str) -> list[int]:
    """Deal numbers from ``"1-1000"``, ``"7"`` or a comma-separated list of both (``"1-5,9"``).

    Raises :class:`PatienceBookError` for anything else, a range that runs backwards, or more
    than a million deals."""
    deals: list[int] = []
    for part in text.split(","):
        match = _RANGE.match(part)
        if not match:
            raise PatienceBookError(f"deals are numbers or ranges such as 1-1000, not {part.strip()[:40]!r}")
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        if last < first:
            raise PatienceBookError(f"the range {first}-{last} runs backwards")
        if len(deals) + last - first + 1 > _MAX_DEALS:
            raise PatienceBookError(f"at most {_MAX_DEALS} deals at once")
        deals.extend(range(first, last + 1))
    return deals


def _one(args: tuple[Ruleset, int, int]) -> DealResult:
    ruleset, deal, budget = args
    result = solve(Game.deal(ruleset, deal).position, budget)
    return DealResult(deal, result.status, result.nodes, len(result.moves))


def solve_deals(ruleset: Ruleset, deals: Iterable[int], budget: int, jobs: int | None = None,
                report: Callable[[DealResult], None] | None = None) -> list[DealResult]:
    """Solve each of ``deals`` of ``ruleset`` with a budget of ``budget`` positions, ``jobs``
    processes at once (default: the number of cores); ``report`` is called with each result as
    it comes, in deal order. Returns the results in deal order."""
    work = [(ruleset, deal, budget) for deal in deals]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(work) or 1))
    results = []
    if jobs == 1:
        for item in work:
            results.append(_one(item))
            if report:
                report(results[-1])
        return results
    with multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None
                                     ).Pool(jobs, initializer=_worker_signals) as pool:
        for result in pool.imap(_one, work, chunksize=4):
            results.append(result)
            if report:
                report(result)
    return results


def summary(game: str, variant: str, results: list[DealResult], budget: int) -> str:
    """The closing lines: counts and rates of solved, unsolvable and unknown deals."""
    total = len(results) or 1
    count = {status: sum(1 for r in results if r.status == status) for status in (SOLVED, UNSOLVABLE, UNKNOWN)}
    numbers = [r.deal for r in results]
    if not numbers:
        deals = "no deals"
    elif numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        deals = f"deals {numbers[0]}-{numbers[-1]}"
    else:
        deals = f"{len(numbers)} deals from {min(numbers)} to {max(numbers)}"
    nodes = sum(r.nodes for r in results)
    return (f"{game} ({variant}), {deals}, all cards known, budget {budget} positions per deal:\n"
            f"  solved {count[SOLVED]} ({100 * count[SOLVED] / total:.1f} %), "
            f"unsolvable {count[UNSOLVABLE]} ({100 * count[UNSOLVABLE] / total:.1f} %), "
            f"unknown {count[UNKNOWN]} ({100 * count[UNKNOWN] / total:.1f} %); {nodes} positions searched")
