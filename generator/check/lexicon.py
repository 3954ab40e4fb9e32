"""Per-language word lists for the rule-fact checks, and the folding and stemming that make them match.

The lists live in ``generator/data/lexicons/<lang>.json``; number words are generated from the CLDR
spell-out rules (``unicode-rbnf``), so only irregular extras are listed by hand; for a language CLDR
spells out no numbers in (Basque, Galician, Occitan) the lexicon file lists them.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cyrtranslit
import snowballstemmer

from ..errors import LanguageError
from . import lemmas

LEXICON_DIR = Path(__file__).resolve().parent.parent / "data" / "lexicons"

#: Kinds whose entries are term lists keyed by value in the lexicon files.
TERM_KINDS = ("rank", "pile", "suit-colour", "suit-name", "direction", "step", "face", "side", "position", "comparator",
              "redeal", "pass", "at-a-time", "unlimited", "negation", "only", "must", "in-play", "implies", "number",
              "ignore")


# A middle dot between letters belongs to the word (Catalan "col·locar", "il·limitades").
_WORD = re.compile(r"\d+|[^\W\d_]+(?:\u00b7[^\W\d_]+)*")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


#: The most words kept per language by each of the word memos below (a bound for long runs).
_MEMO_WORDS = 262_144
# Memos of what a word is in one language: plain dicts of strings, which the garbage collector
# stops looking into once it has seen them (a function cache's entries it traverses every time).
_FOLDED: dict[str, dict[str, str]] = {}
_STEMS: dict[str, dict[str, str]] = {}
_LEMMAS: dict[tuple[str, str], dict[str, str]] = {}
_WRITTEN_LEMMAS: dict[tuple[str, str], dict[str, str]] = {}


def _memo(memos: dict, key) -> dict:
    """The memo of ``key`` in ``memos``, emptied when it holds :data:`_MEMO_WORDS` words."""
    memo = memos.get(key)
    if memo is None:
        memo = memos[key] = {}
    elif len(memo) >= _MEMO_WORDS:
        memo.clear()
    return memo


def fold(word: str, lang: str) -> str:
    """Lower-case ``word``, drop accents and diacritics, write Greek final sigma as σ, and write
    Serbian in Latin script, so that ``"ΆΣΟΣ"``, ``"άσος"`` and ``"ασοσ"`` compare equal (str → str)."""
    memo = _FOLDED.get(lang)
    found = memo.get(word) if memo is not None else None
    if found is None:
        found = _memo(_FOLDED, lang)[word] = _fold(word, lang)
    return found


def _fold(word: str, lang: str) -> str:
    if word.isascii():
        return word.lower()  # no script to change, nothing to decompose, no final sigma
    if lang == "sr" and _CYRILLIC.search(word):
        word = cyrtranslit.to_latin(word, "sr")
    word = word.lower()
    if lang == "sr":
        # Serbian diacritics tell words apart (нижу/низу, што/сто), so only the script is folded.
        return unicodedata.normalize("NFC", word)
    word = unicodedata.normalize("NFD", word)
    word = "".join(c for c in word if not unicodedata.combining(c))
    return word.replace("ς", "σ")


@dataclass(frozen=True, slots=True)
class Pattern:
    """One word of a term: ``how`` is ``"stem"`` (equal stems), ``"prefix"`` (the folded token starts
    with ``text``) or ``"exact"`` (equal folded forms)."""

    how: str
    text: str


@dataclass(frozen=True, slots=True)
class Term:
    """A lexicon phrase meaning ``value`` of ``kind`` (``value`` is a str, an int, or a tuple of
    alternatives when translators use one word for two things)."""

    kind: str
    value: object
    words: tuple[Pattern, ...]
    source: str


@dataclass(slots=True)
class Lexicon:
    """The compiled word lists of one language.

    ``by_stem`` / ``by_exact`` map a token's stem / folded form to the terms whose first word it
    satisfies; ``prefixed`` holds terms whose first word is a prefix pattern, keyed by the prefix.
    """

    lang: str
    stemmer_name: str
    terms: list[Term] = field(default_factory=list)
    by_stem: dict[str, list[Term]] = field(default_factory=dict)
    by_exact: dict[str, list[Term]] = field(default_factory=dict)
    prefixed: dict[str, list[Term]] = field(default_factory=dict)
    prefix_lengths: tuple[int, ...] = ()
    _candidates: dict[tuple[str, str], tuple[Term, ...]] = field(default_factory=dict, repr=False)
    #: Per token forms: (candidates, the one-word ones, {next token's forms: terms} or None when all
    #: are one word); see :meth:`following`.
    _following: dict[tuple[str, str, str, str], tuple] = field(default_factory=dict, repr=False)
    _tokens: dict[tuple[str, str], tuple[tuple[int, int, str, str], ...]] = field(
        default_factory=dict, repr=False)
    #: Each word as written → (folded, stem, lemma, lemma stem): the same for every copy of the
    #: lexicon (:meth:`extended`), since terms do not change how a word is read.
    _forms: dict[str, tuple[str, str, str, str]] = field(default_factory=dict, repr=False)
    #: What the checks derive from the settings once per lexicon (see :meth:`derived`).
    _derived: dict = field(default_factory=dict, repr=False)
    one_words: frozenset[str] = frozenset()
    cardinals: frozenset[str] = frozenset()
    ordinals: frozenset[str] = frozenset()
    ordinal_prefixes: tuple[str, ...] = ()
    settings: dict = field(default_factory=dict)
    #: False when the lexicon knows no number words (no CLDR spell-out and no list of its own):
    #: its numbers are compared in digits only.
    number_words: bool = True

    @property
    def kinds(self) -> frozenset[str] | None:
        """The kinds of fact this lexicon can state when it states only some (the setting
        ``"kinds"``, e.g. ``["number"]`` for a lexicon of CLDR number words alone); ``None``: all."""
        kinds = self.settings.get("kinds")
        return frozenset(kinds) if kinds is not None else None

    def derived(self, name: str, make):
        """``make(self)``, worked out on the first call for ``name`` and kept (the settings and
        terms it may read do not change once the lexicon is built)."""
        found = self._derived.get(name)
        if found is None:
            found = self._derived[name] = make(self)
        return found

    def stem(self, folded: str) -> str:
        """The snowball stem of an already folded word (str → str); the word itself for a language
        whose lexicon names no stemmer (Snowball has none for Ukrainian: lemmas and prefixes match)."""
        return _stem(self.stemmer_name, folded) if self.stemmer_name else folded

    def stem_of(self, word: str) -> str:
        """The folded stem of ``word`` as written. Stemmers that read diacritics (Czech "rozdaných",
        Hungarian "készletből", Russian "красный") stem the word before it is folded when the lexicon's
        setting "stem_unfolded" says so; otherwise the folded word is stemmed (:meth:`stem`)."""
        if self.stemmer_name and self.settings.get("stem_unfolded"):
            return _stem(self.stemmer_name, word.lower())
        return self.stem(fold(word, self.lang))

    def lemma_stem_of(self, word: str) -> str:
        """The folded stem of the lemma of ``word`` (see :meth:`stem_of`)."""
        if self.stemmer_name and self.settings.get("stem_unfolded"):
            written = _written_lemma(self.settings.get("lemmas", ""), word, self.lang)
            return _stem(self.stemmer_name, written.lower())
        return self.stem(self.lemma(word))

    def forms(self, word: str) -> tuple[str, str, str, str]:
        """``(folded, stem, lemma, lemma stem)`` of ``word`` as written (see :meth:`stem_of`,
        :meth:`lemma`, :meth:`lemma_stem_of`), read once per word."""
        found = self._forms.get(word)
        if found is None:
            # What stem_of, lemma and lemma_stem_of give, each intermediate form read once.
            lang, name = self.lang, self.stemmer_name
            folded = fold(word, lang)
            written = _written_lemma(self.settings.get("lemmas", ""), word, lang)
            lemma = fold(written, lang)
            if not name:
                stem, lemma_stem = folded, lemma
            elif self.settings.get("stem_unfolded"):
                stem = _stem(name, word.lower())
                lemma_stem = _stem(name, written.lower()) if lemma != folded else stem
            else:
                stem = _stem(name, folded)
                lemma_stem = _stem(name, lemma) if lemma != folded else stem
            found = (folded, stem, lemma, lemma_stem)
            if len(self._forms) >= 262_144:
                self._forms.clear()  # a bound for long runs
            self._forms[word] = found
        return found

    def lemma(self, word: str) -> str:
        """The folded dictionary form of ``word`` from simplemma (``"abgebaut"`` → ``"abbauen"``,
        Serbian ``"Знаци"`` → ``"znak"``), or the folded word where simplemma has no lemma for it."""
        # The lexicon's setting "lemmas" names simplemma's language ("hbs", Serbo-Croatian, for
        # Serbian, lemmatised in Latin script); without it words have no lemma of their own.
        return _lemma(self.settings.get("lemmas", ""), word, self.lang)

    def word_pattern(self, word: str) -> Pattern:
        """Compile one lexicon word: ``"x*"`` (or ``"=x*"``) → prefix, ``"=x"`` → exact, else stem (exact when the
        stem is shorter than three letters, which would match too much)."""
        if word.endswith("*"):
            return Pattern("prefix", fold(word[:-1].lstrip("="), self.lang))
        if word.startswith("="):
            return Pattern("exact", fold(word[1:], self.lang))
        folded = fold(word, self.lang)
        stem = self.stem_of(word)
        if len(stem) < 3:
            return Pattern("exact", folded)
        return Pattern("stem", stem)

    def add(self, kind: str, value: object, phrase: str) -> None:
        """Add one term (a phrase of space-separated lexicon words) meaning ``value``."""
        words = tuple(self.word_pattern(w) for w in phrase.split())
        if not words:
            return
        self._index(Term(kind, value, words, phrase))

    def _index(self, term: Term) -> None:
        self.terms.append(term)
        first = term.words[0]
        index = {"stem": self.by_stem, "exact": self.by_exact, "prefix": self.prefixed}[first.how]
        index.setdefault(first.text, []).append(term)
        if first.how == "prefix":
            self.prefix_lengths = tuple(sorted({*self.prefix_lengths, len(first.text)}))
        # A new term may change any answer already given (a text's words stay what they are).
        self._candidates.clear()
        self._following.clear()

    def candidates(self, folded: str, stem: str, lemma: str = "", lemma_stem: str = "") -> tuple[Term, ...]:
        """Terms whose first word matches a token with this folded form and stem, or with this lemma
        and the lemma's stem: stem matches, then exact matches, then prefix matches from the
        shortest prefix up."""
        key = (folded, stem, lemma, lemma_stem)
        found = self._candidates.get(key)
        if found is None:
            out: list[Term] = []
            # An exact pattern ("=mehr") is a surface form: only stems and prefixes go by the lemma.
            for form, root, exact in dict.fromkeys(((folded, stem, True), (lemma or folded, lemma_stem or stem, False))):
                out += [*self.by_stem.get(root, ()), *(self.by_exact.get(form, ()) if exact else ())]
                # Only the prefix lengths some term uses can match, so only those are looked up.
                for n in self.prefix_lengths:
                    if n > len(form):
                        break
                    out.extend(self.prefixed.get(form[:n], ()))
            found = self._candidates[key] = tuple(dict.fromkeys(out))
        return found

    def following(self, first: tuple[str, str, str, str], second: tuple | None) -> tuple[Term, ...]:
        """The terms of :meth:`candidates` for a token with forms ``first`` ``(folded, stem, lemma,
        lemma stem)`` that the next token, ``second`` (a token of :func:`tokens`; ``None``: the text
        ends), does not rule out: every one-word term, and each longer term whose second word the
        next token satisfies (:func:`word_hits`), in the order :meth:`candidates` gives them. Every
        term's first word matches ``first``; words from the third on are left to the caller."""
        entry = self._following.get(first)
        if entry is None:
            terms = self.candidates(*first)
            singles = tuple(term for term in terms if len(term.words) == 1)
            if len(self._following) >= 262_144:
                self._following.clear()  # a bound for long runs
            entry = self._following[first] = (terms, singles, {} if len(singles) < len(terms) else None)
        terms, singles, after = entry
        if after is None or second is None:
            return singles
        forms = second[2:]
        found = after.get(forms)
        if found is None:
            found = after[forms] = tuple(term for term in terms
                                         if len(term.words) == 1 or word_hits(term.words[1], *forms))
        return found

    def extended(self, extra: tuple[tuple[str, str, str], ...]) -> "Lexicon":
        """A copy of this lexicon with more terms, ``(kind, value, phrase)`` each, such as the pile
        names a catalog's glossary agrees on (see :func:`catalog_lexicon`)."""
        copy = Lexicon(lang=self.lang, stemmer_name=self.stemmer_name, one_words=self.one_words,
                       cardinals=self.cardinals, ordinals=self.ordinals, ordinal_prefixes=self.ordinal_prefixes,
                       settings=self.settings, number_words=self.number_words)
        copy._forms = self._forms
        copy._tokens = self._tokens  # a text's words do not depend on the terms either
        if self.kinds is not None:
            # A lexicon of some kinds only (numbers) reads no other kind, whatever a glossary names.
            extra = tuple(term for term in extra if term[0] in self.kinds)
        # A one-word pile name that reads an agreed word as another pile gives way: Serbian catalogs
        # that call the tableau "талон" must not have it read as the stock. Suit and colour words
        # keep the lexicon's reading: German "Farbe" names a colour as well, whatever a glossary says.
        agreed = {}
        for kind, value, phrase in extra:
            words = phrase.split()
            if len(words) == 1 and kind == "pile":
                folded = fold(words[0], self.lang)
                agreed.setdefault(kind, []).append((folded, self.stem_of(words[0]), _parse_value(value)))
        # A pile the catalog names with a word of its own is no longer one of the readings of an
        # ambiguous word (Serbian "гомила": stock or any pile, where the catalog calls the stock "талон").
        named = {value for value in (v for _, _, v in agreed.get("pile", ())) if isinstance(value, str)}
        for term in self.terms:
            if len(term.words) == 1 and any(
                    word_hits(term.words[0], folded, stem, folded, stem) and term.value != value
                    for folded, stem, value in agreed.get(term.kind, ())):
                continue
            if term.kind == "pile" and isinstance(term.value, tuple) and set(term.value) & named:
                rest = tuple(v for v in term.value if v not in named or any(
                    word_hits(term.words[0], folded, stem, folded, stem)
                    for folded, stem, value in agreed["pile"] if value == v))
                if not rest:
                    continue
                term = Term(term.kind, rest if len(rest) > 1 else rest[0], term.words, term.source)
            copy._index(term)
        for kind, value, phrase in extra:
            # A suit or colour term with a word the lexicon reads as a pile gives way: a Ukrainian catalog
            # that calls the option "One Suit" "Одна колода" (one deck) must not have every deck read as a suit.
            if kind != "pile" and any(self._reads_as_pile(word) for word in phrase.split()):
                continue
            copy.add(kind, _parse_value(value), phrase)
        return copy

    def _reads_as_pile(self, word: str) -> bool:
        """Whether one of this lexicon's one-word pile terms matches ``word`` (as written)."""
        folded = fold(word, self.lang)
        lemma = self.lemma(word)
        return any(term.kind == "pile" and len(term.words) == 1
                   for term in self.candidates(folded, self.stem_of(word), lemma, self.lemma_stem_of(word)))


