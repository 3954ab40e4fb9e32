"""The measured figures in rules/solved.json: one for every game of rules/, measured on the rules
its page states now, over deals 1-1000, and true where checked again: deals recorded as won are
won by the solver again, deals recorded as unsolvable are not."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.engine import Game
from patiencebook.engine.solver import SOLVED, UNSOLVABLE, solve
from patiencebook.generator.pages.figures import FILE_NAME, figure_for, load_figures
from patiencebook.generator.docbook.sources import load_document

RULES = Path(__file__).resolve().parents[3] / "rules"
DOCUMENT = load_document(RULES)
GAMES = sorted(page.id for page in DOCUMENT.pages if page.rules is not None)


@pytest.fixture(scope="module")
def figures():
    return load_figures(RULES / FILE_NAME)


#: Games measured on deals 1-200 only: Triple Peaks' deals 1-1000 would take the solver more than an
#: hour of one core at the budget of its figure.
SHORT_FIGURES = {"triple_peaks"}


def test_every_game_has_a_figure_of_its_current_rules_for_deals_1_to_1000(figures):
    missing = [game for game in GAMES if figure_for(figures, DOCUMENT.page(game).rules) is None]
    assert missing == [], f"no figure of the current rules (run patiencebook solve GAME --deals 1-1000 --record)"
    for game in GAMES:
        figure = figure_for(figures, DOCUMENT.page(game).rules)
        assert (figure.first, figure.last) == (1, 200 if game in SHORT_FIGURES else 1000), game


def test_every_variant_a_page_describes_has_a_figure_for_deals_1_to_1000(figures):
    # The Options items marked pb:variant show them (generator/pages/widgets.py).
    variants = [(page.id, vid, ruleset) for page in DOCUMENT.pages if page.rules is not None
                for vid, ruleset in page.variants.items()]
    assert len(variants) == 11  # Klondike's four ways to deal, Spider's three decks, Giant's two builds, Osmosis's two ways
    missing = [(game, vid) for game, vid, ruleset in variants if figure_for(figures, ruleset) is None]
    assert missing == [], "run patiencebook solve GAME --variant ID --deals 1-1000 --record"
    for game, vid, ruleset in variants:
        figure = figure_for(figures, ruleset)
        assert (figure.first, figure.last) == (1, 200 if game in SHORT_FIGURES else 1000), (game, vid)


RULESETS = [(game, vid) for game in GAMES
            for vid in (sorted(DOCUMENT.page(game).variants) or [None])]


@pytest.mark.parametrize("game, variant", RULESETS)
def test_recorded_answers_hold_when_searched_again(figures, game, variant):
    page = DOCUMENT.page(game)
    ruleset = page.variants[variant] if variant else page.rules
    figure = figure_for(figures, ruleset)
    if figure is None:
        pytest.fail(f"{game}: no figure of the current rules")
    deals = range(figure.first, figure.last + 1)
    won = [deal for deal in deals if figure.status(deal) == SOLVED][:2]
    lost = [deal for deal in deals if figure.status(deal) == UNSOLVABLE][:1]
    for deal in won:
        result = solve(Game.deal(ruleset, deal).position, 4 * figure.budget)
        assert result.status == SOLVED, f"{game} deal {deal} is recorded as won"
        position = Game.deal(ruleset, deal).position
        for move in result.moves:
            position = position.apply(move)
        assert position.is_won()
    for deal in lost:
        assert solve(Game.deal(ruleset, deal).position, figure.budget).status != SOLVED, \
            f"{game} deal {deal} is recorded as unsolvable"
