"""Reading gettext catalogs (PO and POT files) strictly, with Babel.

A syntax error, an unknown escape, a duplicate msgid or an undecodable line is a
:class:`~patiencebook.generator.errors.CatalogError` with its line, where Babel alone would accept
the file; the catalog that comes back is Babel's, each message's ``lineno`` its msgid's line.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileError, read_po, unescape

from patiencebook.generator.errors import CatalogError

# A quoted string: runs of characters other than a quote or backslash, each escape between them.
_QUOTED = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_KEYWORD_LINE = re.compile(rf"^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s*({_QUOTED})\s*$")
_STRING_LINE = re.compile(rf"^{_QUOTED}\s*$")
_CHARSET = re.compile(rb"charset=([^\s\\\"]+)")
#: The largest catalog read (bytes); AisleRiot's biggest help catalog is about 300 KiB.
MAX_CATALOG_BYTES = 32 * 1024 * 1024


def _decode_lines(path: Path, data: bytes) -> list[str]:
    """Decode a PO file with the charset its header names, line by line, so errors have a line."""
    charset = "utf-8"
    charset_line = 1
    header_end = data.find(b"\nmsgid", data.find(b"msgid"))  # the header is the first unit
    match = _CHARSET.search(data, 0, header_end if header_end > 0 else len(data))
    if match:
        charset_line = data.count(b"\n", 0, match.start()) + 1
        name = match.group(1).decode("ascii", "replace")
        if name.upper() != "CHARSET":  # the placeholder of a fresh template
            charset = name
    try:
        codecs.lookup(charset)
    except (LookupError, ValueError):  # ValueError: a NUL byte in the name
        raise CatalogError(f"unknown charset {charset!r} in the header", path, charset_line) from None
    lines = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            lines.append(raw.decode(charset))
        except UnicodeDecodeError as error:
            raise CatalogError(f"line is not valid {charset}: byte 0x{raw[error.start]:02x} at column "
                               f"{error.start + 1}", path, number) from None
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    return lines


# Escapes gettext accepts in a PO string: the C ones, octal and hexadecimal.
_ESCAPE = re.compile(r'\\(?:[\\"\'?abfnrtv]|[0-7]{1,3}|x[0-9A-Fa-f]+)')


def _check_syntax(path: Path, lines: list[str]) -> None:
    """Reject what Babel would silently accept: unknown keywords, badly quoted strings, unknown
    escapes, and keywords out of order (a msgstr without a msgid, two msgstrs for one msgid, a
    msgctxt or msgid_plural out of place), as msgfmt rejects them; and a (msgctxt, msgid) defined
    twice among the active units, as msgfmt does too."""
    state = "start"  # start | ctxt | id | plural | str  (what the last keyword of this unit was)
    msgid_line, msgid_parts = 0, []
    context_parts: list[str] | None = None  # the msgctxt of the unit being read
    seen: dict[tuple[str | None, str], int] = {}

    def defined() -> None:
        nonlocal context_parts
        key = (None if context_parts is None else "".join(context_parts), "".join(msgid_parts))
        context_parts = None
        if key in seen:
            shown = key[1] if len(key[1]) <= 50 else key[1][:49] + "…"
            raise CatalogError(f"msgid {shown!r} is defined twice (first at line {seen[key]})", path, msgid_line)
        seen[key] = msgid_line

    def missing_msgstr() -> CatalogError:
        shown = "".join(msgid_parts)
        shown = shown if len(shown) <= 50 else shown[:49] + "…"
        return CatalogError(f"missing msgstr for msgid {shown!r}", path, msgid_line)

    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        obsolete = text.startswith("#~")
        if obsolete:
            text = text[2:].strip()
            if not text or text.startswith(("#", "|")):
                continue
        elif text.startswith("#"):
            if state in ("ctxt", "id", "plural"):
                raise CatalogError("a comment inside a unit, before its msgstr", path, number)
            state = "start" if state == "str" else state
            continue
        if text.startswith('"'):
            if not _STRING_LINE.match(text):
                raise CatalogError("badly quoted string", path, number)
            if state == "start" and not obsolete:
                raise CatalogError("a string that belongs to no keyword", path, number)
            _check_escapes(path, number, text)
            if state == "id" and not obsolete:
                msgid_parts.append(unescape(text))
            elif state == "ctxt" and not obsolete and context_parts is not None:
                context_parts.append(unescape(text))
            continue
        match = _KEYWORD_LINE.match(text)
        if not match:
            keyword = text.split(None, 1)[0]
            if keyword in ("msgctxt", "msgid", "msgid_plural") or keyword.startswith("msgstr"):
                raise CatalogError(f"{keyword} needs one quoted string", path, number)
            raise CatalogError(f"unknown keyword '{keyword[:20]}'", path, number)
        _check_escapes(path, number, match.group(2))
        keyword = match.group(1)
        if obsolete:
            continue  # obsolete units are kept as they are, never used
        if keyword == "msgctxt":
            if state in ("ctxt", "id", "plural"):
                raise CatalogError("msgctxt inside a unit, before its msgstr", path, number)
            state = "ctxt"
            context_parts = [unescape(match.group(2))]
        elif keyword == "msgid":
            if state in ("id", "plural"):
                raise missing_msgstr()
            state = "id"
            msgid_line, msgid_parts = number, [unescape(match.group(2))]
        elif keyword == "msgid_plural":
            if state != "id":
                raise CatalogError("msgid_plural without a msgid just before it", path, number)
            defined()
            state = "plural"
        elif keyword == "msgstr":
            if state == "str":
                raise CatalogError("a second msgstr for one msgid", path, number)
            if state != "id":
                raise CatalogError("msgstr without a msgid" if state != "plural"
                                   else "a unit with msgid_plural needs msgstr[0], msgstr[1]…", path, number)
            defined()
            state = "str"
        else:  # msgstr[N]
            if state not in ("plural", "str") or (state == "str" and keyword == "msgstr[0]"):
                raise CatalogError(f"{keyword} without a msgid and msgid_plural before it", path, number)
            state = "str"
    if state in ("id", "plural"):
        raise missing_msgstr()
    if state == "ctxt":
        raise CatalogError("the last unit has a msgctxt and no msgid", path, len(lines))


def _check_escapes(path: Path, number: int, quoted: str) -> None:
    if "\\" not in quoted:
        return  # no escape at all, as in most lines
    body = quoted.strip()[1:-1]
    for index, char in enumerate(body):
        if char == "\\" and (index == 0 or not _escaped(body, index)):
            if not _ESCAPE.match(body, index):
                raise CatalogError(f"unknown escape '\\{body[index + 1:index + 2]}' in a string", path, number)


def _escaped(body: str, index: int) -> bool:
    """Whether the backslash at ``index`` is itself escaped (an odd run of backslashes before it)."""
    run = 0
    while index - run - 1 >= 0 and body[index - run - 1] == "\\":
        run += 1
    return run % 2 == 1


def _previous_from_comments(catalog: Catalog) -> None:
    """Turn ``#| msgid`` lines, which Babel's reader keeps as translator comments, into ``previous_id``."""
    for message in list(catalog) + list(catalog.obsolete.values()):
        if not message.id or not any(c.startswith("|") for c in message.user_comments):
            continue
        kept, parts, field = [], {}, None
        for comment in message.user_comments:
            if not comment.startswith("|"):
                kept.append(comment)
                continue
            body = comment[1:].strip()
            keyword, _, rest = body.partition(" ")
            if keyword in ("msgctxt", "msgid", "msgid_plural"):
                field = keyword
                body = rest.strip()
            if field is not None and _STRING_LINE.match(body):
                parts.setdefault(field, []).append(unescape(body.strip()))
        message.user_comments = kept
        if "msgid" in parts:
            previous = ["".join(parts["msgid"])]
            if "msgid_plural" in parts:
                previous.append("".join(parts["msgid_plural"]))
            message.previous_id = previous


