"""A site keeps what it was built from (generator/site/cache.py): the next build reuses languages
that did not change, and for a changed catalog reads and writes again only the pages that changed,
giving the same site a fresh build gives."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from patiencebook.generator.site import cache as buildcache
from patiencebook.generator.site.build import build_site
from patiencebook.generator.site.cache import CACHE_DIR

SITE = Path(__file__).resolve().parents[2] / "data" / "site"
LANGS = ["en", "de", "el"]
OLD = "Ein Stapel, auf dem die Karten zum Sieg gesammelt werden."  # on the definitions page
NEW = "Ein Stapel, auf dem alle Karten zum Sieg gesammelt werden."


def _pages(folder: Path) -> dict[str, bytes]:
    # objects.inv (Sphinx's cross-reference inventory, which no page loads) is left out: Sphinx
    # fills a label of its own in it in whichever language its worker process built first.
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and CACHE_DIR not in p.relative_to(folder).parts and p.name != "objects.inv"}


def _mtimes(folder: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in folder.glob("*.html")}


@pytest.fixture
def work(tmp_path) -> Path:
    shutil.copytree(SITE, tmp_path / "work")
    return tmp_path / "work"


def _build(work: Path, out: Path, **options):
    return build_site(work / "C", work / "locales", out, langs=LANGS, echo=False, **options)


def _edit(work: Path, old: str, new: str) -> None:
    po = work / "locales" / "de" / "LC_MESSAGES" / "help.po"
    text = po.read_text(encoding="utf-8")
    assert text.count(f'msgstr "{old}"') == 1
    po.write_text(text.replace(f'msgstr "{old}"', f'msgstr "{new}"'), encoding="utf-8")


def test_a_second_build_of_the_same_input_reuses_every_language(work, tmp_path):
    out = tmp_path / "out"
    first = _build(work, out)
    pages = _pages(out)
    second = _build(work, out)
    assert [r.reused for r in first.languages] == [False, False, False]
    assert [r.reused for r in second.languages] == [True, True, True]
    assert _pages(out) == pages
    # The reused reports are those of the build that made the pages.
    assert [(r.lang, r.translated, r.total, r.findings, r.pages) for r in second.languages] == \
        [(r.lang, r.translated, r.total, r.findings, r.pages) for r in first.languages]


def test_an_edited_msgstr_rewrites_only_its_pages_and_matches_a_fresh_build(work, tmp_path):
    out = tmp_path / "out"
    _build(work, out)
    _edit(work, OLD, NEW)
    _build(work, out)  # the first build in place: from now on the cache sits where it stays
    before = _mtimes(out / "de")
    _edit(work, NEW, OLD)
    report = _build(work, out)
    assert {r.lang: r.reused for r in report.languages} == {"en": True, "de": False, "el": True}
    after = _mtimes(out / "de")
    rewritten = sorted(name for name in after if after[name] != before[name])
    assert "definitions.html" in rewritten and "sultan.html" not in rewritten and "parade.html" not in rewritten
    assert OLD in (out / "de" / "definitions.html").read_text(encoding="utf-8")
    fresh = tmp_path / "fresh"
    _build(work, fresh, fresh=True)
    assert _pages(out) == _pages(fresh)


def test_a_changed_title_writes_every_page_of_its_language_again(work, tmp_path):
    out = tmp_path / "out"
    _build(work, out)
    _build(work, out)
    _edit(work, "Die Spiele", "Alle Spiele")
    report = _build(work, out)
    assert not report.language("de").reused
    # The title shows on other pages (navigation, the index page): they show the new one.
    assert "Alle Spiele" in (out / "de" / "parade.html").read_text(encoding="utf-8")  # the first game, by title
    fresh = tmp_path / "fresh"
    _build(work, fresh, fresh=True)
    assert _pages(out) == _pages(fresh)


def test_changed_code_builds_every_language_afresh(work, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _build(work, out)
    monkeypatch.setattr(buildcache, "code_digest", lambda: "another version")
    monkeypatch.setattr("patiencebook.generator.site.build.code_digest", lambda: "another version")
    report = _build(work, out)
    assert [r.reused for r in report.languages] == [False, False, False]


def test_fresh_ignores_the_cache(work, tmp_path):
    out = tmp_path / "out"
    _build(work, out)
    report = _build(work, out, fresh=True)
    assert [r.reused for r in report.languages] == [False, False, False]


def test_a_language_no_longer_built_leaves_the_cache(work, tmp_path):
    out = tmp_path / "out"
    _build(work, out)
    build_site(work / "C", work / "locales", out, langs=["en", "de"], echo=False)
    assert sorted(p.name for p in (out / CACHE_DIR).iterdir()) == ["de", "en"]


def test_a_state_file_of_another_format_is_ignored(tmp_path):
    (tmp_path / "state.json").write_text('{"format": 99, "frame": "x"}', encoding="utf-8")
    assert buildcache.read_state(tmp_path) is None
    (tmp_path / "state.json").write_text("not json", encoding="utf-8")
    assert buildcache.read_state(tmp_path) is None
    buildcache.write_state(tmp_path, {"frame": "x"})
    assert buildcache.read_state(tmp_path) == {"frame": "x", "format": buildcache.FORMAT}


def test_write_if_changed_keeps_an_unchanged_file_as_it_is(tmp_path):
    target = tmp_path / "page.xml"
    assert buildcache.write_if_changed(target, b"<a/>")
    stamp = target.stat().st_mtime_ns
    assert not buildcache.write_if_changed(target, b"<a/>")
    assert target.stat().st_mtime_ns == stamp
    assert buildcache.write_if_changed(target, b"<b/>") and target.read_bytes() == b"<b/>"


def test_pages_changed_or_removed_by_hand_are_built_again(work, tmp_path):
    out = tmp_path / "out"
    _build(work, out)
    fresh = _pages(out)
    (out / "de" / "sultan.html").unlink()
    (out / "el" / "parade.html").write_text("edited by hand", encoding="utf-8")
    report = _build(work, out)
    assert {r.lang: r.reused for r in report.languages} == {"en": True, "de": False, "el": False}
    assert _pages(out) == fresh


@pytest.mark.parametrize("report", [{"x": 1}, None, {"lang": "de", "bcp47": "de", "total": 5, "translated": 5,
                                                      "fuzzy": 0, "untranslated": 0, "warnings": 5}])
def test_a_state_with_a_damaged_report_builds_the_language_again(work, tmp_path, report):
    import json

    out = tmp_path / "out"
    _build(work, out)
    state_file = out / CACHE_DIR / "de" / "state.json"
    state = json.loads(state_file.read_text(encoding="utf-8"))
    state["report"] = report
    state_file.write_text(json.dumps(state), encoding="utf-8")
    result = _build(work, out)
    assert {r.lang: r.reused for r in result.languages} == {"en": True, "de": False, "el": True}
    assert result.language("de").translated > 0


def test_a_cache_that_is_a_file_is_replaced(work, tmp_path):
    out = tmp_path / "out"
    _build(work, out)
    shutil.rmtree(out / CACHE_DIR)
    (out / CACHE_DIR).write_text("x", encoding="utf-8")
    _build(work, out)
    assert (out / CACHE_DIR / "de" / "state.json").is_file()
    shutil.rmtree(out / CACHE_DIR / "de")
    (out / CACHE_DIR / "de").write_text("x", encoding="utf-8")
    _build(work, out, fresh=False)
    assert (out / CACHE_DIR / "de" / "state.json").is_file()


def test_a_damaged_doctree_in_the_cache_makes_the_language_build_afresh(work, tmp_path):
    out = tmp_path / "out"
    _build(work, out)
    _edit(work, OLD, NEW)
    _build(work, out)
    _edit(work, NEW, OLD)
    for doctree in (out / CACHE_DIR / "de" / "doctrees").glob("*.doctree"):
        doctree.write_bytes(doctree.read_bytes()[:40])  # truncated pickles
    _build(work, out)
    fresh = tmp_path / "fresh"
    _build(work, fresh, fresh=True)
    assert _pages(out) == _pages(fresh)


def test_a_word_that_leaves_the_pages_leaves_the_search_index(work, tmp_path):
    out = tmp_path / "out"
    _build(work, out)
    _edit(work, OLD, "Ein Stapel mit Quetzalcoatlkarten.")
    _build(work, out)
    assert "quetzalcoatlkart" in (out / "de" / "searchindex.js").read_text(encoding="utf-8").lower()
    _edit(work, "Ein Stapel mit Quetzalcoatlkarten.", OLD)
    _build(work, out)
    fresh = tmp_path / "fresh"
    _build(work, fresh, fresh=True)
    assert (out / "de" / "searchindex.js").read_bytes() == (fresh / "de" / "searchindex.js").read_bytes()
