"""Reading, finding and updating gettext catalogs (PO files) of the help, with Babel.

Reading is strict (a syntax error or an undecodable line is a :class:`CatalogError` with its line);
finding accepts the layouts catalogs folders have (and LINGUAS) and names every file it leaves out;
updating merges a POT into each language's catalog and rewrites a file only when one of its units
changed, copying every unchanged unit byte for byte so that diffs stay small.
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass
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
    from patiencebook.generator.sources import read_bounded

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
    if linguas_path.is_file():
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
                files = sorted(p for p in sub.glob("*.po") if p.is_file()) if sub.is_dir() else []
            except OSError:
                files = []
            for path in files:
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
    from patiencebook.generator.errors import LanguageError
    from patiencebook.generator.languages import get_language

    try:
        base = get_language(code).derived_from
    except LanguageError:
        return False
    return base is not None and base in found


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


@dataclass(frozen=True, slots=True)
class FuzzyGuess:
    """A unit an update marked fuzzy: ``msgid`` (and ``msgctxt``) of the template, at ``line`` (its
    msgid's line in the updated file), with the translation of the old ``previous`` msgid, or
    ``None`` when no old msgid lent it one (a plural unit whose forms no longer fit)."""

    line: int
    msgid: str
    previous: str | None
    msgctxt: str | None = None

    def summary(self, width: int = 60) -> str:
        """One short line: ``fuzzy "Deal three cards" took the translation of "Deal one card"``,
        each msgid cut to ``width`` characters."""
        def cut(text: str) -> str:
            text = " ".join(text.split())
            return repr(text if len(text) <= width else text[:width - 1] + "…")

        if self.previous is None:
            return f"fuzzy {cut(self.msgid)}: its translation no longer fits the plural forms"
        return f"fuzzy {cut(self.msgid)} took the translation of {cut(self.previous)}"


@dataclass(frozen=True, slots=True)
class CatalogUpdate:
    """What :func:`merge_catalog` did to one PO file: whether it was ``changed`` (rewritten) and
    the units it newly marked fuzzy (``guesses``, in file order) for a translator to review."""

    path: Path
    changed: bool
    guesses: tuple[FuzzyGuess, ...] = ()
    lang: str | None = None


def _key(message: Message) -> tuple:
    return (message.context, message.id if isinstance(message.id, str) else tuple(message.id))


def merge_catalog(po_path: Path, pot_catalog: Catalog, *, fuzzy_matching: bool = True, previous: bool = True,
                  width: int | None = None) -> CatalogUpdate:
    """Merge ``pot_catalog`` into the PO file ``po_path`` (Babel's ``Catalog.update``), as msgmerge does.

    Units new in the template are added; with ``fuzzy_matching`` one whose msgid is close to an
    old translated msgid takes that translation, marked fuzzy (msgmerge's fuzzy matching; without
    it a new msgid stays untranslated). Units gone from the template become obsolete (``#~``).
    With ``previous`` a fuzzy unit keeps the msgid its translation was made for as ``#| msgid``
    lines (msgmerge's ``--previous``); without it no unit keeps them. The file is rewritten,
    atomically, only when a unit changed; a changed ``POT-Creation-Date`` alone does not count.
    Unchanged units keep their exact text; changed ones are wrapped at ``width`` (default: the
    width the file was written with).

    Returns:
        A :class:`CatalogUpdate`: whether the file was rewritten, and each unit this merge marked
        fuzzy (one that was fuzzy already with the same msgid is not listed) with the old msgid
        whose translation it took and its line in the written file.

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

    previous_ids = {_key(m): m.previous_id for m in catalog if m.id and m.previous_id}
    was_fuzzy = {_key(m): m.fuzzy for m in catalog if m.id}
    catalog.update(pot_catalog, no_fuzzy_matching=not fuzzy_matching, update_header_comment=False,
                   keep_user_comments=True, update_creation_date=True)
    scrub_flags(catalog)
    # Babel forgets the old msgid of a unit that stays fuzzy; msgmerge keeps it, and so do we.
    for message in catalog:
        key = _key(message)
        if message.id and message.fuzzy and not message.previous_id and key in previous_ids:
            message.previous_id = list(previous_ids[key])
    guessed = [m for m in catalog if m.id and m.fuzzy and not was_fuzzy.get(_key(m), False)]
    guesses = {_key(m): (m.previous_id[0] if m.previous_id else None) for m in guessed}
    if not previous:
        for message in catalog:
            message.previous_id = []
    if _units(catalog) == old_units:
        return CatalogUpdate(po_path, False)
    data = _render_small_diff(old_text, old_lines, old_units, catalog,
                              width if width is not None else detect_width(old_text))
    write_atomic(po_path, data)
    if not guesses:
        return CatalogUpdate(po_path, True)
    written = {_key(m): m.lineno for m in read_catalog(po_path) if m.id}
    found = [FuzzyGuess(written.get(key, 0), _msgid_text(key[1]), old, key[0])
             for key, old in guesses.items()]
    return CatalogUpdate(po_path, True, tuple(sorted(found, key=lambda g: g.line)))


def _msgid_text(msgid: str | tuple) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def update_catalog(po_path: Path, pot_catalog: Catalog, *, fuzzy_matching: bool = True, previous: bool = True,
                   width: int | None = None) -> bool:
    """Merge ``pot_catalog`` into the PO file ``po_path``, as :func:`merge_catalog` does.

    Returns:
        ``True`` when the file was rewritten.

    Raises:
        CatalogError: the PO file cannot be read, parsed or written.
    """
    return merge_catalog(po_path, pot_catalog, fuzzy_matching=fuzzy_matching, previous=previous,
                         width=width).changed


def merge_catalogs(pot_path: Path, catalog_dir: Path | CatalogFolder, domain: str = "help", *,
                   fuzzy_matching: bool = True, previous: bool = True) -> list[CatalogUpdate]:
    """Merge the POT file ``pot_path`` into every catalog of ``domain`` in ``catalog_dir``
    (those :func:`find_catalogs` finds; a :class:`CatalogFolder` gives its own), with
    :func:`merge_catalog`'s options.

    Returns:
        One :class:`CatalogUpdate` per catalog, in language order, each with its ``lang``.

    Raises:
        CatalogError: the POT or a PO file cannot be read or written.
    """
    template = read_catalog(Path(pot_path))
    updates = []
    for lang, path in find_catalogs(catalog_dir, domain).items():
        update = merge_catalog(path, template, fuzzy_matching=fuzzy_matching, previous=previous)
        updates.append(CatalogUpdate(update.path, update.changed, update.guesses, lang))
    return updates


def update_catalogs(pot_path: Path, catalog_dir: Path, domain: str = "help", *, fuzzy_matching: bool = True,
                    previous: bool = True) -> dict[Path, bool]:
    """Merge the POT file ``pot_path`` into every catalog :func:`find_catalogs` finds.

    Returns:
        For each PO file, whether it was rewritten, in language order.

    Raises:
        CatalogError: the POT or a PO file cannot be read or written.
    """
    return {u.path: u.changed for u in merge_catalogs(pot_path, catalog_dir, domain, fuzzy_matching=fuzzy_matching,
                                                      previous=previous)}
