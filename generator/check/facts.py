"""Rule facts in a help message (numbers, ranks, piles, suit or colour, direction, ...) and the check
that a translation still states the same facts as its English msgid.

Word lists come from :mod:`.lexicon`; matching is by folded form, stem or prefix, so inflected,
accented and (for Serbian) Latin or Cyrillic words all count.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import re
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import NamedTuple
from pathlib import Path

from .findings import SEVERITIES as _SEVERITIES, Span
from .lexicon import Lexicon, Term, fold, load_lexicon, read_tokens, word_hits

#: The rule-fact checks, in report order.
CHECKS = ("number", "rank", "pile", "suit-colour", "suit-name", "direction", "step", "face", "redeal", "at-a-time",
          "side", "position", "comparator", "in-play", "negation", "only", "must", "sentence")

UNLIMITED = math.inf

# When two terms cover the same words, the more specific kind wins (a "ten" that is a rank noun is
# not also a number; "one another" is not the number one).
_KIND_PRIORITY = {"ignore": 0, "at-a-time": 1, "redeal": 2, "pass": 2, "in-play": 3, "face": 3,
                  "comparator": 4, "rank": 5, "suit-colour": 6, "suit-name": 6, "direction": 7, "step": 7, "pile": 8,
                  "side": 9, "position": 9, "unlimited": 10, "negation": 11, "only": 11, "must": 11, "number": 12, "implies": 13}
_HOW_PRIORITY = {"exact": 0, "stem": 1, "prefix": 2}
_WINDOW = 4


@dataclass(frozen=True, slots=True)
class Fact:
    """One rule fact in a message.

    Attributes:
        kind: the check name (see :data:`CHECKS`); ``"negation"`` (value ``"not"`` for not, never,
            cannot, no; ``"without"`` for without, regardless of; ``"exhausted"`` for run out, used up;
            ``"redeal"`` for the "no" of "no redeals", which the redeal count states) and ``"only"`` are counted per
            sentence by the comparison; ``"in-play"`` (value ``"out"``: no longer in play);
            ``"suit-name"`` (``"clubs"``, ...); ``"step"`` (value 1: ranks one apart, "one
            higher", "κατά ένα", also read as the number 1; the lexicon's "one higher" also gives the
            direction ``"up"``);
            ``"must"`` (value ``"must"``: an obligation, "must", "muss", "πρέπει"); ``"implied"`` (value ``(kind, value)``: a word
            that implies a fact without stating it, German "aufbauen" for building up).
        value: ``int`` for number/rank (1 = Ace … 13 = King)/at-a-time; redeal count as ``int``,
            :data:`UNLIMITED` or ``None`` (a redeal is mentioned, count unknown); otherwise a str
            (``"foundation"``, ``"up"``, ``"suit"`` ...), or a tuple of str when the translated term
            is used for more than one thing.
        span: where it is in the text.
        ordinal: for a number, True when it is written as an ordinal ("third", "dritte"); such a
            number confirms a source number but is never taken as a contradicting one.
        sentence: 0-based index of the sentence the fact is in (see :func:`sentence_starts`).
    """

    kind: str
    value: object
    span: Span
    ordinal: bool = False
    sentence: int = 0


def values_of(fact: Fact) -> tuple:
    """The values ``fact`` may have: its value, or each of a tuple of alternatives (a term used for
    two things, ``("stock", "pile")``)."""
    return fact.value if isinstance(fact.value, tuple) else (fact.value,)


class _Match(NamedTuple):
    """A term found in a text's tokens (a named tuple: quick to make, and every text makes many)."""

    first: int
    last: int  # index of the last token, inclusive
    kind: str
    value: object
    how: str


# _Match from one tuple of its fields, as _Match(*fields) makes it but without a Python-level call.
_new_match = partial(tuple.__new__, _Match)


