"""Where the checks keep what they worked out, from one run of ``patiencebook check`` to the next.

The folder is ``$PATIENCEBOOK_CACHE_DIR`` when that variable is set (set to the empty string,
nothing is kept), else ``$XDG_CACHE_HOME/patiencebook``, else ``~/.cache/patiencebook``. It holds:

* ``lemmas-simplemma-<version>.json``: simplemma's lemmas of the words read (see :mod:`~.lemmas`);
* ``numbers-unicode-rbnf-<version>.json``: CLDR's number words of each language read (see
  :func:`~.lexicon.number_words_path`);
* ``facts-<digest>.json``: the rule-fact checks' results of each unit checked in the last run
  (see :func:`~.facts.use_fact_memo`). A result depends only on the unit's two texts, its
  language, its context and the code and data that read them, so the file is named with a digest
  of this package's code and data and of the versions of the libraries the checks call: another
  version of any of them reads another file, and the old one is removed when the new one is
  written, as are partial files that a run killed while writing left (after an hour).

Each file is read, merged with what this process adds and written whole while the process holds
the folder's lock (``cache.lock``, see :func:`locked`), so that two processes adding to a file at
once both keep what they added. A file that cannot be read is ignored, and one that cannot be
written is not written: the next run works the results out again, and they are the same.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Iterator

#: The variable naming the cache folder (empty: keep nothing).
CACHE_ENV = "PATIENCEBOOK_CACHE_DIR"
#: Libraries whose versions change what the checks find (lemmas, stems, number words, scripts).
LIBRARIES = ("simplemma", "PyStemmer", "snowballstemmer", "babel", "unicode-rbnf", "cyrtranslit", "lxml")
_PACKAGE = Path(__file__).resolve().parents[2]


def cache_folder() -> Path | None:
    """The folder the checks keep their files in, or ``None`` when ``$PATIENCEBOOK_CACHE_DIR`` is empty."""
    folder = os.environ.get(CACHE_ENV)
    if folder is not None:
        return Path(folder) if folder else None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        base = str(Path.home() / ".cache")  # a relative path is ignored, as the XDG base directory spec says
    return Path(base) / "patiencebook"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """SHA-256 (hex) of this package's code and data (every file under ``generator/`` and
    ``engine/``, names and bytes), the Python version and the versions of :data:`LIBRARIES`."""
    from importlib.metadata import PackageNotFoundError, version

    sha = hashlib.sha256(sys.version.encode("utf-8"))
    for name in LIBRARIES:
        try:
            sha.update(f"\0{name}={version(name)}".encode("utf-8"))
        except PackageNotFoundError:
            sha.update(f"\0{name}=none".encode("utf-8"))
    files = []
    for folder in ("generator", "engine"):
        for parent, folders, names in os.walk(_PACKAGE / folder):
            folders[:] = [name for name in folders if name != "__pycache__"]
            files += [path for path in (os.path.join(parent, name) for name in names) if os.path.isfile(path)]
    root = len(str(_PACKAGE)) + 1
    for path in sorted(files):  # os.walk and plain strings: a third of the time Path.rglob takes
        with open(path, "rb") as source:
            data = source.read()
        name = path[root:].replace(os.sep, "/")
        sha.update(f"\0{name}\0{len(data)}\0".encode("utf-8", "surrogateescape"))
        sha.update(data)
    return sha.hexdigest()


def read_json(path: Path):
    """What the JSON file at ``path`` holds, or ``None`` when it is missing, not a regular file (a
    named pipe would block the read), unreadable, not UTF-8, not JSON or nested too deep to read.
    Callers check the shape themselves."""
    try:
        if not path.is_file():
            return None
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None


def write_json(path: Path, data, prefix: str) -> None:
    """Write ``data`` as compact JSON to ``path`` through a temporary file named ``prefix…`` in the
    same folder and ``os.replace``: a reader meets the old file or the new one, and a failed write
    leaves no temporary file. Raises ``OSError`` when it cannot be written."""
    # Encoded whole first: json.dumps runs the C encoder, json.dump a Python loop of small writes.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    handle, partial = tempfile.mkstemp(prefix=prefix, dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(partial, path)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


#: How long (seconds) a process waits for another to finish writing a file of the folder before it
#: writes without waiting (a process stopped while holding the lock must not stop the others).
LOCK_WAIT = 5.0


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Within the block, this process alone among those that use this function reads, merges and
    writes the files of the cache folder ``folder``: an exclusive ``flock`` on ``folder/cache.lock``,
    waited for at most :data:`LOCK_WAIT` seconds. Without it two processes adding to one file at
    once (two workers, two commands) could each write what it read before the other wrote, and one
    addition would be lost. Where the platform has no ``flock`` or the lock file cannot be opened,
    the block runs unlocked."""
    try:
        import fcntl
    except ImportError:  # no flock on this platform
        yield
        return
    try:
        handle = os.open(Path(folder) / "cache.lock", os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    break  # written unlocked rather than never
                time.sleep(0.005)
            except OSError:
                break  # a file system without locks
        yield
    finally:
        os.close(handle)  # releases the lock


def fact_memo_path() -> Path | None:
    """The file of the rule-fact checks' results for this code (``facts-<digest>.json`` in
    :func:`cache_folder`), or ``None`` when nothing is kept."""
    folder = cache_folder()
    return folder / f"facts-{code_digest()[:24]}.json" if folder is not None else None


#: A file being written that is older than this (seconds) was left by a run that was killed.
STALE_SECONDS = 3600


def remove_other_memos(path: Path) -> None:
    """Remove the ``facts-*.json`` files beside ``path`` other than ``path`` (those of other code),
    and the partial files of runs killed while writing (``.facts-*``, ``.lemmas-*`` and ``.numbers-*`` older than
    :data:`STALE_SECONDS`); files that cannot be removed stay."""
    folder = Path(path).parent
    now = time.time()
    for other in [*folder.glob("facts-*.json"), *folder.glob(".facts-*"), *folder.glob(".lemmas-*"),
                  *folder.glob(".numbers-*")]:
        try:
            if other.name.startswith(".") and now - other.stat().st_mtime < STALE_SECONDS:
                continue  # maybe another run's file, being written now
            if other.name != Path(path).name:
                other.unlink()
        except OSError:
            pass


@contextlib.contextmanager
def remembered_facts() -> Iterator[Path | None]:
    """Within the block, the rule-fact checks reuse the results kept in :func:`fact_memo_path` and
    keep those they work out; when the block ends without an error, the results of the units
    checked in it are written there (the file of other code removed). Gives the file's path, or
    ``None`` when nothing is kept (then the checks work everything out)."""
    from patiencebook.generator.check.facts import save_fact_memo, use_fact_memo

    path = fact_memo_path()
    if path is None:
        yield None
        return
    use_fact_memo(path)
    try:
        yield path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            save_fact_memo(path)
            remove_other_memos(path)
        except OSError:
            pass  # worked out again next time
    finally:
        use_fact_memo(None)


__all__ = ["CACHE_ENV", "LIBRARIES", "LOCK_WAIT", "cache_folder", "code_digest", "fact_memo_path", "locked",
           "remembered_facts", "read_json", "remove_other_memos", "STALE_SECONDS", "write_json"]
