"""Finding the catalogs of a gettext domain in a catalogs folder, in every layout users have.

``<lang>/LC_MESSAGES/<domain>.po`` (the project's), ``<lang>/<domain>.po``, ``<lang>/<lang>.po``
(GNOME's help folders), ``<lang>/LC_MESSAGES/<lang>.po`` and a flat ``<lang>.po`` (meson's and
GNOME's ``po/``), with a ``LINGUAS`` file where there is one; every file found and not used is a
warning naming it and the reason.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from patiencebook.generator.errors import CatalogError

#: A gettext language code as catalog folders and files are named: ``de``, ``pt_BR``, ``sr@latin``,
#: ``es_419``, ``zh_Hans``, ``pt-BR``. Folders such as ``C`` (GNOME's sources), ``figures`` or
#: ``LC_MESSAGES`` are not languages.
_LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(?:[_-](?:[A-Z][a-z]{3}|[A-Z]{2}|[0-9]{3}))?(?:[_-](?:[A-Z]{2}|[0-9]{3}))?"
                            r"(?:@[A-Za-z0-9_]+)?")
_DOMAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
#: The name of the file listing a catalogs folder's languages (gettext's and meson's ``po/LINGUAS``).
LINGUAS = "LINGUAS"
#: The largest LINGUAS file read (bytes).
MAX_LINGUAS_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class CatalogWarning:
    """Something in a catalogs folder that is not used, or missing: ``path`` (and ``line``, for a
    line of LINGUAS) with the ``reason``. ``str()`` gives ``FILE[:LINE]: reason``."""

    path: Path
    reason: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        return f"{where}: {self.reason}"


@dataclass(frozen=True, slots=True, eq=False)
class CatalogFolder:
    """A catalogs folder as :func:`discover_catalogs` read it for one gettext domain.

    Attributes:
        path: the folder, as given.
        domain: the gettext domain whose catalogs were looked for (``help``).
        catalogs: the catalog used for each language, by gettext code, sorted by code.
        warnings: each file found but not used, each language LINGUAS lists without a catalog, and
            the folder itself when nothing in it was recognised; in folder order.
        linguas: the folder's LINGUAS file, when it has one (it then says which languages are used).

    The folder is path-like (``Path(folder)``, ``str(folder)`` and ``os.fspath(folder)`` give
    ``path``), so it can be passed wherever a catalogs folder is expected; :func:`find_catalogs`
    given one returns its ``catalogs`` without reading the folder again.
    """

    path: Path
    domain: str
    catalogs: dict[str, Path]
    warnings: tuple[CatalogWarning, ...] = ()
    linguas: Path | None = None

    def __fspath__(self) -> str:
        return os.fspath(self.path)

    def __str__(self) -> str:
        return str(self.path)


def catalog_layouts(domain: str = "help") -> tuple[str, ...]:
    """The layouts a catalog of ``domain`` may have inside a catalogs folder, the one used first
    when a language has several: ``<lang>/LC_MESSAGES/help.po``, ``<lang>/help.po``,
    ``<lang>/<lang>.po``, ``<lang>/LC_MESSAGES/<lang>.po``, ``<lang>.po``."""
    return (f"<lang>/LC_MESSAGES/{domain}.po", f"<lang>/{domain}.po", "<lang>/<lang>.po",
            "<lang>/LC_MESSAGES/<lang>.po", "<lang>.po")


def _candidates(folder: Path, lang: str, domain: str) -> list[Path]:
    """The files a catalog of ``lang`` may be, in the order of :func:`catalog_layouts`."""
    paths = [folder / lang / "LC_MESSAGES" / f"{domain}.po", folder / lang / f"{domain}.po",
             folder / lang / f"{lang}.po", folder / lang / "LC_MESSAGES" / f"{lang}.po", folder / f"{lang}.po"]
    return list(dict.fromkeys(paths))


def read_linguas(path: Path) -> list[tuple[str, int]]:
    """The languages a LINGUAS file lists, with their lines: codes separated by whitespace, ``#``
    starting a comment to the end of the line (gettext's and meson's format).

    Raises:
        CatalogError: the file cannot be read, is too large, or a line is not UTF-8 (its line).
    """
    from patiencebook.generator.docbook.sources import read_bounded

    data = read_bounded(Path(path), MAX_LINGUAS_BYTES, CatalogError)
    listed = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise CatalogError(f"line is not valid UTF-8: byte 0x{raw[error.start]:02x} at column "
                               f"{error.start + 1}", path, number) from None
        if number == 1:
            line = line.removeprefix("\ufeff")
        listed += [(code, number) for code in line.split("#", 1)[0].split()]
    return listed


def _shown(path: Path, folder: Path) -> str:
    """``path`` relative to the catalogs folder, for a reason that names another file."""
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)


def discover_catalogs(catalog_dir: Path | CatalogFolder, domain: str | None = None) -> CatalogFolder:
    """Find the catalogs of ``domain`` in ``catalog_dir``, and say what was found but not used.

    A language's catalog is the first of the layouts :func:`catalog_layouts` lists that exists
    (``<lang>`` a gettext code such as ``de``, ``pt_BR`` or ``sr@latin``). When the folder has a
    LINGUAS file, only the languages it lists are used. Everything else is a warning, and no file
    is ever left out silently: a ``.po`` file (directly in the folder, in a language folder or in
    its ``LC_MESSAGES``) of another domain, of a language LINGUAS does not list, in a folder that
    is no language, or another layout of a language that has one already (the warning names the
    one used); a language LINGUAS lists with no catalog (unless it is derived from one that has,
    as ``sr@latin`` from ``sr``); and a folder in which no catalog was recognised.

    Args:
        catalog_dir: the catalogs folder (a :class:`CatalogFolder` of ``domain`` is returned as it is).
        domain: the gettext domain (``help``: ``<lang>/LC_MESSAGES/help.po``); default: the domain
            of a :class:`CatalogFolder`, else ``help``.

    Returns:
        A :class:`CatalogFolder`: the catalogs by language, sorted by code, and the warnings.

    Raises:
        CatalogError: the folder does not exist, ``domain`` is not a plain name, or LINGUAS
            cannot be read (file and line).
    """
    if isinstance(catalog_dir, CatalogFolder) and domain in (None, catalog_dir.domain):
        return catalog_dir
    domain = "help" if domain is None else domain
    folder = Path(catalog_dir)
    if not _DOMAIN_NAME.fullmatch(domain) or domain.endswith((".po", ".pot")):
        raise CatalogError(f"{domain!r} is not a gettext domain name (a file name without folder or "
                           "extension, such as help)", folder)
    if not folder.is_dir():
        raise CatalogError("no such catalogs folder", folder)
    warnings: list[CatalogWarning] = []
    linguas_path = folder / LINGUAS
    listed: dict[str, int] | None = None
    if linguas_path.is_symlink() and not linguas_path.exists():
        warnings.append(CatalogWarning(linguas_path, "not read: a link to nothing; every catalog found is used"))
    elif linguas_path.exists() and not linguas_path.is_file():
        warnings.append(CatalogWarning(linguas_path, "not read: not a file; every catalog found is used"))
    elif linguas_path.is_file():
        listed = {}
        for code, line in read_linguas(linguas_path):
            if code in listed:
                warnings.append(CatalogWarning(linguas_path, f"'{code}' is listed twice (first at line "
                                                             f"{listed[code]})", line))
            elif code in (".", "..") or "/" in code or "\\" in code or "\0" in code:
                warnings.append(CatalogWarning(linguas_path, f"'{code[:40]}' is not a language code", line))
            else:
                listed[code] = line

    def is_language(name: str) -> bool:
        return bool(_LANGUAGE_CODE.fullmatch(name)) or (listed is not None and name in listed)

    # Every .po file in the places a layout can put one, each with the language it would be of.
    po_files: dict[Path, str | None] = {}
    reasons: dict[Path, str] = {}
    layouts = ", ".join(catalog_layouts(domain))
    try:
        entries = sorted(folder.iterdir())
    except OSError as error:
        raise CatalogError(f"cannot read the catalogs folder: {error.strerror or error}", folder) from None
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.suffix == ".po" and not entry.is_file():
            what = "a link to nothing" if entry.is_symlink() and not entry.exists() else "not a file"
            reasons[entry] = f"not used: {what}"
            po_files[entry] = None
            continue
        if entry.suffix == ".po" and entry.is_file():
            po_files[entry] = entry.stem if is_language(entry.stem) else None
            if po_files[entry] is None:
                reasons[entry] = (f"not used: '{entry.stem}' is no language code, and a catalog directly in "
                                  "the catalogs folder is named for its language (de.po)")
            continue
        if not entry.is_dir():
            continue
        for sub in (entry, entry / "LC_MESSAGES"):
            try:
                files = sorted(sub.glob("*.po")) if sub.is_dir() else []
                if sub.is_dir() and files == [] and not os.access(sub, os.R_OK | os.X_OK):
                    raise PermissionError(13, "Permission denied")
            except OSError as error:
                if is_language(entry.name):
                    po_files[sub] = None
                    reasons[sub] = f"not read: {error.strerror or error}; no catalog of '{entry.name}' is used from it"
                files = []
            for path in files:
                if not path.is_file():
                    what = "a link to nothing" if path.is_symlink() and not path.exists() else "not a file"
                    po_files[path] = None
                    reasons[path] = f"not used: {what}"
                    continue
                lang = entry.name
                if not is_language(lang):
                    po_files[path] = None
                    reasons[path] = f"not used: the folder '{lang}' is no language code"
                elif path.stem in (domain, lang):
                    po_files[path] = lang
                else:
                    po_files[path] = None
                    reasons[path] = (f"not used: named neither for the domain '{domain}' nor for the language "
                                     f"'{lang}' (for the domain '{path.stem}', give --domain {path.stem})")
    by_lang: dict[str, list[Path]] = {}
    for path, lang in po_files.items():
        if lang is not None:
            by_lang.setdefault(lang, []).append(path)
    found: dict[str, Path] = {}
    for lang in sorted(by_lang):
        candidates = [p for p in _candidates(folder, lang, domain) if p in po_files]
        used, others = candidates[0], candidates[1:]
        if listed is not None and lang not in listed:
            for path in candidates:
                reasons[path] = f"not used: '{lang}' is not listed in {linguas_path}"
            continue
        found[lang] = used
        for path in others:
            reasons[path] = f"not used: another catalog of '{lang}'; {_shown(used, folder)} is the one used"
    warnings += [CatalogWarning(path, reasons[path]) for path in po_files if path in reasons]
    if listed is not None:
        for code, line in listed.items():
            if code not in found and not _derived_from_found(code, found):
                expected = ", ".join(layout.replace("<lang>", code) for layout in catalog_layouts(domain))
                warnings.append(CatalogWarning(linguas_path, f"'{code}' is listed but has no catalog (none of "
                                                             f"{expected})", line))
    if not found and (listed is None or listed):
        warnings.append(CatalogWarning(folder, f"no catalog of domain '{domain}' recognised in the catalogs "
                                               f"folder (looked for {layouts})"))
    return CatalogFolder(folder, domain, found, tuple(warnings), linguas_path if listed is not None else None)


def _derived_from_found(code: str, found: dict[str, Path]) -> bool:
    """Whether the build derives language ``code`` from a catalog found (``sr@latin`` from ``sr``)."""
    from patiencebook.generator.languages import derived_languages

    return code in derived_languages(list(found))


def find_catalogs(catalog_dir: Path | CatalogFolder, domain: str = "help") -> dict[str, Path]:
    """The catalogs of ``domain`` in ``catalog_dir``, by gettext language code, sorted by code.

    The catalogs :func:`discover_catalogs` uses (any of the layouts of :func:`catalog_layouts`,
    only the languages of LINGUAS when there is one), without its warnings; a folder that does not
    exist has none. Given a :class:`CatalogFolder`, its catalogs (of its own domain).

    Raises:
        CatalogError: ``domain`` is not a plain name, or LINGUAS cannot be read.
    """
    if isinstance(catalog_dir, CatalogFolder):
        return dict(catalog_dir.catalogs)
    if not Path(catalog_dir).is_dir():
        return {}
    return dict(discover_catalogs(catalog_dir, domain).catalogs)


__all__ = ["LINGUAS", "MAX_LINGUAS_BYTES", "CatalogFolder", "CatalogWarning", "catalog_layouts", "discover_catalogs",
           "find_catalogs", "read_linguas"]
