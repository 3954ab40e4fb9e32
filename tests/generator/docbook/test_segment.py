"""itstool-compatible segmentation of DocBook: blocks, inline markup, placeholders, whitespace, order."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from patiencebook.generator.docbook.document import NS_RULES
from patiencebook.generator.docbook.segment import normalize_space, segment_element
from patiencebook.generator.docbook.sources import load_document

BOOK = Path(__file__).resolve().parents[2] / "data" / "docbook" / "book"


@pytest.fixture(scope="module")
def document():
    return load_document(BOOK)


def _segments(xml: str, name: str = "page.xml"):
    root = etree.fromstring(xml)
    return segment_element(Path(name), root)


def _msgids(xml: str) -> list[str]:
    return [s.msgid for s in _segments(xml)]


def test_inline_markup_is_kept_in_a_docbook_chapter():
    assert _msgids("<chapter><para>Press <keycombo><keycap>Ctrl</keycap><keycap>Z</keycap>"
                   "</keycombo> or use the <guilabel>mouse</guilabel>.</para></chapter>") == [
        "Press <keycombo><keycap>Ctrl</keycap><keycap>Z</keycap></keycombo> or use the "
        "<guilabel>mouse</guilabel>."]


def test_inline_attributes_are_kept_escaped_in_document_order():
    assert _msgids('<chapter><para>See <ulink url="a?b&amp;c" type="help">"here"</ulink>.</para></chapter>') == [
        'See <ulink url="a?b&amp;c" type="help">"here"</ulink>.']


def test_empty_inline_element_is_self_closed():
    assert _msgids('<chapter><para>See <xref linkend="x"></xref> now.</para></chapter>') == [
        'See <xref linkend="x"/> now.']


def test_in_a_sect1_file_every_element_is_a_block_of_its_own():
    # docbook.its applies only to files whose root is book, article or chapter.
    segments = _segments("<sect1><title>T</title><para>Build on the <emphasis>tableau</emphasis>"
                         " now.</para></sect1>")
    assert [(s.path, s.msgid) for s in segments] == [
        ("sect1/title", "T"),
        ("para/emphasis", "tableau"),
        ("sect1/para", "Build on the <_:emphasis-1/> now.")]


def test_nested_block_becomes_numbered_placeholder_and_comes_first():
    segments = _segments("<chapter><para>Two ways: <itemizedlist><listitem><para>one</para>"
                         "</listitem><listitem><para>two</para></listitem></itemizedlist> and "
                         "<footnote><para>note</para></footnote>.</para></chapter>")
    assert [s.msgid for s in segments] == [
        "one", "two", "note", "Two ways: <_:itemizedlist-1/> and <_:footnote-2/>."]
    assert [el.tag for el in segments[-1].placeholders] == ["itemizedlist", "footnote"]


def test_block_with_only_nested_blocks_and_whitespace_is_not_a_segment():
    assert _msgids("<chapter><variablelist><varlistentry><term>Stock</term><listitem>\n  <para>Pile."
                   "</para>\n</listitem></varlistentry></variablelist></chapter>") == ["Stock", "Pile."]


def test_whitespace_runs_collapse_to_one_space_including_no_break_space():
    assert _msgids("<chapter><para>\n  Move\tall \u00a0 cards\n   home.  </para></chapter>") == [
        "Move all cards home."]
    assert normalize_space(" a \n\u00a0b ") == "a b"


def test_verbatim_elements_keep_their_whitespace():
    segments = _segments("<chapter><programlisting>deal 7\n  move  a1 b2</programlisting></chapter>")
    assert segments[0].msgid == "deal 7\n  move  a1 b2"
    assert segments[0].preserve_space is True


def test_xml_space_preserve_keeps_whitespace_in_any_file():
    assert _msgids('<sect1><para xml:space="preserve"> a  b </para></sect1>') == [" a  b "]


def test_remark_is_dropped_from_the_message():
    assert _msgids("<chapter><para>Keep <remark>check</remark>one.</para></chapter>") == ["Keep one."]


def test_bookinfo_children_are_blocks_even_when_inline_by_default():
    segments = _segments("<book><bookinfo><title>T</title><copyright><year>2001</year> "
                         "<holder>A</holder></copyright><date>May</date></bookinfo></book>")
    assert [(s.path, s.msgid) for s in segments] == [
        ("bookinfo/title", "T"), ("bookinfo/copyright", "<year>2001</year> <holder>A</holder>"),
        ("bookinfo/date", "May")]


def test_rules_namespace_and_translate_no_never_produce_segments():
    xml = (f'<sect1 xmlns:r="{NS_RULES}" xmlns:its="http://www.w3.org/2005/11/its">'
           "<title>Game</title><r:rules><r:pile label='Stock'>Stock</r:pile></r:rules>"
           '<para>Say <literal its:translate="no">deal 7</literal> now.</para>'
           '<para its:translate="no">Never</para></sect1>')
    assert _msgids(xml) == ["Game", "Say <_:literal-1/> now."]


def test_text_escapes_markup_characters():
    assert _msgids("<chapter><para>Tips &amp; 3 &lt; 4 &gt; 2</para></chapter>") == [
        "Tips &amp; 3 &lt; 4 &gt; 2"]


def test_segment_records_file_line_and_element(document):
    page = document.page("fan_game")
    para = next(s for s in page.segments if s.msgid.startswith("Build down"))
    assert (para.file.name, para.line, para.path) == ("fan_game.xml", 24, "sect2/para")
    assert para.element.tag == "para"
    assert para.msgid == "Build down in suit on the <_:emphasis-1/>. Only the top card of a fan moves."


def test_document_segments_follow_itstool_order(document):
    segments = document.segments
    assert (segments[0].msgctxt, segments[0].msgid) == ("_", "translator-credits")
    files = list(dict.fromkeys(s.file.name for s in segments))
    # Book file first, then the other files sorted by name, as GNOME's build lists them.
    assert files == ["index.docbook", "definitions.xml", "eagle-wing.xml", "fan_game.xml", "legal.xml"]


def test_page_segments_are_in_document_order_and_exclude_nested_pages(document):
    page = document.page("intro")
    assert [s.msgid for s in page.segments] == [
        "Getting Started",
        "Drag a card with the <guilabel>mouse</guilabel>, or press "
        "<keycombo><keycap>Ctrl</keycap><keycap>Z</keycap></keycombo> to undo a move.",
        "There are two ways to win: <_:itemizedlist-1/>",
        "Clear the tableau.", "Fill every foundation.", "deal 7\n  move  a1 b2",
        "Keep one free cell empty."]
    assert [s.msgid for s in document.page("games").segments] == ["The Games"]
    assert [s.msgid for s in document.front.segments] == [
        "<application>Card Table</application> Help", "Rules of a few patience games, edition 2.5."]


def test_every_segment_with_an_element_belongs_to_exactly_one_page(document):
    owned = [s for p in document.pages + [document.front] for s in p.segments]
    assert len(owned) == len({id(s) for s in owned})
    assert {id(s) for s in owned} == {id(s) for s in document.segments if s.element is not None}


def test_normalize_space_matches_itstools_regular_expression():
    import re

    from hypothesis import given, strategies as st

    @given(st.text(alphabet=st.sampled_from(list("ab <>&\t\n\r\u00a0\u2009\u3000\x0b\x0c\x1c"))))
    def check(text):
        assert normalize_space(text) == re.sub(r"\s+", " ", text).strip()

    check()
