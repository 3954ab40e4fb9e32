"""Catalog health: untranslated, fuzzy, obsolete and stale units, and gettext validity of a catalog.

Staleness is found by merging the catalog with a fresh POT in memory (Babel's ``Catalog.update``,
as ``patiencebook update`` would) without writing anything.
"""

from __future__ import annotations

import difflib
import gettext
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from patiencebook.generator.check.findings import Span

#: ``# check: skip=number,rank why...`` on a unit silences the named checks for that unit.
SKIP_COMMENT = re.compile(r"^\s*check:\s*skip=([\w,*-]+)(?:\s+(.*))?$")


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding before it is placed in the sources: what is wrong with which unit.

    ``locations`` are the unit's ``#:`` references (``("C/agnes.xml", 12)``), used only when the
    msgid is no longer in the sources; ``po_line`` is the line of the unit's msgid in the catalog;
    ``confidence`` (0 to 1) how sure the check is that this is a real problem.
    """

    msgid: str
    check: str
    severity: str
    message: str
    source: Span | None = None
    translation: Span | None = None
    po_line: int | None = None
    locations: tuple[tuple[str, int | None], ...] = ()
    context: str | None = None
    confidence: float = 1.0


def skipped_checks(message: Message) -> set[str]:
    """The check names a unit's translator comments silence (``# check: skip=number,rank reason``).

    Several names are separated by commas, without spaces; the rest of the line is the reason.
    ``skip=*`` silences every check of the unit. A name silences its family as well
    (``model`` silences ``model-pile``); see :func:`check_matches`.
    """
    names: set[str] = set()
    for comment in message.user_comments:
        match = SKIP_COMMENT.match(comment)
        if match:
            names.update(n for n in match.group(1).split(",") if n)
    return names


def check_matches(check: str, names) -> bool:
    """Whether ``check`` is one of ``names``: equal, ``*``, or a family (``model`` for ``model-pile``)."""
    return any(name == "*" or check == name or check.startswith(name + "-") for name in names)


def _text(msgid: str) -> str:
    return " ".join(re.sub(r"<[^>]*>", "", msgid).split())


_DATA = Path(__file__).resolve().parent.parent / "data" / "check" / "english.json"


@lru_cache(maxsize=1)
def english_words() -> dict:
    """The English word tables the checks read (``generator/data/check/english.json``):
    ``numbers`` (word to value), ``roles`` (word to pile role), ``matches`` and ``directions``
    (build phrases to rules-block values)."""
    return json.loads(_DATA.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _number_pattern() -> re.Pattern:
    words = [w for w, v in english_words()["numbers"].items() if v and " " not in w and not w.endswith("ce")]
    return re.compile(r"\b(?:\d+(?:\.\d+)*|" + "|".join(sorted(words, key=len, reverse=True)) + r")\b", re.I)


def describe_change(old: str, new: str, limit: int = 3) -> str:
    """The change from ``old`` to ``new`` English as facts: ``"16 became 8; 'up' became 'down'"``.

    Numbers are compared first (each differing number in order); then words, from a word diff
    of the texts without markup. At most ``limit`` changes are named; ``""`` when the texts only
    differ in markup or spacing.
    """
    old_text, new_text = _text(old), _text(new)
    changes = []
    number = _number_pattern()
    old_numbers, new_numbers = number.findall(old_text), number.findall(new_text)
    words = english_words()["numbers"]

    def value(word: str) -> int | str:
        if word[0].isdigit():
            return int(word) if word.isdigit() else word  # a version number like 3.2 stays text
        return words[word.lower()]

    if [value(a) for a in old_numbers] != [value(b) for b in new_numbers]:
        for a, b in zip(old_numbers, new_numbers):
            if value(a) != value(b):
                changes.append(f"{a} became {b}")
        for a in old_numbers[len(new_numbers):]:
            changes.append(f"{a} was removed")
        for b in new_numbers[len(old_numbers):]:
            changes.append(f"{b} was added")
    old_words, new_words = old_text.split(), new_text.split()
    matcher = difflib.SequenceMatcher(a=old_words, b=new_words, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        before, after = " ".join(old_words[a1:a2]), " ".join(new_words[b1:b2])
        if number.fullmatch(before.strip(".,;:")) and number.fullmatch(after.strip(".,;:")):
            continue  # already named as a number
        if op == "replace":
            changes.append(f"'{before}' became '{after}'")
        elif op == "delete":
            changes.append(f"'{before}' was removed")
        elif op == "insert":
            changes.append(f"'{after}' was added")
    if not changes:
        return ""
    more = len(changes) - limit
    return "; ".join(changes[:limit]) + (f"; and {more} more change{'s' if more > 1 else ''}" if more > 0 else "")


def _key(message: Message):
    return (message.context, message.id if isinstance(message.id, str) else tuple(message.id))


def _merge_key(message: Message):
    """The key a merge matches units by: the singular msgid, with the msgctxt when there is one
    (as Babel's Catalog keys them)."""
    return _singular(message) if message.context is None else (_singular(message), message.context)


def _singular(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def _is_empty(message: Message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return not any(strings)


@lru_cache(maxsize=65536)
def _words(text: str) -> tuple[str, ...]:
    # Cached: every changed unit is compared with every translated msgid of its catalog.
    return tuple(re.findall(r"<[^>]*>|\w+|[^\w\s]", text.lower()))


@lru_cache(maxsize=65536)
def _numbered(words: tuple[str, ...]) -> frozenset[str]:
    """The multiset ``words`` as a set: a word's first occurrence as itself, its 2nd, 3rd, ... with
    the count after a NUL (which no word holds), so that the size of two such sets' intersection is
    how many words the two share, counted as :meth:`difflib.SequenceMatcher.quick_ratio` counts
    them (worked out in C, not word by word)."""
    seen: dict[str, int] = {}
    out = []
    for word in words:
        n = seen[word] = seen.get(word, 0) + 1
        out.append(word if n == 1 else f"{word}\0{n}")
    return frozenset(out)


def closest_translated(message: Message, candidates: list[Message], cutoff: float = 0.6) -> Message | None:
    """The translated unit among ``candidates`` whose msgid is closest to ``message``'s, or ``None``.

    Closeness is :class:`difflib.SequenceMatcher`'s ratio over words, tags and punctuation of the
    lower-cased msgids (same msgctxt only); the best ratio of at least ``cutoff`` wins, the first
    such unit on a tie. This is how ``msgmerge`` and Babel pick the old translation of a changed
    message, done on words rather than characters for speed.
    """
    return _closest(message, _prepared(candidates), cutoff)


def _prepared(candidates: list[Message]) -> list[tuple]:
    """``(unit, msgctxt, words, word count, numbered words)`` of each candidate (see
    :func:`_numbered`), read once for all the units a catalog's changed messages are compared with."""
    out = []
    for candidate in candidates:
        words = _words(_singular(candidate))
        out.append((candidate, candidate.context, words, len(words), _numbered(words)))
    return out


def _closest(message: Message, prepared: list[tuple], cutoff: float = 0.6) -> Message | None:
    target = _words(_singular(message))
    size = len(target)
    numbered = _numbered(target)
    context = message.context
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(target)
    best, best_ratio = None, cutoff
    for candidate, their_context, words, n, their_numbered in prepared:
        if their_context != context:
            continue
        total = n + size
        if total == 0 or 2 * (n if n < size else size) / total < best_ratio:
            continue  # the length alone rules it out (SequenceMatcher.real_quick_ratio)
        # SequenceMatcher.quick_ratio: the words the two share, each as often as both have it.
        if 2 * len(numbered & their_numbered) / total < best_ratio:
            continue
        matcher.set_seq1(words)
        ratio = matcher.ratio()
        if ratio > best_ratio or (best is None and ratio >= best_ratio):
            best, best_ratio = candidate, ratio
    return best


def check_units(catalog: Catalog, pot: Catalog) -> list[Problem]:
    """Untranslated, fuzzy, obsolete and stale units of ``catalog`` against the template ``pot``.

    * ``untranslated`` (warning): a template unit missing from the catalog or with an empty msgstr;
    * ``fuzzy`` (warning): a unit marked fuzzy, with the English change when ``#|`` keeps the old msgid;
    * ``obsolete`` (info): a ``#~`` unit of the catalog;
    * ``stale`` (warning): a translated unit whose English changed since translation — merging
      ``pot`` in memory matches it to a new msgid — with the change as facts; (info): a translated
      unit whose msgid is gone from the sources, which the next update makes obsolete.

    ``catalog`` is not changed. The header unit is never reported.
    """
    problems: list[Problem] = []
    for message in catalog:
        if not message.id:
            continue
        locations = tuple(message.locations)
        if message.fuzzy and not _is_empty(message):
            change = describe_change(message.previous_id[0], _singular(message)) if message.previous_id else ""
            text = "the unit is marked fuzzy: its translation is not used until a translator confirms it"
            if change:
                text += f" (the English changed: {change})"
            problems.append(Problem(_singular(message), "fuzzy", "warning", text, po_line=message.lineno,
                                    locations=locations, context=message.context))
    for message in catalog.obsolete.values():
        problems.append(Problem(_singular(message), "obsolete", "info",
                                "obsolete unit (#~): its English is no longer in the sources",
                                po_line=message.lineno, locations=tuple(message.locations),
                                context=message.context))

    # What merging ``pot`` into the catalog (msgmerge, Babel's Catalog.update) would make of each
    # unit, worked out without building the merged catalog: a template unit keeps the translation
    # of the catalog's unit with the same msgctxt and msgid, or is new; a catalog unit whose msgid
    # (singular, with its msgctxt) the template lacks becomes obsolete. Babel's own fuzzy matching
    # compares characters and takes seconds per catalog of AisleRiot's size; matching by words
    # (closest_translated) finds the same old units in a fraction of that.
    template_keys = {_merge_key(m) for m in pot if m.id}
    original = {_key(m): m for m in catalog if m.id}
    candidates = _prepared([m for m in catalog if m.id and not _is_empty(m)])
    matched = set()
    for message in pot:
        if not message.id:
            continue
        old = original.get(_key(message))
        if old is not None:
            if _is_empty(old):
                problems.append(Problem(_singular(message), "untranslated", "warning", "the msgstr is empty",
                                        po_line=old.lineno, context=message.context))
            continue
        was = _closest(message, candidates)
        if was is not None:
            matched.add(_key(was))
            change = describe_change(_singular(was), _singular(message))
            text = "the English changed since this was translated"
            text += f": {change}" if change else " (markup or spacing only)"
            problems.append(Problem(_singular(message), "stale", "warning", text, po_line=was.lineno,
                                    context=message.context))
        else:
            problems.append(Problem(_singular(message), "untranslated", "warning",
                                    "no translation: the unit is not in the catalog yet", context=message.context))
    gone = {}
    for message in catalog:
        if message.id and _merge_key(message) not in template_keys:
            gone[_merge_key(message)] = message  # the last of a key, as the merge keeps it
    for key, message in gone.items():
        old = original.get(_key(message))
        if key in catalog.obsolete or old is None or _is_empty(old) or _key(old) in matched:
            continue
        problems.append(Problem(_singular(message), "stale", "info",
                                "the English of this unit is gone from the sources; the next update makes it obsolete",
                                po_line=old.lineno, locations=tuple(old.locations), context=message.context))
    return problems


def _header_text(raw: str) -> tuple[str, int]:
    """The header msgstr of a PO file's text, unescaped lines joined, and the line of its ``msgid ""``."""
    match = re.search(r'^msgid ""\s*\nmsgstr ((?:"(?:[^"\\]|\\.)*"\s*\n?)+)', raw, flags=re.M)
    if not match:
        return "", 0
    body = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1)))
    return body.replace("\\n", "\n").replace('\\"', '"'), raw.count("\n", 0, match.start()) + 1