def word_hits(pattern: Pattern, folded: str, stem: str, lemma: str, lemma_stem: str) -> bool:
    """Whether one word of a term matches a token with these forms (see :meth:`Lexicon.forms`): by its
    folded form and stem, or, for a stem or prefix pattern, by its lemma and the lemma's stem."""
    how, text = pattern.how, pattern.text
    if how == "stem":
        return stem == text or lemma_stem == text
    if how == "exact":
        return folded == text
    return folded.startswith(text) or lemma.startswith(text)


def _stem(name: str, folded: str) -> str:
    if not name:  # a lexicon without a stemmer (numbers only): words are their own stems
        return folded
    memo = _STEMS.get(name)
    found = memo.get(folded) if memo is not None else None
    if found is None:
        found = _memo(_STEMS, name)[folded] = fold(_stemmers(name).stemWord(folded), "sr" if name == "serbian" else "xx")
    return found


def _lemma(code: str, word: str, lang: str) -> str:
    memo = _LEMMAS.get((code, lang))
    found = memo.get(word) if memo is not None else None
    if found is None:
        found = _memo(_LEMMAS, (code, lang))[word] = fold(_written_lemma(code, word, lang), lang)
    return found


def _written_lemma(code: str, word: str, lang: str) -> str:
    memo = _WRITTEN_LEMMAS.get((code, lang))
    found = memo.get(word) if memo is not None else None
    if found is None:
        found = _memo(_WRITTEN_LEMMAS, (code, lang))[word] = _simplemma_lemma(code, word, lang)
    return found


