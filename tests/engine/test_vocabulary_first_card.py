"""The rules words added for Chessboard: the base rank set by the first card moved to a foundation
(``base="first-card"``) and the lost hook ``no-move-at-all``; one rule per test, on its ruleset."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from patiencebook.engine.cards import Rank
from patiencebook.engine.deals import deal_order
from patiencebook.engine.hooks import no_move
from patiencebook.engine.moves import Move
from patiencebook.engine.notation import parse_card
from patiencebook.engine.position import Position
from patiencebook.engine.rules import Ruleset
from patiencebook.generator.docbook.sources import load_document

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@lru_cache(maxsize=None)
def ruleset() -> Ruleset:
    return load_document(RULES_DIR).page("chessboard").rules


def position(piles: dict[str, str], base: Rank | None = None) -> Position:
    return Position.from_piles(ruleset(), {pid: [parse_card(t) for t in text.split()]
                                           for pid, text in piles.items()}, base_rank=base)


def code(p: Position, move: str) -> str | None:
    reason = p.reason(Move.parse(move))
    return None if reason is None else reason.code


def test_deal_goes_down_the_left_column_then_the_right_one_with_one_more_on_each_top_pile():
    p = Position.initial(ruleset(), deal_order(ruleset(), 1))
    assert [len(p.pile(f"tableau{n}")) for n in range(1, 11)] == [6, 5, 5, 5, 5, 6, 5, 5, 5, 5]
    assert ruleset().slot_order()[:4] == ("tableau1", "tableau6", "tableau2", "foundation1")


def test_before_the_base_is_set_an_empty_foundation_takes_any_card():
    p = position({"tableau1": "9c", "tableau2": "4h"})
    assert p.base_rank is None
    assert code(p, "tableau1>foundation3") is None and code(p, "tableau2>foundation1") is None


def test_the_first_card_on_a_foundation_sets_the_base_rank():
    q = position({"tableau1": "9c", "tableau2": "4h", "tableau3": "9d"}).apply("tableau1>foundation3")
    assert q.base_rank is Rank.NINE
    assert code(q, "tableau2>foundation1") == "empty-takes-base"
    assert code(q, "tableau3>foundation1") is None


def test_a_double_click_before_the_base_is_set_goes_to_the_first_foundation():
    q = position({"tableau4": "Jh"}).apply("dbl:tableau4")
    assert [c for c, _ in q.pile("foundation1")] == [parse_card("Jh")[0]]
    assert q.base_rank is Rank.JACK and q.score == 1


def test_foundations_wrap_from_the_king_to_the_ace():
    p = position({"foundation1": "Js Qs Ks", "tableau1": "As"}, base=Rank.JACK)
    assert code(p, "tableau1>foundation1") is None


def test_tableau_builds_up_or_down_in_suit_and_wraps():
    p = position({"tableau1": "Ah", "tableau2": "Kh", "tableau3": "2h", "tableau4": "Qs"})
    assert code(p, "tableau2>tableau1") is None
    assert code(p, "tableau3>tableau1") is None
    assert code(p, "tableau4>tableau2") == "does-not-fit"


def test_no_move_at_all_counts_a_lone_card_into_an_empty_pile():
    p = position({"foundation1": "5c", "tableau1": "Kd"}, base=Rank.FIVE)
    assert [str(m) for m in p.legal_moves] == [f"tableau1>tableau{n}" for n in range(2, 11)]
    assert no_move(p) and not p.is_lost()


def test_lost_when_no_move_at_all_is_left():
    tops = "Kd 9h 3s Jh 7s 9d 2d Js 4h Tc".split()
    p = position({"foundation1": "5c", **{f"tableau{n + 1}": card for n, card in enumerate(tops)}}, base=Rank.FIVE)
    assert list(p.legal_moves) == [] and p.is_lost()
    assert not position({"foundation1": "5c", "tableau1": "Kd"}, base=Rank.FIVE).is_lost()
