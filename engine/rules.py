"""The rules model: a patience game described as data (deck, piles, deal, policies, scoring, end).

A :class:`Ruleset` is what a rules block in a DocBook source loads into, and what the engine plays.
Every value is a frozen, slotted dataclass validated on construction: an unknown name or an
inconsistent combination raises :class:`~patiencebook.engine.errors.RulesError`.
Rules that data cannot state are named hooks, listed in :data:`HOOKS` with the games using them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Sequence

from .cards import MAX_JOKERS, Card, Rank, Suit, make_deck
from .errors import RulesError

__all__ = [
    "Role", "Direction", "Match", "Base", "Accepts", "MoveUnit", "FillRule", "Face", "DealOrder",
    "StockAction", "DoubleClick", "Reveal", "Declined", "Won", "Hook", "HOOKS", "LOST_NEVER",
    "MoveLimit", "AutoRule", "KingsRule", "StockRequires", "DealFrom",
    "Deck", "BuildPolicy", "MovePolicy", "FillPolicy", "PileGroup", "DealStep", "StockPolicy",
    "ChooserPolicy", "AutoPlay", "Scoring", "EndConditions", "Ruleset", "parse_enum",
    "pile_id", "pile_ids", "pile_groups",
]


class _Named(str, enum.Enum):
    """An enum whose values are the words used in a rules block."""

    def __str__(self) -> str:
        return self.value

    @classmethod
    def allowed(cls) -> str:
        """The allowed words, comma-separated, for error messages."""
        return ", ".join(m.value for m in cls)


def parse_enum(cls: type[_Named], value: "str | _Named", what: str,
               file: str | None = None, line: int | None = None) -> _Named:
    """``value`` as a member of ``cls`` (a member is returned unchanged).

    Raises :class:`RulesError` naming ``what`` (the parameter) and the allowed words when ``value``
    is not one of them.
    """
    if isinstance(value, cls):
        return value
    try:
        return cls(value)
    except ValueError:
        raise RulesError(f"unknown {what} {value!r}; allowed: {cls.allowed()}", file, line) from None


class Role(_Named):
    """What a pile is for. The names are the field terms of the help pages."""

    STOCK = "stock"
    WASTE = "waste"
    FOUNDATION = "foundation"
    TABLEAU = "tableau"
    RESERVE = "reserve"
    FREECELL = "freecell"
    CHOOSER = "chooser"


class Direction(_Named):
    """Which rank may be placed on a card: one lower (``down``), one higher (``up``), either, or none.

    ``same``: a card of the same rank: the two make a pair, which leaves the table together
    (:attr:`BuildPolicy.pair_to`; monte-carlo.scm ``droppable?`` compares the two values).
    ``any``: a card of any rank (osmosis.scm ``droppable?``: the first foundation takes every card of
    its suit, the others whatever rank the foundation before them holds,
    :attr:`BuildPolicy.previous_holds_rank`).
    """

    UP = "up"
    DOWN = "down"
    UP_OR_DOWN = "up-or-down"
    NONE = "none"
    SAME = "same"
    ANY = "any"


class Match(_Named):
    """How the suits of two cards placed one on the other must relate (see the definitions page)."""

    SAME_SUIT = "same-suit"
    SAME_COLOUR = "same-colour"
    ALTERNATE_COLOUR = "alternate-colour"
    ANY_SUIT_BUT_OWN = "any-suit-but-own"
    RANK_ONLY = "rank-only"


class Base(_Named):
    """Where the rank sequence of a pile starts, which is what an empty pile with ``fill="base-rank"`` takes.

    ``base-card``: the rank of the first card dealt to the foundations (Agnes, Eagle Wing).
    ``start-card``: the rank of the card accepted from the chooser (Hamilton).
    ``first-card``: the rank of the first card the player moves to a foundation; until then an
    empty foundation with ``fill="base-rank"`` takes any card (Chessboard: ``BASE-VAL`` and
    ``base-set?`` in chessboard.scm).
    """

    ANY = "any"
    ACE = "ace"
    KING = "king"
    BASE_CARD = "base-card"
    START_CARD = "start-card"
    FIRST_CARD = "first-card"


class Accepts(_Named):
    """How many cards a pile takes in one move: one card, or a whole run.

    A run moved onto a pile built in the other direction than the run (a tableau run going to a
    foundation) lands in reverse order, its top card first: AisleRiot's "move a run to a foundation".
    ``complete-run``: only a whole suit, King at the bottom to Ace on top (every rank of the deck), in
    one move and only into an empty pile (Spider's foundations: ``droppable?`` in spider.scm takes
    exactly 13 cards into an empty foundation).
    """

    SINGLE = "single"
    RUN = "run"
    COMPLETE_RUN = "complete-run"


class MoveUnit(_Named):
    """What may be lifted from a pile: nothing, its top card, or a run ending in its top card.

    Face-down cards are never lifted (agnes.scm and eagle-wing.scm check ``is-visible?`` in
    ``button-pressed``; Hamilton deals no face-down card to its piles).
    """

    NONE = "none"
    TOP = "top"
    RUN = "run"
    FACE_UP = "face-up"
    TOP_OR_FACE_UP = "top-or-face-up"


class MoveLimit(_Named):
    """A limit on the run moved onto a tableau pile that depends on the position.

    ``free-cells-and-empty-tableau``: at most (empty free cells + 1) x 2 ** (empty tableau piles),
    the target pile not counted (freecell.scm ``movable-to-field?``; forty-thieves.scm
    ``tableau-droppable?``, a game without free cells, so 2 ** (empty tableau piles)). The pile the run
    leaves is not counted either: AisleRiot counts it as empty once lifted and subtracts it again.
    ``free-cells``: at most (empty free cells + 1), whether the target pile is empty or not; empty
    tableau piles do not count (eight-off.scm and seahaven.scm ``button-pressed``, which counts the
    empty reserves in ``free-reserves``).
    """

    FREE_CELLS_AND_EMPTY_TABLEAU = "free-cells-and-empty-tableau"
    FREE_CELLS = "free-cells"


class AutoRule(_Named):
    """Which cards go to the foundations by themselves after every move.

    ``low-cards``: a top card of any other pile, face up, goes to a foundation it fits when its rank
    is at most 2 above the lowest foundation of the other colour and at most 3 above the lowest of
    its own colour (a suit not yet on a foundation counts 0). Piles are scanned in layout order,
    starting again after each card (freecell.scm ``move-low-cards``).
    ``all-cards``: the same scan, but every top card that fits a foundation goes, whatever its rank
    (bakers-game.scm, whose ``max-auto-red`` and ``max-auto-black`` are 13; eight-off.scm
    ``move-low-cards``).
    """

    LOW_CARDS = "low-cards"
    ALL_CARDS = "all-cards"


class KingsRule(_Named):
    """Where the kings of a deal step go: where they fall, or beneath the other cards of their pile
    (bakers-dozen.scm ``move-kings-back``, after the second, third and fourth rows: a king on top
    goes to the bottom, so a king dealt later lies beneath one dealt earlier)."""

    AS_DEALT = "as-dealt"
    BOTTOM = "bottom"


class DealFrom(_Named):
    """Which end of the deck a deal step takes its cards from.

    ``top``: the next cards of the shuffled deck, as AisleRiot deals from its stock.
    ``bottom``: the last cards first: cruel.scm ``remove-aces`` sets the Aces aside and conses the
    other cards onto a new list, so its stock holds them in reverse order and deals the card the
    shuffle put last first.
    """

    TOP = "top"
    BOTTOM = "bottom"


class StockRequires(_Named):
    """A condition for a stock click: ``no-empty-pile``: a ``deal-to-each`` stock deals only while no
    target pile is empty (spider.scm ``button-clicked`` with ``allow-empty-slots`` false).

    ``no-king-for-empty-pile``: a ``deal-to-each`` stock does not deal while a target pile is empty
    and a King could be moved into it: a King at the bottom of the longest run that can be lifted
    from a target pile, with other cards under it. When the target piles hold fewer cards than there
    are piles, the stock deals anyway (easthaven.scm ``button-clicked`` and ``kings-avail``: the
    stock and the score together above 45, the 52 cards less those on the tableau).
    """

    NOTHING = "nothing"
    NO_EMPTY_PILE = "no-empty-pile"
    NO_KING_FOR_EMPTY_PILE = "no-king-for-empty-pile"


class FillRule(_Named):
    """What may be moved into an empty pile.

    ``auto``: the pile is refilled at once from another pile (``FillPolicy.source``), and follows
    ``FillPolicy.otherwise`` when that pile is empty (Eagle Wing: from the reserve, then any card).
    ``none``: never by a move; only a deal from the stock can put a card there (Agnes).
    ``waste``: only the top card of the waste, any rank (Kansas, once its reserve is empty:
    ``droppable?`` in kansas.scm takes a card into an empty tableau slot only from the waste).
    ``below-base``: only a card one rank below the base rank, a King when the base is the Ace
    (Lady Jane: ``to-tableau?`` in lady-jane.scm).
    """

    ANY = "any"
    KINGS = "kings"
    NONE = "none"
    BASE_RANK = "base-rank"
    AUTO = "auto"
    WASTE = "waste"
    BELOW_BASE = "below-base"


class Face(_Named):
    """How the cards of a deal step lie: all face up, all face down, or face down with the top card up."""

    UP = "up"
    DOWN = "down"
    TOP_UP = "top-up"


class DealOrder(_Named):
    """How a deal step goes round its piles.

    ``rows``: one card to each pile that still needs cards, from left to right, then again
    (AisleRiot's ``deal-cards`` lists for Agnes and ``deal-tableau`` for Hamilton).
    ``piles``: all cards of the first pile, then all of the second, and so on.
    """

    ROWS = "rows"
    PILES = "piles"


class StockAction(_Named):
    """What a click on the stock does.

    ``deal-to-waste``: turn ``cards`` cards face up onto the waste; when empty, redeal the waste
    (same order, AisleRiot's ``flip-stock``/``flip-deck``) while redeals remain.
    ``deal-to-each``: one card face up on each pile of the target group, left to right, empty piles
    included, until the stock runs out (Agnes, Hamilton).
    ``redeal-tableau``: the piles of the target group are gathered, the first pile's cards bottom to
    top, then the second's, and so on, and dealt again face up in that order, ``cards`` to a pile,
    pile by pile from the first, until none is left; the stock itself holds no card. A click is
    possible only when it changes the layout, so after a redeal at least one card must move
    before the next (Cruel: ``do-deal-next-cards`` and ``just-redealt`` in cruel.scm).
    ``consolidate``: the cards of the target group close up: pile by pile from the first, each card
    moves, face up, to the first empty pile before it, keeping their order; then the stock deals one
    card face up to each empty pile from the first, until it runs out. A click is possible only when
    a card moves (Monte Carlo: ``move-cards-up`` and ``deal-the-empties`` in monte-carlo.scm).
    """

    DEAL_TO_WASTE = "deal-to-waste"
    DEAL_TO_EACH = "deal-to-each"
    REDEAL_TABLEAU = "redeal-tableau"
    CONSOLIDATE = "consolidate"
    NONE = "none"


class DoubleClick(_Named):
    """What a double-click on a pile does.

    ``card-to-foundation``: its top card goes to a foundation it fits (a base-rank card to the first
    empty one). ``run-to-foundation``: the longest run at the top goes, when its top card fits
    (Hamilton; Spider's complete runs). ``autoplay``: the top card of the waste, of a tableau pile
    or of a reserve that fits goes, scanning the waste, the tableau from the left and then the
    reserve again after each card (Agnes, Klondike, Forty Thieves, Gypsy, Giant foundations). ``card-to-freecell``: the top card goes to
    the first empty free cell (FreeCell). ``card-to-waste``: the top card goes onto the waste when it
    fits (Golf). ``card-anywhere``: the top card goes to the first foundation it fits, else onto the
    first tableau card it fits, else into the first empty tableau pile (Forty Thieves).
    """

    NONE = "none"
    CARD_TO_FOUNDATION = "card-to-foundation"
    RUN_TO_FOUNDATION = "run-to-foundation"
    AUTOPLAY = "autoplay"
    CARD_TO_FREECELL = "card-to-freecell"
    CARD_TO_WASTE = "card-to-waste"
    CARD_ANYWHERE = "card-anywhere"


class Reveal(_Named):
    """What happens to a face-down card that becomes the top card of a pile."""

    AUTO = "auto"
    CLICK = "click"
    NEVER = "never"


class Declined(_Named):
    """Where a card refused in the chooser goes."""

    STOCK_BOTTOM = "stock-bottom"


class Won(_Named):
    """When a game is won.

    ``all-on-foundations``: every card is on a foundation. ``tableau-empty``: every tableau pile is
    empty; the stock may still hold cards (golf.scm ``game-won``). ``complete-runs``: every card is
    on the foundations, or none is and every tableau pile is empty or complete runs, King to Ace in
    suit, face up, one on another (spider.scm ``game-won``: all foundations full, or a score of 96
    with the foundations empty; scorpion.scm ``game-won``, a game without foundations, wants one run
    per pile, which docs/deviations.md explains).
    """

    ALL_ON_FOUNDATIONS = "all-on-foundations"
    TABLEAU_EMPTY = "tableau-empty"
    COMPLETE_RUNS = "complete-runs"


@dataclass(frozen=True, slots=True)
class Hook:
    """A rule that data cannot state, implemented by the engine under this name.

    Attributes:
        name: the name used in rules blocks.
        kind: where it may be named: ``"lost"`` (the ``lost`` attribute of ``pb:end``) or ``"game"``
            (a ``pb:hook`` element).
        summary: what the rule is.
        games: the games that use it, with the source of the rule.
    """

    name: str
    kind: str
    summary: str
    games: tuple[str, ...]


#: ``EndConditions.lost`` for a game that is never declared lost.
LOST_NEVER = "never"

#: Every named hook, by name. The engine must implement each one; a rules block may name no other.
HOOKS: dict[str, Hook] = {
    hook.name: hook
    for hook in (
        Hook(
            name="no-useful-move",
            kind="lost",
            summary=(
                "The game is lost when the stock can neither deal nor redeal and no card can move "
                "to a foundation, onto a tableau card, or from the waste into an empty tableau pile."
            ),
            games=("eagle_wing: AisleRiot games/eagle-wing.scm, game-over and get-hint",),
        ),
        Hook(
            name="no-move",
            kind="lost",
            summary=(
                "The game is lost when no move is left (a click on the stock counts as a move), a move "
                "of a whole tableau pile into an empty tableau pile not counting."
            ),
            games=("golf: AisleRiot games/golf.scm, game-continuable",
                   "scorpion: games/scorpion.scm, get-hint",
                   "yukon: games/yukon.scm, get-hint",
                   "forty_thieves: games/forty-thieves.scm, get-hint",
                   "gypsy: games/gypsy.scm, get-hint",
                   "fortress: games/fortress.scm, game-continuable and get-hint",
                   "kansas: games/kansas.scm, get-hint",
                   "monte_carlo: games/monte-carlo.scm, game-continuable and get-hint",
                   "osmosis: games/osmosis.scm, game-continuable",
                   "odessa: games/odessa.scm, get-hint",
                   "seahaven: games/seahaven.scm, game-continuable and get-hint",
                   "thumb_and_pouch: games/thumb-and-pouch.scm, get-hint",
                   "triple_peaks: games/triple-peaks.scm, game-continuable",
                   "whitehead: games/whitehead.scm, get-hint"),
        ),
        Hook(
            name="no-move-but-off-foundations",
            kind="lost",
            summary=(
                "The game is lost when no move is left but moves that take a card off a foundation, "
                "a move of a whole tableau pile into an empty tableau pile not counting either."
            ),
            games=("eight_off: AisleRiot games/eight-off.scm, game-continuable and get-hint",),
        ),
        Hook(
            name="no-clearing-move",
            kind="lost",
            summary=(
                "The game is lost when the stock cannot deal and no card can go to a foundation, the "
                "waste card cannot go to the tableau, and no tableau move takes all the face-up cards of "
                "a pile: onto a tableau card, or, when face-down cards lie under them, into an empty "
                "tableau pile."
            ),
            games=("westhaven: AisleRiot games/westhaven.scm, get-hint",),
        ),
        Hook(
            name="no-move-or-redeal-loop",
            kind="lost",
            summary=(
                "The game is lost when no move is left (a click on the stock counts as a move), or when "
                "the tableau lies as a redeal leaves it, its last pile that holds cards holds a single "
                "card, and the only move left is that card onto the pile before it: that move and the "
                "next redeal would only bring the same layout back."
            ),
            games=("cruel: AisleRiot games/cruel.scm, game-continuable and headbanger?",),
        ),
        Hook(
            name="no-move-at-all",
            kind="lost",
            summary=(
                "The game is lost when no move at all is left, moving a whole pile into an empty pile "
                "included."
            ),
            games=("chessboard: AisleRiot games/chessboard.scm, game-continuable and get-hint",),
        ),
    )
}


def _check_int(value: int, what: str, minimum: int, line: int | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise RulesError(f"{what} must be a whole number of at least {minimum}, not {value!r}", None, line)


def _fits_suit(match: Match, lower: Card, upper: Card) -> bool:
    if match is Match.SAME_SUIT:
        return lower.suit is upper.suit
    if match is Match.SAME_COLOUR:
        return lower.colour is upper.colour
    if match is Match.ALTERNATE_COLOUR:
        return lower.colour is not upper.colour
    if match is Match.ANY_SUIT_BUT_OWN:
        return lower.suit is not upper.suit
    return True


def _fits_rank(direction: Direction, wrap: bool, lower: Card, upper: Card) -> bool:
    down = upper.rank == lower.rank.previous(wrap)
    up = upper.rank == lower.rank.next(wrap)
    if direction is Direction.DOWN:
        return down
    if direction is Direction.UP:
        return up
    if direction is Direction.UP_OR_DOWN:
        return down or up
    if direction is Direction.SAME:
        return upper.rank == lower.rank
    return direction is Direction.ANY


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards a game is played with: ``decks`` copies of every rank in ``ranks`` of every suit in
    ``suits``, plus ``jokers`` jokers (``0`` .. ``4`` for the whole deck, not per copy).

    The default is one standard deck of 52 cards (AisleRiot's ``make-standard-deck``); Spider,
    Forty Thieves and Gypsy play two (``make-standard-double-deck``), Spider's two-suit and
    one-suit options four or eight copies of two suits or one.
    Jokers are alike in play and fit no build or run rule: no card goes on a joker, and a joker goes
    only into an empty pile whose fill rule is ``any``. A deck with jokers can therefore be won
    (``all-on-foundations``) only when a foundation takes them that way; a game needing wild jokers
    would need a rule of its own.
    """

    decks: int = 1
    suits: tuple[Suit, ...] = tuple(Suit)
    ranks: tuple[Rank, ...] = tuple(Rank)
    jokers: int = 0

    def __post_init__(self) -> None:
        _check_int(self.decks, "the number of decks", 1)
        _check_int(self.jokers, "the number of jokers", 0)
        if self.jokers > MAX_JOKERS:
            raise RulesError(f"a deck holds at most {MAX_JOKERS} jokers, not {self.jokers}")
        object.__setattr__(self, "suits", tuple(self.suits))
        object.__setattr__(self, "ranks", tuple(self.ranks))
        if not self.suits or not self.ranks:
            raise RulesError("a deck needs at least one suit and one rank")
        if len(set(self.suits)) != len(self.suits) or len(set(self.ranks)) != len(self.ranks):
            raise RulesError("a deck lists a suit or a rank twice")

    @property
    def size(self) -> int:
        """Number of cards, jokers included (52 for one standard deck, 106 for two with two jokers)."""
        return self.decks * len(self.suits) * len(self.ranks) + self.jokers

    def cards(self) -> tuple[Card, ...]:
        """The cards in AisleRiot's unshuffled order, jokers last (see
        :func:`~patiencebook.engine.cards.make_deck`)."""
        return make_deck(self.decks, self.suits, self.ranks, self.jokers)


@dataclass(frozen=True, slots=True)
class BuildPolicy:
    """Which cards may be placed on the top card of a pile.

    Attributes:
        direction: rank of the placed card relative to the card under it (:class:`Direction`).
        match: suit relation of the two cards (:class:`Match`); ignored for ``direction=none``.
        wrap: King and Ace are neighbours (an Ace on a King going up, a King on an Ace going down).
        base: where the pile's rank sequence starts (:class:`Base`); used by ``fill="base-rank"``.
        stop_at_base: nothing may be placed on a card of the game's base rank (Hamilton's tableau:
            ``value-ok?`` in hamilton.scm refuses a target of the start value).
        accepts: one card or a whole run per move (:class:`Accepts`).
        closed_on: nothing may be placed on a card of this rank, or ``None`` (Golf's waste: nothing
            goes on a King, golf.scm ``droppable?``).
        pair_to: the id of a foundation group, or ``None``: a card placed on the pile's top card
            leaves the table with it, the two going onto the first pile of that group, the card that
            lay there first (Monte Carlo: monte-carlo.scm ``button-released`` removes both cards and
            scores 2 points).
        neighbours: a card may come only from another pile of the same group next to this one in
            the group's grid (:attr:`PileGroup.columns`): beside it, above or below it, or corner to
            corner (monte-carlo.scm ``adjacent?``).
        previous_holds_rank: a card may go on (or into the empty pile) only when the pile before
            this one in its group holds a card of the same rank; the group's first pile has no such
            condition (Osmosis: osmosis.scm ``droppable?`` looks for the value in the foundation two
            slots back; with a ``base-rank`` fill, the foundations are started from the left).
    """

    direction: Direction
    match: Match = Match.RANK_ONLY
    wrap: bool = False
    base: Base = Base.ANY
    stop_at_base: bool = False
    accepts: Accepts = Accepts.SINGLE
    closed_on: Rank | None = None
    pair_to: str | None = field(default=None, metadata={"omit-default": True})
    neighbours: bool = field(default=False, metadata={"omit-default": True})
    previous_holds_rank: bool = field(default=False, metadata={"omit-default": True})

    def __post_init__(self) -> None:
        object.__setattr__(self, "direction", parse_enum(Direction, self.direction, "build direction"))
        object.__setattr__(self, "match", parse_enum(Match, self.match, "build match"))
        object.__setattr__(self, "base", parse_enum(Base, self.base, "build base"))
        object.__setattr__(self, "accepts", parse_enum(Accepts, self.accepts, "build accepts"))
        if (self.direction is Direction.SAME) != (self.pair_to is not None):
            raise RulesError("a build of direction 'same' makes pairs: it needs the foundation the pairs go to "
                             "(pair-to), and only it takes one")
        if (self.pair_to is not None or self.previous_holds_rank) and self.accepts is not Accepts.SINGLE:
            raise RulesError("a pile that makes pairs, or that takes only ranks the pile before it holds, takes "
                             "one card at a time (accepts 'single')")

    def allows(self, onto: Card, card: Card, base_rank: Rank | None = None) -> bool:
        """True if ``card`` may be placed on ``onto`` under this policy (capacity not considered).

        ``base_rank`` is the game's base rank (``None`` before it is known); it matters only with
        ``stop_at_base``. For a run, pass the run's bottom card as ``card``, or its top card when the
        run lands in reverse (see :class:`Accepts`).
        """
        if onto.rank is None or card.rank is None:  # jokers fit no build
            return False
        if self.stop_at_base and base_rank is not None and onto.rank == base_rank:
            return False
        if self.closed_on is not None and onto.rank == self.closed_on:
            return False
        return _fits_rank(self.direction, self.wrap, onto, card) and _fits_suit(self.match, onto, card)


@dataclass(frozen=True, slots=True)
class MovePolicy:
    """Which cards may be lifted from a pile in one move.

    Attributes:
        unit: nothing, the top card, or a run ending in the top card (:class:`MoveUnit`).
        match, direction, wrap: for ``unit="run"``, how each card of the run lies on the one under it.
        stop_at_base: no card of a run may lie on a card of the base rank (Agnes:
            ``check-straight-descending-list-base-low``; Hamilton: ``valid-list?``).
        max_cards: the longest run that may move, ``None`` for no limit, or a :class:`MoveLimit`
            worked out from the position for moves onto a tableau pile.
        keeps_base: a card of the base rank never leaves the pile (Canfield's foundations:
            ``button-pressed`` in canfield.scm refuses a card of ``BASE-VAL``).

    ``unit="face-up"`` lifts any face-up card with every card on it, in whatever order they lie
    (yukon.scm and scorpion.scm ``button-pressed`` check only that the lifted card is face up).
    ``unit="top-or-face-up"`` lifts the top card alone, or every face-up card of the pile together,
    in whatever order they lie, and nothing in between (westhaven.scm ``button-pressed``: one card,
    the whole pile, or down to a card lying on a face-down one).
    """

    unit: MoveUnit = MoveUnit.TOP
    match: Match | None = None
    direction: Direction = Direction.DOWN
    wrap: bool = False
    stop_at_base: bool = False
    max_cards: "int | MoveLimit | None" = None
    keeps_base: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "unit", parse_enum(MoveUnit, self.unit, "move unit"))
        object.__setattr__(self, "direction", parse_enum(Direction, self.direction, "move direction"))
        if self.match is not None:
            object.__setattr__(self, "match", parse_enum(Match, self.match, "move match"))
        if self.unit is MoveUnit.RUN and self.match is None:
            raise RulesError("a move of unit 'run' needs a match (how the cards of a run relate)")
        if self.unit is not MoveUnit.RUN and self.match is not None:
            raise RulesError(f"a move of unit {self.unit.value!r} takes no match; only 'run' does")
        if isinstance(self.max_cards, str):
            object.__setattr__(self, "max_cards", parse_enum(MoveLimit, self.max_cards, "move max"))
        elif self.max_cards is not None:
            _check_int(self.max_cards, "the longest run (max)", 1)
        if self.stop_at_base and self.unit in (MoveUnit.FACE_UP, MoveUnit.TOP_OR_FACE_UP):
            raise RulesError(f"a move of unit {self.unit.value!r} takes no stop-at-base; it lifts cards in any order")

    @property
    def limit(self) -> "MoveLimit | None":
        """The position-dependent limit, if ``max_cards`` is one."""
        return self.max_cards if isinstance(self.max_cards, MoveLimit) else None

    @property
    def fixed_max(self) -> int | None:
        """``max_cards`` when it is a number, else ``None``."""
        return None if isinstance(self.max_cards, MoveLimit) else self.max_cards

    def can_lift(self, cards: Sequence[Card], base_rank: Rank | None = None) -> bool:
        """True if ``cards`` (bottom to top, the top card last) may be lifted together.

        Face and position in the pile are the caller's concern: ``cards`` must end with the top card.
        """
        n = len(cards)
        if n == 0 or self.unit is MoveUnit.NONE:
            return False
        if self.unit is MoveUnit.TOP or n == 1:
            return n == 1
        if self.fixed_max is not None and n > self.fixed_max:
            return False
        if self.unit is MoveUnit.FACE_UP or self.unit is MoveUnit.TOP_OR_FACE_UP:
            return True
        assert self.match is not None
        for lower, upper in zip(cards, cards[1:]):
            if lower.rank is None or upper.rank is None:  # a joker links into no run
                return False
            if self.stop_at_base and base_rank is not None and lower.rank == base_rank:
                return False
            if not (_fits_rank(self.direction, self.wrap, lower, upper) and _fits_suit(self.match, lower, upper)):
                return False
        return True


@dataclass(frozen=True, slots=True)
class FillPolicy:
    """What may go into an empty pile of the group (:class:`FillRule`).

    Attributes:
        rule: the fill rule.
        source: for ``auto``, the id of the pile group that refills this one.
        otherwise: for ``auto``, the rule once ``source`` is empty.
    """

    rule: FillRule = FillRule.NONE
    source: str | None = None
    otherwise: FillRule | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule", parse_enum(FillRule, self.rule, "fill rule"))
        if self.otherwise is not None:
            object.__setattr__(self, "otherwise", parse_enum(FillRule, self.otherwise, "fill otherwise"))
        if self.rule is FillRule.AUTO:
            if not self.source:
                raise RulesError("fill rule 'auto' needs the pile it is refilled from ('from')")
            if self.otherwise is None or self.otherwise is FillRule.AUTO:
                raise RulesError(
                    "fill rule 'auto' needs 'otherwise', the rule once the source is empty; allowed: "
                    + ", ".join(r.value for r in FillRule if r is not FillRule.AUTO))
        elif self.source is not None or self.otherwise is not None:
            raise RulesError(f"fill rule {self.rule.value!r} takes no 'from' or 'otherwise'; only 'auto' does")


@dataclass(frozen=True, slots=True)
class PileGroup:
    """A group of piles with one role and the same policies (``count`` piles, left to right).

    Attributes:
        id: name used by deal steps and policies (``"tableau"``).
        role: :class:`Role`.
        count: number of piles in the group.
        label: key of the pile's row in the page's Setup table (the English label, ``"Tableau"``).
        build: what may be placed on a pile, or ``None`` when nothing may (stock, waste, reserve).
        move: what may be lifted from a pile.
        fill: what may go into an empty pile.
        capacity: most cards a pile may hold, or ``None`` (Eagle Wing's tableau: 3).
        reveal: what happens to an uncovered face-down card (:class:`Reveal`).
        double_click: what a double-click on a pile does (:class:`DoubleClick`).
        slots: AisleRiot's slot numbers of the group's piles, left to right, or ``None`` when the
            ruleset's piles are AisleRiot's slots in layout order (see :meth:`Ruleset.slot_order`).
        columns: the piles lie in a grid of this many columns, row by row from the top left, or
            ``None`` for one row (Monte Carlo: five rows of five, monte-carlo.scm ``new-game``); a
            build with ``neighbours`` needs it.
        covered_by: for each pile of the group, the numbers (1 for the leftmost) of the piles of the
            group that lie over it, ``()`` for a pile nothing lies over; ``None`` when no pile of the
            group lies over another (see :meth:`covers`). A covered pile is dealt face down, and
            its top card is turned face up once every pile over it is empty (Triple Peaks:
            ``check-for-flips`` in triple-peaks.scm). A tableau pile that lies over no other pile
            but has piles over it is a *peak* (:attr:`peaks`), which :class:`Scoring` may reward.
        line: source line of the group's element, for messages (not compared).
    """

    id: str
    role: Role
    count: int
    label: str
    build: BuildPolicy | None = None
    move: MovePolicy = field(default_factory=MovePolicy)
    fill: FillPolicy = field(default_factory=FillPolicy)
    capacity: int | None = None
    reveal: Reveal = Reveal.AUTO
    double_click: DoubleClick = DoubleClick.NONE
    slots: tuple[int, ...] | None = None
    covered_by: tuple[tuple[int, ...], ...] | None = field(default=None, metadata={"omit-default": True})
    columns: int | None = field(default=None, metadata={"omit-default": True})
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id or not self.id.replace("-", "_").isidentifier():
            raise RulesError(f"a pile id must be a name of letters, digits, '-' or '_', not {self.id!r}",
                             None, self.line)
        object.__setattr__(self, "role", parse_enum(Role, self.role, "pile role", None, self.line))
        object.__setattr__(self, "reveal", parse_enum(Reveal, self.reveal, "pile reveal", None, self.line))
        object.__setattr__(self, "double_click",
                           parse_enum(DoubleClick, self.double_click, "pile double-click", None, self.line))
        _check_int(self.count, f"the count of pile {self.id!r}", 1, self.line)
        if self.capacity is not None:
            _check_int(self.capacity, f"the capacity of pile {self.id!r}", 1, self.line)
        if not self.label:
            raise RulesError(f"pile {self.id!r} needs a label (its row in the Setup table)", None, self.line)
        if self.role is Role.FOUNDATION and self.build is None:
            raise RulesError(f"foundation {self.id!r} needs a build policy", None, self.line)
        if self.slots is not None:
            object.__setattr__(self, "slots", tuple(self.slots))
            for n in self.slots:
                _check_int(n, f"a slot number of pile {self.id!r}", 0, self.line)
            if len(self.slots) != self.count:
                raise RulesError(f"pile {self.id!r} gives {len(self.slots)} slot numbers for {self.count} "
                                 f"pile{'s' if self.count != 1 else ''}; give one per pile", None, self.line)
        if self.covered_by is not None:
            self._check_covered_by()
        if self.columns is not None:
            _check_int(self.columns, f"the columns of pile {self.id!r}", 1, self.line)
            if self.columns > self.count:
                raise RulesError(f"pile {self.id!r} has {self.count} piles, too few for {self.columns} columns",
                                 None, self.line)
            if self.covered_by is not None:
                raise RulesError(f"the piles of {self.id!r} lie in a grid (columns) or over one another "
                                 "(pb:cover), not both", None, self.line)
        if self.build is not None and self.build.neighbours and self.columns is None:
            raise RulesError(f"pile {self.id!r} takes cards from its neighbours, so it needs a grid: give its "
                             "columns", None, self.line)

    def neighbours(self, n: int) -> tuple[int, ...]:
        """The numbers of the piles next to pile ``n`` (1 for the top left) in the group's grid:
        beside it, above or below it, or corner to corner, in pile order; ``()`` without a grid."""
        if self.columns is None:
            return ()
        row, col = divmod(n - 1, self.columns)
        out = []
        for m in range(1, self.count + 1):
            r, c = divmod(m - 1, self.columns)
            if m != n and abs(r - row) <= 1 and abs(c - col) <= 1:
                out.append(m)
        return tuple(out)

    def _check_covered_by(self) -> None:
        covered = tuple(tuple(over) for over in self.covered_by or ())
        object.__setattr__(self, "covered_by", covered)
        if len(covered) != self.count:
            raise RulesError(f"pile {self.id!r} says what lies over {len(covered)} piles, but it has "
                             f"{self.count}; give one entry per pile", None, self.line)
        for n, over in enumerate(covered, 1):
            for m in over:
                _check_int(m, f"a pile number covering pile {n} of {self.id!r}", 1, self.line)
                if m > self.count:
                    raise RulesError(f"pile {n} of {self.id!r} is covered by pile {m}, but the group has "
                                     f"{self.count} piles", None, self.line)
                if m == n:
                    raise RulesError(f"pile {n} of {self.id!r} cannot lie over itself", None, self.line)
            if len(set(over)) != len(over):
                raise RulesError(f"pile {n} of {self.id!r} names a covering pile twice", None, self.line)
        # No pile may lie, through others, over itself: each pile is uncovered some time.
        state: dict[int, int] = {}

        def visit(n: int) -> None:
            state[n] = 1
            for m in covered[n - 1]:
                if state.get(m) == 1:
                    raise RulesError(f"the piles of {self.id!r} lie over one another in a circle "
                                     f"(pile {m} and pile {n})", None, self.line)
                if not state.get(m):
                    visit(m)
            state[n] = 2

        for n in range(1, self.count + 1):
            if not state.get(n):
                visit(n)

    def covers(self, n: int) -> tuple[int, ...]:
        """The numbers of the piles that pile ``n`` (1 for the leftmost) lies over, in order."""
        if not self.covered_by:
            return ()
        return tuple(k for k, over in enumerate(self.covered_by, 1) if n in over)

    @property
    def peaks(self) -> tuple[int, ...]:
        """The numbers of the group's peaks: piles with piles over them that lie over none."""
        if not self.covered_by:
            return ()
        return tuple(n for n in range(1, self.count + 1) if self.covered_by[n - 1] and not self.covers(n))


def pile_id(group: PileGroup, n: int) -> str:
    """The id of pile ``n`` (1 for the leftmost) of ``group``: a group of one pile keeps its id
    (``"stock"``), a larger group numbers its piles from 1 (``"tableau3"``). ``n`` is not checked
    against the group's count."""
    return group.id if group.count == 1 else f"{group.id}{n}"


def pile_ids(ruleset: Ruleset) -> tuple[str, ...]:
    """The pile ids of ``ruleset`` in layout order (each from :func:`pile_id`):
    ``("stock", "waste", "foundation1", ..., "tableau7")``."""
    return tuple(pile_id(g, n) for g in ruleset.piles for n in range(1, g.count + 1))


def pile_groups(ruleset: Ruleset) -> tuple[PileGroup, ...]:
    """The group of each pile of ``ruleset``, in layout order: item ``i`` is the group of pile
    ``pile_ids(ruleset)[i]``."""
    return tuple(g for g in ruleset.piles for _ in range(g.count))


@dataclass(frozen=True, slots=True)
class DealStep:
    """One step of the opening deal, taking cards from the top of the shuffled deck.

    Attributes:
        pile: id of the pile group dealt to.
        cards: cards per pile, one number per pile of the group, or one number for every pile.
        face: how the dealt cards lie (:class:`Face`), for every pile, or a tuple with one
            :class:`Face` per pile of the group (Scorpion: face down on the first four piles, face up on
            the other three, row by row).
        order: how the step goes round the piles (:class:`DealOrder`).
        kings: where the kings go once the step is dealt (:class:`KingsRule`).
        rank: ``None``, or the only rank the step deals: the step takes the cards of that rank out
            of the deck, in the order they lie, and leaves the others where they are (Cruel's Aces
            go to the foundations first: cruel.scm ``remove-aces``).
        before_shuffle: with a ``rank``, its cards are set aside before the deck is shuffled and
            this step deals them in the order of the unshuffled deck (clubs, diamonds, hearts,
            spades), the other steps dealing the shuffled rest (Beleaguered Castle: the four Aces,
            one to each foundation; beleaguered-castle.scm shuffles a deck without Aces,
            ``make-deck-list-ace-low 2 2 club``, and adds each Ace with ``add-card!`` after the
            deal). A step of a rank deals all the deck's cards of that rank.
        source: which end of the deck the step takes its cards from (:class:`DealFrom`).
        line: source line, for messages (not compared).
    """

    pile: str
    cards: tuple[int, ...]
    face: "Face | tuple[Face, ...]" = Face.UP
    order: DealOrder = DealOrder.ROWS
    kings: KingsRule = KingsRule.AS_DEALT
    rank: Rank | None = field(default=None, metadata={"omit-default": True})
    before_shuffle: bool = field(default=False, metadata={"omit-default": True})
    source: DealFrom = field(default=DealFrom.TOP, metadata={"omit-default": True})
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))
        if isinstance(self.face, (tuple, list)):
            faces = tuple(parse_enum(Face, f, "deal face", None, self.line) for f in self.face)
            if not faces:
                raise RulesError(f"deal step for {self.pile!r} gives no face", None, self.line)
            object.__setattr__(self, "face", faces[0] if len(faces) == 1 else faces)
        else:
            object.__setattr__(self, "face", parse_enum(Face, self.face, "deal face", None, self.line))
        object.__setattr__(self, "order", parse_enum(DealOrder, self.order, "deal order", None, self.line))
        object.__setattr__(self, "kings", parse_enum(KingsRule, self.kings, "deal kings", None, self.line))
        object.__setattr__(self, "source", parse_enum(DealFrom, self.source, "deal from", None, self.line))
        if self.rank is not None and not isinstance(self.rank, Rank):
            raise RulesError(f"the rank of the deal step for {self.pile!r} must be a rank, not {self.rank!r}",
                             None, self.line)
        if not self.cards:
            raise RulesError(f"deal step for {self.pile!r} gives no card counts", None, self.line)
        for n in self.cards:
            _check_int(n, f"a card count of the deal step for {self.pile!r}", 0, self.line)
        if self.rank is not None and not isinstance(self.rank, Rank):
            raise RulesError(f"the rank of the deal step for {self.pile!r} must be a rank, not {self.rank!r}",
                             None, self.line)

    def faces(self, count: int) -> tuple[Face, ...]:
        """How the cards of each of ``count`` piles lie in this step."""
        return self.face if isinstance(self.face, tuple) else (self.face,) * count

    def per_pile(self, count: int) -> tuple[int, ...]:
        """The cards each of ``count`` piles receives in this step."""
        return self.cards * count if len(self.cards) == 1 else self.cards

    def total(self, count: int) -> int:
        """Cards this step deals to a group of ``count`` piles."""
        return sum(self.per_pile(count))


