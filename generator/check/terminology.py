"""Terminology checks: one translated term per concept and language, and no false friends.

Concepts come from the language's glossary (``<catalogs>/<lang>/glossary.tbx``, see :mod:`.glossary`)
or, without one, are inferred from the sources' term labels and their translations. Matching is by
folded form and snowball stem (:mod:`.lexicon`), so inflected forms count as the same term.
"""

from __future__ import annotations

import json
import re
import weakref
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog

from ..errors import LanguageError
from .findings import Span
from .glossary import Concept, GlossaryTerm, glossary_path, infer_glossary, read_tbx
from .health import Problem
from .lexicon import LEXICON_DIR, Lexicon, Pattern, load_lexicon, read_tokens, tokens

#: The checks this module reports.
CHECKS = ("terminology", "false-friend")
FALSE_FRIENDS_FILE = LEXICON_DIR / "false-friends.json"


@dataclass(frozen=True, slots=True)
class Variant:
    """One way a language writes a concept: ``text`` (its commonest surface form), how many messages
    use it, whether it is the glossary's preferred term, and whether the glossary admits it."""

    text: str
    count: int
    preferred: bool
    accepted: bool = False


@dataclass(slots=True)
class _Matcher:
    concept: Concept
    english: tuple[tuple[Pattern, ...], ...]
    preferred: tuple[tuple[Pattern, ...], ...]
    synonyms: tuple[tuple[Pattern, ...], ...]
    admitted: frozenset = frozenset()  # stem keys of the glossary's admitted terms: no warning
    uses: Counter = field(default_factory=Counter)
    surfaces: dict = field(default_factory=dict)
    messages: int = 0
    unmatched: int = 0


def _phrase(text: str, lex: Lexicon) -> tuple[Pattern, ...]:
    # A translated label such as "Talon (Vorrat)" names the term first; the rest explains it.
    text = text.split("(")[0].split("/")[0].split(",")[0]
    words = [re.sub(r"^\W+|\W+$", "", w) for w in text.split()]
    return tuple(lex.word_pattern(w) for w in words if any(c.isalpha() for c in w))


def _word_ok(pattern: Pattern, folded: str, stem: str, compound: bool, lemma_stem: str = "") -> bool:
    if pattern.how == "exact":
        return folded == pattern.text
    if pattern.how == "prefix":
        return folded.startswith(pattern.text)
    # The stem of the word's lemma counts too: Catalan "bases" stems to "base" but "base" to "bas".
    # German writes new compounds freely ("Fundamentstapel"): a word opening with the term's stem is it.
    return stem == pattern.text or lemma_stem == pattern.text or (
        compound and len(pattern.text) >= 5 and folded.startswith(pattern.text))


def _find(phrases, toks, compound: bool) -> list[tuple[int, int]]:
    """``(first, last)`` token ranges (inclusive) where any phrase matches, leftmost-longest, not overlapping."""
    out, i = [], 0
    while i < len(toks):
        best = None
        for phrase in phrases:
            n = len(phrase)
            if n and i + n <= len(toks) and all(
                    _word_ok(p, toks[i + k][2], toks[i + k][3], compound, toks[i + k][5])
                    for k, p in enumerate(phrase)):
                if best is None or n > best:
                    best = n
        if best:
            out.append((i, i + best - 1))
            i += best
        else:
            i += 1
    return out


