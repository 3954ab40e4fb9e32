"""A search language for every language: words folded, then stemmed where Snowball can.

Sphinx's own search languages stem but keep accents and know a dozen languages. Ours, made for any
:class:`~patiencebook.generator.languages.Language` by :func:`search_language`, treat every word the
same way in Python, when the index is built, and in the browser's JavaScript, when a query is
typed: the word is folded (lower case, a per-language letter map from ``data/search/<lang>.json``
if there is one, combining marks removed), stemmed with the Snowball algorithm CLDR's name of the
language points to (``Language.snowball``) when both Python and Sphinx's bundled JavaScript have
it, and folded again. So "Ecarte", "écarté" and "ÉCARTÉ" find the same pages, Serbian in either
script matches, and Greek matches without its accents. Chinese, Japanese and Korean text, written
without spaces, is indexed as single characters and pairs of neighbouring characters, and a query
is split the same way (the usual CJK bigram approach), so any word of two or more characters is
found. Sphinx's stop words for the language are kept where Sphinx has them.
"""

from __future__ import annotations

import importlib
import json
import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import snowballstemmer
import sphinx.search
from sphinx import package_dir
from sphinx.search import SearchLanguage

from patiencebook.generator.languages import Language

SEARCH_DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "search"
_SNOWBALL_JS = Path(package_dir) / "search" / "minified-js"
#: Sphinx's own search languages, as they were before ours were registered (for their stop words).
_SPHINX_LANGUAGES = dict(sphinx.search.languages)
#: Scripts written without spaces between words: Han, Hiragana, Katakana, Hangul.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(rf"[{_CJK}]+|[^\W{_CJK}]+", re.UNICODE)


@cache
def fold_table(name: str) -> dict[str, str]:
    """The letter map of language ``name`` (``"el"``, ``"sr"``) from ``data/search/<name>.json``,
    or an empty map when the language has none (folding is then case and accents only)."""
    path = SEARCH_DATA_DIR / f"{name}.json"
    if not path.is_file():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))["map"]


