"""The per-language term glossary (``locales/<lang>/glossary.tbx``): reading, writing and inferring it.

Files are TBX-Basic (ISO 30042:2008 TBX-Basic dialect: ``martif type="TBX-Basic"`` root, ``termEntry``,
``langSet xml:lang``, ``tig``, ``term``); TBX 2019 core files (``tbx`` root, ``conceptEntry``,
``langSec``, ``termSec``) are read too. The first term of a language is its preferred term.
"""

from __future__ import annotations

import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ..errors import CatalogError

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_TBX_NS = "urn:iso:std:iso:30042:ed-2"
_STATUS = {"preferred": "preferredTerm-admn-sts", "admitted": "admittedTerm-admn-sts",
           "deprecated": "deprecatedTerm-admn-sts"}
_STATUS_BACK = {v: k for k, v in _STATUS.items()}


@dataclass(frozen=True, slots=True)
class GlossaryTerm:
    """One term of a concept in one language; ``status`` is ``preferred``, ``admitted`` or ``deprecated``."""

    lang: str
    text: str
    status: str = "preferred"


@dataclass(frozen=True, slots=True)
class Concept:
    """One concept: ``id`` (``"foundation"``), optional English ``definition``, and its terms in every
    language (English included, as ``lang="en"``), preferred first within a language."""

    id: str
    terms: tuple[GlossaryTerm, ...]
    definition: str | None = None

    def preferred(self, lang: str) -> str | None:
        """The preferred term in ``lang`` (first non-deprecated one), or ``None``."""
        for term in self.terms:
            if term.lang == lang and term.status != "deprecated":
                return term.text
        return None

    def in_lang(self, lang: str) -> tuple[GlossaryTerm, ...]:
        """Every term of ``lang``, in file order."""
        return tuple(t for t in self.terms if t.lang == lang)


def _local(tag: object) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def read_tbx(path: Path) -> list[Concept]:
    """Read a TBX-Basic (``martif``) or TBX 2019 (``tbx``) file into concepts, in file order.

    Raises:
        CatalogError: the file is not well-formed XML or has no TBX root (names file and line).
    """
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.parse(str(path), parser).getroot()
    except etree.XMLSyntaxError as exc:
        raise CatalogError(f"glossary is not well-formed XML: {exc.msg}", path, exc.lineno) from None
    except OSError:
        raise CatalogError("cannot read glossary", path) from None
    if _local(root.tag) not in ("martif", "tbx"):
        raise CatalogError(f"glossary root is <{_local(root.tag)}>, not <martif> or <tbx>", path,
                           root.sourceline)
    concepts = []
    for entry in root.iter():
        if _local(entry.tag) not in ("termEntry", "conceptEntry"):
            continue
        cid = entry.get("id") or f"c{len(concepts) + 1}"
        definition = None
        terms = []
        for node in entry.iter():
            name = _local(node.tag)
            if name == "descrip" and node.get("type") == "definition" and definition is None:
                definition = (node.text or "").strip() or None
            if name not in ("langSet", "langSec"):
                continue
            lang = node.get(XML_LANG) or node.get("lang")
            if not lang:
                raise CatalogError(f"<{name}> without xml:lang in concept {cid!r}", path, node.sourceline)
            for tig in node:
                if _local(tig.tag) not in ("tig", "termSec", "ntig"):
                    continue
                text, status = None, "preferred"
                for child in tig.iter():
                    if _local(child.tag) == "term" and text is None:
                        text = " ".join("".join(child.itertext()).split())
                    if _local(child.tag) == "termNote" and child.get("type") == "administrativeStatus":
                        status = _STATUS_BACK.get((child.text or "").strip(), status)
                if text:
                    terms.append(GlossaryTerm(lang, text, status))
        concepts.append(Concept(cid, tuple(terms), definition))
    return concepts


def tbx_bytes(concepts: list[Concept], *, note: str | None = None) -> bytes:
    """The concepts as a TBX-Basic document (UTF-8 bytes with XML declaration)."""
    root = etree.Element("martif", {"type": "TBX-Basic", XML_LANG: "en"})
    header = etree.SubElement(root, "martifHeader")
    file_desc = etree.SubElement(header, "fileDesc")
    source = etree.SubElement(file_desc, "sourceDesc")
    etree.SubElement(source, "p").text = note or "Patience Book term glossary"
    body = etree.SubElement(etree.SubElement(root, "text"), "body")
    for concept in concepts:
        entry = etree.SubElement(body, "termEntry", id=concept.id)
        if concept.definition:
            etree.SubElement(entry, "descrip", type="definition").text = concept.definition
        langs = list(dict.fromkeys(t.lang for t in concept.terms))
        for lang in langs:
            lang_set = etree.SubElement(entry, "langSet", {XML_LANG: lang})
            for term in concept.in_lang(lang):
                tig = etree.SubElement(lang_set, "tig")
                etree.SubElement(tig, "term").text = term.text
                etree.SubElement(tig, "termNote", type="administrativeStatus").text = _STATUS[term.status]
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


