"""The live board of a game page ("Play this deal"): its JSON payload and the files it loads.

The board runs the engine in the browser through Pyodide (npm package ``pyodide``, pinned in the
project's ``package.json``), served from the built site itself: one copy of the Pyodide runtime in
``<site>/_pyodide/`` and the engine's modules in ``<site>/_engine/patiencebook-engine.zip``, both
shared by every language. Nothing is fetched from anywhere else.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path
from typing import Any, Callable, Mapping

import patiencebook.engine
from patiencebook.engine.rules import Ruleset
from patiencebook.engine.frontend import SOLUTION_BUDGET
from patiencebook.engine.rulesdata import ruleset_to_data
from patiencebook.engine.wording import variant_name

from .. import project
from ..errors import BuildError
from ..languages import Language

__all__ = [
    "PYODIDE_DIR", "ENGINE_DIR", "ENGINE_ZIP", "PYODIDE_FILES", "UI_PREFIXES", "UI_EXTRA", "DEFAULT_DEAL", "PYODIDE_ENV",
    "PYODIDE_VERSION", "find_pyodide", "pyodide_missing", "board_ui", "board_payload", "page_boards",
    "install_board_assets", "write_engine_zip",
]

#: Folder of the Pyodide runtime inside the site, and of the engine archive.
PYODIDE_DIR = "_pyodide"
ENGINE_DIR = "_engine"
#: The engine's modules as ``patiencebook/engine/*.py``, what the board imports in Pyodide.
ENGINE_ZIP = "patiencebook-engine.zip"
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


def board_ui(ui: Mapping[str, object]) -> dict[str, object]:
    """The interface strings of :data:`UI_PREFIXES` and :data:`UI_EXTRA` out of a language's strings
    (:func:`patiencebook.generator.languages.ui_strings`)."""
    return {key: value for key, value in ui.items() if key.startswith(UI_PREFIXES) or key in UI_EXTRA}


def board_payload(ruleset: Ruleset, language: Language, names: Mapping[str, str], deal: int = DEFAULT_DEAL,
                  layout: Mapping[str, Any] | None = None, ui: Mapping[str, str] | None = None,
                  available: bool = True, variants: Mapping[str, Ruleset] | None = None) -> dict[str, Any]:
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

    Returns:
        ``{"game", "lang" (the gettext code), "deal", "variant" (the id of ``ruleset``'s variant, or
        ``None``), "variants": [{"id", "name" (in the page's language, :func:`variant_name`),
        "ruleset", "layout"}, ...], "available", "ruleset" (engine.rulesdata form), "layout",
        "names", "ui", "budget" (positions the solver searches for "Show a solution"), "pyodide"
        ("../_pyodide/"), "engine" ("../_engine/patiencebook-engine.zip")}``; URLs are relative to a
        page in ``<site>/<lang>/``.
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
        "ui": board_ui(ui),
        "budget": SOLUTION_BUDGET,
        "pyodide": f"../{PYODIDE_DIR}/",
        "engine": f"../{ENGINE_DIR}/{ENGINE_ZIP}",
    }


def page_boards(language: Language, ui: Mapping[str, str] | None = None, available: bool = True,
                deal: int = DEFAULT_DEAL) -> Callable[[Any], Callable[[Mapping[str, str]], dict[str, Any]]]:
    """The ``board`` argument of :func:`patiencebook.generator.site.sphinxsources.write_sources` for
    ``language`` (``ui``: its interface strings, default ``ui_strings(language)``): given a game
    page (its ``rules``), a function of the page's pile names that gives the page's
    :func:`board_payload`, starting on the deal of the page's first example (``deal`` when it has
    none). ``available`` as there: whether the site gets the Pyodide runtime (:func:`find_pyodide`
    is not ``None`` in the process that installs it)."""
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
                                           variants=variants)

    return for_page


def write_engine_zip(target: Path) -> Path:
    """Write the engine's modules (``engine/*.py``) into the archive ``target`` as
    ``patiencebook/engine/*.py``, in name order with fixed dates (the same sources give the same
    bytes). Returns ``target``. Raises :class:`BuildError` when it cannot be written."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for source in sorted(_ENGINE_SOURCE.glob("*.py")):
                info = zipfile.ZipInfo(f"patiencebook/engine/{source.name}", date_time=_ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, source.read_bytes())
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


def install_board_assets(site_root: Path, pyodide_dir: Path | None = None, previous: Path | None = None) -> bool:
    """Put what the live boards load into a built site, once for all languages.

    Copies :data:`PYODIDE_FILES` from the npm package (:func:`find_pyodide` of ``pyodide_dir``)
    into ``site_root/_pyodide/`` and writes ``site_root/_engine/patiencebook-engine.zip``
    (:func:`write_engine_zip`). Returns ``False``, copying nothing, when no Pyodide package is
    found (then the pages' boards must say ui ``board_unavailable``: build them with
    ``available=False``). ``previous``, the site being replaced, lends its files by hard link
    where they are the same as the package's (nobody writes into them in place). Raises
    :class:`BuildError` when a file cannot be written.
    """
    source = find_pyodide(pyodide_dir)
    if source is None:
        return False
    site_root = Path(site_root)
    target = site_root / PYODIDE_DIR
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name in PYODIDE_FILES:
            if not (previous is not None and _same_file(previous / PYODIDE_DIR / name, source / name)
                    and _link(previous / PYODIDE_DIR / name, target / name)):
                shutil.copyfile(source / name, target / name)
        (target / "NOTICE.txt").write_text(_notice(source), encoding="utf-8")
    except OSError as error:
        raise BuildError(f"cannot copy the Pyodide runtime: {error.strerror or error}",
                         error.filename or target) from None
    write_engine_zip(site_root / ENGINE_DIR / ENGINE_ZIP)
    return True
