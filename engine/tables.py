"""A ruleset compiled for play, and the integer card encoding that play runs on.

Play (:mod:`~patiencebook.engine.position`), the position checks (:mod:`~patiencebook.engine.validation`)
and the solver (:mod:`~patiencebook.engine.solver`) share this documented internal API; callers
outside the engine use :class:`~patiencebook.engine.position.Position` and the rules model instead.

A card inside a position is a small int, its *code*: suit index * 16 + rank, plus :data:`UP` when it
lies face up (``code & 63`` is the card, ``code & 15`` its rank, ``code >> 4 & 3`` its suit). Ints keep
move generation and hashing fast; the public API hands out :class:`~patiencebook.engine.cards.Card`
objects. A joker is :data:`JOKER_CODE`, 0 (rank 0, which no rank has): every joker gets the same code,
as they are alike in play, and "rank 0" reads as "base rank not known", so a joker never sets or
matches a base rank. Pile *indices* are positions in layout order (:func:`~patiencebook.engine.rules.pile_ids`).
"""

from __future__ import annotations

from typing import Callable, TypeVar

from .cards import JOKER, Card, Rank, Suit
from .errors import EngineError
from .moves import Move, MoveKind
from .rules import (
    Accepts, Base, Direction, DoubleClick, FillRule, MoveLimit, MoveUnit, Reveal, Role, Ruleset, pile_groups,
    pile_ids,
)

__all__ = [
    "UP", "JOKER_CODE", "CARD_OF", "CODE_OF", "card_code", "LIFT_NONE", "LIFT_TOP", "LIFT_RUN",
    "CompiledRules", "compiled", "memo",
]

#: Added to a card's code when it lies face up.
UP = 64
#: The code of every joker (face down; ``JOKER_CODE | UP`` face up).
JOKER_CODE = 0
_SUITS = tuple(Suit)
#: The card of each face-down code (``CARD_OF[code & 63]`` for any code).
CARD_OF: dict[int, Card] = {(s << 4) | r: Card(Rank(r), suit) for s, suit in enumerate(_SUITS) for r in range(1, 14)}
CARD_OF[JOKER_CODE] = JOKER
#: The face-down code of each card of a standard deck (and the joker).
CODE_OF: dict[Card, int] = {card: c for c, card in CARD_OF.items()}

#: What a pile lets a player lift (:attr:`CompiledRules.lift`): nothing, its top card, or a run.
LIFT_NONE, LIFT_TOP, LIFT_RUN = 0, 1, 2


def card_code(card: Card) -> int:
    """The face-down code of ``card``; raises :class:`EngineError` for anything that is not a card
    of a standard deck (or the joker)."""
    try:
        return CODE_OF[card]
    except (KeyError, TypeError):
        raise EngineError(f"not a card of a standard deck: {card!r}") from None


_T = TypeVar("_T")


def memo(table: dict, owner: object, make: Callable[[object], _T]) -> _T:
    """``make(owner)``, kept in ``table`` by the owner's identity (the owner is kept too, so its id
    cannot be reused by another object while the entry lives). For values derived from a frozen
    ruleset or its :class:`CompiledRules`, worked out once per process."""
    hit = table.get(id(owner))
    if hit is not None and hit[0] is owner:
        return hit[1]
    value = make(owner)
    table[id(owner)] = (owner, value)
    return value


