"""Compares what an English msgid states about the rules with what its translation states.

Both texts are read into facts (:mod:`.facts`) sentence by sentence, and their sentences are paired
in blocks (:mod:`.alignment`). Within a block, a value that differs is a contradiction, a value of
the English the translation lacks is an omission unless the translation implies it or says it in
another sentence, and a negation or a restriction ("only") dropped or added changes the rule
(:mod:`.polarity`); which pile a build direction or match is said of comes from :mod:`.bypile`.
Each finding carries a confidence between 0 and 1 from which its severity follows
(:func:`severity_of`); the page's rules model, when there is one, is a third witness that raises
the confidence of a contradiction it agrees with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .alignment import ANCHORS as _ANCHORS
from .alignment import align_sentences
from .alignment import sentence_bounds as _bounds
from .alignment import sentence_left_out as _sentence_left_out
from .bypile import BUILD_KINDS, swapped
from .facts import UNLIMITED, Fact, extract_facts, lexicon_of, masked
from .facts import values_of as _values
from .findings import Span
from .polarity import disjunction_lost, polarity_findings
from .lexicon import fold, load_lexicon, read_tokens

#: A finding of :func:`compare`: (check, severity, message, source span, translation span, confidence).
FactFinding = tuple[str, str, str, "Span | None", "Span | None", float]

#: Confidence at and above which a finding is an error, and a warning (below: information).
ERROR_AT, WARNING_AT = 0.75, 0.5

#: How sure an omission is, by fact kind: a dropped build direction or suit match changes the rule;
#: a dropped count or pile name is mostly a paraphrase ("both", "that pile"), hence information.
OMISSION = {"direction": 0.6, "suit-colour": 0.6, "redeal": 0.6, "face": 0.5, "at-a-time": 0.5,
            "comparator": 0.45, "rank": 0.4, "number": 0.35, "pile": 0.3, "side": 0.35, "suit-name": 0.3,
            "in-play": 0.4, "position": 0.3, "step": 0.55}
#: An Ace, Jack, Queen or King the translation does not name (the start of "from Aces to Kings").
NAMED_RANK_OMISSION = 0.5
#: A fact left out that goes without saying where it stands (an "up" of foundations begun with an Ace,
#: "face up" on the foundations, a number in a hint's proverb): information.
GOES_WITHOUT_SAYING = 0.45
#: A count left out where the translation restricts with "only" instead.
COUNT_TO_ONLY = 0.55
#: A pile the source names, given only as "a pile".
PILE_UNNAMED = 0.5
#: The ranks' wrapping from King to Ace left out: the build stops at the King instead.
WRAP_OMISSION = 0.55
#: A build direction the translation states where the source builds in suit or colour without one.
DIRECTION_ADDED = 0.55
#: An "only one" the translation states where the source has no count of one.
ONLY_ONE_ADDED = 0.55
#: One card to each pile, translated without a word for each.
EACH_DROPPED = 0.5
#: A value replaced by one other value of the same kind.
CONTRADICTION = 0.85
#: A contradiction among several values on each side, whose pairing is a guess (numbers: a deal
#: described in other words gives several at once, hence information).
LOOSE_CONTRADICTION = 0.6
LOOSE_NUMBERS = 0.45
#: What the kind of text does to the confidence: titles and strategy hints state rules loosely.
ROLE_FACTOR = {"rule": (1.0, 1.0), "title": (0.9, 0.5), "strategy": (0.85, 0.6)}

_OPPOSITE = {"direction": {"up": "down", "down": "up"}, "face": {"up": "down", "down": "up"},
             "side": {"left": "right", "right": "left"}, "position": {"top": "bottom", "bottom": "top"}}
#: Values of suit-colour that contradict each other besides suit against colour.
_COLOUR_OPPOSITE = {"red": "black", "black": "red", "same": "alternate", "alternate": "same"}
#: Values that refine "colour" rather than state a rule of their own.
_REFINEMENTS = frozenset({"same", "red", "black"})
#: How cards match when built, of which a statement names one: "by rank" excludes the others.
_MATCHES = frozenset({"suit", "colour", "alternate", "same", "rank-only"})
#: Kinds whose values are compared as terms, in report order.
_TERM_KINDS = ("pile", "suit-colour", "suit-name", "direction", "step", "face", "side", "position", "comparator",
               "in-play")
#: Kinds where one mention changed into another shows in how often each value is said.
_SWAP_KINDS = frozenset({"pile", "suit-colour", "suit-name", "direction", "face", "side", "position"})
#: Kinds where a value the translation adds changes the rule ("add up to 13" as "13 or less").
_ADDED_KINDS = {"comparator": 0.55, "in-play": 0.55}
#: Added values that change a rule: a limit, or cards leaving play ("one higher than" is no limit).
_ADDED_VALUES = frozenset({"at-most", "at-least", "out"})
_ORDER = ("number", "rank", "pile", "suit-colour", "suit-name", "direction", "step", "face", "redeal", "at-a-time",
          "side", "position", "comparator", "in-play", "negation", "only", "must", "sentence")


@dataclass(frozen=True, slots=True)
class ModelFacts:
    """What a page's rules model states, as the comparison weighs it (all empty: nothing known).

    Attributes:
        redeals: the number of redeals (:data:`~.facts.UNLIMITED` for no limit), or ``None`` when
            the page's variants differ in it.
        builds: per kind of pile (``"foundation"``, ``"tableau"``, ...), how it is built:
            ``(pile, direction, match)`` with direction ``"up"``/``"down"`` and match ``"suit"``,
            ``"colour"``, ``"alternate"`` or ``None`` (rank only).
    """

    redeals: object = None
    builds: tuple[tuple[str, str, str | None], ...] = ()


@dataclass(frozen=True, slots=True)
class UnitContext:
    """What a unit is beyond its two texts.

    Attributes:
        role: ``"rule"`` (rules prose), ``"title"`` (a title or an option's name), ``"strategy"``
            (hints), or ``"other"`` (credits, legal notice, front matter: no rule checks at all).
        names: names in the English (game titles, ...) that are no rule facts ("Thirteen").
        translated_names: the translations of those names, masked in the msgstr.
        lexicon: the translation's lexicon key (:func:`~.facts.lexicon_key`), e.g. one extended
            with the catalog's agreed pile names; ``None``: the language's own.
        model: the page's rules model as :class:`ModelFacts`, or ``None``.
    """

    role: str = "rule"
    names: tuple[str, ...] = ()
    translated_names: tuple[str, ...] = ()
    lexicon: str | None = None
    model: ModelFacts | None = field(default=None)

    def key(self) -> tuple:
        """A hashable summary of everything that changes the comparison's result."""
        return (self.role, self.names, self.translated_names, self.lexicon, self.model)


def severity_of(confidence: float) -> str:
    """``"error"``, ``"warning"`` or ``"info"`` for a confidence (see :data:`ERROR_AT`, :data:`WARNING_AT`)."""
    if confidence >= ERROR_AT:
        return "error"
    return "warning" if confidence >= WARNING_AT else "info"


def compare(msgid: str, msgstr: str, lang: str, context: UnitContext | None = None) -> list[FactFinding]:
    """The findings of one translated unit: contradictions, omissions, negations and restrictions.

    ``lang`` is the catalog's language (``"de"``); ``context.lexicon`` may name an extended lexicon.
    Returns findings ordered by check (:data:`_ORDER`) and source position. An empty ``msgstr``, or
    one equal to the msgid, gives none (other checks' business), and so does a unit of role
    ``"other"``.

    Raises:
        LanguageError: no lexicon for ``lang``.
    """
    context = context or UnitContext()
    if context.role == "other" or not msgstr.strip() or msgstr.strip() == msgid.strip():
        return []
    src_text = masked(msgid, context.names)
    dst_text = masked(msgstr, context.translated_names)
    src = extract_facts(src_text, "en")
    dst = extract_facts(dst_text, context.lexicon or lang)
    # A lexicon of some kinds only (a language's CLDR number words) compares those kinds alone.
    lexicon = lexicon_of(context.lexicon or lang)
    kinds = lexicon.kinds
    redeals = set()
    if kinds is not None:
        redeals = {f.sentence for f in src if f.kind == "redeal"} if "redeal" not in kinds else set()
        src, dst = _within(src, kinds), _within(dst, kinds)
    if _same_statements(src, dst):
        return _reported(disjunction_lost(src_text, src, dst_text, dst, context.lexicon or lang), src, context)
    blocks = align_sentences(src_text, src, dst_text, dst)
    raw = []
    for s_ids, d_ids in blocks:
        if s_ids and d_ids:
            s_block, d_block = [f for f in src if f.sentence in s_ids], [f for f in dst if f.sentence in d_ids]
            found = _facts_compared(s_block, d_block, src_text, exact=len(s_ids) == 1 and len(d_ids) == 1,
                                    redeal_unread=bool(redeals & s_ids))
            raw += found + _swapped_piles(s_block, src_text, d_block, dst_text, context.lexicon or lang, found)
            raw += _joined_left_out(src_text, s_block, d_block, dst, s_ids)
        elif s_ids:
            raw += _missing_sentence(src_text, [f for f in src if f.sentence in s_ids], s_ids)
    # A value its own sentence lacks but another sentence of the translation states is a reordering.
    said = {(f.kind, v) for f in dst for v in _values(f)} | {f.value for f in dst if f.kind == "implied"}
    source_said = {(f.kind, v) for f in src for v in _values(f)} | {f.value for f in src if f.kind == "implied"}
    # A translated sentence the alignment could not pair may hold what the source says elsewhere.
    unpaired = {i for a, b in blocks if not a for i in b}
    told_apart = {(f.kind, v) for f in dst if f.sentence in unpaired for v in _values(f)}
    # But a match said twice (how cards build, then how runs move) and once in the translation lost one.
    matches = [(f.kind, v) for f in src if f.kind == "suit-colour" for v in _values(f)]
    told = [(f.kind, v) for f in dst if f.kind == "suit-colour" for v in _values(f)]
    said -= {m for m in matches if told.count(m) < matches.count(m)}
    raw = [r for r in raw if not (r[1] == "omission" and r[6] is not None and (r[0], r[6]) in said)
           and not (r[1] == "contradiction" and r[6] is not None and (r[0], r[6]) in told_apart)
           and not (r[1] == "added" and (r[0], r[6]) in source_said) and not _moved(r, src, dst)]
    if context.role == "strategy":
        raw = [_idle_number(r, src, src_text) for r in raw]
    raw = [_said_otherwise(r, src, dst, src_text, dst_text, context.lexicon or lang, blocks) for r in raw]
    raw += _one(src, dst, lang, dst_text)
    raw += _only_one_added(src, dst, src_text, blocks)
    raw += _wrap_dropped(src, dst, src_text)
    raw += _pile_generic(src, dst, blocks)
    raw += _direction_added(src, dst, src_text, blocks, context.model)
    raw += _each_dropped(src, dst, src_text, dst_text, blocks, context.lexicon or lang)
    raw += polarity_findings(src, dst, blocks, src_text)
    raw += disjunction_lost(src_text, src, dst_text, dst, context.lexicon or lang, blocks)
    if kinds is not None:
        raw = [r for r in raw if r[0] in kinds]
    if not lexicon.one_words:
        raw = [_unsure_one(r, src, dst) for r in raw]
    return _reported(raw, src, context)


def _reported(raw: list, src, context: UnitContext) -> list[FactFinding]:
    """The raw findings of one unit as :func:`compare` gives them: the confidence weighed by the
    unit's role and raised where the page's rules model states the source's value, the severity
    that follows from it, in report order."""
    contradicting, omitting = ROLE_FACTOR.get(context.role, (1.0, 1.0))
    out = []
    for check, nature, message, sspan, tspan, confidence, _value in raw:
        # A "not" dropped from a hint reverses it as it would a rule; an omission in a hint is wording.
        confidence *= contradicting if nature != "omission" else omitting
        if context.model is not None and nature == "contradiction":
            witness = _model_says(context.model, check, sspan, src)
            if witness:
                confidence = max(confidence, 0.95)
                message += f" (the page's rules say {witness} too)"
        confidence = round(min(confidence, 1.0), 2)
        out.append((check, severity_of(confidence), message, sspan, tspan, confidence))
    order = {c: i for i, c in enumerate(_ORDER)}
    out.sort(key=lambda f: (order.get(f[0], 99), f[3].start if f[3] else -1))
    return out


#: How "more than" of a quantity begins in each language ("more than one King"), as against a
#: value that is higher ("higher than", "höher als", "већа од").
_QUANTITY = ("more", "mehr", "über", "περισσότερ", "πάνω από", "више")


def _within(facts, kinds: frozenset[str]) -> list[Fact]:
    """The facts of ``facts`` that a lexicon stating only ``kinds`` can state as well. With numbers
    but no ranks, a rank from 2 to 10 is its number ("a ten", "un 10"); with numbers but no "at a
    time", a count said only by an "at a time" phrase ("one by one", "two at a time") is its number."""
    out = [f for f in facts if f.kind in kinds]
    if "number" in kinds:
        if "rank" not in kinds:
            out += [Fact("number", f.value, f.span, sentence=f.sentence) for f in facts
                    if f.kind == "rank" and 2 <= f.value <= 10]
        if "at-a-time" not in kinds:
            out += [Fact("number", f.value, f.span, sentence=f.sentence) for f in facts
                    if f.kind == "at-a-time" and isinstance(f.value, int) and not any(
                        g.kind == "number" and g.value == f.value and g.sentence == f.sentence for g in facts)]
    return sorted(out, key=lambda f: f.span.start)


def _unsure_one(raw: tuple, src, dst) -> tuple:
    """A number contradiction with a 1 on either side, for a language whose lexicon does not know
    its articles and words for "each" (no ``one_equivalents``): which "one" is a count cannot be
    told, so "one card to each pile" as "the three piles" is information, not an error."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "number" or nature != "contradiction":
        return raw
    ones = [f for f in src if f.kind == "number" and f.span == sspan and f.value == 1] + [
        f for f in dst if f.kind == "number" and f.span == tspan and f.value == 1]
    return (check, nature, message, sspan, tspan, min(confidence, LOOSE_NUMBERS), value) if ones else raw


def _crossed(raw: tuple, src, dst) -> tuple:
    """A number contradiction between aligned sentences where the whole translation still says the
    source's value and its own value no more often than the source does ("two adjacent cards …
    10 face up" against "δύο … 10 ανοιχτά" told in another order) is sentences aligned wrongly, not
    a number changed: information, not an error."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "number" or nature != "contradiction" or sspan is None or tspan is None:
        return raw
    s_fact = next((f for f in src if f.kind == "number" and f.span == sspan), None)
    d_fact = next((f for f in dst if f.kind == "number" and f.span == tspan), None)
    if s_fact is None or d_fact is None:
        return raw
    def count(facts, value):
        return sum(1 for f in facts if f.kind == "number" and f.value == value)
    # Over the whole unit the translation still says the source's value, and its own no more often.
    if count(dst, s_fact.value) >= 1 and count(dst, d_fact.value) <= count(src, d_fact.value):
        return (check, nature, message, sspan, tspan, min(confidence, LOOSE_NUMBERS), value)
    return raw


_COLOUR_OF = {"clubs": "black", "spades": "black", "hearts": "red", "diamonds": "red"}
#: Values of suit-colour that make a statement about colour, not suit.
_COLOUR_RULES = frozenset({"colour", "alternate", "same", "red", "black"})


def _same_colour(raw: tuple, src, dst) -> tuple:
    """A suit named for another of its colour ("a Diamond on a Club" as "… on a Spade") where the
    source states a colour rule and no suit rule: the example shows the same rule, so the finding
    is information."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "suit-name" or nature != "contradiction" or tspan is None:
        return raw
    d_fact = next((f for f in dst if f.kind == "suit-name" and f.span == tspan), None)
    matches = {v for f in src if f.kind == "suit-colour" for v in _values(f)}
    if d_fact is None or "suit" in matches or not matches & _COLOUR_RULES:
        return raw
    if not all(_COLOUR_OF.get(v) == _COLOUR_OF.get(value) for v in _values(d_fact)):
        return raw
    return (check, nature, message + " (a suit of the same colour, in a colour rule)", sspan, tspan,
            min(confidence, 0.45), value)


def _higher(fact: Fact) -> bool:
    """Whether a comparator says a value is higher, which states a build direction as "up" does."""
    return fact.kind == "comparator" and fact.value == "more" and not fact.span.text.lower().startswith(_QUANTITY)


#: Words of a sentence that states what may or must be done, with or without a fact word in it.
_RULE_VERB = re.compile(r"\b(?:can|cannot|may|must|built|build|moved|filled|placed|dealt)\b", re.I)


def _missing_sentence(text: str, facts, ids) -> list:
    """A source sentence that no sentence of the translation corresponds to, when it states a rule."""
    bounds = _bounds(text)
    (n,) = sorted(ids)[:1]
    start, end = bounds[n]
    sentence = text[start:end].strip()
    stated = [f for f in facts if f.kind in _ANCHORS or f.kind in ("negation", "only")] or _RULE_VERB.search(text[start:end])
    # Only a whole sentence counts: parts between semicolons are often joined by commas instead.
    whole = sentence.endswith((".", "!", "?")) and (start == 0 or text[:start].rstrip().endswith((".", "!", "?")))
    # A short sentence counts when it names a fact ("Cards are moved singly.").
    named = any(f.kind in _ANCHORS for f in facts)
    if not stated or len(sentence) < (12 if named else 25) or not whole:
        return []
    return [_sentence_left_out(text, n)]


def _joined_left_out(text: str, src, dst, whole, ids) -> list:
    """Source sentences of a block of several that share no fact with the block's translation while
    another of them does ("Tableau can be built down in suit. Cards are moved singly." as one
    sentence about building), nor with any other sentence of the translation (``whole``): each is a
    sentence left out, as :func:`_missing_sentence` judges."""
    if len(ids) < 2:
        return []
    def values(facts):  # a count is one value whether said as a number or "at a time"
        return {("number" if f.kind == "at-a-time" else f.kind, v) for f in facts if f.kind in _ANCHORS
                for v in _values(f)}
    told, anywhere = values(dst), values(whole)
    said = {i: values(f for f in src if f.sentence == i) for i in ids}
    if not any(facts & told for facts in said.values()):
        return []
    out = []
    for i in sorted(ids):
        if said[i] and not said[i] & anywhere:
            out += _missing_sentence(text, [f for f in src if f.sentence == i], {i})
    return out


def _facts_compared(src, dst, src_text: str, exact: bool = False, redeal_unread: bool = False) -> list:
    """Raw findings ``(check, nature, message, source span, translation span, confidence, value)``
    of the facts ``src`` (of ``src_text``) against ``dst``; nature is ``"contradiction"``,
    ``"omission"``, ``"added"`` (a value the translation states and the source does not) or
    ``"polarity"`` (a negation or restriction dropped or added, see :func:`.polarity.polarity_findings`).
    ``exact``: ``src`` is one sentence and ``dst`` its translation (see :func:`_numbers`);
    ``redeal_unread``: the source states redeals, which the translation's lexicon cannot read."""
    if _signature(src) == _signature(dst) and not (exact and len(_of(src, "side")) == 2):
        return []  # the same facts, said as often: nothing to compare (but "left to right" has an order)
    raw = _numbers(src, dst, exact, redeal_unread)
    # "higher than" is a build direction as much as "higher" is (Serbian "виша од", "већа од").
    src = src + [Fact("direction", "up", f.span, sentence=f.sentence) for f in src
                 if _higher(f) and not _of(src, "direction")]
    dst = dst + [Fact("direction", "up", f.span, sentence=f.sentence) for f in dst
                 if _higher(f) and not _of(dst, "direction")]
    src = _placed_on(src, src_text)
    present = {f.kind for f in src} | {f.kind for f in dst}
    for kind in _TERM_KINDS:
        if kind not in present:
            continue
        found = _terms(kind, src, dst, src_text)
        if exact and not any(r[1] == "contradiction" for r in found) and kind in _SWAP_KINDS:
            found += _swaps(kind, _of(src, kind), _of(dst, kind))
        if exact and kind == "side" and not found:
            found += _order(kind, _of(src, kind), _of(dst, kind))
        raw += found
    if "must" in present:
        raw += _obligation(src, dst)
    if "redeal" in present:
        raw += _valued("redeal", src, dst)
    if "at-a-time" in present:
        raw += _valued("at-a-time", src, dst)
    return raw


def _moved(raw: tuple, src, dst) -> bool:
    """Whether a number contradiction between aligned sentences is numbers told in other sentences:
    the source and the translation say each of the two numbers as often as each other ("Kings
    singly; pairs that add up to thirteen" as "pairs that add up to thirteen; Kings by themselves"),
    or the source's number is an "at a time" that the translation states in another sentence."""
    if raw[0] != "number" or raw[1] != "contradiction" or raw[4] is None or raw[6] is None:
        return False
    counted = _fact_at(src, raw[3], "at-a-time")
    if counted is not None and any(f.kind == "at-a-time" and f.value == counted.value for f in dst):
        return True  # "Kings singly" read as a count, whose "by themselves" is in another sentence
    told = _fact_at(dst, raw[4], "number")
    if told is None:
        return False
    said = [f.value for f in src if f.kind == "number"]
    stated = [f.value for f in dst if f.kind == "number"]
    return all(said.count(v) == stated.count(v) > 0 for v in (raw[6], told.value))


def _swapped_piles(src, src_text: str, dst, dst_text: str, lang: str, found: list) -> list:
    """Contradictions of a build direction or match that the translation ties to the other pile of a
    pair (see :mod:`.bypile`), for the kinds ``found`` has no contradiction of."""
    out = []
    for kind in BUILD_KINDS:
        if any(r[0] == kind and r[1] == "contradiction" for r in found):
            continue
        for (pile, sf, df), (other, of, _) in swapped(kind, src, src_text, dst, dst_text, lang):
            out.append((kind, "contradiction", f"the source says {_label(kind, sf.value)} of the {pile} and "
                        f"{_label(kind, of.value)} of the {other}; the translation the other way round",
                        sf.span, df.span, CONTRADICTION, sf.value))
    return out


def _placed_on(src, text: str) -> list:
    """``src`` less the second rank of "placing a card of a lower rank on to a card of a higher rank":
    the two ranks of one move, of which the card placed gives the build direction ("and so on to"
    places nothing)."""
    directions = [f for f in src if f.kind == "direction" and f.value in ("up", "down")]
    second = {b.span for a, b in zip(directions, directions[1:])
              if a.sentence == b.sentence and a.value != b.value
              and re.search(r"(?<!\bso )\bon(?:to|\s+to)?\b", text[a.span.end:b.span.start], re.I)}
    return [f for f in src if not (f.kind == "direction" and f.span in second)]


def _obligation(src, dst) -> list:
    """An obligation ("must be filled before dealing") that the translation turns into advice
    ("try to fill"): its sentences state no obligation and no restriction ("only", "not") in its
    place. One the translation adds is not reported: passives are often rendered with "must"."""
    said = _of(src, "must")
    if not said or any(f.kind in ("must", "only") or (f.kind == "negation" and f.value == "not") for f in dst):
        return []
    # A rule in the indicative ("the other piles are started with") binds as "must" does; only a
    # word of permission or advice in its place ("can", "try to") makes the rule optional.
    if not any(f.kind == "implied" and f.value == ("must", "optional") for f in dst):
        return []
    return [("must", "omission", f"the source states an obligation ('{said[0].span.text}'); the translation does not",
             said[0].span, None, 0.5, "must")]


def _same_statements(src, dst) -> bool:
    """Whether the two texts state the very same facts, negations and restrictions, as often and
    with sides in the same order: then no sentence can differ in any of them."""
    def full(facts):
        # A "one" is mostly an article, and a generic "pile" names nothing: neither tells the texts
        # apart, so long as the translation has at least as many ones.
        return sorted((f.kind, repr(f.value), f.ordinal) for f in facts if f.kind != "implied"
                      and not (f.kind == "negation" and f.value == "exhausted")
                      and not (f.kind == "number" and f.value == 1 and not f.ordinal)
                      and not (f.kind == "pile" and f.value == "pile"))

    def ones(facts):
        return sum(1 for f in facts if f.kind == "number" and f.value == 1 and not f.ordinal)
    return ones(src) <= ones(dst) and full(src) == full(dst) and [f.value for f in src if f.kind == "side"] == [
        f.value for f in dst if f.kind == "side"]


def _signature(facts) -> list:
    """The facts' kinds and values in a comparable order (spans and sentences left out)."""
    return sorted((f.kind, repr(f.value), f.ordinal) for f in facts if f.kind not in ("negation", "only", "implied"))


def _label(kind: str, value: object) -> str:
    if kind == "rank":
        return {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}.get(value, f"{value}")
    if kind == "redeal":
        if value == UNLIMITED:
            return "unlimited redeals"
        return f"{value} redeal" + ("" if value == 1 else "s")
    if kind == "at-a-time":
        return f"{value} at a time"
    if kind == "suit-colour":
        return {"alternate": "alternate colour", "same": "same colour", "rank-only": "rank only"}.get(value, value)
    if kind == "comparator":
        return {"sum": "add up to", "more": "more than", "at-most": "at most",
                "at-least": "at least", "exactly": "exactly"}.get(value, value)
    if kind == "face":
        return f"face {value}"
    if kind == "step":
        return "ranks one apart"
    if isinstance(value, tuple):
        return " or ".join(value)
    return str(value)


def _of(facts, kind: str) -> list[Fact]:
    return [f for f in facts if f.kind == kind]


def _first(facts, value) -> Fact:
    return next(f for f in facts if value in _values(f))


def _counts_dealt(facts, other) -> list:
    """``facts`` with each "N at a time" also as the number N when ``other`` states none: "deal one
    card on each pile" is "по две карте" changed, not a new kind of fact."""
    if _of(other, "at-a-time"):
        return facts
    numbers = [f.span for f in facts if f.kind == "number"]
    return facts + [Fact("number", f.value, f.span, sentence=f.sentence) for f in facts
                    if f.kind == "at-a-time" and isinstance(f.value, int)
                    and not any(s.start < f.span.end and f.span.start < s.end for s in numbers)]


def _numbers(src, dst, exact: bool = False, redeal_unread: bool = False) -> list:
    """Numbers and ranks. ``exact``: the two fact lists are one sentence and its translation, so a
    number the translation adds where the source says "one" ("one card" as "zwei Karten") is taken
    for a changed count, and ordinals ("the first pile" as "der zweite Stapel") are compared too.
    ``redeal_unread``: the source states redeals and the translation's lexicon cannot read them,
    so a count may be one of passes or of redeals, as when both state redeals."""
    def counted(facts):
        return sorted((f.kind, f.value, f.ordinal) for f in facts if f.kind in ("number", "rank", "at-a-time")
                      and not (f.kind == "number" and f.value == 1 and not f.ordinal))
    if counted(src) == counted(dst):
        return []  # the same counts and ranks (ones aside, which are mostly articles)
    out = []
    src, dst = _counts_dealt(src, dst), _counts_dealt(dst, src)
    for kind, other in (("number", "rank"), ("rank", "number")):
        s_facts, d_facts = _of(src, kind), _of(dst, kind)
        d_vals = {f.value for f in d_facts}
        # A rank may be written as a number word ("a ten" → "zehn") and back, but only 2 to 10: an
        # article is no Ace, and "thirteen" is no King.
        d_other = {f.value for f in _of(dst, other) if 2 <= f.value <= 10}
        s_all = {f.value for f in s_facts} | {f.value for f in _of(src, other) if 2 <= f.value <= 10}
        missing = [v for v in dict.fromkeys(f.value for f in s_facts if not f.ordinal)
                   if v not in d_vals and v not in d_other and (kind == "rank" or v != 1)]
        if kind == "number" and _of(dst, "at-a-time"):
            # "three at a time" vs "einzeln" is reported once, by the at-a-time check.
            missing = [v for v in missing if v not in {f.value for f in _of(src, "at-a-time")}]
        if kind == "number" and (redeal_unread or (_of(src, "redeal") and _of(dst, "redeal"))):
            # "three times through the deck" may be translated "two redeals" and back.
            missing = [v for v in missing if v - 1 not in d_vals and v + 1 not in d_vals]
        extra = [f for f in d_facts if f.value not in s_all and (kind == "rank" or f.value != 1) and not f.ordinal]
        # "the Four of hearts" as "херц петица": a number from 2 to 10 and a rank stand for each other.
        extra += [f for f in _of(dst, other) if 2 <= f.value <= 10 and f.value not in s_all and not f.ordinal
                  and f.value not in {g.value for g in s_facts}]
        extra = list({f.value: f for f in reversed(extra)}.values())[::-1]
        # One value for one: surely a changed count. As many for as many within one sentence and its
        # translation ("four rows of 13" as "fünf Reihen mit jeweils 12"): each source value is gone
        # and a value of its own stands there, paired in the order the two sentences name them.
        single = (len(missing) == 1 and len(extra) == 1) or (exact and len(missing) == len(extra) > 1)
        for v in missing:
            sf = _first(s_facts, v)
            if extra:
                df = extra.pop(0)
                out.append((kind, "contradiction",
                            f"{_label(kind, v)} in the source, {_label(kind, df.value)} in the translation",
                            sf.span, df.span, CONTRADICTION if single else LOOSE_NUMBERS, v))
            elif kind == "rank" and v == 1 and any(f.kind == "number" and f.ordinal and f.value == 1 for f in dst):
                continue  # "from the Ace to the four" as "the first four"
            else:
                # An Ace or a court card is named by a word; a rank from 2 to 10 may be a numeral.
                sure = NAMED_RANK_OMISSION if kind == "rank" and v in (1, 11, 12, 13) else OMISSION[kind]
                out.append((kind, "omission", f"the source says {_label(kind, v)}; the translation has no "
                            f"such {kind}", sf.span, None, sure, v))
        if not exact:
            continue
        ones = [f for f in s_facts if f.value == 1 and not f.ordinal] if kind == "number" else []
        d_ones = [f for f in d_facts if f.value == 1 and not f.ordinal]
        # A "1" the translation writes as a numeral too ("Aces equal to 1") is no article changed.
        kept = min(sum(f.span.text == "1" for f in ones), sum(f.span.text == "1" for f in d_ones))
        ones = [f for f in ones if f.span.text != "1"] + [f for f in ones if f.span.text == "1"][kept:]
        if _of(src, "redeal") or _of(dst, "redeal") or redeal_unread:
            ones = []  # "one redeal" may be "twice through the deck"
        if kind == "number" and len(missing) == 1 and not extra and len(d_ones) > len(ones) \
                and _first(s_facts, missing[0]).span.text.isdigit():
            # "scores 5 points" as "zählt einen Punkt": a numeral gone, a "one" come.
            sf = _first(s_facts, missing[0])
            out = [r for r in out if not (r[0] == "number" and r[6] == missing[0])]
            out.append((kind, "contradiction", f"{missing[0]} in the source, 1 in the translation",
                        sf.span, d_ones[-1].span, 0.6, missing[0]))
        if extra and ones and not missing:
            # An article is a "one" in German and Greek, so fewer ones is a sign, not a condition.
            df = extra.pop(0)
            out.append((kind, "contradiction", f"1 in the source, {df.value} in the translation",
                        ones[0].span, df.span, 0.7 if len(d_ones) < len(ones) else 0.6, 1))
        # Ordinals: "the first pile" as "der zweite Stapel".
        s_ord = {f.value for f in s_facts if f.ordinal}
        d_ord = {f.value for f in d_facts if f.ordinal}
        gone, new = sorted(s_ord - d_ord), sorted(d_ord - s_ord)
        if kind == "number" and len(gone) == 1 and len(new) == 1 and len(s_ord) == 1 and len(d_ord) == 1:
            sf = next(f for f in s_facts if f.ordinal and f.value == gone[0])
            df = next(f for f in d_facts if f.ordinal and f.value == new[0])
            out.append((kind, "contradiction", f"ordinal {gone[0]} in the source, {new[0]} in the translation",
                        sf.span, df.span, 0.7, gone[0]))
    if exact and not any(r[1] == "contradiction" for r in out):
        # The same values, but said a different number of times: one mention changed into another
        # ("a King on a Queen, nothing on a King" as "a Queen on a Queen"). A rank and a number from
        # 2 to 10 are one value here ("the Two of hearts" as "херц двојка").
        def card(f):
            return f.kind == "rank" or (f.kind == "number" and not f.ordinal and 2 <= f.value <= 10)
        out += _swaps("rank", [f for f in src if card(f)], [f for f in dst if card(f)])
        out += _swaps("number", [f for f in _of(src, "number") if not card(f) and not f.ordinal],
                      [f for f in _of(dst, "number") if not card(f) and not f.ordinal])
        if not out:  # "the first pile ..., the second pile" as "the second pile ..., the second pile"
            out += _swaps("number", [f for f in _of(src, "number") if f.ordinal],
                          [f for f in _of(dst, "number") if f.ordinal], ordinals=True)
    return out


def _order(kind: str, s_facts, d_facts) -> list:
    """The same values in another order ("from left to right" as "from right to left")."""
    s_seq = [v for f in s_facts for v in _values(f)]
    d_seq = [v for f in d_facts for v in _values(f)]
    if len(s_seq) != 2 or sorted(s_seq) != sorted(d_seq) or s_seq == d_seq or len(set(s_seq)) < 2:
        return []
    return [(kind, "contradiction", f"{' then '.join(map(str, s_seq))} in the source, "
             f"{' then '.join(map(str, d_seq))} in the translation", s_facts[0].span, d_facts[0].span, 0.6, None)]


def _swaps(kind: str, s_facts, d_facts, sure: float = 0.6, ordinals: bool = False) -> list:
    """A value said fewer times in the translation than in the source while another is said more
    often, in one sentence and its translation: a mention changed from one to the other."""
    if not s_facts or not d_facts:
        return []
    # A generic "pile" names nothing, and a "one" is mostly an article.
    weak = kind == "number" and not ordinals  # "first" is no article
    # A pile term used for several piles ("гомила", the stock and any pile) counts for none of them.
    vague = kind == "pile"
    s_count = _counts(s_facts, vague, weak)
    d_count = _counts(d_facts, vague, weak)
    if s_count == d_count:
        return []
    fewer = [v for v in s_count if d_count.get(v, 0) < s_count[v]]
    more = [v for v in d_count if d_count[v] > s_count.get(v, 0)]
    if len(fewer) != 1 or len(more) != 1 or fewer == more:
        return []
    if not d_count.get(fewer[0], 0) and not s_count.get(more[0], 0) and kind not in _OPPOSITE:
        return []  # one value for another, said once: the contradiction check's business
    if vague and any(isinstance(f.value, tuple) and fewer[0] in f.value for f in d_facts):
        return []  # the mention said fewer times may be the term that names it among others
    if not d_count.get(fewer[0], 0) and not s_count.get(more[0], 0) and kind == "pile":
        sure = 0.45  # a pile the translation leaves to "there" while naming another twice: a guess
    sf = _first(s_facts, fewer[0])
    df = [f for f in d_facts if more[0] in _values(f)][-1]
    return [(kind, "contradiction", f"{_label(kind, fewer[0])} said {s_count[fewer[0]]} times in the source and "
             f"{d_count.get(fewer[0], 0)} in the translation, {_label(kind, more[0])} {s_count.get(more[0], 0)} and "
             f"{d_count[more[0]]} times", sf.span, df.span, sure, fewer[0])]


def _counts(facts, vague: bool, weak: bool) -> dict:
    """How often each value is said in ``facts`` (as :func:`_swaps` counts them: a tuple value not
    at all when ``vague``, a generic "pile" never, a 1 not when ``weak``)."""
    counts: dict = {}
    for f in facts:
        if vague and isinstance(f.value, tuple):
            continue
        for v in _values(f):
            if v != "pile" and not (weak and v == 1):
                counts[v] = counts.get(v, 0) + 1
    return counts


def _one(src, dst, lang: str, msgstr: str) -> list:
    """A "one" in the source is mostly an article in translation ("a card" → "eine Karte"), so it
    counts as missing only when the translation has no number one, no article and no "single" word."""
    ones = [f for f in _of(src, "number") if f.value == 1 and not f.ordinal]
    if not ones or any(f.value == 1 for f in _of(dst, "number")):
        return []
    lex = load_lexicon(lang)
    if any(t[2] in lex.one_words or t[4] in lex.one_words for t in read_tokens(msgstr, lang, lex)):
        return []
    return [("number", "omission", "the source says 1; the translation has no such number",
             ones[0].span, None, OMISSION["number"], 1)]


#: English words for one that are no number fact ("one of these rules", "once", "a single pack"), and
#: the article, which German and Greek write as their word for one ("only an Ace" as "nur ein Ass").
_ONE_WORD = re.compile(r"\b(?:one|once|single|individually|an?)\b", re.I)


def _only_one_added(src, dst, src_text: str, blocks) -> list:
    """An "only one" the translation states where the source sentence has no count of one ("you can
    only turn the stock over and redeal twice" as "nur einmal umgedreht und zwei Mal neu gegeben"):
    a one right after "only" is a count, not an article, and narrows the rule. A source sentence
    with a one, a word for one ("single"), an article ("only an Ace" as "nur ein Ass") or no redeal
    (one pass through the stock) may say it too."""
    if not any(f.kind == "only" for f in dst):
        return []
    bounds = _bounds(src_text)
    for s_ids, d_ids in blocks:
        s_block = [f for f in src if f.sentence in s_ids]
        if not s_ids or any(f.kind in ("number", "at-a-time", "redeal") and f.value in (0, 1) for f in s_block) \
                or any(_ONE_WORD.search(src_text[slice(*bounds[i])]) for i in s_ids):
            continue
        for only in (f for f in dst if f.kind == "only" and f.sentence in d_ids):
            one = next((f for f in _of(dst, "number") if f.value == 1 and not f.ordinal
                        and 0 <= f.span.start - only.span.end <= 1), None)
            if one is not None:
                return [("number", "added", f"the translation says only one ('{one.span.text}'); the source "
                         "states no such count", None, one.span, ONLY_ONE_ADDED, 1)]
    return []


def _implied(kind: str, value, src, dst) -> bool:
    """Whether the translation states ``value`` of ``kind`` by other means: a word that implies it
    (German "aufbauen" builds up), or, for a direction, the order of the ranks it names ("from Ace to
    King" is up, "from King to Ace" down)."""
    if any(f.kind == "implied" and f.value == (kind, value) for f in dst):
        return True
    if kind != "direction":
        return False
    ranks = [f.value for f in _of(dst, "rank")]
    ranks = list(dict.fromkeys(ranks))
    # "to the King, then Ace, Two": three ranks or more in one-step order, turning the corner (a
    # rank from 2 to 10 may be read as a number).
    listed = [f.value for f in sorted((f for f in dst if f.kind == "rank" or (
        f.kind == "number" and not f.ordinal and 2 <= f.value <= 10)), key=lambda f: f.span.start)]
    steps = {(b - a) % 13 for a, b in zip(listed, listed[1:])}
    if len(listed) >= 3 and steps in ({1}, {12}):
        return ("up" if steps == {1} else "down") == value
    if len(ranks) >= 2:
        return ("up" if ranks[1] > ranks[0] else "down") == value
    return (value == "up" and ranks == [1]) or (value == "down" and ranks == [13])


def _said_otherwise(raw: tuple, src, dst, src_text: str, dst_text: str, lang: str, blocks) -> tuple:
    """``raw`` with its confidence lowered where the translation states the fact another way (a
    suit for its colour, an Ace start for "up", a corner of the ranks, a count beside "each", the
    total for one per pile, "face up" where every card lies face up) or raised where a count became
    an "only"; ``lang`` is the translation's lexicon key."""
    raw = _same_colour(_crossed(raw, src, dst), src, dst)
    raw = _corner_kept(_ace_started(raw, src, dst), src, dst)
    raw = _face_up_there(_count_kept(raw, src, dst, lang, dst_text), src)
    return _count_to_only(_each_total(raw, src, dst, src_text, lang, dst_text), src, dst, blocks)


def _corner_kept(raw: tuple, src, dst) -> tuple:
    """``raw`` less sure when it is a build direction the translation leaves out where the source
    names two ranks in the other order ("built up, wrapping from King to Ace") and the translation
    names the same ranks with a word for turning that corner (the lexicon's ``implies``
    ``direction=wrap`` or ``direction=corner``: "преламајући се од краља до аса", "to the King,
    then Ace", "the Ace follows the King"): the corner of an up build is from King to Ace, so the
    direction is kept."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "direction" or nature != "omission" or value not in ("up", "down") or not _turns(dst):
        return raw
    s_ranks = list(dict.fromkeys(f.value for f in _of(src, "rank")))
    d_ranks = {f.value for f in _of(dst, "rank")}
    if len(s_ranks) < 2 or set(s_ranks) != d_ranks or ("up" if s_ranks[1] > s_ranks[0] else "down") == value:
        return raw
    return (check, nature, message, sspan, tspan, min(confidence, GOES_WITHOUT_SAYING), value)


#: Words of a sentence about ranks or building ("the ranks wrap").
_RANK_WORD = re.compile(r"\b(?:ranks?|buil\w*|foundations?)\b", re.I)


def _turns(facts) -> bool:
    """Whether ``facts`` hold a word for the ranks turning the corner (wrapping, "then", "follows")."""
    return any(f.kind == "implied" and f.value in (("direction", "wrap"), ("direction", "corner")) for f in facts)


#: "one card on each pile", "one two to every foundation": a count per pile.
_EACH_AFTER = re.compile(r"^[\w\s]{0,30}?\b(?:each|every)\b", re.I)


def _each_total(raw: tuple, src, dst, text: str, lang: str, dst_text: str) -> tuple:
    """``raw`` less sure when it is a "one" changed into a number N where the source says one per
    pile ("deal one two on each foundation") and states N in another sentence ("Four piles"), and
    the translation's sentence has no word for "each" or "one" (the lexicon's ``one_equivalents``):
    it gives the total ("the four twos"), not N per pile."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "number" or nature != "contradiction" or value != 1 or sspan is None or tspan is None:
        return raw
    fact, told = _fact_at(src, sspan, "number"), _fact_at(dst, tspan, "number")
    if fact is None or told is None or not _EACH_AFTER.match(text[fact.span.end:]):
        return raw
    if not any(f.kind == "number" and f.value == told.value and f.sentence != fact.sentence for f in src):
        return raw
    if _one_word_beside(told, dst_text, lang):
        return raw
    return (check, nature, message, sspan, tspan, min(confidence, GOES_WITHOUT_SAYING), value)


