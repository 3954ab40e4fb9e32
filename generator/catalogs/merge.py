"""Merging a POT into catalogs (as msgmerge does), rewriting a PO file only when one of its units
changed and copying every unchanged unit byte for byte, so that diffs stay small; the fuzzy
guesses a merge makes are reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import normalize

from patiencebook.generator.catalogs.discovery import CatalogFolder, find_catalogs
from patiencebook.generator.catalogs.pofile import read_catalog, scrub_flags
from patiencebook.generator.catalogs.pot import DEFAULT_WIDTH, render_catalog, write_atomic

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


__all__ = ["CatalogUpdate", "FuzzyGuess", "detect_width", "merge_catalog", "merge_catalogs", "update_catalog",
           "update_catalogs"]