def _simplemma_lemma(code: str, word: str, lang: str) -> str:
    # simplemma wants the word as written (German nouns capitalised, Greek accents kept); Serbian
    # goes in Latin script, as its Serbo-Croatian data is.
    if not code or not word.isalpha():
        return word
    if lang == "sr" and _CYRILLIC.search(word):
        word = cyrtranslit.to_latin(word, "sr")
    try:
        return lemmas.lemma(code, word)
    except ValueError:  # a language simplemma does not know
        return word


@lru_cache(maxsize=None)
def _stemmers(name: str):
    stemmer = snowballstemmer.stemmer(name)
    if hasattr(stemmer, "maxCacheSize"):
        # PyStemmer keeps a cache of its own; the stems are kept here already (_STEMS).
        stemmer.maxCacheSize = 0
    return stemmer


def _number_words(lang: str) -> tuple[dict[str, int], set[str]]:
    """Cardinal (0–100, every gender/case rule set) and ordinal (1–20) spell-outs from CLDR.

    A spell-out of several words ("vingt-et-un", "cincuenta y dos", "двадесет и један") is given
    as its words joined by single spaces, as the text's tokens are read (:func:`tokens`). Kept in
    the checks' cache folder (:func:`number_words_path`) once worked out: they depend only on the
    language and unicode-rbnf's version, and working them out takes 20 to 40 ms a language.

    Raises:
        LanguageError: CLDR's spell-out rules (unicode-rbnf) do not cover ``lang``.
    """
    kept = _kept_numbers()
    if lang not in kept:
        try:
            words, ordinals = _spelled_out(lang)
            kept[lang] = {"words": words, "ordinals": sorted(ordinals)}
        except LanguageError:
            kept[lang] = None
        _save_numbers(lang, kept[lang])
    found = kept[lang]
    if found is None:
        raise LanguageError(f"no CLDR number words for language {lang!r}")
    return dict(found["words"]), set(found["ordinals"])


