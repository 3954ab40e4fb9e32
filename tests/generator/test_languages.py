"""Languages from CLDR: gettext codes to BCP 47 tags, names, direction, plurals, collation; our interface strings."""

from __future__ import annotations

import json

import pytest

from patiencebook.generator.errors import LanguageError
from patiencebook.generator.languages import (UI_DIR, Language, derived_languages, get_language, gettext_code,
                                              languages, sort_key, source_language, ui_strings)


def test_sr_latin_is_bcp47_sr_latn_cldr_sr_latn_and_derived_from_sr():
    language = get_language("sr@latin")
    assert language.bcp47 == "sr-Latn"
    assert language.babel == "sr_Latn"
    assert language.sphinx == "sr@latin"
    assert language.script == "Latn"
    assert language.derived_from == "sr"
    assert language.derive == "cyrillic-to-latin"
    assert language.is_derived


def test_sr_is_cyrillic_with_bcp47_sr_cyrl():
    language = get_language("sr")
    assert (language.bcp47, language.babel, language.script) == ("sr-Cyrl", "sr_Cyrl", "Cyrl")
    assert not language.is_derived


def test_english_variants_and_greek_map_to_their_bcp47_tags():
    assert get_language("en").bcp47 == "en"
    assert get_language("en_GB").bcp47 == "en-GB"
    assert get_language("de").bcp47 == "de"
    assert get_language("el").bcp47 == "el"


def test_native_names_come_from_cldr():
    assert get_language("el").native_name == "Ελληνικά"
    assert get_language("de").native_name == "Deutsch"
    assert get_language("sr@latin").native_name == "srpski (latinica)"
    assert get_language("sr").native_name == "српски (ћирилица)"
    assert get_language("sr@latin").display_name == "Srpski (latinica)"


def test_unknown_code_raises_language_error_naming_it():
    for code in ("xx", "tlh", "not a code"):
        with pytest.raises(LanguageError, match=f"unknown language '{code}'"):
            get_language(code)


#: Every language of the AisleRiot help, with the tag, script, name in itself and direction CLDR gives.
AISLERIOT = {
    "ca": ("ca", "Latn", "català"), "cs": ("cs", "Latn", "čeština"), "de": ("de", "Latn", "Deutsch"),
    "el": ("el", "Grek", "Ελληνικά"), "en_GB": ("en-GB", "Latn", "English (United Kingdom)"),
    "es": ("es", "Latn", "español"), "eu": ("eu", "Latn", "euskara"), "fr": ("fr", "Latn", "français"),
    "gl": ("gl", "Latn", "galego"), "hu": ("hu", "Latn", "magyar"), "id": ("id", "Latn", "Indonesia"),
    "kk": ("kk-Cyrl", "Cyrl", "қазақ тілі (кирилл жазуы)"), "oc": ("oc", "Latn", "occitan"),
    "pt_BR": ("pt-BR", "Latn", "português (Brasil)"), "ru": ("ru", "Cyrl", "русский"),
    "sl": ("sl", "Latn", "slovenščina"), "sr": ("sr-Cyrl", "Cyrl", "српски (ћирилица)"),
    "sr@latin": ("sr-Latn", "Latn", "srpski (latinica)"), "sv": ("sv", "Latn", "svenska"),
    "uk": ("uk", "Cyrl", "українська"), "zh_CN": ("zh-Hans", "Hans", "中文 (简体)"),
}


@pytest.mark.parametrize("code", sorted(AISLERIOT))
def test_every_aisleriot_language_comes_from_cldr(code):
    language = get_language(code)
    assert (language.bcp47, language.script, language.native_name) == AISLERIOT[code]
    assert language.direction == "ltr" and language.sphinx == code
    assert Language.from_dict(language.as_dict()) == language


