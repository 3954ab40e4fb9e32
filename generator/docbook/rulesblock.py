"""Reads the machine-readable rules block of a game page into the engine's rules model.

The block is a ``pb:rules`` element (namespace ``urn:x-patiencebook:rules:1``) placed in the page's
``sect1`` after its title; it carries ``its:translate="no"`` so that no catalog ever sees it.
Every element, attribute and value is checked: anything unknown is a :class:`SourceError` with file,
line and the allowed values. The schema is :data:`SCHEMA`; the model is :mod:`patiencebook.engine.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from lxml import etree

from patiencebook.engine.cards import MAX_JOKERS, CardError, Rank, Suit
from patiencebook.engine.errors import RulesError
from patiencebook.engine.rules import (HOOKS, LOST_NEVER, Accepts, AutoPlay, AutoRule, Base, BuildPolicy, ChooserPolicy,
                                       DealOrder, DealStep, Declined, Deck, Direction, DoubleClick, EndConditions, Face,
                                       DealFrom, FillPolicy, FillRule, KingsRule, Match, MoveLimit, MovePolicy, MoveUnit,
                                       PileGroup, Reveal, Role, Ruleset, Scoring, StockAction, StockPolicy,
                                       StockRequires, Won)

from ..errors import SourceError
from .document import NS_RULES

__all__ = ["RULES_TAG", "NS_ITS", "SCHEMA", "describe_schema", "find_rules_element", "load_rules",
           "load_variants"]

#: Tag of the rules block element.
RULES_TAG = f"{{{NS_RULES}}}rules"
#: The W3C Internationalization Tag Set namespace (``its:translate="no"`` on the block).
NS_ITS = "http://www.w3.org/2005/11/its"
_ITS_TRANSLATE = f"{{{NS_ITS}}}translate"
_ITS_VERSION = f"{{{NS_ITS}}}version"


class _Bad(ValueError):
    """A value could not be read.

    ``str()`` says what was expected; ``allowed`` lists the words of a closed list (the value was
    unknown), ``number`` marks a value that should have been a number.
    """

    def __init__(self, expected: str, allowed: str | None = None, number: bool = False):
        super().__init__(expected)
        self.allowed = allowed
        self.number = number


# -- value readers: text -> value, raising _Bad("expected ...") -----------------------------------

def _int(minimum: int) -> Callable[[str], int]:
    def read(text: str) -> int:
        t = text.strip()
        if not (t.isascii() and t.isdigit()) or int(t) < minimum:
            raise _Bad(f"a whole number of at least {minimum}", number=True)
        return int(t)
    return read


def _int_between(minimum: int, maximum: int) -> Callable[[str], int]:
    def read(text: str) -> int:
        t = text.strip()
        if not (t.isascii() and t.isdigit()) or not minimum <= int(t) <= maximum:
            raise _Bad(f"a whole number from {minimum} to {maximum}", number=True)
        return int(t)
    return read


def _ints(minimum: int) -> Callable[[str], tuple[int, ...]]:
    one = _int(minimum)

    def read(text: str) -> tuple[int, ...]:
        parts = text.split()
        if not parts:
            raise _Bad(f"one or more whole numbers of at least {minimum}, separated by spaces", number=True)
        try:
            return tuple(one(p) for p in parts)
        except _Bad:
            raise _Bad(f"whole numbers of at least {minimum}, separated by spaces", number=True) from None
    return read


def _enum(cls: Any) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        try:
            return cls(text)
        except ValueError:
            raise _Bad(f"one of {cls.allowed()}", allowed=cls.allowed()) from None
    return read


def _words(*allowed: str) -> Callable[[str], str]:
    def read(text: str) -> str:
        if text not in allowed:
            raise _Bad("one of " + ", ".join(allowed), allowed=", ".join(allowed))
        return text
    return read


def _yes_no(text: str) -> bool:
    if text not in ("yes", "no"):
        raise _Bad("one of yes, no", allowed="yes, no")
    return text == "yes"


def _name(text: str) -> str:
    if not text or not text.replace("-", "_").isidentifier():
        raise _Bad("a name of letters, digits, '-' or '_'")
    return text


def _label(text: str) -> str:
    if not text.strip() or not text.isprintable():
        raise _Bad("a non-empty label (the English label of the pile's row in the Setup table)")
    return text.strip()


def _redeals(text: str) -> int | None:
    if text == "unlimited":
        return None
    try:
        return _int(0)(text)
    except _Bad:
        raise _Bad("a whole number of at least 0, or unlimited", number=True) from None


def _suits(text: str) -> tuple[Suit, ...]:
    try:
        return tuple(Suit.parse(p) for p in text.split()) or _fail_empty()
    except (CardError, _Bad):
        raise _Bad("suit letters from c d h s, separated by spaces") from None


def _ranks(text: str) -> tuple[Rank, ...]:
    try:
        return tuple(Rank.parse(p) for p in text.split()) or _fail_empty()
    except (CardError, _Bad):
        raise _Bad("rank letters from A 2 3 4 5 6 7 8 9 T J Q K, separated by spaces") from None


def _signed_int(text: str) -> int:
    t = text.strip()
    digits = t[1:] if t[:1] == "-" else t
    if not (digits.isascii() and digits.isdigit()):
        raise _Bad("a whole number, with '-' in front if below 0", number=True)
    return int(t)


def _rank(text: str) -> Rank:
    try:
        return Rank.parse(text.strip())
    except CardError:
        raise _Bad("a rank letter from A 2 3 4 5 6 7 8 9 T J Q K") from None


def _max_cards(text: str) -> "int | MoveLimit":
    try:
        return _int(1)(text)
    except _Bad:
        pass
    try:
        return MoveLimit(text)
    except ValueError:
        raise _Bad(f"a whole number of at least 1, or {MoveLimit.allowed()}") from None


def _faces(text: str) -> "Face | tuple[Face, ...]":
    parts = text.split()
    try:
        faces = tuple(Face(p) for p in parts)
    except ValueError:
        raise _Bad(f"one of {Face.allowed()}, or one of them per pile separated by spaces",
                   allowed=Face.allowed()) from None
    if not faces:
        raise _Bad(f"one of {Face.allowed()}", allowed=Face.allowed())
    return faces[0] if len(faces) == 1 else faces


def _fail_empty() -> Any:
    raise _Bad("at least one value")


def _lost(text: str) -> str:
    allowed = ", ".join([LOST_NEVER] + [h.name for h in HOOKS.values() if h.kind == "lost"])
    if text not in allowed.split(", "):
        raise _Bad("one of " + allowed, allowed=allowed)
    return text


def _hook(text: str) -> str:
    allowed = ", ".join(h.name for h in HOOKS.values() if h.kind == "game") or "(none defined yet)"
    if text not in allowed.split(", "):
        raise _Bad("one of " + allowed, allowed=allowed)
    return text


@dataclass(frozen=True, slots=True)
class _Attr:
    read: Callable[[str], Any]
    required: bool = False
    default: Any = None


@dataclass(frozen=True, slots=True)
class _Element:
    attrs: dict[str, _Attr]
    #: allowed child element local names -> (minimum, maximum or None) occurrences
    children: dict[str, tuple[int, int | None]]


#: The rules block schema: element local name -> attributes and children. Documentation and
#: error messages are generated from it, so it is the one place the format is defined.
SCHEMA: dict[str, _Element] = {
    "rules": _Element(
        {"game": _Attr(_name, True), "variant": _Attr(_name)},
        {"deck": (1, 1), "pile": (1, None), "deal": (1, 1), "stock": (0, 1), "chooser": (0, 1),
         "autoplay": (0, 1), "scoring": (1, 1), "end": (1, 1), "hook": (0, None), "variant": (0, None)}),
    "deck": _Element(
        {"decks": _Attr(_int(1), default=1), "suits": _Attr(_suits), "ranks": _Attr(_ranks),
         "jokers": _Attr(_int_between(0, MAX_JOKERS), default=0)}, {}),
    "pile": _Element(
        {"id": _Attr(_name, True), "role": _Attr(_enum(Role), True), "count": _Attr(_int(1), True),
         "label": _Attr(_label, True), "capacity": _Attr(_int(1)),
         "reveal": _Attr(_enum(Reveal), default=Reveal.AUTO),
         "double-click": _Attr(_enum(DoubleClick), default=DoubleClick.NONE), "slots": _Attr(_ints(0)),
         "columns": _Attr(_int(1))},
        {"build": (0, 1), "move": (0, 1), "fill": (0, 1), "cover": (0, None)}),
    "cover": _Element({"pile": _Attr(_int(1), True), "by": _Attr(_ints(1), True)}, {}),
    "build": _Element(
        {"direction": _Attr(_enum(Direction), True), "match": _Attr(_enum(Match), default=Match.RANK_ONLY),
         "wrap": _Attr(_yes_no, default=False), "base": _Attr(_enum(Base), default=Base.ANY),
         "stop-at-base": _Attr(_yes_no, default=False),
         "accepts": _Attr(_enum(Accepts), default=Accepts.SINGLE), "closed-on": _Attr(_rank),
         "pair-to": _Attr(_name), "neighbours": _Attr(_yes_no, default=False),
         "previous-holds-rank": _Attr(_yes_no, default=False)},
        {}),
    "move": _Element(
        {"unit": _Attr(_enum(MoveUnit), True), "match": _Attr(_enum(Match)),
         "direction": _Attr(_enum(Direction), default=Direction.DOWN), "wrap": _Attr(_yes_no, default=False),
         "stop-at-base": _Attr(_yes_no, default=False), "max": _Attr(_max_cards),
         "keeps-base": _Attr(_yes_no, default=False)},
        {}),
    "fill": _Element(
        {"rule": _Attr(_enum(FillRule), True), "from": _Attr(_name), "otherwise": _Attr(_enum(FillRule))}, {}),
    "deal": _Element({}, {"step": (1, None)}),
    "step": _Element(
        {"pile": _Attr(_name, True), "cards": _Attr(_ints(0), True), "face": _Attr(_faces, True),
         "order": _Attr(_enum(DealOrder), default=DealOrder.ROWS),
         "kings": _Attr(_enum(KingsRule), default=KingsRule.AS_DEALT),
         "rank": _Attr(_rank), "before-shuffle": _Attr(_yes_no, default=False),
         "from": _Attr(_enum(DealFrom), default=DealFrom.TOP)},
        {}),
    "stock": _Element(
        {"pile": _Attr(_name, True), "action": _Attr(_enum(StockAction), True), "target": _Attr(_name),
         "cards": _Attr(_int(1), default=1), "redeals": _Attr(_redeals, True),
         "requires": _Attr(_enum(StockRequires), default=StockRequires.NOTHING), "discard": _Attr(_name),
         "rest": _Attr(_name)},
        {}),
    "chooser": _Element(
        {"pile": _Attr(_name, True), "from": _Attr(_name, True), "offers": _Attr(_int(1), True),
         "declined": _Attr(_enum(Declined), default=Declined.STOCK_BOTTOM), "accept-to": _Attr(_name, True)},
        {}),
    "autoplay": _Element({"rule": _Attr(_enum(AutoRule), True)}, {}),
    "scoring": _Element(
        {"per-card": _Attr(_int(0), default=0), "per-full-foundation": _Attr(_int(0), default=0),
         "per-link": _Attr(_int(0), default=0), "link": _Attr(_enum(Match), default=Match.SAME_SUIT),
         "per-face-down": _Attr(_signed_int, default=0), "per-complete-pile": _Attr(_int(0), default=0),
         "per-card-cleared": _Attr(_int(0), default=0), "start": _Attr(_signed_int, default=0),
         "per-run-card": _Attr(_int(0), default=0), "per-stock-deal": _Attr(_signed_int, default=0),
         "per-peak": _Attr(_int(0), default=0), "last-peak": _Attr(_int(0), default=0),
         "max": _Attr(_int(1), True)}, {}),
    "end": _Element({"won": _Attr(_enum(Won), True), "lost": _Attr(_lost, True)}, {}),
    "hook": _Element({"name": _Attr(_hook, True)}, {}),
    "variant": _Element({"id": _Attr(_name, True)},
                        {"deck": (0, 1), "pile": (0, None), "stock": (0, 1), "scoring": (0, 1)}),
}


def _qname(el: etree._Element) -> str:
    q = etree.QName(el)
    return f"pb:{q.localname}" if q.namespace == NS_RULES else el.tag


def _attr_qname(name: str) -> str:
    q = etree.QName(name)
    if q.namespace == NS_ITS:
        return f"its:{q.localname}"
    return f"{{{q.namespace}}}{q.localname}" if q.namespace else q.localname


class _Loader:
    def __init__(self, file: Path):
        self.file = file

    def error(self, el: etree._Element, message: str) -> SourceError:
        return SourceError(f"{_qname(el)}: {message}", self.file, el.sourceline)

    def attrs(self, el: etree._Element, extra: tuple[str, ...] = ()) -> dict[str, Any]:
        """The element's attributes read by the schema (defaults filled in), keyed by attribute name."""
        spec = SCHEMA[etree.QName(el).localname].attrs
        for name in el.attrib:
            if name not in spec and name not in extra:
                allowed = ", ".join(spec) or "none"
                raise self.error(el, f"unknown attribute {_attr_qname(name)!r}; allowed: {allowed}")
        out: dict[str, Any] = {}
        for name, a in spec.items():
            text = el.get(name)
            if text is None:
                if a.required:
                    expected = _expected(a.read)
                    raise self.error(el, f"missing attribute {name!r} ({expected})")
                out[name] = a.default
                continue
            try:
                out[name] = a.read(text)
            except _Bad as bad:
                if bad.allowed is not None:
                    message = f"unknown value {text!r} for {name!r}; allowed: {bad.allowed}"
                elif bad.number:
                    message = f"bad number {text!r} for {name!r}; expected {bad}"
                else:
                    message = f"bad value {text!r} for {name!r}; expected {bad}"
                raise self.error(el, message) from None
        return out

    def children(self, el: etree._Element) -> dict[str, list[etree._Element]]:
        """The element's child elements grouped by local name, after checking names and counts."""
        spec = SCHEMA[etree.QName(el).localname].children
        if el.text and el.text.strip():
            raise self.error(el, f"unexpected text {el.text.strip()[:30]!r}; the rules block holds only elements")
        found: dict[str, list[etree._Element]] = {name: [] for name in spec}
        for child in el:
            if child.tail and child.tail.strip():
                raise SourceError(f"{_qname(el)}: unexpected text {child.tail.strip()[:30]!r}; "
                                  "the rules block holds only elements", self.file, child.sourceline)
            if not isinstance(child.tag, str):  # comments and processing instructions
                continue
            q = etree.QName(child)
            if q.namespace != NS_RULES or q.localname not in spec:
                allowed = ", ".join(f"pb:{n}" for n in spec) or "none"
                raise SourceError(f"{_qname(el)}: unknown element {_qname(child)!r}; allowed here: {allowed}",
                                  self.file, child.sourceline)
            found[q.localname].append(child)
        for name, (least, most) in spec.items():
            n = len(found[name])
            if n < least:
                raise self.error(el, f"missing element 'pb:{name}' (needed at least {least})")
            if most is not None and n > most:
                raise self.error(found[name][most], f"element 'pb:{name}' may appear at most {most} time(s) "
                                                    f"in {_qname(el)}")
        return found

    def build(self, el: etree._Element, make: Callable[..., Any], **kwargs: Any) -> Any:
        """``make(**kwargs)``, turning a model error into a SourceError at ``el``."""
        try:
            return make(**kwargs)
        except RulesError as err:
            raise SourceError(f"{_qname(el)}: {err.message}", self.file, err.line or el.sourceline) from None

    # -- elements -------------------------------------------------------------------------------

    def pile(self, el: etree._Element) -> PileGroup:
        a = self.attrs(el)
        kids = self.children(el)
        build = move = fill = None
        if kids["build"]:
            b = kids["build"][0]
            ba = self.attrs(b)
            self.children(b)
            build = self.build(b, BuildPolicy, direction=ba["direction"], match=ba["match"], wrap=ba["wrap"],
                               base=ba["base"], stop_at_base=ba["stop-at-base"], accepts=ba["accepts"],
                               closed_on=ba["closed-on"], pair_to=ba["pair-to"], neighbours=ba["neighbours"],
                               previous_holds_rank=ba["previous-holds-rank"])
        if kids["move"]:
            m = kids["move"][0]
            ma = self.attrs(m)
            self.children(m)
            move = self.build(m, MovePolicy, unit=ma["unit"], match=ma["match"], direction=ma["direction"],
                              wrap=ma["wrap"], stop_at_base=ma["stop-at-base"], max_cards=ma["max"],
                              keeps_base=ma["keeps-base"])
        if kids["fill"]:
            f = kids["fill"][0]
            fa = self.attrs(f)
            self.children(f)
            fill = self.build(f, FillPolicy, rule=fa["rule"], source=fa["from"], otherwise=fa["otherwise"])
        optional = {k: v for k, v in (("move", move), ("fill", fill)) if v is not None}
        if kids["cover"]:
            optional["covered_by"] = self.covers(kids["cover"], a["count"])
        if a["columns"] is not None:
            optional["columns"] = a["columns"]
        return self.build(el, PileGroup, id=a["id"], role=a["role"], count=a["count"], label=a["label"],
                          build=build, capacity=a["capacity"], reveal=a["reveal"],
                          double_click=a["double-click"], slots=a["slots"], line=el.sourceline, **optional)

    def covers(self, elements: list[etree._Element], count: int) -> tuple[tuple[int, ...], ...]:
        """The ``covered_by`` of a pile group from its ``pb:cover`` children (``pile``: a pile's
        number, ``by``: the numbers of the piles over it), one entry per pile of the ``count``."""
        over: list[tuple[int, ...]] = [()] * count
        seen: set[int] = set()
        for c in elements:
            ca = self.attrs(c)
            self.children(c)
            n = ca["pile"]
            if n > count:
                raise self.error(c, f"pile {n} is not a pile of the group, which has {count}")
            if n in seen:
                raise self.error(c, f"pile {n} is named by two pb:cover elements; give its covering piles once")
            for m in ca["by"]:
                if m > count or m == n:
                    raise self.error(c, f"pile {m} cannot lie over pile {n}: "
                                        + ("it is the pile itself" if m == n else
                                           f"the group has {count} piles"))
            seen.add(n)
            over[n - 1] = ca["by"]
        return tuple(over)

    def variant_piles(self, piles: list[etree._Element], replacing: list[etree._Element]) -> list[etree._Element]:
        """The block's pile elements with each of ``replacing`` (a variant's pb:pile elements) in
        place of the pile of the same id; a variant pile naming no pile of the block is an error."""
        out = list(piles)
        ids = [p.get("id") for p in out]
        for p in replacing:
            if p.get("id") not in ids:
                raise self.error(p, f"the variant's pile {p.get('id')!r} replaces no pile of the block; "
                                    f"piles: {', '.join(str(i) for i in ids)}")
            out[ids.index(p.get("id"))] = p
        return out

    def ruleset(self, el: etree._Element, variant: etree._Element | None = None) -> Ruleset:
        """The ruleset of block ``el``; with ``variant`` (a ``pb:variant`` child), that variant's,
        whose pb:deck, pb:stock and pb:scoring replace the block's, and each of whose pb:pile
        elements replaces the block's pile of the same id (Giant's same-suit option)."""
        a = self.attrs(el, extra=(_ITS_TRANSLATE, _ITS_VERSION))
        if el.get(_ITS_TRANSLATE) != "no":
            raise self.error(el, "missing attribute 'its:translate' with value 'no' "
                                 f"(xmlns:its=\"{NS_ITS}\"); it keeps the block out of catalogs")
        kids = self.children(el)
        variant_id = a["variant"]
        if kids["variant"] and variant_id is None:
            raise self.error(el, "a block with pb:variant elements names its own variant: "
                                 "add variant=\"...\" (the id of the rules it states)")
        if variant is not None:
            self.attrs(variant)
            for name, found in self.children(variant).items():
                if name == "pile":
                    kids[name] = self.variant_piles(kids[name], found)
                elif found:
                    kids[name] = found
            variant_id = variant.get("id")

        d = kids["deck"][0]
        da = self.attrs(d)
        self.children(d)
        deck_args: dict[str, Any] = {"decks": da["decks"], "jokers": da["jokers"]}
        if da["suits"] is not None:
            deck_args["suits"] = da["suits"]
        if da["ranks"] is not None:
            deck_args["ranks"] = da["ranks"]
        deck = self.build(d, Deck, **deck_args)

        piles = tuple(self.pile(p) for p in kids["pile"])

        steps = []
        deal_el = kids["deal"][0]
        self.attrs(deal_el)
        for s in self.children(deal_el)["step"]:
            sa = self.attrs(s)
            self.children(s)
            steps.append(self.build(s, DealStep, pile=sa["pile"], cards=sa["cards"], face=sa["face"],
                                    order=sa["order"], kings=sa["kings"], rank=sa["rank"],
                                    before_shuffle=sa["before-shuffle"], source=sa["from"],
                                    line=s.sourceline))

        stock = None
        if kids["stock"]:
            s = kids["stock"][0]
            sa = self.attrs(s)
            self.children(s)
            stock = self.build(s, StockPolicy, pile=sa["pile"], action=sa["action"], target=sa["target"],
                               cards=sa["cards"], redeals=sa["redeals"], requires=sa["requires"],
                               discard=sa["discard"], rest=sa["rest"], line=s.sourceline)

        chooser = None
        if kids["chooser"]:
            c = kids["chooser"][0]
            ca = self.attrs(c)
            self.children(c)
            chooser = self.build(c, ChooserPolicy, pile=ca["pile"], source=ca["from"], offers=ca["offers"],
                                 accept_to=ca["accept-to"], declined=ca["declined"], line=c.sourceline)

        autoplay = None
        if kids["autoplay"]:
            ap = kids["autoplay"][0]
            apa = self.attrs(ap)
            self.children(ap)
            autoplay = self.build(ap, AutoPlay, rule=apa["rule"], line=ap.sourceline)

        sc = kids["scoring"][0]
        sca = self.attrs(sc)
        self.children(sc)
        scoring = self.build(sc, Scoring, per_card=sca["per-card"], maximum=sca["max"],
                             per_full_foundation=sca["per-full-foundation"], per_link=sca["per-link"],
                             link=sca["link"], per_face_down=sca["per-face-down"],
                             per_complete_pile=sca["per-complete-pile"], per_card_cleared=sca["per-card-cleared"],
                             start=sca["start"], per_run_card=sca["per-run-card"],
                             per_stock_deal=sca["per-stock-deal"], per_peak=sca["per-peak"],
                             last_peak=sca["last-peak"], line=sc.sourceline)

        e = kids["end"][0]
        ea = self.attrs(e)
        self.children(e)
        end = self.build(e, EndConditions, won=ea["won"], lost=ea["lost"], line=e.sourceline)

        hooks = []
        for h in kids["hook"]:
            hooks.append(self.attrs(h)["name"])
            self.children(h)

        try:
            return Ruleset(game=a["game"], deck=deck, piles=piles, deal=tuple(steps), scoring=scoring, end=end,
                           stock=stock, chooser=chooser, hooks=tuple(hooks), autoplay=autoplay,
                           variant=variant_id, file=str(self.file))
        except RulesError as err:
            line = err.line or el.sourceline
            at = next((d for d in el.iter(f"{{{NS_RULES}}}*") if d.sourceline == line), el)
            raise SourceError(f"{_qname(at)}: {err.message}", self.file, line) from None


