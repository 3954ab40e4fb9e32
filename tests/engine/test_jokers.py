"""Jokers: the card and its text form, decks holding them (one to three copies), and play with a
deck of two copies and two jokers: deal counts, notation and JSON round-trips, card conservation."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from patiencebook.engine.cards import JOKER, Card, CardError, Rank, Suit, make_deck
from patiencebook.engine.deals import aisleriot_shuffle, deal_order
from patiencebook.engine.errors import RulesError
from patiencebook.engine.glibrand import GRand
from patiencebook.engine.moves import Move, MoveKind
from patiencebook.engine.notation import (card_text, parse_card, parse_position, position_from_json, position_to_json,
                                          position_to_text)
from patiencebook.engine.position import Position, card_name
from patiencebook.engine.rules import (Accepts, Base, BuildPolicy, DealStep, Deck, FillPolicy, MovePolicy, PileGroup,
                                       Role, Ruleset, Scoring, StockAction, StockPolicy)


def c(text: str) -> Card:
    return Card.parse(text)


# -- the card ----------------------------------------------------------------------------------

def test_joker_text_is_jk_and_round_trips_in_any_case():
    assert str(Card.joker()) == "Jk"
    assert Card.parse("Jk") == Card.parse("jk") == Card.parse("JK") == Card.joker() == JOKER
    assert Card.parse(str(JOKER)) is JOKER
    assert repr(JOKER) == "Card.parse('Jk')"


def test_face_down_joker_is_hash_jk_in_the_notation():
    assert card_text(JOKER, face_up=False) == "#Jk"
    assert parse_card("#Jk") == (JOKER, False)
    assert parse_card("Jk") == (JOKER, True)


def test_jokers_are_equal_and_have_no_rank_suit_or_colour():
    assert Card(None, None) == JOKER and len({Card(None, None), JOKER, c("Js")}) == 2
    assert (JOKER.rank, JOKER.suit, JOKER.colour) == (None, None, None)
    assert JOKER.is_joker and not c("Js").is_joker


def test_a_card_with_only_a_rank_or_only_a_suit_is_refused():
    with pytest.raises(CardError, match="both a rank and a suit, or neither"):
        Card(Rank.ACE, None)
    with pytest.raises(CardError, match="both a rank and a suit, or neither"):
        Card(None, Suit.HEARTS)


def test_jokers_sort_after_kings_and_cards_still_sort_by_rank_then_suit():
    assert sorted([JOKER, c("Ks"), c("Ah"), c("Ac")]) == [c("Ac"), c("Ah"), c("Ks"), JOKER]
    assert c("Kc") < JOKER and JOKER > c("Ks") and JOKER <= JOKER


def test_joker_name_in_messages():
    assert card_name(JOKER) == "the joker"
    assert card_name(JOKER, "a") == "a joker"


@pytest.mark.parametrize("text", ["Jx", "J", "Jkk", "#Jk"])
def test_near_joker_texts_are_not_cards(text):
    with pytest.raises(CardError, match="not a card|unknown"):
        Card.parse(text)


# -- decks -------------------------------------------------------------------------------------

def test_make_deck_puts_the_jokers_after_every_other_card():
    deck = make_deck(2, jokers=2)
    assert len(deck) == 106
    assert deck[:104] == make_deck(2)
    assert deck[104:] == (JOKER, JOKER)


@pytest.mark.parametrize("jokers", [-1, 5, True, 1.0])
def test_make_deck_refuses_a_joker_count_outside_0_to_4(jokers):
    with pytest.raises(CardError, match="0 to 4 jokers"):
        make_deck(1, jokers=jokers)


@pytest.mark.parametrize("decks, suits, ranks, jokers, size", [
    (1, tuple(Suit), tuple(Rank), 0, 52),
    (1, tuple(Suit), tuple(Rank), 2, 54),
    (2, tuple(Suit), tuple(Rank), 2, 106),
    (3, tuple(Suit), tuple(Rank), 4, 160),
    (2, (Suit.SPADES,), (Rank.ACE, Rank.KING), 1, 5),
])
def test_deck_size_and_cards_count_the_jokers(decks, suits, ranks, jokers, size):
    deck = Deck(decks=decks, suits=suits, ranks=ranks, jokers=jokers)
    cards = deck.cards()
    assert deck.size == len(cards) == size
    assert Counter(cards)[JOKER] == jokers
    assert cards[size - jokers:] == (JOKER,) * jokers


def test_deck_refuses_more_than_four_jokers_or_a_negative_count():
    with pytest.raises(RulesError, match="at most 4 jokers, not 5"):
        Deck(decks=3, jokers=5)
    with pytest.raises(RulesError, match="the number of jokers must be a whole number of at least 0"):
        Deck(jokers=-1)
    with pytest.raises(RulesError, match="the number of jokers"):
        Deck(jokers=True)


def test_deal_order_shuffles_the_deck_with_its_jokers_appended_and_leaves_plain_decks_alone():
    plain = _joker_game(deck=Deck(decks=2), maximum=104)
    assert deal_order(plain, 7) == aisleriot_shuffle(make_deck(2), GRand(7))
    assert deal_order(JOKER_GAME, 7) == aisleriot_shuffle(make_deck(2) + (JOKER, JOKER), GRand(7))


# -- build and run rules -----------------------------------------------------------------------

@pytest.mark.parametrize("match", ["same-suit", "same-colour", "alternate-colour", "any-suit-but-own", "rank-only"])
def test_jokers_fit_no_build_of_any_match(match):
    for direction in ("up", "down", "up-or-down"):
        build = BuildPolicy(direction=direction, match=match, wrap=True)
        assert not build.allows(JOKER, JOKER)
        for card in make_deck(1):
            assert not build.allows(JOKER, card)
            assert not build.allows(card, JOKER)


def test_a_joker_links_into_no_run():
    move = MovePolicy(unit="run", match="rank-only", direction="down", wrap=True)
    assert move.can_lift((c("8h"), c("7s")))
    assert not move.can_lift((c("8h"), JOKER))
    assert not move.can_lift((JOKER, c("7s")))
    assert not move.can_lift((JOKER, JOKER))
    assert MovePolicy(unit="top").can_lift((JOKER,))


# -- play with two copies and two jokers --------------------------------------------------------

def _joker_game(deck: Deck = Deck(decks=2, jokers=2), maximum: int = 106) -> Ruleset:
    """Two decks and two jokers: stock to waste, eight foundations from the Ace, ten tableau piles
    built down in alternate colours; an empty tableau pile or free cell takes any card."""
    return Ruleset(
        game="jokers",
        deck=deck,
        piles=(
            PileGroup(id="stock", role=Role.STOCK, count=1, label="Stock", move=MovePolicy(unit="none")),
            PileGroup(id="waste", role=Role.WASTE, count=1, label="Waste"),
            PileGroup(id="foundation", role=Role.FOUNDATION, count=8, label="Foundation",
                      build=BuildPolicy(direction="up", match="same-suit", base=Base.ACE),
                      fill=FillPolicy(rule="base-rank")),
            PileGroup(id="freecell", role=Role.FREECELL, count=2, label="Free cells", capacity=1,
                      build=BuildPolicy(direction="none"), fill=FillPolicy(rule="any")),
            PileGroup(id="tableau", role=Role.TABLEAU, count=10, label="Tableau",
                      build=BuildPolicy(direction="down", match="alternate-colour", accepts=Accepts.RUN),
                      move=MovePolicy(unit="run", match="alternate-colour"), fill=FillPolicy(rule="any")),
        ),
        deal=(DealStep(pile="tableau", cards=(5,) * 10, face="top-up"),),
        stock=StockPolicy(pile="stock", action=StockAction.DEAL_TO_WASTE, target="waste", cards=1, redeals=None),
        scoring=Scoring(per_card=1, maximum=maximum),
    )


JOKER_GAME = _joker_game()


def _jokers_placed(seed: int) -> list[Card]:
    """Deal ``seed`` with one joker moved to the front (face down at the bottom of tableau1) and one to
    the top of the stock (the first card the stock turns), so play meets both."""
    cards = [card for card in deal_order(JOKER_GAME, seed) if not card.is_joker]
    return [JOKER] + cards[:49] + [JOKER] + cards[49:]


def test_two_decks_and_two_jokers_deal_106_cards_by_the_steps():
    position = Position.initial(JOKER_GAME, deal_order(JOKER_GAME, 3))
    piles = position.piles
    assert [len(piles[f"tableau{n}"]) for n in range(1, 11)] == [5] * 10
    assert len(piles["stock"]) == 106 - 50 == JOKER_GAME.stock_size
    assert all(not piles[p] for p in piles if p.startswith(("foundation", "freecell")) or p == "waste")
    assert Counter(position.cards()) == Counter(JOKER_GAME.cards())
    assert Counter(position.cards())[JOKER] == 2


def test_deal_order_shuffles_the_jokers_in_with_the_rest():
    seen = set()
    for seed in range(1, 30):
        order = deal_order(JOKER_GAME, seed)
        assert Counter(order) == Counter(JOKER_GAME.cards())
        seen.update(i for i, card in enumerate(order) if card.is_joker)
    assert min(seen) < 50 and max(seen) >= 50  # jokers reach both the tableau and the stock


def test_face_down_jokers_are_written_hash_jk_and_read_back():
    position = Position.initial(JOKER_GAME, _jokers_placed(1))
    text = position_to_text(position)
    assert "\ntableau1: #Jk #" in text and text.split("\nstock: ")[1].split("\n")[0].endswith(" #Jk")
    assert parse_position(text, JOKER_GAME) == position
    assert position_from_json(position_to_json(position), JOKER_GAME) == position
    assert '"#Jk"' in position_to_json(position)


def test_random_play_with_jokers_conserves_cards_and_round_trips():
    want = Counter(JOKER_GAME.cards())
    joker_moves = 0
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        position = start = Position.initial(JOKER_GAME, _jokers_placed(seed))
        for _ in range(300):
            moves = list(position.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            before = position
            position = position.apply(move)
            assert Counter(position.cards()) == want
            if move.kind is MoveKind.DRAG:
                lower = before.pile(move.target)
                landed = [card for card, _ in position.pile(move.target)[len(lower):]]
                if JOKER in landed:
                    joker_moves += 1
                    assert not lower and landed == [JOKER]  # a joker goes alone into an empty pile
                if lower:
                    assert lower[-1][0] != JOKER  # nothing goes onto a joker
            assert parse_position(position_to_text(position), JOKER_GAME) == position
            assert position_from_json(position_to_json(position), JOKER_GAME) == position
        assert position != start
    assert joker_moves > 0


def test_joker_goes_into_an_empty_any_pile_and_nowhere_else():
    position = Position.from_piles(JOKER_GAME, {
        "tableau1": [(JOKER, True)],
        "tableau2": [(c("8h"), True)],
        "tableau3": [(c("7s"), True), (JOKER, True)],
        "tableau5": [(c("9s"), True)],
        "tableau6": [(c("9d"), True)],
        "tableau7": [(c("Kh"), True)],
        "tableau8": [(c("Qs"), True)],
        "tableau9": [(c("2c"), True)],
        "tableau10": [(c("7c"), True)],
        "foundation1": [(c("Ac"), True)],
    }, base_rank=Rank.ACE)
    drags = {str(m) for m in position.legal_moves if m.kind.value == "drag"}
    assert "tableau1>freecell1" in drags and "tableau1>tableau4" in drags
    assert "tableau1>tableau2" not in drags and "tableau1>foundation1" not in drags
    assert "tableau2>tableau1" not in drags and "tableau10>tableau3" not in drags  # nothing goes on a joker
    assert "tableau10>tableau2" in drags and "tableau9>foundation1" in drags
    reason = position.reason(Move.parse("tableau1>tableau2"))
    assert reason.code == "does-not-fit" and str(reason) == (
        "a joker cannot go on the 8 of hearts: the tableau builds down in alternate colours")
    assert position.reason(Move.parse("tableau1>foundation1")).code == "does-not-fit"
    assert position.apply("tableau1>tableau4").pile("tableau4") == ((JOKER, True),)


def test_a_joker_is_never_a_base_rank_card_for_an_empty_foundation():
    position = Position.from_piles(JOKER_GAME, {
        "tableau1": [(JOKER, True)],
        "tableau2": [(c("Ac"), True)],
    }, base_rank=Rank.ACE)
    drags = {str(m) for m in position.legal_moves if m.kind.value == "drag"}
    assert "tableau2>foundation1" in drags
    assert not any(d.startswith("tableau1>foundation") for d in drags)
    assert position.reason(Move.parse("tableau1>foundation1")).code == "empty-takes-base"


def test_three_decks_with_four_jokers_deal_and_conserve_cards():
    game = _joker_game(deck=Deck(decks=3, jokers=4), maximum=160)
    position = Position.initial(game, deal_order(game, 11))
    assert len(position.cards()) == 160 and len(position.pile("stock")) == 110
    assert Counter(position.cards()) == Counter(game.cards())
    assert max(Counter(position.cards()).values()) == 4  # four jokers; three of every other card
    assert sorted(set(Counter(position.cards()).values())) == [3, 4]
