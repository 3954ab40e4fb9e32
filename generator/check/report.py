"""Writing findings: as text grouped by page and severity, as JSON, or as a catalog with one
translator comment per finding (``# check: <check>: <message>``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterable

from patiencebook.generator.catalogs import read_catalog
from patiencebook.generator.check.findings import SEVERITIES, Finding
from patiencebook.generator.errors import CatalogError

#: A comment :func:`annotate_catalog` wrote earlier (replaced, never kept twice); skip comments stay.
_FINDING_COMMENT = re.compile(r"^\s*check:\s*(?!skip=)[\w*-]+:\s")


def _excerpt(text: str, width: int = 72) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= width else text[:width - 1] + "…")


def summary(findings: list[Finding]) -> str:
    """``"3 findings: 1 error, 2 warnings, 0 info"``."""
    counts = {s: sum(1 for f in findings if f.severity == s) for s in SEVERITIES}
    parts = [f"{counts['error']} error{'s' if counts['error'] != 1 else ''}",
             f"{counts['warning']} warning{'s' if counts['warning'] != 1 else ''}",
             f"{counts['info']} info"]
    return f"{len(findings)} finding{'s' if len(findings) != 1 else ''}: " + ", ".join(parts)


def format_text(findings: list[Finding]) -> str:
    """Findings as text: a heading per page (file), then per severity, one finding per line.

    A line reads ``  hamilton.xml:97 de [markup] message (po line 123)``, or, for a finding less
    than certain, ``[direction 0.60]`` with its confidence; it is followed by the msgid excerpt,
    the spans, and the other pages of a shared message. Within a severity the surest findings come
    first; otherwise findings keep the order :func:`~patiencebook.generator.check.run.run_checks`
    gives them.
    """
    if not findings:
        return "no findings\n"
    lines: list[str] = []
    groups: dict[str, dict[str, list[Finding]]] = {}
    for finding in findings:
        groups.setdefault(finding.file, {}).setdefault(finding.severity, []).append(finding)
    for file, by_severity in groups.items():
        lines.append(file)
        for severity in SEVERITIES:
            if severity not in by_severity:
                continue
            lines.append(f"  {severity}")
            for f in sorted(by_severity[severity], key=lambda f: -f.confidence):
                where = f"{f.file}:{f.line}" if f.line else f.file
                po = f" (po line {f.po_line})" if f.po_line else ""
                sure = f" {f.confidence:.2f}" if f.confidence < 1.0 else ""
                lines.append(f"    {where} {f.lang} [{f.check}{sure}] {f.message}{po}")
                if f.msgid:
                    lines.append(f"        msgid: {_excerpt(f.msgid)}")
                if f.source is not None:
                    lines.append(f"        English: {_excerpt(f.source.text, 60)} at {f.source.start}")
                if f.translation is not None:
                    lines.append(f"        translation: {_excerpt(f.translation.text, 60)} at {f.translation.start}")
                others = [p for p in f.pages if p != f.file]
                if others:
                    lines.append(f"        also on: {', '.join(others)}")
    lines.append(summary(findings))
    return "\n".join(lines) + "\n"


def format_json(findings: list[Finding]) -> str:
    """Findings as a JSON list of :meth:`Finding.to_dict` objects (UTF-8 text, not ASCII-escaped)."""
    return json.dumps([f.to_dict() for f in findings], ensure_ascii=False, indent=1) + "\n"


def annotate_catalog(path: Path, findings: Iterable[Finding]) -> bytes:
    """The catalog ``path`` with a translator comment ``# check: <check>: <message>`` per finding.

    Each comment goes on the first line of its unit (live or obsolete; the unit at the finding's
    ``po_line`` when given, else the unit of its msgid); findings without a unit
    (header problems, units not in the catalog yet) go at the top of the file. Every other line
    is kept byte for byte, except comments of this form from an earlier run, which are dropped;
    ``# check: skip=...`` comments stay. Comments are never wrapped, so a later run finds them
    whole. The file itself is not written.

    Raises:
        CatalogError: the catalog cannot be read.
    """
    path = Path(path)
    catalog = read_catalog(path)
    data = path.read_bytes()
    newline = "\r\n" if b"\r\n" in data else "\n"
    lines = data.decode(catalog.charset or "utf-8").split(newline)
    first_line: dict[str, int] = {}
    by_po_line: dict[int, int] = {}
    for message in list(catalog) + list(catalog.obsolete.values()):
        if not message.id or not message.lineno:
            continue
        index = message.lineno - 1
        # The unit starts at its first comment (or msgctxt) line above the msgid.
        while index > 0 and lines[index - 1].startswith(("#", "msgctxt")) and \
                not _FINDING_COMMENT.match(lines[index - 1].lstrip("#")):
            index -= 1
        first_line.setdefault(message.id if isinstance(message.id, str) else message.id[0], index)
        by_po_line[message.lineno] = index
    inserts: dict[int, list[str]] = {}
    for finding in findings:
        comment = f"# check: {finding.check}: {' '.join(finding.message.split())}"
        # The unit the finding was made on (a stale unit's old msgid), else the unit of its msgid.
        at = by_po_line.get(finding.po_line) if finding.po_line else None
        if at is None and finding.msgid:
            at = first_line.get(finding.msgid)
        if at is None:
            at = 0
            if finding.msgid:
                comment += f" ({_excerpt(finding.msgid, 50)})"
        if comment not in inserts.setdefault(at, []):
            inserts[at].append(comment)
    out = []
    for index, line in enumerate(lines):
        out.extend(inserts.get(index, ()))
        if line.startswith("#") and not line.startswith(("#.", "#:", "#,", "#|", "#~")) and \
                _FINDING_COMMENT.match(line[1:]):
            continue
        out.append(line)
    return newline.join(out).encode(catalog.charset or "utf-8")


def write_output(data: str | bytes, out: Path | None, *, protect: Iterable[Path] = ()) -> None:
    """Write ``data`` to ``out``, or to standard output when ``out`` is ``None``.

    Raises:
        CatalogError: ``out`` is one of the ``protect``\\ ed files or lies inside one of the
            ``protect``\\ ed folders (sources and catalogs are never overwritten), lies inside a built
            site, or cannot be written.
    """
    import sys

    if out is None:
        if isinstance(data, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
        return
    out = Path(out)
    target = out.resolve()
    for path in protect:
        path = Path(path).resolve()
        if target == path or path.is_dir() and path in target.parents:
            if path.is_dir():
                raise CatalogError(f"refusing to write into the sources or catalogs folder {path}; "
                                   "give another --out", out)
            raise CatalogError("refusing to overwrite the catalog being checked; give another --out", out)
    from patiencebook.generator.project import SITE_MARKER

    if any((folder / SITE_MARKER).is_file() for folder in target.parents):
        raise CatalogError("refusing to write into a built site; give another --out", out)
    from patiencebook.generator.catalogs.pot import write_atomic

    try:
        write_atomic(out, data if isinstance(data, bytes) else data.encode("utf-8"))
    except OSError as error:
        raise CatalogError(f"cannot write: {error.strerror or error}", out) from None


__all__ = ["annotate_catalog", "format_json", "format_text", "summary", "write_output"]
