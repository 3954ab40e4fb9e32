"""The live board of a game page ("Play this deal"): its JSON payload and the files it loads.

The board runs the engine in the browser through Pyodide (npm package ``pyodide``, pinned in the
project's ``package.json``), served from the built site itself: one copy of the Pyodide runtime in
``<site>/_pyodide/<version>-<digest>/``, the engine's modules in
``<site>/_engine/patiencebook-engine-<digest>.zip`` and, when Node.js was there at build time, a
memory snapshot of Python with the engine imported (:mod:`.boardsnapshot`), all shared by every
language. Every such name carries a digest of the file's content, so browsers may keep them for
good; the service worker ``<site>/pb-sw.js`` keeps them across the site's pages. Nothing is fetched
from anywhere else.

The page shows the deal's starting position (computed here, by the engine) without Python; the
runtime is loaded when the reader starts the board (``static/pb-board-start.js``).
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import patiencebook.engine
from patiencebook.engine.frontend import SOLUTION_BUDGET, BoardGame
from patiencebook.engine.rules import Ruleset
from patiencebook.engine.rulesdata import ruleset_to_data
from patiencebook.engine.wording import variant_name

from .. import project
from ..errors import BuildError
from ..languages import Language

__all__ = [
    "PYODIDE_DIR", "ENGINE_DIR", "ENGINE_ZIP", "PYODIDE_FILES", "UI_PREFIXES", "UI_EXTRA", "DEFAULT_DEAL", "PYODIDE_ENV",
    "PYODIDE_VERSION", "SERVICE_WORKER", "BoardFiles", "find_pyodide", "pyodide_missing", "board_ui", "board_payload",
    "page_boards", "board_files", "engine_zip_bytes", "install_board_assets", "write_engine_zip",
]

#: Folder of the Pyodide runtime inside the site (one subfolder per runtime), and of the engine
#: archive and the snapshot.
PYODIDE_DIR = "_pyodide"
ENGINE_DIR = "_engine"
#: The engine's modules as ``patiencebook/engine/*.py``, what the board imports in Pyodide; in a
#: site its name carries the digest of its bytes (``patiencebook-engine-<digest>.zip``).
ENGINE_ZIP = "patiencebook-engine.zip"
#: The service worker at the site's root that keeps the runtime files across pages.
SERVICE_WORKER = "pb-sw.js"
#: Hex digits of a digest kept in a file or folder name.
DIGEST_LENGTH = 12
#: The files of the npm package ``pyodide`` a page needs to start Python with its standard
#: library and no other packages (``pyodide.js`` loads the others from the same folder).
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json")
#: Interface strings the board uses: its own, the terminal's move and score messages, the
#: refusal reasons and the words for build directions, the rank marks (``card_ranks``), the
#: forms of pile names and cards (``pile_forms``, ``card_forms``) and the names of rule variants.
UI_PREFIXES = ("board_", "play_", "reason_", "build_", "card_", "pile_", "variant_")
#: Single strings from other groups the board uses too (the spoken name of a face-down card) and
#: the plural rules the engine picks a message's plural form by.
UI_EXTRA = ("setup_face_down", "plural_rules")
#: The deal a board starts with unless the build says otherwise.
DEFAULT_DEAL = 1
#: Environment variable naming another folder holding the npm package ``pyodide``.
PYODIDE_ENV = "PATIENCEBOOK_PYODIDE"

_ENGINE_SOURCE = Path(patiencebook.engine.__file__).resolve().parent
_STATIC = Path(__file__).resolve().parent / "static"
# A fixed date for the archive's entries, so the same engine gives the same bytes.
_ZIP_DATE = (2024, 1, 1, 0, 0, 0)


def find_pyodide(pyodide_dir: Path | None = None) -> Path | None:
    """The folder of the npm package ``pyodide`` to copy from, or ``None`` when there is none.

    Looks at ``pyodide_dir`` when given, else the folder named by the environment variable
    ``PATIENCEBOOK_PYODIDE``, else ``<project>/node_modules/pyodide`` (what ``npm ci`` in the
    project folder installs; an installed package holds it there when it was built with it), else
    ``./node_modules/pyodide`` (``npm install pyodide@VERSION`` in the current folder). A folder
    counts only when it holds every file of :data:`PYODIDE_FILES`.
    """
    if pyodide_dir is not None:
        candidates = [Path(pyodide_dir)]
    elif os.environ.get(PYODIDE_ENV):
        candidates = [Path(os.environ[PYODIDE_ENV])]
    else:
        candidates = [project.PROJECT_DIR / "node_modules" / "pyodide", Path.cwd() / "node_modules" / "pyodide"]
    for candidate in candidates:
        if all((candidate / name).is_file() for name in PYODIDE_FILES):
            return candidate
    return None


#: The Pyodide version the board is written for (package-lock.json pins the same).
PYODIDE_VERSION = "0.29.5"


def pyodide_missing() -> str:
    """The sentence a build without Pyodide prints: what is missing and how to add it."""
    return (f"Pyodide not found, so the live boards say that they are not part of this build; to add them, "
            f"run `npm install pyodide@{PYODIDE_VERSION}` in the folder you build from (or `npm ci` in a "
            f"checkout of the project), or set {PYODIDE_ENV} to the folder of that npm package")


@dataclass(frozen=True, slots=True)
class BoardFiles:
    """Where a site keeps what its live boards load, as paths relative to the site's root. Each
    name carries a digest of the content (:func:`board_files`), so a file never changes under its
    name and browsers may keep it for good.

    Attributes:
        pyodide: the Pyodide folder, with a final slash (``"_pyodide/0.29.5-0123456789ab/"``).
        engine: the engine archive (``"_engine/patiencebook-engine-0123456789ab.zip"``).
        snapshot: the gzip-compressed memory snapshot of Python with the engine imported
            (``"_engine/python-0123456789ab.snapshot.gz"``), or ``None`` when the site has none.
        worker: the service worker at the site's root (:data:`SERVICE_WORKER`).
    """

    pyodide: str
    engine: str
    snapshot: str | None = None
    worker: str = SERVICE_WORKER


def _short(sha: "hashlib._Hash") -> str:
    return sha.hexdigest()[:DIGEST_LENGTH]


@functools.lru_cache(maxsize=8)
def _pyodide_id(folder: str, stamp: tuple) -> str:
    """``<version>-<digest of PYODIDE_FILES>`` of the Pyodide package in ``folder`` (``stamp``:
    the files' sizes and times, so a changed package is read again)."""
    sha = hashlib.sha256()
    for name in PYODIDE_FILES:
        with open(os.path.join(folder, name), "rb") as handle:
            sha.update(f"{name}\0".encode())
            for block in iter(lambda: handle.read(1 << 20), b""):
                sha.update(block)
    try:
        version = str(json.loads(Path(folder, "package.json").read_text(encoding="utf-8")).get("version") or "")
    except (OSError, ValueError, AttributeError):
        version = ""
    version = "".join(c for c in version if c.isalnum() or c in ".-+") or "pyodide"
    return f"{version}-{_short(sha)}"


@functools.lru_cache(maxsize=1)
def _engine_zip(stamp: tuple) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for source in sorted(_ENGINE_SOURCE.glob("*.py")):
            info = zipfile.ZipInfo(f"patiencebook/engine/{source.name}", date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, source.read_bytes())
    return buffer.getvalue()


def _stamp(paths: list[Path]) -> tuple:
    stats = [path.stat() for path in paths]
    return tuple((str(path), st.st_size, st.st_mtime_ns) for path, st in zip(paths, stats))


def engine_zip_bytes() -> bytes:
    """The engine archive: the engine's modules (``engine/*.py``) as ``patiencebook/engine/*.py``,
    in name order with fixed dates, so the same sources give the same bytes."""
    return _engine_zip(_stamp(sorted(_ENGINE_SOURCE.glob("*.py"))))


def board_files(pyodide_dir: Path | None = None, snapshot: bool | None = None) -> BoardFiles | None:
    """The :class:`BoardFiles` of a site built with the Pyodide package :func:`find_pyodide` finds
    (``pyodide_dir`` as there), or ``None`` when there is none.

    The Pyodide folder is named by the package's version and a digest of its files, the engine
    archive by a digest of its bytes (:func:`engine_zip_bytes`), the snapshot by a digest of both and
    of the script that makes it. ``snapshot``: whether the site gets one (default: whether Node.js
    is there, :func:`patiencebook.generator.pages.boardsnapshot.node_command`). Raises
    :class:`BuildError` when the package's files cannot be read.
    """
    from .boardsnapshot import SNAPSHOT_SCRIPT, node_command

    source = find_pyodide(pyodide_dir)
    if source is None:
        return None
    try:
        pyodide = _pyodide_id(str(source), _stamp([source / name for name in PYODIDE_FILES]))
        engine = engine_zip_bytes()
        script = SNAPSHOT_SCRIPT.read_bytes()
    except OSError as error:
        raise BuildError(f"cannot read the live board's files: {error.strerror or error}",
                         error.filename or source) from None
    engine_id = _short(hashlib.sha256(engine))
    stem = Path(ENGINE_ZIP).stem
    if snapshot is None:
        snapshot = node_command() is not None
    snapshot_id = _short(hashlib.sha256(f"{pyodide}\0{engine_id}\0".encode() + script))
    return BoardFiles(pyodide=f"{PYODIDE_DIR}/{pyodide}/", engine=f"{ENGINE_DIR}/{stem}-{engine_id}.zip",
                      snapshot=f"{ENGINE_DIR}/python-{snapshot_id}.snapshot.gz" if snapshot else None)


def board_ui(ui: Mapping[str, object]) -> dict[str, object]:
    """The interface strings of :data:`UI_PREFIXES` and :data:`UI_EXTRA` out of a language's strings
    (:func:`patiencebook.generator.languages.ui_strings`)."""
    return {key: value for key, value in ui.items() if key.startswith(UI_PREFIXES) or key in UI_EXTRA}


def board_payload(ruleset: Ruleset, language: Language, names: Mapping[str, str], deal: int = DEFAULT_DEAL,
                  layout: Mapping[str, Any] | None = None, ui: Mapping[str, str] | None = None,
                  available: bool = True, variants: Mapping[str, Ruleset] | None = None,
                  files: BoardFiles | None = None) -> dict[str, Any]:
    """The board JSON a game page embeds (contract: the ``pb:board`` element of a page).

    Args:
        ruleset: the page's game.
        language: the page's language.
        names: each pile id's name in that language (:func:`patiencebook.generator.play.player_pile_names`).
        deal: the deal the board starts with (AisleRiot's deal number).
        layout: the pile layout (default: :func:`patiencebook.generator.pages.layout.pile_layout`).
        ui: the language's interface strings (default: ``ui_strings(language)``); only the keys of
            :data:`UI_PREFIXES` are kept.
        available: whether the site has the Pyodide runtime (:func:`find_pyodide` found it, and
            :func:`install_board_assets` is called for the site); when false the board only says
            ui ``board_unavailable``.
        variants: the game's rule variants, variant id -> ruleset in the rules block's order
            (:attr:`~patiencebook.generator.docbook.document.Page.variants`; ``ruleset`` among them);
            empty or ``None`` for a game without variants.
        files: where the site keeps the runtime (default: :func:`board_files` of the Pyodide
            package found, else the plain names ``_pyodide/`` and ``_engine/patiencebook-engine.zip``).

    Returns:
        ``{"game", "lang" (the gettext code), "deal", "variant" (the id of ``ruleset``'s variant, or
        ``None``), "variants": [{"id", "name" (in the page's language, :func:`variant_name`),
        "ruleset", "layout"}, ...], "available", "ruleset" (engine.rulesdata form), "layout",
        "names", "ui", "budget" (positions the solver searches for "Show a solution"), "start",
        "pyodide", "engine", "snapshot", "worker", "root"}``. ``start`` is the deal's starting
        position as the engine gives it (:meth:`patiencebook.engine.frontend.BoardGame.state`: piles
        bottom card first, score and its words), drawn before Python runs in the page. URLs are
        relative to a page in ``<site>/<lang>/``: ``pyodide`` the runtime's folder
        (``"../_pyodide/<id>/"``), ``engine`` the archive, ``snapshot`` the Python snapshot or
        ``None``, ``worker`` the service worker and ``root`` the site's root, its scope (``"../"``).
    """
    from .layout import pile_layout

    if ui is None:
        from ..languages import ui_strings

        ui = ui_strings(language)
    if layout is None:
        layout = pile_layout(ruleset)
    listed = [{"id": vid, "name": variant_name(ui, vid), "ruleset": ruleset_to_data(variant),
               "layout": dict(layout) if variant == ruleset else pile_layout(variant)}
              for vid, variant in (variants or {}).items()]
    if files is None:
        files = (board_files() if available else None) or BoardFiles(f"{PYODIDE_DIR}/", f"{ENGINE_DIR}/{ENGINE_ZIP}")
    kept = board_ui(ui)
    start = BoardGame(ruleset, deal, kept, names).state()
    return {
        "game": ruleset.game,
        "lang": language.code,
        "deal": deal,
        "variant": ruleset.variant,
        "variants": listed,
        "available": bool(available),
        "ruleset": ruleset_to_data(ruleset),
        "layout": dict(layout),
        "names": dict(names),
        "ui": kept,
        "budget": SOLUTION_BUDGET,
        "start": start,
        "pyodide": f"../{files.pyodide}",
        "engine": f"../{files.engine}",
        "snapshot": f"../{files.snapshot}" if files.snapshot else None,
        "worker": f"../{files.worker}",
        "root": "../",
    }


def page_boards(language: Language, ui: Mapping[str, str] | None = None, available: bool = True,
                deal: int = DEFAULT_DEAL, files: BoardFiles | None = None
                ) -> Callable[[Any], Callable[[Mapping[str, str]], dict[str, Any]]]:
    """The ``board`` argument of :func:`patiencebook.generator.site.sphinxsources.write_sources` for
    ``language`` (``ui``: its interface strings, default ``ui_strings(language)``): given a game
    page (its ``rules``), a function of the page's pile names that gives the page's
    :func:`board_payload`, starting on the deal of the page's first example (``deal`` when it has
    none). ``available`` as there: whether the site gets the Pyodide runtime (:func:`find_pyodide`
    is not ``None`` in the process that installs it); ``files``: where it keeps it (as there)."""
    if ui is None:
        from ..languages import ui_strings

        ui = ui_strings(language)

    def for_page(page: Any) -> Callable[[Mapping[str, str]], dict[str, Any]]:
        from ..docbook.examples import find_examples

        ruleset = page.rules
        variants = dict(getattr(page, "variants", None) or {})
        # "Play this deal": the deal of the page's first example, so the reader can go on from it.
        first = next((e.deal for e in find_examples(page) if e.deal is not None), deal)
        return lambda names: board_payload(ruleset, language, names, deal=first, ui=ui, available=available,
                                           variants=variants, files=files)

    return for_page


def write_engine_zip(target: Path) -> Path:
    """Write the engine archive (:func:`engine_zip_bytes`) to ``target``. Returns ``target``.
    Raises :class:`BuildError` when it cannot be written."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(engine_zip_bytes())
    except OSError as error:
        raise BuildError(f"cannot write the engine archive: {error.strerror or error}", target) from None
    return target


def _notice(source: Path) -> str:
    """Where the copied runtime comes from and under which licences (from the package's own data)."""
    try:
        meta = json.loads((source / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        meta = {}
    return (f"This folder holds Pyodide {meta.get('version', '(unknown version)')}, copied unchanged from the "
            f"npm package 'pyodide'.\nLicence: {meta.get('license', 'MPL-2.0')} (Mozilla Public License 2.0); "
            "source: https://github.com/pyodide/pyodide\nIt includes the Python standard library, under the "
            "Python Software Foundation License.\n")


def _same_file(a: Path, b: Path) -> bool:
    """Same size and ``a`` no older than ``b`` (it was copied from ``b`` after ``b`` last changed)."""
    try:
        sa, sb = a.stat(), b.stat()
    except OSError:
        return False
    return sa.st_size == sb.st_size and sa.st_mtime >= sb.st_mtime


def _link(source: Path, target: Path) -> bool:
    try:
        os.link(source, target)
    except OSError:
        return False
    return True


def _link_or_copy(source: Path, target: Path) -> None:
    if target.exists() or target.is_symlink():
        target.unlink()
    if not _link(source, target):
        shutil.copyfile(source, target)


def install_board_assets(site_root: Path, pyodide_dir: Path | None = None, previous: Path | None = None,
                         files: BoardFiles | None = None, snapshot: Any = None,
                         notes: list[str] | None = None) -> bool:
    """Put what the live boards load into a built site, once for all languages.

    Copies :data:`PYODIDE_FILES` from the npm package (:func:`find_pyodide` of ``pyodide_dir``)
    into the site's Pyodide folder, writes the engine archive and the service worker, and puts the
    Python snapshot in place when ``files`` has one: ``snapshot``, a
    :class:`~patiencebook.generator.pages.boardsnapshot.SnapshotJob` already under way, or one
    started here. ``files`` (default: :func:`board_files` of the package) names them all and must
    be what the pages were built with. Returns ``False``, copying nothing, when no Pyodide package
    is found (then the pages' boards must say ui ``board_unavailable``: build them with
    ``available=False``). ``previous``, the site being replaced, lends its files by hard link
    where they are the same as the package's (nobody writes into them in place). A snapshot that
    cannot be made is no error: a sentence saying so is added to ``notes``, and the board then
    starts Python the ordinary way. Raises :class:`BuildError` when a file cannot be written.
    """
    from .boardsnapshot import SnapshotJob, cache_dir

    source = find_pyodide(pyodide_dir)
    if source is None:
        return False
    site_root = Path(site_root)
    files = files or board_files(source)
    target = site_root / files.pyodide
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            if not (previous is not None and _same_file(previous / files.pyodide / name, source / name)
                    and _link(previous / files.pyodide / name, target / name)):
                shutil.copyfile(source / name, target / name)
        (target / "NOTICE.txt").write_text(_notice(source), encoding="utf-8")
    except OSError as error:
        raise BuildError(f"cannot copy the Pyodide runtime: {error.strerror or error}",
                         error.filename or target) from None
    write_engine_zip(site_root / files.engine)
    worker = site_root / files.worker
    try:
        shutil.copyfile(_STATIC / SERVICE_WORKER, worker)
    except OSError as error:
        raise BuildError(f"cannot write the service worker: {error.strerror or error}", worker) from None
    if files.snapshot:
        place = site_root / files.snapshot
        name = Path(files.snapshot).name
        job = snapshot if snapshot is not None else SnapshotJob(source, engine_zip_bytes(), name, cache=cache_dir(),
                                                                fallback=place)
        made = job.wait()
        if made is None:
            if notes is not None:
                notes.append(f"the live board has no Python snapshot ({job.error}), so it starts Python in "
                             f"the page, a few seconds slower; Node.js at build time makes one")
        elif Path(made).resolve() != place.resolve():
            try:
                _link_or_copy(Path(made), place)
            except OSError as error:
                raise BuildError(f"cannot copy the Python snapshot: {error.strerror or error}", place) from None
    return True
