"""The rules words added for Baker's Game, Eight Off and Seahaven: autoplay ``all-cards``, the run
limit ``free-cells``, the double-click ``autoplay`` over free cells, and the lost hook
``no-move-but-off-foundations``; one rule per test, on the games' own rulesets and small positions.

Positions are built with ``Position.from_piles`` from the text form of cards, so they hold only the
cards a rule needs.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from patiencebook.engine.moves import Move
from patiencebook.engine.notation import parse_card
from patiencebook.engine.position import Position
from patiencebook.engine.rules import AutoRule, Ruleset
from patiencebook.generator.docbook.sources import load_document

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@lru_cache(maxsize=None)
def ruleset(game: str) -> Ruleset:
    return load_document(RULES_DIR).page(game).rules


def position(game: str, piles: dict[str, str]) -> Position:
    """A position of ``game`` with only the given piles (cards bottom to top, all face up)."""
    return Position.from_piles(ruleset(game), {pid: [(parse_card(t)[0], True) for t in text.split()]
                                                for pid, text in piles.items()})


def cards(p: Position, pile: str) -> str:
    """The pile as text, bottom to top."""
    return " ".join(str(c) for c, _ in p.pile(pile))


def code(p: Position, move: str) -> str | None:
    """The reason code of ``move`` in ``p``, or ``None`` when it is legal."""
    reason = p.reason(Move.parse(move))
    return None if reason is None else reason.code


# -- autoplay all-cards (Baker's Game) -----------------------------------------------------------

def test_bakers_game_plays_every_card_that_fits_whatever_its_rank():
    # Hearts to 5, the other suits not started: FreeCell's low-cards rule would keep the 6h back
    # (6 > 0 + 2); all-cards sends it, then the 7h under it.
    assert ruleset("bakers_game").autoplay.rule is AutoRule.ALL_CARDS
    p = position("bakers_game", {"foundation1": "Ah 2h 3h 4h 5h", "tableau1": "Kc 7h 6h 9s"})
    after = p.apply("tableau1>freecell1")
    assert cards(after, "foundation1") == "Ah 2h 3h 4h 5h 6h 7h"
    assert (cards(after, "tableau1"), cards(after, "freecell1")) == ("Kc", "9s")


def test_freecell_keeps_its_low_cards_rule():
    p = position("freecell", {"foundation1": "Ah 2h 3h 4h 5h", "tableau1": "Kc 7h 6h 9s"})
    after = p.apply("tableau1>freecell1")
    assert cards(after, "foundation1") == "Ah 2h 3h 4h 5h"
    assert cards(after, "tableau1") == "Kc 7h 6h"


def test_bakers_game_plays_free_cells_before_the_tableau_and_aces_to_the_first_empty_foundation():
    p = position("bakers_game", {"freecell3": "Ad", "tableau1": "Ac 9s", "tableau2": "Ts"})
    after = p.apply("tableau1>tableau2")
    assert [cards(after, f"foundation{n}") for n in range(1, 5)] == ["Ad", "Ac", "", ""]


def test_nothing_goes_up_before_the_first_move():
    p = position("bakers_game", {"tableau1": "Kc Ah", "tableau2": "Qs"})
    assert cards(p, "tableau1") == "Kc Ah" and p.score == 0


def test_bakers_game_runs_are_in_suit_and_limited_as_in_freecell():
    # Three full free cells and no empty tableau pile: at most 1 + 1 cards move together.
    piles = {"tableau1": "Kd 8s 7s 6s", "tableau2": "9s", "tableau3": "9h", "tableau4": "Kc", "tableau5": "Kh",
             "tableau6": "Ks", "tableau7": "Qd", "tableau8": "3c", "freecell1": "2c", "freecell2": "Jc",
             "freecell3": "Tc"}
    p = position("bakers_game", piles)
    assert code(p, "tableau1:3>tableau2") == "too-many-for-free-cells"
    assert code(p, "tableau1:2>tableau2") == "does-not-fit"  # the 7s goes on an 8s only
    assert code(p, "tableau1:2>tableau1") == "onto-itself"
    freed = p.apply("freecell1>tableau8")  # now two empty free cells: 2 + 1
    assert code(freed, "tableau1:3>tableau2") is None
    assert code(freed, "tableau1:3>tableau3") == "does-not-fit"  # the 8s goes on the 9s only, in suit


# -- max="free-cells" (Eight Off, Seahaven) --------------------------------------------------------

def test_eight_off_run_limit_is_empty_free_cells_plus_one_and_empty_piles_do_not_count():
    # Seven full free cells, one empty, and three empty tableau piles: at most 1 + 1 cards, onto a
    # card or into an empty pile alike (FreeCell's rule would allow (1 + 1) * 2 ** 3 = 16).
    piles = {f"freecell{n}": f"{n + 1}c" for n in range(1, 8)}
    piles.update({"tableau1": "3d 9s 8s 7s", "tableau2": "2d Kh Qh", "tableau3": "4d Ts", "tableau5": "5d 9h 8h",
                  "tableau6": "6d Th"})
    p = position("eight_off", piles)
    assert code(p, "tableau1:3>tableau3") == "too-many-for-free-cells"
    assert code(p, "tableau5:2>tableau6") is None
    assert code(p, "tableau2:2>tableau4") is None
    assert code(p, "tableau1:2>tableau4") == "empty-takes-king"
    del piles["freecell7"]  # two empty free cells: 2 + 1
    assert code(position("eight_off", piles), "tableau1:3>tableau3") is None


def test_freecell_run_limit_still_doubles_for_empty_piles():
    piles = {f"freecell{n}": f"{n + 1}c" for n in range(1, 4)}
    piles.update({"tableau1": "Ks Qh Jc Th", "tableau2": "Kc", "tableau3": "9s"})
    p = position("freecell", piles)  # one empty free cell, five empty piles: (1 + 1) * 2 ** 5
    assert code(p, "tableau1:3>tableau2") is None


def test_eight_off_empty_tableau_pile_takes_a_king_only():
    p = position("eight_off", {"tableau1": "5d Qs", "tableau2": "3h Kc"})
    assert code(p, "tableau1>tableau3") == "empty-takes-king"
    assert code(p, "tableau2>tableau3") is None


# -- double-click autoplay over the free cells (Eight Off, Seahaven) ------------------------------

def test_double_click_on_a_foundation_plays_free_cells_first_then_the_tableau_again_and_again():
    p = position("eight_off", {"freecell6": "2h", "freecell2": "Kd", "tableau1": "3h Ah", "tableau2": "Ad"})
    after = p.apply("dbl:foundation3")
    # Ah (tableau1) first: no free cell card fits yet; then 2h from its free cell, then 3h, then Ad.
    assert [cards(after, f"foundation{n}") for n in range(1, 5)] == ["Ah 2h 3h", "Ad", "", ""]
    assert cards(after, "freecell2") == "Kd" and after.score == 4


def test_double_click_on_a_foundation_needs_a_card_that_fits():
    p = position("eight_off", {"freecell1": "2h", "tableau1": "Kd"})
    assert p.reason(Move.parse("dbl:foundation1")) is not None
    assert Move.parse("dbl:foundation1") not in list(p.generate_moves(double_clicks=True))


# -- lost hook no-move-but-off-foundations (Eight Off, Seahaven) ------------------------------------

def _blocked_eight_off(extra: dict[str, str]) -> Position:
    """Eight full free cells, all hearts on a foundation, an empty tableau pile and tableau cards that
    fit nowhere: only the King of hearts could move, off its foundation."""
    piles = {f"freecell{n}": f"{n + 1}c" for n in range(1, 9)}
    piles.update({"foundation1": "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "tableau1": "2s 7d", "tableau2": "3s 9d",
                  "tableau3": "4s Jd"})
    piles.update(extra)
    return position("eight_off", piles)


def test_game_is_lost_when_only_moves_off_a_foundation_are_left():
    p = _blocked_eight_off({})
    assert {str(m) for m in p.legal_moves} == {f"foundation1>tableau{n}" for n in range(4, 9)}
    assert p.is_lost()


def test_game_goes_on_while_a_card_can_move_elsewhere():
    assert not _blocked_eight_off({"tableau3": "4s Td"}).is_lost()  # the 9d goes on the Td
    assert not position("eight_off", {"tableau1": "2s 7h"}).is_lost()  # empty free cells
