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
:meth:`SavedGame.to_json`. Every reading error is a :class:`NotationError` saying what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from .cards import Card, CardError, Rank
from .errors import EngineError, IllegalMove, NotationError
from .moves import Move
from .position import Position, pile_ids
from .rules import Base, Role, Ruleset

__all__ = [
    "card_text", "parse_card", "move_text", "parse_move", "position_to_text", "parse_position",
    "position_to_dict", "position_from_dict", "position_to_json", "position_from_json",
    "SavedGame", "parse_saved_game",
]

_STATE_KEYS = ("game", "base", "redeals", "offers", "score")


# -- cards and moves ------------------------------------------------------------------------------

def card_text(card: Card, face_up: bool = True) -> str:
    """``"7h"`` for a face-up card, ``"#7h"`` for a face-down one; ``"Jk"``/``"#Jk"`` for a joker."""
    return str(card) if face_up else f"#{card}"


def parse_card(text: str) -> tuple[Card, bool]:
    """``(card, face_up)`` from ``"7h"`` or ``"#7h"`` (``"Jk"``/``"#Jk"`` for a joker); raises
    :class:`NotationError` naming the text."""
    t = text.strip()
    up = not t.startswith("#")
    try:
        return Card.parse(t if up else t[1:]), up
    except CardError as err:
        raise NotationError(f"bad card {text!r}: {err}") from None


def move_text(move: Move) -> str:
    """The text form of ``move`` (``str(move)``)."""
    return str(move)


def parse_move(text: str) -> Move:
    """The :class:`Move` for its text form; raises :class:`NotationError` (see :meth:`Move.parse`)."""
    return Move.parse(text)


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


def _check_deck(ruleset: Ruleset, cards: Sequence[Card], line: int | None = None) -> None:
    want: dict[Card, int] = {}
    for c in ruleset.cards():
        want[c] = want.get(c, 0) + 1
    have: dict[Card, int] = {}
    for c in cards:
        have[c] = have.get(c, 0) + 1
    extra = [str(c) for c in have if have[c] > want.get(c, 0)]
    missing = [str(c) for c in want if have.get(c, 0) < want[c]]
    if extra or missing:
        parts = []
        if extra:
            parts.append("too many or unknown: " + " ".join(extra))
        if missing:
            parts.append("missing: " + " ".join(missing))
        raise NotationError(f"the cards are not the {ruleset.game} deck of {ruleset.deck.size} cards ("
                            + "; ".join(parts) + ")", line)


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
        raise NotationError(f"'{key}:' needs a whole number of at least 0, not {value.strip()!r}", line)
    return int(v)


def _parse_base(value: str | None, line: int | None) -> Rank | None:
    if value is None or value.strip() in ("", "-"):
        return None
    try:
        return Rank.parse(value.strip())
    except CardError:
        raise NotationError(f"'base:' needs a rank (A 2-9 T J Q K) or '-', not {value.strip()!r}", line) from None


def _build(ruleset: Ruleset, state: dict[str, tuple[str, int | None]],
           piles: dict[str, list[tuple[Card, bool]]], where: dict[str, int | None]) -> Position:
    ids = pile_ids(ruleset)
    game, gline = state.get("game", (None, None))
    if game is None:
        raise NotationError("missing 'game:' (the game name)")
    if game != ruleset.game:
        raise NotationError(f"the position is of game {game!r}, not {ruleset.game!r}", gline)
    missing = [pid for pid in ids if pid not in piles]
    if missing:
        raise NotationError(f"missing pile line(s) for {', '.join(missing)}; every pile must be listed, "
                            "an empty one as 'PILE:'")
    base_text, bline = state.get("base", (None, None))
    base = _parse_base(base_text, bline)
    needs_base = ruleset.base is Base.BASE_CARD and any(piles.values())
    if base is None and needs_base and not _only_jokers_on_foundations(ruleset, piles):
        raise NotationError(f"{ruleset.game} needs 'base:' with the rank of the base card", bline)
    redeals = _parse_int(state["redeals"][0], "redeals", state["redeals"][1]) if "redeals" in state else 0
    offers = _parse_int(state["offers"][0], "offers", state["offers"][1]) if "offers" in state else 0
    _check_deck(ruleset, [c for cards in piles.values() for c, _ in cards])
    try:
        position = Position.from_piles(ruleset, piles, base, redeals, offers)
    except EngineError as err:
        raise NotationError(str(err)) from None
    if "score" in state:
        score_text, sline = state["score"]
        score = _parse_int(score_text, "score", sline)
        if score != position.score:
            raise NotationError(f"'score: {score}' does not match the foundations, which give {position.score}",
                                sline)
    return position


