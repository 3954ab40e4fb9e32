"""Moves, cards and refusal reasons in words, in the player's language.

The terminal, the help pages' examples and the browser board (in Pyodide) say the same things the
same way through :class:`Wording`; the words come from the caller, the interface strings of one
language (``generator/data/ui/<lang>.json``). Standard library only.

The message format
------------------
Every message is a **whole sentence template** of its language, one per message kind; nothing is
put together from pieces of sentences. A template is a string with slots in braces: ``"Move the
{card} {source:from} {target:to}."``. A slot may name a **form** after a colon, and a form name may
start with ``^`` to write the first letter as a capital (for a slot that begins a sentence):

- pile slots (``pile``, ``source``, ``target``, ``stock``) take a form from the language's
  ``pile_forms``; ``{source}`` alone is the pile's name as the board shows it.
- card slots (``card``, ``onto``) take a form from the language's ``card_forms``; ``{card}`` alone
  is the card as printed (``7♠``, the rank letters from ``card_ranks``).
- numbers (``count`` ...) and texts (``reason``, ``file`` ...) are written as they are.

A template that agrees with a number is an object keyed by CLDR plural category (``one``, ``few``,
``many``, ``other``; each category of the language's rule and ``other`` are required) and by exact
values (``"=0"``, taking precedence): ``{"=0": "... no redeal ...", "one": "... {count} redeal
...", "other": "... {count} redeals ..."}``. The number is the ``count`` slot's value; its
category comes from the language's plural rule (``plural_rules``, TR35 conditions by category, see
:mod:`~patiencebook.engine.plurals`), which the caller adds to the strings.

Data keys besides the templates:

- ``card_ranks``: the 13 rank marks, Ace to King, separated by spaces (``"A 2 3 4 5 6 7 8 9 10 B D K"``).
- ``pile_forms``: the forms of each pile's name, keyed by the pile group's English label (the
  rules block's ``label``), with `` {n}`` for a pile of a numbered group (``"Foundation {n}"``), and
  ``"*"`` for any other pile. Each entry maps form names to texts: ``"name"`` is the name as the
  board shows it (the translated Setup-table label; the entry is used only for a pile so named),
  the others are what the language's templates use (``"nom"``, ``"acc"``, ``"from"``, ``"to"``,
  ``"at"`` ...), with ``{n}`` for the pile's number and, in ``"*"``, ``{name}`` for its name:
  ``{"Stock": {"name": "Talon", "nom": "der Talon", "from": "vom Talon", ...}}``.
- ``card_forms`` (optional): forms of a card, keyed by rank codes separated by spaces (``A 2 3 4 5
  6 7 8 9 T J Q K`` and ``Jk`` for the joker, each in exactly one key), each form with ``{card}``:
  ``{"J K": {"nom": "der {card}", "acc": "den {card}"}, ...}``.
- ``plural_rules``: added by the caller (the generator, from CLDR), not written in the files.

:func:`check_interface` finds every way a language's strings break these rules.

The message kinds of moves (:meth:`Wording.analyse`): ``move``/``move_onto`` (one card, onto a pile
or onto a card), ``run``/``run_onto``, ``drag`` (cards not known: empty or face down), ``deal`` (the
stock turns cards onto the waste), ``deal_each`` (the stock deals onto the tableau), ``offer`` (the
stock offers a card in the chooser), ``redeal``, ``close_up`` (the stock closes up the tableau and
deals into its gaps), ``pair`` (a card placed on one of the same rank, the two leaving the table),
``stock`` (a click on the stock that can do nothing known), ``dbl``, ``dbl_run``, ``dbl_auto`` (double-clicks, naming where the cards go), ``dbl_pile``
(a double-click that moves nothing), ``flip``. Each has a ``play_do_<kind>`` template (what to do:
hints and example steps). What a played move did is ``play_done_move``, ``_run``, ``_deal``,
``_deal_each``, ``_offer``, ``_redeal``, ``_close_up``, ``_pair``, ``_flip`` or ``_auto`` (a double-click is said as the drag
it stands for, several of them as ``_auto``); what taking it back did is ``play_undone_move``,
``_run``, ``_stock`` (any stock click), ``_redeal``, ``_pair``, ``_flip`` or ``_auto``. Front ends add
``play_redone`` before a move played again, ``play_refused`` around a reason, ``board_won`` or
``board_lost`` after the move that ends the game, each a sentence of its own (:meth:`Wording.join`).
"""

