"""simplemma's lemmas of the words the checks read, kept on disk from one run to the next.

Looking up one word makes simplemma load its whole dictionary of the language (German takes more
than a second), so a check of a few catalogs would spend most of its time there. The lemma of a
word depends only on the word, the language and simplemma's version, so the lemmas once found are
kept in one JSON file per simplemma version, ``lemmas-simplemma-<version>.json`` in the checks'
cache folder (see :func:`~.cachefiles.cache_folder`; none when ``$PATIENCEBOOK_CACHE_DIR`` is empty).

The file is read on the first look-up and written, whole and atomically, when the process ends
and something was added (a process that ends without Python's exit handlers, a forked child, calls
:func:`save` itself), merged with what other processes wrote to it meanwhile. A file that cannot be read is ignored and one that cannot be written is
not written: the lemmas are then looked up again next time, with the same results.
"""

from __future__ import annotations

import atexit
from functools import lru_cache
from pathlib import Path

from patiencebook.generator.check.cachefiles import CACHE_ENV, cache_folder, locked, read_json, write_json

#: More words than this in the file and it starts afresh (a bound for long use on many catalogs).
MAX_WORDS = 400_000

_known: dict[str, dict[str, str]] | None = None
_added = 0
# The lemmas looked up (or kept, see keep) since the file was last written, by language.
_new: dict[str, dict[str, str]] = {}


def cache_path() -> Path | None:
    """The lemma file of this simplemma version, or ``None`` when the cache is turned off."""
    folder = cache_folder()
    return folder / f"lemmas-simplemma-{_simplemma_version()}.json" if folder is not None else None


@lru_cache(maxsize=1)
def _simplemma_version() -> str:
    """simplemma's version, read from its package metadata: simplemma itself (27 ms to import) is
    imported only when a word is not in the file."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("simplemma")
    except PackageNotFoundError:  # not installed as a distribution: ask the module
        import simplemma

        return getattr(simplemma, "__version__", "unknown")


def _read(path: Path) -> dict[str, dict[str, str]]:
    """The lemmas in the file at ``path``; empty when it is missing, unreadable or not lemmas."""
    data = read_json(path)
    if isinstance(data, dict) and all(isinstance(words, dict) and all(
            isinstance(word, str) and isinstance(found, str) for word, found in words.items())
            for words in data.values()):
        return data
    return {}  # a damaged or hand-edited file is not trusted in part


def _load() -> dict[str, dict[str, str]]:
    global _known
    if _known is None:
        path = cache_path()
        _known = _read(path) if path is not None else {}
        atexit.register(save)
    return _known


def read_file() -> None:
    """Read the lemma file now, if it has not been read: worker processes forked afterwards
    inherit what it holds rather than each reading it."""
    _load()


def lemma(code: str, word: str) -> str:
    """simplemma's lemma of ``word`` in its language ``code`` (``"de"``, ``"hbs"``), as simplemma
    gives it (not folded).

    Raises:
        ValueError: simplemma does not know the language ``code``.
    """
    global _added
    known = _load().setdefault(code, {})
    found = known.get(word)
    if found is None:
        import simplemma  # imported once, on the first word the file does not hold

        found = known[word] = simplemma.lemmatize(word, lang=code)
        _new.setdefault(code, {})[word] = found
        _added += 1
    return found


def added() -> dict[str, dict[str, str]]:
    """The lemmas looked up since the file was last written, ``{language code: {word: lemma}}``
    (a worker process hands them to its parent, which keeps them with :func:`keep`)."""
    return _new


def keep(found: dict[str, dict[str, str]]) -> None:
    """Add lemmas looked up elsewhere (``{language code: {word: lemma}}``, as :func:`added` gives
    them) to those written at exit. Reads the file first if it has not been read."""
    global _added
    known = _load()
    for code, words in found.items():
        mine = known.setdefault(code, {})
        for word, found_lemma in words.items():
            if word not in mine:
                mine[word] = found_lemma
                _new.setdefault(code, {})[word] = found_lemma
                _added += 1


def save() -> None:
    """Write the lemmas added since the file was read to :func:`cache_path`, with those the file
    holds now (another process, a language of a site build, may have written it meanwhile),
    atomically: a reader sees the old file or the new one. Errors writing it are ignored."""
    global _added
    path = cache_path()
    if not _added or _known is None or path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked(path.parent):  # what another process writes meanwhile is read, not overwritten
            data = _read(path)
            for code, words in _new.items():
                data.setdefault(code, {}).update(words)
            if sum(len(v) for v in data.values()) > MAX_WORDS:
                data = {code: dict(words) for code, words in _new.items()}  # afresh, with this run's words
            write_json(path, data, ".lemmas-")
    except OSError:
        return
    _new.clear()
    _added = 0


__all__ = ["CACHE_ENV", "MAX_WORDS", "added", "cache_path", "keep", "lemma", "save"]