def _expected(read: Callable[[str], Any]) -> str:
    """What a reader accepts, for 'missing attribute' messages (found by feeding it an impossible value)."""
    try:
        read("\x00")
    except _Bad as bad:
        return f"expected {bad}"
    return "required"


def describe_schema() -> str:
    """The rules block format as plain text, one element per paragraph, generated from :data:`SCHEMA`.

    Each attribute line says whether it is required, its default, and what it accepts.
    """
    out = []
    for name, spec in SCHEMA.items():
        lines = [f"pb:{name}"]
        for attr, a in spec.attrs.items():
            need = ("required" if a.required else
                    "optional" if a.default is None else f"optional, default {_show(a.default)}")
            lines.append(f"  @{attr} ({need}): {_expected(a.read).removeprefix('expected ')}")
        for child, (least, most) in spec.children.items():
            times = f"{least}..{most if most is not None else 'n'}"
            lines.append(f"  <pb:{child}> {times}")
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def find_rules_element(page_root: etree._Element, file: Path | None = None) -> etree._Element | None:
    """The ``pb:rules`` element of a page, or ``None`` when the page has none.

    ``page_root`` is the page's root element (a game's ``sect1``); the block must be its direct child
    (or ``page_root`` itself). Raises :class:`SourceError` (with ``file`` when given) when the page
    holds more than one block or the block is nested deeper.
    """
    found = [el for el in page_root.iter(RULES_TAG)]
    if not found:
        return None
    if len(found) > 1:
        raise SourceError(f"pb:rules: a page may hold one rules block; another one starts at line "
                          f"{found[0].sourceline}", file, found[1].sourceline)
    block = found[0]
    if block is not page_root and block.getparent() is not page_root:
        raise SourceError(f"pb:rules: the rules block must be a direct child of the page's "
                          f"{etree.QName(page_root).localname} element", file, block.sourceline)
    return block