def _match_terms(toks, lex: Lexicon, text: str = "") -> list[_Match]:
    found = []
    size = len(toks)
    following = lex.following
    breaks = None  # tokens k with a sentence end between token k - 1 and k, read when first needed
    last = size - 1
    for i, tok in enumerate(toks):
        folded = tok[2]
        if folded.isdigit():
            found.append(_new_match((i, i, "digits", int(folded), "exact")))
            continue
        # Each term's first word matches this token and its second the next (Lexicon.following).
        for term in following(tok[2:], toks[i + 1] if i < last else None):
            words = term.words
            n = len(words)
            if n > 1:
                if i + n > size or (n > 2 and not all(word_hits(words[k], *toks[i + k][2:]) for k in range(2, n))):
                    continue
                # A phrase does not run on past the end of a sentence ("... με το Βαλέ από πάνω. Από εκεί ...").
                if text:
                    if breaks is None:
                        breaks = {k for k in range(1, size) if _STOP.search(text, toks[k - 1][1], toks[k][0])}
                    if any(k in breaks for k in range(i + 1, i + n)):
                        continue
            if term.kind == "comparator" and _wants_number(term, toks, i, lex):
                continue
            found.append(_new_match((i, i + n - 1, term.kind, term.value, words[0].how)))
    found.sort(key=lambda m: (-(m.last - m.first), _KIND_PRIORITY.get(m.kind, 13),
                              _HOW_PRIORITY[m.how], m.first))
    taken: set[int] = set()
    chosen = []
    for m in found:
        if m.first == m.last:
            if m.first in taken:
                continue
            taken.add(m.first)
        else:
            idx = range(m.first, m.last + 1)
            if any(k in taken for k in idx):
                continue
            taken.update(idx)
        chosen.append(m)
    chosen.sort(key=lambda m: m.first)
    return chosen


def _wants_number(term: Term, toks, i: int, lex: Lexicon) -> bool:
    """Whether ``term`` at token ``i`` is a limit that needs a number after it (the lexicon's
    ``needs_number_after``: "up to thirteen") and has none, so that its words are read otherwise
    (Greek "πάνω από το φύλλο" is on top of the card)."""
    needs = lex.settings.get("needs_number_after")
    if not needs or term.kind != "comparator":
        return False
    end = i + len(term.words)
    if " ".join(t[2] for t in toks[i:end]) not in needs:
        return False
    if end >= len(toks):
        return True
    # The later filter of _facts_of still drops such a limit before a number below 2 ("up to one").
    folded, stem, lemma, lemma_stem = toks[end][2:6]
    return not (folded.isdigit()
                or any(t.kind == "number" for t in lex.candidates(folded, stem, lemma, lemma_stem)))


def _span(text: str, toks, m: _Match) -> Span:
    start, end = toks[m.first][0], toks[m.last][1]
    return Span(start, end, text[start:end])


# A sentence ends at a full stop, question or exclamation mark (the Greek one too), semicolon or colon.
_SENTENCE_END = re.compile(r"[.!?;:\u037e](?=\s|$|<)")
# The same marks between two words: no phrase runs across them.
_STOP = re.compile(r"[.!?;:\u037e]")
_LEXICONS: dict[str, Lexicon] = {}


def sentence_starts(text: str) -> list[int]:
    """Character offsets at which the sentences of ``text`` after the first begin: after a full
    stop, question or exclamation mark, semicolon or colon followed by a space or a tag (a stop at
    the very end begins no sentence)."""
    last = len(text.rstrip())  # past the last character that is not white space
    return [m.end() for m in _SENTENCE_END.finditer(text) if m.end() < last]


def lexicon_key(lang: str, extra: tuple[tuple[str, str, str], ...] = ()) -> str:
    """The key of the lexicon of ``lang`` extended with ``extra`` terms ``(kind, value, phrase)``
    (a catalog's agreed pile names, say), for :func:`extract_facts`. Builds it on first use.

    Raises:
        LanguageError: no lexicon for ``lang``.
    """
    base = load_lexicon(lang)
    if not extra:
        return lang
    key = f"{lang}+" + "|".join("\t".join(term) for term in extra)
    if key not in _LEXICONS:
        _LEXICONS[key] = base.extended(extra)
    return key