class _Index:
    """Phrases of several groups indexed by their first word, so that finding them in a text costs one
    look-up per token instead of one comparison per phrase and token.

    ``groups`` is an iterable of ``(key, phrases)``; :meth:`find` gives, per key with a hit, the same
    ranges :func:`_find` gives for that group's phrases.
    """

    __slots__ = ("compound", "by_stem", "by_exact", "by_prefix", "lengths", "_words", "_seen", "_texts")

    def __init__(self, groups, compound: bool) -> None:
        self.compound = compound
        self.by_stem: dict[str, list] = {}
        self.by_exact: dict[str, list] = {}
        self.by_prefix: dict[str, list] = {}
        for key, phrases in groups:
            for phrase in phrases:
                if not phrase:
                    continue
                first, entry = phrase[0], (key, phrase)
                if first.how == "exact":
                    self.by_exact.setdefault(first.text, []).append(entry)
                elif first.how == "prefix":
                    self.by_prefix.setdefault(first.text, []).append(entry)
                else:
                    self.by_stem.setdefault(first.text, []).append(entry)
                    # A compound opening with the stem matches too (see _word_ok), so index it as a prefix.
                    if compound and len(first.text) >= 5:
                        self.by_prefix.setdefault(first.text, []).append(entry)
        self.lengths = tuple(sorted({len(text) for text in self.by_prefix}))
        self._words: dict[tuple[str, str, str], tuple] = {}  # (folded, stem, lemma stem) -> entries
        self._seen: dict[tuple[str, str, str, str], tuple] = {}  # a token's forms -> entries
        self._texts: dict[str, dict] = {}

    def _candidates(self, folded: str, stem: str, lemma_stem: str = "") -> tuple:
        key = (folded, stem, lemma_stem)
        found = self._words.get(key)
        if found is None:
            out = [*self.by_stem.get(stem, ()), *self.by_stem.get(lemma_stem, ()), *self.by_exact.get(folded, ())]
            for n in self.lengths:
                if n > len(folded):
                    break
                out.extend(self.by_prefix.get(folded[:n], ()))
            # The index only narrows the search; the first word is still tested as _find tests it.
            found = self._words[key] = tuple(
                e for e in dict.fromkeys(out) if _word_ok(e[1][0], folded, stem, self.compound, lemma_stem))
        return found

    def find(self, toks, text: str | None = None) -> dict:
        """``{key: [(first, last), ...]}`` for the keys whose phrases occur in ``toks``, each list
        leftmost-longest and not overlapping, as :func:`_find` gives it. With ``text`` (the string
        ``toks`` were read from) the answer is kept and given again for the same text; callers must
        not change it."""
        if text is not None:
            found = self._texts.get(text)
            if found is None:
                if len(self._texts) >= 65_536:
                    self._texts.clear()  # a bound for long runs, as lexicon.tokens has
                found = self._texts[text] = self.find(toks)
            return found
        compound, size, seen = self.compound, len(toks), self._seen
        starts: dict = {}
        for i, tok in enumerate(toks):
            cands = seen.get(tok[2:])  # a token is (start, end, folded, stem, lemma, lemma stem)
            if cands is None:
                cands = seen[tok[2:]] = self._candidates(tok[2], tok[3], tok[5])
            if not cands:
                continue
            local: dict = {}
            for key, phrase in cands:
                n = len(phrase)
                if n > local.get(key, 0) and (n == 1 or (i + n <= size and all(
                        _word_ok(p, toks[i + k][2], toks[i + k][3], compound, toks[i + k][5])
                        for k, p in enumerate(phrase) if k))):
                    local[key] = n
            for key, n in local.items():
                starts.setdefault(key, []).append((i, n))
        out = {}
        for key, hits in starts.items():
            ranges, cursor = [], 0
            for i, n in hits:
                if i >= cursor:
                    ranges.append((i, i + n - 1))
                    cursor = i + n
            out[key] = ranges
        return out


@lru_cache(maxsize=16)
def _shared_index(groups: tuple, compound: bool) -> _Index:
    """One :class:`_Index` per distinct ``groups`` (and its word look-ups with it), so that English
    texts (the same msgids in every catalog) are searched once for all languages whose glossaries
    name the same English terms, and a catalog checked again reuses its language's indexes."""
    return _Index(groups, compound)


def _pile_value(label: str, en: Lexicon) -> str | None:
    """The lexicon pile name an English label means (``"Foundations"`` → ``"foundation"``), if any."""
    toks = tokens(label, "en", en)
    for term in en.terms:
        if term.kind == "pile" and len(term.words) == len(toks) and all(
                _word_ok(p, t[2], t[3], False, t[5]) for p, t in zip(term.words, toks)):
            return term.value if isinstance(term.value, str) else None
    return None