@dataclass(frozen=True, slots=True)
class StockPolicy:
    """What a click on the stock does (:class:`StockAction`).

    Attributes:
        pile: id of the stock pile group.
        action: the action.
        target: id of the pile group the stock deals to (the waste, or the tableau).
        cards: cards per click to the waste, or per pile for ``deal-to-each``.
        redeals: how often the waste may be turned back into the stock; ``None`` for no limit.
        requires: a condition for dealing (:class:`StockRequires`).
        discard: for ``deal-to-waste`` without redeals, the id of a pile that takes the waste's cards
            before each click deals: they go onto it face down, the top card first, so the waste
            holds only the card just dealt and the cards played on it since (Triple Peaks:
            ``flip-deck 1 2`` in triple-peaks.scm ``do-deal-next-cards``); ``None`` keeps the
            waste's cards where they are.
        rest: for ``deal-to-each``, the pile group (a waste) that takes the last cards: once the
            stock holds no more cards than one click deals, each click turns its top card face up
            onto that pile and the card under it face up on the stock, where the last card stays,
            in play (lady-jane.scm ``button-clicked``: 16 cards deal 7, 7, then one to the waste and
            the last face up). ``None``: the last click deals what is left.
        line: source line, for messages (not compared).
    """

    pile: str
    action: StockAction
    target: str | None = None
    cards: int = 1
    redeals: int | None = 0
    requires: StockRequires = StockRequires.NOTHING
    discard: str | None = field(default=None, metadata={"omit-default": True})
    rest: str | None = field(default=None, metadata={"omit-default": True})
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "action", parse_enum(StockAction, self.action, "stock action", None, self.line))
        object.__setattr__(self, "requires", parse_enum(StockRequires, self.requires, "stock requires",
                                                        None, self.line))
        if self.requires is StockRequires.NO_EMPTY_PILE and self.action is not StockAction.DEAL_TO_EACH:
            raise RulesError("only stock action 'deal-to-each' can require no empty pile", None, self.line)
        if self.requires is StockRequires.NO_KING_FOR_EMPTY_PILE and self.action is not StockAction.DEAL_TO_EACH:
            raise RulesError("only stock action 'deal-to-each' can require no King for an empty pile",
                             None, self.line)
        _check_int(self.cards, "the cards per stock deal", 1, self.line)
        if self.redeals is not None:
            _check_int(self.redeals, "the number of redeals", 0, self.line)
        if self.action is StockAction.NONE and self.target is not None:
            raise RulesError("stock action 'none' takes no target", None, self.line)
        if self.action is not StockAction.NONE and not self.target:
            raise RulesError(f"stock action {self.action.value!r} needs a target pile", None, self.line)
        if self.action is StockAction.REDEAL_TABLEAU:
            if self.redeals is not None:
                raise RulesError("stock action 'redeal-tableau' redeals without a limit: give redeals "
                                 "'unlimited'", None, self.line)
        elif self.action is not StockAction.DEAL_TO_WASTE and self.redeals != 0:
            raise RulesError("only stock action 'deal-to-waste' can redeal", None, self.line)
        if self.discard is not None and (self.action is not StockAction.DEAL_TO_WASTE or self.redeals != 0):
            raise RulesError("only stock action 'deal-to-waste' with no redeal can discard the waste", None,
                             self.line)
        if self.rest is not None and self.action is not StockAction.DEAL_TO_EACH:
            raise RulesError("only stock action 'deal-to-each' turns its last cards onto another pile ('rest')",
                             None, self.line)

    @property
    def passes(self) -> int | None:
        """How many times the stock can be gone through (redeals + 1), ``None`` for no limit."""
        return None if self.redeals is None else self.redeals + 1