#: "one on to each", "one card face up to every pile": one card given to each pile ("each of the
#: first four" names the piles, which a translation may count instead).
_ONE_EACH = re.compile(r"\bone\b(?:[^\w.;:!?]+\w+){0,3}?[^\w.;:!?]+(?:on|onto|to|in|into)\s+(each|every)\b(?!\s+of\b)",
                       re.I)


def _each_dropped(src, dst, src_text: str, dst_text: str, blocks, lang: str) -> list:
    """A source sentence that gives one card to each pile ("taken from the stock one on to each at a
    time") whose translation has no word for each anywhere (the lexicon setting ``distributives``:
    "jede", "pro", "κάθε", "από ένα", "по"; a word ending in ``*`` opens inflected forms): the
    translation may give one card in all ("one at a time"). A translation that gives the total the
    source states ("Four piles ... one Two on each" as "the four Twos") says the same. ``lang`` is
    the translation's lexicon key; a lexicon without ``distributives`` gives nothing."""
    lex = lexicon_of(lang)
    if not lex.settings.get("distributives") or not _ONE_EACH.search(src_text):
        return []
    toks = read_tokens(dst_text, lex.lang, lex)
    phrases = lex.derived("distributives", _distributives)
    if any(_phrase_at(toks, k, phrase) for k in range(len(toks)) for phrase in phrases):
        return []
    s_bounds = _bounds(src_text)
    totals = {f.value for f in _of(src, "number") if f.value >= 2}
    out = []
    for a, b in blocks:
        found = next((m for i in sorted(a) if (m := _ONE_EACH.search(src_text, *s_bounds[i]))), None)
        if found is None or not b or any(f.value in totals for f in _of(dst, "number") if f.sentence in b):
            continue
        start, end = found.span(1)
        out.append(("number", "omission", f"the source gives one to {found.group(1).lower()} pile; the "
                    "translation does not say to each", Span(start, end, src_text[start:end]), None,
                    EACH_DROPPED, None))
    return out


