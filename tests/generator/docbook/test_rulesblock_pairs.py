"""The rules words added for Monte Carlo and Osmosis in their XML form: the pages load into the
model, and bad values and combinations are errors with the file and line of the rules block."""

from __future__ import annotations

import pytest

from patiencebook.engine.rules import Direction, StockAction

from .test_rulesblock_variants import edited, line_of, load_error, page, variants_of


def test_monte_carlo_loads_a_grid_of_pairs_and_a_closing_stock():
    rules = page("monte_carlo").rules
    tableau = rules.pile("tableau")
    assert (tableau.count, tableau.columns, tableau.capacity) == (25, 5, 1)
    assert tableau.build.direction is Direction.SAME and tableau.build.pair_to == "foundation"
    assert tableau.build.neighbours
    assert rules.stock.action is StockAction.CONSOLIDATE and rules.stock.target == "tableau"
    assert rules.slot_order()[:3] == ("stock", "tableau1", "tableau2") and rules.slot_order()[-1] == "foundation"


def test_osmosis_loads_foundations_that_take_the_ranks_before_them_and_its_two_ways_to_deal():
    rules = page("osmosis").rules
    foundation = rules.pile("foundation")
    assert foundation.build.direction is Direction.ANY and foundation.build.previous_holds_rank
    variants = variants_of("osmosis")
    assert list(variants) == ["single-card-deals", "three-card-deals"]
    assert (variants["three-card-deals"].stock.cards, variants["three-card-deals"].stock.redeals) == (3, None)


#: (game, text replaced, its replacement, a text on the line the error names, the message).
#: lxml gives an element the line its start tag ends on: the pile's ``slots=`` line.
BAD_BLOCKS = [
    ("monte_carlo", 'pair-to="foundation" ', "", 'direction="same"',
     "pb:build: a build of direction 'same' makes pairs: it needs the foundation the pairs go to (pair-to), "
     "and only it takes one"),
    ("monte_carlo", 'pair-to="foundation"', 'pair-to="discard"', 'slots="1 2 3',
     "pb:pile: the pairs of 'tableau' names an unknown pile 'discard'; piles: stock, tableau, foundation"),
    ("monte_carlo", ' columns="5"', "", 'slots="1 2 3',
     "pb:pile: pile 'tableau' takes cards from its neighbours, so it needs a grid: give its columns"),
    ("monte_carlo", 'columns="5"', 'columns="five"', 'slots="1 2 3',
     "pb:pile: bad number 'five' for 'columns'; expected a whole number of at least 1"),
    ("monte_carlo", 'capacity="1" ', "", 'action="consolidate"',
     "pb:stock: a stock that consolidates closes up piles of one card each: give 'tableau' capacity 1"),
    ("osmosis", 'previous-holds-rank="yes"/>', 'previous-holds-rank="yes" accepts="run"/>', 'accepts="run"',
     "pb:build: a pile that makes pairs, or that takes only ranks the pile before it holds, takes one card at "
     "a time (accepts 'single')"),
    ("osmosis", 'previous-holds-rank="yes"', 'previous-holds-rank="maybe"', 'previous-holds-rank="maybe"',
     "pb:build: unknown value 'maybe' for 'previous-holds-rank'; allowed: yes, no"),
]


@pytest.mark.parametrize("game, old, new, marker, message", BAD_BLOCKS,
                         ids=[message.split(": ", 1)[1][:40] for *_, message in BAD_BLOCKS])
def test_a_bad_pairing_word_is_one_error_with_file_line_and_what_is_wrong(tmp_path, game, old, new, marker, message):
    path, text = edited(tmp_path, game, old, new)
    error = load_error(path)
    assert (str(error.file), error.line, error.message) == (str(path), line_of(text, marker), message)