def _spelled_out(lang: str) -> tuple[dict[str, int], set[str]]:
    """:func:`_number_words` as unicode-rbnf gives them."""
    from unicode_rbnf import FormatPurpose, RbnfEngine

    try:
        engine = RbnfEngine.for_language(lang)
    except ValueError:
        raise LanguageError(f"no CLDR number words for language {lang!r}") from None
    words: dict[str, int] = {}
    ordinals: set[str] = set()
    for purpose, top in ((FormatPurpose.CARDINAL, 100), (FormatPurpose.ORDINAL, 20)):
        for n in range(1, top + 1):
            try:
                result = engine.format_number(n, purpose)
            except Exception:  # a rule set the package lacks for this language: skip it
                continue
            for text in {result.text, *result.text_by_ruleset.values()}:
                text = _as_spelled(text)
                if text:
                    words.setdefault(text, n)
                    if purpose == FormatPurpose.ORDINAL:
                        ordinals.add(fold(text, lang))
    return words, ordinals


def _as_spelled(text: str) -> str:
    """A spell-out's words joined by single spaces, as a text's tokens are read; ``""`` when it has
    no word or holds digits (a spell-out that falls back on them)."""
    words = _WORD.findall(text)
    return "" if any(word.isdigit() for word in words) else " ".join(words)


