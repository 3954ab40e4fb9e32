"""The built site in a real browser: language switcher, lang attributes, accent- and script-insensitive search,
and search that reads the pages' prose: neither the index nor the result excerpts hold the setup
picture's words, and an excerpt keeps the words of neighbouring blocks apart.

Builds tests/data/site (our own short book and catalogs) and serves it on 127.0.0.1; drives Debian's
chromium through Playwright, headless, with no network use beyond the local server.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import lxml.html
import pytest

from patiencebook.generator.languages import get_language
from patiencebook.generator.site.build import build_site
from patiencebook.generator.sphinxext.search import search_language
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
def project_site(tmp_path_factory) -> Path:
    """The site of the project's own rules/ and locales/, as `make site` builds it."""
    root = Path(__file__).resolve().parents[2]
    out = tmp_path_factory.mktemp("project") / "site"
    report = build_site(root / "rules", root / "locales", out, echo=False)
    assert {r.lang for r in report.languages} == {"en", "de", "el", "sr", "sr@latin"}
    return out


@pytest.fixture(scope="module")
def project_server(project_site):
    """:func:`project_site` served on 127.0.0.1."""
    yield from serve(project_site)


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


# -- the setup picture is no prose: left out of the index and of the excerpts -------------------------

def _page_parts(site: Path, lang: str, game: str) -> tuple[str, str]:
    """The text of a built page's setup picture, and the text of the rest of its main part (what
    Sphinx indexes: no scripts, no raw HTML marked no-search, no fallback marks, no headerlinks)."""
    page = lxml.html.fromstring((site / lang / f"{game}.html").read_text(encoding="utf-8"))
    main = page.xpath('//*[@role="main"]')[0]
    picture = main.xpath('.//figure[contains(@class, "pb-setup-picture")]')[0]
    picture_text = " ".join(picture.itertext())
    for element in main.xpath('.//*[contains(concat(" ", @class, " "), " no-search ") or self::script or '
                              'self::style or contains(@class, "headerlink") or contains(@class, "pb-fallback-mark")]'):
        element.drop_tree()
    return picture_text, " ".join(main.itertext())


def _index_terms(site: Path, lang: str, game: str) -> set[str]:
    """The terms (and title terms) the search index of ``lang`` holds for page ``game``."""
    text = (site / lang / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(text[text.index("(") + 1:text.rindex(")")])
    doc = index["docnames"].index(game)
    return {term for table in ("terms", "titleterms") for term, docs in index[table].items()
            if (docs == doc if isinstance(docs, int) else doc in docs)}


def _indexed(language, text: str) -> set[str]:
    """The terms Sphinx's index builder makes of ``text``'s words with search language ``language``:
    each word stemmed, kept as it is where its stem is filtered out and it is not, stop words left out."""
    terms = set()
    for word in language.split(text):
        stem = language.stem(word).lower()
        if not language.word_filter(stem) and language.word_filter(word):
            stem = word
        if language.word_filter(stem):
            terms.add(stem)
    return terms


@pytest.mark.parametrize("game,picture_only", [
    ("hamilton", {"οψ"}),            # "όψη": the picture says face up and face down, the prose open and closed
    ("spider", {"οψ", "κανεν"}),     # and "κανένα φύλλο", no card, under an empty pile
    ("canfield", {"οψ", "πρ"}),
])
def test_greek_search_index_holds_no_word_that_only_the_setup_picture_has(project_site, game, picture_only):
    language = search_language(get_language("el"))({})
    terms = _index_terms(project_site, "el", game)
    picture, prose = _page_parts(project_site, "el", game)
    assert _indexed(language, picture) - _indexed(language, prose) == picture_only
    assert not picture_only & terms
    assert _indexed(language, prose) <= terms  # the prose is indexed, word for word


def _excerpt(page, server: str, lang: str, words: str, target: str) -> str:
    _search(page, server, lang, words)
    item = page.locator(f'ul.search li:has(a[href^="{target}"])')
    item.locator("p.context").wait_for(timeout=20000)
    return item.locator("p.context").inner_text()


@pytest.mark.parametrize("lang,query,expected", [
    ("el", "τράπουλας",
     "...Χάμιλτον Το Χάμιλτον είναι παιχνίδι με μία τράπουλα, στο οποίο επιλέγετε την αξία από την οποία ξεκινούν "
     "οι βάσεις. Διάταξη Τύπος τράπουλας Μία κανονική τράπουλα 52 φύλλων. Μάνα Πάνω αριστερά. Τα 24 φύλλα που "
     "μένουν μετά το μοίρασμα του τα"),
    ("de", "Kartensatz",
     "Hamilton Hamilton ist ein Spiel mit einem Kartensatz, bei dem Sie den Rang wählen, mit dem die Zielstapel "
     "beginnen. Aufbau Kartensatz Ein Standardkartensatz mit 52 Karten. Talon Oben links. Die 24 Karten, die nach "
     "dem Geben des Tableaus üb..."),
])
def test_search_excerpt_near_the_setup_picture_is_prose_with_its_words_apart(page, project_site, project_server,
                                                                             lang, query, expected):
    excerpt = _excerpt(page, project_server, lang, query, "hamilton.html")
    assert excerpt == expected
    picture, prose = _page_parts(project_site, lang, "hamilton")
    # Each whole word of the excerpt (the cut ends aside) is a word of the page's prose: none ran together.
    words = re.findall(r"\w+", excerpt.strip("."))[1:-1]
    assert set(words) <= set(re.findall(r"\w+", prose)), set(words) - set(re.findall(r"\w+", prose))
    assert re.sub(r"\s+", " ", picture).strip()[:20] not in excerpt
