"""What a translator check reports: one finding per problem, with where it is and how bad it is."""

from __future__ import annotations

from dataclasses import dataclass, field

#: Severities, most serious first. ``error`` makes ``patiencebook check`` exit non-zero.
SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True, slots=True)
class Span:
    """A stretch of a message: ``text[start:end]`` of the msgid or msgstr (character offsets)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem in one message of one language.

    Attributes:
        lang: gettext code of the catalog (``"de"``).
        file: the source file name the message comes from (``"hamilton.xml"``); for a message
            shared by several pages, the first, with the others in ``pages``.
        line: 1-based line of the block in ``file`` (from the catalog's ``#:`` reference).
        msgid: the English message.
        check: the check's name (``"number"``, ``"rank"``, ``"pile"``, ``"suit-colour"``,
            ``"direction"``, ``"face"``, ``"redeal"``, ``"at-a-time"``, ``"side"``,
            ``"comparator"``, ``"untranslated"``, ``"fuzzy"``, ``"obsolete"``, ``"stale"``,
            ``"markup"``, ``"terminology"``, ...).
        severity: one of :data:`SEVERITIES`.
        message: what is wrong, one sentence for the translator.
        source: the source span the finding is about, or ``None``.
        translation: the translation span, or ``None``.
        pages: every source file that uses the message (``("agnes.xml", "hamilton.xml")``).
        po_line: line of the unit in the catalog, or ``None``.
        confidence: how sure the check is that this is a real problem, from 0 to 1. Catalog
            health, markup and source-against-model findings are certain (1.0); a rule-fact
            finding's severity follows from its confidence (see ``statements.severity_of``).
    """

    lang: str
    file: str
    line: int | None
    msgid: str
    check: str
    severity: str
    message: str
    source: Span | None = None
    translation: Span | None = None
    pages: tuple[str, ...] = field(default=())
    po_line: int | None = None
    confidence: float = 1.0

    def to_dict(self) -> dict:
        """A JSON-ready dict with at least lang, file, line, msgid, check, severity, confidence and message."""
        out = {"lang": self.lang, "file": self.file, "line": self.line, "msgid": self.msgid,
               "check": self.check, "severity": self.severity, "message": self.message,
               "pages": list(self.pages or (self.file,)), "po_line": self.po_line,
               "confidence": self.confidence}
        for name in ("source", "translation"):
            span = getattr(self, name)
            out[name] = None if span is None else {"start": span.start, "end": span.end, "text": span.text}
        return out