def number_words_path() -> Path | None:
    """The file keeping the CLDR number words of each language checked so far,
    ``numbers-unicode-rbnf-<version>.json`` in the checks' cache folder, or ``None`` when nothing
    is kept (see :mod:`~.cachefiles`)."""
    from importlib.metadata import PackageNotFoundError, version

    from .cachefiles import cache_folder

    folder = cache_folder()
    if folder is None:
        return None
    try:
        release = version("unicode-rbnf")
    except PackageNotFoundError:
        release = "unknown"
    return folder / f"numbers-unicode-rbnf-{release}.json"


# The number words by language, from the file and worked out since; None: not read yet.
_NUMBERS: dict[str, dict | None] | None = None


def _kept_numbers() -> dict[str, dict | None]:
    global _NUMBERS
    if _NUMBERS is None:
        path = number_words_path()
        _NUMBERS = _read_numbers(path) if path is not None else {}
    return _NUMBERS


def _read_numbers(path: Path) -> dict[str, dict | None]:
    """The number words in the file at ``path`` by language (``None``: CLDR has none); empty when
    it is missing, unreadable or holds anything else (a damaged or hand-edited file is not trusted
    in part): each word as :func:`_spelled_out` writes it (words of letters joined by single
    spaces), each number from 1 to 100."""
    from .cachefiles import read_json

    data = read_json(path)

    def spelled(word) -> bool:
        return isinstance(word, str) and bool(word) and word == _as_spelled(word)

    def valid(entry) -> bool:
        if entry is None:
            return True
        return (isinstance(entry, dict) and set(entry) == {"words", "ordinals"}
                and isinstance(entry["words"], dict) and isinstance(entry["ordinals"], list)
                and all(spelled(w) and type(n) is int and 1 <= n <= 100 for w, n in entry["words"].items())
                and all(spelled(w) for w in entry["ordinals"]))

    if isinstance(data, dict) and all(isinstance(lang, str) and valid(e) for lang, e in data.items()):
        return data
    return {}


