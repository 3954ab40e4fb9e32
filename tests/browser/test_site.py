"""The built site in a real browser: language switcher, lang attributes, accent- and script-insensitive search.

Builds tests/data/site (our own short book and catalogs) and serves it on 127.0.0.1; drives Debian's
chromium through Playwright, headless, with no network use beyond the local server.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from patiencebook.generator.site.build import build_site
from tests.browser.conftest import serve

pytestmark = pytest.mark.browser

SITE = Path(__file__).resolve().parents[1] / "data" / "site"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser") / "site"
    build_site(SITE / "C", SITE / "locales", out, echo=False)
    yield from serve(out)


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    yield page
    context.close()


def _search(page, server: str, lang: str, words: str) -> list[str]:
    """The result links of the search page of ``lang`` for ``words``."""
    page.goto(f"{server}/{quote(lang)}/search.html?q={quote(words)}")
    page.wait_for_selector("#search-results p.search-summary", timeout=20000)
    page.wait_for_function("() => !document.querySelector('#search-progress')?.textContent", timeout=20000)
    return page.eval_on_selector_all("ul.search li a", "links => links.map((a) => a.getAttribute('href'))")


def test_switcher_goes_from_german_to_the_same_page_in_greek(page, server):
    page.goto(f"{server}/de/sultan.html")
    assert page.get_attribute("html", "lang") == "de"
    page.click('nav.pb-languages a[hreflang="el"]')
    page.wait_for_url("**/el/sultan.html")
    assert page.get_attribute("html", "lang") == "el"
    assert page.url.endswith("/el/sultan.html")
    assert page.inner_text("h1").startswith("Σουλτάνος")


def test_switcher_links_carry_hreflang_and_lang(page, server):
    page.goto(f"{server}/sr/parade.html")
    assert page.get_attribute("html", "lang") == "sr-Cyrl"
    links = page.eval_on_selector_all(
        "nav.pb-languages a", "links => links.map((a) => [a.hreflang, a.lang, a.getAttribute('href')])")
    assert ["sr-Latn", "sr-Latn", "../sr@latin/parade.html"] in links
    assert ["de", "de", "../de/parade.html"] in links


def test_greek_word_typed_without_accents_finds_the_page(page, server):
    results = _search(page, server, "el", "σουλτανο")
    assert any(href.startswith("sultan.html") for href in results), results


def test_serbian_word_typed_in_latin_script_finds_the_cyrillic_page(page, server):
    results = _search(page, server, "sr", "spil")
    assert any(href.startswith("sultan.html") for href in results), results
    assert page.inner_text("#search-results h2") == "Резултати претраге"


def test_serbian_latin_site_finds_words_typed_in_cyrillic(page, server):
    results = _search(page, server, "sr@latin", "шпил")
    assert any(href.startswith("sultan.html") for href in results), results


def test_fallback_blocks_are_marked_english_in_the_browser(page, server):
    page.goto(f"{server}/de/sultan.html")
    langs = page.eval_on_selector_all(".pb-fallback", "blocks => blocks.map((b) => b.lang)")
    assert langs and set(langs) == {"en"}
    assert page.inner_text("div.pb-fallback .pb-fallback-mark") == "nicht übersetzt"
    assert "The waste can be turned over twice." in page.inner_text("div.pb-fallback")


@pytest.fixture(scope="module")
def project_server(tmp_path_factory):
    """The site of the project's own rules/ and locales/, as `make site` builds it, served on 127.0.0.1."""
    root = Path(__file__).resolve().parents[2]
    out = tmp_path_factory.mktemp("project") / "site"
    report = build_site(root / "rules", root / "locales", out, echo=False)
    assert {r.lang for r in report.languages} == {"en", "de", "el", "sr", "sr@latin"}
    yield from serve(out)


def test_project_site_german_hamilton_switches_to_greek(page, project_server):
    page.goto(f"{project_server}/de/hamilton.html")
    assert page.get_attribute("html", "lang") == "de"
    assert page.inner_text("h1") == "Hamilton"
    assert "Auswahlstapel" in page.inner_text("table")
    page.click('nav.pb-languages a[hreflang="el"]')
    page.wait_for_url("**/el/hamilton.html")
    assert page.get_attribute("html", "lang") == "el"
    assert page.inner_text("h1") == "Χάμιλτον"
    # Section anchors are the same in every language.
    assert page.locator("section#hamilton-rules").count() == 1
    assert not page.locator(".pb-fallback").count()


def test_project_site_greek_search_without_accents_finds_hamilton(page, project_server):
    results = _search(page, project_server, "el", "επιλογεας")
    assert any(href.startswith("hamilton.html") for href in results), results


def test_project_site_serbian_search_in_latin_script_finds_hamilton(page, project_server):
    results = _search(page, project_server, "sr", "birač")
    assert any(href.startswith("hamilton.html") for href in results), results
    page.goto(f"{project_server}/sr@latin/hamilton.html")
    assert page.get_attribute("html", "lang") == "sr-Latn"
    assert "birač" in page.inner_text("body")


CORPUS_HELP = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "aisleriot" / "help"


@pytest.fixture(scope="module")
def corpus_server(tmp_path_factory):
    """The AisleRiot manual in four languages CLDR gives us (no table row for any), served on 127.0.0.1."""
    if not (CORPUS_HELP / "C" / "index.docbook").is_file():
        pytest.skip(f"the AisleRiot corpus is not at {CORPUS_HELP}")
    out = tmp_path_factory.mktemp("corpus") / "site"
    build_site(CORPUS_HELP / "C", CORPUS_HELP, out, langs=["fr", "uk", "zh_CN", "kk"], echo=False)
    yield from serve(out)


@pytest.mark.corpus
@pytest.mark.parametrize("lang,typed,heading", [
    ("fr", "regles", "Résultats de la recherche"),   # "Règles", typed without its accent
    ("uk", "КЛОНДАЙК", None),                        # "Клондайк", typed in capitals
    ("kk", "клондайк", None),
    ("zh_CN", "克朗代克", None),                      # Chinese, written without spaces
])
def test_aisleriot_languages_find_a_word_typed_without_accents_or_in_another_case(page, corpus_server, lang,
                                                                                   typed, heading):
    results = _search(page, corpus_server, lang, typed)
    assert any(href.startswith("klondike.html") for href in results), results
    if heading:
        assert page.inner_text("#search-results h2") == heading


@pytest.mark.corpus
def test_aisleriot_page_carries_its_cldr_tag_and_title_without_the_mark(page, corpus_server):
    page.goto(f"{corpus_server}/zh_CN/klondike.html")
    assert page.get_attribute("html", "lang") == "zh-Hans"
    names = page.eval_on_selector_all("nav.pb-languages a", "links => links.map((a) => a.textContent.trim())")
    assert "Français" in "".join(names) and "Українська" in "".join(names)
    assert page.get_attribute(".pb-languages-label", "lang") == "zh-Hans"  # our own Chinese wording
    page.goto(f"{corpus_server}/kk/index.html")
    assert page.get_attribute("html", "lang") == "kk-Cyrl"
    # Ukrainian has no interface strings of ours yet: they are shown in English, marked as English.
    page.goto(f"{corpus_server}/uk/clock.html")
    assert page.get_attribute("html", "lang") == "uk"
    assert page.get_attribute(".pb-languages-label", "lang") == "en"
    marks = page.eval_on_selector_all(".pb-fallback-mark", "marks => marks.map((m) => [m.lang, m.textContent])")
    assert marks and all(mark == ["en", "not translated"] for mark in marks)