def _matchers(concepts: list[Concept], lang: str, lex: Lexicon, en: Lexicon) -> list[_Matcher]:
    out = []
    for concept in concepts:
        english = tuple(p for p in (_phrase(t.text, en) for t in concept.in_lang("en")) if p)
        preferred_text = concept.preferred(lang)
        if not english or not preferred_text:
            continue
        preferred = tuple(p for p in [_phrase(preferred_text, lex)] if p)
        admitted = [_phrase(t.text, lex) for t in concept.in_lang(lang) if t.text != preferred_text]
        value = _pile_value(concept.in_lang("en")[0].text, en)
        synonyms = list(admitted)
        if value:
            for term in lex.terms:
                values = term.value if isinstance(term.value, tuple) else (term.value,)
                if term.kind == "pile" and value in values:
                    synonyms.append(term.words)
        keys = frozenset(" ".join(p.text for p in phrase) for phrase in admitted if phrase)
        out.append(_Matcher(concept, english, preferred, tuple(p for p in synonyms if p), keys))
    return out


def concept_variants(matcher: _Matcher) -> list[Variant]:
    """A matcher's variants, most used first (the preferred one first on ties)."""
    items = [Variant(matcher.surfaces[key].most_common(1)[0][0], n, key == "", key in matcher.admitted)
             for key, n in matcher.uses.items()]
    return sorted(items, key=lambda v: (-v.count, not v.preferred, v.text))


def _confirmed(catalog: Catalog):
    for message in catalog:
        if not message.id or message.fuzzy or message.context == "_":
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        msgstr = ""
        for string in strings:
            if string:
                msgstr = string
                break
        if msgstr and msgid != "translator-credits":
            yield message, msgid, msgstr


def _header_comment(catalog: Catalog) -> str:
    """The catalog's header comment as the file has it. Babel's ``header_comment`` fills in its
    placeholders and names the language in English, which loads CLDR's data of English at first
    use (13 ms in every process); its comment as read is the same text but for those."""
    raw = getattr(catalog, "_header_comment", None)
    return raw if isinstance(raw, str) else catalog.header_comment


_HEADER_TERM = re.compile(r"^#?\s*([A-Za-z][A-Za-z '-]*?)\s*=\s*(\S.*?)\s*$")


def header_glossary(catalog: Catalog, lang: str) -> list[Concept]:
    """The terms a catalog's header comment agrees on, as GNOME translators write them there:
    one ``english = translation`` line per term (``# stock = Talon (der Kartenstoß …)``,
    ``# redeal = Neuverteilung/Neuausgabe``). The first translation is the preferred term, the others
    (after ``/`` or ``,``) are admitted; a bracket explains and a trailing ``?`` doubts, so both go."""
    concepts = []
    for line in (_header_comment(catalog) or "").splitlines():
        match = _HEADER_TERM.match(line.strip())
        if not match:
            continue
        english, rest = match.group(1).strip(), re.sub(r"\([^()]*\)?", "", match.group(2))
        texts = [t.strip().rstrip("?").strip() for t in re.split(r"[/,;]", rest)]
        texts = [t for t in texts if t and any(c.isalpha() for c in t)]
        if not texts or len(english.split()) > 4:
            continue
        terms = (GlossaryTerm("en", english),) + tuple(
            GlossaryTerm(lang, t, "preferred" if i == 0 else "admitted") for i, t in enumerate(texts))
        concepts.append(Concept(re.sub(r"[^a-z0-9]+", "-", english.lower()).strip("-"), terms))
    return concepts


