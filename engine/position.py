"""Positions: the state of a game of patience as a value, and the rules that move it on.

A :class:`Position` holds every pile of a :class:`~patiencebook.engine.rules.Ruleset` (cards bottom
to top, each face up or down) and the little state the rules need besides (base rank, redeals and
chooser offers used). It never changes: :meth:`Position.apply` returns a new position, and
:class:`~patiencebook.engine.game.Game` keeps the history for undo and redo. All game logic reads
the ruleset's policies; the few rules that data cannot state are in :mod:`patiencebook.engine.hooks`.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from .cards import JOKER, Card, Rank, Suit
from .errors import EngineError, IllegalMove, NotationError, PositionError, Reason
from .hooks import lost_check
from .moves import LegalMoves, Move, MoveKind
from .rules import (
    LOST_NEVER, Accepts, AutoRule, Base, DealOrder, Direction, DoubleClick, Face, FillRule, KingsRule, Match,
    MoveLimit, MoveUnit, Reveal, Role, Ruleset, StockAction, StockRequires, Won,
)

__all__ = ["Position", "pile_ids", "card_name", "deck_fault"]

# A card inside a position is a small int: suit index * 16 + rank, plus _UP when it lies face up.
# Ints keep move generation and hashing fast; the public API hands out Card objects.
# A joker is 0 (rank 0, which no rank has): every joker gets the same code, as they are alike in play,
# and "rank 0" reads as "base rank not known", so a joker never sets or matches a base rank.
_UP = 64
_SUITS = tuple(Suit)
_JOKER = 0
_CARD_OF: dict[int, Card] = {(s << 4) | r: Card(Rank(r), suit) for s, suit in enumerate(_SUITS) for r in range(1, 14)}
_CARD_OF[_JOKER] = JOKER
_CODE_OF: dict[Card, int] = {card: code for code, card in _CARD_OF.items()}

_RANK_NAMES = ("", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
_SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
_ROLE_WORDS = {Role.STOCK: "stock", Role.WASTE: "waste", Role.FOUNDATION: "foundation", Role.TABLEAU: "tableau",
               Role.RESERVE: "reserve", Role.FREECELL: "free cell", Role.CHOOSER: "chooser"}
_DIRECTION_WORDS = {Direction.UP: "up", Direction.DOWN: "down", Direction.UP_OR_DOWN: "up or down"}
_MATCH_WORDS = {Match.SAME_SUIT: "in suit", Match.SAME_COLOUR: "in the same colour",
                Match.ALTERNATE_COLOUR: "in alternate colours", Match.ANY_SUIT_BUT_OWN: "in any other suit",
                Match.RANK_ONLY: "regardless of suit"}
_NONE, _TOP, _RUN = 0, 1, 2


def card_name(card: Card, article: str = "the") -> str:
    """English name of ``card`` for messages: ``"the 7 of hearts"``, ``"an Ace of spades"``.

    ``article`` is ``"the"``, ``"a"`` (turned into ``"an"`` before Ace and 8) or ``""``.
    A joker is ``"the joker"``.
    """
    if card.rank is None:
        return f"{article} joker".strip()
    rank = _RANK_NAMES[card.rank.value]
    if article == "a" and rank in ("Ace", "8"):
        article = "an"
    return f"{article} {rank} of {_SUIT_NAMES[card.suit]}".strip()


def pile_ids(ruleset: Ruleset) -> tuple[str, ...]:
    """The pile ids of ``ruleset`` in layout order: a group of one pile keeps its id (``"stock"``),
    a larger group numbers its piles from 1 (``"tableau1"`` … ``"tableau7"``)."""
    return tuple(g.id if g.count == 1 else f"{g.id}{n}" for g in ruleset.piles for n in range(1, g.count + 1))


class _Rules:
    """A ruleset compiled for play: per-pile policy data in lists, and lookup tables per base rank."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.game = ruleset.game
        self.ids = pile_ids(ruleset)
        self.index = {pid: i for i, pid in enumerate(self.ids)}
        self.groups = tuple(g for g in ruleset.piles for _ in range(g.count))
        self.roles = tuple(g.role for g in self.groups)
        self.group_piles = {g.id: tuple(i for i, h in enumerate(self.groups) if h is g) for g in ruleset.piles}
        self.deck_size = ruleset.deck.size
        self.per_card = ruleset.scoring.per_card
        self.foundations = tuple(i for i, r in enumerate(self.roles) if r is Role.FOUNDATION)
        self.tableaux = tuple(i for i, r in enumerate(self.roles) if r is Role.TABLEAU)
        self.base_kind = ruleset.base
        self.base_word = "start rank" if self.base_kind is Base.START_CARD else "base rank"
        # Foundations from the Ace or the King have their base rank from the start; the position's
        # base stays 0 ('base: -' in the notation) since nothing sets it.
        self.fixed_base = 1 if self.base_kind is Base.ACE else 13 if self.base_kind is Base.KING else 0
        n = len(self.ids)
        self.lift = [_NONE] * n
        self.max_cards = [self.deck_size] * n
        self.capacity = [0] * n
        self.accepts_run = [False] * n
        self.reveal = [g.reveal for g in self.groups]
        for i, g in enumerate(self.groups):
            self.lift[i] = {MoveUnit.NONE: _NONE, MoveUnit.TOP: _TOP, MoveUnit.RUN: _RUN,
                            MoveUnit.FACE_UP: _RUN}[g.move.unit]
            if g.move.fixed_max is not None:
                self.max_cards[i] = g.move.fixed_max
            self.capacity[i] = g.capacity or 0
            self.accepts_run[i] = g.build is not None and g.build.accepts in (Accepts.RUN, Accepts.COMPLETE_RUN)
        self.sources = tuple(i for i in range(n) if self.lift[i] != _NONE)
        # Runs onto a tableau pile limited by free cells and empty tableau piles (FreeCell, Forty Thieves).
        self.limited = [g.move.limit is MoveLimit.FREE_CELLS_AND_EMPTY_TABLEAU for g in self.groups]
        self.freecells = tuple(i for i, r in enumerate(self.roles) if r is Role.FREECELL)
        self.keeps_base = [g.move.keeps_base for g in self.groups]
        self.complete_run = [g.build is not None and g.build.accepts is Accepts.COMPLETE_RUN for g in self.groups]
        self.suit_size = len(ruleset.deck.ranks)
        self.wastes = tuple(i for i, r in enumerate(self.roles) if r is Role.WASTE)
        self.autoplay = ruleset.autoplay.rule if ruleset.autoplay is not None else None
        self.scoring = ruleset.scoring
        self.simple_score = ruleset.scoring.per_card_only
        self.won = ruleset.end.won
        self.dealt_tableau = sum(step.total(ruleset.pile(step.pile).count) for step in ruleset.deal
                                 if ruleset.pile(step.pile).role is Role.TABLEAU)
        self.kcap = [self.suit_size if self.complete_run[j] else self.deck_size if self.accepts_run[j] else 1
                     for j in range(n)]
        self.fill_static = [None if g.fill.rule is FillRule.AUTO else g.fill.rule for g in self.groups]
        # Rank 0 (base not known yet) wants no card; its codes would otherwise include the joker.
        self.rank_codes = [()] + [tuple((s << 4) | r for s in range(4)) for r in range(1, 14)]
        self.targets = tuple(i for i in range(n) if self.groups[i].build is not None)
        # A foundation card may go back to the tableau, never to another foundation (the pages:
        # "can be moved back to the tableau"); it would only shuffle a base card between empty piles.
        self.targets_from = tuple(
            tuple(j for j in self.targets if j != i
                  and not (self.roles[i] is Role.FOUNDATION and self.roles[j] is Role.FOUNDATION))
            for i in range(n))
        # A run lands reversed on a pile built the other way (a tableau run going up a foundation).
        self.reverse = [[False] * n for _ in range(n)]
        for i, src in enumerate(self.groups):
            for j, dst in enumerate(self.groups):
                if dst.build is not None and src.move.unit is MoveUnit.RUN:
                    a, b = src.move.direction, dst.build.direction
                    self.reverse[i][j] = {a, b} == {Direction.UP, Direction.DOWN}
        self.reverse_to = [[self.reverse[i][j] for i in range(n)] for j in range(n)]
        self.allowed_from = [[j in self.targets_from[i] and self.lift[i] != _NONE for i in range(n)]
                             for j in range(n)]
        self.autofill = tuple((i, self.group_piles[g.fill.source or ""]) for i, g in enumerate(self.groups)
                              if g.fill.rule is FillRule.AUTO)
        stock = ruleset.stock
        self.stock_policy = stock
        self.stock = self.group_piles[stock.pile][0] if stock is not None else -1
        if stock is None and ruleset.chooser is not None:
            self.stock = self.group_piles[ruleset.chooser.source][0]
        self.stock_targets = self.group_piles[stock.target] if stock is not None and stock.target else ()
        chooser = ruleset.chooser
        self.chooser_policy = chooser
        self.chooser = self.group_piles[chooser.pile][0] if chooser is not None else -1
        self.accept_to = self.group_piles[chooser.accept_to] if chooser is not None else ()
        self.flippable = tuple(i for i in range(n) if self.reveal[i] is Reveal.CLICK)
        self.double_click = tuple((i, g.double_click) for i, g in enumerate(self.groups)
                                  if g.double_click is not DoubleClick.NONE)
        self._moves: dict[int, Move] = {}
        self._tables: dict[int, tuple[list, list, list]] = {}
        self._fits_cache: dict[tuple, bytearray] = {}
        self._links_cache: dict[tuple, bytearray] = {}

    def drag(self, i: int, j: int, k: int) -> Move:
        """The (shared) drag move from pile ``i`` to pile ``j`` of ``k`` cards."""
        key = (i << 16) | (j << 8) | k
        m = self._moves.get(key)
        if m is None:
            m = self._moves[key] = Move(MoveKind.DRAG, self.ids[i], self.ids[j], k)
        return m

    def tables(self, base: int) -> tuple[list, list, list]:
        """Per pile: the build table (``fits[(onto << 6) | card]``), the run-link table
        (``link[(lower << 6) | upper]``) and, per top card, the cards it accepts, under base rank
        ``base`` (0 when not known); ``None`` where the pile has no build or lifts no run. Built from
        the policies' own ``allows``/``can_lift``, so the tables say exactly what the policies say."""
        t = self._tables.get(base)
        if t is None:
            rank = Rank(base) if base else None
            fits: list = []
            links: list = []
            accepts: list = []
            for g in self.groups:
                f = self._fits(g.build, rank) if g.build is not None else None
                fits.append(f)
                accepts.append(None if f is None else
                               [tuple(b for b in _CARD_OF if f[(a << 6) | b]) for a in range(64)])
                links.append(self._links(g.move, rank) if g.move.unit in (MoveUnit.RUN, MoveUnit.FACE_UP)
                             else None)
            t = self._tables[base] = (fits, links, accepts)
        return t

    def _fits(self, build, rank) -> bytearray:
        return _pair_table(self._fits_cache, (build, rank), lambda ca, cb: build.allows(ca, cb, rank))

    def _links(self, move, rank) -> bytearray:
        return _pair_table(self._links_cache, (move, rank), lambda ca, cb: move.can_lift((ca, cb), rank))


