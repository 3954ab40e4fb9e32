"""Source against model: the English prose states the same counts and builds as the rules block."""

from pathlib import Path

import pytest

from patiencebook.generator import project
from patiencebook.generator.check.model import check_page, check_segment
from patiencebook.generator.docbook.document import Segment
from patiencebook.generator.docbook.sources import load_document

DATA = Path(__file__).resolve().parents[2] / "data" / "check"


@pytest.fixture(scope="module")
def alpha():
    return load_document(DATA / "C").page("alpha")


def test_each_planted_disagreement_is_one_error_with_line_and_span(alpha):
    found = [(segment.line, p.check, p.severity, p.message, p.source.start, p.source.text)
             for segment, p in check_page(alpha)]
    assert found == [
        (42, "model-pile", "error", "the English says 'Eight piles', but the rules block has 7 tableau piles",
         0, "Eight piles"),
        (51, "model-build", "error", "the English says 'built up in suit' of the tableau, but the rules block "
         "has direction down and match same-colour", 15, "built up in suit"),
        (52, "model-redeal", "error", "the English says 'two redeals' (2 redeals), but the rules block allows 0",
         10, "two redeals"),
        (54, "model-score", "error", "the English says the maximum score is 48, but the rules block has 52",
         24, "48"),
    ]


def test_agreeing_statements_give_nothing(alpha):
    rules = alpha.rules
    for text in ("Four piles, built up in suit.", "There is no redeal.", "Maximum possible score: 52",
                 "The tableau is built down in the same colour.", "Seven tableau piles and four foundation piles."):
        assert check_segment(Segment(text, None, "sect2/para", alpha.file, 1), rules) == [], text


def test_role_named_in_the_sentence_selects_the_pile_group(alpha):
    [problem] = check_segment(Segment("The foundations are built down in suit.", None, "sect2/para",
                                      alpha.file, 1), alpha.rules)
    assert problem.message == ("the English says 'built down in suit' of the foundations, but the rules block "
                               "has direction up and match same-suit")
    [problem] = check_segment(Segment("Deal to the six tableau piles.", None, "para", alpha.file, 1), alpha.rules)
    assert problem.message == "the English says 'six tableau piles', but the rules block has 7 tableau piles"


def test_pages_without_rules_block_are_not_checked():
    assert check_page(load_document(DATA / "C").page("beta")) == []


def test_the_project_rule_pages_agree_with_their_rules_blocks():
    document = load_document(project.default_sources())
    assert [p.slug for p in document.pages if p.rules is not None] == [
        "agnes", "bakers_dozen", "canfield", "eagle_wing", "forty_thieves", "freecell", "golf", "gypsy", "hamilton",
        "klondike", "scorpion", "spider", "spider_three_decks", "spiderette", "will_o_the_wisp", "yukon"]
    assert [(s.file.name, s.line, p.message) for page in document.pages for s, p in check_page(page)] == []
