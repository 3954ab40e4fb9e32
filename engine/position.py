"""Positions: the state of a game of patience as a value, and the rules that move it on.

A :class:`Position` holds every pile of a :class:`~patiencebook.engine.rules.Ruleset` (cards bottom
to top, each face up or down) and the little state the rules need besides (base rank, redeals and
chooser offers used). It never changes: :meth:`Position.apply` returns a new position, and
:class:`~patiencebook.engine.game.Game` keeps the history for undo and redo. All game logic reads
the ruleset's policies, compiled into tables (:mod:`patiencebook.engine.tables`); the few rules that
data cannot state are in :mod:`patiencebook.engine.hooks`. Whether the rules can produce a position
given from outside is checked by :mod:`patiencebook.engine.validation`.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, Sequence

from .cards import Card, Rank
from .errors import EngineError, IllegalMove, NotationError, PositionError, Reason
from .hooks import lost_check
from .moves import LegalMoves, Move, MoveKind
from .rules import (
    LOST_NEVER, AutoRule, Base, DealFrom, DealOrder, Direction, DoubleClick, Face, FillRule, KingsRule, Match, Reveal,
    Role, Ruleset,
    StockAction, StockRequires, Won, pile_ids,
)
from .syntax import (
    PositionParts, load_json, position_to_dict, position_to_text, read_position_dict, read_position_text,
)
from .tables import CARD_OF, JOKER_CODE, LIFT_NONE, LIFT_RUN, LIFT_TOP, UP, CompiledRules, card_code, compiled
from .validation import validate
from .words import DIRECTION_WORDS, MATCH_WORDS, RANK_NAMES, ROLE_WORDS, card_name

# pile_ids (from rules) and card_name (from words) are kept importable from here for callers outside the engine.
__all__ = ["Position", "pile_ids", "card_name"]

# Double-clicks that send a card somewhere other than a foundation.
_DOUBLE_CLICKS_ELSEWHERE = frozenset({DoubleClick.CARD_TO_FREECELL, DoubleClick.CARD_TO_WASTE,
                                      DoubleClick.CARD_ANYWHERE})
_STOCK_MOVE = Move.stock()
#: A kept answer not worked out yet (a position's stock reason, which may be ``None``).
_UNKNOWN = object()


def _check_kind(kind: object) -> None:
    """Refuse a move kind that is not a :class:`MoveKind` (a Move built in code with a bad kind)."""
    if kind is not MoveKind.FLIP and kind is not MoveKind.DOUBLE_CLICK and \
            kind is not MoveKind.DRAG and kind is not MoveKind.STOCK:
        raise IllegalMove(Reason("bad-move", f"unknown kind of move {kind!r:.40}"))


class Position:
    """One state of a game: piles in layout order plus base rank, redeals used and chooser offers used.

    A value: it never changes after construction, compares equal to a position of the same game
    with the same piles and state, and hashes accordingly. Make one with :meth:`initial` (a fresh
    deal), :meth:`from_piles`, or from the notation with :meth:`from_text` (or :meth:`from_dict`,
    :meth:`from_json`).

    Attributes (read-only):
        ruleset: the :class:`Ruleset` played.
        game: the game name (``ruleset.game``).
        base_rank: the rank the foundations start from, or ``None`` while not known (Hamilton
            before the start card is chosen; games without a base).
        redeals_used: how often the waste has been turned back into the stock.
        offers_used: how many cards the chooser has been offered.
    """

    __slots__ = ("_rules", "_piles", "_base", "_redeals", "_offers", "_hash", "_drags", "_drag_set", "_points",
                 "_stock")

    def __init__(self) -> None:
        raise TypeError("make a Position with Position.initial(ruleset, cards) or Position.from_piles(...)")

    @classmethod
    def _make(cls, rules: CompiledRules, piles: tuple, base: int, redeals: int, offers: int,
              points: int = 0) -> "Position":
        p = object.__new__(cls)
        p._points = points
        p._rules = rules
        p._piles = piles
        p._base = base
        p._redeals = redeals
        p._offers = offers
        p._hash = None
        p._drags = None
        p._drag_set = None
        p._stock = _UNKNOWN
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
        down, the next card in ``cards`` on top. A deal step of a rank
        (:attr:`~patiencebook.engine.rules.DealStep.rank`) takes the cards of that rank wherever they
        lie in ``cards``, and the other steps the other cards in order.

        Raises :class:`EngineError` when ``cards`` is not the ruleset's deck in some order.
        """
        rules = compiled(ruleset)
        codes = [card_code(c) for c in cards]
        if sorted(codes) != sorted(card_code(c) for c in ruleset.cards()):
            raise EngineError(f"the cards to deal are not the {ruleset.game} deck of {rules.deck_size} cards "
                              f"in some order (got {len(codes)} cards)")
        aside = ruleset.set_aside
        if aside:
            codes = cls._set_aside_in_place(ruleset, codes, {int(r) for r in aside})
        piles: list[list[int]] = [[] for _ in rules.ids]
        pos = 0
        base = 0
        special = any(step.rank is not None or step.source is DealFrom.BOTTOM for step in ruleset.deal)
        if special:
            codes = _deal_picks(ruleset, codes)
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
                piles[i].append(code | UP if up else code)
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

    @staticmethod
    def _set_aside_in_place(ruleset: Ruleset, codes: list[int], ranks: set[int]) -> list[int]:
        """``codes`` reordered so that each deal step of a rank takes the cards of that rank (in their
        order in ``codes``) and every other step the next of the other cards."""
        others = [c for c in codes if c & 15 not in ranks]
        out: list[int] = []
        pos = 0
        for step in ruleset.deal:
            if step.rank is not None:
                out.extend(c for c in codes if c & 15 == int(step.rank))
            else:
                n = step.total(ruleset.pile(step.pile).count)
                out.extend(others[pos:pos + n])
                pos += n
        out.extend(others[pos:])
        return out

    @classmethod
    def from_piles(cls, ruleset: Ruleset, piles: "dict[str, Sequence[tuple[Card, bool]]]",
                   base_rank: Rank | None = None, redeals_used: int = 0, offers_used: int = 0) -> "Position":
        """A position with the given piles (id -> cards bottom to top as ``(card, face_up)``) and state.

        Piles not named are empty. Raises :class:`EngineError` for an unknown pile id, a pile that
        is not a list of ``(card, face_up)`` pairs, a base that is not a :class:`Rank` or counters
        that are not whole numbers of at least 0. Neither the deck nor the rules are checked here:
        :meth:`validate` does that (and :meth:`from_text` calls it).
        """
        rules = compiled(ruleset)
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
                out[rules.index[pid]] = tuple(card_code(c) | (UP if up else 0) for c, up in cards)
            except (TypeError, ValueError):  # not a list of pairs
                raise EngineError(f"the cards of {pid} must be (card, face_up) pairs") from None
        return cls._make(rules, tuple(out), int(base_rank) if base_rank else 0, redeals_used, offers_used)

    # -- text and JSON (the grammar is in patiencebook.engine.notation) ---------------------------

    @classmethod
    def from_text(cls, text: str, ruleset: Ruleset) -> "Position":
        """The position written in ``text`` in the notation, for a game of ``ruleset``
        (:func:`patiencebook.engine.notation.parse_position`).

        Checks that the game name matches, that every pile is listed once, that the cards are exactly
        the ruleset's deck, that the rules can produce the position (:meth:`validate`) and that a
        ``score:`` line agrees with the foundations. Raises
        :class:`~patiencebook.engine.errors.NotationError` (a
        :class:`~patiencebook.engine.errors.PositionError` for a position the rules cannot produce)
        with the line number and what is wrong.
        """
        return cls._from_parts(read_position_text(text, ruleset))

    @classmethod
    def from_dict(cls, data: Any, ruleset: Ruleset) -> "Position":
        """The position from :meth:`to_dict` data (any JSON value is accepted as input;
        :func:`patiencebook.engine.notation.position_from_dict`).

        Checks what :meth:`from_text` checks, plus the types: ``game`` a string, ``base`` a rank
        letter or ``null``, counters whole numbers, ``piles`` a list of ``{"id", "role", "cards"}``
        objects (``role`` optional, and then it must be the pile's). Raises
        :class:`~patiencebook.engine.errors.NotationError` (a
        :class:`~patiencebook.engine.errors.PositionError` for a position the rules cannot produce).
        """
        return cls._from_parts(read_position_dict(data, ruleset))

    @classmethod
    def from_json(cls, text: str, ruleset: Ruleset) -> "Position":
        """The position from its JSON form (:meth:`to_json`): :meth:`from_dict` of the JSON, every
        failure a :class:`~patiencebook.engine.errors.NotationError`."""
        return cls.from_dict(load_json(text), ruleset)

    @classmethod
    def _from_parts(cls, parts: PositionParts) -> "Position":
        """The position of what a reader read, once the rules can produce it and its score agrees."""
        where = parts.lines
        try:
            position = cls.from_piles(parts.ruleset, parts.piles, parts.base_rank, parts.redeals, parts.offers)
            if position._rules.running and parts.score:
                # A score added up move by move is part of the position: the 'score:' line gives it.
                if parts.score < 0:
                    raise NotationError(f"'score: {parts.score}' cannot be below 0", where.get("score"))
                position = cls._make(position._rules, position._piles, position._base, position._redeals,
                                     position._offers, parts.score)
            position.validate()
        except PositionError as err:
            raise PositionError(err.message, err.where, where.get(err.where or "")) from None
        except EngineError as err:
            raise NotationError(str(err)) from None
        if parts.score is not None and parts.score != position.score:
            raise NotationError(f"'score: {parts.score}' does not match the foundations, which give "
                                f"{position.score}", where.get("score"))
        return position

    def text(self) -> str:
        """The position in the text notation; ``Position.from_text(p.text(), p.ruleset) == p``."""
        return position_to_text(self)

    def to_dict(self) -> dict[str, Any]:
        """The position as plain data for JSON (:func:`patiencebook.engine.notation.position_to_dict`):
        ``{"game", "base", "redeals", "offers", "score", "piles": [{"id", "role", "cards"}, ...]}``;
        ``Position.from_dict(p.to_dict(), p.ruleset) == p``."""
        return position_to_dict(self)

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as a JSON string; ``Position.from_json(p.to_json(), p.ruleset) == p``."""
        return json.dumps(position_to_dict(self), indent=indent, ensure_ascii=False)

    # -- value behaviour -------------------------------------------------------------------------

    def _key(self) -> tuple:
        return (self._rules.game, self._piles, self._base, self._redeals, self._offers, self._points)

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
        return position_to_text(self)

    def __repr__(self) -> str:
        return f"<Position {self.game} score={self.score} base={self.base_rank}>"

    # -- reading ---------------------------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        """The :class:`~patiencebook.engine.rules.Ruleset` played."""
        return self._rules.ruleset

    @property
    def game(self) -> str:
        """The game name (``ruleset.game``)."""
        return self._rules.game

    @property
    def redeals_used(self) -> int:
        """How often the waste has been turned back into the stock."""
        return self._redeals

    @property
    def offers_used(self) -> int:
        """How many cards the chooser has been offered."""
        return self._offers

    @property
    def base_rank(self) -> Rank | None:
        """The rank the foundations start from, or ``None`` while not known (see :attr:`base_code`)."""
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
        return tuple((CARD_OF[c & 63], bool(c & UP)) for c in self._piles[self._rules.index[pile_id]])

    @property
    def piles(self) -> dict[str, tuple[tuple[Card, bool], ...]]:
        """Every pile, id -> cards bottom to top as ``(card, face_up)``, in layout order (a fresh dict)."""
        return {pid: tuple((CARD_OF[c & 63], bool(c & UP)) for c in p)
                for pid, p in zip(self._rules.ids, self._piles)}

    def cards(self) -> list[Card]:
        """Every card in the position, pile by pile, bottom to top."""
        return [CARD_OF[c & 63] for p in self._piles for c in p]

    @property
    def score(self) -> int:
        """Points, as the ruleset's :class:`~patiencebook.engine.rules.Scoring` terms add them up
        from this position (the Scoring section of each page)."""
        R = self._rules
        if R.running:
            return self._points
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
                down = sum(1 for c in p if not c & UP)
                total += sc.per_face_down * down
                if sc.per_link:
                    links = sum(1 for lower, upper in zip(p, p[1:])
                                if lower & upper & UP and _is_link(sc.link, lower & 63, upper & 63))
                    total += sc.per_link * links
                if sc.per_complete_pile and len(p) == R.suit_size and R.complete_at(p):
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

    # -- engine internals: card codes and pile indices (tables), for the solver --------------------

    @property
    def compiled_rules(self) -> CompiledRules:
        """The compiled rules this position is played by (:func:`patiencebook.engine.tables.compiled`
        of its ruleset): pile indices, roles and lookup tables."""
        return self._rules

    @property
    def pile_codes(self) -> tuple[tuple[int, ...], ...]:
        """Every pile as card codes (:mod:`patiencebook.engine.tables`), bottom to top, in layout
        order: what :attr:`piles` says as cards, without making a Card for each."""
        return self._piles

    @property
    def base_code(self) -> int:
        """The base rank as a number (1 Ace .. 13 King), 0 while not known (:attr:`base_rank` ``None``)."""
        return self._base

    # -- validation (the checks are in patiencebook.engine.validation) ----------------------------

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
        validate(self._rules, self._piles, self._base, self._redeals, self._offers)

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
                return self.drag_reason(*self._drag_indices(move))
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
            move = Move.parse(move)
        return self._resolve(move)

    def _resolve(self, move: Move) -> "Position":
        kind = move.kind
        if kind is MoveKind.DRAG:
            key = self._drag_indices(move)
            drags = self._drags
            # A drag this position has already listed as legal is not checked again.
            if drags is None or key not in drags:
                reason = self.drag_reason(*key)
                if reason:
                    raise IllegalMove(reason)
            return self._do_drag(*key)
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
            piles[i] = piles[i][:-1] + (piles[i][-1] | UP,)
            return Position._make(self._rules, tuple(piles), self._base, self._redeals, self._offers, self._points)
        drags = self.double_click_drags(move.source or "")
        pos = self
        for d in drags:
            pos = pos.apply(d)
        return pos

    def apply_generated(self, move: Move) -> "Position":
        """:meth:`apply` for a move this position generated itself (:meth:`hints`,
        :attr:`legal_moves`, :meth:`generate_moves`): a drag is made without checking it again,
        anything else is checked as :meth:`apply` checks it. For engine code that plays many moves
        it has just listed (the solver); a drag from anywhere else may leave a position the rules
        cannot reach."""
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
        if not p or not lift or not p[-1] & UP:
            return 0
        n = 1
        if lift == LIFT_RUN:
            link = links[i]
            m = min(len(p), R.max_cards[i])
            while n < m:
                below = p[-n - 1]
                if not below & UP or not link[((below & 63) << 6) | (p[-n] & 63)]:
                    break
                n += 1
        return n

    def _reversed_fit(self, i: int, fits_j, most: int) -> int:
        """How many of the top ``most`` cards of pile ``i`` (face up) can land reversed, top card
        first, on a pile whose build table is ``fits_j``, each card fitting the one that landed
        before it: for a pile lifting face-up cards in any order (Odessa's run to a foundation)."""
        p = self._piles[i]
        n = 1
        while n < most:
            below = p[-n - 1]
            if not below & UP or not fits_j[((p[-n] & 63) << 6) | (below & 63)]:
                break
            n += 1
        return n

    def _fill_rule(self, j: int) -> FillRule:
        g = self._rules.groups[j]
        rule = g.fill.rule
        if rule is FillRule.BASE_RANK and not self._base and self._rules.base_kind is Base.FIRST_CARD:
            return FillRule.ANY
        if rule is FillRule.AUTO:
            src = self._rules.group_piles[g.fill.source or ""]
            if any(self._piles[s] for s in src):
                return FillRule.NONE
            return g.fill.otherwise or FillRule.NONE
        return rule

    def generate_moves(self, double_clicks: bool = False) -> Iterator[Move]:
        """The legal moves one by one, in the order of :class:`~patiencebook.engine.moves.LegalMoves`
        (which iterates this): drags grouped by target pile in layout order, then turns, then the
        stock click, then double-clicks when ``double_clicks`` is true."""
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
            if p and not p[-1] & UP:
                yield Move(MoveKind.FLIP, R.ids[i])
        if R.stock >= 0 and self._stock_reason() is None:
            yield _STOCK_MOVE
        if double_clicks:
            yield from self._generate_double_clicks()

    def _drag_keys(self) -> tuple:
        """Every legal drag as ``(source, target, count)`` pile indices, in :meth:`generate_moves`'s
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

    def _find_drags(self) -> list[tuple[int, int, int]]:
        R = self._rules
        piles = self._piles
        out: list[tuple[int, int, int]] = []
        add = out.append
        if R.chooser >= 0 and not self._base:
            c = R.chooser
            if piles[c] and piles[c][-1] & 63 != JOKER_CODE:
                for j in R.accept_to:
                    if not piles[j]:
                        add((c, j, 1))
            return out
        fits, links, accepts = R.tables(self._base)
        # Every liftable card, by code: where it lies (pile, depth from the top). Then each target
        # looks up only the few cards its top card accepts, instead of trying every source.
        runs: dict[int, list] = {}
        run_of = [0] * len(piles)
        base = self._base or R.fixed_base
        for i, lifts_run, keeps_base, ends_only, most in R.source_rows:
            p = piles[i]
            if not p:
                continue
            top = p[-1]
            if not top & UP or keeps_base and top & 15 == base:
                continue
            if not lifts_run:
                run_of[i] = 1
                at = runs.get(top & 63)
                if at is None:
                    runs[top & 63] = [(i, 1)]
                else:
                    at.append((i, 1))
                continue
            n = 1
            link = links[i]
            m = len(p) if len(p) < most else most
            while n < m:
                below = p[-n - 1]
                if not below & UP or not link[((below & 63) << 6) | (p[-n] & 63)]:
                    break
                n += 1
            run_of[i] = n
            for k in range(1, n + 1):
                if ends_only and 1 < k < n:
                    continue
                c = p[-k] & 63
                at = runs.get(c)
                if at is None:
                    runs[c] = [(i, k)]
                else:
                    at.append((i, k))
        if not runs:
            return out
        limit = self._move_limit() if R.any_limited else 0
        wide, limited, top_or_all = R.wide, R.limited, R.top_or_all
        for j, complete, kcap, cap, allowed, rev, previous, fill, tableau in R.target_rows:
            q = piles[j]
            if complete:
                if not q:
                    for i in R.sources:
                        if run_of[i] >= R.suit_size and allowed[i] and R.complete_at(piles[i]):
                            add((i, j, R.suit_size))
                continue
            if cap:
                room = cap - len(q)
                if room <= 0:
                    continue
                if room < kcap:
                    kcap = room
            # Only ranks the pile before holds (Osmosis's foundations).
            held = {c & 15 for c in piles[previous]} if previous >= 0 else None
            # (free cells + 1) * 2 ** empty tableau piles, the target not counted.
            lim = 0
            if limit and tableau:
                lim = limit if q or not R.limit_doubles else limit >> 1
            if q:
                wanted = accepts[j][q[-1] & 63]
                if wide and len(wanted) > 2 * len(runs):
                    # A pile taking many cards (Osmosis's: any rank of a suit): look the few
                    # liftable ones up instead, in the same order (codes rise; no joker fits).
                    fits_j, onto = fits[j], (q[-1] & 63) << 6
                    wanted = sorted([c for c in runs if fits_j[onto | c]])
            else:
                rule = fill or self._fill_rule(j)
                if rule is FillRule.ANY:
                    for i in R.sources:
                        if run_of[i] and allowed[i] and (held is None or piles[i][-1] & 15 in held):
                            top = run_of[i] if run_of[i] < kcap else kcap
                            if lim and limited[i] and top > lim:
                                top = lim
                            ends_only = top_or_all[i]
                            for k in range(1, top + 1):
                                if ends_only and 1 < k < run_of[i]:
                                    continue
                                add((i, j, k))
                    continue
                if rule is FillRule.WASTE:
                    for i in R.wastes:
                        if run_of[i] and allowed[i] and (held is None or piles[i][-1] & 15 in held):
                            add((i, j, 1))
                    continue
                if rule is FillRule.KINGS:
                    wanted = R.rank_codes[13]
                elif rule is FillRule.BASE_RANK:
                    wanted = R.rank_codes[base]
                elif rule is FillRule.BELOW_BASE:
                    wanted = R.rank_codes[_below(base)]
                else:
                    continue
            for c in wanted:
                at = runs.get(c)
                if at and (held is None or c & 15 in held):
                    for i, k in at:
                        if not allowed[i]:
                            continue
                        if rev[i]:
                            if k == 1:
                                top = run_of[i] if run_of[i] < kcap else kcap
                                if R.any_order[i]:
                                    top = self._reversed_fit(i, fits[j], top)
                                for kk in range(1, top + 1):
                                    add((i, j, kk))
                        elif k <= kcap and not (lim and limited[i] and k > lim):
                            add((i, j, k))
        return out

    def accepted_codes(self, j: int) -> Sequence[int] | None:
        """The face-down card codes pile index ``j`` could take next as a single card, read from the
        same tables as :meth:`generate_moves`: a collection of codes, ``None`` when an empty pile
        takes any card, or ``()`` when it takes none this way (a pile that takes only complete
        runs). Only a first cut, which may name too many cards but never too few:
        :meth:`drag_reason` has the last word on each drag."""
        R = self._rules
        q = self._piles[j]
        if R.chooser >= 0 and not self._base:
            return None if j in R.accept_to and not q else ()  # the start card: any card offered
        if R.complete_run[j]:
            return ()
        if q:
            return R.tables(self._base)[2][j][q[-1] & 63]
        rule = R.fill_static[j] or self._fill_rule(j)
        if rule is FillRule.ANY or rule is FillRule.WASTE:
            return None
        if rule is FillRule.KINGS:
            return R.rank_codes[13]
        if rule is FillRule.BASE_RANK:
            return R.rank_codes[self._base or R.fixed_base]
        if rule is FillRule.BELOW_BASE:
            return R.rank_codes[_below(self._base or R.fixed_base)]
        return ()

    _accepted_codes = accepted_codes  # the name tests/engine/test_solver.py checks it by

    def _move_limit(self) -> int:
        """(empty free cells + 1) * 2 ** (empty tableau piles): the longest run a limited pile may move
        onto a non-empty tableau pile; half of it into an empty one (freecell.scm ``movable-to-field?``).
        Under ``max="free-cells"`` (``limit_doubles`` false) empty tableau piles do not count: empty
        free cells + 1, onto any tableau pile (eight-off.scm, seahaven.scm ``button-pressed``)."""
        R = self._rules
        piles = self._piles
        free = sum(1 for i in R.freecells if not piles[i])
        if not R.limit_doubles:
            return free + 1
        empty = sum(1 for i in R.tableaux if not piles[i])
        return (free + 1) << empty

    def _complete_runs(self, i: int) -> bool:
        """True when pile ``i`` is one or more complete runs, one on another."""
        R = self._rules
        p = self._piles[i]
        n = R.suit_size
        size = len(p)
        return size > 0 and size % n == 0 and all(R.complete_at(p, end) for end in range(0, size, n))

    def _generate_choosing(self, double_clicks: bool) -> Iterator[Move]:
        R = self._rules
        c = R.chooser
        if self._piles[c] and self._piles[c][-1] & 63 != JOKER_CODE:
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
                if p and p[-1] & UP and not (R.chooser >= 0 and not self._base and i != R.chooser) \
                        and self._double_click_elsewhere(i, action) is not None:
                    yield Move.double_click(R.ids[i])
                continue
            if not to_foundation:
                continue
            if action is DoubleClick.AUTOPLAY:
                ok = any((t, 1) in to_foundation for t in R.wastes + R.freecells + R.tableaux + R.reserves)
            elif action is DoubleClick.RUN_TO_FOUNDATION:
                k = self._run_length(i, R.tables(self._base)[1])
                ok = (i, k) in to_foundation or (i, 1) in to_foundation
            else:
                ok = (i, 1) in to_foundation
            if ok:
                yield Move.double_click(R.ids[i])

    # -- drag checks -----------------------------------------------------------------------------

    def drag_reason(self, i: int, j: int, k: int) -> Reason | None:
        """Why dragging ``k`` cards from pile index ``i`` to pile index ``j`` is refused, as a
        :class:`~patiencebook.engine.errors.Reason`, or ``None`` when the drag is legal: what
        :meth:`reason` says of ``Move.drag(ids[i], ids[j], k)``, without building the move.

        Agrees with :meth:`generate_moves` by construction: both read the same tables.
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
            if p[-1] & 63 == JOKER_CODE:
                return Reason("start-card-target", "a joker cannot be the start card: click the stock to offer "
                              "the next card", pile=ids[i], target=ids[j])
            if q:
                return Reason("start-card-target", "the start card goes to an empty foundation",
                              pile=ids[i], target=ids[j])
            return None
        role_i = ROLE_WORDS[R.roles[i]]
        if R.roles[i] is Role.FOUNDATION and R.roles[j] is Role.FOUNDATION:
            return Reason("foundation-to-foundation", "a card on a foundation can only be moved back to the tableau",
                          pile=ids[i], target=ids[j])
        lift = R.lift[i]
        if lift == LIFT_NONE:
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
            if not c & UP:
                return Reason("face-down", f"{card_name(CARD_OF[c & 63])} in {ids[i]} is face down and cannot be "
                              "moved", card=str(CARD_OF[c & 63]), pile=ids[i])
        if k > 1 and lift == LIFT_TOP:
            return Reason("top-card-only", f"only the top card of the {role_i} can be moved", pile=ids[i])
        kept = self._base or R.fixed_base
        if R.keeps_base[i] and kept and p[-1] & 15 == kept:
            return Reason("base-stays", f"a card of the {R.base_word} ({RANK_NAMES[kept]}) never leaves "
                          f"the {role_i}", pile=ids[i], rank=Rank(kept).letter)
        if k > R.max_cards[i]:
            return Reason("too-many-cards", f"at most {R.max_cards[i]} cards of the {role_i} can be moved at once",
                          pile=ids[i], count=R.max_cards[i])
        fits, links, _ = R.tables(self._base)
        if k > 1 and self._run_length(i, links) < k:
            mv = R.groups[i].move
            text = (f"the {k} cards at the top of {ids[i]} are not a run: the {role_i} moves runs "
                    f"{DIRECTION_WORDS.get(mv.direction, '')} {MATCH_WORDS[mv.match or Match.RANK_ONLY]}")
            if mv.stop_at_base and self._base and any((c & 15) == self._base for c in p[-k:-1]):
                text += f", and no card of a run can lie on a card of the {R.base_word} ({RANK_NAMES[self._base]})"
            return Reason("not-a-run", text, pile=ids[i], count=k)
        if k > 1 and R.top_or_all[i] and self._run_length(i, links) > k:
            return Reason("top-or-all-face-up", f"only the top card of {ids[i]} or all its face-up cards together "
                          "can be moved", pile=ids[i])
        group = R.groups[j]
        role_j = ROLE_WORDS[R.roles[j]]
        if k > 1 and R.any_order[i] and R.reverse[i][j] and R.accepts_run[j] and fits[j] is not None \
                and self._reversed_fit(i, fits[j], k) < k:
            return Reason("not-a-run", f"the {k} cards at the top of {ids[i]} are not a run that can go to the "
                          f"{role_j} together: each must fit there on the one above it", pile=ids[i], count=k)
        if group.build is None:
            return Reason("no-build", f"no card can be placed on the {role_j}", target=ids[j])
        if group.build.neighbours and not R.allowed_from[j][i] and q:
            card, onto_card = CARD_OF[p[-1] & 63], CARD_OF[q[-1] & 63]
            return Reason("not-neighbours", f"{card_name(card)} and {card_name(onto_card)} are not next to each "
                          "other: a pair lies side by side, one above the other, or corner to corner",
                          card=str(card), onto=str(onto_card), pile=ids[i], target=ids[j])
        if R.complete_run[j]:
            if q:
                return Reason("no-build", f"no card can be placed on a {role_j} card", target=ids[j])
            if k != R.suit_size or not R.complete_at(p):
                return Reason("complete-run-only", f"an empty {role_j} takes only a complete run of "
                              f"{R.suit_size} cards, King to Ace in one suit", target=ids[j], count=R.suit_size)
            return None
        if R.limited[i] and R.roles[j] is Role.TABLEAU and k > 1:
            limit = self._move_limit()
            if not q and R.limit_doubles:
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
        card = CARD_OF[landing & 63]
        before = R.previous[j]
        if before >= 0 and not any((c & 15) == (landing & 15) for c in piles[before]):
            return Reason("rank-not-before", f"{ids[j]} takes only a card of a rank that {ids[before]} holds, not "
                          f"{card_name(card, 'a')}", target=ids[j], pile=ids[before], card=str(card))
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
            if rule is FillRule.BELOW_BASE or rule is FillRule.BASE_RANK:
                base = self._base or R.fixed_base
                wanted = _below(base) if rule is FillRule.BELOW_BASE else base
                if wanted and landing & 15 == wanted:
                    return None
                if not wanted:
                    return Reason("empty-takes-none", f"no card can be moved into an empty {role_j} pile before "
                                  f"the {R.base_word} is known", target=ids[j])
                which = (f"of rank {RANK_NAMES[wanted]}, one below the {R.base_word}" if rule is FillRule.BELOW_BASE
                         else f"of the {R.base_word} ({RANK_NAMES[wanted]})")
                return Reason("empty-takes-base", f"an empty {role_j} takes only a card {which}, not "
                              f"{card_name(card, 'a')}", target=ids[j], card=str(card), rank=Rank(wanted).letter)
            if rule is FillRule.WASTE:
                return None if R.roles[i] is Role.WASTE else Reason(
                    "empty-takes-waste", f"an empty {role_j} pile takes only the top card of the waste",
                    target=ids[j])
            if rule is FillRule.KINGS:
                return None if landing & 15 == 13 else Reason(
                    "empty-takes-king", f"an empty {role_j} pile takes only a King", target=ids[j], card=str(card))
            return Reason("empty-takes-none", f"no card can be moved into an empty {role_j} pile", target=ids[j])
        onto = q[-1]
        if fits[j][((onto & 63) << 6) | (landing & 63)]:
            return None
        onto_card = CARD_OF[onto & 63]
        build = group.build
        if build.stop_at_base and self._base and onto & 15 == self._base:
            return Reason("on-base-card", f"nothing can be placed on {card_name(onto_card)}: it is of the "
                          f"{R.base_word} ({RANK_NAMES[self._base]})", onto=str(onto_card), target=ids[j])
        if build.direction is Direction.NONE:
            return Reason("no-build", f"no card can be placed on a {role_j} card", target=ids[j])
        if build.closed_on is not None and onto & 15 == int(build.closed_on):
            return Reason("closed-on", f"nothing can be placed on {card_name(onto_card)}: the {role_j} takes "
                          f"nothing on a card of rank {RANK_NAMES[onto & 15]}", onto=str(onto_card), target=ids[j],
                          rank=Rank(onto & 15).letter)
        if build.direction is Direction.SAME:
            return Reason("not-a-pair", f"{card_name(card)} and {card_name(onto_card)} are not a pair: only two "
                          "cards of the same rank are removed together", card=str(card), onto=str(onto_card), target=ids[j])
        if build.direction is Direction.ANY:
            return Reason("does-not-match", f"{card_name(card, 'a')} cannot go on {card_name(onto_card)}: the "
                          f"{role_j} takes cards of any rank {MATCH_WORDS[build.match]}", card=str(card),
                          onto=str(onto_card), target=ids[j], match=build.match.value)
        how = f"the {role_j} builds {DIRECTION_WORDS[build.direction]} {MATCH_WORDS[build.match]}"
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
        if rest and not rest[-1] & UP and R.reveal[i] is Reveal.AUTO:
            rest = rest[:-1] + (rest[-1] | UP,)
        piles[i] = rest
        if R.pair_to[j] >= 0:
            # A pair leaves the table: the card lying there, then the one placed on it.
            f = R.pair_to[j]
            piles[f] = piles[f] + piles[j][-1:] + moving
            piles[j] = piles[j][:-1]
        else:
            piles[j] = piles[j] + moving
        base = self._base
        offers = self._offers
        if not base and R.chooser >= 0 and j in R.accept_to:
            base = moving[0] & 15
        elif not base and R.base_kind is Base.FIRST_CARD and R.roles[j] is Role.FOUNDATION:
            base = moving[0] & 15
        if R.autofill:
            self._autofill(piles)
        if R.autoplay is not None:
            _autoplay_low_cards(R, piles)
        points = self._points
        if R.under[i] and not rest:
            _uncover(R, piles, i)
        if R.running:
            points += _drag_points(R, piles, i, j)
        return Position._make(R, tuple(piles), base, self._redeals, offers, points)

    def _autofill(self, piles: list) -> None:
        R = self._rules
        for i, sources in R.autofill:
            if piles[i]:
                continue
            for s in sources:
                src = piles[s]
                if src:
                    rest = src[:-1]
                    if rest and not rest[-1] & UP and R.reveal[s] is Reveal.AUTO:
                        rest = rest[:-1] + (rest[-1] | UP,)
                    piles[s] = rest
                    piles[i] = (src[-1] | UP,)
                    break

    # -- stock, turning, double-clicks -----------------------------------------------------------

    def _stock_reason(self) -> Reason | None:
        """Why a click on the stock is refused, or ``None``; worked out once per position (it never
        changes) and kept."""
        reason = self._stock
        if reason is _UNKNOWN:
            reason = self._stock = self._find_stock_reason()
        return reason

    def _find_stock_reason(self) -> Reason | None:
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
        if policy.action is StockAction.CONSOLIDATE:
            # A click moves a card when a gap lies before a card, or a gap is left for the stock to fill.
            piles = self._piles
            gap = False
            for t in R.stock_targets:
                if not piles[t]:
                    gap = True
                elif gap:
                    return None
            if not (gap and stock):
                return Reason("nothing-to-close-up", "no card would move: the tableau has no gap before a card, and "
                              "the stock cannot fill an empty pile")
            return None
        if policy.action is StockAction.REDEAL_TABLEAU:
            if self.tableau_as_redealt():
                return Reason("redeal-changes-nothing", "the tableau already lies as a redeal would leave it: "
                              "move a card first")
            return None
        if R.stock_rest and len(stock) == 1:
            return Reason("stock-last-card", "the last card of the stock is played from there: drag it or "
                          "double-click it")
        if stock:
            if policy.requires is StockRequires.NO_EMPTY_PILE and not all(self._piles[t] for t in R.stock_targets):
                return Reason("fill-empty-first", "the stock deals only when no tableau pile is empty: "
                              "fill the empty piles first")
            if policy.requires is StockRequires.NO_KING_FOR_EMPTY_PILE and self._king_for_empty_pile():
                return Reason("king-for-empty-pile", "the stock does not deal while a tableau pile is empty and a "
                              "King could be moved into it: move the King first")
            return None
        if policy.action is StockAction.DEAL_TO_EACH:
            return Reason("stock-empty", "the stock is empty, and there is no redeal")
        if not self._piles[R.stock_targets[0]]:
            return Reason("stock-and-waste-empty", "the stock and the waste are both empty")
        if policy.redeals is not None and self._redeals >= policy.redeals:
            return Reason("no-redeal-left", f"the stock is empty and no redeal is left ({self._redeals} of "
                          f"{policy.redeals} redeals used)", count=policy.redeals)
        return None

    def _king_for_empty_pile(self) -> bool:
        """True when a pile the stock deals to is empty and a King could be moved into it
        (:class:`~patiencebook.engine.rules.StockRequires` ``no-king-for-empty-pile``): a King at the
        bottom of the longest liftable run of a target pile, with cards under it; never while the
        target piles hold fewer cards than there are piles."""
        R = self._rules
        targets = [self._piles[t] for t in R.stock_targets]
        if all(targets) or sum(len(p) for p in targets) < len(targets):
            return False
        links = R.tables(self._base)[1]
        for t in R.stock_targets:
            p = self._piles[t]
            n = self._run_length(t, links)
            if 0 < n < len(p) and p[-n] & 15 == 13:
                return True
        return False

    def _do_stock(self) -> "Position":
        R = self._rules
        piles = list(self._piles)
        s = R.stock
        stock = piles[s]
        if R.chooser >= 0 and not self._base:
            c = R.chooser
            if piles[c]:
                stock = (piles[c][-1] & 63,) + stock
            piles[c] = (stock[-1] | UP,)
            piles[s] = stock[:-1]
            return Position._make(R, tuple(piles), self._base, self._redeals, self._offers + 1)
        policy = R.stock_policy
        redeals = self._redeals
        if policy.action is StockAction.REDEAL_TABLEAU:
            for t, cards in zip(R.stock_targets, self._redealt_tableau()):
                piles[t] = cards
            return Position._make(R, tuple(piles), self._base, redeals, self._offers)
        if policy.action is StockAction.CONSOLIDATE:
            targets, dealt = self._consolidated()
            for t, cards in zip(R.stock_targets, targets):
                piles[t] = cards
            piles[s] = stock[:len(stock) - dealt]
            return Position._make(R, tuple(piles), self._base, redeals, self._offers, self._points)
        if policy.action is StockAction.DEAL_TO_EACH and R.stock_rest \
                and len(stock) <= len(R.stock_targets) * policy.cards:
            # The last cards go one by one to the rest pile, the next one turned up on the stock.
            w = R.stock_rest[0]
            piles[w] = piles[w] + (stock[-1] | UP,)
            stock = stock[:-1]
            piles[s] = stock[:-1] + (stock[-1] | UP,) if stock else stock
        elif policy.action is StockAction.DEAL_TO_EACH:
            for t in R.stock_targets:
                for _ in range(policy.cards):
                    if stock:
                        piles[t] = piles[t] + (stock[-1] | UP,)
                        stock = stock[:-1]
            piles[s] = stock
        elif stock:
            w = R.stock_targets[0]
            if R.discard >= 0:
                # The waste's cards go face down onto the discard pile, its top card first.
                piles[R.discard] = piles[R.discard] + tuple(c & 63 for c in reversed(piles[w]))
                piles[w] = ()
            n = min(policy.cards, len(stock))
            piles[w] = piles[w] + tuple(c | UP for c in reversed(stock[-n:]))
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
        points = self._points
        if R.running:
            points = max(points + R.scoring.per_stock_deal, 0) if R.scoring.per_stock_deal < 0 else \
                points + R.scoring.per_stock_deal
        return Position._make(R, tuple(piles), self._base, redeals, self._offers, points)

    def _consolidated(self) -> tuple[list[tuple[int, ...]], int]:
        """The piles of a ``consolidate`` stock's target group after a click, and the number of
        cards the stock deals: their cards closed up towards the first pile in pile order, then one
        card face up from the stock to each empty pile from the first while the stock lasts
        (monte-carlo.scm ``move-cards-up`` and ``deal-the-empties``)."""
        R = self._rules
        cards = [c for t in R.stock_targets for c in self._piles[t]]
        stock = self._piles[R.stock]
        n = len(R.stock_targets)
        dealt = min(len(stock), n - len(cards))
        cards += [c | UP for c in reversed(stock[len(stock) - dealt:])]
        return [(cards[k],) if k < len(cards) else () for k in range(n)], dealt

    def _redealt_tableau(self) -> list[tuple[int, ...]]:
        """The piles of a ``redeal-tableau`` stock's target group after a redeal: their cards
        gathered, first pile first and each bottom to top, then dealt face up ``cards`` to a pile,
        pile by pile from the first (cruel.scm ``do-deal-next-cards``)."""
        R = self._rules
        n = R.stock_policy.cards
        gathered = [c | UP for t in R.stock_targets for c in self._piles[t]]
        return [tuple(gathered[k * n:(k + 1) * n]) for k in range(len(R.stock_targets))]

    def tableau_as_redealt(self) -> bool:
        """True when a ``redeal-tableau`` stock's piles already lie as a redeal would leave them
        (right after the deal or a redeal), so that a click on the stock would change nothing;
        False for a game without such a stock."""
        R = self._rules
        policy = R.stock_policy
        if policy is None or policy.action is not StockAction.REDEAL_TABLEAU:
            return False
        return self._redealt_tableau() == [self._piles[t] for t in R.stock_targets]

    def _flip_reason(self, i: int) -> str | None:
        R = self._rules
        p = self._piles[i]
        if R.reveal[i] is not Reveal.CLICK:
            return Reason("no-flip", f"cards of the {ROLE_WORDS[R.roles[i]]} are not turned by a click",
                          pile=R.ids[i])
        if not p:
            return Reason("pile-empty", f"{R.ids[i]} is empty", pile=R.ids[i])
        if p[-1] & UP:
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
        at the top, when its top card fits a foundation. ``autoplay``: every top card of the waste,
        the free cells, the tableau and the reserve that fits a foundation, scanning them in that
        order, each from the left, again after each card, until none fits (seahaven.scm
        ``autoplay-foundations`` scans the free cells, then the tableau; giant.scm the tableau, then
        the reserve).
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
                for t in R.wastes + R.freecells + R.tableaux + R.reserves:
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
        if not p[-1] & UP:
            raise IllegalMove(Reason("face-down", f"the top card of {pile_id} is face down",
                                     card=str(CARD_OF[p[-1] & 63]), pile=pile_id))
        if action in _DOUBLE_CLICKS_ELSEWHERE:
            move = self._double_click_elsewhere(i, action)
            if move is None:
                raise IllegalMove(Reason("double-click-no-place", f"{card_name(CARD_OF[p[-1] & 63])} has no "
                                         f"place to go", card=str(CARD_OF[p[-1] & 63]), pile=pile_id))
            return [move]
        k = 1
        if action is DoubleClick.RUN_TO_FOUNDATION:
            k = self._run_length(i, R.tables(self._base)[1])
        move = self._to_foundation(i, k)
        if move is None and k > 1:
            move = self._to_foundation(i, 1)
        if move is None:
            raise IllegalMove(Reason("fits-no-foundation", f"{card_name(CARD_OF[p[-1] & 63])} fits on no foundation",
                                     card=str(CARD_OF[p[-1] & 63]), pile=pile_id))
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
        for n, m in enumerate(self.generate_moves()):
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
                elif len(p) > k and not p[-k - 1] & UP:
                    score = 90
                elif len(p) == k and R.autofill and any(i == a for a, _ in R.autofill) and \
                        any(self._piles[s] for s in dict(R.autofill)[i]):
                    score = 80
                elif q:
                    score = 50 if len(p) > k else 45
                    links = R.tables(self._base)[1]
                    under = p[-k - 1] if len(p) > k else 0
                    if under & UP and links[i] is not None and links[i][((under & 63) << 6) | (p[-k] & 63)]:
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


# -- the opening deal -----------------------------------------------------------------------------

def _deal_picks(ruleset: Ruleset, codes: list[int]) -> list[int]:
    """``codes`` put in the order the deal steps take them, for a deal with a step of one rank or a
    step from the bottom of the deck: each step's cards in turn, then the cards left for the stock.

    A step of one ``rank`` takes the first cards of that rank still in the deck, in the order they
    lie; a step from the ``bottom`` takes the last cards first; any other step the first cards left
    (cruel.scm ``remove-aces``: the Aces go out in the order of the deck, the rest is dealt from
    its end).
    """
    left = list(codes)
    out: list[int] = []
    for step in ruleset.deal:
        n = step.total(ruleset.pile(step.pile).count)
        if step.rank is not None:
            ranked = [c for c in left if c & 15 == int(step.rank)][:n]
            for c in ranked:
                left.remove(c)
            taken = ranked
        elif step.source is DealFrom.BOTTOM:
            taken = left[::-1][:n]
            del left[len(left) - n:]
        else:
            taken = left[:n]
            del left[:n]
        out.extend(taken)
    return out + left


# -- automatic moves ------------------------------------------------------------------------------

def _uncover(R: CompiledRules, piles: list, i: int) -> None:
    """Turn face up the top card of each pile that pile ``i``, now empty, lay over, once no pile
    lies over it any more and its reveal is ``auto`` (in place; triple-peaks.scm ``check-for-flips``)."""
    for u in R.under[i]:
        p = piles[u]
        if p and not p[-1] & UP and R.reveal[u] is Reveal.AUTO and not any(piles[o] for o in R.over[u]):
            piles[u] = p[:-1] + (p[-1] | UP,)


def _drag_points(R: CompiledRules, piles: list, i: int, j: int) -> int:
    """The running points of a drag from pile ``i`` to pile ``j``, ``piles`` as it leaves them:
    ``per_run_card`` for each card now on the waste's first card, and the bonus of a peak emptied
    (``last_peak`` when no tableau card is left, else ``per_peak``); see
    :class:`~patiencebook.engine.rules.Scoring`."""
    sc = R.scoring
    points = 0
    if sc.per_run_card and R.roles[j] is Role.WASTE:
        points += sc.per_run_card * (len(piles[j]) - 1)
    if i in R.peaks and not piles[i]:
        points += sc.last_peak if not any(piles[t] for t in R.tableaux) else sc.per_peak
    return points


def _below(base: int) -> int:
    """The rank one below ``base`` (1 Ace .. 13 King), a King below the Ace; 0 while ``base`` is 0."""
    return 0 if not base else 13 if base == 1 else base - 1


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


def _autoplay_low_cards(R: CompiledRules, piles: list) -> None:
    """Move cards to the foundations by the ``low-cards`` rule until none qualifies (in place).

    A face-up top card of a pile other than a foundation goes up when it fits and its rank is at
    most 2 above the lowest foundation of the other colour and at most 3 above the lowest of its own
    colour, each suit counting the rank on top of its foundation (0 when it has none). Piles are
    scanned in layout order, from the first again after each card; the card goes to the foundation
    of its suit, an Ace to the first empty one (freecell.scm ``move-low-cards``, ``homecell-by-suit``).
    Under the ``all-cards`` rule the rank is not looked at: every top card that fits goes.
    """
    every_card = R.autoplay is AutoRule.ALL_CARDS
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
            if not p or not p[-1] & UP:
                continue
            c = p[-1] & 63
            rank, suit = c & 15, c >> 4
            if not rank:
                continue
            if every_card:
                pass
            elif suit in (1, 2):
                if not (rank <= 2 + black and rank <= 3 + red):
                    continue
            elif not (rank <= 2 + red and rank <= 3 + black):
                continue
            target = empty if rank == 1 else home[suit] if high[suit] == rank - 1 else -1
            if target < 0:
                continue
            rest = p[:-1]
            if rest and not rest[-1] & UP and R.reveal[i] is Reveal.AUTO:
                rest = rest[:-1] + (rest[-1] | UP,)
            piles[i] = rest
            piles[target] = piles[target] + (c | UP,)
            moved = True
            break
