"""The live board's Python memory snapshot: Pyodide started and the engine imported once, at build
time, so that a page restores that interpreter instead of starting Python (seconds faster).

Node.js runs ``static/pb-snapshot.mjs`` with the site's Pyodide and engine archive; the result is
Pyodide's memory snapshot (``makeMemorySnapshot``, the interpreter's whole memory, about 21 MB),
gzip-compressed (about 5 MB). The browser decompresses it and passes it to ``loadPyodide``. A
snapshot depends only on the Pyodide files, the engine archive and the script, so it is named by
their digest and kept between builds in a cache folder (:func:`cache_dir`). Without Node.js the
site has no snapshot and the board starts Python the ordinary way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

__all__ = ["SNAPSHOT_SCRIPT", "CACHE_ENV", "NODE_ENV", "KEEP", "node_command", "cache_dir", "make_snapshot",
           "SnapshotError", "SnapshotJob"]

#: The Node.js script that makes a snapshot (arguments: Pyodide folder, engine archive, output).
SNAPSHOT_SCRIPT = Path(__file__).resolve().parent / "static" / "pb-snapshot.mjs"
#: Environment variable naming the folder that keeps snapshots between builds.
CACHE_ENV = "PATIENCEBOOK_CACHE"
#: Environment variable naming the Node.js program (default: ``node`` or ``nodejs`` on the PATH);
#: an empty value means none, so builds make no snapshot.
NODE_ENV = "PATIENCEBOOK_NODE"
#: How many snapshots the cache folder keeps (the newest).
KEEP = 4
#: Seconds Node.js may take to make one.
TIMEOUT = 300


class SnapshotError(Exception):
    """A snapshot could not be made; the message says why in one line."""


def node_command() -> str | None:
    """The Node.js program to run: ``$PATIENCEBOOK_NODE`` when set (empty: none), else ``node`` or
    ``nodejs`` on the PATH; ``None`` when there is none."""
    if NODE_ENV in os.environ:
        value = os.environ[NODE_ENV].strip()
        return (shutil.which(value) or value) if value else None
    return shutil.which("node") or shutil.which("nodejs")


def cache_dir() -> Path:
    """The folder that keeps snapshots between builds: ``$PATIENCEBOOK_CACHE``, else
    ``$XDG_CACHE_HOME/patiencebook``, else ``~/.cache/patiencebook``; ``snapshots/`` inside it."""
    base = os.environ.get(CACHE_ENV)
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = str(Path(xdg) / "patiencebook") if xdg else str(Path.home() / ".cache" / "patiencebook")
    return Path(base) / "snapshots"


def make_snapshot(pyodide_dir: Path, engine_zip: Path, target: Path, node: str | None = None,
                  timeout: float = TIMEOUT, warmup: Path | None = None) -> Path:
    """Make the snapshot of Pyodide in ``pyodide_dir`` (the npm package's files) with the engine
    archive ``engine_zip`` imported, gzip-compressed, into ``target`` (written whole or not at all).
    ``warmup``: a JSON file of a list of board data (``{"ruleset", "deal"}``,
    :meth:`patiencebook.engine.frontend.BoardGame.from_data`) played once before the snapshot, so
    what the engine reads once and keeps is in it.

    Returns ``target``. Raises :class:`SnapshotError` when there is no Node.js (``node`` default:
    :func:`node_command`), it fails (its last line of error output), takes longer than ``timeout``
    seconds, or ``target`` cannot be written.
    """
    node = node or node_command()
    if node is None:
        raise SnapshotError("Node.js not found")
    target = Path(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.close(handle)
    except OSError as error:
        raise SnapshotError(f"cannot write {target.parent}: {error.strerror or error}") from None
    try:
        try:
            command = [node, str(SNAPSHOT_SCRIPT), str(pyodide_dir), str(engine_zip), partial]
            done = subprocess.run(command + ([str(warmup)] if warmup is not None else []),
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise SnapshotError(f"Node.js took longer than {timeout:.0f} s") from None
        except OSError as error:
            raise SnapshotError(f"cannot run {node}: {error.strerror or error}") from None
        if done.returncode != 0 or not os.path.getsize(partial):
            lines = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
            raise SnapshotError(lines[-1].strip() if lines else f"Node.js exited with status {done.returncode}")
        os.chmod(partial, 0o644)  # mkstemp makes it private; a web server must read the site's copy
        os.replace(partial, target)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return target


def _prune(folder: Path, keep: int) -> None:
    """Remove all but the ``keep`` newest snapshots of ``folder``."""
    try:
        found = sorted(folder.glob("*.snapshot.gz"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in found[keep:]:
            old.unlink()
    except OSError:
        pass  # another build may be pruning too


class SnapshotJob:
    """Making (or finding in the cache) the snapshot named ``name`` while the build goes on.

    Started at once in a thread; :meth:`wait` gives the snapshot's path, or ``None`` when it could
    not be made (then :attr:`error` says why). The engine archive is given as its bytes
    (:func:`patiencebook.generator.pages.board.engine_zip_bytes`). The snapshot is made into the
    cache folder ``cache`` (default :func:`cache_dir`); when that cannot be written, into
    ``fallback`` (the site's own copy), if given. ``warmup``: board data to play first, as
    :func:`make_snapshot` takes it (a list of JSON-ready dicts).
    """

    def __init__(self, pyodide_dir: Path, engine: bytes, name: str, cache: Path | None = None,
                 fallback: Path | None = None, node: str | None = None, warmup: list | None = None):
        self.name = name
        self.path: Path | None = None
        self.error: str | None = None
        self._cache = cache if cache is not None else cache_dir()
        self._args = (Path(pyodide_dir), engine, fallback, node, warmup)
        self._thread = threading.Thread(target=self._run, name=f"snapshot {name}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        pyodide_dir, engine, fallback, node, warmup = self._args
        cached = self._cache / self.name
        if cached.is_file():
            self.path = cached
            return
        try:
            with tempfile.TemporaryDirectory(prefix="pb-snapshot-") as tmp:
                archive = Path(tmp) / "patiencebook-engine.zip"
                archive.write_bytes(engine)
                boards = None
                if warmup:
                    boards = Path(tmp) / "warmup.json"
                    boards.write_text(json.dumps(warmup), encoding="utf-8")
                try:
                    self.path = make_snapshot(pyodide_dir, archive, cached, node=node, warmup=boards)
                    _prune(self._cache, KEEP)
                except SnapshotError as error:
                    if fallback is None or not str(error).startswith("cannot write"):
                        raise
                    self.path = make_snapshot(pyodide_dir, archive, fallback, node=node, warmup=boards)
        except SnapshotError as error:
            self.error = str(error)
        except OSError as error:
            self.error = f"cannot make the snapshot: {error.strerror or error}"

    def wait(self) -> Path | None:
        """The snapshot's path once made (``None`` when it could not be made: see :attr:`error`)."""
        self._thread.join()
        return self.path