def _lexicon(key: str) -> Lexicon:
    return _LEXICONS.get(key) or load_lexicon(key)


def lexicon_of(key: str) -> Lexicon:
    """The lexicon a language code or a key from :func:`lexicon_key` stands for.

    Raises:
        LanguageError: no lexicon for the language.
    """
    return _lexicon(key)


def extract_facts(text: str, lang: str) -> list[Fact]:
    """All rule facts in ``text`` (a msgid when ``lang`` is ``"en"``, else a msgstr), in text order.

    ``lang`` is a language code or a key from :func:`lexicon_key`. Markup (tags, their attributes,
    entities) is skipped (names such as game titles are blanked out beforehand with :func:`masked`);
    four-digit years are not numbers. A redeal fact's value is the number
    of redeals: "through the deck three times" is 2. The "no" of "no redeals" gives that
    count 0 and is kept as a negation of value ``"redeal"``.

    Raises:
        LanguageError: no lexicon for ``lang``.
    """
    found = _FACTS.get((text, lang))
    if found is None:
        if len(_FACTS) >= 16_384:
            _FACTS.clear()  # a bound for long runs
        found = _FACTS[text, lang] = _facts_of(text, lang)
    return list(found)


# The facts of each text read, by (text, lexicon key): a msgid is read once per catalog, a msgstr
# by several checks.
_FACTS: dict[tuple[str, str], tuple[Fact, ...]] = {}


def masked(text: str, mask: tuple[str, ...]) -> str:
    """``text`` with each phrase of ``mask`` (matched as whole words, case kept: the name
    "Thirteen", not "thirteen cards") blanked out, the length kept so that offsets hold."""
    if not mask:
        return text
    pattern, first_words = _mask_pattern(mask)
    if first_words is not None and first_words.isdisjoint(_WORDS.findall(text)):
        return text  # no phrase can begin here: most texts name no game
    return pattern.sub(lambda m: " " * len(m.group()), text)


_WORDS = re.compile(r"\w+")


@lru_cache(maxsize=64)
def _mask_pattern(mask: tuple[str, ...]) -> tuple["re.Pattern", frozenset[str] | None]:
    """The pattern of the phrases of ``mask``, and the first words they begin with (``None``: any)."""
    phrases = sorted((p for p in mask if p), key=len, reverse=True)
    if not phrases:
        return re.compile(r"(?!x)x"), frozenset()  # no text holds a word of no phrase
    # A text holding a phrase holds the phrase's first word as a word of its own; a phrase with no
    # word at all could be anywhere, so then every text is searched.
    words = [_WORDS.findall(p) for p in phrases]
    first_words = frozenset(w[0] for w in words) if all(words) else None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(p) for p in phrases) + r")(?!\w)"), first_words


def _read(text: str, lang: str) -> tuple[Lexicon, list, list[_Match]]:
    """The lexicon, tokens and chosen term matches of ``text`` (its facts are kept by :func:`extract_facts`)."""
    lex = _lexicon(lang)
    toks = read_tokens(text, lex.lang, lex)
    return lex, toks, _match_terms(toks, lex, text)


