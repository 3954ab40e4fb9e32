"""The checks of a position from outside (text, JSON, code): whether the rules of its game can
produce it at all, so that untrusted input never becomes a position play cannot reach.

:meth:`Position.validate <patiencebook.engine.position.Position.validate>` runs :func:`validate` and
lists what is checked; :func:`deck_fault` also serves the readers of the notation. Works on the
compiled rules and card codes of :mod:`~patiencebook.engine.tables`.
"""

from __future__ import annotations

from typing import Sequence

from .cards import Card, Rank
from .errors import PositionError
from .rules import Accepts, Base, Direction, Face, FillRule, Match, MoveUnit, Reveal, Role, Ruleset, StockAction
from .tables import CARD_OF, JOKER_CODE, UP, CompiledRules, memo
from .words import DIRECTION_WORDS, MATCH_WORDS, RANK_NAMES, ROLE_WORDS, card_name

__all__ = ["deck_fault", "validate"]

Piles = tuple[tuple[int, ...], ...]


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


def validate(R: CompiledRules, piles: Piles, base: int, redeals: int, offers: int) -> None:
    """Check that the rules ``R`` can produce a position with ``piles`` (card codes, bottom to top,
    in layout order), base rank ``base`` (0: not known), ``redeals`` and ``offers`` used.

    The checks are those listed at :meth:`Position.validate
    <patiencebook.engine.position.Position.validate>`. Raises
    :class:`~patiencebook.engine.errors.PositionError` for the first fault found; its ``where``
    names the pile id or state key at fault.
    """
    L = _limits(R)
    fault = deck_fault(R.ruleset, [CARD_OF[c & 63] for p in piles for c in p])
    if fault:
        raise PositionError(fault)
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
            raise PositionError(f"{pid} holds {len(p)} cards, but a {ROLE_WORDS[role]} pile holds at most {cap}",
                                pid)
        if i == R.stock or i == R.discard:
            # A stock with a rest pile turns its top card up after each click of its last cards.
            down = [c for c in (p[:-1] if i == R.stock and R.stock_rest else p) if c & UP]
            if down:
                raise PositionError(f"{pid}: {CARD_OF[down[0] & 63]} lies face up, but the cards of the "
                                    f"{'stock' if i == R.stock else 'discard pile'} always lie face down", pid)
            continue
        _check_faces(R, L, i, p)
        if R.over[i] and p:
            _check_covered(R, piles, i)
        if R.complete_run[i]:
            if p and (len(p) != R.suit_size or not R.complete_at(p)):
                raise PositionError(f"{pid} holds {len(p)} cards that are not one complete run: a "
                                    f"{ROLE_WORDS[role]} here takes only a whole suit, King to Ace", pid)
        elif role is Role.FOUNDATION and L.sequenced[i]:
            _check_foundation(R, i, p, base, L.dealt[i])
        elif L.built[i]:
            _check_sequence(R, i, p, base)
    _check_counters(R, L, piles, base, redeals, offers)


def _check_counters(R: CompiledRules, L: "_Limits", piles: Piles, base: int, redeals: int, offers: int) -> None:
    stock = R.stock_policy
    redeal_limit = stock.redeals if stock is not None and stock.action is StockAction.DEAL_TO_WASTE else 0
    if redeal_limit is not None and redeals > redeal_limit:
        raise PositionError(f"{redeals} redeal{'s' if redeals != 1 else ''} used, but {R.game} allows "
                            f"{redeal_limit or 'no'} redeal{'s' if redeal_limit != 1 else ''}", "redeals")
    chooser = R.chooser_policy
    offer_limit = chooser.offers if chooser is not None else 0
    if offers > offer_limit:
        raise PositionError(f"{offers} chooser offer{'s' if offers != 1 else ''} used, but {R.game} "
                            + (f"offers at most {offer_limit} cards" if offer_limit else "has no chooser"),
                            "offers")
    if not base and R.base_kind is Base.BASE_CARD and any(piles[i] for i in R.foundations) and not all(
            c & 63 == JOKER_CODE for i in R.foundations for c in piles[i]):
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
            if bool(piles[c]) != (offers > 0):
                raise PositionError(f"{offers} offers used, but the {cid} "
                                    + ("holds a card" if piles[c] else "is empty")
                                    + ": each offer turns a card into it", "offers")
        else:
            if piles[c]:
                raise PositionError(f"the start card is chosen (base {Rank(base).letter}), so the {cid} is empty; "
                                    f"it holds {len(piles[c])} card{'s' if len(piles[c]) != 1 else ''}", cid)
            if offers < 1:
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
                                f"{ROLE_WORDS[R.roles[i]]} pile is refilled from it at once", R.ids[i])


def _check_covered(R: CompiledRules, piles: Piles, i: int) -> None:
    """A pile with piles over it shows its top card face up exactly when those piles are empty
    (when its reveal is ``auto``; else it may stay face down)."""
    pid = R.ids[i]
    top = piles[i][-1]
    over = [R.ids[o] for o in R.over[i] if piles[o]]
    if over and top & UP:
        raise PositionError(f"{pid}: {CARD_OF[top & 63]} lies face up, but {' and '.join(over)} still "
                            f"lie{'s' if len(over) == 1 else ''} over it", pid)
    if not over and not top & UP and R.reveal[i] is Reveal.AUTO:
        raise PositionError(f"{pid}: {CARD_OF[top & 63]} lies face down, but no pile lies over it any more, "
                            "and an uncovered card is turned face up at once", pid)