def scrub_flags(catalog: Catalog) -> None:
    """Drop the ``python-format`` flag Babel guesses from a ``%`` in a msgid; help text never is one."""
    for message in list(catalog) + list(catalog.obsolete.values()):
        if message.id:
            message.flags.discard("python-format")


def read_catalog(path: Path, *, locale: str | None = None, domain: str | None = None) -> Catalog:
    """Read a PO or POT file strictly.

    Args:
        path: the catalog file.
        locale: the catalog's locale for Babel (default: from the ``Language`` header).
        domain: the gettext domain, recorded on the catalog.

    Returns:
        A Babel catalog; each message's ``lineno`` is the line of its ``msgid``.

    Raises:
        CatalogError: the file cannot be read, names an unknown charset, has a line that does not
            decode, or has a syntax error (``file:line`` of the fault).
    """
    from patiencebook.generator.docbook.sources import read_bounded

    path = Path(path)
    data = read_bounded(path, MAX_CATALOG_BYTES, CatalogError)
    lines = _decode_lines(path, data)
    _check_syntax(path, lines)
    try:
        # Babel refuses the previous msgid of an obsolete unit ("#~| msgid", which msgmerge writes);
        # it is of no use here, so it is read as a blank line (line numbers stay as they are).
        catalog = read_po(["\n" if line.startswith("#~|") else line + "\n" for line in lines], locale=locale,
                          domain=domain, abort_invalid=True)
    except PoFileError as error:
        message = str(error.args[0]) if error.args else "syntax error"
        message = re.sub(r" on \d+$", "", message)
        raise CatalogError(message, path, error.lineno + 1) from None
    except (ValueError, TypeError) as error:
        raise CatalogError(f"cannot read catalog: {error}", path) from None
    _check_plural_header(path, catalog, lines)
    scrub_flags(catalog)
    _previous_from_comments(catalog)
    return catalog


def _check_plural_header(path: Path, catalog: Catalog, lines: list[str]) -> None:
    """A catalog with plural units must say how many forms its language has (as msgfmt requires)."""
    plural = next((m for m in catalog if isinstance(m.id, (list, tuple))), None)
    if plural is None:
        return
    if not any(line.startswith('"Plural-Forms:') for line in lines[:60]):
        raise CatalogError("the catalog has plural units (msgid_plural) but no Plural-Forms header",
                           path, plural.lineno)


__all__ = ["MAX_CATALOG_BYTES", "read_catalog", "scrub_flags"]
