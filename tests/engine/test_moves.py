"""Moves and the rules of each game as its page states them: legal and refused moves with reasons,
automatic actions (turning, refilling), the stock, the chooser, double-clicks, score and end."""

from __future__ import annotations

from collections import Counter

import pytest

from patiencebook.engine.cards import Card, Rank
from patiencebook.engine.errors import IllegalMove, NotationError
from patiencebook.engine.moves import Move, MoveKind, legal_moves
from patiencebook.engine.notation import parse_card
from patiencebook.engine.position import Position

from .test_position import ruleset, shuffled


def make(game: str, base: str | None = None, rest: str = "stock", redeals: int = 0, offers: int = 0,
         **piles: str) -> Position:
    """A position of ``game`` with the given piles ("7h #Qs", bottom to top); every other card of the
    deck lies face down under the cards of pile ``rest``."""
    given = {pid: [parse_card(t) for t in text.split()] for pid, text in piles.items()}
    used = Counter(c for cards in given.values() for c, _ in cards)
    left = []
    for c in ruleset(game).cards():
        if used[c]:
            used[c] -= 1
        else:
            left.append((c, False))
    given[rest] = left + given.get(rest, [])
    return Position.from_piles(ruleset(game), given, Rank.parse(base) if base else None, redeals, offers)


def moves(position: Position) -> set[str]:
    return {str(m) for m in position.legal_moves}


def cards(position: Position, pile: str) -> str:
    return " ".join(("" if up else "#") + str(c) for c, up in position.pile(pile))


def refused(position: Position, move: str) -> str:
    with pytest.raises(IllegalMove) as err:
        position.apply(move)
    assert position.reason(Move.parse(move)) == str(err.value)
    return str(err.value)


# -- move values -------------------------------------------------------------------------------------

def test_move_text_forms_round_trip():
    for text in ("tableau3>foundation1", "tableau3:3>tableau5", "stock", "dbl:tableau2", "flip:tableau4"):
        assert str(Move.parse(text)) == text
    assert Move.parse("tableau3:1>tableau5") == Move.drag("tableau3", "tableau5")
    assert Move.parse("stock") is Move.stock()
    assert Move.parse("dbl:waste").kind is MoveKind.DOUBLE_CLICK


@pytest.mark.parametrize("text", ["", "tableau3>", ">tableau1", "tableau3:0>tableau5", "dbl:", "deal", "t 3>t4"])
def test_move_parse_refuses_bad_text(text):
    with pytest.raises(NotationError, match="bad move"):
        Move.parse(text)


def test_moves_are_hashable_values():
    assert len({Move.parse("tableau1>tableau2"), Move.drag("tableau1", "tableau2"), Move.stock()}) == 2


def test_legal_moves_is_lazy_countable_and_answers_in():
    p = make("agnes", base="K", foundation1="Kc", tableau1="7d", tableau2="8h", tableau3="Qs")
    lm = legal_moves(p)
    assert len(lm) == len(list(lm)) == 2
    assert Move.parse("tableau1>tableau2") in lm and Move.parse("tableau2>tableau1") not in lm
    assert moves(p) == {"tableau1>tableau2", "stock"}


def test_an_unknown_pile_is_refused_by_name():
    p = make("agnes", base="8")
    assert "agnes has no pile 'tableau9'" in refused(p, "tableau1>tableau9")


# -- Hamilton -----------------------------------------------------------------------------------------

def test_hamilton_no_card_moves_before_the_start_card_is_chosen():
    p = make("hamilton", tableau1="7h", tableau2="8h")
    assert moves(p) == {"stock"}
    assert refused(p, "tableau1>tableau2").startswith("no card can move before the start card is chosen")


def test_hamilton_chooser_offers_three_cards_and_refused_cards_go_face_down_to_the_stock_bottom():
    p = Position.initial(ruleset("hamilton"), shuffled("hamilton", 11))
    first, second, third = (c for c, _ in reversed(p.pile("stock")[-3:]))
    p = p.apply("stock")
    assert p.pile("chooser") == ((first, True),) and p.offers_used == 1
    p = p.apply("stock")
    assert p.pile("chooser") == ((second, True),)
    assert p.pile("stock")[0] == (first, False)
    p = p.apply("stock")
    assert p.pile("chooser") == ((third, True),)
    assert [c for c, _ in p.pile("stock")[:2]] == [second, first]
    assert len(p.pile("stock")) == 23
    assert "the last of the 3 cards offered must be accepted" in refused(p, "stock")
    assert moves(p) == {f"chooser>foundation{n}" for n in range(1, 5)}