from __future__ import annotations

import re
import string
from typing import Any, Iterable, Mapping

from patiencebook.engine.cards import Card, Colour, Rank, Suit
from patiencebook.engine.errors import IllegalMove
from patiencebook.engine.moves import Move, MoveKind
from patiencebook.engine.plurals import CATEGORIES, PluralRuleError, compile_rules
from patiencebook.engine.position import Position
from patiencebook.engine.rules import Role, Ruleset, StockAction, pile_id

__all__ = ["Wording", "Phrase", "SUIT_SYMBOLS", "RANK_CODES", "PILE_SLOTS", "CARD_SLOTS", "DATA_KEYS",
           "OPTIONAL_KEYS", "check_interface", "variant_name"]

#: The suit symbols used to write a card for a person (``10♥``).
SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
#: The rank codes of ``card_forms`` keys (the engine's own letters) and the joker's.
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "Jk")
#: Slots that name a pile, and slots that name a card.
PILE_SLOTS = frozenset({"pile", "source", "target", "stock"})
CARD_SLOTS = frozenset({"card", "onto"})
#: Keys of a language's strings that are data, not templates.
DATA_KEYS = frozenset({"card_ranks", "pile_forms", "card_forms", "plural_rules"})
#: Data keys a language has only when its templates need them (the source language has none).
OPTIONAL_KEYS = frozenset({"card_forms"})
#: The prefixes of the keys whose templates :class:`Wording` fills (and may be plural objects).
TEMPLATE_PREFIXES = ("play_", "reason_", "build_", "board_", "example_", "setup_cards")

_DEFAULT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RED, _RESET = "\x1b[31m", "\x1b[0m"
_EXACT = re.compile(r"=\d+\Z")


def variant_name(ui: Mapping[str, str], variant: str) -> str:
    """The name of rule variant ``variant`` (an id of a rules block: ``three-card-deals``) for a
    person: the interface string ``variant_<id>`` of ``ui``, else the id with spaces for its
    hyphens and a capital first letter (``"Three card deals"``)."""
    named = ui.get(f"variant_{variant}")
    if named:
        return named
    words = variant.replace("-", " ").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


class Phrase:
    """A slot value with grammatical forms: ``format(phrase, "dat")`` is its form ``dat``, ``""``
    its plain text, ``"^dat"`` the form with a capital first letter; a form it lacks gives the
    plain text. ``suffix`` (the typed pile number, ``" [9]"``) follows every form."""

    __slots__ = ("text", "forms", "suffix")

    def __init__(self, text: str, forms: Mapping[str, str] | None = None, suffix: str = ""):
        self.text = text
        self.forms = dict(forms or {})
        self.suffix = suffix

    def form(self, name: str = "") -> str:
        """The form ``name`` (``""``: the plain text), with the suffix."""
        return (self.forms.get(name) or self.text if name else self.text) + self.suffix

    def __format__(self, spec: str) -> str:
        capital = spec.startswith("^")
        text = self.form(spec[1:] if capital else spec)
        return text[:1].upper() + text[1:] if capital else text

    def __str__(self) -> str:
        return self.form()

    def __repr__(self) -> str:
        return f"Phrase({self.text!r}, {self.forms!r}, {self.suffix!r})"


class _Missing:
    """A slot no value was given for: written back as it stands, so a wrong key shows."""

    def __init__(self, key: str):
        self.key = key

    def __format__(self, spec: str) -> str:
        return "{" + self.key + (":" + spec if spec else "") + "}"


class _Formatter(string.Formatter):
    def get_value(self, key: Any, args: Any, kwargs: Mapping[str, Any]) -> Any:
        return kwargs[key] if key in kwargs else _Missing(str(key))

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, (Phrase, _Missing)):
            return value.__format__(format_spec)
        try:
            return format(value, format_spec)
        except (TypeError, ValueError):
            return str(value)


_FORMATTER = _Formatter()


def _fill(template: str, values: Mapping[str, Any]) -> str:
    try:
        return _FORMATTER.vformat(template, (), values)
    except (ValueError, IndexError, AttributeError, KeyError):
        return template  # a broken template (check_interface reports it) is shown as written