def _save_numbers(lang: str, entry: dict | None) -> None:
    """Add one language's number words to the file, merged with what it holds now (another
    process may have added others meanwhile); nothing when it cannot be written."""
    from .cachefiles import locked, write_json

    path = number_words_path()
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked(path.parent):  # two workers adding a language each keep both
            data = _read_numbers(path)
            data[lang] = entry
            write_json(path, data, f".{path.name}.")
    except OSError:
        pass  # worked out again next time


def _cldr_knows(lang: str) -> bool:
    """Whether CLDR (through Babel) has locale data for language code ``lang`` (``xh``, ``pt_BR``)."""
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(lang.split("@", 1)[0])
    except (UnknownLocaleError, ValueError, TypeError):
        return False
    return True


#: The settings of a lexicon made only of CLDR's number words (see :func:`load_lexicon`): it states
#: numbers and nothing else, so the comparison leaves every other kind of fact alone.
NUMBERS_ONLY = {"kinds": ["number"], "stem_numbers_for": []}


@lru_cache(maxsize=None)
def load_lexicon(lang: str) -> Lexicon:
    """Load and compile ``generator/data/lexicons/<lang>.json`` (lang: ``en``, ``de``, ``fr`` ...).

    A language without a lexicon file gets one made of CLDR's number words alone (settings
    :data:`NUMBERS_ONLY`), so that its numbers, in digits and in words, are still compared; where
    CLDR spells out no numbers either, its numbers are compared in digits only
    (:attr:`Lexicon.number_words` is then False). A lexicon file of a language CLDR has no number
    words for lists them itself under ``"number"`` (``eu``, ``gl``, ``oc``).

    Raises:
        LanguageError: the lexicon file is not valid JSON, or there is none and CLDR does not know
            ``lang`` at all (``xx``).
    """
    path = LEXICON_DIR / f"{lang}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        if not _cldr_knows(lang):
            raise LanguageError(f"no fact lexicon for language {lang!r}, and CLDR does not know it",
                                file=str(path), line=None) from None
        data = {"lang": lang, "stemmer": "", "settings": dict(NUMBERS_ONLY)}
    except json.JSONDecodeError as exc:
        raise LanguageError(f"bad lexicon JSON: {exc.msg}", file=str(path), line=exc.lineno) from None
    # "stemmer": null (or left out) for a language Snowball has no algorithm for.
    lex = Lexicon(lang=lang, stemmer_name=data.get("stemmer") or "", settings=data.get("settings", {}))
    try:
        generated, ordinals = _number_words(lang)
    except LanguageError:
        # CLDR spells out no numbers in this language: the lexicon file's own number words (Basque,
        # Galician, Occitan) or, without a file, none: its numbers are compared in digits only.
        generated, ordinals = {}, set()
        lex.number_words = bool(data.get("number"))
    numbers = dict(generated)
    listed = data.get("ordinals", [])
    lex.ordinals = frozenset(ordinals | {fold(w.lstrip("="), lang) for w in listed if not w.endswith("*")})
    lex.ordinal_prefixes = tuple(fold(w[:-1], lang) for w in listed if w.endswith("*"))
    # Serbian "пет*" opens the ordinal "пети" and is the cardinal "пет" itself: cardinals are no ordinals.
    lex.cardinals = frozenset(fold(w, lang) for w in generated if fold(w, lang) not in lex.ordinals)
    for word, value in data.get("number", {}).items():
        numbers[word] = value
    for word, value in numbers.items():
        if word in generated and " " in word:
            # A spell-out of several words is matched word for word, by form, its last word as the
            # opening of an inflected form too (Kazakh "он үш" in "он үшке", to thirteen).
            *head, last = word.split()
            words = ["=" + part for part in head] + [last + "*" if len(last) > 1 else "=" + last]
            lex.add("number", value, " ".join(words))
            continue
        # Number words are matched by form, not stem: stems such as German "acht" (achten) collide.
        pattern = word if word.endswith("*") or word.startswith("=") else "=" + word
        lex.add("number", value, pattern)
        if lang in lex.settings.get("stem_numbers_for", [lang]) and not word.endswith("*"):
            stem = lex.stem_of(word)
            if len(stem) >= 4:
                lex.add("number", value, word)
        for suffix in lex.settings.get("number_suffixes", []):
            lex.add("number", value, "=" + word.lstrip("=").rstrip("*") + suffix)
        for suffix in lex.settings.get("number_compound_prefixes", []):
            # German "Dreierstapel", "Zehnerreihe": a number word plus "er" opens a compound.
            if value >= 2 and not word.startswith("="):
                lex.add("number", value, word + suffix + "*")
    lex.one_words = frozenset(fold(w, lang) for w in data.get("one_equivalents", []))
    for kind in TERM_KINDS:
        if kind == "number":
            continue
        for value, phrases in data.get(kind, {}).items():
            parsed = _parse_value(value)
            for phrase in phrases:
                lex.add(kind, parsed, phrase)
    return lex


