"""Applying a catalog block by block: inline markup, placeholders, entities, per-block fallback and counts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from patiencebook.generator.catalogs import read_catalog
from patiencebook.generator.docbook.document import ATTR_FALLBACK, XML_LANG
from patiencebook.generator.docbook.sources import load_document
from patiencebook.generator.catalogs.translate import parse_msgstr, translate

DATA = Path(__file__).resolve().parents[2] / "data"


@pytest.fixture(scope="module")
def document():
    return load_document(DATA / "docbook" / "book")


@pytest.fixture(scope="module")
def german(document):
    return translate(document, read_catalog(DATA / "po" / "de.po"), "de")


def _inner(element) -> str:
    """Content of ``element`` as XML text, whitespace collapsed, without namespace declarations.

    lxml repeats the declarations in scope on each serialized sub-element; they are not content.
    """
    text = (element.text or "") + "".join(
        etree.tostring(child, encoding=str, with_tail=True) for child in element)
    return " ".join(re.sub(r' xmlns:\w+="[^"]*"', "", text).split())


def _blocks(page_root, tag):
    return list(page_root.iter(tag))


def test_translated_block_gets_msgstr_with_inline_markup(german):
    intro = german.pages[0]
    para = _blocks(intro.root, "para")[0]
    assert _inner(para) == ("Ziehen Sie eine Karte mit der <guilabel>Maus</guilabel>, oder drücken Sie "
                            "<keycombo><keycap>Strg</keycap><keycap>Z</keycap></keycombo>, um einen Zug "
                            "zurückzunehmen.")
    assert para.get(ATTR_FALLBACK) is None and para.get(XML_LANG) is None


def test_placeholder_is_filled_with_the_translated_nested_block(german):
    fan = german.pages[2]
    para = [p for p in _blocks(fan.root, "para") if "Fächers" in "".join(p.itertext())][0]
    assert _inner(para) == ("Auf dem <emphasis>Tableau</emphasis> wird abwärts in Farbe gebaut. Nur die "
                            "oberste Karte eines Fächers wird bewegt.")


def test_nested_container_keeps_its_blocks_each_with_its_own_state(german):
    intro = german.pages[0]
    items = _blocks(intro.root, "listitem")
    first, second = (item.find("para") for item in items)
    assert first.text == "Räumen Sie das Tableau ab."
    assert (second.text, second.get(ATTR_FALLBACK), second.get(XML_LANG)) == (
        "Fill every foundation.", "untranslated", "en")


def test_nested_block_with_inline_children_is_translated_too(german):
    # itstool 2.0.6 keeps such a block (here a ulink holding an emphasis) in English even when it
    # is translated; we apply its translation.
    eagle = german.pages[3]
    ulink = eagle.root.find(".//ulink")
    assert _inner(ulink) == "die Regeln zum <emphasis>Fächer</emphasis>"
    assert ulink.get("url") == "help:fan"


def test_fuzzy_unit_falls_back_to_english_and_is_counted_fuzzy(german):
    abstract_para = german.front.root.find("abstract/para")
    assert " ".join(abstract_para.text.split()) == "Rules of a few patience games, edition 2.5."
    assert abstract_para.get(ATTR_FALLBACK) == "fuzzy"
    assert abstract_para.get(XML_LANG) == "en"
    assert (german.front.total, german.front.translated, german.front.fuzzy, german.front.untranslated) == (
        2, 1, 1, 0)


def test_msgstr_that_is_not_well_formed_keeps_english_and_counts_untranslated(german):
    para = _blocks(german.pages[0].root, "para")[-1]
    assert para.get(ATTR_FALLBACK) == "untranslated"
    assert "".join(para.itertext()).split()[:2] == ["Keep", "one"]


def test_msgstr_with_a_placeholder_the_msgid_lacks_keeps_english(german):
    para = [p for p in _blocks(german.pages[2].root, "para") if "never" in "".join(p.itertext())][0]
    assert (para.text, para.get(ATTR_FALLBACK)) == ("An empty fan is never filled.", "untranslated")


def test_counts_per_page(german):
    counts = {p.page.slug: (p.total, p.translated, p.fuzzy, p.untranslated) for p in german.pages}
    assert counts == {
        "intro": (7, 4, 0, 3),          # programlisting, "Fill every", malformed msgstr
        "games": (1, 0, 0, 1),
        "fan_game": (9, 3, 0, 6),
        "eagle-wing": (7, 3, 0, 4),
        "definitions": (3, 0, 0, 3),
        "legal": (2, 2, 0, 0)}
    assert german.coverage == pytest.approx(12 / 29)


def test_book_title_is_translated_with_document_entities(german):
    # The msgstr uses &app;, declared in the book file's internal subset.
    assert german.title == "Hilfe zu Card Table"
    assert german.front.root.find("title/application").text == "Card Table"


def test_source_tree_is_left_untouched(document, german):
    para = document.page("intro").root.find("para")
    assert para.find("guilabel").text == "mouse"
    assert all(el.get(ATTR_FALLBACK) is None for el in document.book.iter())


def test_section_anchors_survive_translation(german):
    assert [s.get("{urn:x-patiencebook:build:1}anchor") for s in german.pages[2].root.iter("sect2")] == [
        "setup", "rules", "rules-2"]


def test_no_catalog_marks_every_block_untranslated(document):
    result = translate(document, None, "de")
    assert result.coverage == 0.0
    assert all(p.untranslated == p.total for p in result.pages)


def test_source_language_without_catalog_is_an_unmarked_copy(document):
    result = translate(document, None, "en")
    assert result.coverage == 1.0
    assert all(el.get(ATTR_FALLBACK) is None for p in result.pages for el in p.root.iter())


def test_parse_msgstr_declares_placeholder_namespace_and_rejects_bad_xml():
    element = etree.fromstring("<para/>")
    parsed = parse_msgstr("a <_:emphasis-1/> b", element)
    assert parsed[0].tag == "{http://itstool.org/extensions/blank/}emphasis-1"
    assert parse_msgstr("a <b>c", element) is None
    assert parse_msgstr("&nope;", element) is None


def test_chapter_page_holds_its_games_translated(german):
    games = german.page("games")
    assert games.root.find("sect1/title").text == "Fächer"
    assert (games.total, games.title) == (1, "The Games")
    assert german.page("fan_game").title == "Fächer"


def test_front_page_holds_the_translated_legal_notice(german):
    para = german.front.root.find("legalnotice/para")
    assert _inner(para) == ('Sie dürfen diese Hilfe unter den Bedingungen der beiliegenden '
                            '<ulink url="help:fdl">Lizenz</ulink> kopieren.')
