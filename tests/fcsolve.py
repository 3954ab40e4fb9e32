"""Test support: ask Freecell Solver (Debian's freecell-solver-bin, installed by ``scripts/setup.sh test``)
whether a FreeCell position can be won, and render our numbered deals in its board format.

The board format fc-solve reads: an optional ``Foundations: H-0 C-0 D-0 S-0`` line (the top card
of each suit's foundation as a rank letter, ``0`` for none), an optional ``Freecells:`` line (the
cards in the free cells, ``-`` for an empty cell), then one line per tableau column, listing its
cards from the covered end to the exposed card; a card is its rank (``A 2 … 9 T J Q K``, ``10`` is
also read) followed by its suit letter in capitals (``C D H S``). Facts from Freecell Solver's
USAGE and README.board_gen files and from trying the program.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from typing import Iterable, Sequence

from patiencebook.engine.cards import Card, Rank, Suit
from patiencebook.engine.msdeals import ms_deal_columns

__all__ = ["SETUP_COMMAND", "FC_SOLVE_OPTIONS", "FcSolveMissing", "FcSolveError", "FcSolveResult",
           "fc_solve_path", "card_text", "board_text", "ms_deal_board_columns", "ms_deal_board",
           "fc_solve_run", "fc_solve_verdict"]

#: The command that installs fc-solve with the other test tools.
SETUP_COMMAND = "scripts/setup.sh test"

#: What every run asks of fc-solve, before ``--max-iters``:
#:   ``-g freecell``     Microsoft FreeCell's rules: 4 free cells, 8 columns, build down in alternate colour,
#:                       any card may fill an empty column, a run of up to (free cells + 1) * 2 ** (empty columns)
#:                       cards moves at once;
#:   ``-l good-intentions``  a fast scan with composite moves, then, only when that finds no win, a scan of
#:                       single-card moves, so "could not solve" means the whole game was searched;
#:   ``-sel``            say "Iterations count exceeded." when the limit stops the search, so that it is not
#:                       mistaken for "I could not solve this game.";
#:   ``-m``              print a winning line as moves, much shorter than the default list of positions
#:                       (fc-solve has no switch to print only the verdict).
FC_SOLVE_OPTIONS = ("-g", "freecell", "-l", "good-intentions", "-sel", "-m")

_VERDICTS = {
    "This game is solveable.": "solved",
    "I could not solve this game.": "unsolvable",
    "Iterations count exceeded.": "unknown",
}
_ITERATIONS = re.compile(r"^Total number of states checked is (\d+)\.$", re.MULTILINE)
_FOUNDATION_ORDER = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)


class FcSolveMissing(RuntimeError):
    """fc-solve is not installed; the message names the setup command that installs it."""


class FcSolveError(RuntimeError):
    """fc-solve refused the board or gave no verdict; the message quotes its output."""


@dataclass(frozen=True, slots=True)
class FcSolveResult:
    """One fc-solve run: ``verdict`` is ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (stopped by the
    iteration limit or the timeout); ``iterations`` is the number of positions it checked (``None`` after a
    timeout); ``seconds`` is the wall time of the run, process start included."""

    verdict: str
    iterations: int | None
    seconds: float


def fc_solve_path() -> str:
    """The path of the fc-solve program; raises :class:`FcSolveMissing` when it is not on ``PATH``."""
    path = shutil.which("fc-solve")
    if path is None:
        raise FcSolveMissing(f"fc-solve not found on PATH (Debian package freecell-solver-bin); "
                             f"run {SETUP_COMMAND}")
    return path


def card_text(card: Card | str) -> str:
    """One card in fc-solve's form (``"JD"``, ``"TC"``) from a :class:`Card` or any text
    :meth:`Card.parse` reads (``"Jd"``, ``"10c"``, ``"TC"``); a joker raises ``ValueError``."""
    if not isinstance(card, Card):
        card = Card.parse(card)
    if card.is_joker:
        raise ValueError("FreeCell is played without jokers")
    return f"{card.rank.letter}{card.suit.letter.upper()}"


def board_text(columns: Sequence[Iterable[Card | str]], freecells: Iterable[Card | str | None] = (),
               foundations: dict[Suit, int] | None = None) -> str:
    """A position in fc-solve's board format (see the module text), ending with a newline.

    ``columns``: the tableau, each column listed from its covered end to its exposed card;
    ``freecells``: the cards in the free cells (up to 4; ``None`` for an empty cell);
    ``foundations``: the top rank (1 to 13) on each suit's foundation, suits left out having none.
    The two header lines are written only when there is something to say, which is how a fresh
    deal looks.
    """
    lines = []
    if foundations:
        lines.append("Foundations: " + " ".join(
            f"{suit.letter.upper()}-{_foundation_rank(foundations.get(suit, 0))}" for suit in _FOUNDATION_ORDER))
    cells = ["-" if card is None else card_text(card) for card in freecells]
    if cells:
        lines.append("Freecells: " + " ".join(cells))
    lines.extend(" ".join(card_text(card) for card in column) for column in columns)
    return "\n".join(lines) + "\n"


def _foundation_rank(top: int) -> str:
    # fc-solve reads a foundation's top card as a rank letter (``K``, not ``13``), ``0`` when empty.
    return Rank(top).letter if top else "0"


def ms_deal_board_columns(number: int) -> list[list[str]]:
    """Microsoft FreeCell deal ``number`` (our :func:`~patiencebook.engine.msdeals.ms_deal_columns`) as 8 lists of
    fc-solve card texts, covered end first: the ``columns`` argument of :func:`fc_solve_verdict`."""
    return [[card_text(card) for card in column] for column in ms_deal_columns(number)]


def ms_deal_board(number: int) -> str:
    """Microsoft FreeCell deal ``number`` as an fc-solve board: the same text, line for line, as
    ``make-microsoft-freecell-board -t NUMBER`` prints."""
    return board_text(ms_deal_columns(number))


def fc_solve_run(columns: Sequence[Iterable[Card | str]], max_iters: int, *,
                 freecells: Iterable[Card | str | None] = (), foundations: dict[Suit, int] | None = None,
                 timeout: float = 60.0) -> FcSolveResult:
    """Run fc-solve (:data:`FC_SOLVE_OPTIONS` then ``-mi MAX_ITERS``) on a FreeCell position.

    ``max_iters`` bounds the positions checked over both scans together; ``timeout`` (seconds)
    bounds the wall time, after which the process is killed and the verdict is ``"unknown"``.
    Raises :class:`FcSolveMissing` without fc-solve, ``ValueError`` for a card text that is not a
    card, and :class:`FcSolveError` when fc-solve rejects the board (a missing or repeated card,
    a bad line) or prints no verdict.
    """
    if isinstance(max_iters, bool) or not isinstance(max_iters, int) or max_iters < 1:
        raise ValueError(f"max_iters is a positive integer, not {max_iters!r}")
    board = board_text(columns, freecells, foundations)
    command = [fc_solve_path(), *FC_SOLVE_OPTIONS, "-mi", str(max_iters), "-"]
    # Without this variable fc-solve prints a usage hint on stderr whenever it reads standard input.
    env = dict(os.environ, FREECELL_SOLVER_QUIET="1")
    start = time.perf_counter()
    try:
        done = subprocess.run(command, input=board, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return FcSolveResult("unknown", None, time.perf_counter() - start)
    seconds = time.perf_counter() - start
    verdicts = [_VERDICTS[line] for line in done.stdout.splitlines() if line in _VERDICTS]
    iterations = _ITERATIONS.findall(done.stdout)
    if done.returncode != 0 or not verdicts or not iterations:
        raise FcSolveError(f"fc-solve gave no verdict (exit status {done.returncode}) for the board\n{board}"
                           f"output: {(done.stdout[-400:] + done.stderr[-400:]).strip()!r}")
    # A scan that finds no win hands over to the next, so the last verdict is the final one.
    return FcSolveResult(verdicts[-1], int(iterations[-1]), seconds)


def fc_solve_verdict(columns: Sequence[Iterable[Card | str]], max_iters: int, *,
                     freecells: Iterable[Card | str | None] = (), foundations: dict[Suit, int] | None = None,
                     timeout: float = 60.0) -> str:
    """``"solved"``, ``"unsolvable"`` or ``"unknown"`` for a FreeCell position, from fc-solve under
    Microsoft FreeCell's rules: the ``verdict`` of :func:`fc_solve_run`, which documents the
    arguments and errors. ``"unsolvable"`` is a proof (every line of single-card moves was tried);
    ``"unknown"`` means the iteration limit or the timeout came first."""
    return fc_solve_run(columns, max_iters, freecells=freecells, foundations=foundations,
                        timeout=timeout).verdict