_COMPILED: dict[int, tuple[Ruleset, _Rules]] = {}
# Double-clicks that send a card somewhere other than a foundation.
_DOUBLE_CLICKS_ELSEWHERE = frozenset({DoubleClick.CARD_TO_FREECELL, DoubleClick.CARD_TO_WASTE,
                                      DoubleClick.CARD_ANYWHERE})
_STOCK_MOVE = Move.stock()


def _memo(table: dict, owner, make):
    """``make(owner)``, kept in ``table`` by the owner's identity (the owner is kept too, so its id
    cannot be reused by another object while the entry lives)."""
    hit = table.get(id(owner))
    if hit is not None and hit[0] is owner:
        return hit[1]
    value = make(owner)
    table[id(owner)] = (owner, value)
    return value


def _compile(ruleset: Ruleset) -> _Rules:
    return _memo(_COMPILED, ruleset, _Rules)


def _check_kind(kind: object) -> None:
    """Refuse a move kind that is not a :class:`MoveKind` (a Move built in code with a bad kind)."""
    if kind is not MoveKind.FLIP and kind is not MoveKind.DOUBLE_CLICK and \
            kind is not MoveKind.DRAG and kind is not MoveKind.STOCK:
        raise IllegalMove(Reason("bad-move", f"unknown kind of move {kind!r:.40}"))


def _code(card: Card) -> int:
    try:
        return _CODE_OF[card]
    except (KeyError, TypeError):
        raise EngineError(f"not a card of a standard deck: {card!r}") from None


