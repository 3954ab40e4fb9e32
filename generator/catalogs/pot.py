"""Writing the POT catalog template of a help book, in the shape itstool gives GNOME's help catalogs.

Units come from :mod:`patiencebook.generator.docbook.segment` (itstool's segmentation); each carries its
``#. (itstool) path:`` comment and ``#:`` references relative to the folder that holds the source
folder (``C/hamilton.xml:17`` for AisleRiot's ``help/C``), and identical msgids share one unit.
"""

from __future__ import annotations

import datetime
import io
import os
import tempfile
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from patiencebook.generator.errors import CatalogError
from patiencebook.generator.docbook.document import Document

#: Line width of written catalogs; GNU gettext's default.
DEFAULT_WIDTH = 79


class TemplateCatalog(Catalog):
    """A Babel catalog whose header has exactly itstool's POT header fields (no Babel additions)."""

    def _get_mime_headers(self) -> list[tuple[str, str]]:
        created = self.creation_date.strftime("%Y-%m-%d %H:%M%z")
        return [
            ("Project-Id-Version", f"{self.project} {self.version}"),
            ("POT-Creation-Date", created),
            ("PO-Revision-Date", "YEAR-MO-DA HO:MI+ZONE"),
            ("Last-Translator", "FULL NAME <EMAIL@ADDRESS>"),
            ("Language-Team", "LANGUAGE <LL@li.org>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=UTF-8"),
            ("Content-Transfer-Encoding", "8bit\n"),
        ]


def reference(file: Path, base: Path) -> str:
    """``file`` relative to ``base`` with ``/`` separators (``C/hamilton.xml``)."""
    try:
        return file.relative_to(base).as_posix()
    except ValueError:
        return Path(os.path.relpath(file, base)).as_posix()


def pot_catalog(document: Document, *, base: Path | None = None, project: str = "PACKAGE",
                version: str = "VERSION", creation_date: datetime.datetime | None = None) -> Catalog:
    """The catalog template of ``document``: one unit per distinct (msgctxt, msgid), itstool's order.

    Args:
        document: a loaded document (its ``segments``).
        base: folder the ``#:`` references are relative to (default: the parent of the source folder,
            giving ``C/hamilton.xml:17`` as in GNOME's catalogs).
        project, version: the ``Project-Id-Version`` header.
        creation_date: the ``POT-Creation-Date`` (default: now, UTC).

    Returns:
        A Babel catalog; units carry ``#. (itstool) path:`` comments first, then translator comments.
    """
    base = Path(base) if base is not None else document.source_dir.parent
    created = creation_date or datetime.datetime.now(datetime.timezone.utc).replace(second=0, microsecond=0)
    catalog = TemplateCatalog(project=project, version=version, creation_date=created, fuzzy=False,
                              header_comment="")
    grouped: dict[tuple[str | None, str], list] = {}
    for segment in document.segments:
        grouped.setdefault((segment.msgctxt, segment.msgid), []).append(segment)
    references: dict[Path, str] = {}  # each source file's reference, worked out once
    for (context, msgid), segments in grouped.items():
        paths = list(dict.fromkeys(f"(itstool) path: {s.path}" for s in segments if s.path))
        comments = list(dict.fromkeys(s.comment for s in segments if s.comment))
        for s in segments:
            if s.line and s.file not in references:
                references[s.file] = reference(s.file, base)
        locations = list(dict.fromkeys((references[s.file], s.line) for s in segments if s.line))
        flags = ["no-wrap"] if any(s.preserve_space for s in segments) else []
        message = catalog.add(msgid, "", locations=locations, flags=flags,
                              auto_comments=paths + comments, context=context)
        # Babel guesses python-format from any "%"; DocBook text never is one.
        message.flags.discard("python-format")
    return catalog


def render_catalog(catalog: Catalog, width: int = DEFAULT_WIDTH, include_previous: bool = True) -> bytes:
    """The PO text of ``catalog`` as bytes (no leading blank line when the header comment is empty)."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=width, include_previous=include_previous)
    data = buffer.getvalue()
    if data.startswith(b"\n"):
        data = data[1:]
    return data


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and ``os.replace``.

    Raises:
        CatalogError: the file cannot be written; the old file, if any, is left as it was.
    """
    path = Path(path)
    tmp_name = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".tmp", delete=False) as handle:
            tmp_name = handle.name
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(tmp_name, path.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, path)
        tmp_name = None
    except OSError as error:
        raise CatalogError(f"cannot write catalog: {error.strerror or error}", path) from None
    finally:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass


def _without_date(data: bytes) -> bytes:
    return b"\n".join(line for line in data.split(b"\n") if not line.startswith(b'"POT-Creation-Date:'))


def write_pot(document: Document, path: Path, *, base: Path | None = None, project: str = "PACKAGE",
              version: str = "VERSION", width: int = DEFAULT_WIDTH,
              creation_date: datetime.datetime | None = None) -> bool:
    """Write the POT template of ``document`` to ``path`` atomically.

    The file is left untouched when only its ``POT-Creation-Date`` would change.

    Args:
        document: a loaded document.
        path: the POT file to write.
        base, project, version, creation_date: as for :func:`pot_catalog`.
        width: line width for wrapping msgids (0 disables wrapping, as itstool writes).

    Returns:
        ``True`` when the file was written, ``False`` when it already held the same units.

    Raises:
        CatalogError: the file cannot be written (the old file is kept).
    """
    path = Path(path)
    data = render_catalog(pot_catalog(document, base=base, project=project, version=version,
                                      creation_date=creation_date), width=width)
    try:
        old = path.read_bytes()
    except OSError:
        old = None
    if old is not None and _without_date(old) == _without_date(data):
        return False
    write_atomic(path, data)
    return True
