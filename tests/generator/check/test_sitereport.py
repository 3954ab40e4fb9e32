"""The translation report page of each language and the checks of the rendered pages.

Builds a copy of tests/data/site whose German catalog has two planted faults in the unit
"Two full decks": the number changed ("Drei") and a ``<script>`` element added.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import lxml.html
import pytest

from patiencebook.generator.site.build import build_site
from patiencebook.generator.check.findings import Finding
from patiencebook.generator.check.sitereport import (RENDERED_CHECK, check_rendered_html, insert_rendered_findings)
from patiencebook.generator.languages import ui_coverage, ui_strings

SITE = Path(__file__).resolve().parents[2] / "data" / "site"
ALL = ["en", "de", "el", "sr", "sr@latin"]
PLANTED = "Drei vollständige Kartenspiele <script>alert(1)</script>"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    parent = tmp_path_factory.mktemp("report")
    shutil.copytree(SITE, parent / "book")
    po = parent / "book" / "locales" / "de" / "LC_MESSAGES" / "help.po"
    text = po.read_text(encoding="utf-8")
    assert 'msgstr "Zwei vollständige Kartenspiele"' in text
    po.write_text(text.replace('msgstr "Zwei vollständige Kartenspiele"', f'msgstr "{PLANTED}"'), encoding="utf-8")
    report = build_site(parent / "book" / "C", parent / "book" / "locales", parent / "out", jobs=2, echo=False)
    return parent / "out", report


def _read(site, lang: str, name: str = "report.html") -> str:
    return (site[0] / lang / name).read_text(encoding="utf-8")


def _main(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(html).xpath('//*[@role="main"]')[0]


def test_every_language_has_a_report_page_titled_in_its_language(site):
    for lang in ALL:
        title = lxml.html.fromstring(_read(site, lang)).findtext(".//h1")
        assert title.startswith(ui_strings(lang)["report_title"]), lang
    assert ui_strings("el")["report_title"] == "Αναφορά μετάφρασης"
    assert ui_strings("sr@latin")["report_title"] == "Izveštaj o prevodu"


def test_the_index_page_of_every_language_links_the_report(site):
    for lang in ALL:
        index = lxml.html.fromstring(_read(site, lang, "index.html"))
        links = [a for a in index.xpath('//*[@role="main"]//a') if a.get("href") == "report.html"]
        assert [a.text_content() for a in links] == [ui_strings(lang)["report_title"]], lang


def test_the_language_switcher_of_the_report_leads_to_the_report_in_each_language(site):
    page = lxml.html.fromstring(_read(site, "de"))
    hrefs = sorted(a.get("href") for a in page.xpath('//nav[@class="pb-languages"]//a'))
    assert hrefs == ["../el/report.html", "../en/report.html", "../sr/report.html", "../sr@latin/report.html"]


def test_coverage_row_for_all_pages_equals_the_build_report(site):
    for lang in ALL:
        built = site[1].language(lang)
        row = _main(_read(site, lang)).xpath('.//section[@id="pb-report-coverage"]//tbody/tr')[0]
        cells = [td.text_content().strip() for td in row.findall("td")]
        assert cells == [ui_strings(lang)["report_all_pages"], str(built.total), str(built.translated),
                         str(built.fuzzy), str(built.untranslated)], lang


def test_coverage_lists_each_page_not_fully_translated_after_the_totals(site):
    rows = _main(_read(site, "de")).xpath('.//section[@id="pb-report-coverage"]//tbody/tr')
    cells = [[td.text_content().strip() for td in row.findall("td")] for row in rows]
    assert cells[1:] == [["Sultan", "15", "14", "0", "1"], ["Parade", "3", "2", "1", "0"]]


def test_planted_number_finding_is_listed_with_both_spans_and_source_line(site):
    main = _main(_read(site, "de"))
    rows = [[td.text_content().strip() for td in tr.findall("td")] for tr in main.xpath(".//tbody/tr")]
    assert ["number", "2 in the source, 3 in the translation", "Two", "Drei", "sultan.xml:11"] in rows


def test_findings_are_grouped_by_page_then_severity_errors_first(site):
    main = _main(_read(site, "de"))
    sultan = [s for s in main.xpath('.//section[@id="pb-report-findings"]/section')
              if s.findtext("h3").startswith("Sultan (sultan.xml)")]
    assert len(sultan) == 1
    captions = [c.text_content().rstrip("¶") for c in sultan[0].xpath(".//caption")]
    assert captions == ["Fehler", "Warnungen"]


def test_finding_text_from_a_msgstr_is_escaped_not_interpreted(site):
    html = _read(site, "de")
    main = _main(html)
    assert "<script>alert" not in html
    assert "the translation adds the tag &lt;script&gt;, which the English does not have" in html
    assert main.xpath(".//script") == []
    translations = [tr.findall("td")[3].text_content() for tr in main.xpath(".//tbody/tr")
                    if tr.findall("td")[0].text_content() == "markup"]
    assert translations == ["<script>"]


def test_english_report_shows_the_source_against_model_findings_or_none(site):
    main = _main(_read(site, "en"))
    section = main.xpath('.//section[@id="pb-report-findings"]')[0]
    assert section.findtext("h2").startswith("Findings of the English sources against the rules model")
    assert site[1].language("en").findings == 0
    assert [p.text_content() for p in section.findall("p")] == ["No findings."]


def test_sr_latin_report_says_it_shows_the_findings_of_the_serbian_catalog(site):
    main = _main(_read(site, "sr@latin"))
    assert "sr" in main.xpath('.//section[@id="pb-report-findings"]/p')[0].text_content()
    assert site[1].language("sr@latin").findings == site[1].language("sr").findings


def test_a_clean_build_has_no_rendered_findings_and_says_so(site):
    assert all(report.rendered == () for report in site[1].languages)
    rendered = _main(_read(site, "de")).xpath('.//section[@id="pb-report-rendered"]/p')
    assert [p.text_content() for p in rendered] == ["Keine Befunde."]


def test_a_fallback_without_its_visible_mark_is_a_rendered_finding(site):
    html = _read(site, "de", "sultan.html")
    assert html.count('class="pb-fallback-mark"') == 1
    stripped = re.sub(r'<span class="pb-fallback-mark"[^>]*>[^<]*</span>', "", html)
    assert check_rendered_html(html, "sultan.html", "de", {"fuzzy": 0, "untranslated": 1}) == []
    findings = check_rendered_html(stripped, "sultan.html", "de", {"fuzzy": 0, "untranslated": 1})
    assert [(f.check, f.severity, f.file) for f in findings] == [(RENDERED_CHECK, "warning", "sultan.html")]
    assert "without the visible fallback mark" in findings[0].message


def test_english_without_a_fallback_class_and_a_count_mismatch_are_rendered_findings():
    html = ('<!DOCTYPE html><html lang="de"><head><title>t</title></head><body>'
            '<div class="body" role="main"><p lang="en">Left in English.</p>'
            '<div class="pb-fallback pb-fuzzy" lang="en"><span class="pb-fallback-mark">veraltet</span>x</div>'
            '</div></body></html>')
    findings = check_rendered_html(html, "page.html", "de", {"fuzzy": 2, "untranslated": 0})
    messages = [f.message for f in findings]
    assert messages == ["<p> is shown in English without the visible fallback mark: 'Left in English.'",
                        "2 fuzzy block(s) in the page's source, 1 marked as such on the page"]


def test_html_the_parser_rejects_is_a_rendered_finding_with_its_line():
    html = '<!DOCTYPE html>\n<html lang="de">\n<body>\n<p>text</p>\n<p>closed by</div> a stray tag</p>\n</body></html>'
    findings = check_rendered_html(html, "page.html", "en")
    assert [(f.check, f.line, f.message) for f in findings] == [
        (RENDERED_CHECK, 5, "HTML parser error: Unexpected end tag : div")]


def test_rendered_findings_are_put_escaped_into_the_report_page(site, tmp_path):
    page = tmp_path / "report.html"
    page.write_text(_read(site, "de"), encoding="utf-8")
    finding = Finding("de", "sultan.html", 12, "", RENDERED_CHECK, "warning", "mark missing on <b>bold</b>")
    assert insert_rendered_findings(page, [finding], ui_strings("de"))
    html = page.read_text(encoding="utf-8")
    assert "Keine Befunde." not in html.split('id="pb-report-rendered"')[1]
    row = _main(html).xpath('.//table[contains(@class, "pb-rendered-findings")]//tbody/tr')[0]
    assert [td.text_content() for td in row.findall("td")] == ["rendered", "mark missing on <b>bold</b>",
                                                                "sultan.html:12"]
    assert "mark missing on &lt;b&gt;bold&lt;/b&gt;" in html


def test_without_the_report_there_is_no_report_page_and_no_index_link(tmp_path):
    built = build_site(SITE / "C", SITE / "locales", tmp_path / "out", langs=["de"], jobs=1, echo=False,
                       report=False)
    assert not (tmp_path / "out" / "de" / "report.html").exists()
    assert "report.html" not in (tmp_path / "out" / "de" / "index.html").read_text(encoding="utf-8")
    assert built.language("de").findings == 0 and built.language("de").rendered == ()


def test_the_coverage_section_says_how_many_interface_strings_are_in_the_language(site):
    german = _main(_read(site, "de")).xpath('.//section[@id="pb-report-coverage"]/p')
    total = ui_coverage(None)[1]  # the interface strings themselves, not the plural rules given with them
    assert [p.text_content() for p in german] == [
        f"Oberflächentexte in dieser Sprache: {total} von {total} der Hilfe selbst und 34 von 34 aus Sphinx; "
        "die übrigen erscheinen auf Englisch."]


def test_interface_strings_in_english_are_not_page_text_without_its_mark():
    # A page of a language we have no interface wording for: the fallback mark, the setup picture,
    # a move in words and the board are our strings in English (counted on the report page).
    html = ('<!DOCTYPE html><html lang="uk"><head><title>t</title></head><body><div class="body" role="main">'
            '<div class="pb-fallback pb-untranslated" lang="en"><span class="pb-fallback-mark" lang="en">'
            'not translated</span><p>Left in English.</p></div>'
            '<figure><svg class="pb-setup-picture pb-interface" lang="en"><text lang="uk">Талон</text></svg></figure>'
            '<div class="pb-interface" lang="en"><p class="pb-step-move">click the Talon</p></div>'
            '<p lang="en">Page text left in English.</p></div></body></html>')
    findings = check_rendered_html(html, "page.html", "uk", {"fuzzy": 0, "untranslated": 1})
    assert [f.message for f in findings] == [
        "<p> is shown in English without the visible fallback mark: 'Page text left in English.'"]