def _fields(text: str):
    """``(line number, key, value)`` for each ``KEY: VALUE`` line; skips blanks and ``;`` comments."""
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise NotationError(f"expected 'NAME: VALUE', got {line[:40]!r}", n)
        yield n, key.strip(), value


def parse_position(text: str, ruleset: Ruleset) -> Position:
    """The position written in ``text`` (grammar above) for a game of ``ruleset``.

    Checks that the game name matches, that every pile is listed once, that the cards are exactly
    the ruleset's deck, and that a ``score:`` line agrees with the foundations. Raises
    :class:`NotationError` with the line number and what is wrong.
    """
    ids = set(pile_ids(ruleset))
    state: dict[str, tuple[str, int | None]] = {}
    piles: dict[str, list[tuple[Card, bool]]] = {}
    where: dict[str, int | None] = {}
    for n, key, value in _fields(text):
        if key in _STATE_KEYS:
            if key in state:
                raise NotationError(f"'{key}:' is given twice", n)
            state[key] = (value.strip(), n)
        elif key in ids:
            if key in piles:
                raise NotationError(f"pile {key!r} is listed twice", n)
            try:
                piles[key] = [parse_card(t) for t in value.split()]
            except NotationError as err:
                raise NotationError(err.message, n) from None
            where[key] = n
        else:
            raise NotationError(f"unknown line {key!r}: expected one of {', '.join(_STATE_KEYS)} or a pile id of "
                                f"{ruleset.game} ({', '.join(pile_ids(ruleset))})", n)
    return _build(ruleset, state, piles, where)


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
    """The position from :func:`position_to_dict` data; raises :class:`NotationError` when malformed."""
    if not isinstance(data, dict):
        raise NotationError("a position in JSON must be an object")
    unknown = set(data) - {"game", "base", "redeals", "offers", "score", "piles"}
    if unknown:
        raise NotationError(f"unknown key(s) in position JSON: {', '.join(sorted(unknown))}")
    state: dict[str, tuple[str, int | None]] = {}
    for key in _STATE_KEYS:
        if key in data:
            value = data[key]
            if key == "base" and value is None:
                value = "-"
            if key in ("redeals", "offers", "score") and not (isinstance(value, int) and not isinstance(value, bool)):
                raise NotationError(f"{key!r} must be a whole number, not {value!r}")
            state[key] = (str(value), None)
    raw_piles = data.get("piles")
    if not isinstance(raw_piles, list):
        raise NotationError("'piles' must be a list of {\"id\", \"role\", \"cards\"} objects")
    ids = pile_ids(ruleset)
    piles: dict[str, list[tuple[Card, bool]]] = {}
    for entry in raw_piles:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) \
                or not isinstance(entry.get("cards"), list):
            raise NotationError(f"a pile must be an object with 'id' and 'cards', not {entry!r:.60}")
        pid = entry["id"]
        if pid not in ids:
            raise NotationError(f"unknown pile {pid!r}; {ruleset.game} has {', '.join(ids)}")
        if pid in piles:
            raise NotationError(f"pile {pid!r} is listed twice")
        role = entry.get("role")
        if role is not None and role != ruleset.pile(_group_of(ruleset, pid)).role.value:
            raise NotationError(f"pile {pid!r} has role {ruleset.pile(_group_of(ruleset, pid)).role.value!r}, "
                                f"not {role!r}")
        if not all(isinstance(t, str) for t in entry["cards"]):
            raise NotationError(f"the cards of pile {pid!r} must be strings like \"7h\" or \"#Qs\"")
        piles[pid] = [parse_card(t) for t in entry["cards"]]
    return _build(ruleset, state, piles, {})


def _group_of(ruleset: Ruleset, pid: str) -> str:
    for g in ruleset.piles:
        if pid == g.id or (g.count > 1 and pid.startswith(g.id) and pid[len(g.id):].isdigit()):
            return g.id
    raise KeyError(pid)


