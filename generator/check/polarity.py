"""Negations and restrictions a translation drops or adds: "not", "never", "cannot", "no", "only",
"at most", "out of play", "without", counted per block of aligned sentences
(:func:`~.alignment.align_sentences`)."""

from __future__ import annotations

import re

from .alignment import ANCHORS, align_sentences, sentence_bounds, sentence_left_out
from .findings import Span
from .facts import Fact, lexicon_of, values_of
from .lexicon import read_tokens

#: A negation or restriction dropped or added, in aligned sentences (less when not aligned).
POLARITY = {("negation", "dropped"): 0.65, ("negation", "added"): 0.45,
            ("only", "dropped"): 0.5, ("only", "added"): 0.4}
#: Two conditions joined by "or" in one sentence, translated as one sentence with no word for "or".
DISJUNCTION_LOST = 0.5


def _restrictions(facts, other) -> list[Fact]:
    """The facts of ``facts`` that restrict a rule: negations (not "without"), "only", "out of play".

    The "no" of "no redeals" counts only when ``other`` (the other text) has no redeal count of 0:
    then the redeal comparison has said all there is ("No redeals" as "Ohne Neuverteilungen")."""
    none_there = any(f.kind == "redeal" and f.value == 0 for f in other)
    return [f for f in facts if (f.kind == "negation" and (f.value == "not" or (f.value == "redeal" and not none_there)))
            or f.kind in ("only", "in-play")]


def polarity_findings(src, dst, blocks, src_text: str = "") -> list:
    """Negations and restrictions dropped or added.

    "Cannot be filled except from the stock" restricts as "only from the stock" does, and "at most
    one card" as "only one card", so they are counted together, per block of aligned sentences
    (see :func:`align_sentences`). When as many blocks have one on each side, a restriction that
    seems dropped in one block and added in another was moved, not changed.
    """
    s_all, d_all = _restrictions(src, dst), _restrictions(dst, src)
    if not s_all and not d_all:
        return _without(src, dst, blocks)
    # A sentence without a counterpart is reported as missing (or added), not as a rule turned round.
    pairs = [([f for f in s_all if f.sentence in a], [f for f in d_all if f.sentence in b], a, b)
             for a, b in blocks if a and b]
    pairs = [p for p in pairs if p[0] or p[1]]
    exact = all(len(a) == 1 and len(b) == 1 for a, b in blocks)
    if len(s_all) == len(d_all):
        # As many on each side: moved between sentences, or said in other words; but a sentence
        # whose own translation lost its only one has lost it (the other sentence said it twice).
        pairs = [p for p in pairs if exact and p[0] and not p[1]
                 and _only_restriction_lost(src, dst, p[2], p[3])
                 and not any(q[1] and len(q[1]) > len(q[0]) and {f.kind for f in q[1]} & {f.kind for f in p[0]}
                             for q in pairs if q is not p)]
    factor = 1.0 if exact else 0.9
    out = []
    for s_here, d_here, a, b in pairs:
        # "with no stock" as "ohne Talon": a "without" on the other side says the same.
        if (s_here and not d_here and any(f.kind == "negation" and f.value == "without" and f.sentence in b for f in dst)) \
                or (d_here and not s_here and any(f.kind == "negation" and f.value == "without" and f.sentence in a
                                                  for f in src)):
            continue
        if s_here and not d_here:
            fact = s_here[0]
            if fact.kind == "negation" and _exhausted(dst, b) > _exhausted(src, a):
                continue  # "until no more moves can be made" as "until the moves are exhausted"
            if fact.kind == "in-play" and any(f.kind == "implied" and f.value == ("in-play", fact.value)
                                              and f.sentence in b for f in dst):
                continue  # "removed from play" as "removed": cards removed leave play
            if len(a) > len(b) and not any(f.kind in ANCHORS and f.sentence == fact.sentence for f in src):
                # Of several source sentences given as fewer, the one with the negation names nothing
                # the translation could have kept ("Never look back."): that sentence was left out.
                out.append(sentence_left_out(src_text, fact.sentence))
                continue
            if fact.kind == "only" and (_only_one(fact, src_text) or _only_of_suits(fact, src)):
                continue  # "can only hold one card" says no more than "holds one card"
            if fact.kind == "only" and _only_except(fact, src_text):
                continue  # "the same as Klondike, only the cards are all face up": "except that"
            if fact.kind == "only" and _limit_kept(src, dst, a, b):
                continue  # "can only be moved if there are at most N" as "there must not be more than N"
            kind = "only" if fact.kind == "only" else "negation"
            out.append((kind, "polarity", f"the source states {_restriction_words(fact)}; the translation "
                        "does not", fact.span, None, POLARITY[(kind, "dropped")] * factor, None))
        elif d_here and not s_here:
            fact = d_here[0]
            kind = "only" if fact.kind == "only" else "negation"
            out.append((kind, "polarity", f"the translation adds {_restriction_words(fact)}, which the source "
                        "does not state", None, fact.span, POLARITY[(kind, "added")] * factor, None))
        elif len(a) == 1 and len(b) == 1 and len(s_here) > len(d_here):
            # One sentence, fewer restrictions in its translation: which kind lost one?
            lost = [f for f in s_here if sum(g.kind == f.kind for g in s_here) > sum(g.kind == f.kind for g in d_here)]
            if lost:
                fact = lost[0]
                kind = "only" if fact.kind == "only" else "negation"
                out.append((kind, "polarity", f"the source states {_restriction_words(fact)} more than the "
                            "translation does", fact.span, None, POLARITY[(kind, "dropped")] - 0.15, None))
    out += _without(src, dst, blocks)
    return out