class CompiledRules:
    """A ruleset compiled for play: per-pile policy data in tuples and lists indexed by pile index,
    and lookup tables per base rank. Get one with :func:`compiled`; it never changes after that.

    Attributes, by what they describe (``n`` piles; every per-pile sequence has ``n`` items):

    - the game: ``ruleset``, ``game``, ``deck_size``, ``suit_size`` (ranks in a suit), ``scoring``,
      ``simple_score`` (only ``per_card`` counts), ``per_card``, ``won``, ``dealt_tableau`` (cards
      the deal gives the tableau), ``autoplay`` (the :class:`~patiencebook.engine.rules.AutoRule` or
      ``None``);
    - the piles: ``ids`` (pile ids), ``index`` (pile id -> index), ``groups`` and ``roles`` of each
      pile, ``group_piles`` (group id -> its pile indices); ``foundations``, ``tableaux``,
      ``freecells``, ``wastes``, ``reserves`` (indices by role);
    - the base: ``base_kind`` (:class:`~patiencebook.engine.rules.Base`), ``base_word`` (``"base
      rank"`` or ``"start rank"``), ``fixed_base`` (1 or 13 for foundations from the Ace or King,
      else 0);
    - lifting: ``lift`` (:data:`LIFT_NONE`, :data:`LIFT_TOP` or :data:`LIFT_RUN`), ``sources``
      (piles that lift anything), ``top_or_all`` (lifts only the top card or all face-up cards),
      ``max_cards`` (most cards lifted at once), ``keeps_base`` (a card of the base rank never
      leaves), ``limited`` (runs limited by free cells and empty tableau piles; ``any_limited``:
      some pile is), ``limit_doubles`` (each empty tableau pile doubles that limit; false for
      ``free-cells``);
    - building: ``targets`` (piles with a build), ``targets_from[i]`` (where pile ``i``'s cards may
      go), ``allowed_from[j][i]`` (pile ``i`` may give to pile ``j``), ``reverse[i][j]`` and
      ``reverse_to[j][i]`` (a run from ``i`` lands reversed on ``j``), ``any_order`` (the pile lifts
      face-up cards in any order; what lands reversed must then fit the target's build card by
      card), ``capacity`` (0: no limit),
      ``accepts_run``, ``complete_run`` (takes only whole suits, King to Ace), ``kcap`` (most cards
      a pile takes in one drag), ``fill_static`` (the fill rule, ``None`` for ``auto``),
      ``pair_to`` (the foundation a pile's pairs go to, or -1), ``previous`` (the pile whose ranks
      the cards placed on a pile must be among, or -1; ``ranked``: some pile has one), ``wide``
      (some pile builds with cards of any rank),
      ``rank_codes[rank]`` (the face-down codes of a rank), ``autofill`` (``(pile, source piles)``
      of each pile refilled at once), ``reveal``, ``flippable`` (piles turned by a click),
      ``double_click`` (``(pile, action)`` of piles that react to one);
    - stock and chooser: ``stock`` (index of the stock, or of the chooser's source; -1 without),
      ``stock_policy``, ``stock_targets`` (piles the stock deals to), ``stock_rest`` (the pile that
      takes a deal-to-each stock's last cards one by one, or empty), ``chooser`` (index or -1),
      ``chooser_policy``, ``accept_to`` (piles that take the start card), ``discard`` (the pile
      that takes the waste before each deal, or -1);
    - covering piles: ``over[i]`` (the piles that lie over pile ``i``), ``under[i]`` (the piles
      pile ``i`` lies over), ``peaks`` (the tableau's peaks); ``running`` (the score is added up
      move by move, :attr:`~patiencebook.engine.rules.Scoring.running`).
    """

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self.game = ruleset.game
        self.ids = pile_ids(ruleset)
        self.index = {pid: i for i, pid in enumerate(self.ids)}
        self.groups = pile_groups(ruleset)
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
        self.lift = [LIFT_NONE] * n
        self.max_cards = [self.deck_size] * n
        self.capacity = [0] * n
        self.accepts_run = [False] * n
        self.reveal = [g.reveal for g in self.groups]
        for i, g in enumerate(self.groups):
            self.lift[i] = {MoveUnit.NONE: LIFT_NONE, MoveUnit.TOP: LIFT_TOP, MoveUnit.RUN: LIFT_RUN,
                            MoveUnit.FACE_UP: LIFT_RUN, MoveUnit.TOP_OR_FACE_UP: LIFT_RUN}[g.move.unit]
            if g.move.fixed_max is not None:
                self.max_cards[i] = g.move.fixed_max
            self.capacity[i] = g.capacity or 0
            self.accepts_run[i] = g.build is not None and g.build.accepts in (Accepts.RUN, Accepts.COMPLETE_RUN)
        self.sources = tuple(i for i in range(n) if self.lift[i] != LIFT_NONE)
        # Piles that lift their top card or all their face-up cards, nothing in between (Westhaven).
        self.top_or_all = [g.move.unit is MoveUnit.TOP_OR_FACE_UP for g in self.groups]
        # Runs onto a tableau pile limited by free cells and empty tableau piles (FreeCell, Forty Thieves).
        self.limited = [g.move.limit is not None for g in self.groups]
        self.any_limited = any(self.limited)
        # Whether empty tableau piles double that limit (free-cells-and-empty-tableau) or do not
        # count (free-cells: Eight Off, Seahaven).
        self.limit_doubles = not any(g.move.limit is MoveLimit.FREE_CELLS for g in self.groups)
        self.freecells = tuple(i for i, r in enumerate(self.roles) if r is Role.FREECELL)
        self.keeps_base = [g.move.keeps_base for g in self.groups]
        self.complete_run = [g.build is not None and g.build.accepts is Accepts.COMPLETE_RUN for g in self.groups]
        self.suit_size = len(ruleset.deck.ranks)
        # The ranks of a complete run, bottom to top (King down to Ace in a full suit).
        self._run_ranks = tuple(int(r) for r in reversed(ruleset.deck.ranks))
        self.wastes = tuple(i for i, r in enumerate(self.roles) if r is Role.WASTE)
        self.reserves = tuple(i for i, r in enumerate(self.roles) if r is Role.RESERVE)
        self.autoplay = ruleset.autoplay.rule if ruleset.autoplay is not None else None
        self.scoring = ruleset.scoring
        self.simple_score = ruleset.scoring.per_card_only
        self.won = ruleset.end.won
        self.dealt_tableau = sum(step.total(ruleset.pile(step.pile).count) for step in ruleset.deal
                                 if ruleset.pile(step.pile).role is Role.TABLEAU)
        self.kcap = [self.suit_size if self.complete_run[j] else self.deck_size if self.accepts_run[j] else 1
                     for j in range(n)]
        # None: the fill rule depends on the position (a refilled pile; an empty foundation before a
        # 'first-card' base is known).
        self.fill_static = [None if g.fill.rule is FillRule.AUTO or (g.fill.rule is FillRule.BASE_RANK
                                                                      and self.base_kind is Base.FIRST_CARD)
                            else g.fill.rule for g in self.groups]
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
                if dst.build is not None and src.move.unit in (MoveUnit.RUN, MoveUnit.FACE_UP):
                    a, b = src.move.direction, dst.build.direction
                    self.reverse[i][j] = {a, b} == {Direction.UP, Direction.DOWN}
        # A pile lifting face-up cards in any order gives a pile built the other way only cards that
        # land one by one on its build, top card first (odessa.scm: a run in suit to a foundation).
        self.any_order = [g.move.unit is MoveUnit.FACE_UP for g in self.groups]
        self.reverse_to = [[self.reverse[i][j] for i in range(n)] for j in range(n)]
        self.allowed_from = [[j in self.targets_from[i] and self.lift[i] != LIFT_NONE for i in range(n)]
                             for j in range(n)]
        # Pairs (Monte Carlo): the pile whose pairs go to a foundation, only from the piles next to it.
        self.pair_to = [self.group_piles[g.build.pair_to][0] if g.build is not None and g.build.pair_to else -1
                        for g in self.groups]
        for j in range(n):
            if self.pair_to[j] >= 0:
                self.capacity[j] = 0  # a pair leaves the pile: the card placed never stays
        for j, g in enumerate(self.groups):
            if g.build is not None and g.build.neighbours:
                members = self.group_piles[g.id]
                near = {members[m - 1] for m in g.neighbours(members.index(j) + 1)}
                self.allowed_from[j] = [self.allowed_from[j][i] and i in near for i in range(n)]
        # The pile whose ranks a pile's cards must be among (Osmosis's foundations), or -1.
        self.previous = [-1] * n
        for j, g in enumerate(self.groups):
            if g.build is not None and g.build.previous_holds_rank:
                members = self.group_piles[g.id]
                at = members.index(j)
                if at:
                    self.previous[j] = members[at - 1]
        self.ranked = any(b >= 0 for b in self.previous)
        # Piles whose top card takes many cards (a build of any rank), looked up from the cards
        # that can be lifted instead.
        self.wide = any(g.build is not None and g.build.direction is Direction.ANY for g in self.groups)
        # One row per pile that lifts cards and per pile that takes them, unpacked at once where
        # the legal drags are listed (Position._find_drags): (pile, lifts runs, keeps its base card,
        # top card or all face-up cards, most cards lifted) and (pile, takes only complete runs,
        # most cards taken, capacity, allowed_from, reverse_to, previous, fill_static, is tableau).
        self.source_rows = tuple((i, self.lift[i] == LIFT_RUN, self.keeps_base[i], self.top_or_all[i],
                                  self.max_cards[i]) for i in self.sources)
        self.target_rows = tuple((j, self.complete_run[j], self.kcap[j], self.capacity[j], self.allowed_from[j],
                                  self.reverse_to[j], self.previous[j], self.fill_static[j],
                                  self.roles[j] is Role.TABLEAU) for j in self.targets)
        self.autofill = tuple((i, self.group_piles[g.fill.source or ""]) for i, g in enumerate(self.groups)
                              if g.fill.rule is FillRule.AUTO)
        stock = ruleset.stock
        self.stock_policy = stock
        self.stock = self.group_piles[stock.pile][0] if stock is not None else -1
        if stock is None and ruleset.chooser is not None:
            self.stock = self.group_piles[ruleset.chooser.source][0]
        self.stock_targets = self.group_piles[stock.target] if stock is not None and stock.target else ()
        self.stock_rest = self.group_piles[stock.rest] if stock is not None and stock.rest else ()
        chooser = ruleset.chooser
        self.chooser_policy = chooser
        self.chooser = self.group_piles[chooser.pile][0] if chooser is not None else -1
        self.accept_to = self.group_piles[chooser.accept_to] if chooser is not None else ()
        self.flippable = tuple(i for i in range(n) if self.reveal[i] is Reveal.CLICK)
        self.double_click = tuple((i, g.double_click) for i, g in enumerate(self.groups)
                                  if g.double_click is not DoubleClick.NONE)
        self.discard = self.group_piles[stock.discard][0] if stock is not None and stock.discard else -1
        over: list[tuple[int, ...]] = [()] * n
        under: list[tuple[int, ...]] = [()] * n
        peaks: set[int] = set()
        for g in ruleset.piles:
            if g.covered_by:
                members = self.group_piles[g.id]
                for k, i in enumerate(members, 1):
                    over[i] = tuple(members[m - 1] for m in g.covered_by[k - 1])
                    under[i] = tuple(members[m - 1] for m in g.covers(k))
                if g.role is Role.TABLEAU:
                    peaks.update(members[m - 1] for m in g.peaks)
        self.over = tuple(over)
        self.under = tuple(under)
        self.peaks = frozenset(peaks)
        self.running = ruleset.scoring.running
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
        the policies' own ``allows``/``can_lift``, so the tables say exactly what the policies say.
        Indices and entries are face-down codes (``code & 63``)."""
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
                               [tuple(b for b in CARD_OF if f[(a << 6) | b]) for a in range(64)])
                links.append(self._links(g.move, rank)
                             if g.move.unit in (MoveUnit.RUN, MoveUnit.FACE_UP, MoveUnit.TOP_OR_FACE_UP)
                             else None)
            t = self._tables[base] = (fits, links, accepts)
        return t

    def complete_at(self, pile: tuple[int, ...], end: int = 0) -> bool:
        """True when the cards of ``pile`` (codes, bottom to top) that end ``end`` cards below its
        top are one complete run: every rank of the deck, King at the bottom down to Ace on top, one
        suit, face up."""
        n = self.suit_size
        if len(pile) < n + end:
            return False
        top = pile[len(pile) - end - n:len(pile) - end]
        suit = top[0] & 0x30
        return all(c & UP and c & 0x30 == suit and (c & 15) == r
                   for c, r in zip(top, self._run_ranks)) and (top[0] & 15) == 13

    def _fits(self, build, rank) -> bytearray:
        return _pair_table(self._fits_cache, (build, rank), lambda ca, cb: build.allows(ca, cb, rank))

    def _links(self, move, rank) -> bytearray:
        return _pair_table(self._links_cache, (move, rank), lambda ca, cb: move.can_lift((ca, cb), rank))


_COMPILED: dict[int, tuple[Ruleset, CompiledRules]] = {}


def compiled(ruleset: Ruleset) -> CompiledRules:
    """The :class:`CompiledRules` of ``ruleset``, compiled on first use and then kept (one per
    ruleset object, for the life of the process)."""
    return memo(_COMPILED, ruleset, CompiledRules)


def _pair_table(cache: dict, key, test) -> bytearray:
    """A 64x64 table of card codes: ``table[(a << 6) | b]`` is 1 when ``test(card a, card b)``; cached by ``key``."""
    table = cache.get(key)
    if table is None:
        table = bytearray(64 * 64)
        for a, ca in CARD_OF.items():
            for b, cb in CARD_OF.items():
                if test(ca, cb):
                    table[(a << 6) | b] = 1
        cache[key] = table
    return table