def fold(word: str, table: dict[str, str]) -> str:
    """``word`` lower-cased, each character found in ``table`` replaced, combining marks removed.

    ``fold("Ђорђе", fold_table("sr"))`` is ``"djordje"``; ``fold("Παιχνίδια", fold_table("el"))``
    is ``"παιχνιδια"``; ``fold("Écarté", {})`` is ``"ecarte"``.
    """
    lowered = "".join(table.get(ch, ch) for ch in word.lower())
    stripped = "".join(ch for ch in unicodedata.normalize("NFD", lowered) if unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFC", stripped)


def cjk_terms(text: str) -> list[str]:
    """The index terms of one run of CJK characters: each character and each pair of neighbours
    (``"纸牌游戏"`` → ``纸 牌 游 戏 纸牌 牌游 游戏``)."""
    return list(text) + [text[i:i + 2] for i in range(len(text) - 1)]


def split_words(text: str) -> list[str]:
    """The words of ``text`` as the index takes them: runs of letters and digits, and each run of
    CJK characters as :func:`cjk_terms`."""
    words: list[str] = []
    for match in _WORD.finditer(text):
        run = match.group()
        words += cjk_terms(run) if _CJK_RUN.fullmatch(run) else [run]
    return words


# The same steps as fold() and split_words() for the browser. The table is inserted as JSON.
_JS_FOLD = """
const pbFoldTable = %(table)s;
const pbFold = (w) => [...w.toLowerCase()].map((c) => pbFoldTable[c] ?? c).join("")
  .normalize("NFD").replace(/\\p{Mn}/gu, "").normalize("NFC");
"""
_JS_STEMMER = """var Stemmer = function () {
  const snowball = new %(snowball_class)s();
  this.stemWord = (w) => pbFold(snowball.stemWord(pbFold(w)));
};
"""
_JS_FOLD_ONLY = """var Stemmer = function () {
  this.stemWord = (w) => pbFold(w);
};
"""
# A query of CJK text becomes its pairs of neighbouring characters (a single character stays one):
# every pair must be on the page, which finds the word wherever it is written.
_JS_SPLITTER = """var splitQuery = (query) => {
  const out = [];
  for (const m of query.matchAll(/[%(cjk)s]+|[^\\s\\p{P}\\p{S}%(cjk)s]+/gu)) {
    const run = m[0];
    if (/^[%(cjk)s]+$/u.test(run) && run.length > 1) {
      for (let i = 0; i + 1 < run.length; i++) out.push(run.slice(i, i + 2));
    } else out.push(run);
  }
  return out;
};
"""


@cache
def _has_snowball(algorithm: str | None) -> bool:
    """True when Snowball ``algorithm`` exists both in Python and in Sphinx's bundled JavaScript."""
    return (algorithm is not None and algorithm in snowballstemmer.algorithms()
            and (_SNOWBALL_JS / f"{algorithm}-stemmer.js").is_file()
            and (_SNOWBALL_JS / "base-stemmer.js").is_file())


def _snowball_js(algorithm: str) -> str:
    return "\n".join((_SNOWBALL_JS / name).read_text(encoding="utf-8")
                     for name in ("base-stemmer.js", f"{algorithm}-stemmer.js"))


def _sphinx_stopwords(base: str) -> frozenset[str]:
    """The stop words of Sphinx's own search language for ``base`` (``"de"``), or none."""
    found = _SPHINX_LANGUAGES.get(base)
    if isinstance(found, str):
        module, _, name = found.rpartition(".")
        found = getattr(importlib.import_module(module), name)
    return frozenset(getattr(found, "stopwords", ()) or ())


class FoldingSearchLanguage(SearchLanguage):
    """A search language that folds, stems with Snowball (when there is an algorithm), and folds
    again, in Python and JavaScript alike; subclasses are made by :func:`search_language`."""

    #: The letter map (see :func:`fold_table`) and Snowball algorithm (or ``None``).
    fold_map: dict[str, str] = {}
    snowball: str | None = None

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self._stemmer = snowballstemmer.stemmer(self.snowball) if _has_snowball(self.snowball) else None

    def split(self, input: str) -> list[str]:
        """The words of ``input`` (:func:`split_words`)."""
        return split_words(input)

    def stem(self, word: str) -> str:
        """The index key of ``word``: fold, Snowball stem, fold again (the same as the JS ``Stemmer``)."""
        folded = fold(word, self.fold_map)
        if self._stemmer is None or _CJK_RUN.search(folded):
            return folded
        return fold(self._stemmer.stemWord(folded), self.fold_map)

    def word_filter(self, word: str) -> bool:
        """Index every word but numbers and stop words, single CJK characters included."""
        return not word.isdigit() and word not in self.stopwords

    @classmethod
    def make_js_code(cls) -> tuple[str, str]:
        """``(stemmer code, splitter code)``: JavaScript defining ``Stemmer`` (with ``stemWord``)
        and ``splitQuery`` for Sphinx's ``searchtools.js``."""
        fold_js = _JS_FOLD % {"table": json.dumps(cls.fold_map, ensure_ascii=False)}
        splitter = _JS_SPLITTER % {"cjk": _CJK}
        if not _has_snowball(cls.snowball):
            return fold_js + _JS_FOLD_ONLY, splitter
        return (_snowball_js(cls.snowball) + fold_js
                + _JS_STEMMER % {"snowball_class": cls.snowball.capitalize() + "Stemmer"}), splitter


@cache
def search_language(language: Language) -> type[FoldingSearchLanguage]:
    """The search language class for ``language``, keyed by its Sphinx language (``language.sphinx``).

    Its letter map is that of ``data/search/<code>.json`` or, failing that, of the language's base
    (``sr`` for ``sr@latin``); its stemmer is ``language.snowball``. Sphinx reads ``js_stemmer_code``
    and ``js_splitter_code`` as class attributes, so they are set here.
    """
    table = fold_table(language.code) or fold_table(language.base)
    name = f"Search_{re.sub(r'[^0-9A-Za-z]', '_', language.code)}"
    cls: type[FoldingSearchLanguage] = type(name, (FoldingSearchLanguage,), {
        "lang": language.sphinx,
        "language_name": language.english_name,
        "fold_map": table,
        "snowball": language.snowball,
        "stopwords": _sphinx_stopwords(language.base),
        "__doc__": f"{language.english_name}: folded, {'stemmed with Snowball ' + language.snowball if _has_snowball(language.snowball) else 'not stemmed'}.",
    })
    cls.js_stemmer_code, cls.js_splitter_code = cls.make_js_code()
    return cls


def register(language: Language) -> str:
    """Make :func:`search_language` of ``language`` the one Sphinx uses for ``language.sphinx``;
    returns that key, the value for ``html_search_language``."""
    cls = search_language(language)
    sphinx.search.languages[cls.lang] = cls
    return cls.lang
