"""The engine's text and JSON notation for cards, moves, positions and saved games; all round-trip.

Grammar (``#`` starts nothing but a face-down card; a line whose first character is ``;`` is a
comment; blank lines are ignored)::

    card      = ["#"] (rank suit | "Jk")   ; "#" = face down.  rank: A 2-9 T J Q K  suit: c d h s
                                         ; "Jk" = a joker (all jokers of a deck are alike)
    move      = "stock" | "dbl:" pile | "flip:" pile | pile [":" count] ">" pile
    pile      = a pile id: the group id, numbered from 1 when the group has several piles
                ("stock", "waste", "tableau3", "foundation1")
    position  = line*  with lines  "game: NAME"  "base: RANK|-"  "redeals: N"  "offers: N"
                "score: N" (checked, optional)  and one "PILE: card*" line per pile (bottom to top)
    saved     = "game: NAME"  ["seed: N"]  ["deal: card*" (the order the deal takes the cards)]
                "moves: move*" (may repeat; the moves follow on)

Example position line: ``tableau3: #Qs #2d 7h``. JSON forms: :func:`position_to_json` and
:meth:`SavedGame.to_json`. Every reading error is a :class:`NotationError` saying what is wrong
(and, for text, on which line), whatever the input: text or JSON of any shape, size or nesting.
A position must also be one the rules can produce (:meth:`Position.validate`), else it is a
:class:`~patiencebook.engine.errors.PositionError`; a saved game's moves are checked by replaying.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from .cards import Card, CardError, Rank
from .errors import EngineError, IllegalMove, NotationError, PositionError
from .moves import Move
from .position import Position, deck_fault, pile_ids
from .rules import Base, Role, Ruleset

__all__ = [
    "card_text", "parse_card", "move_text", "parse_move", "position_to_text", "parse_position",
    "position_to_dict", "position_from_dict", "position_to_json", "position_from_json",
    "SavedGame", "parse_saved_game", "MAX_DIGITS", "MAX_MOVES", "MAX_DEAL_CARDS",
]

_STATE_KEYS = ("game", "base", "redeals", "offers", "score")


# -- cards and moves ------------------------------------------------------------------------------

def card_text(card: Card, face_up: bool = True) -> str:
    """``"7h"`` for a face-up card, ``"#7h"`` for a face-down one; ``"Jk"``/``"#Jk"`` for a joker."""
    return str(card) if face_up else f"#{card}"


def parse_card(text: str) -> tuple[Card, bool]:
    """``(card, face_up)`` from ``"7h"`` or ``"#7h"`` (``"Jk"``/``"#Jk"`` for a joker); raises
    :class:`NotationError` naming the text."""
    if not isinstance(text, str):
        raise NotationError(f"bad card {_show(text)}: a card is text like \"7h\" or \"#Qs\"")
    t = text.strip()
    up = not t.startswith("#")
    if len(t) > 4:  # "#10d" is the longest card text
        raise NotationError(f"bad card {_show(text)}: expected rank A23456789TJQK then suit cdhs, e.g. 7h")
    try:
        return Card.parse(t if up else t[1:]), up
    except CardError as err:
        raise NotationError(f"bad card {text!r}: {err}") from None


def move_text(move: Move) -> str:
    """The text form of ``move`` (``str(move)``)."""
    return str(move)


def parse_move(text: str) -> Move:
    """The :class:`Move` for its text form; raises :class:`NotationError` (see :meth:`Move.parse`),
    also for a count of cards too long to read."""
    if not isinstance(text, str):
        raise NotationError(f"bad move {_show(text)}: a move is text like \"tableau3>foundation1\"")
    if len(text) > 200:
        raise NotationError(f"bad move {_show(text)}: too long for a move")
    try:
        return Move.parse(text)
    except NotationError:
        raise
    except ValueError:  # a count of thousands of digits, which int() refuses
        raise NotationError(f"bad move {_show(text)}: the count of cards is too large") from None


# -- positions as text ----------------------------------------------------------------------------

def position_to_text(position: Position) -> str:
    """The position as text: state lines, then one line per pile in layout order (see the grammar).

    ``parse_position(position_to_text(p), p.ruleset) == p`` for every position ``p``.
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


