"""Search languages Sphinx lacks: Greek without accents, Serbian in either script.

Each folds a word (lower case, a per-language letter map, combining marks removed) before and after
Snowball stemming, in Python when the index is built and in the browser's JavaScript when a query
is typed, from the same data file (``data/search/<lang>.json``), so both sides agree.
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import snowballstemmer
from sphinx import package_dir
from sphinx.search import SearchLanguage

SEARCH_DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "search"
_SNOWBALL_JS = Path(package_dir) / "search" / "minified-js"


@cache
def fold_table(name: str) -> dict[str, Any]:
    """The folding data for search language ``name`` (``"el"``, ``"sr"``) from ``data/search/<name>.json``."""
    data = json.loads((SEARCH_DATA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return {"snowball": data["snowball"], "map": data["map"]}


def fold(word: str, table: dict[str, str]) -> str:
    """``word`` lower-cased, each character found in ``table`` replaced, combining marks removed.

    ``fold("Ђорђе", fold_table("sr")["map"])`` is ``"djordje"``; with the Greek table
    ``fold("Παιχνίδια", ...)`` is ``"παιχνιδια"``.
    """
    lowered = "".join(table.get(ch, ch) for ch in word.lower())
    stripped = "".join(ch for ch in unicodedata.normalize("NFD", lowered) if unicodedata.category(ch) != "Mn")
    return unicodedata.normalize("NFC", stripped)


# The same steps as fold() and stem() above, for the browser. The table is inserted as JSON.
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
# Without both Snowball implementations (an older Sphinx lacks some JS stemmers), fold only, on both sides.
_JS_FOLD_ONLY = """var Stemmer = function () {
  this.stemWord = (w) => pbFold(w);
};
"""


@cache
def _has_snowball(algorithm: str) -> bool:
    """True when Snowball ``algorithm`` exists both in Python and in Sphinx's bundled JavaScript."""
    return (algorithm in snowballstemmer.algorithms()
            and (_SNOWBALL_JS / f"{algorithm}-stemmer.js").is_file()
            and (_SNOWBALL_JS / "base-stemmer.js").is_file())


def _snowball_js(algorithm: str) -> str:
    parts = []
    for name in ("base-stemmer.js", f"{algorithm}-stemmer.js"):
        parts.append((_SNOWBALL_JS / name).read_text(encoding="utf-8"))
    return "\n".join(parts)


class _FoldingSearchLanguage(SearchLanguage):
    """A search language that folds, stems with Snowball, and folds again, in Python and JS alike."""

    fold_name = ""

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        table = fold_table(self.fold_name)
        self._map = table["map"]
        algorithm = table["snowball"]
        self._stemmer = snowballstemmer.stemmer(algorithm) if _has_snowball(algorithm) else None

    def stem(self, word: str) -> str:
        """The index key of ``word``: fold, Snowball stem, fold again (same as the JS ``Stemmer``)."""
        folded = fold(word, self._map)
        if self._stemmer is None:
            return folded
        return fold(self._stemmer.stemWord(folded), self._map)

    @classmethod
    def make_js_stemmer_code(cls) -> str:
        """JavaScript defining ``Stemmer`` (with ``stemWord``) for Sphinx's ``searchtools.js``."""
        table = fold_table(cls.fold_name)
        algorithm = table["snowball"]
        fold_js = _JS_FOLD % {"table": json.dumps(table["map"], ensure_ascii=False)}
        if not _has_snowball(algorithm):
            return fold_js + _JS_FOLD_ONLY
        return _snowball_js(algorithm) + fold_js + _JS_STEMMER % {
            "snowball_class": algorithm.capitalize() + "Stemmer"}


class SearchGreek(_FoldingSearchLanguage):
    """Greek: words match whatever their accents (tonos, dialytika) and final sigma."""

    lang = "el"
    language_name = "Greek"
    fold_name = "el"


class SearchSerbian(_FoldingSearchLanguage):
    """Serbian: Cyrillic and Latin spellings, with or without diacritics, match each other."""

    lang = "sr"
    language_name = "Serbian"
    fold_name = "sr"


class SearchSerbianLatin(SearchSerbian):
    """Serbian for a site in Latin script (Sphinx ``language = "sr@latin"``); same folding as ``sr``."""

    lang = "sr@latin"


SEARCH_LANGUAGES: tuple[type[_FoldingSearchLanguage], ...] = (SearchGreek, SearchSerbian, SearchSerbianLatin)

for _cls in SEARCH_LANGUAGES:
    # js_stemmer_code is read as a class attribute by Sphinx's index builder.
    _cls.js_stemmer_code = _cls.make_js_stemmer_code()