def _exhausted(facts, sentences) -> int:
    """How many words of ``facts`` in ``sentences`` say that something ran out ("exhausted")."""
    return sum(1 for f in facts if f.kind == "negation" and f.value == "exhausted" and f.sentence in sentences)


def _without(src, dst, blocks) -> list:
    """A "regardless of", "without", "does not matter" that a sentence's translation drops while
    stating no other restriction in its place ("suits do not matter" as "suits matter")."""
    out = []
    for a, b in blocks:
        if len(a) != 1 or len(b) != 1:
            continue
        s_w = [f for f in src if f.sentence in a and f.kind == "negation" and f.value == "without"]
        d_any = [f for f in dst if f.sentence in b and f.kind in ("negation", "only", "in-play")
                 and f.value != "exhausted"]
        if s_w and not d_any and not any(f.kind == "implied" and f.value == ("negation", "without")
                                         and f.sentence in b for f in dst):
            out.append(("negation", "polarity", f"the source states {_restriction_words(s_w[0])}; the translation "
                        "does not", s_w[0].span, None, 0.5, None))
    return out


#: A comparison with another game before "only" makes it "except that" ("the same as Klondike only
#: the opening layout is different").
_LIKE = re.compile(r"\b(?:the same as|similar to)\b", re.I)


def _only_except(fact: Fact, text: str) -> bool:
    """Whether an English "only" follows a comparison with another game in its sentence, and so
    means "except that"."""
    bounds = sentence_bounds(text)
    start = bounds[fact.sentence][0] if fact.sentence < len(bounds) else 0
    return bool(_LIKE.search(text[start:fact.span.start]))


def _limit_kept(src, dst, a, b) -> bool:
    """Whether sentences ``a`` of the source and ``b`` of the translation state the same limit (at
    most, at least, exactly), which restricts as the source's "only" does."""
    limits = {"at-most", "at-least", "exactly"}
    said = {f.value for f in src if f.sentence in a and f.kind == "comparator"} & limits
    return bool(said) and said <= {f.value for f in dst if f.sentence in b and f.kind == "comparator"}


def _only_restriction_lost(src, dst, a, b) -> bool:
    """In one sentence pair, the source restricts and the translation does not, while both say the
    same facts otherwise: the translation of that very statement lost its "not" or "only"."""
    s_rest = [f for f in src if f.sentence in a and f.kind in ANCHORS]
    d_rest = [f for f in dst if f.sentence in b and f.kind in ANCHORS]
    s_vals = {(f.kind, v) for f in s_rest for v in values_of(f)} - {("number", 1)}
    d_vals = {(f.kind, v) for f in d_rest for v in values_of(f)} - {("number", 1)}
    return bool(s_vals) and s_vals <= d_vals


