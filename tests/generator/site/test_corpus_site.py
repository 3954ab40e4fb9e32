"""The whole AisleRiot manual (../shared/corpus) built in two languages: every page there, every
game reachable from the index page, no internal link broken, figures copied, the games without an
engine model listed."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from urllib.parse import unquote, urlsplit

import lxml.html
import pytest

from patiencebook.generator.site.build import build_site
from patiencebook.generator.docbook.sources import load_document
from patiencebook.generator.docbook.enginemodels import game_key

from tests.embedded import EMBEDDED_GAMES

pytestmark = [pytest.mark.corpus, pytest.mark.slow]

HELP = Path(__file__).resolve().parents[3].parent / "shared" / "corpus" / "aisleriot" / "help"
LANGS = ["de", "el"]


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory):
    # CI has ../shared beside the clone: a missing corpus is a broken setup, not a reason to skip.
    assert (HELP / "C" / "index.docbook").is_file(), f"AisleRiot corpus not found at {HELP}"
    out = tmp_path_factory.mktemp("corpus") / "site"
    report = build_site(HELP / "C", HELP, out, langs=LANGS, echo=False)
    return out, report


def _links(page: Path) -> list[str]:
    tree = lxml.html.parse(str(page))
    return [el.get(attr) for el in tree.iter() if isinstance(el.tag, str)
            for attr in ("href", "src") if el.get(attr)]


def _ids(page: Path, cache: dict[Path, set[str]]) -> set[str]:
    if page not in cache:
        cache[page] = {el.get("id") for el in lxml.html.parse(str(page)).iter()
                       if isinstance(el.tag, str) and el.get("id")}
    return cache[page]


def test_every_page_of_the_manual_is_built_in_each_language(corpus_site):
    out, report = corpus_site
    document = load_document(HELP / "C")
    games = sorted(page.slug for page in document.pages if page.kind == "game")
    assert len(games) == 91
    kinds = {page.kind for page in document.pages}
    assert {"game", "definitions", "legal"} <= kinds
    for lang in LANGS:
        built = {p.stem for p in (out / lang).glob("*.html")}
        # each page of the book, the index (front matter) and the translation report
        assert {page.slug for page in document.pages} | {"index", "report"} <= built
        assert report.language(lang).pages == len(document.pages) + 2
    assert (out / "de" / "_images" / "camelot-goal.png").is_file()
    assert (out / "el" / "_images" / "clock-rules.png").is_file()


def test_the_build_lists_the_games_without_an_engine_model(corpus_site):
    _, report = corpus_site
    # Every embedded game matches its AisleRiot page (eagle-wing for eagle_wing, ...), and only those.
    assert sorted(map(game_key, report.models)) == sorted(map(game_key, EMBEDDED_GAMES))
    assert len(report.without_model) == 91 - len(report.models) and "accordion" in report.without_model
    assert "hamilton" not in report.without_model


def test_every_game_is_reachable_from_the_index_page(corpus_site):
    out, _ = corpus_site
    document = load_document(HELP / "C")
    games = {page.slug for page in document.pages if page.kind == "game"}
    for lang in LANGS:
        root = (out / lang).resolve()
        seen, queue = set(), deque([root / "index.html"])
        while queue:
            page = queue.popleft()
            if page in seen:
                continue
            seen.add(page)
            for link in _links(page):
                parts = urlsplit(link)
                if parts.scheme or parts.netloc or not parts.path.endswith(".html"):
                    continue
                target = (page.parent / unquote(parts.path)).resolve()
                if target.parent == root and target.is_file():
                    queue.append(target)
        reached = {p.stem for p in seen}
        assert games <= reached, f"{lang}: not reachable from the index: {sorted(games - reached)}"


def test_no_internal_link_is_broken(corpus_site):
    out, _ = corpus_site
    ids: dict[Path, set[str]] = {}
    broken = []
    checked = 0
    for lang in LANGS:
        for page in sorted((out / lang).glob("*.html")):
            for link in _links(page):
                parts = urlsplit(link)
                if parts.scheme in ("http", "https", "mailto", "javascript", "data") or parts.netloc:
                    continue
                target = (page.parent / unquote(parts.path)).resolve() if parts.path else page.resolve()
                checked += 1
                if not target.exists():
                    broken.append(f"{page.relative_to(out)}: {link}")
                elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _ids(target, ids):
                    broken.append(f"{page.relative_to(out)}: {link} (no such anchor)")
    assert checked > 5000
    assert broken == []


def test_corpus_pages_get_what_our_own_pages_get(corpus_site):
    out, _ = corpus_site
    hamilton = (out / "de" / "hamilton.html").read_text(encoding="utf-8")
    assert '<html lang="de"' in hamilton
    assert '<a href="../el/hamilton.html" hreflang="el" lang="el" rel="alternate">' in hamilton
    # an engine model from the embedded rules: the setup picture with AisleRiot's German labels,
    # and the live board
    assert 'class="pb-setup-picture"' in hamilton and ">Auswahlfeld</text>" in hamilton
    assert "data-pb-board" in hamilton
    assert "data-pb-board" in (out / "de" / "klondike.html").read_text(encoding="utf-8")
    assert "data-pb-board" not in (out / "de" / "accordion.html").read_text(encoding="utf-8")
    # untranslated units of the German catalog fall back to English, marked as such
    wall = (out / "de" / "wall.html").read_text(encoding="utf-8")
    assert '<div class="pb-fallback pb-untranslated" lang="en"' in wall
    assert "wall.xml" in (out / "de" / "report.html").read_text(encoding="utf-8")
    root = (out / "index.html").read_text(encoding="utf-8")
    assert '<span class="coverage" lang="de">90,4\u00a0% übersetzt</span>' in root  # CLDR's German percent
    assert "hamilton" in (out / "el" / "searchindex.js").read_text(encoding="utf-8")
