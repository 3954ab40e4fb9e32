"""Our solver against Freecell Solver on Microsoft's FreeCell deals: the same verdict wherever ours
reaches one, wins that replay move by move with the engine, and most deals decided.

Freecell Solver (Debian's freecell-solver-bin) is installed by the test setup; a missing fc-solve
fails here naming the setup command. Its verdicts come from tests/fcsolve.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.engine.msdeals import ms_deal_cards
from patiencebook.engine.position import Position
from patiencebook.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE, solve
from patiencebook.generator.docbook.sources import load_document
from tests.fcsolve import FcSolveMissing, fc_solve_path, fc_solve_verdict, ms_deal_board_columns

RULES = Path(__file__).resolve().parents[2] / "rules"
DEALS = range(1, 61)
BUDGET = 20_000


@pytest.fixture(scope="module")
def freecell():
    try:
        fc_solve_path()
    except FcSolveMissing as missing:
        pytest.fail(str(missing), pytrace=False)
    return load_document(RULES).page("freecell").rules


def test_our_verdicts_agree_with_freecell_solver_on_microsoft_deals(freecell):
    ours = {n: solve(Position.initial(freecell, ms_deal_cards(n)), BUDGET) for n in DEALS}
    theirs = {n: fc_solve_verdict(ms_deal_board_columns(n), 2_000_000) for n in DEALS}
    disagree = [(n, ours[n].status, theirs[n]) for n in DEALS
                if ours[n].status != UNKNOWN and ours[n].status != theirs[n]]
    assert disagree == []
    solved = sum(1 for r in ours.values() if r.status == SOLVED)
    print(f"\nms{DEALS[0]}-ms{DEALS[-1]}: ours solved {solved}, fc-solve solved "
          f"{sum(1 for v in theirs.values() if v == 'solved')}")
    assert solved >= 0.9 * len(DEALS)
    for n, result in ours.items():
        if result.status == SOLVED:
            position = Position.initial(freecell, ms_deal_cards(n))
            for move in result.moves:
                position = position.apply(move)
            assert position.is_won(), f"ms{n}: the moves found do not win"


def test_the_deal_freecell_solver_proves_lost_is_never_called_won(freecell):
    # ms11982 is the one deal of the first 32000 that cannot be won.
    assert fc_solve_verdict(ms_deal_board_columns(11982), 2_000_000) == UNSOLVABLE
    result = solve(Position.initial(freecell, ms_deal_cards(11982)), 5_000)
    assert result.status in (UNSOLVABLE, UNKNOWN)
