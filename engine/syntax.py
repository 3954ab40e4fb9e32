"""Reading and writing the engine's notation (grammar and public names in
:mod:`~patiencebook.engine.notation`), below the values it describes.

Cards are read and written here; a position is written here and read into :class:`PositionParts`,
which :class:`~patiencebook.engine.position.Position` checks against the rules and builds; a saved
game (:class:`~patiencebook.engine.game.SavedGame`) reads its lines and JSON with the helpers here.
Every reading error is a :class:`~patiencebook.engine.errors.NotationError` saying what is wrong and,
for text, on which line, whatever the input: text or JSON of any shape, size or nesting.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from .cards import Card, CardError, Rank
from .deals import SEED_MAX
from .errors import MAX_DIGITS, NotationError, describe
from .rules import Base, Role, Ruleset, pile_groups, pile_ids
from .validation import deck_fault

if TYPE_CHECKING:  # pragma: no cover
    from .position import Position

__all__ = [
    "MAX_MOVES", "MAX_DEAL_CARDS", "card_text", "parse_card", "face_up_card", "fields", "parse_int",
    "check_seed", "check_deck", "load_json", "position_to_text", "position_to_dict", "PositionParts",
    "read_position_text", "read_position_dict",
]

#: Most moves a saved game may hold; a longer list is refused rather than replayed.
MAX_MOVES = 100_000
#: Most cards a saved game's deal may list (the largest deck is far smaller).
MAX_DEAL_CARDS = 10_000

_STATE_KEYS = ("game", "base", "redeals", "offers", "score")
_NEWLINE = re.compile(r"\r\n|\r|\n")


# -- cards ----------------------------------------------------------------------------------------

def card_text(card: Card, face_up: bool = True) -> str:
    """``"7h"`` for a face-up card, ``"#7h"`` for a face-down one; ``"Jk"``/``"#Jk"`` for a joker."""
    return str(card) if face_up else f"#{card}"


def parse_card(text: str) -> tuple[Card, bool]:
    """``(card, face_up)`` from ``"7h"`` or ``"#7h"`` (``"Jk"``/``"#Jk"`` for a joker); raises
    :class:`NotationError` naming the text."""
    if not isinstance(text, str):
        raise NotationError(f"bad card {describe(text)}: a card is text like \"7h\" or \"#Qs\"")
    t = text.strip()
    up = not t.startswith("#")
    if len(t) > 4:  # "#10d" is the longest card text
        raise NotationError(f"bad card {describe(text)}: expected rank A23456789TJQK then suit cdhs, e.g. 7h")
    try:
        return Card.parse(t if up else t[1:]), up
    except CardError as err:
        raise NotationError(f"bad card {text!r}: {err}") from None


def face_up_card(text: str, line: int | None = None) -> Card:
    """The card of ``text`` as a deal lists it (face up, no ``#``); raises :class:`NotationError`
    at ``line``."""
    try:
        card, up = parse_card(text)
    except NotationError as err:
        raise NotationError(err.message, line) from None
    if not up:
        raise NotationError(f"a deal lists cards without '#', not {describe(text)}", line)
    return card


# -- lines, numbers, JSON -------------------------------------------------------------------------

def _lines(text: str) -> Iterator[str]:
    """The lines of ``text``, lazily: only CR, LF and CRLF end a line, so line numbers are those an
    editor shows (``str.splitlines`` also splits at form feeds and Unicode separators)."""
    start = 0
    for m in _NEWLINE.finditer(text):
        yield text[start:m.start()]
        start = m.end()
    yield text[start:]


def fields(text: str) -> Iterator[tuple[int, str, str]]:
    """``(line number, key, value)`` for each ``KEY: VALUE`` line of ``text`` (key stripped, value
    as written); skips blanks and ``;`` comments. Raises :class:`NotationError` for text that is not
    a string and for a line without ``:``."""
    if not isinstance(text, str):
        raise NotationError(f"the notation must be text, not {describe(text)}")
    for n, raw in enumerate(_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise NotationError(f"expected 'NAME: VALUE', got {describe(line)}", n)
        yield n, key.strip(), value


def parse_int(value: str, key: str, line: int | None) -> int:
    """The whole number (at least 0, at most :data:`~patiencebook.engine.errors.MAX_DIGITS` digits)
    that ``value`` of ``key:`` writes; raises :class:`NotationError` at ``line``."""
    v = value.strip()
    if not (v.isascii() and v.isdigit()):
        raise NotationError(f"'{key}:' needs a whole number of at least 0, not {describe(v)}", line)
    if len(v) > MAX_DIGITS:
        raise NotationError(f"'{key}:' is too large ({len(v)} digits)", line)
    return int(v)


def check_seed(seed: Any, line: int | None) -> None:
    """Raise :class:`NotationError` at ``line`` unless ``seed`` is a deal number (0 .. 2**32 - 1)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise NotationError(f"'seed' must be a deal number from 0 to {SEED_MAX}, not {describe(seed)}", line)


def check_deck(ruleset: Ruleset, cards: Sequence[Card], line: int | None = None) -> None:
    """Raise :class:`NotationError` at ``line`` unless ``cards`` are the deck of ``ruleset`` in some
    order (:func:`~patiencebook.engine.validation.deck_fault` says what is wrong)."""
    fault = deck_fault(ruleset, cards)
    if fault:
        raise NotationError(fault, line)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict; a key given twice is refused (``json`` would keep the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise NotationError(f"key {describe(key)} is given twice in a JSON object")
        out[key] = value
    return out


def load_json(text: Any) -> Any:
    """``json.loads(text)`` with every failure a :class:`NotationError`: not text, bad syntax, a key
    given twice in an object, bytes that are not UTF-8, numbers too long to read, nesting too deep
    to follow."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise NotationError(f"JSON must be text, not {describe(text)}")
    try:
        return json.loads(text, object_pairs_hook=_object)
    except NotationError:
        raise
    except json.JSONDecodeError as err:
        raise NotationError(f"not JSON: {err.msg}", err.lineno) from None
    except RecursionError:
        raise NotationError("not JSON this engine reads: nested too deeply") from None
    except UnicodeDecodeError:
        raise NotationError("not JSON this engine reads: the bytes are not UTF-8") from None
    except ValueError:  # int() refuses the thousands of digits of a number
        raise NotationError("not JSON this engine reads: a number has too many digits") from None


# -- positions, written ---------------------------------------------------------------------------

def position_to_text(position: Position) -> str:
    """The position as text: state lines, then one line per pile in layout order (see the grammar).

    ``Position.from_text(position_to_text(p), p.ruleset) == p`` for every position ``p``.
    """
    base = position.base_rank
    lines = [
        f"game: {position.game}",
        f"base: {base.letter if base else '-'}",
        f"redeals: {position.redeals_used}",
        f"offers: {position.offers_used}",
        f"score: {position.score}",
    ]
    for pid, cards in position.piles.items():
        lines.append(f"{pid}: {' '.join(card_text(c, up) for c, up in cards)}".rstrip())
    return "\n".join(lines) + "\n"


def position_to_dict(position: Position) -> dict[str, Any]:
    """The position as plain data for JSON::

        {"game": "agnes", "base": "8", "redeals": 0, "offers": 0, "score": 1,
         "piles": [{"id": "stock", "role": "stock", "cards": ["#Qs", ...]}, ...]}

    ``base`` is a rank letter or ``null``; cards are bottom to top in :func:`card_text` form.
    """
    base = position.base_rank
    return {
        "game": position.game,
        "base": base.letter if base else None,
        "redeals": position.redeals_used,
        "offers": position.offers_used,
        "score": position.score,
        "piles": [{"id": pid, "role": position.role(pid).value, "cards": [card_text(c, up) for c, up in cards]}
                  for pid, cards in position.piles.items()],
    }


# -- positions, read ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class PositionParts:
    """A position as read from text or JSON, checked as far as reading can check it: the game
    name, every pile listed once, the cards exactly the deck, a base rank where the game needs one.
    Whether the rules can produce it is checked when it is built
    (:meth:`Position.validate <patiencebook.engine.position.Position.validate>`).

    Attributes:
        ruleset: the game.
        piles: pile id -> cards bottom to top as ``(card, face_up)``, every pile of the game.
        base_rank: the ``base:`` rank, or ``None`` for ``-``.
        redeals: the ``redeals:`` count (0 when not given).
        offers: the ``offers:`` count (0 when not given).
        score: the ``score:`` given, to compare with the position's, or ``None``.
        lines: pile id or state key -> the line it was read from (empty for JSON), to place a fault.
    """

    ruleset: Ruleset
    piles: dict[str, list[tuple[Card, bool]]]
    base_rank: Rank | None
    redeals: int
    offers: int
    score: int | None
    lines: dict[str, int | None]


def _parse_base(value: str | None, line: int | None) -> Rank | None:
    if value is None or value.strip() in ("", "-"):
        return None
    try:
        if len(value.strip()) > 5:  # the longest rank word is "queen"
            raise CardError(value)
        return Rank.parse(value.strip())
    except CardError:
        raise NotationError(f"'base:' needs a rank (A 2-9 T J Q K) or '-', not {describe(value.strip())}",
                            line) from None


def _only_jokers_on_foundations(ruleset: Ruleset, piles: dict[str, list[tuple[Card, bool]]]) -> bool:
    # A joker dealt to a foundation sets no base rank (it has none), so a base-card game whose
    # foundations hold only jokers has no base yet.
    found = [c for pid, g in zip(pile_ids(ruleset), pile_groups(ruleset)) if g.role is Role.FOUNDATION
             for c, _ in piles.get(pid, ())]
    return bool(found) and all(c.is_joker for c in found)


def _parts(ruleset: Ruleset, game: str | None, base: Rank | None, counters: dict[str, int],
           piles: dict[str, list[tuple[Card, bool]]], where: dict[str, int | None]) -> PositionParts:
    """The parts of a position from read values; checks the game, the piles listed, the deck and
    the base. ``where`` maps pile ids and state keys to lines."""
    ids = pile_ids(ruleset)
    if game is None:
        raise NotationError("missing 'game:' (the game name)")
    if game != ruleset.game:
        raise NotationError(f"the position is of game {describe(game)}, not {ruleset.game!r}", where.get("game"))
    missing = [pid for pid in ids if pid not in piles]
    if missing:
        raise NotationError(f"missing pile line(s) for {', '.join(missing)}; every pile must be listed, "
                            "an empty one as 'PILE:'")
    check_deck(ruleset, [c for cards in piles.values() for c, _ in cards])
    needs_base = ruleset.base is Base.BASE_CARD and any(piles.values())
    if base is None and needs_base and not _only_jokers_on_foundations(ruleset, piles):
        raise NotationError(f"{ruleset.game} needs 'base:' with the rank of the base card", where.get("base"))
    return PositionParts(ruleset, piles, base, counters.get("redeals", 0), counters.get("offers", 0),
                         counters.get("score"), where)


def _cards_of(tokens: Sequence[Any], ruleset: Ruleset, pid: str, line: int | None) -> list[tuple[Card, bool]]:
    if len(tokens) > ruleset.deck.size:
        raise NotationError(f"pile {pid!r} lists {len(tokens)} cards, more than the {ruleset.deck.size} of the "
                            "deck", line)
    try:
        return [parse_card(t) for t in tokens]
    except NotationError as err:
        raise NotationError(f"pile {pid!r}: {err.message}", line) from None


def read_position_text(text: str, ruleset: Ruleset) -> PositionParts:
    """The parts of the position that ``text`` writes (grammar in
    :mod:`~patiencebook.engine.notation`) for a game of ``ruleset``.

    Checks that the game name matches, that every pile is listed once and that the cards are
    exactly the ruleset's deck. Raises :class:`NotationError` with the line number and what is wrong.
    """
    ids = set(pile_ids(ruleset))
    game: str | None = None
    base: Rank | None = None
    counters: dict[str, int] = {}
    piles: dict[str, list[tuple[Card, bool]]] = {}
    where: dict[str, int | None] = {}
    for n, key, value in fields(text):
        if key in _STATE_KEYS:
            if key in where:
                raise NotationError(f"'{key}:' is given twice", n)
            where[key] = n
            if key == "game":
                game = value.strip()
            elif key == "base":
                base = _parse_base(value, n)
            else:
                counters[key] = parse_int(value, key, n)
        elif key in ids:
            if key in piles:
                raise NotationError(f"pile {key!r} is listed twice", n)
            piles[key] = _cards_of(value.split(), ruleset, key, n)
            where[key] = n
        else:
            raise NotationError(f"unknown line {describe(key)}: expected one of {', '.join(_STATE_KEYS)} or a "
                                f"pile id of {ruleset.game} ({', '.join(pile_ids(ruleset))})", n)
    return _parts(ruleset, game, base, counters, piles, where)


def read_position_dict(data: Any, ruleset: Ruleset) -> PositionParts:
    """The parts of the position in :func:`position_to_dict` data (any JSON value is accepted as input).

    Checks what :func:`read_position_text` checks, plus the types: ``game`` a string, ``base`` a rank
    letter or ``null``, counters whole numbers, ``piles`` a list of ``{"id", "role", "cards"}``
    objects (``role`` optional, and then it must be the pile's). Raises :class:`NotationError`.
    """
    if not isinstance(data, dict):
        raise NotationError(f"a position in JSON must be an object, not {describe(data)}")
    unknown = [k for k in data if k not in ("game", "base", "redeals", "offers", "score", "piles")]
    if unknown:
        raise NotationError(f"unknown key(s) in position JSON: {', '.join(describe(k) for k in unknown[:5])}")
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise NotationError(f"'game' must be the game name as a string, not {describe(game)}")
    raw_base = data.get("base")
    if raw_base is not None and not isinstance(raw_base, str):
        raise NotationError(f"'base' must be a rank letter (A 2-9 T J Q K) or null, not {describe(raw_base)}")
    base = _parse_base(raw_base, None)
    counters: dict[str, int] = {}
    for key in ("redeals", "offers", "score"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise NotationError(f"{key!r} must be a whole number of at least 0, not {describe(value)}")
            if value >= 10 ** MAX_DIGITS:
                raise NotationError(f"{key!r} is too large ({describe(value)})")
            counters[key] = value
    raw_piles = data.get("piles")
    if not isinstance(raw_piles, list):
        raise NotationError("'piles' must be a list of {\"id\", \"role\", \"cards\"} objects, not "
                            + describe(raw_piles))
    ids = pile_ids(ruleset)
    roles = dict(zip(ids, (g.role.value for g in pile_groups(ruleset))))
    piles: dict[str, list[tuple[Card, bool]]] = {}
    for n, entry in enumerate(raw_piles, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) \
                or not isinstance(entry.get("cards"), list):
            raise NotationError(f"pile {n} of 'piles' must be an object with 'id' and 'cards', not "
                                f"{describe(entry)}")
        extra = [k for k in entry if k not in ("id", "role", "cards")]
        if extra:
            raise NotationError(f"unknown key(s) in pile {n} of 'piles': {', '.join(describe(k) for k in extra[:5])}")
        pid = entry["id"]
        if pid not in roles:
            raise NotationError(f"unknown pile {describe(pid)}; {ruleset.game} has {', '.join(ids)}")
        if pid in piles:
            raise NotationError(f"pile {pid!r} is listed twice")
        role = entry.get("role")
        if role is not None and role != roles[pid]:
            raise NotationError(f"pile {pid!r} has role {roles[pid]!r}, not {describe(role)}")
        if not all(isinstance(t, str) for t in entry["cards"]):
            raise NotationError(f"the cards of pile {pid!r} must be strings like \"7h\" or \"#Qs\"")
        piles[pid] = _cards_of(entry["cards"], ruleset, pid, None)
    return _parts(ruleset, game, base, counters, piles, {})
