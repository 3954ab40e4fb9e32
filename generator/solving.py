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

from patiencebook.engine import Game, Move, Position, Ruleset
from patiencebook.engine.msdeals import MS_COLUMNS, ms_deal_cards
from patiencebook.engine.rules import DealOrder, Face, Role
from patiencebook.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE, solve
from patiencebook.engine.wording import Wording
from patiencebook.generator.processes import worker_signals  # workers end quietly when the pool closes
from patiencebook.generator.errors import PatienceBookError

__all__ = ["DealResult", "MS", "MAX_DEAL", "parse_deals", "parse_deal_spec", "check_ms_deals", "solve_deals",
           "solution_lines", "summary", "rates"]

#: The numbering of Microsoft's FreeCell deals (``ms123``), beside AisleRiot's (plain numbers).
MS = "ms"
_RANGE = re.compile(r"^\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?$")
#: The largest AisleRiot deal number (its deals are numbered by a 32-bit seed).
MAX_DEAL = 2**32 - 1
_MAX_DEALS = 1_000_000


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal's answer: ``deal`` number, ``status`` (solved, unsolvable, unknown), positions
    searched (``nodes``), the number of moves of the win found (0 when none), the numbering of
    ``deal`` (``""`` or :data:`MS`) and, when asked for, the win's moves in notation (``solution``,
    from the dealt position; empty otherwise)."""

    deal: int
    status: str
    nodes: int
    moves: int
    numbering: str = ""
    solution: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The deal as the user names it: ``7``, or ``ms7`` for a Microsoft deal number."""
        return f"{self.numbering}{self.deal}"


def parse_deals(text: str) -> list[int]:
    """Deal numbers from ``"1-1000"``, ``"7"`` or a comma-separated list of both (``"1-5,9"``), in
    ASCII digits, each from 0 to 4294967295 (AisleRiot's deal numbers).

    Raises :class:`PatienceBookError` for anything else, an empty item, a range that runs
    backwards, a deal named twice, or more than a million deals."""
    deals: list[int] = []
    named: set[int] = set()
    for part in text.split(","):
        if not part.strip():
            raise PatienceBookError(f"an empty item in the list of deals {text.strip()[:40]!r}")
        match = _RANGE.match(part)
        if not match:
            raise PatienceBookError(f"deals are numbers or ranges such as 1-1000, not {part.strip()[:40]!r}")
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        if last > MAX_DEAL:
            raise PatienceBookError(f"deal numbers run from 0 to {MAX_DEAL}, not {last}")
        if last < first:
            raise PatienceBookError(f"the range {first}-{last} runs backwards")
        if len(deals) + last - first + 1 > _MAX_DEALS:
            raise PatienceBookError(f"at most {_MAX_DEALS} deals at once")
        again = next((d for d in range(first, last + 1) if d in named), None) if named else None
        if again is not None:
            raise PatienceBookError(f"deal {again} is named twice in {text.strip()[:40]!r}")
        deals.extend(range(first, last + 1))
        named.update(range(first, last + 1))
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
    items = [[q.strip() for q in p.split("-")] for p in parts]
    if not all(len(item) <= 2 and all(q.lower().startswith(MS) and q[len(MS):].isascii()
                                      and q[len(MS):].isdigit() for q in item) for item in items):
        raise PatienceBookError(f"Microsoft deal numbers are written ms617 or ms1-ms100, not {text.strip()[:40]!r}")
    numbers = [[int(q[len(MS):]) for q in item] for item in items]
    if any(n < 1 or n > 2**31 - 1 for item in numbers for n in item):
        raise PatienceBookError("Microsoft deal numbers run from ms1 to ms2147483647")
    backwards = next((item for item in numbers if len(item) == 2 and item[1] < item[0]), None)
    if backwards:
        raise PatienceBookError(f"the range ms{backwards[0]}-ms{backwards[1]} runs backwards")
    return MS, parse_deals(",".join("-".join(str(n) for n in item) for item in numbers))


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


