"""Our interface strings shown in English on a page of a language we have no wording for are marked
``lang="en"`` wherever the build writes them: the setup picture, the examples, the solver figure and
the live board. A language with its own wording (German) gets no such mark."""

from __future__ import annotations

import shutil
from pathlib import Path

import lxml.html
import pytest

from patiencebook.generator.site.build import build_site

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    parent = tmp_path_factory.mktemp("marks")
    catalogs = parent / "locales"
    for lang in ("de", "uk"):  # Ukrainian has no interface strings of ours: the German catalog stands in
        (catalogs / lang / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(ROOT / "locales" / "de" / "LC_MESSAGES" / "help.po", catalogs / lang / "LC_MESSAGES" / "help.po")
    build_site(ROOT / "rules", catalogs, parent / "out", langs=["de", "uk"], echo=False, report=False)
    return {lang: lxml.html.parse(str(parent / "out" / lang / "hamilton.html")).getroot() for lang in ("de", "uk")}


def _langs(root, xpath: str) -> list[str | None]:
    return [el.get("lang") for el in root.xpath(xpath)]


def test_the_setup_picture_is_english_with_its_labels_in_the_page_language(pages):
    uk = pages["uk"]
    svg = uk.xpath("//figure[contains(@class, 'pb-setup-picture')]/svg")[0]
    assert svg.get("lang") == "en" and svg.get("aria-label").startswith("Setup of ")
    labels = uk.xpath("//figure[contains(@class, 'pb-setup-picture')]/svg/text[@class='pb-setup-label']")
    assert labels and {el.get("lang") for el in labels} == {"uk"}
    assert _langs(pages["de"], "//figure[contains(@class, 'pb-setup-picture')]/svg") == [None]
    assert _langs(pages["de"], "//svg/text[@class='pb-setup-label']") == [None] * len(labels)


def test_example_controls_steps_and_caption_label_are_marked(pages):
    uk, de = pages["uk"], pages["de"]
    assert set(_langs(uk, "//div[contains(@class, 'pb-example-widget')]")) == {"en"}
    assert set(_langs(uk, "//span[contains(@class, 'pb-example-label')]")) == {"en"}
    moves = uk.xpath("//p[contains(@class, 'pb-step-move')]")
    assert moves and {el.getparent().get("lang") for el in moves} == {"en"}
    # the move in words is our English wording around the page's pile names
    assert moves[0].text_content() == "Click Talon to offer its top card on Auswahlstapel."
    assert set(_langs(de, "//div[contains(@class, 'pb-example-widget')]")) == {None}
    assert {el.getparent().tag for el in de.xpath("//p[contains(@class, 'pb-step-move')]")} == {"li"}


def test_the_solver_figure_and_the_board_are_marked(pages):
    uk, de = pages["uk"], pages["de"]
    figure = uk.xpath("//p[contains(@class, 'pb-role-pb-solved')]")
    assert figure and figure[0].getparent().get("lang") == "en"
    assert figure[0].text_content().startswith("Of deals 1 to ")
    assert _langs(uk, "//div[contains(@class, 'pb-board')]") == ["en"]
    assert [el.text_content() for el in uk.xpath("//section[@id='play']/h2/span[@lang='en']")] == ["Play this deal"]
    assert de.xpath("//p[contains(@class, 'pb-role-pb-solved')]")[0].getparent().get("lang") is None
    assert _langs(de, "//div[contains(@class, 'pb-board')]") == [None]
