"""What a site keeps of its last build, so that the next one redoes only what changed.

Each built site holds ``<site>/.patiencebook-cache/<lang>/`` per language: the Sphinx sources
(``src/``), Sphinx's pickled environment and doctrees (``doctrees/``) and ``state.json``, which
records what the language was built from:

``{"format": 1, "frame": "<sha256>", "inputs": "<sha256>", "titles": "<sha256>", "report": {...}}``

- ``frame``: everything a change of which needs a fresh Sphinx build: this package's code and
  data, the Sphinx and Python versions, the languages of the site, the book file, the page slugs,
  whether the site has the live board and the report page.
- ``inputs``: the bytes of every source file and of the language's catalog. Same frame and same
  inputs: the language's pages are reused as they are.
- ``titles``: the translated page titles and book title; they appear on other pages (navigation,
  the index page), so when they change every page is written again.
- ``report``: the language's :class:`~patiencebook.generator.site.build.LanguageReport` as JSON.
- ``outputs``: :func:`tree_digest` of the language's pages as built; pages changed or removed
  since then (by hand) make the next build build the language afresh.

The Sphinx sources live at the same path from one build to the next (Sphinx discards an
environment whose source folder moved), so the cache is used in place, in the output folder,
and the swap of the new site leaves it there. ``state.json`` is removed before a language's cache is changed
and written last, so an interrupted build leaves no state that claims more than is there.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

__all__ = ["CACHE_DIR", "FORMAT", "code_digest", "digest", "files_digest", "tree_digest", "read_state",
           "write_state", "clear_state", "write_if_changed", "copy_tree"]

#: The cache folder inside a built site (a dot folder: ``patiencebook serve`` does not serve it).
CACHE_DIR = ".patiencebook-cache"
#: Version of ``state.json``; any other is ignored (the language is built afresh).
FORMAT = 1
_STATE = "state.json"


def digest(*parts: Any) -> str:
    """SHA-256 (hex) of ``parts`` as canonical JSON (strings, numbers, lists, dicts)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def files_digest(paths: Iterable[Path]) -> str:
    """SHA-256 (hex) over the names and bytes of ``paths`` in the given order.
    Raises ``OSError`` when one cannot be read."""
    sha = hashlib.sha256()
    for path in paths:
        data = Path(path).read_bytes()
        sha.update(f"{path}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        sha.update(data)
    return sha.hexdigest()


def tree_digest(folder: Path) -> str:
    """SHA-256 (hex) of the names, sizes and modification times of every file below ``folder``
    (cheap: no file is read); a different value means a file was added, removed or changed."""
    folder = Path(folder)
    entries = []
    for path in sorted(folder.rglob("*")):
        try:
            info = path.lstat()
        except OSError:
            continue
        if not path.is_dir():
            entries.append([path.relative_to(folder).as_posix(), info.st_size, info.st_mtime_ns])
    return digest(entries)


@lru_cache(maxsize=1)
def code_digest() -> str:
    """SHA-256 (hex) of this package's code and data with the Python and library versions the
    checks' files are named for (:func:`~patiencebook.generator.check.cachefiles.code_digest`),
    and Sphinx's version."""
    import sphinx

    from patiencebook.generator.check.cachefiles import code_digest as checks_code_digest

    return digest(checks_code_digest(), sphinx.__version__)


def read_state(folder: Path) -> dict[str, Any] | None:
    """The ``state.json`` of a language's cache folder, or ``None`` when missing, unreadable or of
    another format."""
    try:
        state = json.loads((Path(folder) / _STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) and state.get("format") == FORMAT else None


def write_state(folder: Path, state: dict[str, Any]) -> None:
    """Write ``state`` (plus the format number) as the ``state.json`` of ``folder``, atomically."""
    target = Path(folder) / _STATE
    partial = target.with_name(_STATE + ".part")
    partial.write_text(json.dumps({**state, "format": FORMAT}, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, target)


def clear_state(folder: Path) -> None:
    """Remove the ``state.json`` of ``folder`` (before its cache is changed)."""
    try:
        (Path(folder) / _STATE).unlink()
    except (FileNotFoundError, NotADirectoryError):
        pass  # no state, or the folder is not a folder: the build replaces it


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` unless it already holds exactly that; returns whether it wrote.

    An unchanged file keeps its modification time, which is how Sphinx tells which sources to read
    again."""
    path = Path(path)
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.write_bytes(data)
    return True


def copy_tree(source: Path, target: Path) -> None:
    """Copy the tree ``source`` to ``target`` keeping modification times (what Sphinx compares)."""
    shutil.copytree(source, target, copy_function=shutil.copy2, symlinks=True)
