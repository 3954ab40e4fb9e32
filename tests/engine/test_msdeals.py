"""Microsoft FreeCell's numbered deals, checked against Freecell Solver.

Where the values come from:
- Deals 1 and 617: the layouts printed by Freecell Solver's ``make-microsoft-freecell-board -t N``
  (Debian freecell-solver-bin 5.0.0), the same as Microsoft FreeCell shows for those numbers.
- Every other deal is compared live with that program (installed by ``scripts/setup.sh test``; a missing
  program fails the test and names that command).
- Deal 11982 is the one deal among 1 to 32000 that cannot be won; fc-solve proves it by searching
  every line of single-card moves.
"""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from patiencebook.engine.cards import Card, Rank, Suit, standard_deck
from patiencebook.engine.errors import EngineError
from patiencebook.engine.msdeals import (MS_COLUMNS, MS_DEAL_MAX, MS_DEAL_MIN, MsDealError, format_ms_deal,
                                         ms_deal_cards, ms_deal_columns, parse_ms_deal)
from tests.fcsolve import (SETUP_COMMAND, FcSolveError, FcSolveMissing, board_text, card_text, fc_solve_path,
                           fc_solve_run, fc_solve_verdict, ms_deal_board, ms_deal_board_columns)

GENERATOR = "make-microsoft-freecell-board"

# Rows as the deal lays them out (card 0 to column 1, card 1 to column 2, ...).
DEAL_1_ROWS = """\
Jd 2d 9h Jc 5d 7h 7c 5h
Kd Kc 9s 5s Ad Qc Kh 3h
2s Ks 9d Qd Js As Ah 3c
4c 5c Ts Qh 4h Ac 4d 7s
3s Td 4s Th 8h 2c Jh 7d
6d 8s 8d Qs 6c 3d 8c Tc
6s 9c 2h 6h"""

DEAL_617_ROWS = """\
7d Ad 5c 3s 5s 8c 2d Ah
Td 7s Qd Ac 6d 8h As Kh
Th Qc 3h 9d 6s 8d 3d Tc
Kd 5h 9s 3c 8s 7h 4d Js
4c Qs 9c 9h 7c 6h 2c 2s
4s Ts 2h 5d Jc 6c Jh Qh
Jd Ks Kc 4h"""


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in text.split())


@pytest.fixture(scope="module")
def generator() -> str:
    """Freecell Solver's deal generator; missing, it fails naming the setup command (setup installs it)."""
    path = shutil.which(GENERATOR)
    if path is None:
        pytest.fail(f"{GENERATOR} not found (Debian package freecell-solver-bin); run {SETUP_COMMAND}",
                    pytrace=False)
    return path


@pytest.fixture(scope="module")
def fc_solve() -> str:
    """The fc-solve program; missing, it fails naming the setup command."""
    try:
        return fc_solve_path()
    except FcSolveMissing as err:
        pytest.fail(str(err), pytrace=False)


