"""Cards and the rules model: text forms, deck order, policy checks and validation on construction."""

from __future__ import annotations

import re

import pytest

from patiencebook.engine.cards import Card, CardError, Colour, Rank, Suit, make_deck, standard_deck
from patiencebook.engine.errors import RulesError
from patiencebook.engine.rules import (HOOKS, Accepts, Base, BuildPolicy, DealStep, Deck, Direction, EndConditions,
                                       FillPolicy, FillRule, Match, MovePolicy, MoveUnit, PileGroup, Role, Ruleset,
                                       Scoring, StockAction, StockPolicy)


def c(text: str) -> Card:
    return Card.parse(text)


# -- cards -------------------------------------------------------------------------------------

def test_every_card_text_round_trips():
    for card in standard_deck():
        assert Card.parse(str(card)) == card


def test_card_text_is_rank_letter_then_suit_letter():
    assert str(Card(Rank.SEVEN, Suit.HEARTS)) == "7h"
    assert str(Card(Rank.QUEEN, Suit.SPADES)) == "Qs"
    assert str(Card(Rank.TEN, Suit.DIAMONDS)) == "Td"
    assert Card.parse("10d") == Card(Rank.TEN, Suit.DIAMONDS)
    assert Card.parse("ac") == Card(Rank.ACE, Suit.CLUBS)


@pytest.mark.parametrize("text", ["", "7", "7x", "1h", "Zh", "14s", "hh", "A2h", "JQs"])
def test_card_parse_refuses_non_cards(text):
    with pytest.raises(CardError, match="expected|not a card"):
        Card.parse(text)


def test_cards_are_hashable_values():
    assert len({c("7h"), Card.parse("7h"), c("7d")}) == 2


def test_suit_colours_are_red_for_diamonds_and_hearts():
    assert [s.colour for s in Suit] == [Colour.BLACK, Colour.RED, Colour.RED, Colour.BLACK]


def test_rank_neighbours_wrap_only_when_asked():
    assert Rank.KING.next() is None
    assert Rank.KING.next(wrap=True) is Rank.ACE
    assert Rank.ACE.previous(wrap=True) is Rank.KING
    assert Rank.SEVEN.previous() is Rank.SIX


def test_standard_deck_is_aisleriot_order_clubs_first_ace_to_king():
    deck = standard_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert [str(x) for x in deck[:3]] == ["Ac", "2c", "3c"]
    assert str(deck[13]) == "Ad" and str(deck[-1]) == "Ks"


def test_double_deck_has_104_cards_two_of_each():
    deck = make_deck(2)
    assert len(deck) == 104 and deck.count(c("Qh")) == 2
    assert Deck(decks=2).size == 104


# -- policies ----------------------------------------------------------------------------------

HAMILTON_TABLEAU = BuildPolicy(direction="down", match="same-colour", wrap=True, stop_at_base=True,
                               accepts="run")


def test_hamilton_tableau_takes_king_on_ace_unless_ace_is_the_start_rank():
    assert HAMILTON_TABLEAU.allows(c("Ah"), c("Kd"), base_rank=Rank.SEVEN)
    assert not HAMILTON_TABLEAU.allows(c("Ah"), c("Kd"), base_rank=Rank.ACE)


def test_hamilton_tableau_takes_nothing_on_a_start_rank_card():
    assert not HAMILTON_TABLEAU.allows(c("7s"), c("6c"), base_rank=Rank.SEVEN)
    assert HAMILTON_TABLEAU.allows(c("8s"), c("7c"), base_rank=Rank.SEVEN)


def test_same_colour_build_refuses_the_other_colour_and_wrong_rank():
    assert HAMILTON_TABLEAU.allows(c("9h"), c("8d"), base_rank=Rank.SEVEN)
    assert not HAMILTON_TABLEAU.allows(c("9h"), c("8s"), base_rank=Rank.SEVEN)
    assert not HAMILTON_TABLEAU.allows(c("9h"), c("7h"), base_rank=Rank.SEVEN)


def test_each_match_relates_suits_as_the_definitions_page_says():
    def ok(match, lower, upper):
        return BuildPolicy(direction="down", match=match).allows(c(lower), c(upper))
    assert ok("same-suit", "6s", "5s") and not ok("same-suit", "6s", "5c")
    assert ok("alternate-colour", "6s", "5h") and not ok("alternate-colour", "6s", "5c")
    assert ok("any-suit-but-own", "6s", "5c") and not ok("any-suit-but-own", "6s", "5s")
    assert ok("rank-only", "6s", "5s") and ok("rank-only", "6s", "5d")


