"""Moves, cards and refusal reasons in words, in the player's language.

The templates come from the caller (the ``play_*``, ``reason_*`` and ``build_*`` interface strings
of a language); this module only fills them, so the terminal, the help pages' examples and the
browser board (in Pyodide) say the same things the same way. Standard library only.
"""

from __future__ import annotations

import string
from typing import Any, Mapping

from patiencebook.engine.cards import Card, Colour, Suit
from patiencebook.engine.errors import IllegalMove
from patiencebook.engine.moves import Move, MoveKind
from patiencebook.engine.position import Position
from patiencebook.engine.rules import Role, Ruleset, pile_id

__all__ = ["Wording", "SUIT_SYMBOLS", "variant_name"]

#: The suit symbols used to write a card for a person (``10♥``).
SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_RED, _RESET = "\x1b[31m", "\x1b[0m"


def variant_name(ui: Mapping[str, str], variant: str) -> str:
    """The name of rule variant ``variant`` (an id of a rules block: ``three-card-deals``) for a
    person: the interface string ``variant_<id>`` of ``ui``, else the id with spaces for its
    hyphens and a capital first letter (``"Three card deals"``)."""
    named = ui.get(f"variant_{variant}")
    if named:
        return named
    words = variant.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


class _Fill(dict):
    """Format values that leave an unknown placeholder as it is, so a translation with an extra
    field never breaks a message."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Wording:
    """Says moves, cards and reasons of one game in one language.

    Args:
        ruleset: the game's rules model (pile groups and their order).
        ui: interface strings by key (``play_words_drag`` ...); a missing key is shown as itself,
            a missing ``reason_<code>`` falls back to the engine's English sentence.
        names: each pile id's name for the player (``{"tableau3": "Tableau 3"}``).
        numbers: each pile id's number as typed in the terminal; when given, piles are written
            ``"Tableau 3 [9]"``.
        colour: write red suits with ANSI colour (terminals only).
    """

    def __init__(self, ruleset: Ruleset, ui: Mapping[str, str], names: Mapping[str, str],
                 numbers: Mapping[str, int] | None = None, colour: bool = False):
        self.ruleset = ruleset
        self.ui = dict(ui)
        self.names = dict(names)
        self.numbers = dict(numbers) if numbers is not None else None
        self.colour = colour

    def msg(self, key: str, **values: Any) -> str:
        """The interface string ``key`` filled with ``values`` (unknown placeholders stay as written)."""
        return string.Formatter().vformat(self.ui.get(key, key), (), _Fill(values))

    def card(self, card: Card | str, face_up: bool = True) -> str:
        """A card for a person: ``10♥`` (in red with ``colour``), ``##`` when face down, ``Jk`` for a
        joker. ``card`` may be a :class:`Card` or its notation text (``"Th"``, ``"#Th"`` face down)."""
        if isinstance(card, str):
            if card.startswith("#"):
                card, face_up = card[1:], False
            card = Card.parse(card)
        if not face_up:
            return "##"
        if card.suit is None:
            return "Jk"
        rank = "10" if card.rank.letter == "T" else card.rank.letter
        text = f"{rank}{SUIT_SYMBOLS[card.suit]}"
        if self.colour and card.suit.colour is Colour.RED:
            return f"{_RED}{text}{_RESET}"
        return text

    def pile(self, pile_id: str | None) -> str:
        """The player's name of a pile id, with its typed number when ``numbers`` was given."""
        if pile_id is None or pile_id not in self.names:
            return str(pile_id)
        if self.numbers is not None and pile_id in self.numbers:
            return f"{self.names[pile_id]} [{self.numbers[pile_id]}]"
        return self.names[pile_id]

    def variant(self, variant: str) -> str:
        """The name of rule variant ``variant`` in this language (:func:`variant_name`)."""
        return variant_name(self.ui, variant)

    def group_name(self, group_id: str) -> str:
        """The player's name of a pile group (its label without a number)."""
        for g in self.ruleset.piles:
            if g.id == group_id:
                name = self.names.get(pile_id(g, 1), g.label)
                return name if g.count == 1 else name.rsplit(" ", 1)[0]
        return group_id

    def reason(self, code: str, english: str, params: Mapping[str, Any]) -> str:
        """A refusal reason from its code and params (:class:`~patiencebook.engine.errors.Reason`),
        or ``english`` when the ui has no ``reason_<code>``."""
        key = f"reason_{code}"
        if key not in self.ui:
            return english
        values: dict[str, Any] = dict(params)
        for name in ("pile", "target"):
            if name in values:
                values[name] = self.pile(values[name])
        if "source" in values:
            values["source"] = self.group_name(values["source"])
        for name in ("card", "onto"):
            if name in values:
                values[name] = self.card(values[name])
        if "rank" in values:
            values["rank"] = "10" if values["rank"] == "T" else values["rank"]
        for name in ("direction", "match"):
            if name in values:
                values[name] = self.ui.get(f"build_{values[name]}", values[name])
        return self.msg(key, **values)

    def refused(self, err: IllegalMove) -> str:
        """``play_refused`` with the reason of ``err`` in words."""
        return self.msg("play_refused", reason=self.reason(err.code, str(err), err.params))

    def describe(self, move: Move, position: Position) -> str:
        """``move`` in words, as it would be played from ``position`` (which names the moved card)."""
        if move.kind is MoveKind.STOCK:
            stock = next((pid for pid in position.piles if position.role(pid) is Role.STOCK), "stock")
            return self.msg("play_words_stock", stock=self.names.get(stock, stock))
        if move.kind is MoveKind.DOUBLE_CLICK:
            return self.msg("play_words_dbl", pile=self.pile(move.source))
        if move.kind is MoveKind.FLIP:
            return self.msg("play_words_flip", pile=self.pile(move.source))
        cards = position.pile(move.source or "")
        lead = cards[-move.count][0] if 0 < move.count <= len(cards) else None
        key = "play_words_drag" if move.count == 1 else "play_words_run"
        return self.msg(key, card=self.card(lead) if lead else "?", count=move.count,
                        source=self.pile(move.source), target=self.pile(move.target))
