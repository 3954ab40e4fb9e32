"""Building the site: every language, real HTML content, coverage, and the all-or-nothing swap.

Builds tests/data/site (a three-page book, our own text) with its small catalogs for de, el, sr.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import lxml.html
import pytest

from patiencebook.generator.pages.board import ENGINE_DIR, PYODIDE_DIR, SERVICE_WORKER, find_pyodide
from patiencebook.generator.project import SITE_MARKER
from patiencebook.generator.site.build import build_site
from patiencebook.generator.site.cache import CACHE_DIR
from patiencebook.generator.errors import BuildError, CatalogError, LanguageError, SourceError

SITE = Path(__file__).resolve().parents[2] / "data" / "site"
SOURCES, CATALOGS = SITE / "C", SITE / "locales"
ALL = ["en", "de", "el", "sr", "sr@latin"]
# the live boards' shared runtime and the service worker that keeps it, present when the npm
# package is installed (scripts/setup.sh)
BOARD = [ENGINE_DIR, PYODIDE_DIR, SERVICE_WORKER] if find_pyodide() else []
# what a site keeps of its build, for the next one
BOARD.append(CACHE_DIR)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    parent = tmp_path_factory.mktemp("site")
    report = build_site(SOURCES, CATALOGS, parent / "out", jobs=2, echo=False)
    return parent, report


def _page(site, lang: str, slug: str) -> str:
    return (site[0] / "out" / lang / f"{slug}.html").read_text(encoding="utf-8")


def test_default_languages_are_english_every_catalog_and_sr_latin(site):
    assert [r.lang for r in site[1].languages] == ALL
    assert sorted(p.name for p in (site[0] / "out").iterdir()) == sorted(ALL + ["index.html", SITE_MARKER] + BOARD)


def test_pages_have_the_same_urls_in_every_language(site):
    names = {lang: sorted(p.name for p in (site[0] / "out" / lang).glob("*.html")) for lang in ALL}
    assert names["en"] == ["definitions.html", "games.html", "index.html", "intro.html", "parade.html",
                           "report.html", "search.html", "sultan.html"]
    assert all(files == names["en"] for files in names.values())


def test_translated_text_and_html_lang_are_on_each_page(site):
    de = _page(site, "de", "sultan")
    assert '<html lang="de"' in de
    assert "Behalten Sie den Sultan in der Tischmitte im Blick." in de
    assert '<html lang="el"' in _page(site, "el", "sultan")
    assert "Προσέξτε τον σουλτάνο στη μέση του τραπεζιού." in _page(site, "el", "sultan")
    assert '<html lang="sr-Cyrl"' in _page(site, "sr", "sultan")
    assert "Пазите на султана у средини стола." in _page(site, "sr", "sultan")


def test_sr_latin_is_derived_from_the_serbian_catalog(site):
    page = _page(site, "sr@latin", "sultan")
    assert '<html lang="sr-Latn"' in page
    assert "Pazite na sultana u sredini stola." in page
    assert "Пазите" not in page


def test_switcher_links_the_same_page_in_every_other_language(site):
    page = _page(site, "de", "sultan")
    for lang, bcp47, name in [("en", "en", "English"), ("el", "el", "Ελληνικά"),
                              ("sr", "sr-Cyrl", "Српски (ћирилица)"), ("sr@latin", "sr-Latn", "Srpski (latinica)")]:
        assert f'<a href="../{lang}/sultan.html" hreflang="{bcp47}" lang="{bcp47}" rel="alternate">{name}</a>' in page


def test_untranslated_and_fuzzy_blocks_are_english_with_a_visible_mark(site):
    sultan = _page(site, "de", "sultan")
    block = re.search(r'<div class="pb-fallback pb-untranslated" lang="en"[^>]*>(.*?)</div>', sultan, re.S)
    assert block and "The waste can be turned over twice." in block.group(1)
    assert '<span class="pb-fallback-mark" lang="de">nicht übersetzt</span>' in block.group(1)
    parade = _page(site, "de", "parade")
    fuzzy = re.search(r'<div class="pb-fallback pb-fuzzy" lang="en"[^>]*>(.*?)</div>', parade, re.S)
    assert fuzzy and "Clear the tableau one card at a time." in fuzzy.group(1)
    assert "Übersetzung veraltet" in fuzzy.group(1)
    assert "pb-fallback" not in _page(site, "en", "sultan")


def test_links_between_pages_use_target_titles_in_the_page_language(site):
    intro = _page(site, "el", "intro")
    assert '<a class="reference internal" href="sultan.html#Sultan"><span class="std std-ref">Σουλτάνος</span></a>' in intro
    sultan = _page(site, "sr", "sultan")
    assert 'href="definitions.html#foundation"><span class="std std-ref">темељ</span></a>' in sultan


def test_games_chapter_links_its_pages_instead_of_repeating_them(site):
    games = _page(site, "de", "games")
    assert 'href="sultan.html"' in games and 'href="parade.html"' in games
    assert "Behalten Sie den Sultan" not in games


def test_coverage_is_reported_per_language(site):
    de = site[1].language("de")
    assert (de.total, de.translated, de.fuzzy, de.untranslated) == (26, 24, 1, 1)
    assert de.summary() == "de: 24/26 blocks translated (92.3 %), 1 fuzzy, 1 untranslated"
    assert site[1].language("en").coverage == 1.0
    assert site[1].language("sr@latin").translated == site[1].language("sr").translated == 25


def test_root_index_lists_every_language_by_native_name(site):
    index = (site[0] / "out" / "index.html").read_text(encoding="utf-8")
    assert '<a href="sr@latin/index.html" hreflang="sr-Latn" lang="sr-Latn">Srpski (latinica)</a>' in index
    assert '<span class="coverage" lang="de">92,3\u00a0% übersetzt</span>' in index


def test_serbian_search_index_uses_folded_latin_keys(site):
    index = (site[0] / "out" / "sr" / "searchindex.js").read_text(encoding="utf-8")
    assert '"spil"' in index           # шпила, folded and stemmed
    assert "шпил" not in index.split('"titles"')[0].split('"terms"')[-1]


def test_no_external_resources_are_referenced(site):
    for page in (site[0] / "out").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<(?:script|link|img)[^>]+(?:src|href)="(?:https?:)?//', text), page


def test_no_page_holds_an_inline_script_and_the_quick_search_is_shown_without_one(site):
    # `serve` allows only the site's own script files; an inline script would also hold up the
    # parser until every style sheet has loaded, and with it the examples' first step.
    out = site[0] / "out"
    for page in out.rglob("*.html"):
        tree = lxml.html.parse(str(page))
        inline = [s for s in tree.xpath("//script[not(@src)]") if s.get("type") != "application/json"]
        assert inline == [], page
    box = lxml.html.parse(str(out / "de" / "sultan.html")).xpath('//*[@id="searchbox"]')
    assert len(box) == 1 and "display" not in (box[0].get("style") or "")
    assert box[0].xpath('.//form[@action="search.html"]//input[@name="q"]')


def test_every_page_names_an_icon_that_is_in_the_site(site):
    # Without one, a browser asks for /favicon.ico and gets a 404 from every server.
    out = site[0] / "out"
    for page in [out / "index.html", *(out / lang / "sultan.html" for lang in ALL), out / "de" / "search.html"]:
        links = lxml.html.parse(str(page)).xpath('//link[@rel="icon"]/@href')
        assert len(links) == 1, page
        icon = (page.parent / links[0]).resolve()
        assert icon.is_file() and icon.read_bytes().startswith(b"<svg"), (page, links[0])


def test_only_the_output_folder_is_left_beside_it(site):
    assert [p.name for p in site[0].iterdir()] == ["out"]


def test_the_cli_build_prints_coverage(tmp_path, capsys):
    from patiencebook.generator.cli import main

    status = main(["build", "--sources", str(SOURCES), "--catalogs", str(CATALOGS), "--out",
                   str(tmp_path / "out"), "--lang", "de"])
    assert status == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].split() == ["language", "pages", "blocks", "coverage", "fuzzy", "untranslated", "warnings",
                                "findings", "time"]
    row = next(line.split() for line in lines if line.startswith("de "))
    # 7 pages: index, games, intro, parade, sultan, definitions, report; of 26 blocks one is fuzzy
    # and one untranslated; no warnings
    assert row[:8] == ["de", "7", "24/26", "92.3", "%", "1", "1", "0"]
    assert "de: 7 pages built in" in captured.err  # progress, one line per language off a terminal


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of a site but its build cache (which a failed build may have begun to update:
    what it says there is dropped, see test_a_failed_build_leaves_a_cache_the_next_build_can_use)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and CACHE_DIR not in p.relative_to(folder).parts}


def test_a_failed_build_leaves_the_previous_site_exactly_as_it_was(tmp_path):
    out = tmp_path / "out"
    build_site(SOURCES, CATALOGS, out, langs=["en", "de"], echo=False)
    before = _snapshot(out)
    broken = tmp_path / "broken"
    shutil.copytree(SITE, broken)
    (broken / "C" / "parade.xml").write_text("<sect1><title>Parade</title>\n<para>no end</sect1>\n",
                                             encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        build_site(broken / "C", broken / "locales", out, langs=["en", "de"], echo=False)
    assert "parade.xml" in str(caught.value)
    assert _snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken", "out"]


def test_a_bad_catalog_fails_in_its_worker_and_keeps_the_previous_site(tmp_path):
    out = tmp_path / "out"
    build_site(SOURCES, None, out, echo=False)
    before = _snapshot(out)
    broken = tmp_path / "broken"
    shutil.copytree(SITE, broken)
    po = broken / "locales" / "el" / "LC_MESSAGES" / "help.po"
    po.write_text(po.read_text(encoding="utf-8") + '\nmsgid "unterminated\n', encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        build_site(broken / "C", broken / "locales", out, langs=["en", "el"], echo=False)
    assert caught.value.file == str(po) and caught.value.line is not None
    assert _snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken", "out"]


def test_an_unknown_or_uncatalogued_language_is_refused_before_anything_is_written(tmp_path):
    with pytest.raises(LanguageError, match="'tlh'"):
        build_site(SOURCES, CATALOGS, tmp_path / "out", langs=["tlh"], echo=False)
    with pytest.raises(LanguageError, match="no catalog for 'en_GB'"):
        build_site(SOURCES, CATALOGS, tmp_path / "out", langs=["en_GB"], echo=False)
    assert list(tmp_path.iterdir()) == []


def test_a_second_build_replaces_the_first(tmp_path):
    out = tmp_path / "out"
    build_site(SOURCES, CATALOGS, out, langs=["en", "de"], echo=False)
    (out / "stale.txt").write_text("old", encoding="utf-8")
    build_site(SOURCES, CATALOGS, out, langs=["en"], echo=False)
    assert sorted(p.name for p in out.iterdir()) == sorted([SITE_MARKER, "en", "index.html"] + BOARD)


def test_a_folder_that_is_not_a_site_is_never_replaced(tmp_path):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(BuildError, match="not a site built by patiencebook") as caught:
        build_site(SOURCES, CATALOGS, out, langs=["en"], echo=False)
    assert caught.value.file == str(out)
    assert [p.name for p in out.iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes"]


def test_the_output_folder_cannot_be_or_hold_an_input_folder(tmp_path):
    for out in (SOURCES, CATALOGS, SOURCES.parent, SOURCES / "site"):
        with pytest.raises(BuildError, match="outside the input folder"):
            build_site(SOURCES, CATALOGS, out, langs=["en"], echo=False)


def test_an_output_path_that_is_a_file_is_refused(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("hi", encoding="utf-8")
    with pytest.raises(BuildError, match="not a folder"):
        build_site(SOURCES, CATALOGS, afile, langs=["en"], echo=False)
    with pytest.raises(BuildError, match="cannot create the output folder"):
        build_site(SOURCES, CATALOGS, afile / "sub", langs=["en"], echo=False)
    assert afile.read_text(encoding="utf-8") == "hi"


def test_a_missing_catalogs_folder_is_an_error_not_an_english_only_site(tmp_path):
    with pytest.raises(CatalogError, match="no such catalogs folder"):
        build_site(SOURCES, tmp_path / "nosuch", tmp_path / "out", echo=False)
    assert not (tmp_path / "out").exists()


def test_a_msgstr_with_broken_markup_is_reported_with_its_catalog_line(tmp_path):
    catalogs = tmp_path / "locales"
    shutil.copytree(CATALOGS, catalogs)
    po = catalogs / "de" / "LC_MESSAGES" / "help.po"
    text = po.read_text(encoding="utf-8")
    marker = 'msgstr "'
    lines = text.splitlines()
    # The last msgstr of the file gets an unclosed element.
    index = max(i for i, line in enumerate(lines) if line.startswith(marker) and line != 'msgstr ""')
    lines[index] = lines[index][:-1] + '<emphasis>"'
    po.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = build_site(SOURCES, catalogs, tmp_path / "out", langs=["de"], echo=False)
    problems = [w for w in report.language("de").warnings if "not well-formed" in w]
    assert len(problems) == 1, report.language("de").warnings
    match = re.fullmatch(rf"{re.escape(str(po))}:(\d+): msgstr is not well-formed XML; the block is shown "
                         r"in English \(msgid '.+'\)", problems[0])
    assert match, problems[0]
    # The line is the unit's msgid line, just above the broken msgstr.
    assert lines[int(match.group(1)) - 1].startswith("msgid ") and int(match.group(1)) <= index
    assert report.language("de").untranslated >= 1


SHARED = Path(__file__).resolve().parents[3].parent / "shared"


@pytest.mark.corpus
@pytest.mark.slow
def test_the_aisleriot_corpus_builds_in_greek_and_serbian_latin_without_warnings(tmp_path):
    help_dir = SHARED / "corpus" / "aisleriot" / "help"
    assert (help_dir / "C" / "index.docbook").exists(), f"AisleRiot corpus not found at {help_dir}"
    report = build_site(help_dir / "C", help_dir, tmp_path / "out", langs=["el", "sr@latin"], echo=False)
    assert report.all_warnings == ()
    el = report.language("el")
    assert el.total > 2000 and el.translated / el.total > 0.9
    out = tmp_path / "out"
    assert len(list((out / "el").glob("*.html"))) == len(list((out / "sr@latin").glob("*.html"))) > 90
    hamilton = (out / "el" / "hamilton.html").read_text(encoding="utf-8")
    assert '<html lang="el"' in hamilton and '<section id="Hamilton">' in hamilton
    camelot = (out / "sr@latin" / "camelot.html").read_text(encoding="utf-8")
    assert 'src="_images/camelot-goal.png"' in camelot and (out / "sr@latin" / "_images" / "camelot-goal.png").is_file()


def test_a_failed_build_leaves_a_cache_the_next_build_can_use(tmp_path):
    work = tmp_path / "work"
    shutil.copytree(SITE, work)
    out = tmp_path / "out"
    build_site(work / "C", work / "locales", out, langs=["en", "de"], echo=False)
    po = work / "locales" / "de" / "LC_MESSAGES" / "help.po"
    good = po.read_text(encoding="utf-8")
    po.write_text(good + '\nmsgid "unterminated\n', encoding="utf-8")
    with pytest.raises(CatalogError):
        build_site(work / "C", work / "locales", out, langs=["en", "de"], echo=False)
    # A changed msgstr after the failure: the next build shows it, and reuses the untouched English.
    msgstr = next(line for line in good.splitlines() if line.startswith('msgstr "') and len(line) > 12)
    po.write_text(good.replace(msgstr, msgstr[:-1] + ' GEÄNDERT"', 1), encoding="utf-8")
    report = build_site(work / "C", work / "locales", out, langs=["en", "de"], echo=False)
    assert report.language("en").reused and not report.language("de").reused
    assert any("GEÄNDERT" in page.read_text(encoding="utf-8") for page in (out / "de").glob("*.html"))


def _broken_catalogs(tmp_path: Path) -> Path:
    broken = tmp_path / "broken"
    shutil.copytree(SITE, broken)
    po = broken / "locales" / "el" / "LC_MESSAGES" / "help.po"
    po.write_text(po.read_text(encoding="utf-8") + '\nmsgid "unterminated\n', encoding="utf-8")
    return broken


def test_a_failed_first_build_leaves_no_output_folder(tmp_path):
    broken = _broken_catalogs(tmp_path)
    with pytest.raises(CatalogError):
        build_site(broken / "C", broken / "locales", tmp_path / "out", langs=["en", "el"], echo=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken"]


def test_a_failed_build_into_an_empty_folder_leaves_it_empty(tmp_path):
    broken = _broken_catalogs(tmp_path)
    (tmp_path / "out").mkdir()
    with pytest.raises(CatalogError):
        build_site(broken / "C", broken / "locales", tmp_path / "out", langs=["en", "el"], echo=False)
    assert list((tmp_path / "out").iterdir()) == []


def test_the_build_writes_only_inside_the_output_folder(tmp_path, monkeypatch):
    # Every folder the build creates lies below --out, also while it runs.
    made = []
    real_mkdtemp = __import__("tempfile").mkdtemp

    def spy(*args, **kwargs):
        made.append(Path(kwargs.get("dir") or args[2]))
        return real_mkdtemp(*args, **kwargs)

    monkeypatch.setattr("patiencebook.generator.site.build.tempfile.mkdtemp", spy)
    out = tmp_path / "out"
    build_site(SOURCES, CATALOGS, out, langs=["en", "de"], echo=False)
    assert made == [out]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_leftovers_of_a_killed_build_are_removed_and_do_not_block(tmp_path):
    out = tmp_path / "out"
    stale = out / ".patiencebook-build-dead"
    stale.mkdir(parents=True)
    (stale / ".owner").write_text("999999999", encoding="ascii")  # no such process
    build_site(SOURCES, CATALOGS, out, langs=["en"], echo=False)
    assert not stale.exists() and (out / SITE_MARKER).is_file()


def test_a_second_build_into_a_folder_being_built_is_refused(tmp_path):
    import fcntl

    out = tmp_path / "out"
    build_site(SOURCES, CATALOGS, out, langs=["en"], echo=False)
    holder = os.open(out, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)  # as a running build holds it
    try:
        with pytest.raises(BuildError, match="another build is writing to this folder"):
            build_site(SOURCES, CATALOGS, out, langs=["en"], echo=False)
    finally:
        os.close(holder)
    build_site(SOURCES, CATALOGS, out, langs=["en"], echo=False)


def test_missing_images_and_images_outside_the_sources_are_reported_and_never_copied(tmp_path):
    work = tmp_path / "work"
    shutil.copytree(SITE, work)
    secret = tmp_path / "secret.png"
    secret.write_bytes(b"\x89PNG not for the site")
    page = work / "C" / "parade.xml"
    text = page.read_text(encoding="utf-8")
    figure = ('<figure><title>F</title><mediaobject><imageobject><imagedata fileref="figures/none.png"/>'
              '</imageobject></mediaobject></figure><figure><title>G</title><mediaobject><imageobject>'
              '<imagedata fileref="../../secret.png"/></imageobject></mediaobject></figure>')
    page.write_text(text.replace("</sect1>", figure + "</sect1>", 1), encoding="utf-8")
    line = next(n for n, l in enumerate(page.read_text(encoding="utf-8").splitlines(), 1) if "none.png" in l)
    report = build_site(work / "C", None, tmp_path / "out", langs=["en"], echo=False)
    warnings = report.language("en").warnings
    assert f"{page}:{line}: image 'figures/none.png' is missing; the page shows its text instead" in warnings
    assert f"{page}:{line}: image '../../secret.png' lies outside the source folder; the page shows its text " \
           "instead" in warnings
    assert not any("not readable" in w for w in warnings)
    site_files = [p.read_bytes() for p in (tmp_path / "out").rglob("*.png") if p.is_file()]
    assert secret.read_bytes() not in site_files


def test_an_incomplete_translation_never_shows_as_100_per_cent():
    from patiencebook.generator.languages import get_language
    from patiencebook.generator.site.reports import LanguageReport, root_index_html
    from patiencebook.generator.site.progress import summary_table

    almost = LanguageReport("de", "de", 2199, 2198, 0, 1, pages=3)
    assert " 99.9 %" in summary_table([almost], 1.0)
    assert "99,9\u00a0% übersetzt" in root_index_html("Help", [almost], [get_language("de")], get_language("en"))


def test_a_closed_standard_output_does_not_fail_a_finished_build(tmp_path):
    import subprocess
    import sys

    out = tmp_path / "out"
    proc = subprocess.run(f"{sys.executable} -m patiencebook.generator.cli build --sources {SOURCES} --catalogs "
                          f"{CATALOGS} --out {out} --lang en --progress none | true", shell=True,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr
    assert (out / "en" / "index.html").is_file()
