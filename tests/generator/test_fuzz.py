"""Fuzzing the readers and the checker with hypothesis: whatever the bytes, the DocBook reader
raises only SourceError, the PO reader only CatalogError, the checks return findings and never
raise, and a msgstr's markup never gets past what its msgid has."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from patiencebook.generator.catalogs import read_catalog
from patiencebook.generator.check.facts import check_facts
from patiencebook.generator.check.markup import check_markup
from patiencebook.generator.errors import CatalogError, SourceError
from patiencebook.generator.docbook.sources import load_document, parse_xml
from patiencebook.generator.catalogs.translate import parse_msgstr, restrict_markup

DATA = Path(__file__).resolve().parents[1] / "data"
PAGE = (DATA / "site" / "C" / "sultan.xml").read_bytes()
BOOK = (DATA / "site" / "C" / "index.docbook").read_bytes()
PO = (DATA / "site" / "locales" / "de" / "LC_MESSAGES" / "help.po").read_bytes()
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces that make parsers take unusual paths: markup, entities, DOCTYPEs, PO keywords and escapes.
TOKENS = [b"<", b">", b"</", b"/>", b"&", b";", b"&amp;", b"&#0;", b"&#x110000;", b"<!DOCTYPE book [", b"]>",
          b"<!ENTITY x \"&x;\">", b"<!ENTITY % p SYSTEM \"x\">", b"<xi:include href=\"../x\"/>",
          b"xmlns:xi=\"http://www.w3.org/2001/XInclude\"", b"<![CDATA[", b"]]>", b"<?pi?>", b"<!--", b"-->",
          b"\"", b"'", b"\\", b"\\n", b"\n", b"msgid ", b"msgstr ", b"msgctxt ", b"msgid_plural ", b"msgstr[0] ",
          b"#, fuzzy", b"#~ ", b"#| msgid ", b"charset=", b"\xff", b"\xef\xbb\xbf", b"\x00", b"\xc3", b"\xe2\x80"]


@st.composite
def mutated(draw, original: bytes) -> bytes:
    """``original`` with a few spans replaced by random bytes or parser-relevant tokens."""
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 6))):
        start = draw(st.integers(0, len(data)))
        end = min(len(data), start + draw(st.integers(0, 40)))
        piece = draw(st.one_of(st.sampled_from(TOKENS), st.binary(max_size=12)))
        data[start:end] = piece
    return bytes(data)


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@FUZZ
@given(st.one_of(st.binary(max_size=400), mutated(PAGE)))
def test_the_xml_reader_raises_only_source_errors(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "page.xml", data)
        try:
            parse_xml(path)
        except SourceError as error:
            assert error.file == str(path) and error.message


@FUZZ
@given(mutated(BOOK), mutated(PAGE))
def test_loading_a_book_raises_only_source_errors(book, page):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write(folder, "index.docbook", book)
        _write(folder, "sultan.xml", page)
        for name in ("parade.xml", "definitions.xml"):
            _write(folder, name, (DATA / "site" / "C" / name).read_bytes())
        try:
            load_document(folder)
        except SourceError as error:
            assert error.message and error.file is not None


@FUZZ
@given(st.one_of(st.binary(max_size=400), mutated(PO)))
def test_the_po_reader_raises_only_catalog_errors(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "help.po", data)
        try:
            read_catalog(path)
        except CatalogError as error:
            assert error.file == str(path) and error.message


MARKUP_TEXT = st.lists(st.sampled_from(["Move ", "the ", "7 ", "cards", " up", " <emphasis>", "</emphasis>",
                                        "<_:xref-1/>", "<script>", "</script>", " onclick=", "<ulink url=\"x\">",
                                        "</ulink>", "&amp;", "&", "<", ">", "\"", "\u00e9", "\u0395"]),
                       max_size=14).map("".join)


@FUZZ
@given(MARKUP_TEXT, MARKUP_TEXT, st.sampled_from(["de", "el", "sr"]))
def test_the_checks_never_raise(msgid, msgstr, lang):
    for finding in check_markup(msgid, msgstr):
        assert finding[0] == "markup" and finding[1] in ("error", "warning")
    for finding in check_facts(msgid, msgstr, lang):
        assert finding[1] in ("error", "warning", "info")


@FUZZ
@given(MARKUP_TEXT, MARKUP_TEXT)
def test_a_restricted_msgstr_keeps_only_the_msgids_markup(msgid, msgstr):
    element = etree.Element("para")
    source, wrapper = parse_msgstr(msgid, element), parse_msgstr(msgstr, element)
    if source is None or wrapper is None:
        return  # not well-formed: the block is shown in English, nothing is parsed into the page
    text_before = "".join(wrapper.itertext())
    restrict_markup(wrapper, source)
    allowed = {(el.tag, frozenset(el.attrib.items())) for el in source.iter() if el is not source}
    for el in wrapper.iter():
        if el is wrapper:
            continue
        assert isinstance(el.tag, str)
        assert el.tag.startswith("{http://itstool.org/extensions/blank/}") or \
            (el.tag, frozenset(el.attrib.items())) in allowed
    assert text_before in "".join(wrapper.itertext()) or len(text_before) <= len("".join(wrapper.itertext()))
