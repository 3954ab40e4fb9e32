"""The output folder: its lock, the build folder inside it, and the swap that puts a finished site in place
of the previous one (a failed build leaves the previous site exactly as it was).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shutil
import sys
from pathlib import Path
from typing import Callable


from patiencebook.generator.site.cache import CACHE_DIR
from patiencebook.generator.errors import BuildError
from patiencebook.generator.project import SITE_MARKER


def remove_path(path: Path) -> None:
    """Remove ``path`` whatever it is (folder, file, link); nothing when it does not exist."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            shutil.rmtree(path, ignore_errors=True)


def lock_out_folder(out: Path) -> int | None:
    """Lock the folder ``out`` for this build (``flock`` on the folder itself, released when the
    returned descriptor is closed or the process ends); :class:`BuildError` when another build
    holds it. ``None`` where the platform has no ``flock``."""
    try:
        import fcntl
    except ImportError:  # not on this platform: builds are not locked against each other
        return None
    descriptor = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise BuildError("another build is writing to this folder; wait for it to finish", out) from None
    return descriptor


#: A file in every built site: its presence is what allows a later build to replace the folder.


#: The name prefix of the folder, inside the output folder, where a build writes the new site.
BUILD_PREFIX = ".patiencebook-build-"


# In each build folder: the pid of the build that owns it.
OWNER_FILE = ".owner"


def check_out_folder(out: Path, inputs: list[Path]) -> None:
    """Refuse an output folder that a build must not replace.

    ``out`` may be missing, an empty folder (leftovers of an interrupted build, which only ever
    writes below ``out``, do not count), or a site an earlier build wrote (it holds
    :data:`SITE_MARKER`). It may not be, hold, or lie inside one of ``inputs`` (the sources and
    catalogs folders). Raises :class:`BuildError` naming the folder and the reason.
    """
    for folder in inputs:
        if out == folder or out in folder.parents or folder in out.parents:
            raise BuildError(f"the output folder must be outside the input folder {folder}", out)
    if not out.exists() and not out.is_symlink():
        return
    if not out.is_dir() or out.is_symlink():
        raise BuildError("the output path exists and is not a folder; choose another --out", out)
    if (out / SITE_MARKER).is_file():
        return
    if all(p.name == CACHE_DIR or p.name.startswith(BUILD_PREFIX) for p in out.iterdir()):
        return
    raise BuildError(f"refusing to replace a folder that is not a site built by patiencebook (it has no "
                     f"{SITE_MARKER}); choose another --out or empty it first", out)


def remove_stale_workdirs(out: Path) -> None:
    """Remove build folders inside ``out`` whose build process no longer runs."""
    for folder in out.glob(f"{BUILD_PREFIX}*"):
        try:
            pid = int((folder / OWNER_FILE).read_text(encoding="ascii"))
            os.kill(pid, 0)
        except (ProcessLookupError, FileNotFoundError, ValueError):
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


def swap_in(site: Path, out: Path, workdir: Path, keep: set[str] | frozenset[str] = frozenset()) -> None:
    """Replace the contents of ``out`` by those of ``site`` (both on one file system).

    Each top-level entry (a language folder, the runtime, the root page) is exchanged in one step
    where Linux offers it (``renameat2(RENAME_EXCHANGE)``), else moved aside and replaced; entries
    of the old site that the new one lacks, other than those named in ``keep`` (languages reused
    as they are), are moved into ``workdir`` too, which the caller then removes. The build cache and the build folders stay. When a step fails the steps taken are
    undone and :class:`BuildError` is raised.
    """
    trash = workdir / "previous"
    trash.mkdir()
    names = sorted((p.name for p in site.iterdir()), key=lambda n: n == SITE_MARKER)  # the marker last
    undo: list[Callable[[], None]] = []
    try:
        for name in names:
            new, old = site / name, out / name
            if not old.exists() and not old.is_symlink():
                os.rename(new, old)
                undo.append(lambda new=new, old=old: os.rename(old, new))
            elif _exchange(new, old):
                undo.append(lambda new=new, old=old: _exchange(new, old))
            else:
                os.rename(old, trash / name)
                os.rename(new, old)
                undo.append(lambda new=new, old=old, name=name: (os.rename(old, new), os.rename(trash / name, old)))
        for entry in out.iterdir():
            if entry.name not in names and entry.name not in keep and entry.name != CACHE_DIR \
                    and not entry.name.startswith(BUILD_PREFIX):
                os.rename(entry, trash / entry.name)
                undo.append(lambda entry=entry: os.rename(trash / entry.name, entry))
    except OSError as error:
        for step in reversed(undo):
            try:
                step()
            except OSError:
                pass
        raise BuildError(f"cannot replace the site: {error.strerror or error}", out) from None


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False when unavailable."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    result = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return result == 0