@dataclass(frozen=True, slots=True)
class ChooserPolicy:
    """Choosing the start card through a chooser pile (Hamilton: ``choose-next`` in hamilton.scm).

    While no start card is chosen, a click on ``source`` turns its top card face up into ``pile``
    (a card already there goes face down to where ``declined`` says). At most ``offers`` cards are
    turned; the last one can only be accepted. Accepting means moving the card to an empty pile of
    ``accept_to``; its rank becomes the base rank. Nothing else moves, and the stock does not deal,
    until then.
    """

    pile: str
    source: str
    offers: int
    accept_to: str
    declined: Declined = Declined.STOCK_BOTTOM
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "declined", parse_enum(Declined, self.declined, "chooser declined", None, self.line))
        _check_int(self.offers, "the number of chooser offers", 1, self.line)


@dataclass(frozen=True, slots=True)
class AutoPlay:
    """Cards that go to the foundations by themselves after every move (:class:`AutoRule`)."""

    rule: AutoRule
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule", parse_enum(AutoRule, self.rule, "autoplay rule", None, self.line))


@dataclass(frozen=True, slots=True)
class Scoring:
    """The score, worked out from the position as a sum of terms.

    Attributes:
        per_card: points per card on the foundations (so a card moved off loses them; Hamilton, Agnes,
            Eagle Wing, Klondike, FreeCell, Yukon, Canfield, Baker's Dozen: 1; Forty Thieves, Gypsy: 5).
        per_full_foundation: more points per foundation holding a whole suit (Forty Thieves, Gypsy:
            60; Spider: 12, one per link of the run that went there).
        per_link, link: points per tableau card lying face up on a face-up card one rank higher, with
            the suit relation ``link`` (Spider and Scorpion 1, ``same-suit``; Gypsy 2,
            ``alternate-colour``).
        per_face_down: points (usually negative) per face-down tableau card (Scorpion: -3).
        per_complete_pile: points per tableau pile that is exactly one complete run (Scorpion: 4).
        per_card_cleared: points per card dealt to the tableau that has left it (Golf: 1).
        start: points added to the sum (Scorpion: 36).
        maximum: the number the Scoring section states. With ``per_card`` alone it must equal
            ``per_card`` times the deck size.

    The terms above are worked out from the position. The *running* terms below are instead added
    up move by move, since they depend on the order of play (the position keeps their sum; a game
    that uses one uses no other term):

        per_run_card: a card played onto the waste scores this many points times the cards that
            lie on the waste's first card, itself included (1, 2, 3 ... along a run; Triple Peaks: 1,
            ``tally-score``); the stock needs a ``discard`` pile so the waste starts afresh.
        per_stock_deal: points (usually negative) for each click on the stock; the score never goes
            below 0 through it (Triple Peaks: -5, ``do-deal-next-cards``).
        per_peak: points for a move that empties a peak of the tableau (:attr:`PileGroup.peaks`),
            and last_peak for the one that empties the last tableau pile, when that is a peak, in
            place of per_peak (Triple Peaks: 15 and 30, ``check-bonus``).
    Sources: ``add-to-score!``, ``set-score!`` and ``recalculate-score`` in each game's scm file.
    """

    per_card: int = 0
    maximum: int = 1
    per_full_foundation: int = 0
    per_link: int = 0
    link: Match = Match.SAME_SUIT
    per_face_down: int = 0
    per_complete_pile: int = 0
    per_card_cleared: int = 0
    start: int = 0
    per_run_card: int = field(default=0, metadata={"omit-default": True})
    per_stock_deal: int = field(default=0, metadata={"omit-default": True})
    per_peak: int = field(default=0, metadata={"omit-default": True})
    last_peak: int = field(default=0, metadata={"omit-default": True})
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_int(self.per_card, "the points per card", 0, self.line)
        _check_int(self.maximum, "the maximum score", 1, self.line)
        for name in ("per_full_foundation", "per_link", "per_complete_pile", "per_card_cleared",
                     "per_run_card", "per_peak", "last_peak"):
            _check_int(getattr(self, name), f"the points {name.replace('_', '-')}", 0, self.line)
        for name in ("per_face_down", "start", "per_stock_deal"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"{name.replace('_', '-')} must be a whole number, not {value!r}", None, self.line)
        object.__setattr__(self, "link", parse_enum(Match, self.link, "scoring link", None, self.line))
        if self.running and (self.per_card or self.per_full_foundation or self.per_link or self.per_face_down
                             or self.per_complete_pile or self.per_card_cleared or self.start):
            raise RulesError("a score added up move by move (per-run-card, per-stock-deal, per-peak, "
                             "last-peak) takes no term worked out from the position", None, self.line)

    @property
    def running(self) -> bool:
        """True when the score is added up move by move (a running term is not 0)."""
        return bool(self.per_run_card or self.per_stock_deal or self.per_peak or self.last_peak)

    @property
    def per_card_only(self) -> bool:
        """True when the score is just ``per_card`` times the cards on the foundations."""
        return not (self.per_full_foundation or self.per_link or self.per_face_down or self.per_complete_pile
                    or self.per_card_cleared or self.start or self.running)


