"""Numbered deals: the shuffled deck that GNOME AisleRiot deals from a given seed.

"Deal N" of a game is the layout AisleRiot shows after starting that game with its random
generator seeded with N. This module gives the cards in the order they leave AisleRiot's
deck, so that dealing them by the ruleset's deal steps gives AisleRiot's layout card for card.

How the seed flows in AisleRiot (facts from its source, src/ and games/):

1. src/window.c, ``debug_choose_seed_response_cb``: a seed ``N`` (read as a ``guint``) becomes
   ``g_rand_new_with_seed(N)``, handed to ``aisleriot_game_new_game_with_rand``; src/game.c,
   ``aisleriot_game_new_game_internal`` adopts it as the game's generator.
2. src/game.c, ``game_scm_new_game``: calls the game's ``new-game`` procedure, then its
   ``game-over`` procedure (which answers "can the game go on?"), and calls ``new-game`` again
   while that answer is false. The generator is not reseeded in between: a re-deal takes the
   next numbers of the same stream.
3. games/api.scm, ``make-standard-deck``: with aces low, the deck list is clubs, diamonds, hearts,
   spades, each Ace to King (``make-standard-deck-list-ace-low``); a double deck is two such
   lists one after the other.
4. games/api.scm, ``shuffle-deck`` / ``shuffle-deck-helper``: walks a vector of the deck from the
   front; at step ``i`` (``len`` cards left) it picks index ``i + (aisleriot-random len)``, moves
   the card at ``i`` into the picked place, and conses the picked card onto the result list. The
   first card picked therefore ends up last in the list.
5. src/game.c, ``scm_myrandom`` (Scheme ``aisleriot-random``): ``g_rand_int_range(rand, 0, len)``.
6. games/api.scm: a slot's card list starts with its top card; ``deal-cards`` and
   ``deal-cards-face-up`` take the top card (``remove-card``) of the stock slot, which holds the
   shuffled list as it is. So the head of the shuffled list is the first card dealt.

Jokers: AisleRiot's games have none, so nothing in its source fixes where they go. Our unshuffled
deck puts them after every other card (:meth:`Deck.cards <patiencebook.engine.rules.Deck.cards>`)
and shuffles the whole list the same way. A deck without jokers is untouched, so its deals stay
AisleRiot's card for card; a deck with jokers gets deals of its own, stable for each seed.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .cards import Card
from .glibrand import GRand
from .rules import Ruleset

__all__ = ["SEED_MAX", "aisleriot_shuffle", "deal_order"]

#: Largest deal number: AisleRiot's seed is a ``guint32``.
SEED_MAX = 2**32 - 1


def aisleriot_shuffle(cards: Sequence[Card], rand: GRand) -> list[Card]:
    """``cards`` shuffled as AisleRiot's ``shuffle-deck`` does, drawing from ``rand``.

    Takes the unshuffled deck in AisleRiot's list order and returns a new list in AisleRiot's
    list order: index 0 is the top card, the first one dealt. Draws ``len(cards)`` numbers with
    ``g_rand_int_range(rand, 0, k)`` for ``k = len(cards) .. 1`` (games/api.scm,
    ``shuffle-deck-helper``). An empty deck draws nothing.
    """
    vec = list(cards)
    picked: list[Card] = []
    left = len(vec)
    for i in range(len(vec)):
        j = i + rand.int_range(0, left)
        picked.append(vec[j])
        vec[j] = vec[i]
        left -= 1
    picked.reverse()  # api.scm conses each pick onto the front of the result
    return picked


def deal_order(ruleset: Ruleset, seed: int,
               playable: Callable[[list[Card]], bool] | None = None,
               max_attempts: int = 10_000) -> list[Card]:
    """The deck of deal ``seed`` of ``ruleset`` in the order AisleRiot deals it, top card first.

    Index 0 is the first card dealt; the deal steps of ``ruleset`` take cards from the front in
    their order, and the cards left over form the stock with the first of them on top.
    ``seed`` is AisleRiot's seed, ``0 .. SEED_MAX`` (``ValueError`` otherwise).

    ``playable``, when given, is asked about each candidate order; when it answers false the
    next shuffle is drawn from the same generator, as AisleRiot's ``game_scm_new_game`` re-deals
    a new game that cannot go on. Hamilton, Agnes and Eagle Wing never re-deal (their
    ``game-over`` is true at the start: nothing is won yet, and Eagle Wing's stock can always be
    dealt), so they need no ``playable``. Raises ``RuntimeError`` after ``max_attempts``
    refused orders.

    The cards of a deal step of a rank (Beleaguered Castle's Aces) are set aside before the shuffle,
    which draws from the other cards only, and stand in the order where that step takes them.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise ValueError(f"a deal number is an integer from 0 to {SEED_MAX}, not {seed!r}")
    rand = GRand(seed)
    deck = ruleset.cards()
    aside = ruleset.set_aside
    if aside:
        deck = tuple(c for c in deck if c.rank not in aside)
    for _ in range(max_attempts):
        order = aisleriot_shuffle(deck, rand)
        if aside:
            order = _with_set_aside(ruleset, order)
        if playable is None or playable(order):
            return order
    raise RuntimeError(f"deal {seed} of {ruleset.game!r}: no playable deal in {max_attempts} attempts")


def _with_set_aside(ruleset: Ruleset, shuffled: list[Card]) -> list[Card]:
    """``shuffled`` (the deck without its set-aside cards) with the cards of each deal step of a rank
    (:attr:`~patiencebook.engine.rules.DealStep.rank`) put in where that step deals them, in the
    order of the unshuffled deck."""
    out: list[Card] = []
    rest = iter(shuffled)
    for step in ruleset.deal:
        if step.rank is not None:
            out.extend(c for c in ruleset.cards() if c.rank is step.rank)
        else:
            out.extend(next(rest) for _ in range(step.total(ruleset.pile(step.pile).count)))
    out.extend(rest)
    return out