class Wording:
    """Says moves, cards and reasons of one game in one language.

    Args:
        ruleset: the game's rules model (pile groups, their labels and order; the stock's action).
        ui: the language's interface strings by key, in the format of this module's description:
            templates (``play_*``, ``reason_*``, ``build_*`` ...), ``card_ranks``, ``pile_forms``,
            ``card_forms`` and ``plural_rules``. A missing template key is shown as itself, a
            missing ``reason_<code>`` falls back to the engine's English sentence, missing data
            to English marks and plain names.
        names: each pile id's name for the player (``{"tableau3": "Tableau 3"}``).
        numbers: each pile id's number as typed in the terminal; when given, piles are written
            ``"Tableau 3 [9]"``.
        colour: write red suits with ANSI colour (terminals only).
    """

    def __init__(self, ruleset: Ruleset, ui: Mapping[str, Any], names: Mapping[str, str],
                 numbers: Mapping[str, int] | None = None, colour: bool = False):
        self.ruleset = ruleset
        self.ui = dict(ui)
        self.names = dict(names)
        self.numbers = dict(numbers) if numbers is not None else None
        self.colour = colour
        ranks = self.ui.get("card_ranks")
        marks = tuple(ranks.split()) if isinstance(ranks, str) else ()
        self.ranks = marks if len(marks) == 13 else _DEFAULT_RANKS
        rules = self.ui.get("plural_rules")
        try:
            self._plural = compile_rules(rules) if isinstance(rules, Mapping) else None
        except PluralRuleError:
            self._plural = None
        table = self.ui.get("pile_forms")
        self._pile_forms: Mapping[str, Any] = table if isinstance(table, Mapping) else {}
        cards = self.ui.get("card_forms")
        self._card_forms: dict[str, Mapping[str, str]] = {}
        if isinstance(cards, Mapping):
            for codes, forms in cards.items():
                if isinstance(forms, Mapping):
                    self._card_forms.update({code: forms for code in str(codes).split()})
        self._phrases = {pid: self._pile_phrase(g.label, g.count > 1, n, pid)
                         for g in ruleset.piles for n in range(1, g.count + 1) for pid in (pile_id(g, n),)}

    # -- the pieces ------------------------------------------------------------------------------

    def msg(self, key: str, **values: Any) -> str:
        """The interface string ``key`` filled with ``values``: a plural template picks its text by
        ``values["count"]``; a slot with no value stays as written; ``key`` itself when missing."""
        return _fill(self._template(key, values), values)

    def _template(self, key: str, values: Mapping[str, Any]) -> str:
        template = self.ui.get(key, key)
        if not isinstance(template, Mapping):
            return template if isinstance(template, str) else key
        count = values.get("count")
        if isinstance(count, int) and not isinstance(count, bool):
            exact = template.get(f"={count}")
            if isinstance(exact, str):
                return exact
            category = self._plural(count) if self._plural else ("one" if count == 1 else "other")
            if isinstance(template.get(category), str):
                return template[category]
        other = template.get("other")
        return other if isinstance(other, str) else next((v for v in template.values() if isinstance(v, str)), key)

    @staticmethod
    def join(*sentences: str) -> str:
        """Whole sentences shown together, each with its own full stop: separated by a space, but
        not after a full-width full stop (``。``), which needs none."""
        out = ""
        for sentence in sentences:
            if not sentence:
                continue
            out += ("" if not out or out.endswith(("。", "！", "？")) else " ") + sentence
        return out

    def rank(self, rank: Rank | str | int) -> str:
        """The mark of a rank in the language (``card_ranks``): ``"K"`` in English, ``"Ρ"`` in Greek;
        ``rank`` may be a :class:`Rank`, its letter (``"T"``) or its value."""
        if isinstance(rank, str):
            try:
                rank = Rank.parse(rank)
            except ValueError:
                return rank
        return self.ranks[int(rank) - 1]

    def card(self, card: Card | str, face_up: bool = True) -> str:
        """A card for a person: ``10♥`` (in red with ``colour``), ``B♠`` with German rank marks,
        ``##`` when face down, ``Jk`` for a joker. ``card`` may be a :class:`Card` or its notation
        text (``"Th"``, ``"#Th"`` face down)."""
        if isinstance(card, str):
            if card.startswith("#"):
                card, face_up = card[1:], False
            card = Card.parse(card)
        if not face_up:
            return "##"
        if card.suit is None:
            return "Jk"
        text = f"{self.ranks[card.rank.value - 1]}{SUIT_SYMBOLS[card.suit]}"
        if self.colour and card.suit.colour is Colour.RED:
            return f"{_RED}{text}{_RESET}"
        return text

    def card_phrase(self, card: Card | str) -> Phrase:
        """A card as a slot value: :meth:`card` with the language's ``card_forms`` for its rank."""
        if isinstance(card, str):
            card = Card.parse(card.lstrip("#"))
        text = self.card(card)
        forms = self._card_forms.get("Jk" if card.rank is None else card.rank.letter, {})
        return Phrase(text, {name: form.replace("{card}", text) for name, form in forms.items()
                             if isinstance(form, str)})

    def _pile_phrase(self, label: str, numbered: bool, n: int, pid: str) -> Phrase:
        name = self.names.get(pid, pid)
        suffix = f" [{self.numbers[pid]}]" if self.numbers is not None and pid in self.numbers else ""
        entry = self._pile_forms.get(f"{label} {{n}}" if numbered else label)
        if isinstance(entry, Mapping) and isinstance(entry.get("name"), str) \
                and entry["name"].replace("{n}", str(n)) == name:
            forms = {k: v.replace("{n}", str(n)) for k, v in entry.items() if isinstance(v, str)}
        else:  # a name the table does not know (another catalog's word): the forms of any pile
            other = self._pile_forms.get("*")
            forms = ({k: v.replace("{name}", name) for k, v in other.items() if isinstance(v, str)}
                     if isinstance(other, Mapping) else {})
        return Phrase(name, forms, suffix)

    def pile_phrase(self, pile_id: str | None) -> Phrase:
        """A pile as a slot value: its name, its forms from ``pile_forms``, its typed number."""
        if pile_id is None:
            return Phrase("")
        if pile_id not in self._phrases:
            return Phrase(self.names.get(pile_id, pile_id))
        return self._phrases[pile_id]

    def pile(self, pile_id: str | None) -> str:
        """The player's name of a pile id, with its typed number when ``numbers`` was given."""
        if pile_id is None or pile_id not in self.names:
            return str(pile_id)
        return str(self.pile_phrase(pile_id))

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

    def _group_phrase(self, group_id: str) -> Phrase:
        for g in self.ruleset.piles:
            if g.id == group_id:
                return self.pile_phrase(pile_id(g, 1)) if g.count == 1 else Phrase(self.group_name(group_id))
        return Phrase(group_id)

    # -- reasons ---------------------------------------------------------------------------------

    def reason(self, code: str, english: str, params: Mapping[str, Any]) -> str:
        """A refusal reason from its code and params (:class:`~patiencebook.engine.errors.Reason`),
        or ``english`` when the ui has no ``reason_<code>``."""
        key = f"reason_{code}"
        if key not in self.ui:
            return english
        values: dict[str, Any] = dict(params)
        for name in ("pile", "target"):
            if name in values:
                values[name] = self.pile_phrase(values[name])
        if "source" in values:
            values["source"] = self._group_phrase(values["source"])
        for name in ("card", "onto"):
            if name in values:
                values[name] = self.card_phrase(values[name])
        if "rank" in values:
            values["rank"] = self.rank(values["rank"])
        for name in ("direction", "match"):
            if name in values:
                word = self.ui.get(f"build_{values[name]}", values[name])
                values[name] = word if isinstance(word, str) else values[name]
        return self.msg(key, **values)

    def refused(self, err: IllegalMove) -> str:
        """``play_refused`` with the reason of ``err`` in words."""
        return self.msg("play_refused", reason=self.reason(err.code, str(err), err.params))

    # -- moves -----------------------------------------------------------------------------------

    def _stock_pile(self, position: Position) -> str | None:
        return next((pid for pid in position.pile_ids if position.role(pid) is Role.STOCK), None)

    def _group_piles(self, group_id: str | None) -> list[str]:
        for g in self.ruleset.piles:
            if g.id == group_id:
                return [pile_id(g, n) for n in range(1, g.count + 1)]
        return []

    def analyse(self, move: Move, position: Position) -> tuple[str, dict[str, Any]]:
        """The message kind of ``move`` as it would be played from ``position`` and the values of
        its slots (see the module's description): ``("move_onto", {"card": Phrase, "source":
        Phrase, "target": Phrase, "onto": Phrase, "count": 1})``. The move need not be legal: a
        refused one is said as what was tried."""
        if move.kind is MoveKind.STOCK:
            return self._analyse_stock(position)
        if move.kind is MoveKind.FLIP:
            cards = position.pile(move.source or "") if move.source in position.pile_ids else ()
            values: dict[str, Any] = {"pile": self.pile_phrase(move.source), "count": 1}
            if cards:
                values["card"] = self.card_phrase(cards[-1][0])
            return "flip", values
        if move.kind is MoveKind.DOUBLE_CLICK:
            return self._analyse_double_click(move, position)
        return self._analyse_drag(move.source, move.target, move.count, position)

    def _analyse_drag(self, source: str | None, target: str | None, count: int, position: Position,
                      kinds: tuple[str, str, str, str] = ("move", "move_onto", "run", "run_onto")
                      ) -> tuple[str, dict[str, Any]]:
        values: dict[str, Any] = {"source": self.pile_phrase(source), "target": self.pile_phrase(target),
                                  "count": count}
        cards = position.pile(source) if source in position.pile_ids else ()
        if not 0 < count <= len(cards) or not cards[-count][1]:
            return "drag", values  # cards that are not there or face down are not named
        values["card"] = self.card_phrase(cards[-count][0])
        below = position.pile(target) if target in position.pile_ids else ()
        onto = bool(below) and below[-1][1] and position.role(target) is not Role.FOUNDATION
        if onto:
            values["onto"] = self.card_phrase(below[-1][0])
        single, single_onto, run, run_onto = kinds
        if onto and count == 1 and single_onto == "move_onto" and self._makes_pair(target, position):
            return "pair", values
        if count == 1:
            return (single_onto if onto else single), values
        return (run_onto if onto else run), values

    def _makes_pair(self, target: str, position: Position) -> bool:
        """Whether a card placed on ``target``'s top card leaves the table with it (``pair_to``)."""
        group = next((g for g in self.ruleset.piles if target in (pile_id(g, n) for n in range(1, g.count + 1))),
                     None)
        return group is not None and group.build is not None and group.build.pair_to is not None

    def _analyse_double_click(self, move: Move, position: Position) -> tuple[str, dict[str, Any]]:
        pile = move.source or ""
        try:
            drags = position.double_click_drags(pile)
        except IllegalMove:
            drags = []
        if not drags:
            return "dbl_pile", {"pile": self.pile_phrase(pile), "count": 1}
        if len(drags) == 1 and drags[0].source == pile:
            drag = drags[0]
            kind, values = self._analyse_drag(drag.source, drag.target, drag.count, position,
                                              ("dbl", "dbl", "dbl_run", "dbl_run"))
            values.pop("onto", None)
            if kind != "drag":
                return kind, values
        return "dbl_auto", {"pile": self.pile_phrase(pile), "count": sum(d.count for d in drags)}

    def _analyse_stock(self, position: Position) -> tuple[str, dict[str, Any]]:
        stock = self._stock_pile(position)
        cards = position.pile(stock) if stock else ()
        values: dict[str, Any] = {"stock": self.pile_phrase(stock), "count": 1}
        chooser = self.ruleset.chooser
        if chooser is not None and position.choosing:
            target = next(iter(self._group_piles(chooser.pile)), None)
            values["target"] = self.pile_phrase(target)
            if cards:
                values["card"] = self.card_phrase(cards[-1][0])
                return "offer", values
            return "stock", values
        policy = self.ruleset.stock
        if policy is None or policy.action is StockAction.NONE:
            return "stock", values
        targets = self._group_piles(policy.target)
        if policy.action is StockAction.CONSOLIDATE:
            return "close_up", values
        if policy.action is StockAction.DEAL_TO_EACH:
            if not cards:
                return "stock", values
            values["count"] = min(len(cards), policy.cards * len(targets))
            return "deal_each", values
        waste = targets[0] if targets else None
        if cards:
            values.update(target=self.pile_phrase(waste), count=min(policy.cards, len(cards)))
            return "deal", values
        values["source"] = self.pile_phrase(waste)
        if policy.redeals is not None and position.redeals_used >= policy.redeals:
            return "stock", values  # no redeal left: the click is only tried
        return "redeal", values

    #: The past-tense kind (``play_done_*``) and the taken-back kind (``play_undone_*``) of each kind.
    _DONE = {"move": "move", "move_onto": "move", "run": "run", "run_onto": "run", "dbl": "move",
             "dbl_run": "run", "dbl_auto": "auto", "deal": "deal", "deal_each": "deal_each", "offer": "offer",
             "redeal": "redeal", "flip": "flip", "close_up": "close_up", "pair": "pair"}
    _UNDONE = {"move": "move", "move_onto": "move", "run": "run", "run_onto": "run", "dbl": "move",
               "dbl_run": "run", "dbl_auto": "auto", "deal": "stock", "deal_each": "stock", "offer": "stock",
               "redeal": "redeal", "flip": "flip", "close_up": "stock", "pair": "pair"}

    def describe(self, move: Move, position: Position) -> str:
        """What to do to play ``move`` from ``position``, as a sentence (``play_do_<kind>``):
        "Move the 7♠ from tableau pile 6 onto the 8♥ on tableau pile 1." For hints and example steps."""
        kind, values = self.analyse(move, position)
        return self.msg(f"play_do_{kind}", **values)

    def report(self, move: Move, before: Position) -> str:
        """What ``move``, just played from ``before``, did, as a sentence (``play_done_<kind>``):
        "The 7♠ moved from tableau pile 6 onto foundation 1." """
        kind, values = self.analyse(move, before)
        done = self._DONE.get(kind)
        return self.msg(f"play_done_{done}", **values) if done else self.msg(f"play_do_{kind}", **values)

    def taken_back(self, move: Move, position: Position) -> str:
        """What taking back ``move`` did, as a sentence (``play_undone_<kind>``), ``position`` being
        the position it was played from (the one after the undo): "The 7♠ is back on tableau pile 6." """
        kind, values = self.analyse(move, position)
        undone = self._UNDONE.get(kind)
        return self.msg(f"play_undone_{undone}", **values) if undone else self.msg(f"play_do_{kind}", **values)