def test_hamilton_accepting_the_chooser_card_sets_the_start_rank():
    p = make("hamilton", chooser="9c", offers=1)
    q = p.apply("chooser>foundation3")
    assert q.base_rank is Rank.NINE and not q.choosing
    assert cards(q, "foundation3") == "9c" and q.score == 1
    assert p.apply("dbl:chooser").pile("foundation1") == ((Card.parse("9c"), True),)
    assert "chooser can only go to an empty foundation" in refused(p, "chooser>tableau1")


def test_hamilton_after_the_choice_the_stock_deals_7_7_7_then_2_cards_and_stops():
    p = Position.initial(ruleset("hamilton"), shuffled("hamilton", 12)).apply("stock").apply("dbl:chooser")
    sizes = [len(p.pile(f"tableau{n}")) for n in range(1, 8)]
    dealt = []
    while p.is_legal(Move.stock()):
        before = len(p.pile("stock"))
        p = p.apply("stock")
        dealt.append(before - len(p.pile("stock")))
    assert dealt == [7, 7, 7, 2]
    after = [len(p.pile(f"tableau{n}")) for n in range(1, 8)]
    assert [a - b for a, b in zip(after, sizes)] == [4, 4, 3, 3, 3, 3, 3]
    assert all(up for n in range(1, 8) for _, up in p.pile(f"tableau{n}"))
    assert "the stock is empty, and there is no redeal" in refused(p, "stock")


def test_hamilton_nothing_can_be_placed_on_a_card_of_the_start_rank():
    p = make("hamilton", base="7", foundation1="7c", tableau1="7h", tableau2="6h", tableau3="6d")
    assert refused(p, "tableau2>tableau1") == (
        "nothing can be placed on the 7 of hearts: it is of the start rank (7)")
    assert "tableau2>tableau1" not in moves(p) and "tableau3>tableau1" not in moves(p)


def test_hamilton_king_goes_on_ace_unless_the_start_rank_is_ace():
    p = make("hamilton", base="7", foundation1="7c", tableau1="Ah", tableau2="Kd")
    assert "tableau2>tableau1" in moves(p)
    q = make("hamilton", base="A", foundation1="Ac", tableau1="Ah", tableau2="Kd")
    assert "tableau2>tableau1" not in moves(q)
    assert "start rank (Ace)" in refused(q, "tableau2>tableau1")


def test_hamilton_tableau_builds_down_in_the_same_colour():
    p = make("hamilton", base="K", foundation1="Kc", tableau1="7h", tableau2="6d", tableau3="6s")
    assert "tableau2>tableau1" in moves(p)
    assert refused(p, "tableau3>tableau1") == (
        "a 6 of spades cannot go on the 7 of hearts: the tableau builds down in the same colour")


def test_hamilton_only_runs_of_one_suit_move_as_a_unit():
    p = make("hamilton", base="K", foundation1="Kc", tableau1="Th 9h 8h", tableau2="9d 8h", tableau3="Jd")
    assert "tableau1:2>tableau3" not in moves(p)
    q = make("hamilton", base="K", foundation1="Kc", tableau1="Jh 9d 8d", tableau2="Td")
    assert "tableau1:2>tableau2" in moves(q)
    r = make("hamilton", base="K", foundation1="Kc", tableau1="Jh 9h 8d", tableau2="Td")
    assert "not a run: the tableau moves runs down in suit" in refused(r, "tableau1:2>tableau2")


def test_hamilton_no_card_of_a_run_may_lie_on_a_start_rank_card():
    p = make("hamilton", base="7", foundation1="7c", tableau1="8h 7h 6h", tableau2="8d")
    assert "no card of a run can lie on a card of the start rank (7)" in refused(p, "tableau1:3>tableau2")
    assert "tableau1:2>tableau2" not in moves(p)


def test_hamilton_an_empty_tableau_pile_takes_any_card_or_run():
    p = make("hamilton", base="K", foundation1="Kc", tableau1="9s 8s 7s", tableau2="")
    assert {"tableau1>tableau2", "tableau1:2>tableau2", "tableau1:3>tableau2"} <= moves(p)
    q = p.apply("tableau1:3>tableau2")
    assert cards(q, "tableau2") == "9s 8s 7s" and q.pile("tableau1") == ()


def test_hamilton_a_whole_run_goes_to_a_foundation_in_one_move_top_card_first():
    p = make("hamilton", base="7", foundation1="7s 8s", tableau1="Ts 9s")
    q = p.apply("tableau1:2>foundation1")
    assert cards(q, "foundation1") == "7s 8s 9s Ts" and q.score == 4
    assert moves(p) >= {"tableau1>foundation1", "tableau1:2>foundation1"}


