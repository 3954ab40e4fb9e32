"""Reading, finding and updating gettext catalogs (PO files) of the help, with Babel.

Reading is strict (a syntax error or an undecodable line is a :class:`CatalogError` with its line);
updating merges a POT into each language's catalog and rewrites a file only when one of its units
changed, copying every unchanged unit byte for byte so that diffs stay small.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, normalize, read_po, unescape

from patiencebook.generator.errors import CatalogError
from patiencebook.generator.extract import DEFAULT_WIDTH, render_catalog, write_atomic

_QUOTED = r'"(?:[^"\\]|\\.)*"'
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
    from patiencebook.generator.sources import read_bounded

    path = Path(path)
    data = read_bounded(path, MAX_CATALOG_BYTES, CatalogError)
    lines = _decode_lines(path, data)
    _check_syntax(path, lines)
    try:
        catalog = read_po([line + "\n" for line in lines], locale=locale, domain=domain,
                          abort_invalid=True)
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


def find_catalogs(catalog_dir: Path, domain: str = "help") -> dict[str, Path]:
    """The catalogs in ``catalog_dir``, by gettext language code, sorted by code.

    Both layouts are accepted: ``DIR/<lang>/LC_MESSAGES/<domain>.po`` (the project's) and
    ``DIR/<lang>/<lang>.po`` (GNOME's help folders). A folder holding neither is ignored.
    """
    catalog_dir = Path(catalog_dir)
    found: dict[str, Path] = {}
    if not catalog_dir.is_dir():
        return found
    for folder in sorted(p for p in catalog_dir.iterdir() if p.is_dir()):
        lang = folder.name
        for candidate in (folder / "LC_MESSAGES" / f"{domain}.po", folder / f"{lang}.po"):
            if candidate.is_file():
                found[lang] = candidate
                break
    return found


def _unit(message: Message) -> tuple:
    return (message.id, message.string, message.context, tuple(sorted(message.flags)),
            tuple(message.auto_comments), tuple(message.user_comments),
            tuple(message.locations), tuple(message.previous_id or ()))


def _units(catalog: Catalog) -> dict:
    units = {("live", m.context, m.id if isinstance(m.id, str) else tuple(m.id)): _unit(m)
             for m in catalog if m.id}
    units.update({("obsolete", m.context, m.id if isinstance(m.id, str) else tuple(m.id)): _unit(m)
                  for m in catalog.obsolete.values()})
    return units


def detect_width(text: str) -> int:
    """The wrap width a PO file was written with, for Babel's ``write_po`` (0 = not wrapped).

    The width is the length that 98% of the wrapped string lines (a line continued by the next one,
    not ending in ``\\n``) stay within; a file with only long, unwrapped lines is not wrapped.
    Without evidence, gettext's default of 79 columns.
    """
    lines = text.split("\n")
    wrapped = []
    longest = 0
    for line, following in zip(lines, lines[1:] + [""]):
        line = line.rstrip()
        if not line.startswith(('"', 'msgid "', 'msgstr "', 'msgctxt "')):
            continue
        longest = max(longest, len(line))
        if following.startswith('"') and not line.endswith('\\n"') and not line.endswith(' ""'):
            wrapped.append(len(line))
    if not wrapped:
        return 0 if longest > 2 * DEFAULT_WIDTH else DEFAULT_WIDTH
    wrapped.sort()
    width = wrapped[min(len(wrapped) - 1, int(len(wrapped) * 0.98))]
    if len(wrapped) < 20 and width <= DEFAULT_WIDTH:
        return DEFAULT_WIDTH  # too few wrapped lines to tell a narrower width from chance
    return 0 if width > 2 * DEFAULT_WIDTH else max(width, 40)


def _blocks(text: str) -> list[tuple[int, int, str]]:
    """Runs of non-blank lines: (first line, last line, text), lines 1-based."""
    blocks = []
    start = None
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if line.strip():
            if start is None:
                start = number
        elif start is not None:
            blocks.append((start, number - 1, "\n".join(lines[start - 1:number - 1])))
            start = None
    if start is not None:
        blocks.append((start, len(lines), "\n".join(lines[start - 1:])))
    return blocks


def _block_at(blocks, line: int) -> int | None:
    for index, (first, last, _) in enumerate(blocks):
        if first <= line <= last:
            return index
    return None


def _with_previous(block: str, message: Message | None, width: int) -> str:
    """Insert ``#| msgid`` lines (the msgid a fuzzy unit was matched from) as GNU msgmerge writes them.

    Written here rather than by Babel, whose comment wrapper breaks multi-line previous msgids.
    """
    if message is None or not message.previous_id:
        return block
    previous = message.previous_id[0]
    # Babel's own prefix handling narrows every chunk, so wrap plainly and prefix afterwards.
    text = normalize(previous, width=max(width - 3, 20) if width > 0 else 0)
    lines = ["#| " + line if number else "#| msgid " + line
             for number, line in enumerate(text.split("\n"))]
    block_lines = block.split("\n")
    at = next((i for i, line in enumerate(block_lines) if line.startswith(("msgctxt ", "msgid "))),
              len(block_lines))
    return "\n".join(block_lines[:at] + lines + block_lines[at:])


def _render_small_diff(old_text: str, old_lines: dict, old_units: dict, catalog: Catalog,
                       width: int) -> bytes:
    """The updated catalog, unchanged units copied from ``old_text`` and the rest written by Babel."""
    new_text = render_catalog(catalog, width=width, include_previous=False).decode(catalog.charset)
    new_blocks = [b[2] for b in _blocks(new_text)]
    old_blocks = _blocks(old_text)
    keys = ["header"] + [("live", m.context, m.id if isinstance(m.id, str) else tuple(m.id))
                         for m in catalog if m.id]
    keys += [("obsolete", m.context, m.id if isinstance(m.id, str) else tuple(m.id))
             for m in catalog.obsolete.values()]
    new_units = _units(catalog)
    messages = {("live", m.context, m.id if isinstance(m.id, str) else tuple(m.id)): m
                for m in catalog if m.id}
    if len(keys) != len(new_blocks):
        return new_text.encode(catalog.charset)
    used = set()
    out = []
    for key, block in zip(keys, new_blocks):
        if key == "header":
            index = _block_at(old_blocks, old_lines.get("header", 0))
            if index is None:
                out.append(block)
                continue
            used.update(range(index + 1))
            # Comment blocks above the header (separated by a blank line) belong to it.
            text = "\n\n".join(b[2] for b in old_blocks[:index + 1])
            date = catalog.creation_date.strftime("%Y-%m-%d %H:%M%z")
            out.append(re.sub(r'^"POT-Creation-Date: [^"\\]*', f'"POT-Creation-Date: {date}',
                              text, count=1, flags=re.M))
            continue
        index = _block_at(old_blocks, old_lines.get(key, 0))
        if index is not None and index not in used and old_units.get(key) == new_units.get(key):
            used.add(index)
            out.append(old_blocks[index][2])
        else:
            out.append(_with_previous(block, messages.get(key), width))
    return ("\n\n".join(out) + "\n").encode(catalog.charset)


def update_catalog(po_path: Path, pot_catalog: Catalog, *, fuzzy_matching: bool = True,
                   width: int | None = None) -> bool:
    """Merge ``pot_catalog`` into the PO file ``po_path`` (Babel's ``Catalog.update``).

    Units new in the template are added (fuzzy-matched to a close old msgid when one exists, with
    the old msgid kept as ``#| msgid``); units gone from it become obsolete (``#~``). The file is
    rewritten, atomically, only when a unit changed; a changed ``POT-Creation-Date`` alone does
    not count. Unchanged units keep their exact text; changed ones are wrapped at ``width``
    (default: the width the file was written with).

    Returns:
        ``True`` when the file was rewritten.

    Raises:
        CatalogError: the PO file cannot be read, parsed or written.
    """
    po_path = Path(po_path)
    catalog = read_catalog(po_path)
    old_text = po_path.read_bytes().decode(catalog.charset, errors="replace")
    old_units = _units(catalog)
    old_lines = {("live", m.context, m.id if isinstance(m.id, str) else tuple(m.id)): m.lineno
                 for m in catalog if m.id}
    old_lines.update({("obsolete", m.context, m.id if isinstance(m.id, str) else tuple(m.id)): m.lineno
                      for m in catalog.obsolete.values()})
    header = re.search(r'^msgid ""\s*$', old_text, flags=re.M)
    old_lines["header"] = old_text.count("\n", 0, header.start()) + 1 if header else 0

    previous = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)): m.previous_id
                for m in catalog if m.id and m.previous_id}
    catalog.update(pot_catalog, no_fuzzy_matching=not fuzzy_matching, update_header_comment=False,
                   keep_user_comments=True, update_creation_date=True)
    scrub_flags(catalog)
    # Babel forgets the old msgid of a unit that stays fuzzy; msgmerge keeps it, and so do we.
    for message in catalog:
        key = (message.context, message.id if isinstance(message.id, str) else tuple(message.id))
        if message.id and message.fuzzy and not message.previous_id and key in previous:
            message.previous_id = list(previous[key])
    if _units(catalog) == old_units:
        return False
    data = _render_small_diff(old_text, old_lines, old_units, catalog,
                              width if width is not None else detect_width(old_text))
    write_atomic(po_path, data)
    return True


def update_catalogs(pot_path: Path, catalog_dir: Path, domain: str = "help") -> dict[Path, bool]:
    """Merge the POT file ``pot_path`` into every catalog :func:`find_catalogs` finds.

    Returns:
        For each PO file, whether it was rewritten, in language order.

    Raises:
        CatalogError: the POT or a PO file cannot be read or written.
    """
    template = read_catalog(Path(pot_path))
    return {path: update_catalog(path, template) for path in find_catalogs(catalog_dir, domain).values()}