def _facts_of(text: str, lang: str) -> tuple[Fact, ...]:
    lex, toks, matches = _read(text, lang)
    facts: list[Fact] = []
    matches = _join_compound_numbers(text, toks, matches)
    stops = sentence_starts(text)

    def sentence(tok: int) -> int:
        return bisect.bisect(stops, toks[tok][0])

    matches = _discontinuous(text, lex, toks, matches, sentence)
    numbers = [m for m in matches if m.kind in ("number", "digits")]

    at_a_time = {id(m): (m.value if isinstance(m.value, int) else _near_number(numbers, m, sentence))
                 for m in matches if m.kind == "at-a-time"}
    # "τρία τρία", "ένα-ένα": a number said twice means that many at a time, and so it does with a
    # word of the lexicon's "repeat_joiners" between (French "trois par trois", Swedish "tre och tre").
    joiners = lex.derived("repeat_joiners", _repeat_joiners)
    for a, b in zip(numbers, numbers[1:]):
        between = b.first - a.last - 1
        if (between == 0 or (between == 1 and toks[a.last + 1][2] in joiners)) and a.value == b.value \
                and a.kind == b.kind == "number":
            pair = _Match(a.first, b.last, "at-a-time", a.value, "exact")
            matches = sorted([x for x in matches if x is not a and x is not b] + [pair],
                             key=lambda x: x.first)
            at_a_time[id(pair)] = a.value
    used = set(at_a_time.values())  # numbers read as "N at a time" are no redeal count
    absorbed: set[int] = set()  # negations that give a redeal count of 0
    redeals = {}
    for m in matches:
        if m.kind in ("redeal", "pass"):
            redeals[id(m)] = _redeal_count(matches, [n for n in numbers if n.value not in used], m,
                                           sentence, lex, absorbed)
    # "Up to thirteen piles" is a limit; "move cards up to the foundation" is not.
    needs_number = lex.derived("needs_number_after", _needs_number)
    if needs_number:
        number_starts = {n.first for n in numbers
                         if n.kind == "digits" or (isinstance(n.value, int) and n.value >= 2)}
        matches = [m for m in matches if not (m.kind == "comparator" and m.last + 1 not in number_starts
                                              and " ".join(t[2] for t in toks[m.first:m.last + 1]) in needs_number)]
    # German "weder … noch": the "noch" is the second negation, as English "nor" is.
    for first, second in lex.settings.get("negation_pairs", ()):
        opened = None
        for i, t in enumerate(toks):
            if t[2] == first:
                opened = sentence(i)
            elif t[2] == second and opened == sentence(i):
                matches.append(_Match(i, i, "negation", "not", "exact"))
                opened = None
        matches.sort(key=lambda x: x.first)
    # Negative concord: Greek "κανένα φύλλο δεν μπορεί", Serbian "ништа не може" say one "no", as
    # English "no card can" does; the verb's negation after the negative word is not counted again.
    concord = lex.derived("negative_concord", _concord)
    if concord:
        words, verbs = concord
        negative = [i for i, t in enumerate(toks) if t[2] in words]
        if negative:  # without a negative word no verb's negation is doubled
            doubled = {i for i, t in enumerate(toks) if t[2] in verbs
                       and any(0 < i - j <= 6 and sentence(j) == sentence(i) for j in negative)}
            matches = [m for m in matches
                       if not (m.kind == "negation" and m.first == m.last and m.first in doubled)]
    # Serbian "док (…) не": the "не" after "until" is no negation ("док не победите", until you win).
    expletive = lex.derived("expletive_negation_after", _expletive)
    after_until = {k for i, t in enumerate(toks) if t[2] in expletive
                   for k in range(i + 1, i + 6)} if expletive else ()
    for m in matches:
        span = _span(text, toks, m)
        where = sentence(m.first)
        if m.kind == "negation" and m.first in after_until:
            continue
        if m.kind == "digits":
            if 1900 <= m.value <= 2100 and len(toks[m.first][2]) == 4:
                continue
            facts.append(Fact("number", m.value, span, sentence=where))
        elif m.kind == "number":
            if m.value:
                facts.append(Fact("number", m.value, span, ordinal=_is_ordinal(lex, toks, m), sentence=where))
        elif m.kind == "side" and isinstance(m.value, str) and "+" in m.value:
            # "top right": a side and a position in one phrase.
            side, position = m.value.split("+")
            facts.append(Fact("side", side, span, sentence=where))
            facts.append(Fact("position", position, span, sentence=where))
        elif m.kind == "step":
            # "one higher": ranks one apart, and (unless the lexicon gives only the step) a direction.
            if m.value != 1:
                facts.append(Fact("direction", m.value, span, sentence=where))
            facts.append(Fact("step", 1, span, sentence=where))
            facts.append(Fact("number", 1, span, sentence=where))  # "one higher" as "zwei Ränge höher"
        elif m.kind == "direction" and m.value in _FLIPPED and _after_target(lex, toks, m.first):
            # "sur une carte de rang supérieur": the rank of the card placed on, so the other direction.
            facts.append(Fact(m.kind, _FLIPPED[m.value], span, sentence=where))
        elif m.kind in ("rank", "pile", "suit-colour", "suit-name", "direction", "face", "side", "position",
                        "comparator", "only", "in-play", "must"):
            facts.append(Fact(m.kind, m.value, span, sentence=where))
        elif m.kind == "implies":
            # "face=up|down", which the lexicon reads as ("face=up", "down"): turning a card over
            # implies both that it was face down and that it is face up.
            first, *more = m.value if isinstance(m.value, tuple) else (m.value,)
            kind, _, value = str(first).partition("=")
            for value in (value, *more):
                facts.append(Fact("implied", (kind, value), span, sentence=where))
        elif m.kind == "negation":
            # "without", "regardless of" restate a condition rather than forbid: they give a redeal
            # count of 0 ("without redeals") but are not counted as negations of the rule.
            # "exhausted", "run out" say "no more" by other words: never counted, they excuse a
            # "no more" the other text states (see polarity.polarity_findings).
            value = m.value if m.value in ("not", "without", "exhausted") else "not"
            if id(m) in absorbed:
                value = "redeal"  # "no redeals": the redeal count says it; see polarity._restrictions
            facts.append(Fact("negation", value, span, sentence=where))
        elif m.kind == "at-a-time":
            value = at_a_time[id(m)]
            if value is not None:
                facts.append(Fact("at-a-time", value, span, sentence=where))
        elif m.kind in ("redeal", "pass"):
            facts.append(Fact("redeal", redeals[id(m)], span, sentence=where))
            if m.kind == "redeal" and m.value == 0:
                # The word is its own "no" ("nevrací", is not turned back): kept as the "no" of "no redeals" is.
                facts.append(Fact("negation", "redeal", span, sentence=where))
    return tuple(facts)


