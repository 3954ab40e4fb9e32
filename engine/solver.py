"""A thoughtful solver: whether a deal can be won when every card is known, by search over the
engine's own moves.

Two searches share a budget of positions: best first (the open position that looks nearest to a
win, by cards still to go, face-down cards, cards out of order, cards lying on the next card a
foundation wants and occupied free cells, is expanded next), then depth first in the order of the
engine's hints (:meth:`Position.hints`). Both use a transposition table (a position met again by
another path is not searched again; piles that play alike count as a set) and safe automatic
foundation moves: a card goes to its foundation at once when no card that could still be built on
it in any pile is left out of the foundations, since such a move can never be wrong. Where redeals
are limited, a position met again with no fewer redeals used is not searched again either. A stock that
turns cards onto a waste is searched as runs of clicks, each ending in a move that takes a card
from the waste or puts one on it. The answer is ``solved`` (with the moves), ``unsolvable`` (one
search went through every reachable position) or ``unknown`` (the budget ran out).

"Thoughtful" is the term of the patience literature for play with all cards face up: the
engine's positions hold every card, face-down ones included, and the search may use them.
Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

import heapq
from typing import Iterator

from .moves import Move, MoveKind
from .position import Position
from .rules import Direction, FillRule, Match, Role, StockAction, Won
from .tables import CARD_OF, LIFT_NONE, UP, card_code

__all__ = ["SOLVED", "UNSOLVABLE", "UNKNOWN", "DEFAULT_BUDGET", "SolveResult", "solve"]

SOLVED = "solved"
UNSOLVABLE = "unsolvable"
UNKNOWN = "unknown"
# More redeals than any position has used.
_NEVER = 1 << 30
#: Positions searched per deal unless told otherwise.
DEFAULT_BUDGET = 200_000


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What the search found for one position.

    Attributes:
        status: :data:`SOLVED`, :data:`UNSOLVABLE` or :data:`UNKNOWN`.
        nodes: positions searched (each counted once, the automatic moves included).
        moves: for a solved deal, the moves from the start to a won position, the automatic
            foundation moves among them (every one legal for :meth:`Position.apply`); else ``()``.
    """

    status: str
    nodes: int
    moves: tuple[Move, ...] = ()