class Position:
    """One state of a game: piles in layout order plus base rank, redeals used and chooser offers used.

    A value: it never changes after construction, compares equal to a position of the same game
    with the same piles and state, and hashes accordingly. Make one with :meth:`initial` (a fresh
    deal), :meth:`from_piles`, or :func:`patiencebook.engine.notation.parse_position`.

    Attributes (read-only):
        ruleset: the :class:`Ruleset` played.
        game: the game name (``ruleset.game``).
        base_rank: the rank the foundations start from, or ``None`` while not known (Hamilton
            before the start card is chosen; games without a base).
        redeals_used: how often the waste has been turned back into the stock.
        offers_used: how many cards the chooser has been offered.
    """

    __slots__ = ("_rules", "_piles", "_base", "_redeals", "_offers", "_hash", "_drags", "_drag_set")

    def __init__(self) -> None:
        raise TypeError("make a Position with Position.initial(ruleset, cards) or Position.from_piles(...)")

    @classmethod
    def _make(cls, rules: _Rules, piles: tuple, base: int, redeals: int, offers: int) -> "Position":
        p = object.__new__(cls)
        p._rules = rules
        p._piles = piles
        p._base = base
        p._redeals = redeals
        p._offers = offers
        p._hash = None
        p._drags = None
        p._drag_set = None
        return p

    # -- construction ----------------------------------------------------------------------------

    @classmethod
    def initial(cls, ruleset: Ruleset, cards: Sequence[Card]) -> "Position":
        """The opening deal of ``ruleset`` from ``cards``, in the order the deal takes them.

        The deal steps run in order, each taking the next cards (``rows``: one card per pile that
        still needs one, left to right, round after round; ``piles``: pile after pile). With face
        ``top-up`` the last card a pile gets in that step lies face up. The first card dealt to a
        foundation sets the base rank when the foundations start from the base card (a joker has no
        rank, so the next card dealt to a foundation does). The cards left over form the stock, face
        down, the next card in ``cards`` on top.

        Raises :class:`EngineError` when ``cards`` is not the ruleset's deck in some order.
        """
        rules = _compile(ruleset)
        codes = [_code(c) for c in cards]
        if sorted(codes) != sorted(_code(c) for c in ruleset.cards()):
            raise EngineError(f"the cards to deal are not the {ruleset.game} deck of {rules.deck_size} cards "
                              f"in some order (got {len(codes)} cards)")
        piles: list[list[int]] = [[] for _ in rules.ids]
        pos = 0
        base = 0
        for step in ruleset.deal:
            members = rules.group_piles[step.pile]
            need = list(step.per_pile(len(members)))
            order: list[int] = []
            if step.order is DealOrder.ROWS:
                while any(need):
                    for n, left in enumerate(need):
                        if left:
                            order.append(n)
                            need[n] -= 1
            else:
                for n, count in enumerate(need):
                    order.extend([n] * count)
            last = {n: t for t, n in enumerate(order)}
            faces = step.faces(len(members))
            for t, n in enumerate(order):
                code = codes[pos]
                pos += 1
                face = faces[n]
                up = face is Face.UP or (face is Face.TOP_UP and last[n] == t)
                i = members[n]
                piles[i].append(code | _UP if up else code)
                if not base and rules.roles[i] is Role.FOUNDATION and rules.base_kind is Base.BASE_CARD:
                    base = code & 15
            if step.kings is KingsRule.BOTTOM:
                # A king on top goes to the bottom after each row, so kings end beneath the other
                # cards, a later king beneath an earlier one (bakers-dozen.scm move-kings-back).
                for i in members:
                    kings = [c for c in piles[i] if c & 15 == 13]
                    piles[i] = kings[::-1] + [c for c in piles[i] if c & 15 != 13]
        rest = codes[pos:]
        if rest:
            if rules.stock < 0:
                raise EngineError(f"{ruleset.game} deals {pos} cards and has no stock for the other {len(rest)}")
            piles[rules.stock] = list(reversed(rest))
        return cls._make(rules, tuple(tuple(p) for p in piles), base, 0, 0)

    @classmethod
    def from_piles(cls, ruleset: Ruleset, piles: "dict[str, Sequence[tuple[Card, bool]]]",
                   base_rank: Rank | None = None, redeals_used: int = 0, offers_used: int = 0) -> "Position":
        """A position with the given piles (id -> cards bottom to top as ``(card, face_up)``) and state.

        Piles not named are empty. Raises :class:`EngineError` for an unknown pile id, a pile that
        is not a list of ``(card, face_up)`` pairs, a base that is not a :class:`Rank` or counters
        that are not whole numbers of at least 0. Neither the deck nor the rules are checked here:
        :meth:`validate` does that (and :func:`~patiencebook.engine.notation.parse_position` calls it).
        """
        rules = _compile(ruleset)
        if base_rank is not None and not isinstance(base_rank, Rank):
            raise EngineError(f"the base rank is a Rank or None, not {base_rank!r:.40}")
        for what, n in (("redeals used", redeals_used), ("offers used", offers_used)):
            if n.__class__ is not int or n < 0:
                raise EngineError(f"{what} must be a whole number of at least 0, not {n!r:.40}")
        out: list[tuple[int, ...]] = [()] * len(rules.ids)
        if not hasattr(piles, "items"):
            raise EngineError(f"the piles are a mapping of pile id to cards, not a {type(piles).__name__}")
        for pid, cards in piles.items():
            if not isinstance(pid, str) or pid not in rules.index:
                raise EngineError(f"{ruleset.game} has no pile {pid!r:.60}; piles: {', '.join(rules.ids)}")
            try:
                out[rules.index[pid]] = tuple(_code(c) | (_UP if up else 0) for c, up in cards)
            except (TypeError, ValueError):  # not a list of pairs
                raise EngineError(f"the cards of {pid} must be (card, face_up) pairs") from None
        return cls._make(rules, tuple(out), int(base_rank) if base_rank else 0, redeals_used, offers_used)

    @classmethod
    def from_text(cls, text: str, ruleset: Ruleset) -> "Position":
        """The position in the text notation (:func:`patiencebook.engine.notation.parse_position`);
        raises :class:`~patiencebook.engine.errors.NotationError`."""
        from .notation import parse_position
        return parse_position(text, ruleset)

    @classmethod
    def from_json(cls, text: str, ruleset: Ruleset) -> "Position":
        """The position from its JSON form (:func:`patiencebook.engine.notation.position_from_json`)."""
        from .notation import position_from_json
        return position_from_json(text, ruleset)

    def text(self) -> str:
        """The position in the text notation; ``Position.from_text(p.text(), p.ruleset) == p``."""
        from .notation import position_to_text
        return position_to_text(self)

    def to_json(self) -> str:
        """The position as JSON (:func:`patiencebook.engine.notation.position_to_json`)."""
        from .notation import position_to_json
        return position_to_json(self)

    # -- value behaviour -------------------------------------------------------------------------

    def _key(self) -> tuple:
        return (self._rules.game, self._piles, self._base, self._redeals, self._offers)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._piles == other._piles and self._key() == other._key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(self._key())
        return h

    def copy(self) -> "Position":
        """This position (it never changes, so a copy is the same value)."""
        return self

    def __str__(self) -> str:
        from .notation import position_to_text
        return position_to_text(self)

    def __repr__(self) -> str:
        return f"<Position {self.game} score={self.score} base={self.base_rank}>"

    # -- reading ---------------------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        return self._rules.ruleset

    @property
    def game(self) -> str:
        return self._rules.game

    @property
    def redeals_used(self) -> int:
        return self._redeals

    @property
    def offers_used(self) -> int:
        return self._offers

    @property
    def base_rank(self) -> Rank | None:
        return Rank(self._base) if self._base else None

    @property
    def pile_ids(self) -> tuple[str, ...]:
        """Pile ids in layout order (see :func:`pile_ids`)."""
        return self._rules.ids

    def role(self, pile_id: str) -> Role:
        """The role of pile ``pile_id``; raises ``KeyError`` for an unknown id."""
        return self._rules.roles[self._rules.index[pile_id]]

    def pile(self, pile_id: str) -> tuple[tuple[Card, bool], ...]:
        """The cards of pile ``pile_id``, bottom to top, as ``(card, face_up)``; ``KeyError`` if unknown."""
        return tuple((_CARD_OF[c & 63], bool(c & _UP)) for c in self._piles[self._rules.index[pile_id]])

    @property
    def piles(self) -> dict[str, tuple[tuple[Card, bool], ...]]:
        """Every pile, id -> cards bottom to top as ``(card, face_up)``, in layout order (a fresh dict)."""
        return {pid: tuple((_CARD_OF[c & 63], bool(c & _UP)) for c in p)
                for pid, p in zip(self._rules.ids, self._piles)}

    def cards(self) -> list[Card]:
        """Every card in the position, pile by pile, bottom to top."""
        return [_CARD_OF[c & 63] for p in self._piles for c in p]

    @property
    def score(self) -> int:
        """Points, as the ruleset's :class:`~patiencebook.engine.rules.Scoring` terms add them up
        from this position (the Scoring section of each page)."""
        R = self._rules
        piles = self._piles
        on_foundations = sum(len(piles[i]) for i in R.foundations)
        if R.simple_score:
            return R.per_card * on_foundations
        sc = R.scoring
        total = sc.start + sc.per_card * on_foundations
        if sc.per_full_foundation:
            total += sc.per_full_foundation * sum(len(piles[i]) // R.suit_size for i in R.foundations)
        if sc.per_card_cleared:
            total += sc.per_card_cleared * (R.dealt_tableau - sum(len(piles[i]) for i in R.tableaux))
        if sc.per_link or sc.per_face_down or sc.per_complete_pile:
            for i in R.tableaux:
                p = piles[i]
                down = sum(1 for c in p if not c & _UP)
                total += sc.per_face_down * down
                if sc.per_link:
                    links = sum(1 for lower, upper in zip(p, p[1:])
                                if lower & upper & _UP and _is_link(sc.link, lower & 63, upper & 63))
                    total += sc.per_link * links
                if sc.per_complete_pile and len(p) == R.suit_size and self._complete_at(i):
                    total += sc.per_complete_pile
        return total

    @property
    def max_score(self) -> int:
        """The ruleset's maximum score."""
        return self.ruleset.scoring.maximum

    @property
    def choosing(self) -> bool:
        """True while the game waits for a start card to be chosen through the chooser."""
        return self._rules.chooser >= 0 and not self._base

    def is_won(self) -> bool:
        """True when the ruleset's won condition holds (:class:`~patiencebook.engine.rules.Won`)."""
        R = self._rules
        piles = self._piles
        if R.won is Won.ALL_ON_FOUNDATIONS:
            return sum(len(piles[i]) for i in R.foundations) == R.deck_size
        if R.won is Won.TABLEAU_EMPTY:
            return not any(piles[i] for i in R.tableaux)
        on_foundations = sum(len(piles[i]) for i in R.foundations)
        if on_foundations:
            return on_foundations == R.deck_size
        for i, p in enumerate(piles):
            if p and (R.roles[i] is not Role.TABLEAU or not self._complete_runs(i)):
                return False
        return True

    def is_lost(self) -> bool:
        """True when the ruleset's lost condition holds (never, for ``lost="never"``).

        The condition is a named hook (:mod:`patiencebook.engine.hooks`).
        """
        lost = self.ruleset.end.lost
        if lost == LOST_NEVER or self.is_won():
            return False
        return lost_check(lost)(self)

    def is_over(self) -> bool:
        """True when the game is won or lost."""
        return self.is_won() or self.is_lost()

    # -- validation ------------------------------------------------------------------------------

    def validate(self) -> None:
        """Check that the rules of the game can produce this position; raise if they cannot.

        Only what the rules model implies is checked, so every position reached by play passes
        (the engine's tests play random games to show it). For any ruleset:

        - the cards are exactly the deck; a pile holds no more than its capacity;
        - the stock lies face down; elsewhere a face-down card lies only where the deal put one,
          under every card added since (cards are only ever added face up), and is turned face
          up when uncovered if the pile's reveal is ``auto``; a pile that receives no cards
          (no build, not dealt to by the stock, not refilled) holds at most what the deal gave it;
        - a foundation starts with a card of the base rank, which must then be known, and each card
          fits the one below it; so does each card of another pile that only moves build on (the
          deal gives it one card at most, and the stock deals nothing to it); a game whose
          foundations have no base rank has none;
        - redeals and chooser offers are within the ruleset's limits (none without a redealing
          stock or a chooser);
        - while the start card is chosen nothing but the stock and chooser has changed since the
          deal, the chooser holds one card once one is offered, and it is empty once chosen;
        - a stock that deals to each pile holds what its clicks leave (a full stock, less whole
          clicks); stock, waste and chooser together never hold more than the deal left them;
        - a pile refilled from another is empty only while that one is empty.

        A pile that takes only complete runs holds nothing or one whole suit, King to Ace.

        For three of the games that means, for example: Hamilton has no face-down card outside the
        stock, its stock holds 24, 23, 16, 9, 2 or 0 cards, at most 3 offers are used and base
        ``-`` means nothing has moved yet; Agnes's tableau pile *n* has at most *n* - 1
        face-down cards, at the bottom, under a face-up top card, and its stock holds 23, 16, 9, 2
        or 0 cards with no redeal; Eagle Wing's reserve holds at most 13 cards, only the bottom
        one face up, a tableau pile at most 3 cards built down in suit, stock and waste at most
        30 cards together, and at most 2 redeals are used.

        Raises :class:`~patiencebook.engine.errors.PositionError` saying what is wrong; its
        ``where`` names the pile id or state key at fault.
        """
        R = self._rules
        L = _limits(R)
        fault = deck_fault(R.ruleset, self.cards())
        if fault:
            raise PositionError(fault)
        piles = self._piles
        base = self._base
        kind = R.base_kind
        if base and kind is Base.ANY:
            raise PositionError(f"{R.game} has no base rank, so 'base:' must be '-', not {Rank(base).letter}", "base")
        if base and kind in (Base.ACE, Base.KING) and base != (1 if kind is Base.ACE else 13):
            raise PositionError(f"the foundations of {R.game} start from the "
                                f"{'Ace' if kind is Base.ACE else 'King'}, so 'base:' cannot be {Rank(base).letter}",
                                "base")
        for i, p in enumerate(piles):
            pid = R.ids[i]
            role = R.roles[i]
            cap = R.capacity[i]
            if cap and len(p) > cap:
                raise PositionError(f"{pid} holds {len(p)} cards, but a {_ROLE_WORDS[role]} pile holds at most {cap}",
                                    pid)
            if i == R.stock:
                down = [c for c in p if c & _UP]
                if down:
                    raise PositionError(f"{pid}: {_CARD_OF[down[0] & 63]} lies face up, but the cards of the stock "
                                        "always lie face down", pid)
                continue
            _check_faces(R, L, i, p)
            if R.complete_run[i]:
                if p and (len(p) != R.suit_size or not self._complete_at(i)):
                    raise PositionError(f"{pid} holds {len(p)} cards that are not one complete run: a "
                                        f"{_ROLE_WORDS[role]} here takes only a whole suit, King to Ace", pid)
            elif role is Role.FOUNDATION and L.sequenced[i]:
                _check_foundation(R, i, p, base, L.dealt[i])
            elif L.built[i]:
                _check_sequence(R, i, p, base)
        self._check_counters(L)

    def _check_counters(self, L: "_Limits") -> None:
        R = self._rules
        piles = self._piles
        base = self._base
        stock = R.stock_policy
        redeal_limit = stock.redeals if stock is not None and stock.action is StockAction.DEAL_TO_WASTE else 0
        if redeal_limit is not None and self._redeals > redeal_limit:
            raise PositionError(f"{self._redeals} redeal{'s' if self._redeals != 1 else ''} used, but {R.game} allows "
                                f"{redeal_limit or 'no'} redeal{'s' if redeal_limit != 1 else ''}", "redeals")
        chooser = R.chooser_policy
        offer_limit = chooser.offers if chooser is not None else 0
        if self._offers > offer_limit:
            raise PositionError(f"{self._offers} chooser offer{'s' if self._offers != 1 else ''} used, but {R.game} "
                                + (f"offers at most {offer_limit} cards" if offer_limit else "has no chooser"),
                                "offers")
        if not base and R.base_kind is Base.BASE_CARD and any(piles[i] for i in R.foundations) and not all(
                c & 63 == _JOKER for i in R.foundations for c in piles[i]):
            raise PositionError(f"{R.game} needs 'base:' with the rank of the base card: the foundations hold "
                                "cards", "base")
        if R.chooser >= 0:
            c = R.chooser
            cid = R.ids[c]
            if not base:
                for i, p in enumerate(piles):
                    if i not in (c, R.stock) and len(p) != L.dealt_count[i]:
                        raise PositionError(f"no start card is chosen (base '-'), so nothing has moved since the deal; "
                                            f"but {R.ids[i]} holds {len(p)} cards, not the {L.dealt_count[i]} dealt",
                                            R.ids[i])
                if len(piles[c]) > 1:
                    raise PositionError(f"the {cid} holds {len(piles[c])} cards; it holds the one card offered",
                                        cid)
                if bool(piles[c]) != (self._offers > 0):
                    raise PositionError(f"{self._offers} offers used, but the {cid} "
                                        + ("holds a card" if piles[c] else "is empty")
                                        + ": each offer turns a card into it", "offers")
            else:
                if piles[c]:
                    raise PositionError(f"the start card is chosen (base {Rank(base).letter}), so the {cid} is empty; "
                                        f"it holds {len(piles[c])} card{'s' if len(piles[c]) != 1 else ''}", cid)
                if self._offers < 1:
                    raise PositionError("the start card is chosen, so at least one card was offered; 'offers:' "
                                        "cannot be 0", "offers")
        if L.stock_counts is not None and (base or R.chooser < 0):
            n = len(piles[R.stock])
            if n not in L.stock_counts:
                raise PositionError(f"the stock holds {n} cards; each click deals to every pile, so it holds "
                                    + ", ".join(map(str, sorted(L.stock_counts, reverse=True))) + " cards",
                                    R.ids[R.stock])
        if L.closed is not None:
            members, most = L.closed
            held = sum(len(piles[i]) for i in members)
            if held > most:
                names = " and ".join(R.ids[i] for i in members)
                raise PositionError(f"{names} hold {held} cards together, but they only pass cards among themselves "
                                    f"and the deal leaves them {most}", None)
        for i, sources in L.refilled:
            if not piles[i] and any(piles[s] for s in sources):
                src = next(R.ids[s] for s in sources if piles[s])
                raise PositionError(f"{R.ids[i]} is empty while {src} holds cards: an empty "
                                    f"{_ROLE_WORDS[R.roles[i]]} pile is refilled from it at once", R.ids[i])

    # -- moves -----------------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves (lazy and countable); double-clicks are left out, see :func:`legal_moves`."""
        return LegalMoves(self)

    def is_legal(self, move: Move) -> bool:
        """True if ``move`` may be played here."""
        return self.reason(move) is None

    def reason(self, move: Move) -> str | None:
        """Why ``move`` is refused here, as a sentence for the player, or ``None`` when it is legal."""
        if not isinstance(move, Move):
            return Reason("bad-move", f"a move is a Move, not a {type(move).__name__}")
        kind = move.kind
        try:
            if kind is MoveKind.DRAG:
                return self._drag_reason(*self._drag_indices(move))
            if kind is MoveKind.STOCK:
                return self._stock_reason()
            if kind is MoveKind.FLIP:
                return self._flip_reason(self._index(move.source))
            _check_kind(kind)
            self.double_click_drags(move.source or "")
        except IllegalMove as err:
            return Reason(err.code, str(err), **err.params)
        return None

    def apply(self, move: Move | str) -> "Position":
        """The position after ``move`` (a :class:`Move` or its text), with every automatic action done.

        Automatic actions, as the rules block says: an uncovered face-down card of a pile with
        ``reveal="auto"`` is turned face up; an empty pile with ``fill="auto"`` is refilled face up
        from its source pile; accepting the chooser card sets the start rank.
        Raises :class:`IllegalMove` with the reason when the move is refused, and
        :class:`~patiencebook.engine.errors.NotationError` for move text that cannot be read.
        """
        if not isinstance(move, Move):
            if not isinstance(move, str):
                raise NotationError(f"a move is a Move or its text, not a {type(move).__name__}")
            from .notation import parse_move
            move = parse_move(move)
        return self._resolve(move)

    def _resolve(self, move: Move) -> "Position":
        kind = move.kind
        if kind is MoveKind.DRAG:
            i, j, k = self._drag_indices(move)
            reason = self._drag_reason(i, j, k)
            if reason:
                raise IllegalMove(reason)
            return self._do_drag(i, j, k)
        if kind is MoveKind.STOCK:
            reason = self._stock_reason()
            if reason:
                raise IllegalMove(reason)
            return self._do_stock()
        _check_kind(kind)
        i = self._index(move.source)
        if kind is MoveKind.FLIP:
            reason = self._flip_reason(i)
            if reason:
                raise IllegalMove(reason)
            piles = list(self._piles)
            piles[i] = piles[i][:-1] + (piles[i][-1] | _UP,)
            return Position._make(self._rules, tuple(piles), self._base, self._redeals, self._offers)
        drags = self.double_click_drags(move.source or "")
        pos = self
        for d in drags:
            pos = pos.apply(d)
        return pos

    def _apply_generated(self, move: Move) -> "Position":
        """:meth:`apply` for a move this position generated itself (:meth:`hints`,
        :attr:`legal_moves`): a drag is made without checking it again. Anything else goes
        through :meth:`apply`."""
        if move.kind is MoveKind.DRAG:
            index = self._rules.index
            return self._do_drag(index[move.source], index[move.target], move.count)
        return self._resolve(move)

    def _index(self, pile_id: str | None) -> int:
        try:
            return self._rules.index[pile_id or ""]
        except (KeyError, TypeError):  # TypeError: a pile id that is not text (an unhashable value)
            raise IllegalMove(Reason("no-such-pile", f"{self.game} has no pile {pile_id!r:.60}; piles: "
                                     f"{', '.join(self._rules.ids)}", pile=pile_id or "")) from None

    def _drag_indices(self, move: Move) -> tuple[int, int, int]:
        k = move.count
        if k.__class__ is not int:  # a Move built in code with a count that is no whole number
            raise IllegalMove(Reason("no-cards", f"the count of cards of a drag is a whole number, not {k!r:.40}"))
        return self._index(move.source), self._index(move.target), k

    # -- generation ------------------------------------------------------------------------------

    def _run_length(self, i: int, links: list) -> int:
        """How many cards at the top of pile ``i`` can be lifted together (0 when none)."""
        R = self._rules
        p = self._piles[i]
        lift = R.lift[i]
        if not p or not lift or not p[-1] & _UP:
            return 0
        n = 1
        if lift == _RUN:
            link = links[i]
            m = min(len(p), R.max_cards[i])
            while n < m:
                below = p[-n - 1]
                if not below & _UP or not link[((below & 63) << 6) | (p[-n] & 63)]:
                    break
                n += 1
        return n

    def _fill_rule(self, j: int) -> FillRule:
        g = self._rules.groups[j]
        rule = g.fill.rule
        if rule is FillRule.AUTO:
            src = self._rules.group_piles[g.fill.source or ""]
            if any(self._piles[s] for s in src):
                return FillRule.NONE
            return g.fill.otherwise or FillRule.NONE
        return rule

    def _generate(self, double_clicks: bool = False) -> Iterator[Move]:
        R = self._rules
        if R.chooser >= 0 and not self._base:
            yield from self._generate_choosing(double_clicks)
            return
        drag = R.drag
        for i, j, k in self._drag_keys():
            yield drag(i, j, k)
        piles = self._piles
        for i in R.flippable:
            p = piles[i]
            if p and not p[-1] & _UP:
                yield Move(MoveKind.FLIP, R.ids[i])
        if R.stock >= 0 and self._stock_reason() is None:
            yield _STOCK_MOVE
        if double_clicks:
            yield from self._generate_double_clicks()

    def _drag_keys(self) -> tuple:
        """Every legal drag as ``(source, target, count)`` pile indices, in :meth:`_generate`'s
        order; worked out once per position (it never changes) and kept."""
        keys = self._drags
        if keys is None:
            keys = self._drags = tuple(self._find_drags())
        return keys

    def _drag_key_set(self) -> frozenset:
        """:meth:`_drag_keys` as a set, for asking whether one drag is legal; kept as they are."""
        keys = self._drag_set
        if keys is None:
            keys = self._drag_set = frozenset(self._drag_keys())
        return keys

    def _find_drags(self) -> Iterator[tuple[int, int, int]]:
        R = self._rules
        piles = self._piles
        if R.chooser >= 0 and not self._base:
            c = R.chooser
            if piles[c] and piles[c][-1] & 63 != _JOKER:
                for j in R.accept_to:
                    if not piles[j]:
                        yield (c, j, 1)
            return
        fits, links, accepts = R.tables(self._base)
        # Every liftable card, by code: where it lies (pile, depth from the top). Then each target
        # looks up only the few cards its top card accepts, instead of trying every source.
        runs: dict[int, list] = {}
        run_of = [0] * len(piles)
        max_cards = R.max_cards
        for i in R.sources:
            p = piles[i]
            if not p or not p[-1] & _UP:
                continue
            if R.keeps_base[i] and p[-1] & 15 == self._base:
                continue
            n = 1
            if R.lift[i] == _RUN:
                link = links[i]
                m = len(p) if len(p) < max_cards[i] else max_cards[i]
                while n < m:
                    below = p[-n - 1]
                    if not below & _UP or not link[((below & 63) << 6) | (p[-n] & 63)]:
                        break
                    n += 1
            run_of[i] = n
            for k in range(1, n + 1):
                c = p[-k] & 63
                at = runs.get(c)
                if at is None:
                    runs[c] = [(i, k)]
                else:
                    at.append((i, k))
        if runs:
            limit = self._move_limit() if any(R.limited) else 0
            for j in R.targets:
                q = piles[j]
                if R.complete_run[j]:
                    if not q:
                        for i in R.sources:
                            if run_of[i] >= R.suit_size and R.allowed_from[j][i] and self._complete_at(i):
                                yield (i, j, R.suit_size)
                    continue
                kcap = R.kcap[j]
                cap = R.capacity[j]
                if cap:
                    room = cap - len(q)
                    if room <= 0:
                        continue
                    if room < kcap:
                        kcap = room
                rev = R.reverse_to[j]
                allowed = R.allowed_from[j]
                # (free cells + 1) * 2 ** empty tableau piles, the target not counted.
                lim = 0
                if limit and R.roles[j] is Role.TABLEAU:
                    lim = limit if q else limit >> 1
                if q:
                    wanted = accepts[j][q[-1] & 63]
                else:
                    rule = R.fill_static[j] or self._fill_rule(j)
                    if rule is FillRule.ANY:
                        for i in R.sources:
                            if run_of[i] and allowed[i]:
                                top = run_of[i] if run_of[i] < kcap else kcap
                                if lim and R.limited[i] and top > lim:
                                    top = lim
                                for k in range(1, top + 1):
                                    yield (i, j, k)
                        continue
                    if rule is FillRule.KINGS:
                        wanted = R.rank_codes[13]
                    elif rule is FillRule.BASE_RANK:
                        wanted = R.rank_codes[self._base or R.fixed_base]
                    else:
                        continue
                for c in wanted:
                    at = runs.get(c)
                    if at:
                        for i, k in at:
                            if not allowed[i]:
                                continue
                            if rev[i]:
                                if k == 1:
                                    for kk in range(1, (run_of[i] if run_of[i] < kcap else kcap) + 1):
                                        yield (i, j, kk)
                            elif k <= kcap and not (lim and R.limited[i] and k > lim):
                                yield (i, j, k)

    def _accepted_codes(self, j: int):
        """The card codes pile ``j`` could take next as a single card, read from the same tables as
        :meth:`_find_drags`: a collection of codes, ``None`` when an empty pile takes any card, or
        ``()`` when it takes none this way (a pile that takes only complete runs). Only a first cut:
        :meth:`_drag_reason` has the last word on each drag."""
        R = self._rules
        q = self._piles[j]
        if R.chooser >= 0 and not self._base:
            return None if j in R.accept_to and not q else ()  # the start card: any card offered
        if R.complete_run[j]:
            return ()
        if q:
            return R.tables(self._base)[2][j][q[-1] & 63]
        rule = R.fill_static[j] or self._fill_rule(j)
        if rule is FillRule.ANY:
            return None
        if rule is FillRule.KINGS:
            return R.rank_codes[13]
        if rule is FillRule.BASE_RANK:
            return R.rank_codes[self._base or R.fixed_base]
        return ()

    def _move_limit(self) -> int:
        """(empty free cells + 1) * 2 ** (empty tableau piles): the longest run a limited pile may move
        onto a non-empty tableau pile; half of it into an empty one (freecell.scm ``movable-to-field?``)."""
        R = self._rules
        piles = self._piles
        free = sum(1 for i in R.freecells if not piles[i])
        empty = sum(1 for i in R.tableaux if not piles[i])
        return (free + 1) << empty

    def _complete_at(self, i: int, end: int = 0) -> bool:
        """True when the cards of pile ``i`` that end ``end`` cards below its top are one complete run:
        every rank of the deck, King at the bottom down to Ace on top, one suit, face up."""
        R = self._rules
        p = self._piles[i]
        n = R.suit_size
        if len(p) < n + end:
            return False
        ranks = self.ruleset.deck.ranks
        top = p[len(p) - end - n:len(p) - end]
        suit = top[0] & 0x30
        return all(c & _UP and c & 0x30 == suit and (c & 15) == int(r)
                   for c, r in zip(top, reversed(ranks))) and (top[0] & 15) == 13

    def _complete_runs(self, i: int) -> bool:
        """True when pile ``i`` is one or more complete runs, one on another."""
        n = self._rules.suit_size
        size = len(self._piles[i])
        return size > 0 and size % n == 0 and all(self._complete_at(i, end) for end in range(0, size, n))

    def _generate_choosing(self, double_clicks: bool) -> Iterator[Move]:
        R = self._rules
        c = R.chooser
        if self._piles[c] and self._piles[c][-1] & 63 != _JOKER:
            for j in R.accept_to:
                if not self._piles[j]:
                    yield R.drag(c, j, 1)
        if self._stock_reason() is None:
            yield Move.stock()
        if double_clicks:
            yield from self._generate_double_clicks()

    def _generate_double_clicks(self) -> Iterator[Move]:
        # The same test as double_click_drags, read off the legal drags: a double-click is legal
        # when its first drag to a foundation is.
        R = self._rules
        to_foundation = {(i, k) for i, j, k in self._drag_keys() if R.roles[j] is Role.FOUNDATION}
        for i, action in R.double_click:
            if action in _DOUBLE_CLICKS_ELSEWHERE:
                # double_click_drags's tests without building its refusals
                p = self._piles[i]
                if p and p[-1] & _UP and not (R.chooser >= 0 and not self._base and i != R.chooser) \
                        and self._double_click_elsewhere(i, action) is not None:
                    yield Move.double_click(R.ids[i])
                continue
            if not to_foundation:
                continue
            if action is DoubleClick.AUTOPLAY:
                ok = any((t, 1) in to_foundation for t in R.wastes + R.tableaux)
            elif action is DoubleClick.RUN_TO_FOUNDATION:
                k = self._run_length(i, R.tables(self._base)[1])
                ok = (i, k) in to_foundation or (i, 1) in to_foundation
            else:
                ok = (i, 1) in to_foundation
            if ok:
                yield Move.double_click(R.ids[i])

    # -- drag checks -----------------------------------------------------------------------------

    def _drag_reason(self, i: int, j: int, k: int) -> str | None:
        """Why dragging ``k`` cards from pile ``i`` to pile ``j`` is refused, or ``None``.

        Agrees with :meth:`_generate` by construction: both read the same tables.
        """
        R = self._rules
        ids = R.ids
        piles = self._piles
        p, q = piles[i], piles[j]
        if i == j:
            return Reason("onto-itself", f"{ids[i]} cannot be dragged onto itself", pile=ids[i])
        if k < 1:
            return Reason("no-cards", "a drag moves at least one card")
        if R.chooser >= 0 and not self._base:
            if i != R.chooser:
                return Reason("choose-first", "no card can move before the start card is chosen: click the stock "
                              "to offer a card in the chooser, then move it to a foundation")
            if not p:
                return Reason("chooser-empty", "the chooser is empty: click the stock to turn a card into it",
                              pile=ids[i])
            if j not in R.accept_to:
                return Reason("start-card-target", "the card in the chooser can only go to an empty foundation, "
                              "as the start card", pile=ids[i], target=ids[j])
            if k != 1:
                return Reason("chooser-one", "only the one card in the chooser can be moved", pile=ids[i])
            if p[-1] & 63 == _JOKER:
                return Reason("start-card-target", "a joker cannot be the start card: click the stock to offer "
                              "the next card", pile=ids[i], target=ids[j])
            if q:
                return Reason("start-card-target", "the start card goes to an empty foundation",
                              pile=ids[i], target=ids[j])
            return None
        role_i = _ROLE_WORDS[R.roles[i]]
        if R.roles[i] is Role.FOUNDATION and R.roles[j] is Role.FOUNDATION:
            return Reason("foundation-to-foundation", "a card on a foundation can only be moved back to the tableau",
                          pile=ids[i], target=ids[j])
        lift = R.lift[i]
        if lift == _NONE:
            if R.roles[i] is Role.STOCK:
                return Reason("drag-from-stock", "cards cannot be dragged from the stock: click it instead",
                              pile=ids[i])
            return Reason("cannot-lift", f"cards on the {role_i} cannot be moved", pile=ids[i])
        if not p:
            return Reason("pile-empty", f"{ids[i]} is empty", pile=ids[i])
        if len(p) < k:
            return Reason("too-few-cards", f"{ids[i]} holds only {len(p)} card{'s' if len(p) != 1 else ''}",
                          pile=ids[i], count=len(p))
        for c in p[-k:]:
            if not c & _UP:
                return Reason("face-down", f"{card_name(_CARD_OF[c & 63])} in {ids[i]} is face down and cannot be "
                              "moved", card=str(_CARD_OF[c & 63]), pile=ids[i])
        if k > 1 and lift == _TOP:
            return Reason("top-card-only", f"only the top card of the {role_i} can be moved", pile=ids[i])
        if R.keeps_base[i] and self._base and p[-1] & 15 == self._base:
            return Reason("base-stays", f"a card of the {R.base_word} ({_RANK_NAMES[self._base]}) never leaves "
                          f"the {role_i}", pile=ids[i], rank=Rank(self._base).letter)
        if k > R.max_cards[i]:
            return Reason("too-many-cards", f"at most {R.max_cards[i]} cards of the {role_i} can be moved at once",
                          pile=ids[i], count=R.max_cards[i])
        fits, links, _ = R.tables(self._base)
        if k > 1 and self._run_length(i, links) < k:
            mv = R.groups[i].move
            text = (f"the {k} cards at the top of {ids[i]} are not a run: the {role_i} moves runs "
                    f"{_DIRECTION_WORDS.get(mv.direction, '')} {_MATCH_WORDS[mv.match or Match.RANK_ONLY]}")
            if mv.stop_at_base and self._base and any((c & 15) == self._base for c in p[-k:-1]):
                text += f", and no card of a run can lie on a card of the {R.base_word} ({_RANK_NAMES[self._base]})"
            return Reason("not-a-run", text, pile=ids[i], count=k)
        group = R.groups[j]
        role_j = _ROLE_WORDS[R.roles[j]]
        if group.build is None:
            return Reason("no-build", f"no card can be placed on the {role_j}", target=ids[j])
        if R.complete_run[j]:
            if q:
                return Reason("no-build", f"no card can be placed on a {role_j} card", target=ids[j])
            if k != R.suit_size or not self._complete_at(i):
                return Reason("complete-run-only", f"an empty {role_j} takes only a complete run of "
                              f"{R.suit_size} cards, King to Ace in one suit", target=ids[j], count=R.suit_size)
            return None
        if R.limited[i] and R.roles[j] is Role.TABLEAU and k > 1:
            limit = self._move_limit()
            if not q:
                limit >>= 1
            if k > limit:
                if R.freecells:
                    return Reason("too-many-for-free-cells", f"too many cards for one move: with the empty free "
                                  f"cells and tableau piles there are now, at most {limit} can move at once",
                                  count=limit)
                return Reason("too-many-for-empty-piles", f"too many cards for one move: with the empty tableau "
                              f"piles there are now, at most {limit} can move at once", count=limit)
        if k > 1 and not R.accepts_run[j]:
            return Reason("one-at-a-time", f"the {role_j} takes one card at a time", target=ids[j])
        cap = R.capacity[j]
        if cap and len(q) + k > cap:
            if len(q) >= cap:
                return Reason("pile-full", f"{ids[j]} already holds {len(q)} cards, the most a {role_j} pile can "
                              "hold", target=ids[j], count=cap)
            return Reason("too-little-room", f"{ids[j]} holds {len(q)} cards and can take only {cap - len(q)} more",
                          target=ids[j], count=cap - len(q))
        rev = R.reverse[i][j]
        landing = p[-1] if rev else p[-k]
        card = _CARD_OF[landing & 63]
        if not q:
            rule = self._fill_rule(j)
            if rule is FillRule.ANY:
                return None
            if rule is FillRule.NONE:
                if group.fill.rule is FillRule.AUTO:
                    return Reason("refilled-from", f"an empty {role_j} pile is refilled from the "
                                  f"{group.fill.source} while it holds cards", target=ids[j],
                                  source=group.fill.source)
                return Reason("empty-takes-none", f"no card can be moved into an empty {role_j} pile", target=ids[j])
            if rule is FillRule.KINGS:
                return None if landing & 15 == 13 else Reason(
                    "empty-takes-king", f"an empty {role_j} pile takes only a King", target=ids[j], card=str(card))
            if rule is FillRule.BASE_RANK:
                base = self._base or R.fixed_base
                if base and landing & 15 == base:
                    return None
                if not base:
                    return Reason("empty-takes-none", f"no card can be moved into an empty {role_j} pile before "
                                  f"the {R.base_word} is known", target=ids[j])
                return Reason("empty-takes-base", f"an empty {role_j} takes only a card of the {R.base_word} "
                              f"({_RANK_NAMES[base]}), not {card_name(card, 'a')}", target=ids[j],
                              card=str(card), rank=Rank(base).letter)
            return Reason("empty-takes-none", f"no card can be moved into an empty {role_j} pile", target=ids[j])
        onto = q[-1]
        if fits[j][((onto & 63) << 6) | (landing & 63)]:
            return None
        onto_card = _CARD_OF[onto & 63]
        build = group.build
        if build.stop_at_base and self._base and onto & 15 == self._base:
            return Reason("on-base-card", f"nothing can be placed on {card_name(onto_card)}: it is of the "
                          f"{R.base_word} ({_RANK_NAMES[self._base]})", onto=str(onto_card), target=ids[j])
        if build.direction is Direction.NONE:
            return Reason("no-build", f"no card can be placed on a {role_j} card", target=ids[j])
        if build.closed_on is not None and onto & 15 == int(build.closed_on):
            return Reason("closed-on", f"nothing can be placed on {card_name(onto_card)}: the {role_j} takes "
                          f"nothing on a card of rank {_RANK_NAMES[onto & 15]}", onto=str(onto_card), target=ids[j],
                          rank=Rank(onto & 15).letter)
        how = f"the {role_j} builds {_DIRECTION_WORDS[build.direction]} {_MATCH_WORDS[build.match]}"
        params = {"card": str(card), "onto": str(onto_card), "target": ids[j],
                  "direction": build.direction.value, "match": build.match.value}
        if k > 1:
            lead = "the top card of the run" if rev else "the bottom card of the run"
            return Reason("does-not-fit", f"{lead}, {card_name(card)}, cannot go on {card_name(onto_card)}: {how}",
                          **params)
        return Reason("does-not-fit", f"{card_name(card, 'a')} cannot go on {card_name(onto_card)}: {how}", **params)

    def _do_drag(self, i: int, j: int, k: int) -> "Position":
        R = self._rules
        piles = list(self._piles)
        p = piles[i]
        moving = p[-k:]
        rest = p[:-k]
        if R.reverse[i][j] and k > 1:
            moving = moving[::-1]
        if rest and not rest[-1] & _UP and R.reveal[i] is Reveal.AUTO:
            rest = rest[:-1] + (rest[-1] | _UP,)
        piles[i] = rest
        piles[j] = piles[j] + moving
        base = self._base
        offers = self._offers
        if not base and R.chooser >= 0 and j in R.accept_to:
            base = moving[0] & 15
        if R.autofill:
            self._autofill(piles)
        if R.autoplay is not None:
            _autoplay_low_cards(R, piles)
        return Position._make(R, tuple(piles), base, self._redeals, offers)

    def _autofill(self, piles: list) -> None:
        R = self._rules
        for i, sources in R.autofill:
            if piles[i]:
                continue
            for s in sources:
                src = piles[s]
                if src:
                    rest = src[:-1]
                    if rest and not rest[-1] & _UP and R.reveal[s] is Reveal.AUTO:
                        rest = rest[:-1] + (rest[-1] | _UP,)
                    piles[s] = rest
                    piles[i] = (src[-1] | _UP,)
                    break

    # -- stock, turning, double-clicks -----------------------------------------------------------

    def _stock_reason(self) -> str | None:
        """Why a click on the stock is refused, or ``None``."""
        R = self._rules
        if R.stock < 0:
            return Reason("no-stock", f"{self.game} has no stock")
        stock = self._piles[R.stock]
        if R.chooser >= 0 and not self._base:
            offers = R.chooser_policy.offers
            if self._offers >= offers:
                return Reason("offers-used", f"the stock does not respond: the last of the {offers} cards offered "
                              "must be accepted by moving it to a foundation", count=offers)
            if not stock:
                return Reason("stock-empty", "the stock is empty")
            return None
        policy = R.stock_policy
        if policy is None or policy.action is StockAction.NONE:
            return Reason("stock-inert", "clicking the stock does nothing in this game")
        if stock:
            if policy.requires is StockRequires.NO_EMPTY_PILE and not all(self._piles[t] for t in R.stock_targets):
                return Reason("fill-empty-first", "the stock deals only when no tableau pile is empty: "
                              "fill the empty piles first")
            return None
        if policy.action is StockAction.DEAL_TO_EACH:
            return Reason("stock-empty", "the stock is empty, and there is no redeal")
        if not self._piles[R.stock_targets[0]]:
            return Reason("stock-and-waste-empty", "the stock and the waste are both empty")
        if policy.redeals is not None and self._redeals >= policy.redeals:
            return Reason("no-redeal-left", f"the stock is empty and no redeal is left ({self._redeals} of "
                          f"{policy.redeals} redeals used)", count=policy.redeals)
        return None

    def _do_stock(self) -> "Position":
        R = self._rules
        piles = list(self._piles)
        s = R.stock
        stock = piles[s]
        if R.chooser >= 0 and not self._base:
            c = R.chooser
            if piles[c]:
                stock = (piles[c][-1] & 63,) + stock
            piles[c] = (stock[-1] | _UP,)
            piles[s] = stock[:-1]
            return Position._make(R, tuple(piles), self._base, self._redeals, self._offers + 1)
        policy = R.stock_policy
        redeals = self._redeals
        if policy.action is StockAction.DEAL_TO_EACH:
            for t in R.stock_targets:
                for _ in range(policy.cards):
                    if stock:
                        piles[t] = piles[t] + (stock[-1] | _UP,)
                        stock = stock[:-1]
            piles[s] = stock
        elif stock:
            w = R.stock_targets[0]
            n = min(policy.cards, len(stock))
            piles[w] = piles[w] + tuple(c | _UP for c in reversed(stock[-n:]))
            piles[s] = stock[:-n]
        else:
            w = R.stock_targets[0]
            piles[s] = tuple(c & 63 for c in reversed(piles[w]))
            piles[w] = ()
            redeals += 1
        if R.autofill:
            self._autofill(piles)
        if R.autoplay is not None:
            _autoplay_low_cards(R, piles)
        return Position._make(R, tuple(piles), self._base, redeals, self._offers)

    def _flip_reason(self, i: int) -> str | None:
        R = self._rules
        p = self._piles[i]
        if R.reveal[i] is not Reveal.CLICK:
            return Reason("no-flip", f"cards of the {_ROLE_WORDS[R.roles[i]]} are not turned by a click",
                          pile=R.ids[i])
        if not p:
            return Reason("pile-empty", f"{R.ids[i]} is empty", pile=R.ids[i])
        if p[-1] & _UP:
            return Reason("already-face-up", f"the top card of {R.ids[i]} is already face up", pile=R.ids[i])
        return None

    def _to_foundation(self, i: int, k: int) -> Move | None:
        """The drag of ``k`` cards from pile ``i`` to the first foundation that takes them, if any."""
        R = self._rules
        keys = self._drag_key_set()
        for j in R.foundations:
            if j != i and (i, j, k) in keys:
                return R.drag(i, j, k)
        return None

    def double_click_drags(self, pile_id: str) -> list[Move]:
        """The drags a double-click on ``pile_id`` stands for, first to last.

        ``card-to-foundation``: the top card to the first foundation that takes it (so a card of
        the base rank goes to the first empty one). ``run-to-foundation``: the longest liftable run
        at the top, when its top card fits a foundation. ``autoplay``: every tableau card that fits
        a foundation, scanning the tableau from the left again after each card, until none fits.
        Raises :class:`IllegalMove` when the double-click does nothing here.
        """
        R = self._rules
        i = self._index(pile_id)
        action = dict(R.double_click).get(i, DoubleClick.NONE)
        if action is DoubleClick.NONE:
            raise IllegalMove(Reason("double-click-inert", f"double-clicking {pile_id} does nothing in {self.game}",
                                     pile=pile_id))
        if R.chooser >= 0 and not self._base and i != R.chooser:
            raise IllegalMove(Reason("choose-first", "no card can move before the start card is chosen: click the "
                                     "stock to offer a card in the chooser, then move it to a foundation"))
        if action is DoubleClick.AUTOPLAY:
            drags: list[Move] = []
            pos = self
            while True:
                for t in R.wastes + R.tableaux:
                    m = pos._to_foundation(t, 1) if pos._piles[t] else None
                    if m is not None:
                        drags.append(m)
                        pos = pos._do_drag(*pos._drag_indices(m))
                        break
                else:
                    break
            if not drags:
                raise IllegalMove(Reason("nothing-to-foundation", "no tableau card fits on a foundation"))
            return drags
        p = self._piles[i]
        if not p:
            raise IllegalMove(Reason("pile-empty", f"{pile_id} is empty", pile=pile_id))
        if not p[-1] & _UP:
            raise IllegalMove(Reason("face-down", f"the top card of {pile_id} is face down",
                                     card=str(_CARD_OF[p[-1] & 63]), pile=pile_id))
        if action in _DOUBLE_CLICKS_ELSEWHERE:
            move = self._double_click_elsewhere(i, action)
            if move is None:
                raise IllegalMove(Reason("double-click-no-place", f"{card_name(_CARD_OF[p[-1] & 63])} has no "
                                         f"place to go", card=str(_CARD_OF[p[-1] & 63]), pile=pile_id))
            return [move]
        k = 1
        if action is DoubleClick.RUN_TO_FOUNDATION:
            k = self._run_length(i, R.tables(self._base)[1])
        move = self._to_foundation(i, k)
        if move is None and k > 1:
            move = self._to_foundation(i, 1)
        if move is None:
            raise IllegalMove(Reason("fits-no-foundation", f"{card_name(_CARD_OF[p[-1] & 63])} fits on no foundation",
                                     card=str(_CARD_OF[p[-1] & 63]), pile=pile_id))
        return [move]

    def _double_click_elsewhere(self, i: int, action: DoubleClick) -> Move | None:
        """The drag of pile ``i``'s top card that ``card-to-freecell``, ``card-to-waste`` or
        ``card-anywhere`` stands for, or ``None`` when there is none."""
        R = self._rules
        keys = self._drag_key_set()
        if action is DoubleClick.CARD_TO_FREECELL:
            order: tuple[int, ...] = R.freecells
        elif action is DoubleClick.CARD_TO_WASTE:
            order = R.wastes
        else:
            # Foundations first, then the tableau piles that hold cards, then the empty ones.
            piles = self._piles
            for j in R.foundations:
                if j != i and (i, j, 1) in keys:
                    return R.drag(i, j, 1)
            for filled in (True, False):
                for j in R.tableaux:
                    if j != i and bool(piles[j]) is filled and (i, j, 1) in keys:
                        return R.drag(i, j, 1)
            return None
        for j in order:
            if j != i and (i, j, 1) in keys:
                return R.drag(i, j, 1)
        return None

    # -- hints -----------------------------------------------------------------------------------

    def hints(self) -> list[Move]:
        """The legal moves ranked best first, by simple rules of thumb (no look-ahead).

        Order: moves to a foundation (longer runs first); then moves that uncover a face-down card
        or empty a pile whose refill brings a new card; then accepting a start card; then moves onto
        a tableau card; then moves off the waste or reserve; then dealing from the stock; then moves
        that only shift a run sideways (it already lay on a card it moves with, and joins the new one
        no better); then moves into an empty pile; last, moves off a foundation. Ties keep the order
        of :attr:`legal_moves`.
        """
        R = self._rules
        ranked = []
        for n, m in enumerate(self._generate()):
            score = 0
            if m.kind is MoveKind.STOCK:
                score = 30
            elif m.kind is MoveKind.FLIP:
                score = 85
            else:
                i, j, k = R.index[m.source], R.index[m.target], m.count
                p, q = self._piles[i], self._piles[j]
                role_i, role_j = R.roles[i], R.roles[j]
                if role_j is Role.FOUNDATION:
                    score = 100 + k
                    if role_i is Role.CHOOSER:
                        score = 60
                elif role_i is Role.FOUNDATION:
                    score = 5
                elif len(p) > k and not p[-k - 1] & _UP:
                    score = 90
                elif len(p) == k and R.autofill and any(i == a for a, _ in R.autofill) and \
                        any(self._piles[s] for s in dict(R.autofill)[i]):
                    score = 80
                elif q:
                    score = 50 if len(p) > k else 45
                    links = R.tables(self._base)[1]
                    under = p[-k - 1] if len(p) > k else 0
                    if under & _UP and links[i] is not None and links[i][((under & 63) << 6) | (p[-k] & 63)]:
                        # The run already lies on a card it moves with: the move only shifts it sideways,
                        # unless it now joins the target card in a run it could not join before.
                        joins = links[j] is not None and links[j][((q[-1] & 63) << 6) | (p[-k] & 63)]
                        score = 25 if not joins or links[j] is links[i] else 50
                elif role_i in (Role.WASTE, Role.RESERVE):
                    score = 40
                else:
                    score = 10 if len(p) > k else 1
            ranked.append((-score, n, m))
        ranked.sort()
        return [m for _, _, m in ranked]



# -- automatic moves ------------------------------------------------------------------------------

def _is_link(match: Match, lower: int, upper: int) -> bool:
    """True when card code ``upper`` lies rightly on ``lower`` for scoring: one rank lower, and the
    suits related by ``match`` (same suit, or alternate colour)."""
    if (upper & 15) != (lower & 15) - 1 or not upper & 15:
        return False
    su, sl = upper >> 4, lower >> 4
    if match is Match.SAME_SUIT:
        return su == sl
    if match is Match.ALTERNATE_COLOUR:
        return (su in (1, 2)) != (sl in (1, 2))
    if match is Match.SAME_COLOUR:
        return (su in (1, 2)) == (sl in (1, 2))
    return True


def _autoplay_low_cards(R: _Rules, piles: list) -> None:
    """Move cards to the foundations by the ``low-cards`` rule until none qualifies (in place).

    A face-up top card of a pile other than a foundation goes up when it fits and its rank is at
    most 2 above the lowest foundation of the other colour and at most 3 above the lowest of its own
    colour, each suit counting the rank on top of its foundation (0 when it has none). Piles are
    scanned in layout order, from the first again after each card; the card goes to the foundation
    of its suit, an Ace to the first empty one (freecell.scm ``move-low-cards``, ``homecell-by-suit``).
    """
    foundations = R.foundations
    others = [i for i in range(len(piles)) if R.roles[i] is not Role.FOUNDATION]
    moved = True
    while moved:
        moved = False
        high = [0, 0, 0, 0]
        home: list[int] = [-1, -1, -1, -1]
        empty = -1
        for f in foundations:
            q = piles[f]
            if q:
                top = q[-1] & 63
                high[top >> 4] = top & 15
                home[top >> 4] = f
            elif empty < 0:
                empty = f
        # Suit index: clubs 0, diamonds 1, hearts 2, spades 3; diamonds and hearts are red.
        black = min(high[0], high[3])
        red = min(high[1], high[2])
        for i in others:
            p = piles[i]
            if not p or not p[-1] & _UP:
                continue
            c = p[-1] & 63
            rank, suit = c & 15, c >> 4
            if not rank:
                continue
            if suit in (1, 2):
                ok = rank <= 2 + black and rank <= 3 + red
            else:
                ok = rank <= 2 + red and rank <= 3 + black
            if not ok:
                continue
            target = empty if rank == 1 else home[suit] if high[suit] == rank - 1 else -1
            if target < 0:
                continue
            rest = p[:-1]
            if rest and not rest[-1] & _UP and R.reveal[i] is Reveal.AUTO:
                rest = rest[:-1] + (rest[-1] | _UP,)
            piles[i] = rest
            piles[target] = piles[target] + (c | _UP,)
            moved = True
            break


# -- validation helpers ---------------------------------------------------------------------------

def deck_fault(ruleset: Ruleset, cards: Sequence[Card]) -> str | None:
    """Why ``cards`` are not the deck of ``ruleset`` (cards too many or unknown, cards missing),
    or ``None`` when they are, in any order."""
    want: dict[Card, int] = {}
    for c in ruleset.cards():
        want[c] = want.get(c, 0) + 1
    have: dict[Card, int] = {}
    for c in cards:
        have[c] = have.get(c, 0) + 1
    if have == want:
        return None
    extra = [str(c) for c in have if have[c] > want.get(c, 0)]
    missing = [str(c) for c in want if have.get(c, 0) < want[c]]
    parts = []
    if extra:
        parts.append("too many or unknown: " + " ".join(extra))
    if missing:
        parts.append("missing: " + " ".join(missing))
    return f"the cards are not the {ruleset.game} deck of {ruleset.deck.size} cards (" + "; ".join(parts) + ")"


class _Limits:
    """What the rules imply about the piles of a ruleset, worked out once for :meth:`Position.validate`.

    ``dealt[i]``: the faces the deal gives pile ``i``, bottom to top; ``receives[i]``: whether any
    action ever adds a card to it; ``sequenced[i]``: whether a foundation's cards must form its
    build sequence from the base rank; ``stock_counts``: the stock sizes a deal-to-each stock can
    have; ``closed``: piles that pass cards only among themselves, and the most they can hold;
    ``refilled``: piles refilled at once from other piles, which the deal does not leave empty.
    """

    def __init__(self, R: _Rules):
        rs = R.ruleset
        n = len(R.ids)
        dealt: list[list[bool]] = [[] for _ in range(n)]
        for step in rs.deal:
            members = R.group_piles[step.pile]
            for member, count, face in zip(members, step.per_pile(len(members)), step.faces(len(members))):
                if face is Face.UP:
                    dealt[member] += [True] * count
                elif face is Face.DOWN:
                    dealt[member] += [False] * count
                elif count:
                    dealt[member] += [False] * (count - 1) + [True]
        self.dealt = [tuple(d) for d in dealt]
        self.dealt_count = [len(d) for d in dealt]
        fill_auto = [g.fill.rule is FillRule.AUTO for g in R.groups]
        self.receives = [R.groups[i].build is not None or i in R.stock_targets or i in (R.stock, R.chooser)
                         or fill_auto[i] for i in range(n)]
        stock_dealt = R.stock >= 0 and self.dealt_count[R.stock] > 0
        # A foundation's cards form its build sequence when nothing but moves put them there (the
        # deal gives it no card, or the one base card) and every run landing on it lands in order.
        first_dealt = next((i for i in R.foundations if self.dealt_count[i]), None)
        self.sequenced = [False] * n
        for j in R.foundations:
            build = R.groups[j].build
            if self.dealt_count[j] > 1 or (self.dealt_count[j] == 1 and j != first_dealt) or j in R.stock_targets:
                continue
            self.sequenced[j] = all(_runs_keep_build(R.groups[i].move, build, R.reverse[i][j])
                                    for i in range(n) if R.allowed_from[j][i])
        # Other piles built on (Eagle Wing's tableau) hold a build sequence when the deal gives each at
        # most one card and nothing but moves adds any: a card goes onto one it fits, or into an empty pile.
        self.built = [j not in R.foundations and R.groups[j].build is not None and self.dealt_count[j] <= 1
                      and j not in R.stock_targets
                      and all(_runs_keep_build(R.groups[i].move, R.groups[j].build, R.reverse[i][j])
                              for i in range(n) if R.allowed_from[j][i])
                      for j in range(n)]
        self.stock_counts: frozenset[int] | None = None
        policy = R.stock_policy
        if policy is not None and policy.action is StockAction.DEAL_TO_EACH and not stock_dealt \
                and R.groups[R.stock].build is None:
            left = rs.stock_size - (1 if rs.chooser is not None else 0)
            counts = {left}
            for d in rs.stock_deals():
                left -= d
                counts.add(left)
            self.stock_counts = frozenset(counts)
        self.closed: tuple[tuple[int, ...], int] | None = None
        members = tuple(i for i in range(n) if R.roles[i] in (Role.STOCK, Role.WASTE, Role.CHOOSER))
        if members and not stock_dealt and not any(self.receives[i] and (R.groups[i].build is not None or fill_auto[i])
                                                   for i in members):
            self.closed = (members, rs.stock_size + sum(self.dealt_count[i] for i in members))
        self.refilled = tuple((i, src) for i, src in R.autofill if self.dealt_count[i] > 0)


def _runs_keep_build(move, build, reverse: bool) -> bool:
    """True when every run that ``move`` lifts lands as a sequence that ``build`` allows."""
    if build.accepts is Accepts.SINGLE:
        return True
    if move.unit is MoveUnit.FACE_UP:  # lifted in whatever order the cards lie
        return False
    if move.unit is not MoveUnit.RUN:
        return True
    match = move.match == build.match or build.match is Match.RANK_ONLY or (
        move.match is Match.SAME_SUIT and build.match is Match.SAME_COLOUR)
    if reverse:
        direction = {move.direction, build.direction} == {Direction.UP, Direction.DOWN}
    else:
        direction = move.direction == build.direction or build.direction is Direction.UP_OR_DOWN
    return match and direction and (build.wrap or not move.wrap) and (move.stop_at_base or not build.stop_at_base)


_LIMITS: dict[int, tuple[_Rules, _Limits]] = {}


def _limits(R: _Rules) -> _Limits:
    return _memo(_LIMITS, R, _Limits)


def _faces_fit(faces: list[bool], dealt: tuple, receives: bool, reveal: Reveal) -> bool:
    """True when a pile with ``faces`` (bottom to top) can come from the deal's ``dealt`` faces.

    The pile is then the first ``m`` dealt cards (the others lifted off, from the top) with only
    the topmost of them maybe turned, plus cards added later, which always lie face up.
    """
    for m in range(min(len(faces), len(dealt)) + 1):
        if (not receives and len(faces) != m) or not all(faces[m:]):
            continue
        if m == 0:
            return True
        if list(faces[:m - 1]) != list(dealt[:m - 1]):
            continue
        top, dealt_top = faces[m - 1], dealt[m - 1]
        if reveal is Reveal.NEVER:
            ok = top == dealt_top
        elif reveal is Reveal.AUTO and m < len(dealt):
            ok = top  # the card above it was lifted off, and an uncovered card is turned at once
        else:
            ok = top or not dealt_top  # a card is turned face up, never face down
        if ok:
            return True
    return False


def _check_faces(R: _Rules, L: _Limits, i: int, p: tuple) -> None:
    pid = R.ids[i]
    role = _ROLE_WORDS[R.roles[i]]
    dealt = L.dealt[i]
    if not L.receives[i] and len(p) > len(dealt):
        raise PositionError(f"{pid} holds {len(p)} cards, but no card is ever added to a {role} pile: "
                            f"the deal gives it {len(dealt)}", pid)
    faces = [bool(c & _UP) for c in p]
    if _faces_fit(faces, dealt, L.receives[i], R.reveal[i]):
        return
    down = next(c for c in p if not c & _UP) if not all(faces) else None
    if all(dealt) and down is not None:
        raise PositionError(f"{pid}: {_CARD_OF[down & 63]} lies face down, but no rule of {R.game} leaves a "
                            f"face-down card on a {role} pile", pid)
    pattern = " ".join("up" if up else "#" for up in dealt)
    turned = {Reveal.AUTO: "a face-down card is turned face up once uncovered",
              Reveal.NEVER: "no card here is ever turned",
              Reveal.CLICK: "only the top card can be turned"}[R.reveal[i]]
    raise PositionError(f"{pid}: the face-down cards are not where the rules can leave them: the deal lays "
                        f"{pattern} here (bottom to top, # = face down), cards added later lie face up, and "
                        f"{turned}", pid)


def _check_foundation(R: _Rules, i: int, p: tuple, base: int, dealt: tuple) -> None:
    if not p:
        return
    pid = R.ids[i]
    group = R.groups[i]
    kind = R.base_kind
    start = base or (1 if kind is Base.ACE else 13 if kind is Base.KING else 0)
    bottom = p[0] & 63
    rule = group.fill.rule
    if bottom == _JOKER:
        if not dealt and rule is not FillRule.ANY:
            raise PositionError(f"{pid}: a joker lies at the bottom, but an empty foundation takes only a card of "
                                f"the {R.base_word}", pid)
    elif rule is FillRule.BASE_RANK:
        if not start:
            raise PositionError(f"{pid} holds cards, but the {R.base_word} is not known ('base: -')", "base")
        if bottom & 15 != start:
            raise PositionError(f"{pid} starts with {card_name(_CARD_OF[bottom])}, but a foundation starts with a "
                                f"card of the {R.base_word} ({_RANK_NAMES[start]})", pid)
    _check_sequence(R, i, p, start)


def _check_sequence(R: _Rules, i: int, p: tuple, base: int) -> None:
    """Every card of pile ``i`` fits the one below it under the pile's build (base rank ``base``)."""
    build = R.groups[i].build
    rank = Rank(base) if base else None
    for lower, upper in zip(p, p[1:]):
        a, b = _CARD_OF[lower & 63], _CARD_OF[upper & 63]
        if not build.allows(a, b, rank):
            pid = R.ids[i]
            raise PositionError(f"{pid}: {card_name(b)} cannot lie on {card_name(a)}: the "
                                f"{_ROLE_WORDS[R.roles[i]]} builds {_DIRECTION_WORDS.get(build.direction, 'nothing')} "
                                f"{_MATCH_WORDS[build.match]}", pid)


def _pair_table(cache: dict, key, test) -> bytearray:
    """A 64x64 table of card codes: ``table[(a << 6) | b]`` is 1 when ``test(card a, card b)``; cached by ``key``."""
    table = cache.get(key)
    if table is None:
        table = bytearray(64 * 64)
        for a, ca in _CARD_OF.items():
            for b, cb in _CARD_OF.items():
                if test(ca, cb):
                    table[(a << 6) | b] = 1
        cache[key] = table
    return table