def write_tbx(path: Path, concepts: list[Concept], *, force: bool = False, note: str | None = None) -> None:
    """Write the concepts to ``path`` atomically (temporary file then rename).

    Raises:
        CatalogError: ``path`` exists and ``force`` is false.
    """
    path = Path(path)
    if path.exists() and not force:
        raise CatalogError("glossary exists already; edit it, or pass --force to replace it", path)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = tbx_bytes(concepts, note=note)
    fd, tmp = tempfile.mkstemp(prefix=".glossary-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_TAG = re.compile(r"<[^<>]*>")


def plain_message(text: str) -> str:
    """A message's text without its inline markup, white space collapsed."""
    return " ".join(_TAG.sub("", text).split())


def _concept_id(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "concept"


def source_terms(document) -> list[tuple[str, str]]:
    """English terms of the document as ``(msgid, plain label)``: first cells of table rows
    (``row/entry``, the Setup tables) then definition terms (``varlistentry/term``), first use order.

    Labels longer than four words are sentences, not terms, and are left out.
    """
    rows, defs = {}, {}
    for segment in document.segments:
        element = segment.element
        if element is None:
            continue
        name = _local(element.tag)
        if name not in ("entry", "term"):
            continue  # only a table cell or a defined term can be a term
        parent = element.getparent()
        pname = _local(parent.tag) if parent is not None else ""
        label = plain_message(segment.msgid)
        if not label or len(label.split()) > 4:
            continue
        if name == "entry" and pname == "row":
            first = next((c for c in parent if _local(c.tag) == "entry"), None)
            if first is element:
                rows.setdefault(segment.msgid, label)
        elif name == "term" and pname == "varlistentry":
            defs.setdefault(segment.msgid, label)
    out = list(rows.items())
    out += [(m, l) for m, l in defs.items() if m not in rows and l.lower() not in
            {x.lower() for x in rows.values()}]
    return out


def infer_glossary(document, translations: dict[str, dict[str, str]]) -> list[Concept]:
    """Concepts inferred from the document's terms and their translations.

    Args:
        document: a :class:`~patiencebook.generator.docbook.document.Document`.
        translations: ``{lang: {msgid: msgstr}}`` of confirmed translations.

    Returns:
        one concept per distinct English label (id from the label, ``"type-of-deck"``), with the
        English term and each language's msgstr (markup removed) as preferred terms.
    """
    from .lexicon import tokens

    concepts: dict[str, Concept] = {}
    seen: set[tuple[str, ...]] = set()
    for msgid, label in source_terms(document):
        # "Foundation" and "Foundations" are one concept: compare English stems.
        key = tuple(tok[3] for tok in tokens(label, "en"))
        if not any(c.isalpha() for c in label) or key in seen:
            continue
        seen.add(key)
        cid = _concept_id(label)
        terms = [GlossaryTerm("en", label)]
        for lang, strings in translations.items():
            # "Κλειστό (με την όψη προς τα κάτω)": the term comes first, the bracket explains it.
            text = re.sub(r"\s*\([^()]*\)", "", plain_message(strings.get(msgid) or ""))
            text = text.strip().strip("\"'„“”‚‘’«»").strip()
            if text:
                terms.append(GlossaryTerm(lang, text))
        concepts[cid] = Concept(cid, tuple(terms))
    return list(concepts.values())


def glossary_path(catalogs: Path, lang: str) -> Path:
    """Where the glossary of ``lang`` lives: ``<catalogs>/<lang>/glossary.tbx``."""
    return Path(catalogs) / lang / "glossary.tbx"


def write_glossaries(sources: Path, catalogs: Path, langs=None, *, force: bool = False) -> list[Path]:
    """Infer and write ``<catalogs>/<lang>/glossary.tbx`` for each language (all catalogs, or ``langs``).

    Every glossary is checked before any is written, so an existing file stops the whole run.

    Raises:
        CatalogError: a glossary exists (without ``force``) or a catalog cannot be read.
        LanguageError: a language in ``langs`` has no catalog.
    """
    from ..catalogs import find_catalogs, read_catalog
    from ..errors import LanguageError
    from ..docbook.sources import load_document

    found = find_catalogs(catalogs)  # a CatalogFolder keeps its domain and what it found
    for lang in langs or ():
        if lang not in found:
            raise LanguageError(f"no catalog for language '{lang}' in the catalogs folder", catalogs)
    chosen = list(dict.fromkeys(langs)) if langs else sorted(found)
    targets = {lang: glossary_path(catalogs, lang) for lang in chosen}
    for path in targets.values():
        if path.exists() and not force:
            raise CatalogError("glossary exists already; edit it, or pass --force to replace it", path)
    document = load_document(Path(sources))
    written = []
    for lang, path in targets.items():
        catalog = read_catalog(found[lang])
        strings = {}
        for message in catalog:
            if message.id and not message.fuzzy and isinstance(message.id, str) and message.string:
                strings[message.id] = message.string
        concepts = infer_glossary(document, {lang: strings})
        write_tbx(path, concepts, force=force,
                  note=f"Terms of the {lang} translation, inferred from the term labels; edit freely.")
        written.append(path)
    return written


__all__ = ["Concept", "GlossaryTerm", "glossary_path", "infer_glossary", "plain_message", "read_tbx", "source_terms",
           "tbx_bytes", "write_glossaries", "write_tbx"]