def position_to_json(position: Position, indent: int | None = None) -> str:
    """:func:`position_to_dict` as a JSON string."""
    return json.dumps(position_to_dict(position), indent=indent, ensure_ascii=False)


def position_from_json(text: str, ruleset: Ruleset) -> Position:
    """The position from :func:`position_to_json` text; raises :class:`NotationError`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise NotationError(f"not JSON: {err.msg}", err.lineno) from None
    return position_from_dict(data, ruleset)


# -- saved games ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game as it can be stored: the game name, the deal (card order and/or seed) and the moves.

    Attributes:
        game: the ruleset's game name.
        cards: the cards in the order the deal takes them (``Position.initial``), or ``None`` when
            only ``seed`` is known.
        seed: the deal number, or ``None``.
        moves: the moves played, first to last.
    """

    game: str
    cards: tuple[Card, ...] | None
    seed: int | None = None
    moves: tuple[Move, ...] = field(default_factory=tuple)

    def deal(self, ruleset: Ruleset) -> tuple[Card, ...]:
        """The card order of the deal: ``cards``, or AisleRiot's deal number ``seed``
        (:func:`patiencebook.engine.deals.deal_order`).

        Raises :class:`NotationError` when neither can give it.
        """
        if self.cards is not None:
            return self.cards
        if self.seed is None:
            raise NotationError("a saved game needs 'deal:' (the card order) or 'seed:'")
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

        Raises :class:`NotationError` when the game name does not match, and :class:`IllegalMove`
        naming the move number when a move is refused.
        """
        from .game import Game
        if self.game != ruleset.game:
            raise NotationError(f"the saved game is of {self.game!r}, not {ruleset.game!r}")
        cards = self.deal(ruleset)
        _check_deck(ruleset, cards)
        game = Game(ruleset, cards, seed=self.seed)
        for n, move in enumerate(self.moves, 1):
            try:
                game.push(move)
            except IllegalMove as err:
                raise IllegalMove(f"move {n} ({move}): {err}", err.code, err.params) from None
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
        """A saved game from :meth:`to_dict` data; raises :class:`NotationError` when malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise NotationError("a saved game in JSON must be an object with a 'game' name")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
            raise NotationError(f"'seed' must be a whole number of at least 0, not {seed!r}")
        deal = data.get("deal")
        cards = None
        if deal is not None:
            if not isinstance(deal, list) or not all(isinstance(t, str) for t in deal):
                raise NotationError("'deal' must be a list of cards like \"7h\"")
            cards = tuple(_face_up_card(t) for t in deal)
        moves = data.get("moves", [])
        if not isinstance(moves, list) or not all(isinstance(t, str) for t in moves):
            raise NotationError("'moves' must be a list of moves like \"tableau3>foundation1\"")
        return cls(data["game"], cards, seed, tuple(Move.parse(t) for t in moves))

    @classmethod
    def from_json(cls, text: str) -> "SavedGame":
        """A saved game from :meth:`to_json` text; raises :class:`NotationError`."""
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as err:
            raise NotationError(f"not JSON: {err.msg}", err.lineno) from None


def _face_up_card(text: str, line: int | None = None) -> Card:
    try:
        card, up = parse_card(text)
    except NotationError as err:
        raise NotationError(err.message, line) from None
    if not up:
        raise NotationError(f"a deal lists cards without '#', not {text!r}", line)
    return card


def parse_saved_game(text: str) -> SavedGame:
    """A :class:`SavedGame` from its text form; raises :class:`NotationError` with the line at fault."""
    game: str | None = None
    seed: int | None = None
    cards: list[Card] | None = None
    moves: list[Move] = []
    for n, key, value in _fields(text):
        if key == "game":
            if game is not None:
                raise NotationError("'game:' is given twice", n)
            game = value.strip()
        elif key == "seed":
            seed = _parse_int(value, "seed", n)
        elif key == "deal":
            cards = (cards or []) + [_face_up_card(t, n) for t in value.split()]
        elif key == "moves":
            for t in value.split():
                try:
                    moves.append(Move.parse(t))
                except NotationError as err:
                    raise NotationError(err.message, n) from None
        else:
            raise NotationError(f"unknown line {key!r}: expected game, seed, deal or moves", n)
    if not game:
        raise NotationError("missing 'game:' (the game name)")
    return SavedGame(game, tuple(cards) if cards is not None else None, seed, tuple(moves))