@dataclass(frozen=True, slots=True)
class EndConditions:
    """When the game ends.

    Attributes:
        won: :class:`Won`.
        lost: :data:`LOST_NEVER`, or the name of a hook of kind ``"lost"`` in :data:`HOOKS`.
        line: source line, for messages (not compared).
    """

    won: Won = Won.ALL_ON_FOUNDATIONS
    lost: str = LOST_NEVER
    line: int | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "won", parse_enum(Won, self.won, "won condition", None, self.line))
        lost_names = [LOST_NEVER] + [h.name for h in HOOKS.values() if h.kind == "lost"]
        if self.lost not in lost_names:
            raise RulesError(f"unknown lost condition {self.lost!r}; allowed: {', '.join(lost_names)}", None, self.line)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A whole game: deck, pile groups, opening deal, stock and chooser, scoring, end and hooks.

    Piles are listed in the order of the page's Setup table. Construction checks that every id
    named by a step or policy exists and has a fitting role, that the deal fits the deck and the
    capacities, that a base rank is defined where one is used, and that the maximum score is
    reachable; any fault raises :class:`RulesError` with the line of the part at fault (``file`` is
    filled in by the loader).

    ``autoplay`` names cards that go to the foundations by themselves (:class:`AutoPlay`);
    ``variant`` is the id of the rule variant this ruleset is (Klondike's ``three-card-deals``), or
    ``None`` for a game without variants.
    """

    game: str
    deck: Deck
    piles: tuple[PileGroup, ...]
    deal: tuple[DealStep, ...]
    scoring: Scoring
    end: EndConditions = field(default_factory=EndConditions)
    stock: StockPolicy | None = None
    chooser: ChooserPolicy | None = None
    hooks: tuple[str, ...] = ()
    autoplay: AutoPlay | None = None
    variant: str | None = None
    file: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "piles", tuple(self.piles))
        object.__setattr__(self, "deal", tuple(self.deal))
        object.__setattr__(self, "hooks", tuple(self.hooks))
        if not self.game:
            raise RulesError("a ruleset needs a game name", self.file)
        self._check_piles()
        self._check_deal()
        self._check_stock_and_chooser()
        self._check_base()
        self._check_end()

    def slot_order(self) -> tuple[str, ...]:
        """The pile ids (as :func:`pile_ids` names them) in the order AisleRiot creates its slots:
        by the piles' ``slots`` numbers when given, else layout order.

        Source: the order of the ``add-normal-slot``/``add-extended-slot`` calls in the game's
        AisleRiot rules file (games/<game>.scm), which number the slots from 0.
        """
        ids = [(n, pile_id(g, k + 1)) for g in self.piles for k, n in enumerate(g.slots or range(g.count))]
        if any(g.slots is not None for g in self.piles):
            ids.sort(key=lambda item: item[0])
        return tuple(pid for _, pid in ids)

    def _fail(self, message: str, line: int | None) -> None:
        raise RulesError(message, self.file, line)

    def _group(self, pile_id: str | None, what: str, line: int | None, *roles: Role) -> PileGroup:
        for g in self.piles:
            if g.id == pile_id:
                if roles and g.role not in roles:
                    self._fail(f"{what} names pile {pile_id!r} of role {g.role.value!r}; it must be "
                               + " or ".join(repr(r.value) for r in roles), line)
                return g
        known = ", ".join(g.id for g in self.piles)
        self._fail(f"{what} names an unknown pile {pile_id!r}; piles: {known}", line)
        raise AssertionError  # unreachable

    def _check_piles(self) -> None:
        if not self.piles:
            self._fail("a ruleset needs at least one pile", None)
        seen: set[str] = set()
        for g in self.piles:
            if g.id in seen:
                self._fail(f"pile id {g.id!r} is used twice", g.line)
            seen.add(g.id)
        for g in self.piles:
            if g.fill.rule is FillRule.AUTO:
                src = self._group(g.fill.source, f"the fill of {g.id!r}", g.line)
                if src.id == g.id:
                    self._fail(f"pile {g.id!r} cannot be refilled from itself", g.line)
        for g in self.piles:
            if FillRule.WASTE in (g.fill.rule, g.fill.otherwise) and not self.piles_with_role(Role.WASTE):
                self._fail(f"pile {g.id!r} is filled from the waste, but the game has no waste", g.line)
            if FillRule.BELOW_BASE in (g.fill.rule, g.fill.otherwise) and self.base is Base.ANY:
                self._fail(f"pile {g.id!r} takes a card below the base rank, but the foundations have no base",
                           g.line)
        for g in self.piles:
            b = g.build
            if b is not None and b.pair_to is not None:
                to = self._group(b.pair_to, f"the pairs of {g.id!r}", g.line, Role.FOUNDATION)
                if to.build is None or to.build.direction is not Direction.NONE or to.move.unit is not MoveUnit.NONE:
                    self._fail(f"the foundation {to.id!r} takes pairs: its cards are out of play, so it needs "
                               "build direction 'none' and move unit 'none'", to.line)
            if b is not None and b.neighbours and b.pair_to is None:
                self._fail(f"pile {g.id!r} takes cards from its neighbours only in a pairing game (pair-to)", g.line)
        for role in (Role.STOCK, Role.WASTE, Role.CHOOSER):
            if sum(g.count for g in self.piles if g.role is role) > 1:
                self._fail(f"a game has at most one {role.value} pile", None)
        given = [g for g in self.piles if g.slots is not None]
        if given:
            missing = [g for g in self.piles if g.slots is None]
            if missing:
                self._fail(f"pile {missing[0].id!r} gives no slot numbers; when one pile gives them, "
                           "every pile must", missing[0].line)
            total = sum(g.count for g in self.piles)
            numbers = sorted(n for g in self.piles for n in g.slots or ())
            if numbers != list(range(total)):
                at = next((g for g in self.piles for n in g.slots or () if n >= total or numbers.count(n) > 1),
                          self.piles[0])
                self._fail(f"the slot numbers of the piles must be 0 to {total - 1}, each once; got "
                           + " ".join(map(str, numbers)), at.line)

    def _check_deal(self) -> None:
        dealt = 0
        filled: dict[str, list[int]] = {g.id: [0] * g.count for g in self.piles}
        for step in self.deal:
            g = self._group(step.pile, "a deal step", step.line)
            if len(step.cards) not in (1, g.count):
                self._fail(f"the deal step for {g.id!r} gives {len(step.cards)} counts; "
                           f"give 1 (every pile) or {g.count} (one per pile)", step.line)
            if isinstance(step.face, tuple) and len(step.face) != g.count:
                self._fail(f"the deal step for {g.id!r} gives {len(step.face)} faces; "
                           f"give 1 (every pile) or {g.count} (one per pile)", step.line)
            for i, n in enumerate(step.per_pile(g.count)):
                filled[g.id][i] += n
            dealt += step.total(g.count)
        set_aside = [step.rank for step in self.deal if step.rank is not None]
        for step in self.deal:
            if step.rank is None:
                continue
            if set_aside.count(step.rank) > 1:
                self._fail(f"two deal steps deal the cards of rank {step.rank.letter}", step.line)
            have = sum(1 for c in self.deck.cards() if c.rank is step.rank)
            want = step.total(self.pile(step.pile).count)
            if have != want:
                self._fail(f"the deal step for {step.pile!r} deals the cards of rank {step.rank.letter}: "
                           f"it must deal the deck's {have} such cards, not {want}", step.line)
        if dealt > self.deck.size:
            self._fail(f"the deal uses {dealt} cards but the deck has {self.deck.size}", None)
        for g in self.piles:
            if g.capacity is not None and max(filled[g.id]) > g.capacity:
                self._fail(f"the deal puts {max(filled[g.id])} cards on a {g.id!r} pile of capacity {g.capacity}",
                           g.line)

    def _check_stock_and_chooser(self) -> None:
        if self.stock is not None:
            s = self.stock
            self._group(s.pile, "the stock policy", s.line, Role.STOCK)
            if s.action is StockAction.DEAL_TO_WASTE:
                self._group(s.target, "the stock policy", s.line, Role.WASTE)
                if s.discard is not None:
                    d = self._group(s.discard, "the discard of the stock policy", s.line, Role.RESERVE)
                    if d.count != 1 or d.build is not None or d.move.unit is not MoveUnit.NONE:
                        self._fail(f"the discard pile {d.id!r} must be one reserve pile with no build and "
                                   "move unit 'none': its cards are out of play", s.line)
            elif s.action is StockAction.DEAL_TO_EACH:
                self._group(s.target, "the stock policy", s.line, Role.TABLEAU, Role.RESERVE, Role.FREECELL)
            elif s.action is StockAction.CONSOLIDATE:
                target = self._group(s.target, "the stock policy", s.line, Role.TABLEAU)
                if target.capacity != 1:
                    self._fail(f"a stock that consolidates closes up piles of one card each: give {target.id!r} "
                               "capacity 1", s.line)
            elif s.action is StockAction.REDEAL_TABLEAU:
                target = self._group(s.target, "the stock policy", s.line, Role.TABLEAU)
                elsewhere = sum(step.total(self.pile(step.pile).count) for step in self.deal if step.pile != target.id)
                if self.deck.size - elsewhere > target.count * s.cards:
                    self._fail(f"a redeal of {s.cards} cards to each of the {target.count} {target.id!r} piles "
                               f"cannot hold the {self.deck.size - elsewhere} cards they may have", s.line)
            if s.rest is not None:
                self._group(s.rest, "the stock policy's rest", s.line, Role.WASTE)
        if self.chooser is not None:
            c = self.chooser
            self._group(c.pile, "the chooser policy", c.line, Role.CHOOSER)
            self._group(c.source, "the chooser policy", c.line, Role.STOCK)
            self._group(c.accept_to, "the chooser policy", c.line, Role.FOUNDATION)
        elif any(g.role is Role.CHOOSER for g in self.piles):
            self._fail("a chooser pile needs a chooser policy (pb:chooser)", None)

    def _check_base(self) -> None:
        for g in self.piles:
            for policy, what in ((g.build, "build"), (g.move, "move")):
                if policy is not None and policy.stop_at_base and self.base is Base.ANY:
                    self._fail(f"the {what} policy of {g.id!r} stops at the base rank, but no foundation "
                               "defines a base", g.line)
            if g.fill.rule is FillRule.BASE_RANK and (g.build is None or g.build.base is Base.ANY):
                self._fail(f"pile {g.id!r} is filled by base rank but its build has no base", g.line)
        if self.base is Base.START_CARD and self.chooser is None:
            self._fail("base 'start-card' needs a chooser (pb:chooser)", None)
        if self.base is Base.BASE_CARD and not any(
                self.pile(s.pile).role is Role.FOUNDATION and s.total(self.pile(s.pile).count) for s in self.deal):
            self._fail("base 'base-card' needs a deal step that deals to a foundation", None)

    def _check_end(self) -> None:
        if self.end.won is Won.ALL_ON_FOUNDATIONS and not self.piles_with_role(Role.FOUNDATION):
            self._fail("the game is won with all cards on the foundations but has no foundation", self.end.line)
        if self.end.won is not Won.ALL_ON_FOUNDATIONS and not self.piles_with_role(Role.TABLEAU):
            self._fail(f"the game is won by {self.end.won.value!r} but has no tableau", self.end.line)
        if self.autoplay is not None and not self.piles_with_role(Role.FOUNDATION):
            self._fail("autoplay moves cards to the foundations, but the game has none", self.autoplay.line)
        for g in self.piles:
            needs = {DoubleClick.CARD_TO_FREECELL: Role.FREECELL, DoubleClick.CARD_TO_WASTE: Role.WASTE,
                     DoubleClick.CARD_ANYWHERE: Role.FOUNDATION}.get(g.double_click)
            if needs is not None and not self.piles_with_role(needs):
                self._fail(f"pile {g.id!r}: double-click {g.double_click.value!r} needs a {needs.value} pile",
                           g.line)
            if g.move.keeps_base and self.base is Base.ANY:
                self._fail(f"the move policy of {g.id!r} keeps the base rank, but no foundation defines a base",
                           g.line)
            if g.move.limit is MoveLimit.FREE_CELLS_AND_EMPTY_TABLEAU and not self.piles_with_role(Role.TABLEAU):
                self._fail(f"the move policy of {g.id!r} is limited by empty tableau piles, but the game has none",
                           g.line)
            if g.move.limit is MoveLimit.FREE_CELLS and not self.piles_with_role(Role.FREECELL):
                self._fail(f"the move policy of {g.id!r} is limited by empty free cells, but the game has none",
                           g.line)
        sc = self.scoring
        if sc.per_run_card and (self.stock is None or self.stock.discard is None):
            self._fail("per-run-card counts the cards on the waste since the last stock card, so the stock "
                       "needs a discard pile (pb:stock discard=)", sc.line)
        if (sc.per_peak or sc.last_peak) and not any(g.role is Role.TABLEAU and g.peaks for g in self.piles):
            self._fail("per-peak and last-peak reward peaks, but no tableau pile has piles over it "
                       "(pb:cover)", sc.line)
        for g in self.piles:
            if not g.covered_by:
                continue
            for step in self.deal:
                if step.pile != g.id:
                    continue
                for n, (count, face) in enumerate(zip(step.per_pile(g.count), step.faces(g.count)), 1):
                    if count and g.covered_by[n - 1] and face is not Face.DOWN:
                        self._fail(f"pile {n} of {g.id!r} has piles over it, so it is dealt face down, "
                                   f"not {face.value!r}", step.line)
        if len({g.move.limit for g in self.piles if g.move.limit is not None}) > 1:
            self._fail("the move policies of a game name one limit ('max') worked out from the position, "
                       "not two", None)
        if self.scoring.per_card_only and self.scoring.maximum != self.scoring.per_card * self.deck.size:
            self._fail(f"the maximum score {self.scoring.maximum} does not match the deck: "
                       f"{self.scoring.per_card} x {self.deck.size} cards = "
                       f"{self.scoring.per_card * self.deck.size}", self.scoring.line)
        for name in self.hooks:
            hook = HOOKS.get(name)
            if hook is None or hook.kind != "game":
                allowed = ", ".join(h.name for h in HOOKS.values() if h.kind == "game") or "(none yet)"
                self._fail(f"unknown hook {name!r}; allowed: {allowed}", None)

    # -- queries -------------------------------------------------------------------------------

    def pile(self, pile_id: str) -> PileGroup:
        """The pile group with this id; raises ``KeyError`` when there is none."""
        for g in self.piles:
            if g.id == pile_id:
                return g
        raise KeyError(pile_id)

    def piles_with_role(self, role: Role | str) -> tuple[PileGroup, ...]:
        """The pile groups of ``role``, in layout order."""
        role = parse_enum(Role, role, "pile role")
        return tuple(g for g in self.piles if g.role is role)

    @property
    def roles(self) -> tuple[Role, ...]:
        """The roles present, in layout order, each once."""
        out: list[Role] = []
        for g in self.piles:
            if g.role not in out:
                out.append(g.role)
        return tuple(out)

    @property
    def base(self) -> Base:
        """The game's base: the ``base`` of the first foundation's build policy (``Base.ANY`` without one)."""
        for g in self.piles:
            if g.role is Role.FOUNDATION and g.build is not None:
                return g.build.base
        return Base.ANY

    def dealt(self, pile_id: str) -> tuple[int, ...]:
        """Cards each pile of ``pile_id`` holds after the opening deal."""
        g = self.pile(pile_id)
        out = [0] * g.count
        for step in self.deal:
            if step.pile == pile_id:
                for i, n in enumerate(step.per_pile(g.count)):
                    out[i] += n
        return tuple(out)

    @property
    def stock_size(self) -> int:
        """Cards left in the stock after the opening deal (Hamilton 24, Agnes 23, Eagle Wing 30)."""
        return self.deck.size - sum(step.total(self.pile(step.pile).count) for step in self.deal)

    def stock_deals(self) -> tuple[int, ...]:
        """Cards each click of a ``deal-to-each`` stock gives, first to last, from a full stock.

        A chooser takes the accepted start card out of the stock first (Hamilton: 24 - 1 = 23 cards,
        dealt 7, 7, 7, 2). With a ``rest`` pile only full clicks count (Lady Jane: 16 cards, 7, 7;
        the last 2 go one by one). Empty for other stock actions.
        """
        if self.stock is None or self.stock.action is not StockAction.DEAL_TO_EACH:
            return ()
        left = self.stock_size - (1 if self.chooser is not None else 0)
        per_click = self.pile(self.stock.target or "").count * self.stock.cards
        deals = []
        while left > (per_click if self.stock.rest is not None else 0):
            deals.append(min(per_click, left))
            left -= deals[-1]
        return tuple(deals)

    def cards(self) -> tuple[Card, ...]:
        """The unshuffled deck (see :meth:`Deck.cards`)."""
        return self.deck.cards()

    @property
    def set_aside(self) -> frozenset[Rank]:
        """The ranks whose cards are set aside before the shuffle, for deal steps of their own
        (:attr:`DealStep.rank` with :attr:`DealStep.before_shuffle`); empty for most games."""
        return frozenset(step.rank for step in self.deal if step.rank is not None and step.before_shuffle)