#: Most digits a number in a position or saved game may have: more is refused before it is read
#: (Python refuses to read integers of over 4300 digits, and no counter comes near 18).
MAX_DIGITS = 18
#: Most moves a saved game may hold; a longer list is refused rather than replayed.
MAX_MOVES = 100_000
#: Most cards a saved game's deal may list (the largest deck is far smaller).
MAX_DEAL_CARDS = 10_000

_NEWLINE = re.compile(r"\r\n|\r|\n")


def _lines(text: str):
    """The lines of ``text``, lazily: only CR, LF and CRLF end a line, so line numbers are those an
    editor shows (``str.splitlines`` also splits at form feeds and Unicode separators)."""
    start = 0
    for m in _NEWLINE.finditer(text):
        yield text[start:m.start()]
        start = m.end()
    yield text[start:]


def _show(value: Any, width: int = 40) -> str:
    """A short, safe description of any value for a message: never huge, never raising."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if abs(value) < 10 ** MAX_DIGITS else f"a number of {value.bit_length()} bits"
    if isinstance(value, str):
        return repr(value[:width]) + ("..." if len(value) > width else "")
    if isinstance(value, dict):
        return f"an object of {len(value)} key{'s' if len(value) != 1 else ''}"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    return f"a {type(value).__name__}"


def _check_deck(ruleset: Ruleset, cards: Sequence[Card], line: int | None = None) -> None:
    fault = deck_fault(ruleset, cards)
    if fault:
        raise NotationError(fault, line)


def _only_jokers_on_foundations(ruleset: Ruleset, piles: dict[str, list[tuple[Card, bool]]]) -> bool:
    # A joker dealt to a foundation sets no base rank (it has none), so a base-card game whose
    # foundations hold only jokers has no base yet.
    roles = [g.role for g in ruleset.piles for _ in range(g.count)]
    found = [c for pid, role in zip(pile_ids(ruleset), roles) if role is Role.FOUNDATION
             for c, _ in piles.get(pid, ())]
    return bool(found) and all(c.is_joker for c in found)


def _parse_int(value: str, key: str, line: int | None) -> int:
    v = value.strip()
    if not (v.isascii() and v.isdigit()):
        raise NotationError(f"'{key}:' needs a whole number of at least 0, not {_show(v)}", line)
    if len(v) > MAX_DIGITS:
        raise NotationError(f"'{key}:' is too large ({len(v)} digits)", line)
    return int(v)


def _parse_base(value: str | None, line: int | None) -> Rank | None:
    if value is None or value.strip() in ("", "-"):
        return None
    try:
        if len(value.strip()) > 5:  # the longest rank word is "queen"
            raise CardError(value)
        return Rank.parse(value.strip())
    except CardError:
        raise NotationError(f"'base:' needs a rank (A 2-9 T J Q K) or '-', not {_show(value.strip())}", line) from None


def _build(ruleset: Ruleset, game: str | None, base: Rank | None, counters: dict[str, int],
           piles: dict[str, list[tuple[Card, bool]]], where: dict[str, int | None]) -> Position:
    """The position from read values; checks the game, the piles listed, the deck, the rules
    (:meth:`Position.validate`) and the score. ``where`` maps pile ids and state keys to lines."""
    ids = pile_ids(ruleset)
    if game is None:
        raise NotationError("missing 'game:' (the game name)")
    if game != ruleset.game:
        raise NotationError(f"the position is of game {_show(game)}, not {ruleset.game!r}", where.get("game"))
    missing = [pid for pid in ids if pid not in piles]
    if missing:
        raise NotationError(f"missing pile line(s) for {', '.join(missing)}; every pile must be listed, "
                            "an empty one as 'PILE:'")
    _check_deck(ruleset, [c for cards in piles.values() for c, _ in cards])
    needs_base = ruleset.base is Base.BASE_CARD and any(piles.values())
    if base is None and needs_base and not _only_jokers_on_foundations(ruleset, piles):
        raise NotationError(f"{ruleset.game} needs 'base:' with the rank of the base card", where.get("base"))
    try:
        position = Position.from_piles(ruleset, piles, base, counters.get("redeals", 0), counters.get("offers", 0))
        position.validate()
    except PositionError as err:
        raise PositionError(err.message, err.where, where.get(err.where or "")) from None
    except EngineError as err:
        raise NotationError(str(err)) from None
    if "score" in counters and counters["score"] != position.score:
        raise NotationError(f"'score: {counters['score']}' does not match the foundations, which give "
                            f"{position.score}", where.get("score"))
    return position


def _fields(text: str):
    """``(line number, key, value)`` for each ``KEY: VALUE`` line; skips blanks and ``;`` comments."""
    if not isinstance(text, str):
        raise NotationError(f"the notation must be text, not {_show(text)}")
    for n, raw in enumerate(_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise NotationError(f"expected 'NAME: VALUE', got {_show(line)}", n)
        yield n, key.strip(), value


def _cards_of(tokens: Sequence[Any], ruleset: Ruleset, pid: str, line: int | None) -> list[tuple[Card, bool]]:
    if len(tokens) > ruleset.deck.size:
        raise NotationError(f"pile {pid!r} lists {len(tokens)} cards, more than the {ruleset.deck.size} of the "
                            "deck", line)
    try:
        return [parse_card(t) for t in tokens]
    except NotationError as err:
        raise NotationError(f"pile {pid!r}: {err.message}", line) from None


def parse_position(text: str, ruleset: Ruleset) -> Position:
    """The position written in ``text`` (grammar above) for a game of ``ruleset``.

    Checks that the game name matches, that every pile is listed once, that the cards are exactly
    the ruleset's deck, that the rules can produce the position (:meth:`Position.validate`) and
    that a ``score:`` line agrees with the foundations. Raises :class:`NotationError` (a
    :class:`~patiencebook.engine.errors.PositionError` for a position the rules cannot produce)
    with the line number and what is wrong.
    """
    ids = set(pile_ids(ruleset))
    game: str | None = None
    base: Rank | None = None
    counters: dict[str, int] = {}
    piles: dict[str, list[tuple[Card, bool]]] = {}
    where: dict[str, int | None] = {}
    for n, key, value in _fields(text):
        if key in _STATE_KEYS:
            if key in where:
                raise NotationError(f"'{key}:' is given twice", n)
            where[key] = n
            if key == "game":
                game = value.strip()
            elif key == "base":
                base = _parse_base(value, n)
            else:
                counters[key] = _parse_int(value, key, n)
        elif key in ids:
            if key in piles:
                raise NotationError(f"pile {key!r} is listed twice", n)
            piles[key] = _cards_of(value.split(), ruleset, key, n)
            where[key] = n
        else:
            raise NotationError(f"unknown line {_show(key)}: expected one of {', '.join(_STATE_KEYS)} or a pile id "
                                f"of {ruleset.game} ({', '.join(pile_ids(ruleset))})", n)
    return _build(ruleset, game, base, counters, piles, where)


# -- positions as JSON ----------------------------------------------------------------------------

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


def position_from_dict(data: Any, ruleset: Ruleset) -> Position:
    """The position from :func:`position_to_dict` data (any JSON value is accepted as input).

    Checks what :func:`parse_position` checks, plus the types: ``game`` a string, ``base`` a rank
    letter or ``null``, counters whole numbers, ``piles`` a list of ``{"id", "role", "cards"}``
    objects (``role`` optional, and then it must be the pile's). Raises :class:`NotationError`
    (a :class:`~patiencebook.engine.errors.PositionError` for a position the rules cannot produce).
    """
    if not isinstance(data, dict):
        raise NotationError(f"a position in JSON must be an object, not {_show(data)}")
    unknown = [k for k in data if k not in ("game", "base", "redeals", "offers", "score", "piles")]
    if unknown:
        raise NotationError(f"unknown key(s) in position JSON: {', '.join(_show(k) for k in unknown[:5])}")
    game = data.get("game")
    if game is not None and not isinstance(game, str):
        raise NotationError(f"'game' must be the game name as a string, not {_show(game)}")
    raw_base = data.get("base")
    if raw_base is not None and not isinstance(raw_base, str):
        raise NotationError(f"'base' must be a rank letter (A 2-9 T J Q K) or null, not {_show(raw_base)}")
    base = _parse_base(raw_base, None)
    counters: dict[str, int] = {}
    for key in ("redeals", "offers", "score"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise NotationError(f"{key!r} must be a whole number of at least 0, not {_show(value)}")
            if value >= 10 ** MAX_DIGITS:
                raise NotationError(f"{key!r} is too large ({_show(value)})")
            counters[key] = value
    raw_piles = data.get("piles")
    if not isinstance(raw_piles, list):
        raise NotationError("'piles' must be a list of {\"id\", \"role\", \"cards\"} objects, not "
                            + _show(raw_piles))
    ids = pile_ids(ruleset)
    roles = dict(zip(ids, (g.role.value for g in ruleset.piles for _ in range(g.count))))
    piles: dict[str, list[tuple[Card, bool]]] = {}
    for n, entry in enumerate(raw_piles, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) \
                or not isinstance(entry.get("cards"), list):
            raise NotationError(f"pile {n} of 'piles' must be an object with 'id' and 'cards', not {_show(entry)}")
        extra = [k for k in entry if k not in ("id", "role", "cards")]
        if extra:
            raise NotationError(f"unknown key(s) in pile {n} of 'piles': {', '.join(_show(k) for k in extra[:5])}")
        pid = entry["id"]
        if pid not in roles:
            raise NotationError(f"unknown pile {_show(pid)}; {ruleset.game} has {', '.join(ids)}")
        if pid in piles:
            raise NotationError(f"pile {pid!r} is listed twice")
        role = entry.get("role")
        if role is not None and role != roles[pid]:
            raise NotationError(f"pile {pid!r} has role {roles[pid]!r}, not {_show(role)}")
        if not all(isinstance(t, str) for t in entry["cards"]):
            raise NotationError(f"the cards of pile {pid!r} must be strings like \"7h\" or \"#Qs\"")
        piles[pid] = _cards_of(entry["cards"], ruleset, pid, None)
    return _build(ruleset, game, base, counters, piles, {})


def position_to_json(position: Position, indent: int | None = None) -> str:
    """:func:`position_to_dict` as a JSON string."""
    return json.dumps(position_to_dict(position), indent=indent, ensure_ascii=False)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict; a key given twice is refused (``json`` would keep the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise NotationError(f"key {_show(key)} is given twice in a JSON object")
        out[key] = value
    return out


def _load_json(text: Any) -> Any:
    """``json.loads(text)`` with every failure a :class:`NotationError`: bad syntax, bytes that are
    not UTF-8, numbers too long to read, nesting too deep to follow."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise NotationError(f"JSON must be text, not {_show(text)}")
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


def position_from_json(text: str, ruleset: Ruleset) -> Position:
    """The position from :func:`position_to_json` text; raises :class:`NotationError`."""
    return position_from_dict(_load_json(text), ruleset)


# -- saved games ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game as it can be stored: the game name, the deal (card order and/or seed) and the moves.

    Attributes:
        game: the ruleset's game name.
        cards: the cards in the order the deal takes them (``Position.initial``), or ``None`` when
            only ``seed`` is known.
        seed: the deal number, or ``None``. With ``cards`` it is only a label: the cards are dealt.
        moves: the moves played, first to last.
        lines: the text line of each move when read by :func:`parse_saved_game` (else empty), so
            that a refused move can be shown at its line; not compared.
    """

    game: str
    cards: tuple[Card, ...] | None
    seed: int | None = None
    moves: tuple[Move, ...] = field(default_factory=tuple)
    lines: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def deal(self, ruleset: Ruleset) -> tuple[Card, ...]:
        """The card order of the deal: ``cards``, or AisleRiot's deal number ``seed``
        (:func:`patiencebook.engine.deals.deal_order`).

        Raises :class:`NotationError` when neither can give it.
        """
        if self.cards is not None:
            return self.cards
        if self.seed is None:
            raise NotationError("a saved game needs 'deal:' (the card order) or 'seed:'")
        _check_seed(self.seed, None)
        try:
            from .deals import deal_order  # AisleRiot's numbered deals
        except ImportError:  # pragma: no cover - the module ships with the engine
            raise NotationError("this saved game gives only a seed, and no deal module is available to "
                                "turn it into a card order") from None
        try:
            return tuple(deal_order(ruleset, self.seed))
        except ValueError as err:
            raise NotationError(f"bad seed: {err}") from None

    def replay(self, ruleset: Ruleset) -> "Any":
        """A :class:`~patiencebook.engine.game.Game` with the deal dealt and every move played.

        Raises :class:`NotationError` when the game name does not match, a field has the wrong type,
        or the cards are not the deck, and :class:`IllegalMove` naming the move number (and its line,
        when read from text) when a move is refused.
        """
        from .game import Game
        if self.game != ruleset.game:
            raise NotationError(f"the saved game is of {_show(self.game)}, not {ruleset.game!r}")
        if self.seed is not None:
            _check_seed(self.seed, None)
        cards = self.deal(ruleset)
        if not isinstance(cards, (tuple, list)) or not all(isinstance(c, Card) for c in cards):
            raise NotationError("the deal of a saved game must be a list of cards")
        if not isinstance(self.moves, (tuple, list)) or not all(isinstance(m, Move) for m in self.moves):
            raise NotationError("the moves of a saved game must be a list of moves")
        _check_deck(ruleset, cards)
        game = Game(ruleset, cards, seed=self.seed)
        for n, move in enumerate(self.moves, 1):
            try:
                game.push(move)
            except IllegalMove as err:
                at = f"line {self.lines[n - 1]}: " if len(self.lines) == len(self.moves) else ""
                raise IllegalMove(f"{at}move {n} ({move}): {err}", err.code, err.params) from None
        return game

    def to_text(self) -> str:
        """The text form (grammar above); :func:`parse_saved_game` reads it back."""
        lines = [f"game: {self.game}"]
        if self.seed is not None:
            lines.append(f"seed: {self.seed}")
        if self.cards is not None:
            lines.append("deal: " + " ".join(str(c) for c in self.cards))
        lines.append(("moves: " + " ".join(str(m) for m in self.moves)).rstrip())
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON: ``{"game", "seed", "deal": [...] | null, "moves": [...]}``."""
        return {"game": self.game, "seed": self.seed,
                "deal": [str(c) for c in self.cards] if self.cards is not None else None,
                "moves": [str(m) for m in self.moves]}

    def to_json(self, indent: int | None = None) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Any) -> "SavedGame":
        """A saved game from :meth:`to_dict` data (any JSON value is accepted as input).

        Raises :class:`NotationError` for anything but an object with a non-empty ``game`` string,
        ``seed`` a deal number (0 .. 2**32 - 1) or ``null``, ``deal`` a list of face-up cards or
        ``null``, ``moves`` a list of move texts (at most :data:`MAX_MOVES`), and no other key.
        """
        if not isinstance(data, dict) or not isinstance(data.get("game"), str) or not data["game"].strip():
            raise NotationError("a saved game in JSON must be an object with a 'game' name")
        unknown = [k for k in data if k not in ("game", "seed", "deal", "moves")]
        if unknown:
            raise NotationError(f"unknown key(s) in saved game JSON: {', '.join(_show(k) for k in unknown[:5])}")
        seed = data.get("seed")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise NotationError(f"'seed' must be a whole number of at least 0, not {_show(seed)}")
            _check_seed(seed, None)
        deal = data.get("deal")
        cards = None
        if deal is not None:
            if not isinstance(deal, list) or not all(isinstance(t, str) for t in deal):
                raise NotationError("'deal' must be a list of cards like \"7h\"")
            if len(deal) > MAX_DEAL_CARDS:
                raise NotationError(f"'deal' lists {len(deal)} cards, more than any deck holds")
            cards = tuple(_face_up_card(t) for t in deal)
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(t, str) for t in moves):
            raise NotationError("'moves' must be a list of moves like \"tableau3>foundation1\"")
        if len(moves) > MAX_MOVES:
            raise NotationError(f"'moves' lists {len(moves)} moves; a saved game holds at most {MAX_MOVES}")
        return cls(data["game"].strip(), cards, seed, tuple(parse_move(t) for t in moves))

    @classmethod
    def from_json(cls, text: str) -> "SavedGame":
        """A saved game from :meth:`to_json` text; raises :class:`NotationError`."""
        return cls.from_dict(_load_json(text))