def _restriction_words(fact: Fact) -> str:
    what = {"only": "a restriction", "in-play": "that cards leave play", "comparator": "a limit"}.get(
        fact.kind, "a negation")
    return f"{what} ('{fact.span.text}')"


_ONE_AFTER = re.compile(r"^\W+(?:\w+\W+){0,2}(?:one|a single|1|singly)\b", re.I)
#: "only two cards left": a count of what remains, not a restriction of a rule.
_COUNT_LEFT = re.compile(r"^\W+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|a few)\W+(?:\w+\W+){0,2}?"
                         r"(?:left|remain|remains|remaining)\b", re.I)


def _only_one(fact: Fact, text: str) -> bool:
    """Whether "only" restricts a count of one ("can only hold one card"), which the count says by
    itself, or counts what is left ("when only two cards are left"), which restricts nothing."""
    rest = text[fact.span.end:]
    return bool(_ONE_AFTER.match(rest) or _COUNT_LEFT.match(rest))


def _only_of_suits(fact: Fact, src) -> bool:
    """Whether "only" closes or opens a list of suits ("a deck of Hearts and Spades only"): the
    suits named say which there are, with or without it."""
    return any(f.kind == "suit-name" and f.sentence == fact.sentence
               and (0 <= fact.span.start - f.span.end <= 2 or 0 <= f.span.start - fact.span.end <= 2) for f in src)


def _disjunctions(lex) -> frozenset[str]:
    """The lexicon's ``disjunctions``, lower-cased as written, not folded: Greek "ή" (or) folds to
    the article "η"."""
    return frozenset(word.lower() for word in lex.settings.get("disjunctions", ()))


#: "… or if all spaces are filled", "or when", "or unless": a second condition of the same rule.
_OR_CONDITION = re.compile(r"\w\W+or\s+(?:if|when|whenever|unless)\b", re.I)


def disjunction_lost(src_text: str, src, dst_text: str, dst, lang: str, blocks=None) -> list:
    """Two conditions the source joins with "or" in one sentence ("the game is lost if no card can be
    placed or if every space is filled"), translated as one sentence without a word for "or" (the
    lexicon setting ``disjunctions``: "oder", "ή", "или"): the translation makes one condition of the
    two, or the second a condition of the first. A translation that gives the second condition a
    sentence of its own says it apart. ``src`` and ``dst`` are the two texts' facts, which align
    their sentences (:func:`~.alignment.align_sentences`) unless ``blocks`` gives that alignment
    already; ``lang`` is the translation's lexicon key; a lexicon without ``disjunctions`` gives
    nothing."""
    lex = lexicon_of(lang)
    words = lex.derived("disjunctions", _disjunctions)
    if not words or not _OR_CONDITION.search(src_text):
        return []
    if blocks is None:
        blocks = align_sentences(src_text, src, dst_text, dst)
    s_bounds, d_bounds = sentence_bounds(src_text), sentence_bounds(dst_text)
    out = []
    for a, b in blocks:
        if len(a) != 1 or len(b) != 1:
            continue
        (i,), (j,) = a, b
        start, end = s_bounds[i]
        found = _OR_CONDITION.search(src_text, start, end)
        if found is None:
            continue
        sentence = dst_text[slice(*d_bounds[j])]
        if any(sentence[t[0]:t[1]].lower() in words for t in read_tokens(sentence, lex.lang, lex)):
            continue
        at = found.start() + found.group().lower().index("or")
        out.append(("only", "omission", "the source joins two conditions with 'or'; the translation has no "
                    "word for 'or' there", Span(at, at + 2, src_text[at:at + 2]), None, DISJUNCTION_LOST, None))
    return out


__all__ = ["DISJUNCTION_LOST", "POLARITY", "disjunction_lost", "polarity_findings"]