def _repeat_joiners(lex: Lexicon) -> frozenset[str]:
    return frozenset(lex.settings.get("repeat_joiners", ()))


def _needs_number(lex: Lexicon) -> frozenset[str]:
    return frozenset(lex.settings.get("needs_number_after", ()))


def _concord(lex: Lexicon) -> tuple[frozenset[str], frozenset[str]] | tuple[()]:
    """The folded negative words and verbs of the lexicon's "negative_concord", or ``()``."""
    concord = lex.settings.get("negative_concord")
    if not concord:
        return ()
    return (frozenset(fold(w, lex.lang) for w in concord["words"]),
            frozenset(fold(w, lex.lang) for w in concord["verbs"]))


def _expletive(lex: Lexicon) -> frozenset[str]:
    return frozenset(lex.settings.get("expletive_negation_after", ()))


_FLIPPED = {"up": "down", "down": "up"}
_CLAUSE_BREAK = re.compile(r"[,;:()\[\]]")


def _after_target(lex: Lexicon, toks, first: int) -> bool:
    """Whether the words before token ``first`` are one of the lexicon's ``"placed_on"`` phrases
    ("sur une carte de"): a rank said after them is that of the card placed on, not of the card
    placed, so a build "on a card of higher rank" builds down."""
    for phrase in lex.settings.get("placed_on", ()):
        words = [fold(w, lex.lang) for w in phrase.split()]
        if len(words) <= first and [t[2] for t in toks[first - len(words):first]] == words:
            return True
    return False


