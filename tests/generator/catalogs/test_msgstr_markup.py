"""A msgstr's markup reaches the page only as far as its msgid has it: anything else is shown as
text (escaped) and reported with the catalog line."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from lxml import etree

from patiencebook.generator.site.build import build_site
from patiencebook.generator.catalogs.translate import parse_msgstr, restrict_markup

SITE = Path(__file__).resolve().parents[2] / "data" / "site"


def _restricted(msgid: str, msgstr: str) -> tuple[str, list[str]]:
    element = etree.Element("para")
    wrapper = parse_msgstr(msgstr, element)
    shown = restrict_markup(wrapper, parse_msgstr(msgid, element))
    wrapper.tag = "msgstr"
    etree.cleanup_namespaces(wrapper)
    whole = etree.tostring(wrapper, encoding="unicode")
    inner = whole[whole.index(">") + 1:-len("</msgstr>")] if not whole.endswith("/>") else ""
    return inner, shown


def test_markup_the_msgid_has_stays_markup():
    inner, shown = _restricted('Move <emphasis>one</emphasis> card; see <ulink url="https://a.example/">here</ulink>.',
                               'Eine <emphasis>einzige</emphasis> Karte; <ulink url="https://a.example/">hier</ulink>.')
    assert shown == []
    assert inner == 'Eine <emphasis>einzige</emphasis> Karte; <ulink url="https://a.example/">hier</ulink>.'


def test_a_script_element_becomes_text():
    inner, shown = _restricted("Goal", "Ziel<script>alert(1)</script>!")
    assert shown == ["<script>"]
    assert inner == "Ziel&lt;script&gt;alert(1)&lt;/script&gt;!"


def test_an_event_handler_on_an_allowed_element_makes_the_element_text():
    inner, shown = _restricted("A <emphasis>b</emphasis>", 'A <emphasis onclick="steal()">b</emphasis>')
    assert shown == ['<emphasis onclick="steal()">']
    assert "<emphasis" not in inner and "&lt;emphasis onclick=\"steal()\"&gt;b&lt;/emphasis&gt;" in inner


def test_a_link_to_another_url_than_the_msgids_becomes_text():
    inner, shown = _restricted('See <ulink url="https://a.example/">here</ulink>',
                               'Siehe <ulink url="javascript:alert(1)">hier</ulink>')
    assert shown == ['<ulink url="javascript:alert(1)">']
    assert "<ulink" not in inner


def test_placeholders_comments_and_processing_instructions():
    inner, shown = _restricted("Start with <_:xref-1/>.", "Mit <_:xref-1/> <!-- x --><?php echo 1 ?> beginnen.")
    assert "<_:xref-1" in inner or "xref-1" in inner  # the placeholder stays an element
    assert shown == ["<!-- x -->", "<?php echo 1 ?>"]
    assert "&lt;!-- x --&gt;&lt;?php echo 1 ?&gt;" in inner


def test_nested_markup_inside_an_unknown_element_is_text_too():
    inner, shown = _restricted("A <emphasis>b</emphasis>", "A <b><emphasis>b</emphasis></b>")
    assert shown == ["<b>"]
    assert inner == "A &lt;b&gt;&lt;emphasis&gt;b&lt;/emphasis&gt;&lt;/b&gt;"


def test_a_hostile_msgstr_reaches_the_page_escaped_and_is_reported(tmp_path):
    work = tmp_path / "work"
    shutil.copytree(SITE, work)
    po = work / "locales" / "de" / "LC_MESSAGES" / "help.po"
    text = po.read_text(encoding="utf-8")
    hostile = 'Einführung<script>alert(1)</script><emphasis onmouseover=\\"x()\\">e</emphasis>'
    po.write_text(text.replace('msgstr "Einführung"', f'msgstr "{hostile}"'), encoding="utf-8")
    line = text.splitlines().index('msgid "Introduction"') + 1
    report = build_site(work / "C", work / "locales", tmp_path / "out", langs=["de"], echo=False)
    page = (tmp_path / "out" / "de" / "intro.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and not re.search(r"<[^>]*\sonmouseover=", page)
    assert "Einführung&lt;script&gt;alert(1)&lt;/script&gt;" in page
    warnings = report.language("de").warnings
    assert f"{po}:{line}: msgstr has markup its msgid lacks, <script>; shown as text (msgid 'Introduction')" in warnings
