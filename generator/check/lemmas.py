"""simplemma's lemmas of the words the checks read, kept on disk from one run to the next.

Looking up one word makes simplemma load its whole dictionary of the language (German takes more
than a second), so a check of a few catalogs would spend most of its time there. The lemma of a
word depends only on the word, the language and simplemma's version, so the lemmas once found are
kept in one JSON file per simplemma version:

* ``$PATIENCEBOOK_CACHE_DIR/lemmas-simplemma-<version>.json`` when that variable is set (set to
  the empty string, nothing is kept);
* else ``$XDG_CACHE_HOME/patiencebook/…``, else ``~/.cache/patiencebook/…``.

The file is read on the first look-up and written, whole and atomically, when the process ends
and something was added. A file that cannot be read is ignored and one that cannot be written is
not written: the lemmas are then looked up again next time, with the same results.
"""

from __future__ import annotations

import atexit
import json
import os
import tempfile
from pathlib import Path

import simplemma

#: The variable naming the cache folder (empty: keep nothing).
CACHE_ENV = "PATIENCEBOOK_CACHE_DIR"
#: More words than this in the file and it starts afresh (a bound for long use on many catalogs).
MAX_WORDS = 400_000

_known: dict[str, dict[str, str]] | None = None
_added = 0


def cache_path() -> Path | None:
    """The lemma file of this simplemma version, or ``None`` when the cache is turned off."""
    name = f"lemmas-simplemma-{getattr(simplemma, '__version__', 'unknown')}.json"
    folder = os.environ.get(CACHE_ENV)
    if folder is not None:
        return Path(folder) / name if folder else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "patiencebook" / name


def _load() -> dict[str, dict[str, str]]:
    global _known
    if _known is None:
        _known = {}
        path = cache_path()
        if path is not None:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if isinstance(data, dict) and all(isinstance(v, dict) for v in data.values()):
                    _known = data
            except (OSError, ValueError):
                pass
        atexit.register(save)
    return _known


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
        found = known[word] = simplemma.lemmatize(word, lang=code)
        _added += 1
    return found


def save() -> None:
    """Write the lemmas to :func:`cache_path` when some were added since it was read (atomically:
    a reader sees the old file or the new one). Errors writing it are ignored."""
    global _added
    path = cache_path()
    if not _added or _known is None or path is None:
        return
    data = _known if sum(len(v) for v in _known.values()) <= MAX_WORDS else {}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".lemmas-", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out, ensure_ascii=False, separators=(",", ":"))
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return
    _added = 0


__all__ = ["CACHE_ENV", "MAX_WORDS", "cache_path", "lemma", "save"]