def solve(position: Position, budget: int = DEFAULT_BUDGET) -> SolveResult:
    """Search for a win from ``position`` (see the module's description).

    Two searches share the budget: best first (the open position that looks nearest to a win goes
    next) with half of it, then, if that neither won nor searched everything, depth first in the
    order of the engine's hints with the rest. Either one searching every reachable position
    proves the deal unsolvable.

    ``budget`` is the most positions searched (at least 1). Raises ``ValueError`` for a budget
    below 1.
    """
    if budget < 1:
        raise ValueError(f"the budget is at least one position, not {budget}")
    search = _Search(position)
    first = search.best_first(max(1, budget // 2))
    if first.status != UNKNOWN or budget - first.nodes < 1:
        return first
    second = search.depth_first(budget - first.nodes)
    return SolveResult(second.status, first.nodes + second.nodes, second.moves)


class _Search:
    """The two searches over one deal, sharing the rules-derived helpers."""

    def __init__(self, position: Position):
        self.safe = _SafeMoves(position)
        self.key = _Keys(position)
        self.options = _Options(position, self.key, self.safe)
        self.start, self.forced = self.safe.advance(position)
        self.distance = _Distance(self.start)

    def _reach(self, reached: Position, seen: dict) -> tuple[Position, list[Move]] | None:
        """``reached`` after its safe foundation moves, and those moves; ``None`` when ``seen`` (the
        transposition table: key to the fewest redeals used) has met it already. Records it."""
        after, auto = self.safe.advance(reached)
        k, used = self.key(after), self.key.used(after)
        if seen.get(k, _NEVER) <= used:
            return None
        seen[k] = used
        return after, auto

    def best_first(self, budget: int) -> SolveResult:
        """Expand the open position nearest to a win (by :class:`_Distance`) first."""
        key, options, start = self.key, self.options, self.start
        if start.is_won():
            return SolveResult(SOLVED, 1, tuple(self.forced))
        seen = {key(start): key.used(start)}
        # Each entry keeps its parent entry and the moves from there, to give the moves of a win.
        counter = 0
        frontier = [(self.distance(start), 0, start, None, tuple(self.forced))]
        nodes = 1
        if nodes >= budget:
            return SolveResult(UNKNOWN, nodes)
        while frontier:
            _, _, here, parent, led = heapq.heappop(frontier)
            if parent is not None and here.is_lost():
                continue  # tested here, not when reached: most positions reached are never expanded
            entry = (parent, led)
            for moves, reached in options(here):
                new = self._reach(reached, seen)
                if new is None:
                    continue
                after, auto = new
                nodes += 1
                if after.is_won():
                    path = list(moves) + auto
                    chain = entry
                    while chain is not None:
                        path[:0] = chain[1]
                        chain = chain[0]
                    return SolveResult(SOLVED, nodes, tuple(path))
                if nodes >= budget:
                    return SolveResult(UNKNOWN, nodes)
                counter += 1
                heapq.heappush(frontier, (self.distance(after), -counter, after, entry, tuple(moves) + tuple(auto)))
        return SolveResult(UNSOLVABLE, nodes)

    def depth_first(self, budget: int) -> SolveResult:
        """Try the engine's hints in order, going as deep as the first one leads, then back."""
        key, options, start = self.key, self.options, self.start
        if start.is_won():
            return SolveResult(SOLVED, 1, tuple(self.forced))
        seen = {key(start): key.used(start)}
        # Each frame: (the options left to try at its position, the moves that led there from the parent)
        stack = [(options(start), self.forced)]
        nodes = 1
        if nodes >= budget:
            return SolveResult(UNKNOWN, nodes)
        while stack:
            untried, _ = stack[-1]
            option = next(untried, None)
            if option is None:
                stack.pop()
                continue
            moves, reached = option
            new = self._reach(reached, seen)
            if new is None:
                continue
            after, auto = new
            nodes += 1
            path = moves + auto
            if after.is_won():
                return SolveResult(SOLVED, nodes, tuple(m for _, led in stack for m in led) + tuple(path))
            if nodes >= budget:
                return SolveResult(UNKNOWN, nodes)
            if not after.is_lost():
                stack.append((options(after), path))
        return SolveResult(UNSOLVABLE, nodes)


class _Options:
    """The ways on from a position, best first by the engine's hints: each is the moves made and the
    position they reach.

    A stock that turns cards onto a waste is not searched click by click: a click only matters for
    the move it makes possible, so in its place come, for each number of clicks in a row, the moves
    then possible that take a card from the waste or put one on it (every other move does not
    depend on the stock and can be made before the clicks, so nothing is lost). The stock is
    clicked until it has gone round once more than it can (a position seen again ends the run), or,
    where each click turns one card, until the card turned up can go to a foundation safely
    (:class:`_SafeMoves`): clicking past it cannot do better than playing it, since the next pass
    turns the other cards up in the same order without it. (Where a click turns several cards,
    playing one changes which cards the next passes turn up, so the run goes on.)
    """

    def __init__(self, position: Position, key: "_Keys", safe: "_SafeMoves"):
        ruleset = position.ruleset
        stock = ruleset.stock
        self.key = key
        self.safe = safe
        self.foundations = frozenset(position.compiled_rules.foundations)
        # Only a stock turning one card at a time ends a run of clicks at a safe waste card.
        self.stops_at_safe = stock is not None and stock.cards == 1
        self.waste = stock.target if stock is not None and stock.action is StockAction.DEAL_TO_WASTE else None
        self.click = Move.stock()

    def __call__(self, here: Position) -> Iterator[tuple[list[Move], Position]]:
        for move in here.hints():
            if move.kind is MoveKind.STOCK and self.waste is not None:
                yield from self._clicked(here)
            else:
                yield [move], here.apply_generated(move)

    def _clicked(self, here: Position) -> Iterator[tuple[list[Move], Position]]:
        waste = self.waste
        clicks: list[Move] = []
        met = {self.key(here)}
        while here.is_legal(self.click):
            here = here.apply(self.click)
            clicks.append(self.click)
            k = self.key(here)
            if k in met:
                return
            met.add(k)
            stop = False
            index = here.compiled_rules.index
            for move in here.hints():
                if move.kind is MoveKind.DRAG and waste in (move.source, move.target):
                    yield clicks + [move], here.apply_generated(move)
                    if self.stops_at_safe and move.source == waste \
                            and index[move.target or ""] in self.foundations and self.safe.is_safe(here, index[waste]):
                        stop = True
            if stop:
                return


class _Distance:
    """How far a position looks from a win, as a whole number (smaller is nearer), from its rules:
    cards still to go (to the foundations, off the tableau, or score still to make), face-down
    cards, cards lying out of order in a tableau pile (by the pile's run rule, or its build rule
    when it lifts single cards), cards lying above a lower card of their pile (they must move
    before it goes up), occupied free cells, and, where foundations build up in suit from a fixed
    base rank, the cards lying on the next card each foundation wants (the nearest copy of it)."""

    def __init__(self, position: Position):
        R = position.compiled_rules
        self.R = R
        self.max_score = position.ruleset.scoring.maximum
        self.won = R.won
        self.down_piles = tuple(i for i in range(len(R.ids)) if i != R.stock)
        self.tableaux = R.tableaux
        self.freecells = R.freecells
        self.upward = self.won is Won.ALL_ON_FOUNDATIONS and R.fixed_base == 1
        groups = position.ruleset.piles_with_role(Role.FOUNDATION)
        # Foundations that build up in suit from a fixed base rank: each wants one known card next.
        # (Measured: with a base rank chosen in play, as in Agnes, this finds fewer wins.)
        self.wanting = R.foundations if self.won is Won.ALL_ON_FOUNDATIONS and R.fixed_base and groups and all(
            g.build is not None and g.build.direction is Direction.UP and g.build.match is Match.SAME_SUIT
            for g in groups) else ()
        self.others = tuple(i for i in range(len(R.ids)) if R.roles[i] is not Role.FOUNDATION)
        self.ranks = R.suit_size

    def __call__(self, position: Position) -> int:
        R = self.R
        piles = position.pile_codes
        if self.won is Won.ALL_ON_FOUNDATIONS:
            togo = R.deck_size - sum(len(piles[i]) for i in R.foundations)
        elif self.won is Won.TABLEAU_EMPTY:
            togo = sum(len(piles[i]) for i in self.tableaux)
        else:
            togo = self.max_score - position.score
        down = 0
        for i in self.down_piles:
            for c in piles[i]:
                if not c & UP:
                    down += 1
        fits, links, _ = R.tables(position.base_code)
        disorder = 0
        blocking = 0
        for i in self.tableaux:
            p = piles[i]
            order = links[i] if links[i] is not None else fits[i]
            if order is not None:
                for lower, upper in zip(p, p[1:]):
                    if lower & UP and not order[((lower & 63) << 6) | (upper & 63)]:
                        disorder += 1
            if self.upward and p:
                # Cards above the lowest card of the pile, which goes up before them.
                low = min(range(len(p)), key=lambda n: (p[n] & 15) or 99)
                blocking += len(p) - 1 - low
        held = sum(1 for i in self.freecells if piles[i])
        wanted = self._covering(position) if self.wanting else 0
        return 4 * togo + 2 * down + disorder + blocking + held + wanted

    def _covering(self, position: Position) -> int:
        """How many cards lie on the next card each foundation wants (of two copies, the one
        nearer the top); an empty foundation wants the nearest base card of any suit."""
        piles = position.pile_codes
        depth: dict[int, int] = {}
        for i in self.others:
            p = piles[i]
            top = len(p) - 1
            for n, c in enumerate(p):
                c &= 63
                d = top - n
                if d < depth.get(c, 99):
                    depth[c] = d
        base = self.R.fixed_base
        ranks = self.ranks
        total = 0
        for f in self.wanting:
            q = piles[f]
            if not q:
                nearest = min(depth.get((s << 4) | base, 99) for s in range(4))
                total += 0 if nearest == 99 else nearest
            elif len(q) < ranks:
                top = q[-1] & 63
                rank = (top & 15) % ranks + 1
                total += depth.get((top & 48) | rank, 0)
        return total


class _Keys:
    """The transposition table's key of a position: piles of one group that play alike (same
    rules, and no stock that deals to them one by one while it holds cards) are taken as a set,
    so positions that differ only in the order of such piles are searched once. Of a pile no card
    ever leaves (a foundation that gives nothing back, Golf's waste) only the top card counts: the
    cards under it are the cards missing elsewhere, and the rules only look at the top one (not so
    where a pile takes only the ranks the one before it holds: Osmosis)."""

    def __init__(self, position: Position):
        ruleset = position.ruleset
        rules = position.compiled_rules
        dealt_to = ruleset.stock.target if ruleset.stock is not None and \
            ruleset.stock.action is StockAction.DEAL_TO_EACH else None
        self.stock = rules.index[ruleset.stock.pile] if ruleset.stock is not None else -1
        # Piles that lie over one another, in a grid, or in an order the rules look at (a stock that
        # closes them up, a pile taking only ranks the one before it holds) keep their places: they
        # are not interchangeable.
        closed_up = ruleset.stock.target if ruleset.stock is not None and \
            ruleset.stock.action is StockAction.CONSOLIDATE else None
        placed = {g.id for g in ruleset.piles
                  if g.covered_by or g.columns or g.id == closed_up
                  or (g.build is not None and g.build.previous_holds_rank)}
        self.fixed = tuple(i for g in ruleset.piles for i in rules.group_piles[g.id]
                           if g.count == 1 or g.id == dealt_to or g.id in placed)
        self.free = tuple(rules.group_piles[g.id] for g in ruleset.piles
                          if g.count > 1 and g.id != dealt_to and g.id not in placed)
        self.dealt = rules.group_piles[dealt_to] if dealt_to else ()
        # With no limit on redeals, how many were used changes nothing.
        self.count_redeals = ruleset.stock is not None and ruleset.stock.redeals is not None
        stock = ruleset.stock
        turned_back = rules.index[stock.target] if stock is not None and stock.target in rules.index and \
            stock.action is StockAction.DEAL_TO_WASTE and stock.redeals != 0 else -1
        # ... unless another pile takes only the ranks it holds (Osmosis's foundations).
        ranked = {b for b in rules.previous if b >= 0}
        self.kept = tuple(i for i in range(len(rules.ids))
                          if rules.lift[i] == LIFT_NONE and i != self.stock and i != turned_back
                          and rules.roles[i] is not Role.CHOOSER and i not in ranked)

    def __call__(self, position: Position) -> tuple:
        piles = position.pile_codes
        if self.kept:
            piles = list(piles)
            for i in self.kept:
                piles[i] = piles[i][-1:]
        fixed = tuple([piles[i] for i in self.fixed])
        groups = tuple([tuple(sorted([piles[i] for i in group])) for group in self.free])
        if self.dealt and self.stock >= 0 and not piles[self.stock]:
            groups += (tuple(sorted(piles[i] for i in self.dealt)),)  # nothing more is dealt to them
            fixed = tuple(piles[i] for i in self.fixed if i not in self.dealt)
        return fixed, groups, position.base_code, position.offers_used

    def used(self, position: Position) -> int:
        """The redeals ``position`` has used, where they are limited (else 0). It is kept beside the
        key, not in it: of two positions alike but for the redeals used, the one with fewer can do
        all the other can, so the other need not be searched."""
        return position.redeals_used if self.count_redeals else 0


class _SafeMoves:
    """Finds the foundation moves that cannot spoil a win, from the rules of the position's game.

    A card ``c`` may go up at once when every card that some pile could still take on top of
    ``c`` (one rank away as the pile builds, of a suit the pile's match allows) already lies on a
    foundation. Rule source: the game's rules block (build direction, match, wrap of each group).
    """

    def __init__(self, position: Position):
        ruleset = position.ruleset
        self.builds = [g.build for g in ruleset.piles
                       if g.role is not Role.FOUNDATION and g.build is not None
                       and g.build.direction is not Direction.NONE]
        self.foundations = [pid for pid in position.pile_ids if position.role(pid) is Role.FOUNDATION]
        self.sources = [(i, pid) for i, pid in enumerate(position.pile_ids) if position.role(pid) is not Role.FOUNDATION]
        self.foundation_index = [i for i, pid in enumerate(position.pile_ids) if position.role(pid) is Role.FOUNDATION]
        self.source_index = [i for i, _ in self.sources]
        groups = ruleset.piles_with_role(Role.FOUNDATION)
        self.bases_go_up = bool(groups) and all(g.fill.rule is FillRule.BASE_RANK for g in groups) and \
            sum(g.count for g in groups) >= ruleset.deck.decks * len(ruleset.deck.suits)
        self.ranks = len(ruleset.deck.ranks)
        # How many cards of each code the deck holds (two of each in a double deck).
        self.copies: dict[int, int] = {}
        for card in ruleset.cards():
            self.copies[card_code(card)] = self.copies.get(card_code(card), 0) + 1
        self._held: dict = {}

    def advance(self, position: Position) -> tuple[Position, list[Move]]:
        """``position`` after every safe foundation move, and those moves in order."""
        done: list[Move] = []
        while True:
            move = self._one(position)
            if move is None:
                return position, done
            position = position.apply_generated(move)  # _one checked it
            done.append(move)

    def _one(self, position: Position) -> Move | None:
        # Works on the engine's card codes (tables), not Card objects: this runs after every move.
        if position.choosing:
            return None
        if not self.foundation_index:
            return None
        piles = position.pile_codes
        # Face-up top cards by code, then the cards each foundation could take next among them.
        tops: dict[int, list[int]] = {}
        for i in self.source_index:
            p = piles[i]
            if p and p[-1] & UP:
                c = p[-1] & 63
                at = tops.get(c)
                if at is None:
                    tops[c] = [i]
                else:
                    at.append(i)
        if not tops:
            return None
        candidates = []
        for j in self.foundation_index:
            codes = position.accepted_codes(j)
            if codes is None:
                candidates.extend((i, j) for at in tops.values() for i in at)
            else:
                for c in codes:
                    at = tops.get(c)
                    if at:
                        candidates.extend((i, j) for i in at)
        if not candidates:
            return None
        candidates.sort()  # sources in layout order, each to its first foundation that takes it
        founded = [piles[f] for f in self.foundation_index]
        copies = self.copies
        refused = -1
        for i, j in candidates:
            if i == refused:
                continue
            # Every card that could be held on this one must be on the foundations, each copy of it.
            if any(sum(f.count(h) + f.count(h | UP) for f in founded) != copies[h]
                   for h in self._held_codes(piles[i][-1] & 63, position)):
                refused = i
                continue
            if position.drag_reason(i, j, 1) is None:
                return Move.drag(position.pile_ids[i], position.pile_ids[j], 1)
        return None

    def is_safe(self, position: Position, i: int) -> bool:
        """Whether the top card of pile index ``i`` may go to a foundation at once, as far as the
        cards that could be held on it go: each of them lies on the foundations already."""
        piles = position.pile_codes
        founded = [piles[f] for f in self.foundation_index]
        return all(sum(f.count(h) + f.count(h | UP) for f in founded) == self.copies[h]
                   for h in self._held_codes(piles[i][-1] & 63, position))

    def _held_codes(self, code: int, position: Position) -> frozenset:
        held = self._held.get(code)
        if held is None:
            held = self._held[code] = frozenset(card_code(c) for c in self._could_hold(CARD_OF[code], position))
        return held

    def _could_hold(self, card, position: Position) -> list:
        """The cards some non-foundation pile could place on ``card`` and might need to.

        A card of the base rank never needs to lie on another card when every one of them has a
        foundation of its own to start: going there is never worse (nothing is placed on it in
        the tableau that could not go on it there)."""
        base = position.base_code or position.compiled_rules.fixed_base
        held = []
        for other in set(position.cards()):
            if other == card or other.is_joker or card.is_joker:
                continue
            if self.bases_go_up and int(other.rank) == base:
                continue
            for build in self.builds:
                steps = {Direction.DOWN: (-1,), Direction.UP: (1,), Direction.UP_OR_DOWN: (-1, 1)}[build.direction]
                if any(_next_rank(card, other, step, build.wrap, self.ranks) for step in steps) \
                        and _suits_match(build.match, card, other):
                    held.append(other)
                    break
        return held


def _next_rank(lower, upper, step: int, wrap: bool, ranks: int) -> bool:
    """Whether ``upper`` (the card placed) is ``step`` ranks from ``lower`` (the card under it)."""
    a, b = int(lower.rank), int(upper.rank)
    if wrap:
        return (a + step - b) % ranks == 0
    return a + step == b


def _suits_match(match: Match, under, placed) -> bool:
    if match is Match.SAME_SUIT:
        return under.suit == placed.suit
    if match is Match.SAME_COLOUR:
        return under.colour == placed.colour
    if match is Match.ALTERNATE_COLOUR:
        return under.colour != placed.colour
    if match is Match.ANY_SUIT_BUT_OWN:
        return under.suit != placed.suit
    return True