# -- checking a language's strings --------------------------------------------------------------------

def _fields(template: str) -> list[tuple[str, str]]:
    """``(slot, form)`` of each slot of ``template``; raises ``ValueError`` for a broken template."""
    out = []
    for _, field, spec, _ in string.Formatter().parse(template):
        if field is not None:
            if not field or not field.isidentifier():
                raise ValueError(f"{{{field}}} is not a slot name")
            if spec and "{" in spec:
                raise ValueError(f"the slot {{{field}}} has a nested slot in its form")
            out.append((field, spec or ""))
    return out


def _check_forms_table(key: str, table: Any, problems: list[tuple[str, str]]) -> dict[str, set[str]]:
    """Each entry's form names of a ``pile_forms`` table (problems added for a bad table)."""
    if not isinstance(table, Mapping):
        problems.append((key, "must be an object of entries"))
        return {}
    entries: dict[str, set[str]] = {}
    for label, entry in table.items():
        where = f"{key}[{label!r}]"
        if not isinstance(entry, Mapping) or not all(isinstance(v, str) for v in entry.values()):
            problems.append((where, "must be an object of form names and texts"))
            continue
        if label != "*" and not isinstance(entry.get("name"), str):
            problems.append((where, "lacks \"name\", the pile's name as the board shows it"))
        for form, text in entry.items():
            if not form.isidentifier():
                problems.append((where, f"{form!r} is not a form name"))
            if label == "*" and "{name}" not in text:
                problems.append((where, f"form {form!r} lacks {{name}}, the pile's name"))
            elif label.endswith(" {n}") and "{n}" not in text:
                problems.append((where, f"form {form!r} lacks {{n}}, the pile's number"))
            elif label != "*" and not label.endswith(" {n}") and "{n}" in text:
                problems.append((where, f"form {form!r} has {{n}}, but the entry is for a pile without number"))
        entries[label] = set(entry)
    if table and "*" not in table:
        problems.append((key, "lacks the entry \"*\", the forms of a pile the table does not name"))
    return entries


