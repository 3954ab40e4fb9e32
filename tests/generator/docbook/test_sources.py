"""Reading DocBook help trees: safe parsing, confined XInclude, pages, anchors and source lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.generator.errors import SourceError
from patiencebook.generator.docbook.document import ATTR_ANCHOR
from patiencebook.generator.docbook.sources import load_document, parse_xml, plain_text, slugify

DATA = Path(__file__).resolve().parents[2] / "data" / "docbook"
BOOK = DATA / "book"


@pytest.fixture(scope="module")
def document():
    return load_document(BOOK)


def test_pages_are_included_files_and_book_chapters_in_reading_order(document):
    assert [(p.slug, p.kind) for p in document.pages] == [
        ("intro", "chapter"), ("games", "chapter"), ("fan_game", "game"), ("eagle-wing", "game"),
        ("definitions", "definitions"), ("legal", "legal")]


def test_page_slug_is_file_stem_and_id_is_root_id(document):
    page = document.page("eagle-wing")
    assert page.id == "EagleWing"
    assert page.file == (BOOK / "eagle-wing.xml").resolve()
    assert page.title == "Eagle Wing"


def test_doctype_is_not_trusted_sect1_page_is_a_game(document):
    # fan_game.xml declares DOCTYPE refentry but its root is sect1.
    assert document.page("fan_game").root.tag == "sect1"
    assert document.page("fan_game").kind == "game"


def test_included_elements_keep_their_own_file_line(document):
    root = document.page("fan_game").root
    assert root.sourceline == 5
    emphasis = root.find(".//emphasis")
    assert emphasis.sourceline == 25
    assert document.book.find("chapter").sourceline == 20


def test_internal_entities_are_expanded_with_markup(document):
    title = document.front.root.find("title")
    assert title.find("application").text == "Card Table"
    assert document.title == "Card Table Help"
    assert "edition 2.5." in plain_text(document.front.root.find("abstract"))


def test_bookinfo_is_the_front_page_and_legal_notice_is_a_page(document):
    assert document.front.kind == "book"
    assert document.front.root.tag == "bookinfo"
    legal = document.page("legal")
    assert legal.root.getparent() is document.front.root
    assert legal.kind == "legal"


def test_section_anchor_is_id_else_unique_title_slug(document):
    anchors = [el.get(ATTR_ANCHOR) for el in document.page("fan_game").root.iter("sect1", "sect2")]
    assert anchors == ["FanGame", "setup", "rules", "rules-2"]
    anchors = [el.get(ATTR_ANCHOR) for el in document.page("eagle-wing").root.iter("sect2")]
    assert anchors == ["eagle-goal", "tips-tricks"]


def test_slugify_makes_ascii_fragments():
    assert slugify("Tips & Tricks") == "tips-tricks"
    assert slugify("Règles du jeu") == "regles-du-jeu"
    assert slugify("Κανόνες") == "section"


def test_malformed_xml_names_file_line_and_parser_message():
    with pytest.raises(SourceError) as caught:
        load_document(DATA / "malformed")
    error = caught.value
    assert error.file == str((DATA / "malformed" / "index.docbook").resolve())
    assert error.line == 5
    assert "Opening and ending tag mismatch: emphasis line 5 and para" in error.message


def test_malformed_included_page_names_the_page_file():
    with pytest.raises(SourceError) as caught:
        load_document(DATA / "malformed-page")
    assert caught.value.file == str((DATA / "malformed-page" / "page.xml").resolve())
    assert caught.value.line == 4
    assert "Entity 'undefined' not defined" in caught.value.message


def test_external_entity_is_refused_at_its_declaration():
    with pytest.raises(SourceError) as caught:
        load_document(DATA / "external-entity")
    assert caught.value.file == str((DATA / "external-entity" / "index.docbook").resolve())
    assert caught.value.line == 4
    assert "external entity 'secret'" in caught.value.message


def test_external_parameter_entity_is_refused(tmp_path):
    book = tmp_path / "index.docbook"
    book.write_text('<?xml version="1.0"?>\n<!DOCTYPE book [\n<!ENTITY % ext SYSTEM "x.dtd">\n%ext;\n]>\n'
                    '<book/>\n')
    with pytest.raises(SourceError) as caught:
        parse_xml(book)
    assert (caught.value.line, "external parameter entity 'ext'" in caught.value.message) == (3, True)


def test_xinclude_outside_source_folder_is_refused():
    with pytest.raises(SourceError) as caught:
        load_document(DATA / "outside")
    assert caught.value.file == str((DATA / "outside" / "index.docbook").resolve())
    assert caught.value.line == 4
    assert "points outside the source folder" in caught.value.message


@pytest.mark.parametrize("href", ["http://example.invalid/page.xml", "file:///etc/hostname", "/etc/hostname"])
def test_xinclude_of_url_or_absolute_path_is_refused(tmp_path, href):
    (tmp_path / "index.docbook").write_text(
        '<book xmlns:xi="http://www.w3.org/2001/XInclude">\n'
        f'  <xi:include href="{href}"/>\n</book>\n')
    with pytest.raises(SourceError) as caught:
        load_document(tmp_path)
    assert caught.value.line == 2
    assert "outside the source folder" in caught.value.message


def test_xinclude_through_symlink_leaving_the_tree_is_refused(tmp_path):
    outside = tmp_path / "outside.xml"
    outside.write_text("<sect1><title>Out</title></sect1>\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "page.xml").symlink_to(outside)
    (tree / "index.docbook").write_text(
        '<book xmlns:xi="http://www.w3.org/2001/XInclude">\n<chapter><title>T</title>\n'
        '<xi:include href="page.xml"/></chapter>\n</book>\n')
    with pytest.raises(SourceError) as caught:
        load_document(tree)
    assert caught.value.line == 3


def test_missing_xinclude_target_names_the_include_line(tmp_path):
    (tmp_path / "index.docbook").write_text(
        '<book xmlns:xi="http://www.w3.org/2001/XInclude">\n\n  <xi:include href="gone.xml"/>\n</book>\n')
    with pytest.raises(SourceError) as caught:
        load_document(tmp_path)
    assert (caught.value.line, caught.value.message) == (3, "XInclude of 'gone.xml': no such file")


def test_dtd_reference_is_never_fetched():
    # The book names a remote DTD and declares a parameter entity, which makes libxml2 ask for
    # the external subset; the answer must be empty rather than a network load or an error.
    tree = parse_xml(BOOK / "index.docbook")
    assert tree.docinfo.system_url == "http://www.oasis-open.org/docbook/xml/4.3/docbookx.dtd"


def test_missing_book_file_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="no book file 'index.docbook'"):
        load_document(tmp_path)


def test_text_xinclude_inserts_the_file_text(tmp_path):
    (tmp_path / "deal.txt").write_text("deal 7 & go")
    (tmp_path / "index.docbook").write_text(
        '<book xmlns:xi="http://www.w3.org/2001/XInclude"><chapter id="c"><title>T</title>'
        '<programlisting>Type: <xi:include parse="text" href="deal.txt"/> now</programlisting>'
        "</chapter></book>")
    document = load_document(tmp_path)
    assert document.page("c").root.find("programlisting").text == "Type: deal 7 & go now"


def test_rules_block_is_handed_to_the_rules_loader_with_its_file(tmp_path, monkeypatch):
    import sys
    import types

    calls = []
    fake = types.ModuleType("patiencebook.generator.docbook.rulesblock")
    fake.load_rules = lambda element, file: calls.append((element.sourceline, Path(file).name)) or "ruleset"
    fake.load_variants = lambda element, file: {"v": "ruleset"}
    monkeypatch.setitem(sys.modules, "patiencebook.generator.docbook.rulesblock", fake)
    (tmp_path / "game.xml").write_text(
        '<sect1 id="g">\n<title>G</title>\n<r:rules xmlns:r="urn:x-patiencebook:rules:1"/>\n</sect1>\n')
    (tmp_path / "index.docbook").write_text(
        '<book xmlns:xi="http://www.w3.org/2001/XInclude"><chapter id="c"><title>C</title>'
        '<xi:include href="game.xml"/></chapter></book>')
    document = load_document(tmp_path)
    assert document.page("game").rules == "ruleset"
    assert document.page("game").variants == {"v": "ruleset"}
    assert document.page("c").rules is None
    assert calls == [(3, "game.xml")]


def test_two_pages_with_one_slug_are_refused(tmp_path):
    (tmp_path / "intro.xml").write_text("<sect1><title>A</title></sect1>")
    (tmp_path / "index.docbook").write_text(
        '<book xmlns:xi="http://www.w3.org/2001/XInclude">\n<chapter id="intro"><title>I</title>\n'
        '<xi:include href="intro.xml"/></chapter></book>')
    with pytest.raises(SourceError, match="two pages would be named 'intro'"):
        load_document(tmp_path)


def test_a_file_given_as_the_source_folder_is_named_as_not_a_folder(tmp_path):
    book = tmp_path / "index.docbook"
    book.write_text("<book/>", encoding="utf-8")
    with pytest.raises(SourceError, match="not a folder: the sources are a folder holding index.docbook"):
        load_document(book)
    with pytest.raises(SourceError, match="no such source folder"):
        load_document(tmp_path / "missing")
