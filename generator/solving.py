"""``patiencebook solve``: how many deals of a game can be won with all cards known.

Runs :func:`patiencebook.engine.solver.solve` on AisleRiot's deal numbers of a game of the
embedded rules (or, for FreeCell, on Microsoft's deal numbers, ``ms123``), in parallel processes,
and reports each deal and the rates.
"""

from __future__ import annotations

import multiprocessing
import os
import re
from dataclasses import dataclass
from typing import Callable, Iterable

from patiencebook.engine import Game, Position, Ruleset
from patiencebook.engine.msdeals import MS_COLUMNS, MsDealError, ms_deal_cards
from patiencebook.engine.rules import DealOrder, Face, Role
from patiencebook.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE, solve
from patiencebook.generator.build import _worker_signals  # workers end quietly when the pool closes
from patiencebook.generator.errors import PatienceBookError

__all__ = ["DealResult", "MS", "parse_deals", "parse_deal_spec", "check_ms_deals", "solve_deals", "summary"]

#: The numbering of Microsoft's FreeCell deals (``ms123``), beside AisleRiot's (plain numbers).
MS = "ms"
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
    numbering: str = ""

    @property
    def name(self) -> str:
        """The deal as the user names it: ``7``, or ``ms7`` for a Microsoft deal number."""
        return f"{self.numbering}{self.deal}"


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


def parse_deal_spec(text: str) -> tuple[str, list[int]]:
    """``(numbering, deals)`` from ``"1-1000"`` (AisleRiot's numbers: numbering ``""``) or
    ``"ms1-ms100"``/``"ms617"`` (Microsoft's FreeCell numbers: numbering :data:`MS`, every part
    written with ``ms``). Raises :class:`PatienceBookError` as :func:`parse_deals` does, and for a
    list that mixes the two numberings."""
    parts = [p.strip() for p in text.split(",")]
    marked = [p.lower().startswith(MS) for p in parts]
    if not any(marked):
        return "", parse_deals(text)
    if not all(marked):
        raise PatienceBookError(f"a list of deals is either all Microsoft numbers (ms1-ms100) or none: {text[:40]!r}")
    plain = ",".join("-".join(q.strip()[len(MS):] if q.strip().lower().startswith(MS) else q for q in p.split("-"))
                     for p in parts)
    deals = parse_deals(plain)
    if deals and (deals[0] < 1 or max(deals) > 2**31 - 1):
        raise PatienceBookError("Microsoft deal numbers run from ms1 to ms2147483647")
    return MS, deals


def check_ms_deals(ruleset: Ruleset) -> None:
    """Raise :class:`PatienceBookError` unless ``ruleset`` deals Microsoft's way: one deck of 52, all
    face up, row by row onto eight tableau piles, nothing else dealt (FreeCell)."""
    steps = ruleset.deal
    group = ruleset.pile(steps[0].pile) if len(steps) == 1 else None
    if not (group is not None and group.role is Role.TABLEAU and group.count == MS_COLUMNS
            and ruleset.deck.size == 52 and ruleset.stock_size == 0 and steps[0].order is DealOrder.ROWS
            and steps[0].face is Face.UP):
        raise PatienceBookError(f"Microsoft deal numbers (ms123) deal 52 cards face up onto eight tableau piles, "
                                f"as FreeCell does; {ruleset.game} deals otherwise")


def _position(ruleset: Ruleset, numbering: str, deal: int) -> Position:
    if numbering == MS:
        return Position.initial(ruleset, ms_deal_cards(deal))
    return Game.deal(ruleset, deal).position


def _one(args: tuple[Ruleset, str, int, int]) -> DealResult:
    ruleset, numbering, deal, budget = args
    result = solve(_position(ruleset, numbering, deal), budget)
    return DealResult(deal, result.status, result.nodes, len(result.moves), numbering)


def solve_deals(ruleset: Ruleset, deals: Iterable[int], budget: int, jobs: int | None = None,
                report: Callable[[DealResult], None] | None = None, numbering: str = "") -> list[DealResult]:
    """Solve each of ``deals`` of ``ruleset`` with a budget of ``budget`` positions, ``jobs``
    processes at once (default: the number of cores); ``report`` is called with each result as
    it comes, in deal order. ``numbering`` is ``""`` (AisleRiot's deal numbers) or :data:`MS`
    (Microsoft's FreeCell numbers; :func:`check_ms_deals` first). Returns the results in deal order.
    Raises :class:`PatienceBookError` for Microsoft numbers of a game that does not deal that way."""
    if numbering == MS:
        check_ms_deals(ruleset)
    work = [(ruleset, numbering, deal, budget) for deal in deals]
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
    ms = results[0].numbering if results else ""
    if not numbers:
        deals = "no deals"
    elif numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        deals = f"deals {ms}{numbers[0]}-{ms}{numbers[-1]}"
    else:
        deals = f"{len(numbers)} deals from {ms}{min(numbers)} to {ms}{max(numbers)}"
    nodes = sum(r.nodes for r in results)
    return (f"{game} ({variant}), {deals}, all cards known, budget {budget} positions per deal:\n"
            f"  solved {count[SOLVED]} ({100 * count[SOLVED] / total:.1f} %), "
            f"unsolvable {count[UNSOLVABLE]} ({100 * count[UNSOLVABLE] / total:.1f} %), "
            f"unknown {count[UNKNOWN]} ({100 * count[UNKNOWN] / total:.1f} %); {nodes} positions searched")