def _discontinuous(text: str, lex: Lexicon, toks, matches: list[_Match], sentence) -> list[_Match]:
    """``matches`` with the terms said in two parts with words between them: French "ne … que" is
    "only", "ne … plus" is "no more" (the lexicon's setting ``"discontinuous"``: rules of ``first``
    words, ``then`` words, how many words after the first the second may come, and the ``kind``
    and ``value`` it says). The second word counts when it comes in the first one's sentence and
    clause (no comma, colon or bracket between) before any negation, and is a word of its own (not
    part of a phrase such as "plus en jeu"); a rule with ``unless`` words does not apply when one of
    them follows the first word within ``unless_within`` words (literary "ne peut être" is a
    negation, "ne peut pas" has its own)."""
    rules = lex.settings.get("discontinuous")
    if not rules:
        return matches
    for rule in rules:
        firsts, thens = frozenset(rule["first"]), frozenset(rule["then"])
        unless, reach = frozenset(rule.get("unless", ())), rule.get("unless_within", 8)
        covered = {k: m for m in matches for k in range(m.first, m.last + 1)}
        added = []
        for i, t in enumerate(toks):
            if t[2] not in firsts:
                continue
            if unless and any(toks[k][2] in unless and sentence(k) == sentence(i)
                              for k in range(i + 1, min(len(toks), i + 1 + reach))):
                continue
            for j in range(i + 1, min(len(toks), i + 1 + rule["within"])):
                m = covered.get(j)
                if sentence(j) != sentence(i) or (m is not None and m.kind == "negation") \
                        or _CLAUSE_BREAK.search(text, toks[j - 1][1], toks[j][0]):
                    break
                if toks[j][2] in thens:
                    if m is None or m.first == m.last:
                        added.append((m, _Match(j, j, rule["kind"], rule["value"], "exact")))
                    break
        if added:
            gone = {id(m) for m, _ in added if m is not None}
            matches = sorted([m for m in matches if id(m) not in gone] + [new for _, new in added],
                             key=lambda m: m.first)
    return matches


def _is_ordinal(lex: Lexicon, toks, m: _Match) -> bool:
    # A spell-out of several words ("δέκατος τρίτος") is an ordinal as a whole or not at all.
    folded = " ".join(t[2] for t in toks[m.first:m.last + 1])
    if folded in lex.cardinals and folded not in lex.ordinals:
        return False
    if m.first != m.last:
        return folded in lex.ordinals
    return folded in lex.ordinals or folded.startswith(lex.ordinal_prefixes)


def _join_compound_numbers(text: str, toks, matches: list[_Match]) -> list[_Match]:
    """Join a tens word and a units word into one number: "fifty-four", "πενήντα τέσσερις", "педесет четири"."""
    out: list[_Match] = []
    for m in matches:
        prev = out[-1] if out else None
        if (prev is not None and m.kind == "number" and prev.kind == "number" and m.first == prev.last + 1
                and isinstance(prev.value, int) and isinstance(m.value, int)
                and prev.value in range(20, 100, 10) and 1 <= m.value <= 9
                and text[toks[prev.last][1]:toks[m.first][0]] in ("-", " ")):
            out[-1] = _Match(prev.first, m.last, "number", prev.value + m.value, "exact")
            continue
        out.append(m)
    return out


def _near_number(numbers: list[_Match], m: _Match, sentence) -> int | None:
    best = None
    for n in numbers:
        if sentence(n.first) != sentence(m.first):
            continue
        gap = m.first - n.last if n.last < m.first else n.first - m.last
        if 0 < gap <= 4 and n.value and (best is None or gap < best[0]):
            best = (gap, n.value)
    return None if best is None else best[1]