def test_agnes_run_cannot_lie_across_the_base_rank():
    run = MovePolicy(unit="run", match="same-colour", direction="down", wrap=True, stop_at_base=True)
    assert run.can_lift([c("8h"), c("7d"), c("6h")], base_rank=Rank.KING)
    assert not run.can_lift([c("8h"), c("7d"), c("6h")], base_rank=Rank.SEVEN)
    assert run.can_lift([c("Ah"), c("Kd")], base_rank=Rank.FIVE)
    assert not run.can_lift([c("Ah"), c("Kd")], base_rank=Rank.ACE)


def test_top_unit_lifts_exactly_one_card_and_none_lifts_nothing():
    assert MovePolicy(unit="top").can_lift([c("5c")])
    assert not MovePolicy(unit="top").can_lift([c("6c"), c("5c")])
    assert not MovePolicy(unit="none").can_lift([c("5c")])


def test_max_run_limits_the_cards_lifted():
    policy = MovePolicy(unit="run", match="rank-only", max_cards=2)
    assert policy.can_lift([c("6c"), c("5d")])
    assert not policy.can_lift([c("7h"), c("6c"), c("5d")])


# -- validation --------------------------------------------------------------------------------

def test_unknown_direction_is_a_rules_error_naming_allowed_values():
    with pytest.raises(RulesError, match=r"unknown build direction 'sideways'; allowed: up, down, up-or-down, none"):
        BuildPolicy(direction="sideways")


def test_unknown_match_is_a_rules_error():
    with pytest.raises(RulesError, match=r"unknown build match 'same-rank'; allowed: same-suit, same-colour"):
        BuildPolicy(direction="down", match="same-rank")


def test_unknown_role_is_a_rules_error_with_its_line():
    with pytest.raises(RulesError) as info:
        PileGroup(id="attic", role="attic", count=1, label="Attic", line=12)
    assert info.value.line == 12
    assert ("unknown pile role 'attic'; allowed: stock, waste, foundation, tableau, reserve, freecell, chooser"
            in str(info.value))


def test_run_unit_needs_a_match_and_other_units_refuse_one():
    with pytest.raises(RulesError, match="needs a match"):
        MovePolicy(unit=MoveUnit.RUN)
    with pytest.raises(RulesError, match="takes no match"):
        MovePolicy(unit=MoveUnit.TOP, match=Match.SAME_SUIT)


def test_auto_fill_needs_a_source_and_a_fallback():
    with pytest.raises(RulesError, match="needs the pile"):
        FillPolicy(rule="auto")
    with pytest.raises(RulesError, match="needs 'otherwise'"):
        FillPolicy(rule="auto", source="reserve")
    assert FillPolicy(rule="auto", source="reserve", otherwise="any").otherwise is FillRule.ANY


def test_only_a_waste_stock_can_redeal():
    with pytest.raises(RulesError, match="only stock action 'deal-to-waste' can redeal"):
        StockPolicy(pile="stock", action="deal-to-each", target="tableau", redeals=1)
    assert StockPolicy(pile="stock", action="deal-to-waste", target="waste", redeals=2).passes == 3
    assert StockPolicy(pile="stock", action="deal-to-waste", target="waste", redeals=None).passes is None


def test_unknown_lost_condition_is_refused_and_hooks_name_their_games():
    with pytest.raises(RulesError, match="unknown lost condition 'bored'; allowed: never, no-useful-move"):
        EndConditions(lost="bored")
    for hook in HOOKS.values():
        assert hook.games and hook.summary and hook.kind in ("lost", "game")


def test_each_hook_names_exactly_the_games_whose_rules_block_uses_it():
    from tests.embedded import RULES_DIR
    used: dict[str, set[str]] = {}
    for path in RULES_DIR.glob("*.xml"):
        for name in re.findall(r'lost="([a-z-]+)"', path.read_text(encoding="utf-8")):
            used.setdefault(name, set()).add(path.stem)
    for hook in HOOKS.values():
        assert {entry.split(":")[0] for entry in hook.games} == used.get(hook.name, set()), hook.name