def generated_boards(generator: str, numbers: list[int]) -> dict[int, str]:
    """The generator's board text for each number, from one shell run (one process per deal)."""
    script = f'for n in "$@"; do {generator} -t "$n"; echo; done'
    out = subprocess.run(["sh", "-c", script, "sh", *map(str, numbers)], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    boards = [board + "\n" for board in out.split("\n\n")[:-1]]
    assert len(boards) == len(numbers)
    return dict(zip(numbers, boards))


# -- the deal ---------------------------------------------------------------------------------

def test_deal_1_is_dealt_row_by_row_from_jack_of_diamonds():
    assert ms_deal_cards(1) == cards(DEAL_1_ROWS)
    assert ms_deal_cards(1)[:8] == cards("Jd 2d 9h Jc 5d 7h 7c 5h")


def test_deal_617_matches_its_published_layout():
    assert ms_deal_cards(617) == cards(DEAL_617_ROWS)


def test_columns_take_every_eighth_card_and_end_with_the_exposed_card():
    columns = ms_deal_columns(1)
    assert len(columns) == MS_COLUMNS == 8
    assert [len(column) for column in columns] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert columns[0] == cards("Jd Kd 2s 4c 3s 6d 6s")
    assert columns[7] == cards("5h 3h 3c 7s 7d Tc")
    assert [column[-1] for column in columns] == list(cards("6s 9c 2h 6h 6c 3d 8c Tc"))


@pytest.mark.parametrize("number", [1, 2, 617, 11982, 32000, 1_000_000, MS_DEAL_MAX])
def test_each_deal_holds_the_52_cards_once(number):
    dealt = ms_deal_cards(number)
    assert len(dealt) == 52
    assert sorted(dealt) == sorted(standard_deck())


def test_deals_are_the_same_on_every_call_and_differ_between_numbers():
    assert ms_deal_cards(11982) == ms_deal_cards(11982)
    assert len({ms_deal_cards(n) for n in range(1, 201)}) == 200


def test_deals_1_to_1000_match_freecell_solver_generator(generator):
    numbers = list(range(1, 1001))
    for number, board in generated_boards(generator, numbers).items():
        assert ms_deal_board(number) == board, number


def test_deals_up_to_2_31_minus_1_match_freecell_solver_generator(generator):
    # Numbers past 32000 (the original game's last) reach the high bits of the generator state.
    sample = random.Random(617).sample(range(32001, MS_DEAL_MAX), 60)
    numbers = [32000, 32001, 65535, 65536, 1_000_000, 2**30, MS_DEAL_MAX - 1, MS_DEAL_MAX, *sample]
    for number, board in generated_boards(generator, numbers).items():
        assert ms_deal_board(number) == board, number


# -- numbers and their text -------------------------------------------------------------------

@pytest.mark.parametrize("number", [0, -1, -617, MS_DEAL_MAX + 1, 2**32, 8589934591])
def test_deal_numbers_outside_1_to_2_31_minus_1_are_refused_naming_the_range(number):
    with pytest.raises(MsDealError) as err:
        ms_deal_cards(number)
    assert "1 to 2147483647" in str(err.value)
    assert str(number) in str(err.value)


@pytest.mark.parametrize("value", [True, 1.0, "1", None])
def test_deal_numbers_must_be_integers(value):
    with pytest.raises(ValueError, match="1 to 2147483647"):
        ms_deal_cards(value)
    with pytest.raises(MsDealError):
        ms_deal_columns(value)


def test_deal_number_error_is_an_engine_error_and_a_value_error():
    assert issubclass(MsDealError, EngineError) and issubclass(MsDealError, ValueError)
    assert (MS_DEAL_MIN, MS_DEAL_MAX) == (1, 2**31 - 1)


@pytest.mark.parametrize("text, number", [
    ("ms123", 123), ("MS123", 123), ("Ms1", 1), ("mS11982", 11982), (" ms617\n", 617), ("ms007", 7),
    ("ms2147483647", 2147483647),
])
def test_ms_deal_text_is_ms_then_the_number(text, number):
    assert parse_ms_deal(text) == number


@pytest.mark.parametrize("text", [
    "123", "ms", "ms-1", "ms+1", "ms 12", "ms12 x", "ms1.5", "ms1e3", "ms0x1f", "fc12", "", "m s12", "ms١٢",
    "ms１２", "12ms",
])
def test_ms_deal_text_of_another_form_is_refused_with_an_example(text):
    with pytest.raises(MsDealError) as err:
        parse_ms_deal(text)
    assert repr(text) in str(err.value)
    assert "'ms123'" in str(err.value)


@pytest.mark.parametrize("text", ["ms0", "ms2147483648", "MS99999999999"])
def test_ms_deal_text_outside_the_range_is_refused_naming_the_range(text):
    with pytest.raises(MsDealError, match="numbered 1 to 2147483647"):
        parse_ms_deal(text)


def test_ms_deal_text_must_be_a_string():
    with pytest.raises(MsDealError, match="'ms123'"):
        parse_ms_deal(123)  # type: ignore[arg-type]


@pytest.mark.parametrize("number", [1, 617, 11982, MS_DEAL_MAX])
def test_ms_deal_text_round_trips(number):
    assert format_ms_deal(number) == f"ms{number}"
    assert parse_ms_deal(format_ms_deal(number)) == number


def test_ms_deal_text_refuses_a_number_outside_the_range():
    with pytest.raises(MsDealError, match="1 to 2147483647"):
        format_ms_deal(0)


# -- fc-solve's board format and verdicts -----------------------------------------------------

def test_board_text_writes_columns_covered_end_first_with_capital_suits():
    assert card_text(Card(Rank.TEN, Suit.CLUBS)) == "TC"
    assert card_text("10h") == card_text("Th") == "TH"
    assert ms_deal_board_columns(1)[0] == ["JD", "KD", "2S", "4C", "3S", "6D", "6S"]
    assert ms_deal_board(1).splitlines()[7] == "5H 3H 3C 7S 7D TC"


def test_board_text_writes_foundations_as_rank_letters_and_empty_cells_as_dashes():
    text = board_text([["QS"]] + [[]] * 7, freecells=["Ks", None],
                      foundations={Suit.HEARTS: 13, Suit.CLUBS: 13, Suit.DIAMONDS: 13, Suit.SPADES: 11})
    assert text.splitlines()[:3] == ["Foundations: H-K C-K D-K S-J", "Freecells: KS -", "QS"]


def test_board_text_refuses_a_joker():
    with pytest.raises(ValueError, match="without jokers"):
        card_text("Jk")


def test_fc_solve_wins_deal_1(fc_solve):
    result = fc_solve_run(ms_deal_board_columns(1), max_iters=100_000)
    assert result.verdict == "solved"
    assert 0 < result.iterations <= 100_000


def test_fc_solve_proves_deal_11982_unwinnable(fc_solve):
    # About 163,000 positions checked, a fifth of a second on one core.
    result = fc_solve_run(ms_deal_board_columns(11982), max_iters=1_000_000, timeout=60)
    assert result.verdict == "unsolvable"
    assert result.iterations < 1_000_000


def test_fc_solve_says_unknown_when_the_iteration_limit_comes_first(fc_solve):
    assert fc_solve_verdict(ms_deal_board_columns(11982), max_iters=1000) == "unknown"


def test_fc_solve_finishes_a_position_with_cards_in_free_cells(fc_solve):
    foundations = {Suit.HEARTS: 13, Suit.CLUBS: 13, Suit.DIAMONDS: 13, Suit.SPADES: 10}
    assert fc_solve_verdict([["QS", "JS"]] + [[]] * 7, 100, freecells=["KS"], foundations=foundations) == "solved"


def test_fc_solve_rejects_a_board_with_a_repeated_card(fc_solve):
    columns = ms_deal_board_columns(1)
    columns[0][0] = columns[1][0]
    with pytest.raises(FcSolveError, match="extra card"):
        fc_solve_verdict(columns, 1000)


def test_fc_solve_iteration_limit_must_be_positive():
    with pytest.raises(ValueError, match="positive integer"):
        fc_solve_verdict(ms_deal_board_columns(1), 0)