def _check_card_forms(table: Any, problems: list[tuple[str, str]]) -> dict[str, set[str]]:
    if not isinstance(table, Mapping):
        problems.append(("card_forms", "must be an object of entries"))
        return {}
    seen: list[str] = []
    entries: dict[str, set[str]] = {}
    for codes, entry in table.items():
        where = f"card_forms[{codes!r}]"
        wrong = [c for c in codes.split() if c not in RANK_CODES]
        if wrong:
            problems.append((where, f"{' '.join(wrong)} not a rank code ({' '.join(RANK_CODES)})"))
        seen += codes.split()
        if not isinstance(entry, Mapping) or not all(isinstance(v, str) for v in entry.values()):
            problems.append((where, "must be an object of form names and texts"))
            continue
        for form, text in entry.items():
            if "{card}" not in text:
                problems.append((where, f"form {form!r} lacks {{card}}, the card"))
        entries[codes] = set(entry)
    twice = sorted({c for c in seen if seen.count(c) > 1})
    missing = [c for c in RANK_CODES if c not in seen]
    if twice:
        problems.append(("card_forms", f"names {' '.join(twice)} more than once"))
    if missing:
        problems.append(("card_forms", f"lacks the rank codes {' '.join(missing)}"))
    return entries


def check_interface(ui: Mapping[str, Any], categories: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """Every way the strings ``ui`` of one language break the message format (see the module's
    description), as ``(key, problem)`` pairs, in key order; ``[]`` when there is none.

    ``categories`` are the plural categories of the language (CLDR's, ``other`` included); a
    plural template must have each of them. Checked: data keys of the right shape (``card_ranks``
    13 marks, ``pile_forms`` and ``card_forms`` entries with their ``{n}``/``{name}``/``{card}``),
    plural templates only where :class:`Wording` fills the key, with known categories or exact
    values, templates that parse, and each slot form used by a template present in every entry of
    the table it comes from (a missing form is reported once, at the entry, naming the keys using it).
    """
    problems: list[tuple[str, str]] = []
    needed = set(categories or ()) | {"other"}
    if "card_ranks" in ui:
        marks = ui["card_ranks"].split() if isinstance(ui["card_ranks"], str) else []
        if len(marks) != 13:
            problems.append(("card_ranks", "must be the 13 rank marks, Ace to King, separated by spaces"))
    missing_forms: dict[tuple[str, str], list[str]] = {}  # (table entry, form) -> the keys using the form
    piles = _check_forms_table("pile_forms", ui["pile_forms"], problems) if "pile_forms" in ui else {}
    cards = _check_card_forms(ui["card_forms"], problems) if "card_forms" in ui else {}
    for key in sorted(ui):
        if key in DATA_KEYS:
            continue
        value = ui[key]
        texts: list[tuple[str, str]] = []
        if isinstance(value, str):
            texts = [(key, value)]
        elif isinstance(value, Mapping) and key.startswith(TEMPLATE_PREFIXES):
            wrong = [c for c in value if c not in CATEGORIES and not _EXACT.match(c)]
            if wrong:
                problems.append((key, f"{', '.join(wrong)}: not a plural category ({', '.join(CATEGORIES)}) "
                                      "or an exact value (=0)"))
            lacking = [c for c in CATEGORIES if c in needed and c not in value]
            if lacking:
                problems.append((key, f"lacks the plural forms {', '.join(lacking)} of the language"))
            for category, text in value.items():
                if isinstance(text, str):
                    texts.append((f"{key}[{category!r}]", text))
                else:
                    problems.append((f"{key}[{category!r}]", "must be a text"))
        else:
            problems.append((key, "must be a text" + (" or an object of plural forms"
                                                      if key.startswith(TEMPLATE_PREFIXES) else "")))
            continue
        for where, text in texts:
            try:
                fields = _fields(text)
            except ValueError as err:
                problems.append((where, f"cannot be read as a template: {err}"))
                continue
            for slot, spec in fields:
                form = spec[1:] if spec.startswith("^") else spec
                if not form:
                    continue
                if slot in PILE_SLOTS:
                    table, kind = piles, "pile_forms"
                elif slot in CARD_SLOTS:
                    table, kind = cards, "card_forms"
                else:
                    problems.append((where, f"{{{slot}:{spec}}}: only a pile or a card slot takes a form"))
                    continue
                if not table:
                    problems.append((where, f"{{{slot}:{spec}}} uses the form {form!r}, but there is no {kind}"))
                    continue
                for label, forms in table.items():
                    if form not in forms:
                        users = missing_forms.setdefault((f"{kind}[{label!r}]", form), [])
                        if key not in users:
                            users.append(key)
    for (where, form), users in sorted(missing_forms.items()):
        shown = ", ".join(users[:3]) + (f" and {len(users) - 3} more" if len(users) > 3 else "")
        problems.append((where, f"lacks the form {form!r} that {shown} use{'s' if len(users) == 1 else ''}"))
    return problems