def _small_game(**changes):
    parts = dict(
        game="small",
        deck=Deck(),
        piles=(
            PileGroup(id="stock", role=Role.STOCK, count=1, label="Stock", move=MovePolicy(unit="none")),
            PileGroup(id="foundation", role="foundation", count=4, label="Foundation",
                      build=BuildPolicy(direction="up", match="same-suit", base=Base.ACE),
                      fill=FillPolicy(rule="base-rank")),
            PileGroup(id="tableau", role="tableau", count=7, label="Tableau", capacity=7,
                      build=BuildPolicy(direction="down", match="alternate-colour", accepts=Accepts.RUN),
                      move=MovePolicy(unit="run", match="alternate-colour"), fill=FillPolicy(rule="kings")),
        ),
        deal=(DealStep(pile="tableau", cards=(1, 2, 3, 4, 5, 6, 7), face="top-up"),),
        stock=StockPolicy(pile="stock", action=StockAction.DEAL_TO_EACH, target="tableau"),
        scoring=Scoring(per_card=1, maximum=52),
    )
    parts.update(changes)
    return Ruleset(**parts)


def test_a_consistent_ruleset_reports_its_stock_and_deals():
    rules = _small_game()
    assert rules.stock_size == 24
    assert rules.stock_deals() == (7, 7, 7, 3)
    assert rules.roles == (Role.STOCK, Role.FOUNDATION, Role.TABLEAU)
    assert rules.dealt("tableau") == (1, 2, 3, 4, 5, 6, 7)


def test_ruleset_refuses_a_deal_to_an_unknown_pile():
    with pytest.raises(RulesError, match="a deal step names an unknown pile 'tableaux'"):
        _small_game(deal=(DealStep(pile="tableaux", cards=(1,), face="up", line=9),))


def test_ruleset_refuses_a_deal_larger_than_a_capacity():
    with pytest.raises(RulesError, match="puts 8 cards on a 'tableau' pile of capacity 7"):
        _small_game(deal=(DealStep(pile="tableau", cards=(1, 1, 1, 1, 1, 1, 8), face="up"),))


def test_ruleset_refuses_a_maximum_score_the_deck_cannot_reach():
    with pytest.raises(RulesError, match="maximum score 50 does not match the deck"):
        _small_game(scoring=Scoring(per_card=1, maximum=50))


def test_ruleset_refuses_a_stock_that_deals_to_a_foundation():
    with pytest.raises(RulesError, match="role 'foundation'; it must be 'tableau' or 'reserve' or 'freecell'"):
        _small_game(stock=StockPolicy(pile="stock", action="deal-to-each", target="foundation"))


def test_ruleset_refuses_stop_at_base_without_a_defined_base():
    piles = list(_small_game().piles)
    piles[1] = PileGroup(id="foundation", role="foundation", count=4, label="Foundation",
                         build=BuildPolicy(direction="up", match="same-suit"))
    piles[2] = PileGroup(id="tableau", role="tableau", count=7, label="Tableau",
                         build=BuildPolicy(direction="down", stop_at_base=True))
    with pytest.raises(RulesError, match="stops at the base rank, but no foundation defines a base"):
        _small_game(piles=tuple(piles))


def test_ruleset_refuses_a_start_card_base_without_a_chooser():
    piles = list(_small_game().piles)
    piles[1] = PileGroup(id="foundation", role="foundation", count=4, label="Foundation",
                         build=BuildPolicy(direction="up", match="same-suit", base="start-card"),
                         fill=FillPolicy(rule="base-rank"))
    with pytest.raises(RulesError, match="base 'start-card' needs a chooser"):
        _small_game(piles=tuple(piles))


def test_rules_values_are_frozen():
    rules = _small_game()
    with pytest.raises(AttributeError):
        rules.game = "other"  # type: ignore[misc]
    assert rules.pile("tableau").build.direction is Direction.DOWN


def test_engine_rules_and_cards_import_only_the_standard_library():
    import ast
    import sys
    from pathlib import Path

    engine = Path(__file__).resolve().parents[2] / "engine"
    for name in ("cards.py", "rules.py"):
        tree = ast.parse((engine / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module.split(".")[0] in sys.stdlib_module_names | {"__future__"}, (name, node.module)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] in sys.stdlib_module_names, (name, alias.name)