def load_glossary(document, catalog: Catalog, lang: str, catalogs: Path | None) -> list[Concept]:
    """The one glossary of ``lang`` that every check of the catalog uses.

    From the first source that has it, concept by concept: ``<catalogs>/<lang>/glossary.tbx`` when
    it exists (then only that file); else the terms the catalog's header states
    (:func:`header_glossary`); else the term the catalog itself uses most for the concept, among the
    translation of the concept's label in the sources (its Setup row) and the lexicon's names of the
    same pile (the label's translation wins a tie). The header's and the TBX file's admitted terms
    are accepted variants: using one is never a warning.

    Raises:
        CatalogError: the glossary file is not valid TBX.
    """
    if catalogs is not None:
        for code in dict.fromkeys((lang, lang.split("_")[0].split("@")[0])):
            path = glossary_path(catalogs, code)
            if path.is_file():
                return read_tbx(path)
    strings = {msgid: msgstr for _, msgid, msgstr in _confirmed(catalog)}
    inferred = infer_glossary(document, {lang: strings})
    header = {_english_key(c): c for c in header_glossary(catalog, lang)}
    lexes = _lexicons(lang)
    merged, stated = [], set()
    for concept in inferred:
        key = _english_key(concept)
        if key in header:
            # The header's terms for the concept, under the concept's English label from the sources.
            stated.add(key)
            merged.append(Concept(concept.id, concept.in_lang("en") + header[key].in_lang(lang)))
        else:
            merged.append(concept)
    merged += [c for k, c in header.items() if k not in stated]
    if lexes is None:
        return merged
    _, matchers = check_terminology(merged, catalog, lang)
    by_id = {m.concept.id: m for m in matchers}
    out = []
    for concept in merged:
        m = by_id.get(concept.id)
        if m is None or _english_key(concept) in header or not m.messages:
            out.append(concept)
            continue
        variants = concept_variants(m)
        best = variants[0] if variants else None
        if best is None:
            out.append(concept)
            continue
        preferred = concept.preferred(lang)
        if best.preferred or (preferred and best.count <= next((v.count for v in variants if v.preferred), 0)):
            out.append(concept)  # the label's own translation is used at least as often
            continue
        texts = [best.text]
        terms = concept.in_lang("en") + tuple(
            GlossaryTerm(lang, t, "preferred" if i == 0 else "admitted") for i, t in enumerate(dict.fromkeys(texts)))
        out.append(Concept(concept.id, terms, concept.definition))
    return out


def agreed_terms(concepts: list[Concept], lang: str) -> tuple[tuple[str, str, str], ...]:
    """The glossary's terms of piles and of suit and colour as lexicon terms ``(kind, value, phrase)``
    (``("pile", "tableau", "талон")``, ``("suit-colour", "suit", "Farbe")`` from "In suit" = "In
    Farbe"), for reading the catalog's rule facts with the words it agreed on (see
    :func:`~.facts.lexicon_key`): the pile check and the terminology check then agree.

    A concept counts when its English term names one pile or one of suit, colour and alternate
    colour; of a translated term of several words, the words that name such a thing are taken."""
    from .facts import extract_facts

    lexes = _lexicons(lang)
    if lexes is None:
        return ()
    lex, _ = lexes
    out = []
    for concept in concepts:
        english = concept.in_lang("en")
        if not english:
            continue
        named = {(f.kind, v) for f in extract_facts(english[0].text, "en") if f.kind in ("pile", "suit-colour")
                 for v in (f.value if isinstance(f.value, tuple) else (f.value,)) if v != "pile"}
        if len(named) != 1:
            continue
        ((kind, value),) = named
        for term in concept.in_lang(lang):
            if term.status == "deprecated":
                continue
            # A word the lexicon reads as the generic "pile" (Serbian "гомила" for the stock in one
            # catalog, any pile in the next sentence) names nothing in particular.
            if any(f.kind == "pile" and "pile" in (f.value if isinstance(f.value, tuple) else (f.value,))
                   for f in extract_facts(term.text, lex.lang)):
                continue
            words = [re.sub(r"^\W+|\W+$", "", w) for w in term.text.split("(")[0].split()]
            words = [w for w in words if any(c.isalpha() for c in w)]
            if len(words) > 1:
                # "In Farbe": the word that names the thing; a phrase whose words all do stays whole.
                naming = [w for w in words if any(f.kind == kind and value in (f.value if isinstance(f.value, tuple)
                                                                               else (f.value,))
                                                  for f in extract_facts(w, lex.lang))]
                other = [w for w in words if any(f.kind == kind and value not in (f.value if isinstance(f.value, tuple)
                                                                                    else (f.value,))
                                                 for f in extract_facts(w, lex.lang))]
                if naming and len(naming) < len(words):
                    out += [(kind, value, w) for w in naming]
                elif len(words) <= 3 and not other:
                    # A phrase none of whose words names something else: "Στοίβα απόρριψης". "Иста боја"
                    # for "Same suit" names a colour, whatever the label says, so it is left out.
                    out.append((kind, value, " ".join(words)))
            elif words:
                out.append((kind, value, words[0]))
    return tuple(dict.fromkeys(out))


def _english_key(concept: Concept) -> tuple:
    en = concept.in_lang("en")
    return tuple(tok[3] for tok in tokens(en[0].text, "en")) if en else (concept.id,)