def _parse_value(value: str) -> object:
    if value.lstrip("-").isdigit():
        return int(value)
    if "|" in value:
        return tuple(value.split("|"))
    return value


def tokens(text: str, lang: str, lexicon: Lexicon | None = None) -> list[tuple[int, int, str, str, str, str]]:
    """Words of ``text`` outside markup as ``(start, end, folded, stem, lemma, lemma stem)`` with
    character offsets; the lemma is simplemma's dictionary form, folded (see :meth:`Lexicon.lemma`).
    ``lexicon`` defaults to :func:`load_lexicon` of ``lang``; words are read as its language reads
    them (:meth:`Lexicon.forms`)."""
    return list(read_tokens(text, lang, lexicon))


def read_tokens(text: str, lang: str, lexicon: Lexicon | None = None) -> tuple[tuple[int, int, str, str, str, str], ...]:
    """:func:`tokens` as the tuple the lexicon keeps for ``text``, for callers that only read it."""
    lex = lexicon or load_lexicon(lang)
    # The same text is read by several checks and (a msgid) once per catalog: keep its words.
    key = (text, lex.lang)
    found = lex._tokens.get(key)
    if found is None:
        known, forms = lex._forms, lex.forms
        # (start, end) + (folded, stem, lemma, lemma stem): one tuple made per word.
        found = tuple([match.span() + (known.get(match[0]) or forms(match[0]))
                       for match in _WORD.finditer(_mask_markup(text))])
        if len(lex._tokens) >= 65_536:
            lex._tokens.clear()  # a bound for long runs; a corpus the size of AisleRiot's fits
        lex._tokens[key] = found
    return found


_MARKUP = re.compile(r"<[^<>]*>|&[#\w]+;|\[[^\[\]]*\]\(\S*\)")


def _mask_markup(text: str) -> str:
    """``text`` with tags, entities and their attributes blanked out (same length, so offsets hold)."""
    if "<" not in text and "&" not in text and "[" not in text:
        return text  # nothing the pattern could match
    return _MARKUP.sub(lambda m: " " * len(m.group()), text)
