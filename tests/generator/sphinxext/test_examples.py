"""The DocBook parser's step-through examples, setup pictures and live board, in the built HTML.

Builds tests/data/sphinxext/examples/<lang>/demo.xml (a page as the site build writes it, with a
hand-made trace) with the Sphinx extension in this process.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from lxml import etree, html as lxml_html

from patiencebook.generator.sphinxext.parser import _script_json
from tests.generator.sphinxext.fixture import EXAMPLES, build_examples

TRACE = re.compile(r"<pb:trace>(.*?)</pb:trace>", re.DOTALL)


def _source_trace(lang: str) -> dict:
    return json.loads(TRACE.search((EXAMPLES / lang / "demo.xml").read_text(encoding="utf-8")).group(1))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("examples")
    built = build_examples(tmp / "out", tmp / "work")
    assert all(not warnings for _, warnings in built.values()), built
    return tmp / "out"


def _page(site: Path, lang: str):
    return lxml_html.fromstring((site / lang / "demo.html").read_bytes())


def test_example_with_trace_is_a_figure_labelled_by_its_caption_in_the_page_language(site):
    figure = _page(site, "de").get_element_by_id("demo-example-start")
    assert figure.tag == "figure"
    assert figure.get("role") == "group"
    assert "data-pb-example" in figure.attrib
    caption = figure.find("figcaption")
    assert figure.get("aria-labelledby") == caption.get("id") == "demo-example-start-caption"
    assert caption.text_content() == "Beispiel Die ersten Züge"
    assert caption.find("span").get("class") == "pb-example-label"


def test_example_buttons_carry_the_trace_labels_and_the_status_is_a_polite_live_region(site):
    for lang in ("de", "el"):
        ui = _source_trace(lang)["ui"]
        widget = _page(site, lang).find_class("pb-example-widget")[0]
        assert "hidden" in widget.attrib  # shown by the script; without it only the list of steps shows
        buttons = widget.findall(".//button")
        assert [b.get("type") for b in buttons] == ["button"] * 4
        assert [b.get("data-pb-go") for b in buttons] == ["first", "previous", "next", "last"]
        assert [b.text_content().split(" ", 1)[1] for b in buttons] == [
            ui["first"], ui["previous"], ui["next"], ui["last"]]
        controls = widget.find_class("pb-example-controls")[0]
        assert controls.get("role") == "group" and controls.get("aria-label") == ui["controls"]
        status = widget.find_class("pb-example-status")[0]
        assert status.get("aria-live") == "polite"
        board = widget.find_class("pb-example-board")[0]
        assert board.get("tabindex") == "0"
        assert widget.get_element_by_id(board.get("aria-describedby")).text_content() == ui["keys"]


def test_steps_list_numbers_each_step_and_holds_its_words_refusal_and_translated_note(site):
    figure = _page(site, "de").get_element_by_id("demo-example-start")
    items = figure.xpath(".//ol[contains(@class, 'pb-example-steps')]/li")
    assert [li.get("data-pb-step") for li in items] == ["1", "2", "3", "4"]
    paragraphs = [[p.text_content() for p in li.findall("p")] for li in items]
    assert paragraphs == [
        ["auf den Talon klicken"],
        ["Herz-Ass von Reihe 1 auf Ablagestapel 1 legen", "Ein Ass gehört immer auf einen Ablagestapel."],
        ["Kreuz-Drei von der Ablage auf Ablagestapel 1 legen",
         "Abgelehnt: Kreuz-Drei passt nicht auf Herz-Ass: Ablagestapel 1 baut in Farbe aufwärts"],
        ["Herz-Zwei von Reihe 2 auf Ablagestapel 1 legen", "Jetzt liegt die Herz-Zwei auf dem Ass."],
    ]
    assert items[2].find("p[@class='pb-step-refused']") is not None


def test_trace_json_in_the_page_reads_back_as_the_source_trace(site):
    for lang in ("de", "el"):
        script = _page(site, lang).xpath("//script[@class='pb-trace']")
        assert len(script) == 1 and script[0].get("type") == "application/json"
        assert json.loads(script[0].text) == _source_trace(lang)


def test_script_json_never_holds_a_closing_tag_or_comment_opener_and_reads_back_equal():
    data = {"announce": "a </script><!-- b", "words": ["<p>", "x < y"]}
    text = _script_json(data)
    assert "<" not in text
    assert json.loads(text) == data


def test_trace_text_with_a_closing_script_tag_stays_inside_the_script(tmp_path):
    built = build_examples(tmp_path / "out", tmp_path / "work", langs=("de",),
                           edit=lambda text: text.replace("auf den Talon klicken", "auf den Talon &lt;/script&gt; klicken"))
    assert not built["de"][1]
    page = _page(tmp_path / "out", "de")
    script = page.xpath("//script[@class='pb-trace']")[0]
    assert json.loads(script.text)["steps"][1]["words"] == "auf den Talon </script> klicken"
    assert page.xpath("//li[@data-pb-step='1']/p")[0].text_content() == "auf den Talon </script> klicken"


def test_example_without_trace_is_a_titled_block(site):
    html = (site / "de" / "demo.html").read_text(encoding="utf-8")
    assert ('<div class="pb-example docutils container">\n<p class="rubric">Ein Spiel aus AisleRiot</p>\n'
            '<p>Ohne Spur bleibt dies ein einfacher Block.</p>') in html
    assert html.count("data-pb-example") == 1


def test_unreadable_trace_warns_with_file_and_line_and_keeps_the_example_as_a_block(tmp_path):
    def break_trace(text: str) -> str:
        # The build gives the example its source line, not the trace it adds.
        text = text.replace('<example id="demo-example-start">', '<example id="demo-example-start" pb:line="42">')
        return text.replace("<pb:trace>{", "<pb:trace>{,", 1)

    built = build_examples(tmp_path / "out", tmp_path / "work", langs=("de",), edit=break_trace)
    assert "rules/demo.xml:42: WARNING: example trace is not valid JSON" in built["de"][1]
    html = (tmp_path / "out" / "de" / "demo.html").read_text(encoding="utf-8")
    assert "data-pb-example" not in html and "pb-trace" not in html
    assert '<p class="rubric">Die ersten Züge</p>' in html


def test_setup_picture_is_the_inline_svg_in_a_figure_without_build_namespaces(site):
    html = (site / "el" / "demo.html").read_text(encoding="utf-8")
    figure = re.search(r'<figure class="pb-setup-picture no-search">(.*?)</figure>', html, re.DOTALL).group(1)
    assert figure.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 58 46" role="img"')
    assert "urn:x-patiencebook" not in figure
    assert figure.endswith("</svg><figcaption>Διάταξη της Δοκιμής</figcaption>")
    svg = etree.fromstring(figure[:figure.index("<figcaption>")])
    assert svg.findtext("{http://www.w3.org/2000/svg}title") == "Διάταξη της Δοκιμής"


def test_board_is_a_section_play_titled_from_its_ui_holding_its_json(site):
    page = _page(site, "el")
    section = page.get_element_by_id("play")
    assert section.tag == "section"
    assert section.find("h2").text == "Παίξτε αυτή τη μοιρασιά"
    board = section.find_class("pb-board")[0]
    assert "data-pb-board" in board.attrib
    data = board.find("script")
    assert data.get("class") == "pb-board-data" and data.get("type") == "application/json"
    assert json.loads(data.text)["deal"] == 7


def test_board_without_a_title_in_its_ui_takes_the_page_language_title(tmp_path):
    built = build_examples(tmp_path / "out", tmp_path / "work", langs=("de",),
                           edit=lambda text: text.replace('"ui": {"board_title": "Dieses Spiel spielen"}', '"ui": {}'))
    assert not built["de"][1]
    from patiencebook.generator.languages import ui_strings

    section = _page(tmp_path / "out", "de").get_element_by_id("play")
    assert section.find("h2").text == ui_strings("de")["board_title"]


def test_json_scripts_and_button_labels_stay_out_of_the_search_index(site):
    index = (site / "de" / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(index[index.index("(") + 1:index.rindex(")")])["terms"]
    assert {"talon", "ablagestapel", "herz"} <= set(terms)  # the steps' words are searchable
    assert not {"foundation1", "tableau1", "playing", "announc", "schritt", "pfeiltast"} & set(terms)


def test_scripts_load_the_card_renderer_before_the_example_widget(site):
    html = (site / "de" / "demo.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script ([^>]*)src="_static/([a-z_-]+\.js)', html)
    # The renderer and the examples: one bundle, fetched first and run first; the board's after
    # Sphinx's; all deferred.
    assert scripts[0] == ('defer="defer" fetchpriority="high" ', "pb-examples.js")
    assert [name for _, name in scripts] == ["pb-examples.js", "documentation_options.js", "doctools.js",
                                             "sphinx_highlight.js", "pb-boards.js", "translations.js"]
    from patiencebook.generator.sphinxext import STATIC_DIR as static
    bundle = (site / "de" / "_static" / "pb-examples.js").read_text(encoding="utf-8")
    assert bundle == "".join((static / name).read_text(encoding="utf-8").rstrip("\n") + "\n"
                             for name in ("pb-cards.js", "pb-example.js"))
    styles = re.findall(r'<link rel="stylesheet" type="text/css" href="_static/((?:pb|patiencebook)[a-z-]*\.css)', html)
    assert styles == ["pb-style.css"]
    style = (site / "de" / "_static" / "pb-style.css").read_text(encoding="utf-8")
    assert all((static / name).read_text(encoding="utf-8").strip() in style
               for name in ("patiencebook.css", "pb-cards.css", "pb-example.css", "pb-board.css"))


def test_sphinx_scripts_do_not_block_parsing_except_on_the_search_page(site):
    html = (site / "de" / "demo.html").read_text(encoding="utf-8")
    blocking = re.findall(r'<script src="([^"]+)"', html)
    assert blocking == [] and re.search(r'<script defer="defer" src="_static/doctools\.js', html)
    search = (site / "de" / "search.html").read_text(encoding="utf-8")
    # searchtools.js comes after them without defer and needs them: there they stay as they are.
    assert re.search(r'<script src="_static/doctools\.js', search)


def test_procedure_outside_a_traced_example_is_an_ordered_list_with_nested_substeps(tmp_path):
    procedure = ("<procedure><step><para>Erstens</para><substeps><step><para>Erstens a</para></step>"
                 "<step><para>Erstens b</para></step></substeps></step><step><para>Zweitens</para></step></procedure>")
    built = build_examples(tmp_path / "out", tmp_path / "work", langs=("de",),
                           edit=lambda text: text.replace("<para>Ohne Spur bleibt dies ein einfacher Block.</para>",
                                                          procedure))
    assert not built["de"][1]
    block = _page(tmp_path / "out", "de").xpath("//div[@class='pb-example docutils container']")[0]
    outer = block.find("ol")
    assert [li.xpath("string(p)") for li in outer.findall("li")] == ["Erstens", "Zweitens"]
    assert [li.text_content().strip() for li in outer.find("li").find("ol").findall("li")] == ["Erstens a", "Erstens b"]