def _lexicons(lang: str) -> tuple[Lexicon, Lexicon] | None:
    try:
        lex = load_lexicon(lang.split("_")[0].split("@")[0])
    except LanguageError:
        return None
    # A lexicon of some kinds only (CLDR's number words) names no piles or suits to compare terms by.
    return (lex, load_lexicon("en")) if lex.kinds is None else None


# check_terminology's answers per catalog object, so that the glossary's counting pass and the check
# itself (the same concepts, when the counts changed nothing) read the catalog once.
_ANSWERS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def check_terminology(concepts: list[Concept], catalog: Catalog, lang: str) -> tuple[list[Problem], list]:
    """Terminology problems of one catalog (see :func:`_check_terminology`); the answer for the
    same catalog object, concepts and language is given again without reading the catalog again.
    Callers must not change the catalog between two calls."""
    key = (tuple(concepts), lang)
    try:
        known = _ANSWERS.setdefault(catalog, {})
    except TypeError:  # a catalog that cannot be weakly referenced: no keeping
        return _check_terminology(concepts, catalog, lang)
    if key not in known:
        known[key] = _check_terminology(concepts, catalog, lang)
    problems, matchers = known[key]
    return list(problems), matchers


def _check_terminology(concepts: list[Concept], catalog: Catalog, lang: str) -> tuple[list[Problem], list]:
    """Terminology problems of one catalog.

    Returns:
        ``(problems, matchers)``: a ``warning`` per message naming a concept (by its English term)
        with a term other than the glossary's preferred one, an ``info`` per concept listing every
        variant with its count; the matchers carry the counts (see :func:`concept_variants`).
        A language without a lexicon gets no problems.
    """
    lexes = _lexicons(lang)
    if lexes is None:
        return [], []
    lex, en = lexes
    code = lex.lang
    compound = code == "de"
    matchers = _matchers(concepts, lang, lex, en)
    # Built once per catalog: each message then costs one pass over its words per index. The English
    # side is keyed by the phrases themselves and covers every concept, so catalogs of other
    # languages reuse it (glossaries inferred from one document share their English terms).
    english_terms = (tuple(p for p in (_phrase(t.text, en) for t in c.in_lang("en")) if p) for c in concepts)
    english_groups = tuple(enumerate(e for e in dict.fromkeys(english_terms) if e))
    english_index = _shared_index(english_groups, False)
    english_key = {e: i for i, e in english_groups}
    by_english: dict[int, list] = {}
    for k, m in enumerate(matchers):
        by_english.setdefault(english_key[m.english], []).append((k, m))
    # Matcher k's preferred phrases are key k, its synonyms key k + n: one pass finds both.
    n = len(matchers)
    target_index = _shared_index(tuple((k, m.preferred) for k, m in enumerate(matchers))
                                 + tuple((n + k, m.synonyms) for k, m in enumerate(matchers)), compound)
    problems = []
    for message, msgid, msgstr in _confirmed(catalog):
        src = read_tokens(msgid, "en", en)
        named = english_index.find(src, msgid)
        if not named:
            continue
        # The matchers whose English term the msgid names, in the glossary's order.
        order = sorted(((k, m, src_hits) for e, src_hits in named.items() for k, m in by_english.get(e, ())),
                       key=lambda item: item[0])
        if not order:
            continue
        dst = read_tokens(msgstr, code, lex)
        hits = target_index.find(dst)
        # Words that are another concept's preferred term are that concept, never a variant of this one.
        taken = {}
        for k, m, _ in order:
            for first, last in hits.get(k, ()):
                taken.setdefault((first, last), m)
        for k, m, src_hits in order:
            m.messages += 1
            seen = set()
            for first, last in hits.get(k, ()):
                seen.add(("", msgstr[dst[first][0]:dst[last][1]], first, last))
            # When the preferred term already covers every English mention, other synonyms in the
            # translation name something else ("deck" beside "stock"; Greek "επιλογή", a choice).
            others = [] if len(seen) >= len(src_hits) else hits.get(n + k, [])
            for first, last in others:
                owner = taken.get((first, last))
                if owner is not None or any(f <= first <= l for _, _, f, l in seen):
                    continue
                key = " ".join(dst[k][3] for k in range(first, last + 1))
                seen.add((key, msgstr[dst[first][0]:dst[last][1]], first, last))
            if not seen:
                m.unmatched += 1
            for key in {k for k, _, _, _ in seen}:
                m.uses[key] += 1
            for key, text, first, last in sorted(seen, key=lambda s: s[2]):
                surfaces = m.surfaces.get(key)
                if surfaces is None:
                    surfaces = m.surfaces[key] = Counter()
                surfaces[text] += 1
            preferred = m.concept.preferred(lang)
            for key, text, first, last in sorted(seen, key=lambda s: s[2]):
                if key == "" or key in m.admitted:
                    continue
                s0, s1 = src_hits[0]
                problems.append(Problem(
                    msgid, "terminology", "warning",
                    f"'{text}' for '{m.concept.in_lang('en')[0].text}'; the glossary term is '{preferred}'",
                    Span(src[s0][0], src[s1][1], msgid[src[s0][0]:src[s1][1]]),
                    Span(dst[first][0], dst[last][1], text), message.lineno, tuple(message.locations),
                    message.context))
                break
    for m in matchers:
        if not m.messages:
            continue
        listed = ", ".join(f"{v.text} ×{v.count}" + (" (glossary)" if v.preferred else " (accepted)" if v.accepted else "")
                           for v in concept_variants(m))
        rest = f"; {m.unmatched} without a known term" if m.unmatched else ""
        problems.append(Problem("", "terminology", "info",
                                f"{m.concept.in_lang('en')[0].text}: {listed or 'no known term'}"
                                f" in {m.messages} messages{rest}"))
    return problems, matchers