def _redeal_count(matches: list[_Match], numbers: list[_Match], m: _Match, sentence,
                  lex: Lexicon, absorbed: set[int]) -> object:
    def near(x: _Match, before: int, after: int) -> bool:
        if sentence(x.first) != sentence(m.first):
            return False
        return m.first - before <= x.first <= m.last + after

    if m.kind == "redeal" and m.value == 0:
        return 0  # a word that is itself negated (Czech "nevrací se": the pile is not turned back)
    others = [x for x in matches if x is not m]
    if any(x.kind == "unlimited" and near(x, _WINDOW, _WINDOW) for x in others):
        return UNLIMITED
    # "no redeal", "kein Neugeben", "дељења нема": a negation right next to the word wins.
    before, after = lex.settings.get("negation_window", [4, 2])
    negations = [x for x in others if x.kind == "negation" and near(x, before, after)]
    if m.kind == "redeal" and negations:
        absorbed.add(id(negations[0]))
        return 0
    candidates = [n for n in numbers if n.value and n is not m and near(n, _WINDOW, _WINDOW)]
    if not candidates:
        return None
    count = min(candidates, key=lambda n: abs(n.first - m.first)).value
    return count - 1 if m.kind == "pass" else count


@lru_cache(maxsize=4096)
def _context_key(context) -> str:
    # A digest, not the summary itself: the summary names every game of the book, and the memo
    # (use_fact_memo) keeps a key per unit.
    return hashlib.sha256(repr(context.key()).encode("utf-8")).hexdigest()[:32]


