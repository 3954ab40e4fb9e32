"""Game pages without a rules block take the engine model of the same game from the embedded rules."""

from __future__ import annotations

from pathlib import Path

from patiencebook.generator.enginemodels import attach_engine_models, embedded_models, game_key
from patiencebook.generator.project import default_sources
from patiencebook.generator.sources import load_document

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "aisleriot" / "help" / "C"


def test_game_keys_ignore_case_and_dash_or_underscore():
    assert game_key("Eagle_Wing") == game_key("eagle-wing") == game_key(" eagle_wing ") == "eagle_wing"


def test_the_embedded_rules_model_the_first_three_games():
    models = embedded_models()
    assert sorted(models) == ["agnes", "eagle_wing", "hamilton"]
    ruleset, file = models["hamilton"]
    assert ruleset.game == "hamilton" and file == default_sources() / "hamilton.xml"


def test_the_aisleriot_manual_gets_the_three_models_and_nothing_else():
    document = load_document(CORPUS)
    attached = attach_engine_models(document)
    assert {slug: path.name for slug, path in attached.items()} == {
        "agnes": "agnes.xml", "eagle-wing": "eagle_wing.xml", "hamilton": "hamilton.xml"}
    pages = {page.slug: page for page in document.pages}
    assert pages["eagle-wing"].rules.game == "eagle_wing"
    assert pages["klondike"].rules is None and pages["definitions"].rules is None
    assert sum(1 for page in document.pages if page.kind == "game") == 91


def test_the_embedded_book_keeps_its_own_blocks():
    document = load_document(default_sources())
    before = {page.slug: page.rules for page in document.pages}
    assert attach_engine_models(document) == {}
    assert {page.slug: page.rules for page in document.pages} == before