def plural_forms(value: str) -> tuple[int, str] | str:
    """``(nplurals, plural expression)`` of a ``Plural-Forms`` value, or why it is not sane.

    Sane means: both parts given, ``nplurals`` at least 1, the expression a C expression in ``n``
    (compiled with :func:`gettext.c2py`, the standard library's reader of it) whose value for
    n = 0..1000 always lies in 0..nplurals-1.
    """
    match = re.fullmatch(r"\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*(.+?)\s*;?\s*", value)
    if not match:
        return "is not 'nplurals=N; plural=EXPRESSION;'"
    count, expression = int(match.group(1)), match.group(2)
    if count < 1:
        return "gives nplurals=0"
    try:
        rule = gettext.c2py(expression)
        values = {int(rule(n)) for n in range(1001)}
    except (ValueError, SyntaxError, ZeroDivisionError, RecursionError):
        return f"has a plural expression that cannot be read: {expression}"
    bad = sorted(v for v in values if not 0 <= v < count)
    if bad:
        return f"has a plural expression giving form {bad[0]}, but nplurals={count}"
    return count, expression


def check_gettext(path: Path, catalog: Catalog) -> list[Problem]:
    """msgfmt-like validity of a catalog (check ``gettext``, all ``error`` unless said otherwise).

    * the header states ``Content-Type: text/plain; charset=...`` with a real charset;
    * ``Plural-Forms`` is sane (:func:`plural_forms`); missing is a ``warning``, or an error when
      the catalog has plural units;
    * every translated plural unit has nplurals non-empty msgstrs (Babel's ``num_plurals`` rule;
      more msgstrs than nplurals already fail reading, as a :class:`CatalogError`);
    * a msgstr begins and ends with a newline exactly when its msgid does (``msgfmt -c``).
    """
    raw = Path(path).read_bytes().decode(catalog.charset or "utf-8", errors="replace")
    header, header_line = _header_text(raw)
    fields = {}
    for line in header.split("\n"):
        name, sep, value = line.partition(":")
        if sep:
            fields[name.strip().lower()] = value.strip()
    problems = []

    def header_problem(text: str, severity: str = "error") -> None:
        problems.append(Problem("", "gettext", severity, text, po_line=header_line or None))

    content_type = fields.get("content-type")
    charset = re.search(r"charset=([^\s;]+)", content_type or "")
    if content_type is None:
        header_problem("the header has no Content-Type")
    elif charset is None or charset.group(1).upper() == "CHARSET":
        header_problem(f"the header's Content-Type names no charset: '{content_type}'")
    has_plurals = any(m.id and m.pluralizable for m in catalog)
    nplurals = None
    value = fields.get("plural-forms")
    if value is None:
        header_problem("the header has no Plural-Forms", "error" if has_plurals else "warning")
    else:
        result = plural_forms(value)
        if isinstance(result, str):
            header_problem(f"the header's Plural-Forms {result}")
        else:
            nplurals = result[0]
    for message in catalog:
        if not message.id or _is_empty(message):
            continue
        if message.pluralizable and nplurals is not None:
            # Babel's reader pads a unit to nplurals msgstrs, so a missing form shows as empty.
            strings = list(message.string)
            given = sum(1 for s in strings if s)
            if given != nplurals:
                problems.append(Problem(_singular(message), "gettext", "error",
                                        f"the unit has {given} plural msgstrs; Plural-Forms says {nplurals}",
                                        po_line=message.lineno, context=message.context))
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        for edge, test in (("begin", str.startswith), ("end", str.endswith)):
            if any(test(s, "\n") != test(ids[0], "\n") for s in strings if s):
                problems.append(Problem(_singular(message), "gettext", "error",
                                        f"the msgid and msgstr do not both {edge} with a newline",
                                        po_line=message.lineno, context=message.context))
    return problems


__all__ = ["Problem", "SKIP_COMMENT", "check_gettext", "check_matches", "check_units", "describe_change",
           "plural_forms", "skipped_checks"]