def load_rules(element: etree._Element, file: Path) -> Ruleset:
    """Build the engine's :class:`~patiencebook.engine.rules.Ruleset` from a ``pb:rules`` element.

    ``element`` is the block (see :func:`find_rules_element`); ``file`` is the source it was read from,
    used in messages together with ``element.sourceline``-based lines.
    Raises :class:`SourceError` ``file:line: pb:ELEMENT: message`` for an unknown element, attribute or
    value, a missing required attribute or element, a bad number, or a ruleset the model rejects.
    """
    if element.tag != RULES_TAG:
        raise SourceError(f"expected the rules block pb:rules ({NS_RULES}), found {element.tag!r}",
                          file, element.sourceline)
    return _Loader(Path(file)).ruleset(element)


def load_variants(element: etree._Element, file: Path) -> dict[str, Ruleset]:
    """Every rule variant of a ``pb:rules`` block: variant id -> ruleset, the block's own variant
    (its ``variant`` attribute) first, then each ``pb:variant`` in source order. Empty for a block
    without variants. Raises :class:`SourceError` as :func:`load_rules` does, and for a variant id
    used twice.
    """
    if element.tag != RULES_TAG:
        raise SourceError(f"expected the rules block pb:rules ({NS_RULES}), found {element.tag!r}",
                          file, element.sourceline)
    loader = _Loader(Path(file))
    main = loader.ruleset(element)
    variants = [el for el in element if isinstance(el.tag, str) and el.tag == f"{{{NS_RULES}}}variant"]
    if not variants:
        return {}
    out = {main.variant or "": main}
    for el in variants:
        ruleset = loader.ruleset(element, el)
        if ruleset.variant in out:
            raise SourceError(f"pb:variant: the variant id {ruleset.variant!r} is used twice", file, el.sourceline)
        out[ruleset.variant or ""] = ruleset
    return out