def _distributives(lex) -> tuple[tuple[tuple[str, bool], ...], ...]:
    """The lexicon's ``distributives`` as phrases of ``(folded word, is a prefix)``."""
    return tuple(tuple((fold(word.rstrip("*"), lex.lang), word.endswith("*")) for word in re.split(r"[\s-]+", entry))
                 for entry in lex.settings.get("distributives", ()))


def _phrase_at(toks, k: int, phrase) -> bool:
    """Whether the words of ``phrase`` (see :func:`_distributives`) are ``toks[k]``, ``toks[k + 1]``, …
    (a token's folded form or its lemma)."""
    if k + len(phrase) > len(toks):
        return False
    return all(any(form == word or (prefix and form.startswith(word)) for form in (toks[k + n][2], toks[k + n][4]))
               for n, (word, prefix) in enumerate(phrase))


def _count_to_only(raw: tuple, src, dst, blocks) -> tuple:
    """``raw`` made a warning when it is a number of 2 or more left out of a sentence whose
    translation restricts with an "only" the source sentence does not have ("all four cards of the
    same rank" as "only cards of the same rank"): the count became a restriction."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "number" or nature != "omission" or not isinstance(value, int) or value < 2 or sspan is None:
        return raw
    fact = _fact_at(src, sspan, "number")
    block = next(((a, b) for a, b in blocks if fact is not None and fact.sentence in a), None)
    if block is None or any(f.kind == "only" and f.sentence in block[0] for f in src):
        return raw
    only = next((f for f in dst if f.kind == "only" and f.sentence in block[1]), None)
    if only is None:
        return raw
    return (check, nature, f"{message}; it restricts with '{only.span.text}' instead", sspan, only.span,
            max(confidence, COUNT_TO_ONLY), value)


def _pile_generic(src, dst, blocks) -> list:
    """A pile the source names in a sentence (the stock, the reserve, a foundation ...) that the
    translation gives only as a word for any pile, in that sentence and everywhere else ("turned on
    to the Reserve, one on each pile" as "one on each pile"): which pile is meant is lost. A
    translation that names the pile in another sentence may say "these piles" after it; the tableau
    is left out, its piles being what translators call piles or columns."""
    named_anywhere = {v for f in dst if f.kind == "pile" for v in _values(f)}
    out = []
    for a, b in blocks:
        if len(a) != 1 or len(b) != 1:
            continue
        named = [f for f in src if f.sentence in a and f.kind == "pile"]
        specific = {v for f in named for v in _values(f)} - {"pile", "tableau"}
        told = [f for f in dst if f.sentence in b and f.kind == "pile"]
        if len(specific) != 1 or not told or not all("pile" in _values(f) for f in told):
            continue
        (pile,) = specific
        if pile in named_anywhere:
            continue
        sf = next(f for f in named if pile in _values(f))
        out.append(("pile", "omission", f"the source names the {pile}; the translation only says a pile", sf.span,
                    told[0].span, PILE_UNNAMED, pile))
    return out


def _wrap_dropped(src, dst, text: str) -> list:
    """The wrapping of ranks ("wrapping from King to Ace", "with the ranks continuous") that the
    translation drops: it has no word for turning the corner and names no Ace. A wrap of the source
    counts in a sentence that names a rank or speaks of ranks or building ("the rows do not wrap"
    is of the layout)."""
    wraps = [f for f in src if f.kind == "implied" and f.value == ("direction", "wrap")
             and (any(g.kind == "rank" and g.sentence == f.sentence for g in src)
                  or _RANK_WORD.search(_sentence_of(f, text)))]
    if not wraps or _turns(dst) or any(f.kind == "rank" and f.value == 1 for f in dst):
        return []
    return [("direction", "omission", "the source has the ranks wrap round (King to Ace); the translation does "
             "not", wraps[0].span, None, WRAP_OMISSION, None)]


def _direction_added(src, dst, src_text: str, blocks, model: ModelFacts | None = None) -> list:
    """A build direction the translation states in a sentence whose source builds in suit or colour
    without one, where the source states no direction at all ("Piles can be built in suit" as "built
    in suit and descending"): the translation narrows the rule. Only "down" counts: foundations build
    up unless told otherwise, and "build up" is also a phrase for building at all (Swedish "byggs
    upp", German "aufbauen"). Information only where the page's rules ``model`` builds a pile down:
    the translation then says what the game does."""
    if any(f.kind == "direction" or (f.kind == "implied" and f.value[0] == "direction") or _higher(f)
           or f.kind == "rank" for f in src):
        return []
    for s_ids, d_ids in blocks:
        s_block = [f for f in src if f.sentence in s_ids]
        if not s_ids or not _of(s_block, "suit-colour") or not any(
                _BUILD_WORD.search(_sentence_of(f, src_text)) for f in _of(s_block, "suit-colour")):
            continue
        for f in dst:
            if f.sentence in d_ids and f.kind == "direction" and f.value == "down":
                message = f"the translation adds that piles build {f.value}, which the source does not state"
                piles = [pile for pile, direction, _ in (model.builds if model else ()) if direction == f.value]
                if piles:
                    message += f" (the page's rules say the {piles[0]} builds {f.value})"
                sure = GOES_WITHOUT_SAYING if piles else DIRECTION_ADDED
                return [("direction", "added", message, None, f.span, sure, f.value)]
    return []


def _rank_named(dst) -> bool:
    """Whether the translation names a single rank, which may state the direction ("bis zum König")."""
    return len({f.value for f in _of(dst, "rank")}) == 1


#: Words of a sentence about building or runs ("in sequence and in suit").
_BUILD_WORD = re.compile(r"\b(?:buil\w*|sequences?)\b", re.I)


def _sentence_of(fact: Fact, text: str) -> str:
    """The sentence of ``text`` that ``fact`` is in."""
    bounds = _bounds(text)
    return text[slice(*bounds[fact.sentence])] if fact.sentence < len(bounds) else text


def _fact_at(facts, span: Span | None, kind: str) -> Fact | None:
    """The fact of ``kind`` among ``facts`` whose span is ``span`` (a raw finding's), if any."""
    return next((f for f in facts if f.span == span and f.kind == kind), None)


def _ace_started(raw: tuple, src, dst) -> tuple:
    """``raw`` less sure when it is an "up" of the foundations that the translation leaves out while
    naming an Ace in any sentence, and no order of ranks that goes down: foundations begun with an
    Ace are built up."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "direction" or nature != "omission" or value != "up" or not any(
            f.kind == "rank" and f.value == 1 for f in dst):
        return raw
    fact = _fact_at(src, sspan, "direction")
    if fact is None or _piles_of(fact, src) != {"foundation"} or _implied("direction", "down", src, dst):
        return raw  # another pile, or ranks told from the King to the Ace
    return (check, nature, message, sspan, tspan, min(confidence, GOES_WITHOUT_SAYING), value)


#: Words of a sentence that speaks of the game's things: a number elsewhere ("worth two in the
#: bush") states no rule.
_GAME_WORD = re.compile(r"\b(?:cards?|piles?|deals?|dealt|redeal\w*|points?|scores?|moves?|times|rows?|"
                        r"columns?|slots?|spaces?|stock|waste|foundations?|tableau|reserves?|cells?|turns?|"
                        r"rounds?|games?|decks?|packs?|players?|suits?|ranks?|empty|others?|pairs?|gaps?|"
                        r"remov\w*|click\w*|done|again|happens)\b", re.I)


def _idle_number(raw: tuple, src, text: str) -> tuple:
    """``raw`` as information when it is about a number whose source sentence names nothing of
    the game: no other fact and no word for a card, pile, deal, point or the like (a proverb in a
    strategy hint; rules, scores and tables keep their numbers)."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "number" or sspan is None or confidence < WARNING_AT:
        return raw
    fact = _fact_at(src, sspan, "number")
    if fact is None or any(f.sentence == fact.sentence and f.kind in _ANCHORS and f is not fact for f in src):
        return raw
    if fact.span.text[:1].isupper() and text[:fact.span.start].rstrip()[-1:] not in ("", ".", "!", "?", ":"):
        return raw  # "the Seven" is a card
    bounds = _bounds(text)
    first = min(fact.sentence, len(bounds) - 1)
    while first > 0 and text[:bounds[first][0]].rstrip().endswith(":"):
        first -= 1  # "Maximum possible score: 100": the sentence before the colon goes with it
    if _GAME_WORD.search(text[bounds[first][0]:bounds[min(fact.sentence, len(bounds) - 1)][1]]):
        return raw
    return (check, nature, message, sspan, tspan, min(confidence, GOES_WITHOUT_SAYING), value)


def _one_word_beside(fact: Fact, text: str, lang: str) -> bool:
    """Whether the sentence of ``fact`` in ``text`` has, outside the fact, a word of the lexicon's
    ``one_equivalents`` ("each", "one", "κάθε", "сваку"); ``lang`` is a lexicon key."""
    lex = lexicon_of(lang)
    bounds = _bounds(text)
    start, end = bounds[fact.sentence] if fact.sentence < len(bounds) else (0, len(text))
    return any((t[2] in lex.one_words or t[4] in lex.one_words) and start <= t[0] < end
               and not fact.span.start <= t[0] < fact.span.end for t in read_tokens(text, lex.lang, lex))


def _count_kept(raw: tuple, src, dst, lang: str, dst_text: str) -> tuple:
    """``raw`` less sure when it is an "N at a time" (N of 2 or more) left out by a translation that
    states the number N as often as the source does, beside a word for "each" or "one" (the
    lexicon's ``one_equivalents``: "four cards at a time, back to the tableau" as "τέσσερα για κάθε
    στοίβα", four for each pile): the count is kept, its "at a time" said another way. "Three times"
    has no such word and stays a warning."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "at-a-time" or nature != "omission" or not isinstance(value, int) or value < 2:
        return raw
    said = sum(f.kind == "number" and f.value == value and not f.ordinal for f in src)
    told = [f for f in dst if f.kind == "number" and f.value == value and not f.ordinal]
    if not said or len(told) < said:
        return raw
    if not _one_word_beside(told[0], dst_text, lang):
        return raw
    return (check, nature, message, sspan, tspan, min(confidence, GOES_WITHOUT_SAYING), value)


def _face_up_there(raw: tuple, src) -> tuple:
    """``raw`` less sure when it is a "face up" the translation leaves out of a sentence about the
    foundations or the waste only, where every card lies face up."""
    check, nature, message, sspan, tspan, confidence, value = raw
    if check != "face" or nature != "omission" or value != "up":
        return raw
    fact = _fact_at(src, sspan, "face")
    piles = _piles_of(fact, src) if fact is not None else set()
    if not piles or not piles <= {"foundation", "waste"}:
        return raw
    return (check, nature, message, sspan, tspan, min(confidence, GOES_WITHOUT_SAYING), value)


def _piles_of(fact: Fact, src) -> set:
    """The piles named in the sentence of ``fact`` (terms read as several piles left out)."""
    return {f.value for f in src if f.kind == "pile" and f.sentence == fact.sentence and isinstance(f.value, str)}


def _in_build(fact: Fact, src, text: str) -> bool:
    """Whether a direction fact is about building: its sentence says build or names a pile
    ("increasing by one per row" of a deal is no build direction)."""
    lowered = _sentence_of(fact, text).lower()
    return any(w in lowered for w in ("buil", "rank", " run", "sequence")) or any(
        f.kind == "pile" and f.sentence == fact.sentence for f in src)


def _terms(kind: str, src, dst, src_text: str = "") -> list:
    s_facts, d_facts = _of(src, kind), _of(dst, kind)
    s_vals = list(dict.fromkeys(v for f in s_facts for v in _values(f)))
    d_cover = {v for f in d_facts for v in _values(f)}
    if kind == "suit-colour" and "alternate" in d_cover and "alternate" in s_vals:
        d_cover.add("colour")  # "alternate colours" is a colour rule, said with or without the word
    extra = [f for f in d_facts if not set(_values(f)) & set(s_vals)]
    missing = [v for v in s_vals if v not in d_cover]
    single = len(missing) == 1 and len({v for f in extra for v in _values(f)}) == 1
    out = []
    for v in missing:
        sf = _first(s_facts, v)
        clash = _clash(kind, v, extra)
        if clash is not None:
            sure = CONTRADICTION if (single or kind in _OPPOSITE) else LOOSE_CONTRADICTION
            out.append((kind, "contradiction",
                        f"{_label(kind, v)} in the source, {_label(kind, clash.value)} in the translation",
                        sf.span, clash.span, sure, v))
        elif kind == "suit-colour" and v == "alternate" and "colour" in d_cover:
            out.append((kind, "omission", "the source says alternate colour; the translation only names a colour",
                        sf.span, _first(d_facts, "colour").span, 0.5, v))
        elif kind == "suit-colour" and v == "colour" and "alternate" in d_cover and "alternate" not in s_vals:
            said_same = "same" in src_text[max(0, sf.span.start - 12):sf.span.start].lower()
            out.append((kind, "contradiction", "same colour in the source, alternate colour in the translation",
                        sf.span, _first(d_facts, "alternate").span, CONTRADICTION if said_same else 0.55, v))
        elif kind == "suit-colour" and (v == "rank-only" or "rank-only" in d_cover - set(s_vals)) \
                and (d_cover - set(s_vals)) & _MATCHES:
            other = next(iter(sorted((d_cover - set(s_vals)) & _MATCHES)))
            df = next(f for f in d_facts if other in _values(f))
            out.append((kind, "contradiction", f"{_label(kind, v)} in the source, {_label(kind, other)} in the translation",
                        sf.span, df.span, CONTRADICTION, v))
        elif kind == "suit-colour" and v in _COLOUR_OPPOSITE and _COLOUR_OPPOSITE[v] in d_cover \
                and _COLOUR_OPPOSITE[v] not in s_vals:
            out.append((kind, "contradiction", f"{v} in the source, {_COLOUR_OPPOSITE[v]} in the translation",
                        sf.span, _first(d_facts, _COLOUR_OPPOSITE[v]).span, CONTRADICTION, v))
        elif kind == "suit-colour" and v == "colour" and "suit" in d_cover and "suit" not in s_vals:
            out.append((kind, "contradiction", "colour in the source, suit in the translation",
                        sf.span, _first(d_facts, "suit").span, CONTRADICTION, v))
        elif kind == "suit-colour" and v == "suit" and (d_cover & {"colour", "alternate"}) - set(s_vals):
            df = next(f for f in d_facts if (set(_values(f)) & {"colour", "alternate"}) - set(s_vals))
            out.append((kind, "contradiction", f"suit in the source, {_label(kind, df.value)} in the translation",
                        sf.span, df.span, CONTRADICTION, v))
        else:
            if _implied(kind, v, src, dst):
                continue  # the translation states it by other means
            if kind == "suit-colour" and v in _REFINEMENTS:
                continue  # "same colour" as "gleiche Farbe": the colour rule is stated; red, black are examples
            if kind == "suit-colour" and v == "suit" and "colour" in d_cover and any(
                    f.kind == "negation" and f.value == "without" and f.sentence == sf.sentence for f in src):
                continue  # "regardless of suit or colour" as "regardless of colour": the colour decides the suit
            sure = OMISSION[kind]
            if kind == "direction" and sure > 0.45 and _rank_named(dst):
                sure = 0.45
            if kind == "suit-colour" and not _of([f for f in src if f.sentence == sf.sentence], "direction") \
                    and not _BUILD_WORD.search(_sentence_of(sf, src_text)):
                sure = min(sure, 0.45)  # "cards of the same suit" outside a build statement or a run
            if kind == "direction" and not _in_build(sf, src, src_text):
                sure = min(sure, 0.35)
            if kind == "position" and _of_rank(sf, src, src_text):
                sure = max(sure, 0.5)  # "a group with a King on the bottom": which card, not where a pile is
            out.append((kind, "omission", f"the source says {_label(kind, v)}; the translation does not",
                        sf.span, None, sure, v))
    if kind in _ADDED_KINDS:
        s_all = set(s_vals)
        if _of(src, "only"):
            s_all.add("at-most")  # "can only hold one card" as "holds at most one card"
        if any(f.kind == "negation" and f.value == "not" for f in src):
            s_all.add("out")  # "cannot be moved" as "leave the game"
        added = _ADDED_VALUES | ({"more"} if "sum" in s_all else set())  # "add up to 10" as "more than 10"
        clashed = {r[4] for r in out if r[1] == "contradiction"}
        for f in d_facts:
            if f.span in clashed:
                continue  # already the other side of a contradiction
            if kind == "in-play" and any(g.kind == "negation" and g.value == "not" and 0 <= f.span.start - g.span.end <= 2
                                         for g in dst):
                continue  # "δε βγαίνουν από το παιχνίδι": still in play
            # A sum is said in many ways ("in total", "κάνουν"); an added limit is what changes a rule.
            new = [v for v in _values(f) if v not in s_all and v in added]
            if new and len(new) == len(_values(f)):
                out.append((kind, "added", f"the translation adds {_label(kind, new[0])}, which the source "
                            "does not state", None, f.span, _ADDED_KINDS[kind], new[0]))
                break
    return out


def _of_rank(fact: Fact, src, text: str) -> bool:
    """Whether a position fact says where a rank lies in a group ("with a King on the bottom"):
    a rank is named just before it, in its sentence."""
    if re.match(r"\s+of\b", text[fact.span.end:]):
        return False  # "Aces on top of Kings" places one card on another
    return any(f.kind == "rank" and f.sentence == fact.sentence and 0 <= fact.span.start - f.span.end <= 12
               for f in src)


def _clash(kind: str, value, extra: list[Fact]) -> Fact | None:
    if kind in _OPPOSITE:
        want = _OPPOSITE[kind][value]
        return next((f for f in extra if want in _values(f)), None)
    if kind == "suit-name":
        return extra[0] if extra else None
    if kind in ("pile", "comparator"):
        # A generic word ("pile", Serbian гомила) names no particular pile, so it contradicts nothing.
        return next((f for f in extra if "pile" not in _values(f)), None)
    return None


def _valued(kind: str, src, dst) -> list:
    s_facts, d_facts = _of(src, kind), _of(dst, kind)
    if kind == "redeal" and any(f.value == UNLIMITED for f in d_facts):
        s_facts = [f for f in s_facts if f.value != UNLIMITED]
    if not s_facts:
        return []
    out = []
    d_known = [f for f in d_facts if f.value is not None]
    d_vals = {f.value for f in d_known}
    for v in dict.fromkeys(f.value for f in s_facts if f.value is not None):
        sf = _first(s_facts, v)
        if v in d_vals:
            continue
        other = [f for f in d_known if f.value not in {g.value for g in s_facts}]
        if other:
            out.append((kind, "contradiction",
                        f"{_label(kind, v)} in the source, {_label(kind, other[0].value)} in the translation",
                        sf.span, other[0].span, CONTRADICTION, v))
        elif not d_facts:
            sure = OMISSION[kind]
            numbers = {f.value for f in dst if f.kind == "number"}
            if kind == "redeal" and isinstance(v, int) and (v in numbers or v + 1 in numbers) \
                    and any(f.kind == "implied" and f.value == ("redeal", "again") for f in dst):
                sure = 0.4  # "turn the stock over again two more times": the count is there, the word is not
            if kind == "at-a-time" and v == 1:
                sure = 0.45  # "singly" is often left to the verb ("remove tens by clicking on them")
            out.append((kind, "omission", f"the source says {_label(kind, v)}; the translation does not",
                        sf.span, None, sure, v))
    if not d_facts and all(f.value is None for f in s_facts):
        out.append((kind, "omission", f"the source mentions a {kind}; the translation does not",
                    s_facts[0].span, None, OMISSION[kind] - 0.2, None))
    return out


def _model_says(model: ModelFacts, check: str, span: Span | None, src) -> str | None:
    """The source value of a contradiction, in words, when the page's rules model states it too."""
    if span is None:
        return None
    fact = _fact_at(src, span, check)
    if fact is None:
        return None
    if check == "redeal":
        return _label("redeal", fact.value) if model.redeals is not None and fact.value == model.redeals else None
    # A build fact is about the pile named in its sentence; with none or several, the model can't tell.
    piles = {v for f in src if f.kind == "pile" and f.sentence == fact.sentence for v in _values(f)}
    if len(piles) != 1:
        return None
    (pile,) = piles
    for role, direction, match in model.builds:
        if role != pile:
            continue
        if check == "direction" and fact.value == direction:
            return f"the {pile} builds {direction}"
        if check == "suit-colour" and fact.value == match:
            return f"the {pile} builds in {_label('suit-colour', match)}"
    return None


__all__ = ["CONTRADICTION", "ERROR_AT", "FactFinding", "GOES_WITHOUT_SAYING", "ModelFacts", "NAMED_RANK_OMISSION",
           "OMISSION", "UnitContext", "WARNING_AT", "compare", "severity_of"]
