"""Deriving sr@latin from sr: text converted, inline markup and flags untouched."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from patiencebook.generator.errors import LanguageError
from patiencebook.generator.transliterate import derive_catalog, derive_catalog_for, derive_markup, derive_text

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
TAG = re.compile(r"<[^>]*>|&[#\w]+;")


def test_text_is_converted_to_latin_script():
    assert derive_text("Ђорђе џеп љубав") == "Đorđe džep ljubav"


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
    derived = derive_catalog_for("sr@latin", base)
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
        derive_catalog_for("de", Catalog(locale="de"))


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