def test_direction_plural_rules_and_stemmer_come_from_cldr():
    assert get_language("ar").direction == "rtl" and get_language("he").direction == "rtl"
    assert get_language("fr").plural_forms.startswith("nplurals=3;")
    assert get_language("zh_CN").plural_forms == "nplurals=1; plural=0;"
    assert get_language("sl").plural_forms.startswith("nplurals=4;")
    assert get_language("hu").snowball == "hungarian" and get_language("pt_BR").snowball == "portuguese"
    assert get_language("uk").snowball is None
    assert get_language("fr").english_name == "French"


def test_gettext_codes_of_tags_and_cldr_identifiers():
    assert gettext_code("sr-Latn") == "sr@latin"
    assert gettext_code("sr_Latn_RS") == "sr_RS@latin"
    assert gettext_code("en-GB") == "en_GB"
    assert gettext_code("zh-Hans-CN") == "zh_CN"
    assert gettext_code("kk-Cyrl") == "kk"
    assert gettext_code("de.UTF-8") == "de"


def test_lists_sort_by_the_language_collation():
    names = ["Canfield", "Zebra", "Adlerschwinge", "Ägypter"]
    assert sorted(names, key=sort_key(get_language("de"))) == ["Adlerschwinge", "Ägypter", "Canfield", "Zebra"]
    assert sorted(["Ängel", "Zebra", "Alfa"], key=sort_key(get_language("sv"))) == ["Alfa", "Zebra", "Ängel"]
    assert sorted(["chata", "hrad", "cesta"], key=sort_key(get_language("cs"))) == ["cesta", "hrad", "chata"]


def test_bcp47_and_cldr_spellings_find_the_same_row():
    assert get_language("sr-Latn").code == "sr@latin"
    assert get_language("sr_latn").code == "sr@latin"
    assert get_language("en-GB").code == "en_GB"


def test_sr_latin_is_derived_only_when_sr_is_available():
    assert derived_languages(["de", "sr"]) == ["sr@latin"]
    assert derived_languages(["de", "el"]) == []
    assert derived_languages(["sr", "sr@latin"]) == []


def test_source_language_is_english_and_the_project_languages_are_complete():
    assert source_language() == "en"
    assert {"en", "de", "el", "sr", "sr@latin"} <= set(languages())
    for code, language in languages().items():
        assert language.code == code
        assert language.bcp47 and language.babel and language.sphinx and language.native_name


def test_ui_strings_of_a_derived_language_are_the_base_strings_in_latin_script():
    assert ui_strings("sr")["untranslated"] == "није преведено"
    assert ui_strings("sr@latin")["untranslated"] == "nije prevedeno"
    assert ui_strings("de")["untranslated"] == "nicht übersetzt"


def test_every_ui_file_translates_every_english_key():
    from patiencebook.engine.wording import OPTIONAL_KEYS

    english = {k for k in json.loads((UI_DIR / "en.json").read_text(encoding="utf-8")) if not k.startswith("_")}
    for path in UI_DIR.glob("*.json"):
        if path.stem in ("en", "sphinx-strings"):
            continue
        keys = {k for k in json.loads(path.read_text(encoding="utf-8")) if not k.startswith("_")}
        assert keys - OPTIONAL_KEYS == english, path.name


def test_the_plural_rules_given_with_the_strings_are_cldrs_of_the_language_they_are_written_in():
    from babel import Locale

    from patiencebook.engine.plurals import compile_rules
    from patiencebook.generator.languages import plural_rules

    for code in ("en", "de", "el", "sr", "sr@latin", "ca", "cs", "es", "eu", "fr", "hu", "kk", "ru", "sv", "zh_CN"):
        language = get_language(code)
        rules = ui_strings(language)["plural_rules"]
        assert rules == plural_rules(language)
        babel = Locale.parse(language.babel).plural_form
        category = compile_rules(rules)
        assert [category(n) for n in range(1001)] == [babel(n) for n in range(1001)], code
    assert ui_strings("sr")["plural_rules"]["few"].startswith("v in 0 and i mod 10 in 2..4")
    assert ui_strings("uk")["plural_rules"] == plural_rules(get_language("en"))  # English words, English plurals


