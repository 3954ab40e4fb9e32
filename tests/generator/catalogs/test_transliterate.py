"""Deriving sr@latin from sr: text converted, inline markup and flags untouched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from patiencebook.generator.errors import LanguageError
from patiencebook.generator.languages import get_language
from patiencebook.generator.catalogs.transliterate import (capital_digraphs, derive_catalog, derive_catalog_for,
                                                           derive_markup, derive_text)

SHARED = Path(__file__).resolve().parents[3].parent / "shared"
TAG = re.compile(r"<[^>]*>|&[#\w]+;")


def test_text_is_converted_to_latin_script():
    assert derive_text("Ђорђе џеп љубав") == "Đorđe džep ljubav"


@pytest.mark.parametrize(
    ("cyrillic", "latin"),
    [
        ("ЏОКЕР ЈЕ ЉУТ", "DŽOKER JE LJUT"),
        ("НОВА ИГРА ЏОКЕРА", "NOVA IGRA DŽOKERA"),
        ("ЏЕП ЉУБАВ ЊИВА", "DŽEP LJUBAV NJIVA"),
    ],
)
def test_digraph_letters_in_words_in_capitals_are_all_capitals(cyrillic, latin):
    assert derive_text(cyrillic) == latin


def test_digraph_letters_before_lower_case_are_title_case():
    assert derive_text("Џеп, Љубав и Њива") == "Džep, Ljubav i Njiva"
    assert derive_text("Нова Игра Џокера") == "Nova Igra Džokera"


def test_lower_case_digraph_letters_stay_lower_case():
    assert derive_text("џеп љубав коњ") == "džep ljubav konj"


def test_digraph_letter_at_the_end_of_a_word_takes_the_case_of_the_letter_before():
    assert derive_text("КОЊ") == "KONJ"
    assert derive_text("ПОЉ И КОЊ") == "POLJ I KONJ"


def test_mixed_case_words_are_decided_letter_by_letter():
    assert derive_text("ЉиЉ") == "LjiLj"
    assert derive_text("ЏОКЕРи") == "DŽOKERi"
    assert derive_text("ЊЉУТ ЉуТ") == "NJLJUT LjuT"
    assert derive_text("кОЊ") == "kONJ"


@pytest.mark.parametrize(
    ("cyrillic", "latin"),
    [
        ("ЉУТ Џ ЈЕ", "LJUT DŽ JE"),  # inside a run of capitals
        ("НОВА ИГРА: Џ", "NOVA IGRA: DŽ"),  # at the end of one
        ("Џ И ЉУТ", "DŽ I LJUT"),  # a one-letter capital neighbour says nothing; the next word decides
        ("слово Џ", "slovo Dž"),
        ("Џ", "Dž"),  # a letter named on its own
        ("ЉУТ Џ је", "LJUT Dž je"),  # between capitals and lower case: title case
        ("ЉУТ Џ и ЈЕ", "LJUT Dž i JE"),  # a lower-case one-letter word does count
    ],
)
def test_one_letter_digraph_word_takes_the_case_of_its_neighbouring_words(cyrillic, latin):
    assert derive_text(cyrillic) == latin


def test_capital_digraphs_gives_the_positions_of_the_letters_to_write_in_capitals():
    assert capital_digraphs("Џеп ЏЕП џеп КОЊ") == {4, 14}
    assert capital_digraphs("") == set()


def test_markup_is_untouched_when_digraph_letters_are_capitalised():
    msgstr = '<emphasis role="Џеп">ЏОКЕР</emphasis> ЈЕ <link linkend="ЉУТ">ЉУТ</link> &amp; Џеп'
    assert derive_markup(msgstr) == '<emphasis role="Џеп">DŽOKER</emphasis> JE <link linkend="ЉУТ">LJUT</link> &amp; Džep'


def test_tags_do_not_split_words_when_the_case_is_decided():
    assert derive_markup("Џ<emphasis>ОКЕР</emphasis> је") == "DŽ<emphasis>OKER</emphasis> je"
    assert derive_markup("КО<_:x-1/>Њ") == "KO<_:x-1/>NJ"
    assert derive_markup("ЉУТ <emphasis>Џ</emphasis> ЈЕ") == "LJUT <emphasis>DŽ</emphasis> JE"
    assert derive_markup("слово <emphasis>Џ</emphasis>") == "slovo <emphasis>Dž</emphasis>"


def test_references_split_words_when_the_case_is_decided():
    assert derive_markup("Џ&nbsp;је") == "Dž&nbsp;je"
    assert derive_markup("ЉУТ&#160;Џ&#160;ЈЕ") == "LJUT&#160;DŽ&#160;JE"


def test_tags_attributes_and_references_are_left_untouched():
    msgstr = 'Види <link linkend="правила" role="Ж">правила</link> &amp; <emphasis>Шпил</emphasis>&#x41;'
    assert derive_markup(msgstr) == 'Vidi <link linkend="правила" role="Ж">pravila</link> &amp; <emphasis>Špil</emphasis>&#x41;'


def test_placeholders_of_nested_blocks_are_kept():
    assert derive_markup("Изаберите <_:menuchoice-2/> поново.") == "Izaberite <_:menuchoice-2/> ponovo."


def test_derived_catalog_keeps_ids_contexts_and_fuzzy_flags():
    base = Catalog(locale="sr", domain="help")
    base.add("Rules", "Правила", flags=["fuzzy"])
    base.add("Goal", "Циљ", context="ctx")
    base.add("Stock", "")
    derived = derive_catalog_for(get_language("sr@latin"), base)
    assert str(derived.locale) == "sr_Latn"
    assert derived.get("Rules").string == "Pravila"
    assert derived.get("Rules").fuzzy
    assert derived.get("Goal", context="ctx").string == "Cilj"
    assert derived.get("Stock").string == ""
    assert base.get("Rules").string == "Правила"  # the base catalog is not changed


def test_plural_msgstrs_are_each_converted():
    base = Catalog(locale="sr")
    base.add(("one card", "%d cards"), ("%d карта", "%d карте", "%d карата"))
    derived = derive_catalog(base)
    assert derived.get("one card").string == ("%d karta", "%d karte", "%d karata")


def test_unknown_derivation_raises_language_error():
    with pytest.raises(LanguageError):
        derive_text("x", "latin-to-cyrillic")
    with pytest.raises(LanguageError):
        derive_catalog_for(get_language("de"), Catalog(locale="de"))


def test_every_corpus_msgstr_keeps_its_markup_when_derived():
    po = SHARED / "corpus" / "aisleriot" / "help" / "sr" / "sr.po"
    if not po.exists():
        pytest.skip(f"AisleRiot corpus not found at {po}")
    from babel.messages.pofile import read_po

    with po.open("rb") as stream:
        catalog = read_po(stream)
    checked = 0
    for message in catalog:
        if message.id and isinstance(message.string, str) and "<" in message.string:
            derived = derive_markup(message.string)
            assert TAG.findall(derived) == TAG.findall(message.string)
            assert not re.search("[\u0400-\u04ff]", TAG.sub("", derived))
            checked += 1
    assert checked > 10