def _one(args: tuple[Ruleset, str, int, int, bool]) -> DealResult:
    ruleset, numbering, deal, budget, keep_moves = args
    result = solve(_position(ruleset, numbering, deal), budget)
    solution = tuple(str(move) for move in result.moves) if keep_moves else ()
    return DealResult(deal, result.status, result.nodes, len(result.moves), numbering, solution)


def solve_deals(ruleset: Ruleset, deals: Iterable[int], budget: int, jobs: int | None = None,
                report: Callable[[DealResult], None] | None = None, numbering: str = "",
                keep_moves: bool = False) -> list[DealResult]:
    """Solve each of ``deals`` of ``ruleset`` with a budget of ``budget`` positions, ``jobs``
    processes at once (default and most: the number of cores); ``report`` is called with each result as
    it comes, in deal order. ``numbering`` is ``""`` (AisleRiot's deal numbers) or :data:`MS`
    (Microsoft's FreeCell numbers; :func:`check_ms_deals` first). With ``keep_moves`` each solved
    deal's result holds its winning moves (:attr:`DealResult.solution`). Returns the results in deal
    order. Raises :class:`PatienceBookError` for Microsoft numbers of a game that does not deal that way."""
    if numbering == MS:
        check_ms_deals(ruleset)
    work = [(ruleset, numbering, deal, budget, keep_moves) for deal in deals]
    cores = os.cpu_count() or 1
    jobs = max(1, min(jobs or cores, cores, len(work) or 1))
    results = []
    if jobs == 1:
        for item in work:
            results.append(_one(item))
            if report:
                report(results[-1])
        return results
    with multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None
                                     ).Pool(jobs, initializer=worker_signals) as pool:
        for result in pool.imap(_one, work):  # one deal at a time, so each is reported as it ends
            results.append(result)
            if report:
                report(result)
    return results


def solution_lines(ruleset: Ruleset, result: DealResult, wording: Wording) -> list[str]:
    """The winning moves of a solved deal (``result.solution``), one line each: ``"  1. click the
    Stock (stock)"``, numbered from 1 (the numbers right-aligned), each move in words
    (:meth:`Wording.describe`, as played from the position before it) and then in notation.

    Raises :class:`~patiencebook.engine.errors.IllegalMove` when a move does not replay on the deal
    (the result is of other rules than ``ruleset``)."""
    position = _position(ruleset, result.numbering, result.deal)
    width = len(str(len(result.solution)))
    lines = []
    for number, text in enumerate(result.solution, 1):
        move = Move.parse(text)
        lines.append(f"  {number:>{width}}. {wording.describe(move, position)} ({text})")
        position = position.apply(move)
    return lines


def summary(game: str, variant: str, results: list[DealResult], budget: int) -> str:
    """The closing lines: counts and rates of solved, unsolvable and unknown deals."""
    numbers = [r.deal for r in results]
    ms = results[0].numbering if results else ""
    if not numbers:
        deals = "no deals"
    elif len(numbers) == 1:
        deals = f"deal {ms}{numbers[0]}"
    elif numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        deals = f"deals {ms}{numbers[0]}-{ms}{numbers[-1]}"
    else:
        deals = f"{len(numbers)} deals from {ms}{min(numbers)} to {ms}{max(numbers)}"
    nodes = sum(r.nodes for r in results)
    return (f"{game} ({variant}), {deals}, all cards known, budget {budget} positions per deal:\n"
            f"  {rates([r.status for r in results])}; {nodes} positions searched")


def rates(statuses: list[str]) -> str:
    """``solved N (x %), unsolvable N (y %), unknown N (z %)`` of a list of statuses."""
    total = len(statuses) or 1
    return ", ".join(f"{status} {statuses.count(status)} ({100 * statuses.count(status) / total:.1f} %)"
                     for status in (SOLVED, UNSOLVABLE, UNKNOWN))