def _memo_key(msgid: str, msgstr: str, lang: str, context) -> tuple[str, str]:
    """The key of a unit's :func:`check_facts` results among the kept ones: ``(digest, language)``,
    the digest (SHA-256, 128 bits in hex) of the unit's two texts and its context. A digest rather
    than the texts keeps the file of results and what workers hand over small (a sixth of the size
    on AisleRiot's catalogs); the language is kept as it is, for :func:`save_fact_memo`."""
    summary = _context_key(context) if context is not None else ""
    digest = hashlib.sha256(f"{msgid}\0{msgstr}\0{summary}".encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return digest, lang


def check_facts(msgid: str, msgstr: str, lang: str, context=None) -> list:
    """Compare the rule statements of an English ``msgid`` with those of its translation ``msgstr``.

    ``context`` is a :class:`~.statements.UnitContext` (the unit's role, names, lexicon and the
    page's rules model) or ``None``. Returns ``(check, severity, message, source span, translation
    span, confidence)`` tuples (see :func:`~.statements.compare`): severity follows from the
    confidence, ``"error"`` for a value that differs (7 vs 6, up vs down, suit vs colour), at most
    ``"warning"`` for a fact, negation or restriction of the source the translation lacks, and
    ``"info"`` for a bare count the translation leaves to a paraphrase. An empty ``msgstr`` gives no
    findings (that is another check's business).

    Raises:
        LanguageError: no lexicon for ``lang``.
    """
    from .statements import compare

    if _MEMO is None:
        return compare(msgid, msgstr, lang, context)
    key = _memo_key(msgid, msgstr, lang, context)
    _USED.add(key)
    if key not in _MEMO:
        _MEMO[key] = tuple(compare(msgid, msgstr, lang, context))
    return list(_MEMO[key])


# Results of check_facts kept across builds, by _memo_key (see use_fact_memo); None: not kept.
_MEMO: dict[tuple[str, str], tuple] | None = None
_USED: set[tuple[str, str]] = set()
# The keys read from the file (what fact_memo_added leaves out).
_LOADED: set[tuple[str, str]] = set()
# The keys fact_memo_added has handed over already (a worker hands over after each of its jobs).
_HANDED: set[tuple[str, str]] = set()


def use_fact_memo(path: "Path | None") -> None:
    """Keep :func:`check_facts` results in memory, starting from those saved at ``path`` (JSON
    written by :func:`save_fact_memo`; a missing or unreadable file, or one holding anything but
    such results, starts empty). ``None`` stops keeping them. The results depend only on the
    texts, the language, the unit's context and this code, so whoever saves them must drop the
    file when the code changes (the site build keeps it in its cache; ``patiencebook check`` names
    it for the code, see :mod:`~.cachefiles`)."""
    global _MEMO
    _USED.clear()
    _LOADED.clear()
    _HANDED.clear()
    if path is None:
        _MEMO = None
        return
    _MEMO = _read_memo(Path(path))
    _LOADED.update(_MEMO)


def _read_memo(path: Path) -> dict:
    """The results in the file at ``path`` by key; empty when it is missing, unreadable or holds
    anything else (a damaged or hand-edited file is not trusted in part)."""
    def span(value):
        if value is None:
            return None
        start, end, text = value
        if not (type(start) is int and type(end) is int and isinstance(text, str) and 0 <= start <= end):
            raise ValueError(value)
        return Span(start, end, text)

    from .cachefiles import read_json

    out: dict = {}
    try:
        entries = read_json(path)
        if entries is None:
            return {}
        for digest, lang, found in entries:
            if not (isinstance(digest, str) and isinstance(lang, str)):
                raise ValueError(digest)
            results = []
            for check, severity, message, source, target, confidence in found:
                if not (isinstance(check, str) and severity in _SEVERITIES and isinstance(message, str)
                        and type(confidence) in (int, float) and 0 <= confidence <= 1):
                    raise ValueError(check)
                results.append((check, severity, message, span(source), span(target), confidence))
            out[(digest, lang)] = tuple(results)
    except (OSError, ValueError, TypeError):
        return {}
    return out


def save_fact_memo(path: "Path") -> None:
    """Write the :func:`check_facts` results asked for since :func:`use_fact_memo`, and those the
    file holds now of languages none was asked for in (another run may have written them
    meanwhile), to ``path`` as JSON, atomically: a reader meets the old file or the new one. The
    file is a list of ``[digest, language, results]`` (the key of :func:`_memo_key`; each result
    ``[check, severity, message, source span, translation span, confidence]``, a span
    ``[start, end, text]`` or ``null``).
    Nothing is written when none are kept, or when the file would stay as it was read.
    Raises ``OSError`` when it cannot be written."""
    if _MEMO is None:
        return
    from .cachefiles import locked, write_json

    checked = {key[1] for key in _USED}
    if all(key in _LOADED for key in _USED) and all(key in _USED or key[1] not in checked for key in _LOADED):
        return  # every result came from the file, and every result of the file stays
    path = Path(path)

    def span(value):
        return [value.start, value.end, value.text] if value is not None else None

    with locked(path.parent):  # another run's languages, written meanwhile, are read and kept
        kept = {key: found for key, found in _read_memo(path).items() if key[1] not in checked}
        kept.update((key, _MEMO[key]) for key in _USED if key in _MEMO)
        entries = [[*key, [[c, sev, msg, span(a), span(b), conf] for c, sev, msg, a, b, conf in found]]
                   for key, found in kept.items()]
        write_json(path, entries, f".{path.name}.")


def fact_memo_added() -> tuple[list, list] | None:
    """What :func:`check_facts` added to the kept results since :func:`use_fact_memo` and since
    the last call, as ``(keys asked for whose results were read from the file, [(key, result),
    ...] worked out)``, or ``None`` when none are kept: a worker process hands it to its parent
    (:func:`keep_fact_memo`) after each job, each result once."""
    if _MEMO is None:
        return None
    new = _USED - _HANDED
    _HANDED.update(new)
    worked = [(key, _MEMO[key]) for key in new if key in _MEMO and key not in _LOADED]
    return [key for key in new if key in _LOADED], worked


def keep_fact_memo(added: tuple[list, list] | None) -> None:
    """Add what :func:`fact_memo_added` gave (in another process) to the results kept here; nothing
    when none are kept here or ``added`` is ``None``."""
    if _MEMO is None or added is None:
        return
    used, entries = added
    _USED.update(used)
    _USED.update(key for key, _ in entries)
    _MEMO.update(entries)