def test_hamilton_double_click_moves_the_longest_run_to_a_foundation():
    p = make("hamilton", base="7", foundation1="7s 8s", tableau1="Jh Ts 9s")
    q = p.apply("dbl:tableau1")
    assert cards(q, "foundation1") == "7s 8s 9s Ts" and cards(q, "tableau1") == "Jh"
    assert "double-clicking foundation1 does nothing" in refused(p, "dbl:foundation1")


def test_hamilton_a_foundation_card_can_come_back_to_the_tableau_and_loses_its_point():
    p = make("hamilton", base="7", foundation1="7s 8s", tableau1="9c")
    q = p.apply("foundation1>tableau1")
    assert cards(q, "tableau1") == "9c 8s" and q.score == 1 and p.score == 2


def test_hamilton_foundations_build_up_in_suit_and_wrap_from_king_to_ace():
    p = make("hamilton", base="J", foundation1="Jh Qh Kh", tableau1="Ah", tableau2="Ad")
    assert "tableau1>foundation1" in moves(p)
    assert refused(p, "tableau2>foundation1") == (
        "an Ace of diamonds cannot go on the King of hearts: the foundation builds up in suit")
    assert "only a card of the start rank (Jack)" in refused(p, "tableau1>foundation2")


# -- Agnes --------------------------------------------------------------------------------------------

def test_agnes_an_empty_tableau_pile_cannot_be_filled_by_a_move():
    p = make("agnes", base="8", foundation1="8c", tableau1="", tableau2="Kd")
    assert refused(p, "tableau2>tableau1") == "no card can be moved into an empty tableau pile"
    assert not any(m.endswith(">tableau1") for m in moves(p))


def test_agnes_the_stock_deals_7_7_7_then_2_cards_also_on_empty_piles_and_has_no_redeal():
    p = Position.initial(ruleset("agnes"), shuffled("agnes", 13))
    dealt = []
    while p.is_legal(Move.stock()):
        before = len(p.pile("stock"))
        p = p.apply("stock")
        dealt.append(before - len(p.pile("stock")))
    assert dealt == [7, 7, 7, 2]
    assert [len(p.pile(f"tableau{n}")) for n in range(1, 8)] == [5, 6, 6, 7, 8, 9, 10]
    assert "no redeal" in refused(p, "stock")


def test_agnes_a_deal_puts_a_card_on_an_empty_pile():
    p = make("agnes", base="8", foundation1="8c", tableau1="", stock="#2c #3c #4c #5c #6c #7c #9c")
    q = p.apply("stock")
    assert cards(q, "tableau1") == "9c"


def test_agnes_an_uncovered_face_down_card_is_turned_face_up():
    p = make("agnes", base="8", foundation1="8c", tableau1="#2s 7d", tableau2="8h")
    q = p.apply("tableau1>tableau2")
    assert cards(q, "tableau1") == "2s" and cards(q, "tableau2") == "8h 7d"


def test_agnes_face_down_cards_are_never_moved():
    p = make("agnes", base="8", foundation1="8c", tableau1="#8d 7d", tableau2="9d")
    assert "face down" in refused(p, "tableau1:2>tableau2")


def test_agnes_a_card_can_be_placed_on_a_base_rank_card_but_a_run_cannot_contain_it():
    p = make("agnes", base="8", foundation1="8c", tableau1="8h", tableau2="7d", tableau3="9h 8d 7h", tableau4="9d")
    assert "tableau2>tableau1" in moves(p)
    assert "no card of a run can lie on a card of the base rank (8)" in refused(p, "tableau3:2>tableau4")
    assert "tableau3:3>tableau4" not in moves(p)


def test_agnes_foundations_take_one_card_at_a_time():
    p = make("agnes", base="8", foundation1="8c", tableau1="Th 9h", tableau2="9c")
    assert "tableau2>foundation1" in moves(p)
    q = make("agnes", base="8", foundation1="8h", tableau1="Th 9h")
    assert refused(q, "tableau1:2>foundation1") == "the foundation takes one card at a time"


def test_agnes_a_foundation_card_does_not_move_to_another_foundation():
    p = make("agnes", base="8", foundation1="8c")
    assert "only be moved back to the tableau" in refused(p, "foundation1>foundation2")