@lru_cache(maxsize=None)
def _false_friends() -> dict:
    try:
        return json.loads(FALSE_FRIENDS_FILE.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise LanguageError(f"bad false-friend JSON: {exc.msg}", FALSE_FRIENDS_FILE, exc.lineno) from None


def check_false_friends(concepts: list[Concept], catalog: Catalog, lang: str) -> list[Problem]:
    """A ``warning`` per message whose translation uses a word of ``false-friends.json`` for a concept
    it does not name in this language, while the English names the concept the word is mistaken for.

    The word's meaning is the glossary concept whose preferred term it is, else the file's ``means``.
    """
    lexes = _lexicons(lang)
    if lexes is None:
        return []
    lex, en = lexes
    data = _false_friends()
    english = {sense: tuple(tuple(en.word_pattern(w) for w in p.split()) for p in words)
               for sense, words in data.get("english", {}).items()}
    entries = []
    for entry in data.get("entries", []):
        word = entry.get("word", {}).get(lex.lang)
        if not word:
            continue
        phrase = tuple(lex.word_pattern(w) for w in word.split())
        means = entry.get("means", {}).get(lex.lang)
        for concept in concepts:
            preferred = concept.preferred(lang)
            if preferred and concept.id in english and _find((phrase,), tokens(preferred, lex.lang, lex), False):
                means = concept.id
        entries.append((phrase, means, entry))
    english_index = _shared_index(tuple(english.items()), False)
    entry_index = _Index(((j, (phrase,)) for j, (phrase, _, _) in enumerate(entries)), False)
    problems = []
    for message, msgid, msgstr in _confirmed(catalog):
        src = read_tokens(msgid, "en", en)
        said = set(english_index.find(src, msgid))
        if not said:
            continue
        dst = read_tokens(msgstr, lex.lang, lex)
        found = entry_index.find(dst)
        for j, (phrase, means, entry) in enumerate(entries):
            if means in said:
                continue
            wrong = [s for s in entry.get("mistaken_for", ()) if s in said]
            hits = found.get(j)
            if not wrong or not hits:
                continue
            first, last = hits[0]
            text = msgstr[dst[first][0]:dst[last][1]]
            note = entry.get("note", {}).get(lex.lang, "")
            problems.append(Problem(
                msgid, "false-friend", "warning",
                f"'{text}' means {means} here, but the English says {wrong[0]}" + (f" ({note})" if note else ""),
                None, Span(dst[first][0], dst[last][1], text), message.lineno, tuple(message.locations),
                message.context))
    return problems


__all__ = ["CHECKS", "Variant", "agreed_terms", "check_false_friends", "check_terminology", "concept_variants",
           "header_glossary", "load_glossary"]
