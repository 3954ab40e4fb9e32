"""The rules words added for Easthaven, Westhaven and King Albert in their XML form: bad values and
combinations are errors with the file and line of the rules block."""

from __future__ import annotations

from .test_rulesblock_variants import edited, line_of, load_error, page
from patiencebook.engine.rules import StockRequires


def test_easthaven_stock_requires_no_king_for_an_empty_pile():
    assert page("easthaven").rules.stock.requires is StockRequires.NO_KING_FOR_EMPTY_PILE


def test_requires_no_king_for_empty_pile_only_with_deal_to_each(tmp_path):
    path, text = edited(tmp_path, "klondike", 'cards="1" redeals="2"/>',
                        'cards="1" redeals="2" requires="no-king-for-empty-pile"/>')
    error = load_error(path)
    assert error.line == line_of(text, 'requires="no-king-for-empty-pile"')
    assert error.message == "pb:stock: only stock action 'deal-to-each' can require no King for an empty pile"


def test_unknown_requires_word_names_the_allowed_ones(tmp_path):
    path, text = edited(tmp_path, "easthaven", 'requires="no-king-for-empty-pile"', 'requires="no-king"')
    error = load_error(path)
    assert error.line == line_of(text, 'requires="no-king"')
    assert error.message == ("pb:stock: unknown value 'no-king' for 'requires'; "
                             "allowed: nothing, no-empty-pile, no-king-for-empty-pile")


def test_westhaven_tableau_lifts_top_or_face_up_and_is_lost_by_its_hook():
    from patiencebook.engine.rules import MoveUnit
    rules = page("westhaven").rules
    assert rules.pile("tableau").move.unit is MoveUnit.TOP_OR_FACE_UP
    assert rules.end.lost == "no-clearing-move"


def test_top_or_face_up_with_stop_at_base_is_an_error_at_its_line(tmp_path):
    path, text = edited(tmp_path, "westhaven", '<pb:move unit="top-or-face-up"/>',
                        '<pb:move unit="top-or-face-up" stop-at-base="yes"/>')
    error = load_error(path)
    assert error.line == line_of(text, 'stop-at-base="yes"')
    assert "'top-or-face-up' takes no stop-at-base" in error.message