def test_a_derived_language_gets_the_forms_of_pile_names_and_the_rank_marks_in_its_script():
    latin = ui_strings("sr@latin")
    assert latin["card_ranks"] == "A 2 3 4 5 6 7 8 9 10 Ž D K"
    assert latin["pile_forms"]["Free Cell {n}"]["to"] == "u Slobodnu ćeliju {n}"
    assert latin["play_stock_count"] == {"one": "{count} karta", "few": "{count} karte", "other": "{count} karata"}


def test_an_interface_file_breaking_the_message_format_is_refused_naming_file_and_key(tmp_path, monkeypatch):
    from patiencebook.generator import languages as table

    for name in ("en.json", "de.json"):
        (tmp_path / name).write_text((UI_DIR / name).read_text(encoding="utf-8"), encoding="utf-8")
    german = json.loads((UI_DIR / "de.json").read_text(encoding="utf-8"))
    del german["pile_forms"]["Stock"]["from"]
    german["reason_pile-full"] = {"one": "{target:^nom} ist voll"}
    (tmp_path / "de.json").write_text(json.dumps(german, ensure_ascii=False), encoding="utf-8")
    caches = (table._read_ui, table._ui_strings, table._ui_with_rules)
    for cache in caches:
        cache.cache_clear()
    monkeypatch.setattr(table, "UI_DIR", tmp_path)
    try:
        with pytest.raises(LanguageError) as caught:
            ui_strings("de")
    finally:
        monkeypatch.undo()
        for cache in caches:
            cache.cache_clear()
    assert caught.value.file == str(tmp_path / "de.json")
    assert "reason_pile-full: lacks the plural forms other of the language" in caught.value.message
    assert ("pile_forms['Stock']: lacks the form 'from' that play_do_dbl, play_do_dbl_run, play_do_drag and "
            "17 more use") in caught.value.message


def test_ui_strings_of_an_unknown_language_raise_language_error():
    with pytest.raises(LanguageError):
        ui_strings("tlh")


def test_a_language_written_as_a_dict_reads_back_as_the_same_value():
    for language in languages().values():
        assert Language.from_dict(language.as_dict()) == language
    assert get_language("sr@latin").as_dict()["derived_from"] == "sr"


@pytest.mark.parametrize("change", [{"bcp47": None}, {"extra": "x"}, {"native_name": 3}])
def test_a_dict_that_is_not_a_language_raises_language_error(change):
    data = {**get_language("de").as_dict(), **change}
    with pytest.raises(LanguageError):
        Language.from_dict(data)
    with pytest.raises(LanguageError):
        Language.from_dict(["de"])


def test_ui_strings_of_no_language_are_the_source_strings():
    assert ui_strings(None) == ui_strings(get_language(source_language()))
    assert ui_strings(get_language("sr@latin")) == ui_strings("sr@latin")


def test_interface_coverage_counts_the_strings_a_language_has_in_its_own_words():
    from patiencebook.generator.languages import ui_coverage, ui_string_tag
    from patiencebook.generator.sphinxext.uicatalog import sphinx_coverage, used_strings

    used = used_strings()
    sphinx_total = len(used["python"]) + len(used["js"]) + len(used["js_plural"])
    own, total = ui_coverage(get_language("fr"))
    assert own == total > 100
    assert ui_coverage(get_language("uk")) == (0, total)  # no interface file of ours yet: all English
    assert ui_coverage(get_language("sr@latin")) == (total, total)  # derived from sr's
    assert ui_string_tag(get_language("uk"), "languages") == "en"
    assert ui_string_tag(get_language("sr@latin"), "languages") == "sr-Latn"
    assert sphinx_coverage("uk") == (sphinx_total, sphinx_total)
    assert sphinx_coverage("mi") == (0, sphinx_total)  # Maori: neither we nor Sphinx translate it
    assert 0 < sphinx_coverage("it")[0] < sphinx_total  # Italian: only Sphinx's own catalog, which lacks some
    assert sphinx_coverage("en_GB") == (sphinx_total, sphinx_total)
