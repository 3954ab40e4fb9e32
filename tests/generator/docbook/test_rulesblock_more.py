"""The XML forms of the rules words added for Kansas and Lady Jane: fill rules ``waste`` and
``below-base``, and the stock's ``rest`` pile, each bad value reported at its file and line."""

from __future__ import annotations

from patiencebook.engine.rules import FillRule
from patiencebook.generator.docbook.rulesblock import load_rules

from .test_rulesblock_variants import block, edited, line_of, load_error


def test_kansas_tableau_is_refilled_from_the_reserve_then_from_the_waste(tmp_path):
    path, _ = edited(tmp_path, "kansas", 'otherwise="waste"', 'otherwise="waste"')
    fill = load_rules(block(path), path).pile("tableau").fill
    assert (fill.rule, fill.source, fill.otherwise) == (FillRule.AUTO, "reserve", FillRule.WASTE)


def test_fill_from_the_waste_needs_a_waste(tmp_path):
    path, text = edited(tmp_path, "klondike", '<pb:fill rule="kings"/>', '<pb:fill rule="waste"/>')
    assert load_rules(block(path), path).pile("tableau").fill.rule is FillRule.WASTE  # Klondike has a waste
    path, text = edited(tmp_path, "yukon", '<pb:fill rule="kings"/>', '<pb:fill rule="waste"/>')
    error = load_error(path)
    assert "filled from the waste, but the game has no waste" in error.message
    assert error.line == line_of(text, '<pb:pile id="tableau"')


def test_below_base_needs_foundations_with_a_base(tmp_path):
    path, text = edited(tmp_path, "scorpion", '<pb:fill rule="kings"/>', '<pb:fill rule="below-base"/>')
    error = load_error(path)
    assert "takes a card below the base rank, but the foundations have no base" in error.message
    assert error.line == line_of(text, '<pb:pile id="tableau"')


def test_rest_names_a_waste_pile(tmp_path):
    path, text = edited(tmp_path, "lady_jane", 'rest="waste"', 'rest="reserve"')
    error = load_error(path)
    assert error.line == line_of(text, 'rest="reserve"')
    assert "the stock policy's rest names pile 'reserve' of role 'reserve'; it must be 'waste'" in error.message


def test_rest_only_with_deal_to_each(tmp_path):
    path, text = edited(tmp_path, "klondike", 'cards="1" redeals="2"/>', 'cards="1" redeals="2" rest="waste"/>')
    error = load_error(path)
    assert error.line == line_of(text, 'rest="waste"')
    assert error.message == "pb:stock: only stock action 'deal-to-each' turns its last cards onto another pile ('rest')"
