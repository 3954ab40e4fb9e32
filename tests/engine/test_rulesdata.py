"""Rulesets as plain JSON data: every game of rules/ survives the round trip through JSON text,
and bad data is refused with the place in the data named (the browser board reads this form)."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from patiencebook.engine import RulesError
from patiencebook.engine.rules import Direction, Ruleset
from patiencebook.engine.rulesdata import FORMAT, ruleset_from_data, ruleset_to_data
from patiencebook.generator.docbook.sources import load_document

from tests.embedded import EMBEDDED_GAMES

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
JOKERS = Path(__file__).resolve().parents[1] / "data" / "rules" / "jokers_double.xml"


@lru_cache(maxsize=None)
def rulesets() -> dict[str, Ruleset]:
    return {page.id: page.rules for page in load_document(RULES_DIR).pages if page.rules is not None}


GAMES = EMBEDDED_GAMES


def test_rules_folder_has_every_game():
    assert sorted(rulesets()) == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_every_game_round_trips_through_json_text(game):
    ruleset = rulesets()[game]
    text = json.dumps(ruleset_to_data(ruleset))
    assert ruleset_from_data(json.loads(text)) == ruleset


def test_a_double_deck_with_jokers_round_trips():
    from lxml import etree

    from patiencebook.generator.docbook.rulesblock import find_rules_element, load_rules

    root = etree.parse(str(JOKERS)).getroot()
    ruleset = load_rules(find_rules_element(root, JOKERS), JOKERS)
    assert ruleset.deck.jokers > 0 and ruleset.deck.decks == 2
    assert ruleset_from_data(json.loads(json.dumps(ruleset_to_data(ruleset)))) == ruleset


def test_data_uses_rules_block_words_and_card_letters():
    data = ruleset_to_data(rulesets()["hamilton"])
    assert data["format"] == FORMAT
    assert data["deck"]["suits"] == ["c", "d", "h", "s"]
    assert data["deck"]["ranks"][9] == "T"
    foundation = next(p for p in data["piles"] if p["id"] == "foundation")
    assert foundation["build"]["direction"] == "up" and foundation["build"]["base"] == "start-card"
    assert "line" not in foundation and "file" not in data


def test_changed_data_gives_a_different_ruleset():
    ruleset = rulesets()["agnes"]
    data = ruleset_to_data(ruleset)
    tableau = next(p for p in data["piles"] if p["role"] == "tableau")
    tableau["build"]["direction"] = "up"
    changed = ruleset_from_data(data)
    assert changed != ruleset
    assert next(g for g in changed.piles if g.role.value == "tableau").build.direction is Direction.UP
    assert replace(changed, piles=ruleset.piles) == ruleset


def test_unknown_value_is_refused_naming_where_and_the_allowed_words():
    data = ruleset_to_data(rulesets()["agnes"])
    data["piles"][2]["build"]["direction"] = "sideways"
    with pytest.raises(RulesError) as caught:
        ruleset_from_data(data)
    assert "piles[2].build.direction" in str(caught.value)
    assert "'sideways'" in str(caught.value) and "up-or-down" in str(caught.value)


def test_unknown_key_and_wrong_type_are_refused():
    data = ruleset_to_data(rulesets()["agnes"])
    data["deck"]["colour"] = "red"
    with pytest.raises(RulesError, match=r"deck: unknown key\(s\) colour"):
        ruleset_from_data(data)
    data = ruleset_to_data(rulesets()["agnes"])
    data["scoring"]["per_card"] = "1"
    with pytest.raises(RulesError, match="scoring.per_card: must be a whole number"):
        ruleset_from_data(data)
    data = ruleset_to_data(rulesets()["agnes"])
    data["deck"]["ranks"] = ["A", "1"]
    with pytest.raises(RulesError, match=r"deck.ranks\[1\]: must be a rank letter"):
        ruleset_from_data(data)


def test_missing_key_and_other_format_are_refused():
    data = ruleset_to_data(rulesets()["agnes"])
    del data["scoring"]
    with pytest.raises(RulesError, match="missing key 'scoring'"):
        ruleset_from_data(data)
    with pytest.raises(RulesError, match="format 2"):
        ruleset_from_data({**ruleset_to_data(rulesets()["agnes"]), "format": 2})


def test_data_the_rules_model_refuses_is_refused_with_its_message():
    data = ruleset_to_data(rulesets()["agnes"])
    data["scoring"]["maximum"] = 51
    with pytest.raises(RulesError, match="the maximum score 51 does not match the deck"):
        ruleset_from_data(data)


def test_every_rule_variant_round_trips_through_json_text():
    pages = [page for page in load_document(RULES_DIR).pages if page.variants]
    assert sorted(page.id for page in pages) == ["giant", "klondike", "osmosis", "spider"]
    for page in pages:
        for variant, ruleset in page.variants.items():
            assert ruleset.variant == variant
            assert ruleset_from_data(json.loads(json.dumps(ruleset_to_data(ruleset)))) == ruleset


def test_a_deal_step_rank_is_written_only_where_a_game_sets_cards_aside():
    # Fields added to the model are left out at their default, so the data (and the rules digest of
    # recorded solver figures) of the other games stays as it was.
    plain = ruleset_to_data(rulesets()["bakers_dozen"])
    assert all("rank" not in step for step in plain["deal"])
    castle = ruleset_to_data(rulesets()["beleaguered_castle"])
    assert [step.get("rank") for step in castle["deal"]] == [None, "A"]
    assert ruleset_from_data(json.loads(json.dumps(castle))) == rulesets()["beleaguered_castle"]
