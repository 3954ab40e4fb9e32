"""Markup check: a msgstr must carry the same inline tags as its msgid, and nothing else.

A translation is pasted into the page as XML, so a tag or attribute the English lacks (a
``<script>``, an ``onclick=``, a ``javascript:`` link) would reach the reader; that is an error.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lxml import etree

from patiencebook.generator.check.findings import Span
from patiencebook.generator.docbook.segment import NS_PLACEHOLDER

_NAME = r"[A-Za-z_][\w.:-]*"
_ATTR = re.compile(rf"({_NAME})\s*=\s*(\"[^\"]*\"|'[^']*')")
_TAG = re.compile(rf"<(/?)({_NAME})((?:\s+{_NAME}\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>")
_ENTITY = re.compile(r"&([A-Za-z_][\w.-]*);")
_XML_ENTITIES = {"lt", "gt", "amp", "quot", "apos"}

#: The check name of every finding of this module.
CHECK = "markup"


@dataclass(frozen=True, slots=True)
class Tag:
    """One tag of a message: ``kind`` is ``"start"``, ``"end"`` or ``"empty"``; ``attrs`` in order."""

    kind: str
    name: str
    attrs: tuple[tuple[str, str], ...]
    start: int
    end: int
    text: str

    @property
    def shape(self) -> tuple:
        """What must be equal between msgid and msgstr: kind, name and attributes."""
        return (self.kind, self.name, self.attrs)


def tags_of(text: str) -> list[Tag]:
    """The tags of a message in order, with their character offsets in ``text``."""
    out = []
    for match in _TAG.finditer(text):
        attrs = tuple((m.group(1), m.group(2)[1:-1]) for m in _ATTR.finditer(match.group(3)))
        kind = "end" if match.group(1) else ("empty" if match.group(4) else "start")
        out.append(Tag(kind, match.group(2), attrs, match.start(), match.end(), match.group(0)))
    return out


def _span(text: str, tag: Tag) -> Span:
    return Span(tag.start, tag.end, tag.text)


def _well_formed(msgid: str, msgstr: str) -> str | None:
    """Why ``msgstr`` is not well-formed XML content, or ``None`` when it is.

    Prefixes used in the msgid are declared (``_`` as itstool's placeholder namespace), and
    entities the msgid uses are defined, so only what the translation adds can fail.
    """
    prefixes = {t.name.split(":", 1)[0] for t in tags_of(msgid) if ":" in t.name}
    prefixes.add("_")
    decls = "".join(f' xmlns:{p}="{NS_PLACEHOLDER if p == "_" else "urn:x-prefix:" + p}"'
                    for p in sorted(prefixes) if p != "xml")
    known = set(_ENTITY.findall(msgid)) - _XML_ENTITIES
    unknown = [name for name in _ENTITY.findall(msgstr) if name not in known | _XML_ENTITIES]
    if unknown:
        return f"uses the entity &{unknown[0]}; that the English does not use"
    body = _ENTITY.sub(lambda m: "x" if m.group(1) in known else m.group(0), msgstr)
    try:
        etree.fromstring(f"<msgstr{decls}>{body}</msgstr>".encode("utf-8"),
                         etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    except etree.XMLSyntaxError as error:
        message = re.sub(r", line \d+, column \d+$", "", (error.msg or "syntax error").strip())
        return f"is not well-formed XML: {message}"
    return None


def _danger(tag: Tag, name: str, value: str) -> str | None:
    if name.lower().startswith("on"):
        return f"adds the event handler {name}= to <{tag.name}>"
    if re.match(r"\s*(javascript|vbscript|data):", value, flags=re.I):
        return f"makes {name}= of <{tag.name}> a {value.strip().split(':', 1)[0].lower()}: URL"
    return None


def check_markup(msgid: str, msgstr: str) -> list[tuple[str, str, str, Span | None, Span | None]]:
    """Compare the inline markup of a translation with its English message.

    Rules (each an ``error`` unless said otherwise):

    * the msgstr is well-formed XML content (with the msgid's prefixes, itstool's ``_:`` among
      them, declared); when it is not, that is the only finding;
    * a tag whose name the msgid lacks (``<script>``), or an attribute the msgid's tag of that
      name lacks (``onclick=``), or an attribute value that differs (a changed ``url``) is an error,
      named as an event handler or ``javascript:`` URL when it is one;
    * a tag of the msgid missing from the msgstr (a dropped ``<_:xref-1/>``) is an error;
    * the same tags in another order is a ``warning``: word order may move an inline element,
      which is often right, so it is for the translator to confirm.

    Returns:
        ``(check, severity, message, source span, translation span)`` tuples, check ``"markup"``.
    """
    if not msgstr or ("<" not in msgid and "<" not in msgstr and "&" not in msgstr):
        return []
    out = []
    problem = _well_formed(msgid, msgstr)
    if problem:
        return [(CHECK, "error", f"the translation {problem}", None, None)]
    source = tags_of(msgid)
    target = tags_of(msgstr)
    source_by_name: dict[str, list[Tag]] = {}
    for tag in source:
        source_by_name.setdefault(tag.name, []).append(tag)
    reported = set()
    for tag in target:
        if tag.kind == "end":
            continue
        if tag.name not in source_by_name:
            out.append((CHECK, "error", f"the translation adds the tag <{tag.name}>, which the English "
                        "does not have", None, _span(msgstr, tag)))
            reported.add(id(tag))
            continue
        english = next((t for t in source_by_name[tag.name] if t.kind == tag.kind), source_by_name[tag.name][0])
        english_attrs = dict(english.attrs)
        for name, value in tag.attrs:
            danger = _danger(tag, name, value)
            if name not in english_attrs:
                out.append((CHECK, "error", f"the translation {danger or f'adds the attribute {name}= to <{tag.name}>'}"
                            ", which the English does not have", _span(msgid, english), _span(msgstr, tag)))
                reported.add(id(tag))
            elif not any(dict(t.attrs).get(name) == value for t in source_by_name[tag.name]):
                what = danger or f"changes {name}= of <{tag.name}> to '{value}'"
                out.append((CHECK, "error", f"the translation {what}; the English has '{english_attrs[name]}'",
                            _span(msgid, english), _span(msgstr, tag)))
                reported.add(id(tag))
    have = Counter(t.shape for t in target)
    for tag in source:
        if tag.kind == "end":
            continue
        if have[tag.shape] > 0:
            have[tag.shape] -= 1
            continue
        if any(id(t) in reported for t in target if t.name == tag.name):
            continue  # already reported as a changed attribute
        out.append((CHECK, "error", f"the translation lacks the tag {tag.text} of the English",
                    _span(msgid, tag), None))
    if not out and Counter(t.shape for t in source) == Counter(t.shape for t in target):
        opening = [t for t in source if t.kind != "end"]
        moved = [t for t in target if t.kind != "end"]
        if [t.shape for t in opening] != [t.shape for t in moved]:
            first = next(i for i, (a, b) in enumerate(zip(opening, moved)) if a.shape != b.shape)
            out.append((CHECK, "warning", f"the translation has the tags in another order: {moved[first].text} "
                        f"where the English has {opening[first].text}", _span(msgid, opening[first]),
                        _span(msgstr, moved[first])))
    return out


__all__ = ["CHECK", "NS_PLACEHOLDER", "Tag", "check_markup", "tags_of"]
