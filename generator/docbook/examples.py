"""Executable examples in the rules sources: read them, replay them with the engine, make their traces.

An example is a DocBook ``example`` whose title is its caption, with a ``pb:replay`` child (a deal
number or a position in the notation) and a ``procedure`` whose ``step`` elements carry the move
(``pb:move``) and, optionally, what must hold afterwards (``pb:expect``); a step's paragraphs are its
translatable note. The build replays every example; a refused move or an unmet expectation is a
:class:`SourceError` naming the step's file and line and giving the engine's reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from lxml import etree

from patiencebook.engine import Game, IllegalMove, Move, MoveKind, NotationError, Position, Ruleset
from patiencebook.engine.cards import Rank
from patiencebook.engine.notation import parse_card, parse_position, position_to_dict
from patiencebook.engine.rules import Role
from patiencebook.engine.wording import Wording
from patiencebook.generator.errors import SourceError
from patiencebook.generator.docbook.document import NS_RULES, Page
from patiencebook.generator.docbook.sources import own_elements

__all__ = ["Example", "ExampleStep", "Expectation", "Replay", "ReplayedStep", "find_examples",
           "parse_expectations", "replay", "check_examples", "trace"]

TAG_REPLAY = f"{{{NS_RULES}}}replay"
TAG_POSITION = f"{{{NS_RULES}}}position"
ATTR_MOVE = f"{{{NS_RULES}}}move"
ATTR_EXPECT = f"{{{NS_RULES}}}expect"
_STATUSES = ("won", "lost", "playing")


@dataclass(frozen=True, slots=True)
class Expectation:
    """One thing a step states about the position after it (one item of ``pb:expect``).

    ``kind`` is ``"refused"`` (``value``: a reason code or ``None`` for any), ``"score"`` (int),
    ``"status"`` (``"won"``, ``"lost"``, ``"playing"``), ``"base"`` (a :class:`Rank` or ``None``),
    ``"cards"`` (``pile``'s exact cards, bottom to top, as ``(Card, face_up)`` pairs) or ``"count"``
    (``pile``'s number of cards).
    """

    kind: str
    value: Any
    pile: str | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class ExampleStep:
    """A step of an example: the move's text, the expectations, where it is, its ``step`` element."""

    move: str
    expect: tuple[Expectation, ...]
    line: int
    element: etree._Element


@dataclass(frozen=True, slots=True)
class Example:
    """An example of a page: ``deal`` (AisleRiot seed) or ``position`` (notation text), and steps.

    ``id`` is the ``example``'s DocBook id (``None`` when it has none), ``file``/``line`` where it
    starts, ``element`` the ``example`` element in the page's source tree.
    """

    id: str | None
    title: str
    file: Path
    line: int
    deal: int | None
    position: str | None
    steps: tuple[ExampleStep, ...]
    element: etree._Element


@dataclass(frozen=True, slots=True)
class ReplayedStep:
    """A step as played: the move, the refusal (``None`` when it was played) and the position after."""

    move: Move
    refused: IllegalMove | None
    before: Position
    after: Position


@dataclass(frozen=True, slots=True)
class Replay:
    """An example played through: the start position and each step."""

    example: Example
    start: Position
    steps: tuple[ReplayedStep, ...]


def _local(element: etree._Element) -> str:
    tag = element.tag
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def parse_expectations(text: str, ruleset: Ruleset) -> tuple[Expectation, ...]:
    """The expectations written in a ``pb:expect`` value, items separated by ``;``::

        refused | refused=CODE | score=N | won | lost | playing | base=R | base=- | PILE=N | PILE: CARDS

    ``CARDS`` are cards in the notation, bottom to top (``#`` before a face-down card), nothing for an
    empty pile. Raises ``ValueError`` saying which item is wrong.
    """
    piles = set(pile_ids_of(ruleset))
    found: list[Expectation] = []
    for raw in text.split(";"):
        item = raw.strip()
        if not item:
            continue
        key, colon, rest = item.partition(":")
        key = key.strip()
        if colon and "=" not in key:
            if key not in piles:
                raise ValueError(f"unknown pile {key!r} in {item!r} (piles: {', '.join(pile_ids_of(ruleset))})")
            try:
                cards = tuple(parse_card(t) for t in rest.split())
            except NotationError as err:
                raise ValueError(f"{item!r}: {err}") from None
            found.append(Expectation("cards", cards, key, item))
            continue
        name, equals, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not equals and name in _STATUSES:
            found.append(Expectation("status", name, None, item))
        elif name == "refused":
            found.append(Expectation("refused", value or None, None, item))
        elif equals and name == "score" and value.lstrip("-").isdigit():
            found.append(Expectation("score", int(value), None, item))
        elif equals and name == "base":
            try:
                rank = None if value == "-" else Rank.parse(value)
            except (NotationError, ValueError):
                raise ValueError(f"{item!r}: {value!r} is not a rank letter (A 2-9 T J Q K) or '-'") from None
            found.append(Expectation("base", rank, None, item))
        elif equals and name in piles and value.isdigit():
            found.append(Expectation("count", int(value), name, item))
        else:
            raise ValueError(f"cannot read {item!r}: expected refused[=CODE], score=N, won, lost, playing, "
                             f"base=R, PILE=N or 'PILE: cards'")
    return tuple(found)


def pile_ids_of(ruleset: Ruleset) -> tuple[str, ...]:
    """Every pile id of ``ruleset`` (``tableau1`` ... for groups of several piles)."""
    from patiencebook.engine.position import pile_ids

    return pile_ids(ruleset)


def find_examples(page: Page, other_roots: set | frozenset = frozenset()) -> list[Example]:
    """The examples on ``page`` (``example`` elements with a ``pb:replay`` child), in document order,
    leaving out those inside ``other_roots`` (the roots of pages nested in this one).

    Raises :class:`SourceError` (file and line) for an example on a page without a rules block, a
    ``pb:replay`` with neither or both of ``deal`` and ``pb:position``, a bad deal number, a step
    without ``pb:move``, or an unreadable ``pb:expect``.
    """
    found: list[Example] = []
    for element in own_elements(page.root, set(other_roots)):
        if element.tag != "example":
            continue
        replay_el = element.find(TAG_REPLAY)
        if replay_el is None:
            continue
        line = element.sourceline or 0
        if page.rules is None:
            raise SourceError("an example needs a page with a rules block (pb:rules)", page.file, line)
        deal_text = replay_el.get("deal")
        position_el = replay_el.find(TAG_POSITION)
        if (deal_text is None) == (position_el is None):
            raise SourceError("pb:replay needs either deal=\"N\" or a pb:position child, not both",
                              page.file, replay_el.sourceline)
        deal = None
        if deal_text is not None:
            if not deal_text.strip().isdigit() or not 1 <= int(deal_text) <= 0xFFFFFFFF:
                raise SourceError(f"deal={deal_text!r} is not a deal number (1 to 4294967295)",
                                  page.file, replay_el.sourceline)
            deal = int(deal_text)
        steps = []
        for step in element.findall("procedure/step"):
            move = step.get(ATTR_MOVE)
            if move is None or not move.strip():
                raise SourceError("a step of an example needs pb:move", page.file, step.sourceline)
            try:
                expect = parse_expectations(step.get(ATTR_EXPECT, ""), page.rules)
            except ValueError as err:
                raise SourceError(f"pb:expect: {err}", page.file, step.sourceline) from None
            steps.append(ExampleStep(move.strip(), expect, step.sourceline or line, step))
        if not steps:
            raise SourceError("an example needs a procedure with at least one step", page.file, line)
        title = element.find("title")
        found.append(Example(
            id=element.get("id"), title=_text(title) if title is not None else "",
            file=page.file, line=line, deal=deal,
            position=position_el.text or "" if position_el is not None else None,
            steps=tuple(steps), element=element))
    return found


def _start(example: Example, ruleset: Ruleset) -> Position:
    if example.deal is not None:
        return Game.deal(ruleset, example.deal).position
    try:
        return parse_position(example.position or "", ruleset)
    except NotationError as err:
        position_el = example.element.find(f"{TAG_REPLAY}/{TAG_POSITION}")
        base = position_el.sourceline if position_el is not None and position_el.sourceline else example.line
        line = base + (err.line - 1 if err.line else 0)
        raise SourceError(f"pb:position: {err.message}", example.file, line) from None


def _failed(position: Position, expectation: Expectation, wording: Wording) -> str | None:
    """Why ``expectation`` does not hold in ``position``, or ``None`` when it does."""
    kind, value = expectation.kind, expectation.value
    if kind == "score" and position.score != value:
        return f"the score is {position.score}"
    if kind == "status":
        status = "won" if position.is_won() else "lost" if position.is_lost() else "playing"
        if status != value:
            return f"the game is {status}"
    if kind == "base" and position.base_rank != value:
        return f"the base rank is {position.base_rank.letter if position.base_rank else 'not chosen'}"
    if kind == "count" and len(position.pile(expectation.pile)) != value:
        return f"{expectation.pile} holds {len(position.pile(expectation.pile))} cards"
    if kind == "cards" and tuple(position.pile(expectation.pile)) != value:
        from patiencebook.engine.notation import card_text

        shown = " ".join(card_text(c, up) for c, up in position.pile(expectation.pile)) or "nothing"
        return f"{expectation.pile} holds {shown}"
    return None


def replay(example: Example, ruleset: Ruleset) -> Replay:
    """Play ``example`` with the engine and check every expectation.

    Raises :class:`SourceError` at the step's line: a bad move text, a move the rules refuse (with the
    engine's reason) unless the step expects ``refused``, a move that is played although the step
    expects it refused or refused for another reason, or an expectation that does not hold.
    """
    wording = Wording(ruleset, {}, {})
    position = _start(example, ruleset)
    start = position
    played: list[ReplayedStep] = []
    for n, step in enumerate(example.steps, 1):
        where = f"example {example.id or example.title!r}, step {n} ({step.move})"
        try:
            move = Move.parse(step.move)
        except NotationError as err:
            raise SourceError(f"{where}: {err}", example.file, step.line) from None
        refused_expected = next((e for e in step.expect if e.kind == "refused"), None)
        try:
            after = position.apply(move)
            refused = None
        except IllegalMove as err:
            if refused_expected is None:
                raise SourceError(f"{where}: the engine refuses the move: {err}", example.file, step.line) from None
            if refused_expected.value and refused_expected.value != err.code:
                raise SourceError(f"{where}: expected the move to be refused for '{refused_expected.value}', "
                                  f"but the engine refuses it for '{err.code}': {err}",
                                  example.file, step.line) from None
            after, refused = position, err
        if refused_expected is not None and refused is None:
            raise SourceError(f"{where}: expected the move to be refused, but the rules allow it",
                              example.file, step.line)
        for expectation in step.expect:
            problem = _failed(after, expectation, wording)
            if problem:
                raise SourceError(f"{where}: expected '{expectation.text}', but {problem}", example.file, step.line)
        played.append(ReplayedStep(move, refused, position, after))
        position = after
    return Replay(example, start, tuple(played))


def check_examples(pages: list[Page]) -> dict[Example, Replay]:
    """Replay every example of ``pages``; the replays by example. Raises :class:`SourceError` at the
    first example that fails (see :func:`replay`)."""
    replays: dict[Example, Replay] = {}
    roots = {page.root for page in pages}
    for page in pages:
        for example in find_examples(page, roots - {page.root}):
            replays[example] = replay(example, page.rules)
    return replays


def _stock_pile(position: Position) -> str | None:
    return next((pid for pid in position.piles if position.role(pid) is Role.STOCK), None)


def _status(position: Position) -> str:
    return "won" if position.is_won() else "lost" if position.is_lost() else "playing"


def trace(replayed: Replay, lang: str, ui: Mapping[str, Any], names: Mapping[str, str],
          notes: Mapping[int, str] | None = None, layout: dict | None = None) -> dict[str, Any]:
    """The JSON trace of an example for the step-through widget, every text in one language.

    Args:
        replayed: the example as played (:func:`replay`).
        lang: gettext code of the page's language.
        ui: the language's interface strings (``example_*``, ``play_*``, ``reason_*`` keys and the
            data of :mod:`patiencebook.engine.wording`: rank marks, forms, plural rules).
        names: pile id -> name in the language.
        notes: step number (1-based) -> the step's note as plain text, as shown on the page.
        layout: the table layout (:func:`patiencebook.generator.pages.layout.pile_layout`).

    Returns a dict: ``id``, ``game``, ``lang``, ``deal``, ``layout``, ``names``, ``ui`` (the widget's
    labels and ``ranks``, the rank marks Ace to King separated by spaces), and ``steps``: the start
    position as step 0, then one entry per step with ``move``, ``words`` (what to do, a sentence:
    :meth:`~patiencebook.engine.wording.Wording.describe`), ``refused`` (the reason in words or ``None``), ``source``, ``target``, ``count``,
    ``position`` (:func:`~patiencebook.engine.notation.position_to_dict` of the position after it),
    ``status`` and ``announce`` (what the live region says).
    """
    example = replayed.example
    ruleset = replayed.start.ruleset
    wording = Wording(ruleset, ui, names)
    notes = notes or {}
    total = len(replayed.steps)
    start_words = (wording.msg("example_start_deal", deal=example.deal) if example.deal is not None
                   else wording.msg("example_start"))

    def announce(n: int, words: str, extra: list[str]) -> str:
        # Whole sentences, each with its full stop (a full-width one after Chinese or Japanese text):
        # the step's label, what it does, what came of it.
        parts = [wording.msg("example_step", n=n, total=total), words] + [text for text in extra if text]
        return wording.join(*(p if p.endswith((".", "!", "?", "…", "。", "！", "？"))
                              else p + ("。" if p and ord(p[-1]) >= 0x2E80 else ".") for p in parts))

    steps: list[dict[str, Any]] = [{
        "n": 0, "move": None, "words": start_words, "refused": None, "source": None, "target": None,
        "count": None, "position": position_to_dict(replayed.start), "status": _status(replayed.start),
        "announce": announce(0, start_words, []),
    }]
    for n, step in enumerate(replayed.steps, 1):
        words = wording.describe(step.move, step.before)
        refused = wording.reason(step.refused.code, str(step.refused), step.refused.params) if step.refused else None
        extra = [wording.msg("example_refused", reason=refused)] if refused else []
        if not refused and step.after.score != step.before.score:
            extra.append(wording.msg("example_score", score=step.after.score))
        extra.append(notes.get(n, ""))
        steps.append({
            "n": n, "move": str(step.move), "words": words, "refused": refused,
            "source": step.move.source or (_stock_pile(step.before) if step.move.kind is MoveKind.STOCK else None),
            "target": step.move.target,
            "count": step.move.count if step.move.target else None,
            "position": position_to_dict(step.after), "status": _status(step.after),
            "announce": announce(n, words, extra),
        })
    widget_ui = {key: ui.get(f"example_{key}", key) for key in
                 ("label", "controls", "first", "previous", "next", "last", "step", "keys")}
    widget_ui.update(empty=ui.get("play_empty", "(empty)"), score=ui.get("example_score", "Score: {score}"),
                     face_down=ui.get("setup_face_down", "face down"), ranks=" ".join(wording.ranks))
    return {"id": example.id, "game": ruleset.game, "lang": lang, "deal": example.deal,
            "layout": layout, "names": dict(names), "ui": widget_ui, "steps": steps}