def test_agnes_double_click_on_a_foundation_plays_every_fitting_tableau_card():
    p = make("agnes", base="8", foundation1="8c", tableau1="9c", tableau2="Tc", tableau3="8d", tableau4="Kh")
    q = p.apply("dbl:foundation1")
    assert cards(q, "foundation1") == "8c 9c Tc" and cards(q, "foundation2") == "8d"
    assert q.score == 4 and cards(q, "tableau4") == "Kh"
    assert "no tableau card fits" in refused(q, "dbl:foundation2")


def test_agnes_double_click_sends_a_base_rank_card_to_the_first_empty_foundation():
    p = make("agnes", base="8", foundation1="8c", tableau1="8s")
    assert cards(p.apply("dbl:tableau1"), "foundation2") == "8s"


def test_agnes_and_hamilton_are_never_lost():
    p = make("agnes", base="8", foundation1="8c", rest="tableau1")
    assert not p.is_lost() and not p.is_won()
    assert not make("hamilton", base="8", foundation1="8c", rest="tableau1").is_lost()


# -- Eagle Wing ---------------------------------------------------------------------------------------

def test_eagle_wing_a_tableau_pile_holds_at_most_three_cards():
    p = make("eagle_wing", base="2", foundation1="2c", tableau1="Ks Qs Js", tableau2="Ts", rest="reserve")
    assert refused(p, "tableau2>tableau1") == "tableau1 already holds 3 cards, the most a tableau pile can hold"
    q = make("eagle_wing", base="2", foundation1="2c", tableau1="Ks Qs", tableau2="Js", rest="reserve")
    assert "tableau2>tableau1" in moves(q)


def test_eagle_wing_the_tableau_builds_down_in_suit_one_card_at_a_time():
    p = make("eagle_wing", base="2", foundation1="2c", tableau1="Ks", tableau2="Qs Jh", tableau3="Qh",
             tableau4="Qd Js", rest="reserve")
    assert refused(p, "tableau3>tableau1") == (
        "a Queen of hearts cannot go on the King of spades: the tableau builds down in suit")
    q = make("eagle_wing", base="2", foundation1="2c", tableau1="Ks", tableau2="Qs Js", rest="reserve")
    assert refused(q, "tableau2:2>tableau1") == "the tableau takes one card at a time"


def test_eagle_wing_a_run_of_two_or_three_goes_to_a_foundation_together():
    p = make("eagle_wing", base="5", foundation1="5h 6h", tableau1="9h 8h 7h", rest="reserve")
    assert {"tableau1>foundation1", "tableau1:2>foundation1", "tableau1:3>foundation1"} <= moves(p)
    q = p.apply("tableau1:3>foundation1")
    assert cards(q, "foundation1") == "5h 6h 7h 8h 9h" and q.score == 5


FULL_TABLEAU = {f"tableau{n}": card for n, card in zip(range(2, 9), ["Kc", "Jc", "9c", "7s", "5s", "3s", "Ad"])}


def test_eagle_wing_an_emptied_tableau_pile_is_refilled_from_the_reserve_face_up():
    p = make("eagle_wing", base="5", foundation1="5h", tableau1="6h", reserve="Kd #2d #3d", **FULL_TABLEAU)
    q = p.apply("tableau1>foundation1")
    assert cards(q, "tableau1") == "3d" and cards(q, "reserve") == "Kd #2d"
    assert refused(q, "reserve>tableau1") == "the 2 of diamonds in reserve is face down and cannot be moved"


def test_eagle_wing_the_last_reserve_card_is_in_play_once_the_cards_above_it_are_gone():
    p = make("eagle_wing", base="5", foundation1="5h", tableau1="6h", reserve="Qc", **FULL_TABLEAU)
    assert "reserve>tableau2" in moves(p)
    q = p.apply("tableau1>foundation1")
    assert cards(q, "tableau1") == "Qc" and q.pile("reserve") == ()


def test_eagle_wing_with_the_reserve_empty_an_empty_pile_takes_any_single_card():
    p = make("eagle_wing", base="5", foundation1="5h", tableau1="", tableau2="9c 8c", waste="Kd", reserve="")
    assert {"waste>tableau1", "tableau2>tableau1"} <= moves(p)
    assert "tableau2:2>tableau1" not in moves(p)


def test_eagle_wing_reserve_face_down_cards_are_never_in_play():
    p = Position.initial(ruleset("eagle_wing"), shuffled("eagle_wing", 14))
    assert not any(m.startswith("reserve") for m in moves(p))
    assert "face down" in refused(p, "reserve>tableau1")
    assert "double-clicking reserve does nothing" in refused(p, "dbl:reserve")


