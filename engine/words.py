"""The English words of the engine's own messages: card names, and the words for pile roles, build
directions and suit matches. The refusal reasons of play (:mod:`~patiencebook.engine.position`) and
the faults of position checks (:mod:`~patiencebook.engine.validation`) say things the same way.

Front ends say the same in the player's language through :mod:`~patiencebook.engine.wording`.
"""

from __future__ import annotations

from .cards import Card, Suit
from .rules import Direction, Match, Role

__all__ = ["card_name", "RANK_NAMES", "SUIT_NAMES", "ROLE_WORDS", "DIRECTION_WORDS", "MATCH_WORDS"]

#: Rank names by rank value (index 0, no rank, is empty): ``RANK_NAMES[1] == "Ace"``.
RANK_NAMES = ("", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
#: Suit names, plural: ``"hearts"``.
SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
#: A pile of each role as a noun: ``"free cell"``.
ROLE_WORDS = {Role.STOCK: "stock", Role.WASTE: "waste", Role.FOUNDATION: "foundation", Role.TABLEAU: "tableau",
              Role.RESERVE: "reserve", Role.FREECELL: "free cell", Role.CHOOSER: "chooser"}
#: How a pile builds or a run goes: ``"up or down"`` (``Direction.NONE`` has no word).
DIRECTION_WORDS = {Direction.UP: "up", Direction.DOWN: "down", Direction.UP_OR_DOWN: "up or down"}
#: How the suits of a build or run are related, after the direction: ``"in alternate colours"``.
MATCH_WORDS = {Match.SAME_SUIT: "in suit", Match.SAME_COLOUR: "in the same colour",
               Match.ALTERNATE_COLOUR: "in alternate colours", Match.ANY_SUIT_BUT_OWN: "in any other suit",
               Match.RANK_ONLY: "regardless of suit"}


def card_name(card: Card, article: str = "the") -> str:
    """English name of ``card`` for messages: ``"the 7 of hearts"``, ``"an Ace of spades"``.

    ``article`` is ``"the"``, ``"a"`` (turned into ``"an"`` before Ace and 8) or ``""``.
    A joker is ``"the joker"``.
    """
    if card.rank is None:
        return f"{article} joker".strip()
    rank = RANK_NAMES[card.rank.value]
    if article == "a" and rank in ("Ace", "8"):
        article = "an"
    return f"{article} {rank} of {SUIT_NAMES[card.suit]}".strip()