class _Limits:
    """What the rules imply about the piles of a ruleset, worked out once for :func:`validate`.

    ``dealt[i]``: the faces the deal gives pile ``i``, bottom to top; ``receives[i]``: whether any
    action ever adds a card to it; ``sequenced[i]``: whether a foundation's cards must form its
    build sequence from the base rank; ``stock_counts``: the stock sizes a deal-to-each stock can
    have; ``closed``: piles that pass cards only among themselves, and the most they can hold;
    ``refilled``: piles refilled at once from other piles, which the deal does not leave empty.
    """

    def __init__(self, R: CompiledRules):
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
        self.receives = [R.groups[i].build is not None or i in R.stock_targets or i in R.stock_rest
                         or i in (R.stock, R.chooser, R.discard) or fill_auto[i] for i in range(n)]
        stock_dealt = R.stock >= 0 and self.dealt_count[R.stock] > 0
        # A foundation's cards form its build sequence when nothing but moves put them there (the
        # deal gives it no card, or the one base card) and every run landing on it lands in order.
        first_dealt = next((i for i in R.foundations if self.dealt_count[i]), None)
        self.sequenced = [False] * n
        for j in R.foundations:
            build = R.groups[j].build
            if self.dealt_count[j] > 1 or (self.dealt_count[j] == 1 and j != first_dealt) or j in R.stock_targets \
                    or j in R.pair_to:  # pairs lie there as they were made, not built
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
            if R.stock_rest:  # then one card at a time, the last one played from the stock
                counts.update(range(left + 1))
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
    if move.unit is MoveUnit.FACE_UP:  # lifted in whatever order the cards lie; reversed, checked card by card
        return reverse
    if move.unit is MoveUnit.TOP_OR_FACE_UP:  # lifted in whatever order the cards lie
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


_LIMITS: dict[int, tuple[CompiledRules, _Limits]] = {}


def _limits(R: CompiledRules) -> _Limits:
    return memo(_LIMITS, R, _Limits)


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


def _check_faces(R: CompiledRules, L: _Limits, i: int, p: tuple) -> None:
    pid = R.ids[i]
    role = ROLE_WORDS[R.roles[i]]
    dealt = L.dealt[i]
    if not L.receives[i] and len(p) > len(dealt):
        raise PositionError(f"{pid} holds {len(p)} cards, but no card is ever added to a {role} pile: "
                            f"the deal gives it {len(dealt)}", pid)
    faces = [bool(c & UP) for c in p]
    if _faces_fit(faces, dealt, L.receives[i], R.reveal[i]):
        return
    down = next(c for c in p if not c & UP) if not all(faces) else None
    if all(dealt) and down is not None:
        raise PositionError(f"{pid}: {CARD_OF[down & 63]} lies face down, but no rule of {R.game} leaves a "
                            f"face-down card on a {role} pile", pid)
    pattern = " ".join("up" if up else "#" for up in dealt)
    turned = {Reveal.AUTO: "a face-down card is turned face up once uncovered",
              Reveal.NEVER: "no card here is ever turned",
              Reveal.CLICK: "only the top card can be turned"}[R.reveal[i]]
    raise PositionError(f"{pid}: the face-down cards are not where the rules can leave them: the deal lays "
                        f"{pattern} here (bottom to top, # = face down), cards added later lie face up, and "
                        f"{turned}", pid)


def _check_foundation(R: CompiledRules, i: int, p: tuple, base: int, dealt: tuple) -> None:
    if not p:
        return
    pid = R.ids[i]
    group = R.groups[i]
    kind = R.base_kind
    start = base or (1 if kind is Base.ACE else 13 if kind is Base.KING else 0)
    bottom = p[0] & 63
    rule = group.fill.rule
    if bottom == JOKER_CODE:
        if not dealt and rule is not FillRule.ANY:
            raise PositionError(f"{pid}: a joker lies at the bottom, but an empty foundation takes only a card of "
                                f"the {R.base_word}", pid)
    elif rule is FillRule.BASE_RANK:
        if not start:
            raise PositionError(f"{pid} holds cards, but the {R.base_word} is not known ('base: -')", "base")
        if bottom & 15 != start:
            raise PositionError(f"{pid} starts with {card_name(CARD_OF[bottom])}, but a foundation starts with a "
                                f"card of the {R.base_word} ({RANK_NAMES[start]})", pid)
    _check_sequence(R, i, p, start)


def _check_sequence(R: CompiledRules, i: int, p: tuple, base: int) -> None:
    """Every card of pile ``i`` fits the one below it under the pile's build (base rank ``base``)."""
    build = R.groups[i].build
    rank = Rank(base) if base else None
    for lower, upper in zip(p, p[1:]):
        a, b = CARD_OF[lower & 63], CARD_OF[upper & 63]
        if not build.allows(a, b, rank):
            pid = R.ids[i]
            raise PositionError(f"{pid}: {card_name(b)} cannot lie on {card_name(a)}: the "
                                f"{ROLE_WORDS[R.roles[i]]} builds {DIRECTION_WORDS.get(build.direction, 'nothing')} "
                                f"{MATCH_WORDS[build.match]}", pid)