def _check_seed(seed: Any, line: int | None) -> None:
    from .deals import SEED_MAX
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise NotationError(f"'seed' must be a deal number from 0 to {SEED_MAX}, not {_show(seed)}", line)


def _face_up_card(text: str, line: int | None = None) -> Card:
    try:
        card, up = parse_card(text)
    except NotationError as err:
        raise NotationError(err.message, line) from None
    if not up:
        raise NotationError(f"a deal lists cards without '#', not {_show(text)}", line)
    return card


def parse_saved_game(text: str) -> SavedGame:
    """A :class:`SavedGame` from its text form; raises :class:`NotationError` with the line at fault.

    ``game:`` and ``seed:`` may be given once each (a seed is a deal number, 0 .. 2**32 - 1);
    ``deal:`` and ``moves:`` may repeat, each continuing the one before. At most
    :data:`MAX_MOVES` moves and :data:`MAX_DEAL_CARDS` cards are read.
    """
    game: str | None = None
    seed: int | None = None
    seed_line: int | None = None
    cards: list[Card] | None = None
    moves: list[Move] = []
    lines: list[int] = []
    for n, key, value in _fields(text):
        if key == "game":
            if game is not None:
                raise NotationError("'game:' is given twice", n)
            game = value.strip()
        elif key == "seed":
            if seed_line is not None:
                raise NotationError(f"'seed:' is given twice (first on line {seed_line})", n)
            seed, seed_line = _parse_int(value, "seed", n), n
            _check_seed(seed, n)
        elif key == "deal":
            tokens = value.split()
            if len(cards or ()) + len(tokens) > MAX_DEAL_CARDS:
                raise NotationError(f"'deal:' lists more than {MAX_DEAL_CARDS} cards, more than any deck holds", n)
            cards = (cards or []) + [_face_up_card(t, n) for t in tokens]
        elif key == "moves":
            tokens = value.split()
            if len(moves) + len(tokens) > MAX_MOVES:
                raise NotationError(f"a saved game holds at most {MAX_MOVES} moves", n)
            for t in tokens:
                try:
                    moves.append(parse_move(t))
                except NotationError as err:
                    raise NotationError(err.message, n) from None
                lines.append(n)
        else:
            raise NotationError(f"unknown line {_show(key)}: expected game, seed, deal or moves", n)
    if not game:
        raise NotationError("missing 'game:' (the game name)")
    return SavedGame(game, tuple(cards) if cards is not None else None, seed, tuple(moves), tuple(lines))