def test_eagle_wing_stock_turns_one_card_at_a_time_and_redeals_twice_in_the_same_order():
    p = Position.initial(ruleset("eagle_wing"), shuffled("eagle_wing", 15))
    order = [c for c, _ in reversed(p.pile("stock"))]
    passes = []
    clicks = 0
    while p.is_legal(Move.stock()):
        if not p.pile("stock"):
            passes.append([c for c, _ in p.pile("waste")])
        p = p.apply("stock")
        clicks += 1
        if p.pile("waste"):
            assert p.pile("waste")[-1][1] is True
    passes.append([c for c, _ in p.pile("waste")])
    assert clicks == 3 * 30 + 2
    assert passes == [order, order, order]
    assert p.redeals_used == 2
    assert refused(p, "stock") == "the stock is empty and no redeal is left (2 of 2 redeals used)"


def test_eagle_wing_foundation_cards_are_out_of_play():
    p = make("eagle_wing", base="5", foundation1="5h 6h", tableau1="7c", rest="reserve")
    assert refused(p, "foundation1>tableau1") == "cards on the foundation cannot be moved"


def test_eagle_wing_double_click_sends_the_waste_card_to_a_foundation():
    p = make("eagle_wing", base="5", foundation1="5h", waste="6h", rest="reserve")
    q = p.apply("dbl:waste")
    assert cards(q, "foundation1") == "5h 6h" and q.pile("waste") == ()


def test_eagle_wing_is_lost_when_no_useful_move_is_left():
    # tableau1 holds the rest of the deck under its Queen of clubs; no top card fits anywhere
    tops = dict(tableau1="Qc", tableau2="Jd", tableau3="", tableau4="9s", tableau5="7h", tableau6="4c",
                tableau7="3d", tableau8="Ah")
    dead = make("eagle_wing", rest="tableau1", base="5", foundation1="5h", stock="", waste="", reserve="",
                redeals=2, **tops)
    assert dead.is_lost() and not dead.is_won()
    assert {str(m) for m in dead.legal_moves} == {f"tableau{n}>tableau3" for n in (1, 2, 4, 5, 6, 7, 8)}
    alive = make("eagle_wing", rest="tableau1", base="5", foundation1="5h", stock="", waste="Kd", reserve="",
                 redeals=1, **{**tops, "tableau3": "Ks"})
    assert moves(alive) == {"stock"} and not alive.is_lost()
    assert not Position.initial(ruleset("eagle_wing"), shuffled("eagle_wing", 16)).is_lost()


def test_eagle_wing_moving_the_waste_card_into_an_empty_pile_counts_as_a_useful_move():
    p = make("eagle_wing", rest="tableau1", base="5", foundation1="5h", stock="", waste="Kd", reserve="",
             redeals=2, tableau1="Qc", tableau2="Jd", tableau3="", tableau4="9s", tableau5="7h", tableau6="4c",
             tableau7="3d", tableau8="Ah")
    assert "waste>tableau3" in moves(p) and not p.is_lost()


# -- score and end ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["hamilton", "agnes", "eagle_wing"])
def test_score_is_the_number_of_cards_on_the_foundations_and_all_52_win(game):
    rs = ruleset(game)
    all_up = {f"foundation{n}": " ".join(f"{r}{s}" for r in "A23456789TJQK") for n, s in enumerate("cdhs", 1)}
    p = make(game, base="A", **all_up)
    assert p.score == 52 == p.max_score and p.is_won() and not p.is_lost()
    assert rs.scoring.maximum == 52


def test_flip_needs_a_pile_whose_cards_turn_by_click():
    p = make("agnes", base="8", foundation1="8c", tableau1="#2s")
    assert "are not turned by a click" in refused(p, "flip:tableau1")


def test_listing_legal_moves_generates_them_once_and_a_listed_position_still_refuses_illegal_drags(monkeypatch):
    p = Position.initial(ruleset("klondike"), shuffled("klondike", 5))
    calls = []
    real = Position.generate_moves

    def counted(self, double_clicks=False):
        calls.append(double_clicks)
        return real(self, double_clicks)

    monkeypatch.setattr(Position, "generate_moves", counted)
    moves = list(legal_moves(p, double_clicks=True))
    assert calls == [True]  # list() asks for an iterator and then the length: one generation
    assert moves == list(real(p, True))
    # With its legal drags listed, the position plays each without a second check and still
    # refuses one it did not list.
    drags = [m for m in moves if m.is_drag]
    assert drags and all(p.apply(m) == p.apply_generated(m) for m in drags)
    illegal = Move(MoveKind.DRAG, "foundation1", "tableau7", 1)
    assert illegal not in drags
    with pytest.raises(IllegalMove):
        p.apply(illegal)
