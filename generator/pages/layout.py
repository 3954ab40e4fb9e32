"""Where each pile of a game lies on the table, derived from the rules model alone.

The layout is shared by the setup picture, the example widget and the live board (JSON form, units
of one card width, a card being 1 x 1.4). It is worked out from roles, counts, capacities and deal
sizes, so a new game gets a sensible table without any per-game code.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from patiencebook.engine.position import Position, pile_ids
from patiencebook.engine.rules import Direction, FillRule, PileGroup, Role, Ruleset, StockAction, pile_id

__all__ = [
    "CARD_WIDTH", "CARD_HEIGHT", "GAP", "MARGIN", "ROW_GAP", "MIN_TOP_GAP", "FAN_FACE_UP", "FAN_FACE_DOWN", "FAN_RIGHT",
    "pile_layout", "start_faces", "trunk_of",
]

CARD_WIDTH = 1.0
CARD_HEIGHT = 1.4
#: Space between two piles of a row.
GAP = 0.3
#: Space around the table.
MARGIN = 0.3
#: Space between the top row and the tableau row: room for a caption under one and a label over the other.
ROW_GAP = 1.0
#: The least space between two piles of a top row closed up to span the tableau (Spider Three Decks'
#: stock and twelve foundations over twelve piles close up to 0.18, as AisleRiot draws them closer too).
MIN_TOP_GAP = 0.15
#: How far a card in a fan lies from the one under it: a face-up card under it shows its corner,
#: a face-down card needs only a sliver.
FAN_FACE_UP = 0.28
FAN_FACE_DOWN = 0.14
FAN_RIGHT = 0.25
#: Cards a tableau pile without capacity is expected to gain by building, beyond the deal and the
#: stock's deals (a short run); a renderer squeezes longer fans into the pile's ``room``.
RUN_ROOM = 4
#: Eagle Wing's shape in AisleRiot (games/eagle-wing.scm): the tableau piles of each wing step up by a
#: tenth of a card height towards the pile next to the trunk, and the trunk sits 0.35 card heights lower.
WING_STEP = 0.1 * CARD_HEIGHT
TRUNK_DROP = 0.35 * CARD_HEIGHT
#: How much lower a pile lies than a pile it lies over (``covered_by``): half a card, as AisleRiot's
#: Triple Peaks overlaps its rows.
COVER_STEP = 0.5 * CARD_HEIGHT
#: Space between two rows of a grid of piles (Monte Carlo's five rows) or of foundations fanned to the
#: right (Osmosis), enough for the labels over the lower row.
GRID_ROW_GAP = 0.4

_TOP_LEFT = (Role.STOCK, Role.WASTE, Role.CHOOSER, Role.RESERVE, Role.FREECELL)


@dataclass(frozen=True, slots=True)
class _Placed:
    id: str
    group: PileGroup
    x: float
    y: float
    fan: str
    row: int
    extent: float  # length along the fan direction the pile is expected to need, card included


def start_faces(ruleset: Ruleset) -> dict[str, tuple[bool, ...]]:
    """Pile id -> face of each card after the opening deal, bottom to top (``True`` = face up).

    Worked out by dealing the unshuffled deck with the engine, so the faces follow the deal steps
    exactly (``top-up``, several steps on one pile, the stock face down); which cards they are does
    not matter here. Every pile id of :func:`~patiencebook.engine.position.pile_ids` is a key.
    """
    position = Position.initial(ruleset, ruleset.cards())
    return {pid: tuple(up for _, up in position.pile(pid)) for pid in pile_ids(ruleset)}


def trunk_of(ruleset: Ruleset) -> tuple[PileGroup, PileGroup] | None:
    """``(reserve, tableau)`` when the reserve is drawn as a trunk between two wings of the tableau.

    That is the case when the only tableau group is refilled from a one-pile reserve (fill ``auto``),
    has an even number of piles, and holds few cards (a ``capacity``), so its short fans leave room
    for the reserve in their row: Eagle Wing (AisleRiot places slot 10, the reserve, between tableau
    slots 6-9 and 11-14). ``None`` otherwise.
    """
    tableaux = ruleset.piles_with_role(Role.TABLEAU)
    if len(tableaux) != 1:
        return None
    tableau = tableaux[0]
    if tableau.fill.rule is not FillRule.AUTO or tableau.capacity is None or tableau.count % 2:
        return None
    source = ruleset.pile(tableau.fill.source or "")
    if source.role is not Role.RESERVE or source.count != 1:
        return None
    return source, tableau


def _waste_fan(ruleset: Ruleset, group: PileGroup) -> tuple[str, float]:
    """A waste that gets several cards per click fans them to the right, so all of them show."""
    stock = ruleset.stock
    if (group.role is Role.WASTE and stock is not None and stock.action is StockAction.DEAL_TO_WASTE
            and stock.target == group.id and stock.cards > 1):
        return "right", CARD_WIDTH + (stock.cards - 1) * FAN_RIGHT
    return "none", CARD_WIDTH


def _tableau_extent(ruleset: Ruleset, group: PileGroup, faces: dict[str, tuple[bool, ...]]) -> float:
    """Height a tableau pile of ``group`` is expected to need: its deal, the stock's deals and some
    building, or its capacity when it has one."""
    ids = _ids(group)
    hidden = max(sum(1 for up in faces[pid][:-1] if not up) for pid in ids)
    dealt = max(len(faces[pid]) for pid in ids)
    if group.capacity is not None:
        expected = group.capacity
    else:
        stock = ruleset.stock
        deals = len(ruleset.stock_deals()) if stock is not None and stock.target == group.id else 0
        expected = min(dealt + deals + RUN_ROOM, ruleset.deck.size)
    expected = max(expected, dealt, 1)
    hidden = min(hidden, expected - 1)
    return CARD_HEIGHT + hidden * FAN_FACE_DOWN + (expected - 1 - hidden) * FAN_FACE_UP


def _dealt_reserve(ruleset: Ruleset) -> PileGroup | None:
    """The reserve group of several piles that a ``deal-to-each`` stock deals to, or ``None``."""
    stock = ruleset.stock
    if stock is None or stock.action is not StockAction.DEAL_TO_EACH or not stock.target:
        return None
    group = ruleset.pile(stock.target)
    return group if group.role is Role.RESERVE and group.count > 1 else None


def _ids(group: PileGroup) -> list[str]:
    return [pile_id(group, n) for n in range(1, group.count + 1)]


def _covered_rows(group: PileGroup, x: float, row_y: float) -> tuple[list[_Placed], float]:
    """The piles of a group whose piles lie over one another (``covered_by``, Triple Peaks), from
    ``x`` on: the piles nothing lies over in a row at the front, left to right in pile order, and each
    covered pile half a card higher, midway between the piles that lie over it, as AisleRiot deals its
    peaks (triple-peaks.scm). Each level is a row of its own (1 for the highest); returns the placed
    piles and the x after the widest row."""
    level: dict[int, int] = {}

    def level_of(n: int) -> int:
        if n not in level:
            over = group.covered_by[n - 1]
            level[n] = 1 + max(level_of(m) for m in over) if over else 0
        return level[n]

    numbers = range(1, group.count + 1)
    depth = max(level_of(n) for n in numbers)
    ids = _ids(group)
    xs: dict[int, float] = {}
    pitch = CARD_WIDTH + GAP
    for n in (n for n in numbers if level_of(n) == 0):
        xs[n] = x
        x += pitch
    for k in range(1, depth + 1):
        for n in (n for n in numbers if level_of(n) == k):
            over = group.covered_by[n - 1]
            xs[n] = sum(xs[m] for m in over) / len(over)
    placed = [_Placed(ids[n - 1], group, xs[n], row_y + (depth - level_of(n)) * COVER_STEP, "none",
                      1 + depth - level_of(n), CARD_HEIGHT) for n in numbers]
    return placed, x


def _spread(ruleset: Ruleset) -> list[PileGroup]:
    """The foundation groups built in any order of rank (Osmosis), whose cards must all show: the
    ranks a foundation holds decide what the next one takes."""
    return [g for g in ruleset.piles if g.role is Role.FOUNDATION and g.build is not None
            and g.build.direction is Direction.ANY]


def _rows_plan(ruleset: Ruleset) -> tuple[list[_Placed], float, float] | None:
    """The table in rows side by side, for a tableau in a grid (Monte Carlo) or foundations built in
    any order of rank (Osmosis); ``None`` for other games.

    A grid has the piles of the top row beside it, one under another: stock, waste, reserve and
    free cells at its left, foundations at its right, as AisleRiot's Monte Carlo puts its stock at
    the left of the square. Foundations built in any order of rank lie one under another, fanned
    to the right so that every rank on them shows (what the next one takes), each beside a reserve
    pile when there are as many, with stock and waste at their right, as AisleRiot's Osmosis. Every
    pile has its label over it (rows from 1), so the rows stand :data:`GRID_ROW_GAP` apart.
    """
    grids = [g for g in ruleset.piles if g.role is Role.TABLEAU and g.columns]
    spread = _spread(ruleset)
    if not grids and not spread:
        return None
    pitch = CARD_WIDTH + GAP
    step = CARD_HEIGHT + GRID_ROW_GAP
    top = MARGIN + GRID_ROW_GAP
    placed: list[_Placed] = []

    def column(groups: list[PileGroup], x: float) -> float:
        n = 0
        for group in groups:
            for pid in _ids(group):
                placed.append(_Placed(pid, group, x, top + n * step, "none", 1 + n, CARD_HEIGHT))
                n += 1
        return x + pitch if n else x

    left = [g for g in ruleset.piles if g.role in _TOP_LEFT]
    if grids:
        x = column(left, MARGIN) + GAP  # a little more room between the grid and the piles beside it
        for group in grids:
            columns = group.columns or group.count
            for n, pid in enumerate(_ids(group)):
                row, col = divmod(n, columns)
                placed.append(_Placed(pid, group, x + col * pitch, top + row * step, "none", 1 + row, CARD_HEIGHT))
            x += columns * pitch
        x = column([g for g in ruleset.piles if g.role is Role.FOUNDATION], x + GAP)
    else:
        if any(g.role is Role.TABLEAU or (g.role is Role.FOUNDATION and g not in spread) for g in ruleset.piles):
            return None  # no game needs more yet; the plain plan serves
        fan = CARD_WIDTH + (len(ruleset.deck.ranks) * ruleset.deck.decks - 1) * FAN_RIGHT
        reserves = [g for g in left if g.role is Role.RESERVE]
        beside = sum(g.count for g in reserves) == sum(g.count for g in spread)
        x = column(reserves, MARGIN) if beside else MARGIN
        n = 0
        for group in spread:
            for pid in _ids(group):
                placed.append(_Placed(pid, group, x, top + n * step, "right", 1 + n, fan))
                n += 1
        x += fan + 2 * GAP
        for group in (g for g in left if not beside or g.role is not Role.RESERVE):
            for pid in _ids(group):
                placed.append(_Placed(pid, group, x, top, "none", 1, CARD_HEIGHT))
                x += pitch
    width = max(p.x + p.extent if p.fan == "right" else p.x + CARD_WIDTH for p in placed) + MARGIN
    height = max(p.y + CARD_HEIGHT for p in placed) + MARGIN
    order = {pid: n for n, pid in enumerate(pile_ids(ruleset))}
    placed.sort(key=lambda p: order[p.id])
    return placed, width, height


def _plan(ruleset: Ruleset) -> tuple[list[_Placed], float, float]:
    side = _rows_plan(ruleset)
    if side is not None:
        return side
    faces = start_faces(ruleset)
    trunk = trunk_of(ruleset)
    pitch = CARD_WIDTH + GAP

    # Tableau row first: its width decides where the foundations end. A reserve of several piles that
    # the stock deals to, as it deals to a tableau, lies in that row after the tableau (Lady Jane).
    dealt_reserve = _dealt_reserve(ruleset)
    tableau_groups = [g for g in ruleset.piles if g.role is Role.TABLEAU or g is dealt_reserve]
    top_y = MARGIN
    has_top = any(g.role is not Role.TABLEAU and g is not dealt_reserve and (trunk is None or g is not trunk[0])
                  for g in ruleset.piles)
    row_y = top_y + CARD_HEIGHT + ROW_GAP if has_top else MARGIN
    row: list[_Placed] = []
    x = MARGIN
    if trunk is not None:
        reserve, tableau = trunk
        extent = _tableau_extent(ruleset, tableau, faces)
        ids = _ids(tableau)
        half = len(ids) // 2
        wings = (ids[:half], ids[half:])
        # The pile second nearest the trunk is the highest of a wing; each step away lowers a pile.
        peak_left = max(half - 2, 0)
        for i, pid in enumerate(wings[0]):
            row.append(_Placed(pid, tableau, x, row_y + abs(i - peak_left) * WING_STEP, "down", 1, extent))
            x += pitch
        row.append(_Placed(reserve.id, reserve, x, row_y + TRUNK_DROP, "none", 1, CARD_HEIGHT))
        x += pitch
        peak_right = min(1, len(wings[1]) - 1)
        for i, pid in enumerate(wings[1]):
            row.append(_Placed(pid, tableau, x, row_y + abs(i - peak_right) * WING_STEP, "down", 1, extent))
            x += pitch
    else:
        for n, group in enumerate(tableau_groups):
            if n and group is not dealt_reserve:
                x += GAP  # a little more room between two tableau groups than inside one
            if group.covered_by:
                covered, x = _covered_rows(group, x, row_y)
                row.extend(covered)
                continue
            extent = _tableau_extent(ruleset, group, faces)
            for pid in _ids(group):
                row.append(_Placed(pid, group, x, row_y, "down", 1, extent))
                x += pitch
    row_right = x - GAP if row else MARGIN

    # Top row: stock, waste or chooser, reserve and free cells from the left, foundations after a blank
    # slot; in a plain layout the foundations end flush with the tableau, as in AisleRiot's Hamilton and
    # Agnes, while a winged table keeps them packed at the left as AisleRiot's Eagle Wing does.
    left = [g for g in ruleset.piles if g.role in _TOP_LEFT and g is not dealt_reserve
            and (trunk is None or g is not trunk[0])]
    foundations = [g for g in ruleset.piles if g.role is Role.FOUNDATION]
    count = sum(g.count for g in foundations)
    widths = [(group, *_waste_fan(ruleset, group)) for group in left]
    left_piles = sum(group.count for group in left)
    left_width = sum(group.count * width for group, _, width in widths)
    # Without room for the blank slot above the tableau (FreeCell's four free cells and four
    # foundations over eight piles), the top row closes up instead, as AisleRiot's FreeCell does: its
    # gaps shrink so that it spans the tableau, with a double gap between the two kinds of pile.
    gap, blank = GAP, pitch
    blank_right = MARGIN + left_width + left_piles * GAP + pitch + count * pitch - GAP
    if trunk is None and left and count and blank_right > row_right + 1e-9:
        squeezed = (row_right - MARGIN - left_width - count * CARD_WIDTH) / (left_piles + count)
        if squeezed >= MIN_TOP_GAP:
            gap, blank = squeezed, squeezed
    # With a slot or more to spare before the foundations (Lady Jane's top row over fourteen piles),
    # the piles at the left stand further apart, so that their counts have room under them.
    left_gap = gap
    if trunk is None and left and count and row_right - blank_right >= pitch - 1e-9:
        left_gap = 2 * GAP
    top: list[_Placed] = []
    x = MARGIN
    for group, fan, width in widths:
        for pid in _ids(group):
            top.append(_Placed(pid, group, x, top_y, fan, 0, width))
            x += width + left_gap
    x += gap - left_gap
    if count:
        start = x + blank if left else MARGIN
        if trunk is None:
            start = max(start, row_right - count * (CARD_WIDTH + gap) + gap)
        x = start
        for group in foundations:
            for pid in _ids(group):
                top.append(_Placed(pid, group, x, top_y, "none", 0, CARD_WIDTH))
                x += CARD_WIDTH + gap
    top_right = x - gap if top else MARGIN

    # A top row still wider than the tableau (Gypsy's stock and eight foundations over eight piles)
    # gets the tableau in its middle, moved by whole slots so that piles stay under piles.
    if row and top_right > row_right + 1e-9:
        steps = int((top_right - row_right) / 2 / pitch + 0.5)
        row = [dataclasses.replace(p, x=p.x + steps * pitch) for p in row]
        row_right += steps * pitch

    placed = top + row
    width = max(top_right, row_right) + MARGIN
    bottom = max(p.y + (p.extent if p.fan == "down" else CARD_HEIGHT) for p in placed)
    height = bottom + MARGIN
    order = {pid: n for n, pid in enumerate(pile_ids(ruleset))}
    placed.sort(key=lambda p: order[p.id])
    return placed, width, height


def _round(value: float) -> float:
    return round(value + 0.0, 3) + 0.0


def pile_layout(ruleset: Ruleset) -> dict[str, Any]:
    """The table of ``ruleset`` as the layout JSON of the examples contract (section 3).

    Returns ``{"card": {"width": 1.0, "height": 1.4}, "width": W, "height": H, "fan_step": {"face_up":
    .28, "face_down": .14, "right": .25}, "piles": [{"id", "group", "role", "x", "y", "fan", "row",
    "room"}, ...]}`` in units of one card width; ``x``/``y`` are a pile's top left corner, ``fan`` is
    ``"down"`` (tableau), ``"right"`` (a waste given several cards per click) or ``"none"``; ``row`` is
    0 for the top row, 1 for the tableau row, and 2, 3 ... for the lower rows of a tableau whose piles
    lie over one another; ``room`` is the length a pile may use along its fan, card included (a renderer
    tightens the ``fan_step`` of a longer fan to fit), the card height for ``"none"``. Piles come in the
    order of :func:`~patiencebook.engine.position.pile_ids`, each once. Raises nothing for a valid
    ruleset.

    The arrangement: stock, waste or chooser, reserve and free cells at the top left, foundations at
    the top right after a blank slot and flush with the end of the tableau, tableau piles in a row
    below, high enough for the dealt cards, the stock's deals and some building (or the capacity).
    When the blank slot would make the top row wider than the tableau, the top row closes up to span
    the tableau (gaps of at least :data:`MIN_TOP_GAP`, doubled between free cells and foundations, as
    AisleRiot's FreeCell); when it is wider even so, the tableau row moves right by whole slots to sit
    in the middle (AisleRiot's Gypsy). A one-pile reserve refilling a small-capacity tableau is put
    between the two halves of the tableau, as in AisleRiot's Eagle Wing (see :func:`trunk_of`). A
    tableau whose piles lie over one another (Triple Peaks) is laid out by :func:`_covered_rows`; a
    tableau in a grid (Monte Carlo) and foundations built in any order of rank (Osmosis) by
    :func:`_rows_plan`.
    """
    placed, width, height = _plan(ruleset)
    piles = []
    for p in placed:
        if p.fan == "down":
            room = height - MARGIN - p.y
        elif p.fan == "right":
            room = p.extent
        else:
            room = CARD_HEIGHT
        piles.append({"id": p.id, "group": p.group.id, "role": p.group.role.value, "x": _round(p.x),
                      "y": _round(p.y), "fan": p.fan, "row": p.row, "room": _round(room)})
    return {
        "card": {"width": CARD_WIDTH, "height": CARD_HEIGHT},
        "width": _round(width),
        "height": _round(height),
        "fan_step": {"face_up": FAN_FACE_UP, "face_down": FAN_FACE_DOWN, "right": FAN_RIGHT},
        "piles": piles,
    }
