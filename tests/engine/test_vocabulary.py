"""The rules words added for Klondike, FreeCell, Spider, Yukon, Golf, Canfield, Scorpion, Forty Thieves,
Baker's Dozen and Gypsy, one rule per test, on the games' own rulesets and small positions.

Positions are built with ``Position.from_piles`` from the text form of cards (``#`` = face down), so
they hold only the cards a rule needs; deals come from ``deal_order`` (AisleRiot's deal numbers).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from patiencebook.engine.cards import Card, Rank
from patiencebook.engine.deals import deal_order
from patiencebook.engine.errors import IllegalMove
from patiencebook.engine.moves import Move
from patiencebook.engine.notation import parse_card
from patiencebook.engine.position import Position
from patiencebook.engine.rules import MoveLimit, MovePolicy, MoveUnit, Ruleset
from patiencebook.generator.docbook.sources import load_document

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@lru_cache(maxsize=None)
def ruleset(game: str) -> Ruleset:
    return load_document(RULES_DIR).page(game).rules


def position(game: str, piles: dict[str, str], base: Rank | None = None) -> Position:
    """A position of ``game`` with only the given piles (cards bottom to top, ``#`` face down)."""
    return Position.from_piles(ruleset(game), {pid: [parse_card(t) for t in text.split()]
                                                for pid, text in piles.items()}, base_rank=base)


def cards(p: Position, pile: str) -> str:
    """The pile as text, bottom to top, ``#`` marking a face-down card."""
    return " ".join(("" if up else "#") + str(c) for c, up in p.pile(pile))


def code(p: Position, move: str) -> str | None:
    """The reason code of ``move`` in ``p``, or ``None`` when it is legal."""
    reason = p.reason(Move.parse(move))
    return None if reason is None else reason.code


def run(top: str, length: int, suits: str) -> str:
    """``length`` cards down from rank ``top``, suits taken in turn from ``suits`` (``"ch"``: alternate)."""
    letters = "A23456789TJQK"
    start = letters.index(top)
    return " ".join(f"{letters[start - n]}{suits[n % len(suits)]}" for n in range(length))


SPADES = run("K", 13, "s")  # Ks Qs ... As


# -- move unit face-up (Yukon, Scorpion) ---------------------------------------------------------

def test_face_up_unit_lifts_any_face_up_cards_in_any_order():
    policy = MovePolicy(unit=MoveUnit.FACE_UP)
    assert policy.can_lift([Card.parse("Qh"), Card.parse("3c"), Card.parse("9d")])
    assert policy.can_lift([Card.parse("2s"), Card.parse("2s")])


def test_yukon_group_out_of_order_moves_when_its_bottom_card_fits():
    p = position("yukon", {"tableau1": "#Ks Qh 3c 9d", "tableau2": "Kc"})
    assert code(p, "tableau1:3>tableau2") is None
    after = p.apply("tableau1:3>tableau2")
    assert cards(after, "tableau2") == "Kc Qh 3c 9d"
    assert cards(after, "tableau1") == "Ks"  # uncovered and turned face up
    assert Move.drag("tableau1", "tableau2", 3) in list(p.legal_moves)


def test_yukon_group_whose_bottom_card_does_not_fit_is_refused_naming_the_bottom_card():
    p = position("yukon", {"tableau1": "#Ks Qh 3c 9d", "tableau2": "Kc"})
    reason = p.reason(Move.parse("tableau1:2>tableau2"))
    assert reason.code == "does-not-fit"
    assert str(reason).startswith("the bottom card of the run, the 3 of clubs, cannot go on the King of clubs")
    assert [m.count for m in p.legal_moves if m.target == "tableau2"] == [3]


def test_face_up_unit_never_lifts_a_face_down_card():
    p = position("yukon", {"tableau1": "#Ks Qh 3c 9d", "tableau2": "Kc", "tableau3": ""})
    assert code(p, "tableau1:4>tableau3") == "face-down"
    assert all(m.count <= 3 for m in p.legal_moves if m.source == "tableau1")


def test_yukon_group_with_a_king_at_its_bottom_goes_into_an_empty_pile():
    p = position("yukon", {"tableau1": "#2s Kd 4s 7h", "tableau2": "5c"})
    assert code(p, "tableau1:3>tableau3") is None
    assert code(p, "tableau1:2>tableau3") == "empty-takes-king"


def test_scorpion_group_moves_onto_the_same_suit_one_rank_higher():
    p = position("scorpion", {"tableau1": "#4c Qh 3c 9d", "tableau2": "Kh", "tableau3": "Ks"})
    assert code(p, "tableau1:3>tableau2") is None
    assert code(p, "tableau1:3>tableau3") == "does-not-fit"
    assert cards(p.apply("tableau1:3>tableau2"), "tableau1") == "4c"


# -- max="free-cells-and-empty-tableau" (FreeCell, Forty Thieves) -------------------------------

FREECELL_RUN = run("K", 9, "ch")  # Kc Qh Jc Th 9c 8h 7c 6h 5c


def freecell(cells_used: int, empty_piles: int, targets: dict[str, str]) -> Position:
    """FreeCell with the 9-card run in tableau1, ``cells_used`` full free cells, the ``targets``
    (an empty text: an empty pile), and the other tableau piles filled from the left so that exactly
    ``empty_piles`` tableau piles are empty."""
    piles = {"tableau1": FREECELL_RUN, **targets}
    for n in range(cells_used):
        piles[f"freecell{n + 1}"] = f"{n + 2}d"
    fillers = iter(["Td", "Tc", "Ts", "9s", "9d", "8s", "8d"])
    empty = [f"tableau{n}" for n in range(2, 9) if f"tableau{n}" not in piles]
    for pid in empty[:len(empty) - empty_piles + sum(1 for v in targets.values() if not v)]:
        piles[pid] = next(fillers)
    p = position("freecell", piles)
    assert sum(1 for n in range(1, 9) if not p.pile(f"tableau{n}")) == empty_piles
    return p


@pytest.mark.parametrize("cells_used, empty_piles, limit", [
    (4, 1, 1),   # (0 + 1) * 2 ** 1, halved
    (0, 1, 5),   # (4 + 1) * 2 ** 1, halved
    (2, 2, 6),   # (2 + 1) * 2 ** 2, halved
    (3, 3, 8),   # (1 + 1) * 2 ** 3, halved
])
def test_freecell_run_into_an_empty_pile_is_half_the_free_cell_limit(cells_used, empty_piles, limit):
    p = freecell(cells_used, empty_piles, {})
    target = next(f"tableau{n}" for n in range(2, 9) if not p.pile(f"tableau{n}"))
    assert code(p, f"tableau1:{limit}>{target}") is None
    reason = p.reason(Move.parse(f"tableau1:{limit + 1}>{target}"))
    assert (reason.code, reason.params) == ("too-many-for-free-cells", {"count": limit})
    assert max(m.count for m in p.legal_moves if m.target == target) == limit


def test_freecell_run_onto_a_card_is_free_cells_plus_one_times_two_to_the_empty_piles():
    # 2 free cells, 1 empty tableau pile: (2 + 1) * 2 = 6.
    p = freecell(2, 1, {"tableau2": "Qd", "tableau3": "Js"})
    assert code(p, "tableau1:6>tableau3") is None
    reason = p.reason(Move.parse("tableau1:7>tableau2"))
    assert (reason.code, reason.params) == ("too-many-for-free-cells", {"count": 6})
    assert "at most 6 can move at once" in str(reason)


def test_freecell_with_no_free_cell_and_no_empty_pile_moves_one_card_at_a_time():
    p = freecell(4, 0, {"tableau2": "7s"})
    reason = p.reason(Move.parse("tableau1:2>tableau2"))  # 6h 5c: the 6h fits the 7s
    assert (reason.code, reason.params) == ("too-many-for-free-cells", {"count": 1})


def test_freecell_limit_does_not_count_the_pile_the_run_leaves():
    # The whole 9-card pile moves into an empty pile: 3 free cells, 2 empty piles (the target among
    # them): (3 + 1) * 2 ** 2 / 2 = 8; counting the pile it leaves would give 16.
    p = freecell(1, 2, {"tableau2": ""})
    assert code(p, "tableau1:8>tableau2") is None
    reason = p.reason(Move.parse("tableau1:9>tableau2"))
    assert (reason.code, reason.params) == ("too-many-for-free-cells", {"count": 8})


def test_run_limit_applies_only_to_moves_onto_tableau_piles():
    # Forty Thieves with no empty tableau pile: 2 ** 0 = 1 card onto the tableau, but a run of three
    # lands reversed on an empty foundation, Ace first.
    piles = {f"tableau{n}": "9d" for n in range(2, 11)}
    p = position("forty_thieves", {**piles, "tableau1": "3s 2s As", "tableau2": "3s"})
    assert code(p, "tableau1:2>tableau2") == "too-many-for-empty-piles"
    assert code(p, "tableau1:3>foundation1") is None
    assert cards(p.apply("tableau1:3>foundation1"), "foundation1") == "As 2s 3s"


def forty_thieves(empty_piles: int, targets: dict[str, str]) -> Position:
    piles = {"tableau1": run("K", 8, "s"), **targets}  # Ks Qs Js Ts 9s 8s 7s 6s
    free = [f"tableau{n}" for n in range(2, 11) if f"tableau{n}" not in piles]
    for pid in free[:len(free) - empty_piles + sum(1 for v in targets.values() if not v)]:
        piles[pid] = "2h"
    p = position("forty_thieves", piles)
    assert sum(1 for n in range(1, 11) if not p.pile(f"tableau{n}")) == empty_piles
    return p


def test_forty_thieves_run_onto_a_card_is_two_to_the_empty_piles():
    # tableau1 is Ks Qs Js Ts 9s 8s 7s 6s; 2 empty piles: 2 ** 2 = 4.
    p = forty_thieves(2, {"tableau2": "Ts", "tableau3": "Js"})
    assert code(p, "tableau1:4>tableau2") is None
    reason = p.reason(Move.parse("tableau1:5>tableau3"))
    assert (reason.code, reason.params) == ("too-many-for-empty-piles", {"count": 4})
    assert "empty tableau piles" in str(reason)


def test_forty_thieves_run_into_an_empty_pile_is_half():
    p = forty_thieves(2, {"tableau2": ""})
    assert code(p, "tableau1:2>tableau2") is None
    reason = p.reason(Move.parse("tableau1:3>tableau2"))
    assert (reason.code, reason.params) == ("too-many-for-empty-piles", {"count": 2})


def test_freecell_and_forty_thieves_state_the_limit_word():
    assert ruleset("freecell").pile("tableau").move.max_cards is MoveLimit.FREE_CELLS_AND_EMPTY_TABLEAU
    assert ruleset("forty_thieves").pile("tableau").move.max_cards is MoveLimit.FREE_CELLS_AND_EMPTY_TABLEAU


# -- accepts="complete-run" (Spider's foundations) -----------------------------------------------

def spider_with_run() -> Position:
    return position("spider", {"tableau1": "#5h " + SPADES, "tableau2": "Kh Qh", "stock": "#2c"})


def test_complete_run_goes_to_an_empty_foundation_in_one_move_king_at_the_bottom():
    p = spider_with_run()
    after = p.apply("tableau1:13>foundation1")
    assert cards(after, "foundation1") == SPADES
    assert cards(after, "tableau1") == "5h"


def test_complete_run_foundation_takes_no_part_of_a_run():
    p = spider_with_run()
    reason = p.reason(Move.parse("tableau1:12>foundation1"))
    assert (reason.code, reason.params) == ("complete-run-only", {"target": "foundation1", "count": 13})


def test_complete_run_foundation_takes_nothing_once_filled():
    p = position("spider", {"foundation1": SPADES, "tableau3": SPADES})
    assert code(p, "tableau3:13>foundation1") == "no-build"
    assert code(p, "tableau3:13>foundation2") is None


def test_complete_run_foundation_refuses_a_king_to_ace_of_mixed_suits():
    p = position("spider", {"tableau1": run("K", 13, "sh")})
    assert code(p, "tableau1:13>foundation1") == "not-a-run"
    assert not any(m.target.startswith("foundation") for m in p.legal_moves)


def test_complete_run_is_offered_to_every_empty_foundation():
    p = position("spider", {"foundation1": run("K", 13, "h"), "tableau4": SPADES})
    assert sorted(str(m) for m in p.legal_moves if m.target.startswith("foundation")) == [
        f"tableau4:13>foundation{n}" for n in range(2, 9)]


def test_spider_double_click_sends_the_complete_run_to_the_first_empty_foundation():
    p = position("spider", {"foundation1": run("K", 13, "h"), "tableau2": "#9d " + SPADES})
    assert p.double_click_drags("tableau2") == [Move.drag("tableau2", "foundation2", 13)]
    assert cards(p.apply("dbl:tableau2"), "tableau2") == "9d"


def test_spider_double_click_on_an_incomplete_run_does_nothing():
    p = position("spider", {"tableau2": run("Q", 12, "s")})
    with pytest.raises(IllegalMove) as info:
        p.double_click_drags("tableau2")
    assert info.value.code == "fits-no-foundation"


def spider_runs(on_foundations: int, in_tableau: int) -> Position:
    suits = "cdhs" * 2
    piles = {}
    for n in range(on_foundations):
        piles[f"foundation{n + 1}"] = run("K", 13, suits[n])
    for n in range(in_tableau):
        piles[f"tableau{n + 1}"] = run("K", 13, suits[on_foundations + n])
    return position("spider", piles)


def test_complete_runs_won_with_every_run_on_the_foundations():
    p = spider_runs(8, 0)
    assert p.is_won() and p.score == 96


def test_complete_runs_won_with_every_run_in_the_tableau_and_the_foundations_empty():
    p = spider_runs(0, 8)
    assert p.is_won() and p.score == 96


def test_complete_runs_not_won_with_runs_both_on_foundations_and_in_the_tableau():
    p = spider_runs(1, 7)
    assert not p.is_won()
    assert p.score == 12 + 7 * 12


def test_complete_runs_not_won_while_a_card_of_a_run_lies_face_down():
    p = position("scorpion", {"tableau1": SPADES, "tableau2": run("K", 13, "h"), "tableau3": run("K", 13, "d"),
                              "tableau4": "#Kc " + run("Q", 12, "c")})
    assert not p.is_won()
    assert p.score == 36 - 3 + 3 * (12 + 4) + 11


def test_scorpion_won_with_four_complete_piles_and_three_empty():
    p = position("scorpion", {f"tableau{n + 1}": run("K", 13, s) for n, s in enumerate("cdhs")})
    assert p.is_won() and p.score == 100


# -- autoplay low-cards (FreeCell) ---------------------------------------------------------------

def test_low_cards_go_up_after_a_move_and_higher_ones_stay():
    # Clubs to 2, hearts to A: a 2h uncovered goes up (2 <= 0 + 2 and <= 0 + 3); the 3c under it
    # stays (3 > lowest red 0 + 2); the As goes to the first empty foundation.
    p = position("freecell", {"foundation1": "Ac 2c", "foundation2": "Ah", "tableau1": "3c 2h 9s",
                              "tableau2": "Kd As"})
    after = p.apply("tableau1>freecell1")
    assert [cards(after, f"foundation{n}") for n in range(1, 5)] == ["Ac 2c", "Ah 2h", "As", ""]
    assert (cards(after, "tableau1"), cards(after, "tableau2"), cards(after, "freecell1")) == ("3c", "Kd", "9s")


def test_low_card_waits_for_the_lowest_foundation_of_its_own_colour():
    # Hearts to 3, diamonds none: the 4h fits but is 4 above the lowest red foundation (0 + 3 < 4);
    # the 3s is 3 above the lowest red (0 + 2 < 3). Both stay.
    piles = {"foundation1": "Ac 2c", "foundation2": "Ah 2h 3h", "foundation3": "As 2s", "tableau1": "Kc 4h",
             "tableau2": "Kh 3s", "tableau3": "Ad 9c", "tableau4": "Qd Jd"}
    after = position("freecell", piles).apply("tableau4>freecell1")
    assert (cards(after, "tableau1"), cards(after, "tableau2")) == ("Kc 4h", "Kh 3s")
    assert cards(after, "foundation4") == ""


def test_low_cards_go_up_in_a_chain_once_an_ace_raises_the_lowest_foundation():
    piles = {"foundation1": "Ac 2c", "foundation2": "Ah 2h 3h", "foundation3": "As 2s", "tableau1": "Kc 4h",
             "tableau2": "Kh 3s", "tableau3": "Ad 9c"}
    after = position("freecell", piles).apply("tableau3>freecell1")
    assert [cards(after, f"foundation{n}") for n in range(1, 5)] == ["Ac 2c", "Ah 2h 3h 4h", "As 2s 3s", "Ad"]
    assert (cards(after, "tableau1"), cards(after, "tableau2"), cards(after, "tableau3")) == ("Kc", "Kh", "")


def test_low_card_ace_goes_to_the_first_empty_foundation():
    p = position("freecell", {"foundation1": "Ac", "foundation3": "Ah", "tableau5": "As Tc"})
    after = p.apply("tableau5>freecell4")
    assert [cards(after, f"foundation{n}") for n in range(1, 5)] == ["Ac", "As", "Ah", ""]


def test_low_cards_also_leave_the_free_cells():
    p = position("freecell", {"foundation1": "Ac", "freecell2": "2c", "tableau1": "Ad 8s"})
    after = p.apply("tableau1>freecell1")
    assert [cards(after, f"foundation{n}") for n in range(1, 3)] == ["Ac 2c", "Ad"]
    assert (cards(after, "freecell1"), cards(after, "freecell2")) == ("8s", "")


# -- deal faces per pile (Scorpion) and kings="bottom" (Baker's Dozen) --------------------------

def test_scorpion_deal_lays_three_rows_face_down_on_the_first_four_piles_only():
    rules = ruleset("scorpion")
    order = deal_order(rules, 5)
    p = Position.initial(rules, order)
    for n in range(7):
        want = [order[n + 7 * row] for row in range(3)] + [order[21 + n + 7 * row] for row in range(4)]
        assert [c for c, _ in p.pile(f"tableau{n + 1}")] == want
        assert [up for _, up in p.pile(f"tableau{n + 1}")] == [n >= 4] * 3 + [True] * 4
    assert [c for c, _ in p.pile("stock")] == [order[51], order[50], order[49]]
    assert p.score == 36 - 3 * 12 + sum(
        1 for pid in p.pile_ids if pid.startswith("tableau")
        for (a, ua), (b, ub) in zip(p.pile(pid), p.pile(pid)[1:])
        if ua and ub and a.suit is b.suit and b.rank == a.rank - 1)


def aisleriot_bakers_dozen(order: list[Card]) -> list[list[Card]]:
    """The tableau of Baker's Dozen as bakers-dozen.scm deals it: four rows; after the second, third
    and fourth a king on top of a pile goes to its bottom."""
    piles: list[list[Card]] = [[] for _ in range(13)]
    for row in range(4):
        for n in range(13):
            piles[n].append(order[13 * row + n])
        if row >= 1:
            for pile in piles:
                if pile[-1].rank is Rank.KING:
                    pile.insert(0, pile.pop())
    return piles


@pytest.mark.parametrize("deal", [1, 2, 3, 4, 5, 6, 7, 8])
def test_bakers_dozen_kings_lie_beneath_as_aisleriot_deals_them(deal):
    rules = ruleset("bakers_dozen")
    order = deal_order(rules, deal)
    p = Position.initial(rules, order)
    want = aisleriot_bakers_dozen(order)
    assert [[c for c, _ in p.pile(f"tableau{n + 1}")] for n in range(13)] == want
    for pile in want:
        kings = sum(1 for c in pile if c.rank is Rank.KING)
        assert all(c.rank is Rank.KING for c in pile[:kings])


def test_bakers_dozen_later_king_lies_deeper():
    rules = ruleset("bakers_dozen")
    for deal in range(1, 200):
        order = deal_order(rules, deal)
        for n in range(13):
            dealt = [order[13 * row + n] for row in range(4)]
            kings = [c for c in dealt if c.rank is Rank.KING]
            if len(kings) >= 2:
                p = Position.initial(rules, order)
                assert [c for c, _ in p.pile(f"tableau{n + 1}")][:len(kings)] == kings[::-1]
                return
    pytest.fail("no deal from 1 to 199 puts two kings on one pile")


# -- deal step rank: cards set aside before the shuffle (Beleaguered Castle) ---------------------

def test_beleaguered_castle_shuffles_48_cards_and_puts_the_aces_on_the_foundations():
    from patiencebook.engine.deals import aisleriot_shuffle
    from patiencebook.engine.glibrand import GRand
    rules = ruleset("beleaguered_castle")
    assert rules.set_aside == {Rank.ACE}
    for deal in (1, 2, 3):
        order = deal_order(rules, deal)
        without_aces = [c for c in rules.cards() if c.rank is not Rank.ACE]
        assert order[:48] == aisleriot_shuffle(without_aces, GRand(deal))
        p = Position.initial(rules, order)
        assert [cards(p, f"foundation{n}") for n in range(1, 5)] == ["Ac", "Ad", "Ah", "As"]
        assert all(len(p.pile(f"tableau{n}")) == 6 for n in range(1, 9))
        assert p.score == 0


def test_a_step_of_a_rank_takes_its_cards_wherever_they_lie_in_the_order():
    rules = ruleset("beleaguered_castle")
    unshuffled = Position.initial(rules, rules.cards())
    assert [cards(unshuffled, f"foundation{n}") for n in range(1, 5)] == ["Ac", "Ad", "Ah", "As"]
    assert not any(c.rank is Rank.ACE for n in range(1, 9) for c, _ in unshuffled.pile(f"tableau{n}"))
    others = [c for c in rules.cards() if c.rank is not Rank.ACE]
    assert cards(unshuffled, "tableau1") == " ".join(str(c) for c in others[0::8])


def test_a_step_of_a_rank_must_deal_every_card_of_that_rank():
    from dataclasses import replace
    from patiencebook.engine.errors import RulesError
    rules = ruleset("beleaguered_castle")
    step = replace(rules.deal[1], cards=(1, 1, 1, 0))
    with pytest.raises(RulesError, match="must deal the deck's 4 such cards, not 3"):
        replace(rules, deal=(rules.deal[0], step))


def test_an_ace_kept_on_a_foundation_from_the_ace_never_leaves():
    p = position("beleaguered_castle", {"foundation1": "Ac", "foundation2": "Ad 2d", "tableau1": "3s",
                                        "tableau2": ""})
    assert code(p, "foundation1>tableau2") == "base-stays"
    assert code(p, "foundation2>tableau1") is None
    assert "foundation1>tableau2" not in {str(m) for m in p.legal_moves}


# -- stock: requires no-empty-pile (Spider), deal-to-each with fewer cards than piles -----------

def test_spider_stock_deals_only_when_no_tableau_pile_is_empty():
    piles = {f"tableau{n}": "5d" for n in range(1, 11)}
    stock = " ".join(f"#{r}c" for r in "A23456789T")
    p = position("spider", {**piles, "tableau7": "", "stock": stock})
    reason = p.reason(Move.stock())
    assert reason.code == "fill-empty-first"
    assert Move.stock() not in list(p.legal_moves)


def test_spider_stock_deals_one_face_up_card_to_each_pile_top_of_the_stock_first():
    piles = {f"tableau{n}": "5d" for n in range(1, 11)}
    stock = " ".join(f"#{r}c" for r in "A23456789T")  # Tc on top
    after = position("spider", {**piles, "stock": stock}).apply("stock")
    assert [cards(after, f"tableau{n}") for n in range(1, 11)] == [f"5d {r}c" for r in "T98765432A"]
    assert cards(after, "stock") == ""


def test_scorpion_last_three_stock_cards_go_to_the_first_three_piles():
    rules = ruleset("scorpion")
    order = deal_order(rules, 5)
    p = Position.initial(rules, order)
    after = p.apply("stock")
    assert [after.pile(f"tableau{n}")[-1] for n in (1, 2, 3)] == [(order[49], True), (order[50], True),
                                                                (order[51], True)]
    assert [len(after.pile(f"tableau{n}")) for n in range(1, 8)] == [8, 8, 8, 7, 7, 7, 7]
    assert after.reason(Move.stock()).code == "stock-empty"


def test_scorpion_stock_deals_with_an_empty_pile():
    p = position("scorpion", {"tableau1": "5d", "stock": "#Ac #2c #3c"})
    after = p.apply("stock")
    assert [cards(after, f"tableau{n}") for n in range(1, 4)] == ["5d 3c", "2c", "Ac"]


# -- build closed-on (Golf), keeps-base (Canfield) -----------------------------------------------

def test_golf_nothing_goes_on_a_king():
    p = position("golf", {"waste": "Kh", "tableau1": "Qs", "tableau2": "As"})
    reason = p.reason(Move.parse("tableau1>waste"))
    assert (reason.code, reason.params["rank"], reason.params["onto"]) == ("closed-on", "K", "Kh")
    assert code(p, "tableau2>waste") == "closed-on"
    assert not list(p.legal_moves)


def test_golf_waste_builds_up_or_down_regardless_of_suit_without_wrap():
    p = position("golf", {"waste": "Qh", "tableau1": "Ks", "tableau2": "Jc", "tableau3": "Td"})
    assert [code(p, f"tableau{n}>waste") for n in (1, 2, 3)] == [None, None, "does-not-fit"]
    p = position("golf", {"waste": "Ah", "tableau1": "2c", "tableau2": "Kc"})
    assert [code(p, f"tableau{n}>waste") for n in (1, 2)] == [None, "does-not-fit"]


def test_canfield_base_card_never_leaves_its_foundation():
    p = position("canfield", {"foundation1": "7h", "foundation2": "7c 8c", "tableau1": "8s", "tableau2": "9d"},
                 base=Rank.SEVEN)
    reason = p.reason(Move.parse("foundation1>tableau1"))
    assert (reason.code, reason.params) == ("base-stays", {"pile": "foundation1", "rank": "7"})
    assert code(p, "foundation2>tableau2") is None
    # Empty tableau piles take any card (the reserve is empty), yet the 7h is never offered.
    assert [str(m) for m in p.legal_moves if m.source.startswith("foundation")] == [
        "foundation2>tableau2", "foundation2>tableau3", "foundation2>tableau4"]
    assert code(p, "foundation1>tableau3") == "base-stays"



# -- scoring terms -------------------------------------------------------------------------------

def test_scorpion_score_is_start_plus_links_and_complete_piles_less_face_down_cards():
    p = position("scorpion", {
        "tableau1": "#3c #4c Kh Qh Jh",   # 2 face down (-6), 2 links
        "tableau2": SPADES,               # 12 links, a complete pile (+4)
        "tableau3": "5d 4d 4c",           # 1 link; 4c on 4d is none
        "tableau4": "#Kd Qd",             # 1 face down (-3); no link on a face-down card
    })
    assert p.score == 36 - 6 + 2 + 12 + 4 + 1 - 3 == 46


def test_scorpion_complete_pile_counts_only_when_the_pile_is_exactly_the_run():
    assert position("scorpion", {"tableau1": "2d " + SPADES}).score == 36 + 12
    assert position("scorpion", {"tableau1": SPADES}).score == 36 + 12 + 4


def test_spider_links_count_same_suit_only_between_face_up_cards():
    p = position("spider", {"tableau1": "#Ks Qs Js Th 9h 8s", "tableau2": "#5h 4h"})
    assert p.score == 1 + 1 + 0  # Qs-Js, Th-9h; not 9h-8s, not under a face-down card


def test_forty_thieves_full_foundation_scores_sixty_more():
    p = position("forty_thieves", {"foundation1": " ".join(reversed(run("K", 13, "c").split())),
                                   "foundation2": "Ah 2h 3h"})
    assert p.score == 5 * 16 + 60 == 140


def test_gypsy_scores_cards_full_foundations_and_alternate_colour_links():
    p = position("gypsy", {"foundation1": " ".join(reversed(run("K", 13, "d").split())),
                           "tableau1": "9s 8h 7c 7d", "tableau2": "#4s 3h"})
    assert p.score == 5 * 13 + 60 + 2 * 2 == 129


def test_golf_scores_one_per_card_cleared_from_the_tableau():
    rules = ruleset("golf")
    p = Position.initial(rules, deal_order(rules, 3))
    assert p.score == 0
    piles = {f"tableau{n}": "5c 5d 5h 5s" for n in range(1, 7)}
    assert position("golf", {**piles, "tableau7": "7c"}).score == 35 - 25 == 10


# -- end: won tableau-empty, lost no-move --------------------------------------------------------

def test_golf_won_when_the_tableau_is_empty_though_the_stock_holds_cards():
    p = position("golf", {"stock": "#2c #3c", "waste": "Kh"})
    assert p.is_won() and not p.is_lost() and p.score == 35


def test_golf_lost_when_the_stock_is_empty_and_no_card_fits_the_waste():
    p = position("golf", {"waste": "Kd", "tableau1": "Qs", "tableau2": "2h"})
    assert not list(p.legal_moves) and p.is_lost()


def test_golf_not_lost_while_the_stock_can_deal():
    p = position("golf", {"stock": "#9c", "waste": "Kd", "tableau1": "Qs"})
    assert not p.is_lost()


def test_golf_not_lost_while_a_card_fits_the_waste():
    p = position("golf", {"waste": "Qd", "tableau1": "5s Js"})
    assert not p.is_lost()


def test_no_move_ignores_a_whole_pile_moving_into_an_empty_pile():
    p = position("scorpion", {"tableau1": "Kh 5c", "tableau3": "9d"})
    assert [str(m) for m in p.legal_moves] == [f"tableau1:2>tableau{n}" for n in (2, 4, 5, 6, 7)]
    assert p.is_lost()


def test_no_move_counts_part_of_a_pile_moving_into_an_empty_pile():
    p = position("scorpion", {"tableau1": "3s Kh 5c", "tableau3": "9d"})
    assert p.is_legal(Move.parse("tableau1:2>tableau2"))
    assert not p.is_lost()


def test_yukon_lost_when_no_move_is_left():
    p = position("yukon", {"tableau1": "#4d Qs", "tableau2": "#3h 9c"})
    assert not list(p.legal_moves) and p.is_lost()


# -- double-click kinds --------------------------------------------------------------------------

def test_card_to_freecell_goes_to_the_first_empty_free_cell():
    p = position("freecell", {"freecell1": "9h", "freecell3": "Jd", "tableau4": "Kc 6s"})
    assert p.double_click_drags("tableau4") == [Move.drag("tableau4", "freecell2", 1)]


def test_card_to_freecell_with_every_cell_full_does_nothing():
    p = position("freecell", {**{f"freecell{n}": f"{n + 4}h" for n in range(1, 5)}, "tableau4": "Kc 6s"})
    with pytest.raises(IllegalMove) as info:
        p.double_click_drags("tableau4")
    assert (info.value.code, info.value.params) == ("double-click-no-place", {"card": "6s", "pile": "tableau4"})


def test_card_to_freecell_is_followed_by_autoplay():
    p = position("freecell", {"tableau4": "Ad 6s"})
    after = p.apply("dbl:tableau4")
    assert (cards(after, "freecell1"), cards(after, "foundation1"), cards(after, "tableau4")) == ("6s", "Ad", "")


def test_card_to_waste_moves_a_fitting_top_card_onto_the_golf_waste():
    p = position("golf", {"waste": "8d", "tableau2": "Kc 9s", "tableau3": "Tc"})
    assert p.double_click_drags("tableau2") == [Move.drag("tableau2", "waste", 1)]
    with pytest.raises(IllegalMove) as info:
        p.double_click_drags("tableau3")
    assert info.value.code == "double-click-no-place"


def forty_thieves_for_double_click(**piles: str) -> Position:
    full = {f"tableau{n}": "Kd" for n in range(1, 11)}
    full.update(piles)
    return position("forty_thieves", full)


def test_card_anywhere_tries_a_foundation_first():
    p = forty_thieves_for_double_click(foundation2="Ah", waste="2h", tableau3="3s", tableau5="")
    assert p.double_click_drags("waste") == [Move.drag("waste", "foundation2", 1)]


def test_card_anywhere_then_a_tableau_card_before_an_empty_pile():
    p = forty_thieves_for_double_click(waste="5s", tableau1="", tableau2="9c", tableau6="6s", tableau8="6s")
    assert p.double_click_drags("waste") == [Move.drag("waste", "tableau6", 1)]


def test_card_anywhere_last_the_first_empty_tableau_pile():
    p = forty_thieves_for_double_click(tableau9="Qh 5s", tableau4="", tableau7="")
    assert p.double_click_drags("tableau9") == [Move.drag("tableau9", "tableau4", 1)]


def test_card_anywhere_with_no_place_does_nothing():
    p = forty_thieves_for_double_click(tableau9="Qh 5s")
    with pytest.raises(IllegalMove) as info:
        p.double_click_drags("tableau9")
    assert info.value.code == "double-click-no-place"


def test_klondike_autoplay_scans_the_waste_then_the_tableau_from_the_start_after_each_card():
    p = position("klondike", {"foundation1": "Ac", "waste": "Ah 2c", "tableau1": "Qd 3c", "tableau2": "Ad",
                              "tableau3": "2d"})
    assert [str(m) for m in p.double_click_drags("foundation3")] == [
        "waste>foundation1",      # 2c
        "waste>foundation2",      # then Ah, to the first empty foundation
        "tableau1>foundation1",   # the waste is empty: 3c
        "tableau2>foundation3",   # Ad
        "tableau3>foundation3",   # 2d, found by starting again from the left
    ]


def test_klondike_autoplay_with_nothing_to_move_is_refused():
    p = position("klondike", {"foundation1": "Ac", "waste": "5h", "tableau1": "Qd 3c"})
    with pytest.raises(IllegalMove) as info:
        p.double_click_drags("foundation1")
    assert info.value.code == "nothing-to-foundation"


# -- fixed base: base="ace" ----------------------------------------------------------------------

def test_klondike_ace_goes_to_an_empty_foundation_and_nothing_else_does():
    p = position("klondike", {"tableau1": "Ah", "tableau2": "2h", "waste": "As"})
    assert p.base_rank is None
    assert code(p, "tableau1>foundation1") is None
    assert code(p, "waste>foundation4") is None
    reason = p.reason(Move.parse("tableau2>foundation1"))
    assert (reason.code, reason.params["rank"]) == ("empty-takes-base", "A")
    assert p.double_click_drags("tableau1") == [Move.drag("tableau1", "foundation1", 1)]


def test_spider_won_with_two_complete_runs_stacked_in_one_pile_as_aisleriot_scores_96():
    piles = {"tableau1": SPADES + " " + SPADES}
    for n, suit in enumerate("hhddcc"):
        piles[f"tableau{n + 2}"] = run("K", 13, suit)
    p = position("spider", piles)
    assert p.score == 96
    assert p.is_won()
