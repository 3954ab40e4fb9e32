"""The extension's settings: the languages the site build carries in conf.py are used as they are;
a project that sets only ``language`` has it looked up once, when the configuration is read."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from types import SimpleNamespace

import lxml.html
import pytest

from patiencebook.generator import languages as language_table
from patiencebook.generator.errors import LanguageError
from patiencebook.generator.languages import get_language
from patiencebook.generator.sphinxext.settings import page_language, resolve_languages, site_languages

SITE = Path(__file__).resolve().parents[2] / "data" / "site" / "C"


def _config(**values) -> SimpleNamespace:
    settings = {"language": None, "patiencebook_language": None, "patiencebook_languages": [],
                "patiencebook_language_table": {}}
    return SimpleNamespace(**{**settings, **values})


def test_a_project_that_sets_only_language_gets_the_table_row_once():
    config = _config(language="sr@latin", patiencebook_languages=["sr", "sr@latin", "tlh"])
    resolve_languages(config)
    assert set(config.patiencebook_language_table) == {"sr", "sr@latin"}
    assert page_language(config) == get_language("sr@latin")
    assert [language.code for language in site_languages(config)] == ["sr", "sr@latin"]


def test_a_language_the_table_lacks_has_no_row_and_no_page_language():
    config = _config(language="tlh")
    resolve_languages(config)
    assert config.patiencebook_language_table == {}
    assert page_language(config) is None


def test_rows_given_in_the_configuration_are_used_as_they_are(monkeypatch):
    carried = dataclasses.replace(get_language("de"), bcp47="de-x-carried")
    config = _config(language="de", patiencebook_language="de", patiencebook_languages=["de"],
                     patiencebook_language_table={"de": carried.as_dict()})

    def no_lookup():
        raise AssertionError("the language table was read")

    monkeypatch.setattr(language_table, "_from_cldr", no_lookup)
    resolve_languages(config)
    assert page_language(config) == carried
    assert site_languages(config) == [carried]


def test_a_row_under_another_code_is_a_language_error():
    config = _config(language="de", patiencebook_language_table={"de": get_language("el").as_dict()})
    with pytest.raises(LanguageError):
        resolve_languages(config)


def test_a_site_build_renders_with_the_languages_it_carried_not_the_table(tmp_path, monkeypatch):
    """write_sources puts each Language into conf.py; Sphinx, the parser, the switcher and the UI
    strings take them from there: a changed tag and name show, and the table is never read."""
    import sphinx.locale
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    from patiencebook.generator.docbook.sources import load_document
    from patiencebook.generator.site.sphinxsources import source_document, write_sources

    english = get_language("en")
    carried = dataclasses.replace(english, bcp47="en-x-carried")
    other = dataclasses.replace(get_language("de"), native_name="carried German")
    src = tmp_path / "src"
    src.mkdir()
    write_sources(source_document(load_document(SITE), "en"), src, carried, [carried, other])

    def no_lookup():
        raise AssertionError("the language table was read")

    monkeypatch.setattr(language_table, "_from_cldr", no_lookup)
    sphinx.locale.translators.clear()
    try:
        with patch_docutils(src), docutils_namespace():
            app = Sphinx(str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
                         status=None, warning=io.StringIO(), freshenv=True)
            app.build(force_all=True)
    finally:
        sphinx.locale.translators.clear()
    page = lxml.html.parse(str(tmp_path / "out" / "index.html")).getroot()
    assert page.get("lang") == "en-x-carried"
    assert [a.get("hreflang") for a in page.iter("a") if a.text_content().strip() == "Carried German"] == ["de"]
