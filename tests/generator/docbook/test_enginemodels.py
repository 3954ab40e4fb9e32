"""Game pages without a rules block take the engine model of the same game from the embedded rules."""

from __future__ import annotations

from pathlib import Path

from patiencebook.generator.docbook.enginemodels import attach_engine_models, embedded_models, game_key
from patiencebook.generator.project import default_sources
from patiencebook.generator.docbook.sources import load_document

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "aisleriot" / "help" / "C"


def test_game_keys_ignore_case_and_dash_or_underscore():
    assert game_key("Eagle_Wing") == game_key("eagle-wing") == game_key(" eagle_wing ") == "eaglewing"


def test_the_embedded_rules_model_every_game_of_the_book():
    models = embedded_models()
    assert sorted(models) == ["agnes", "bakersdozen", "canfield", "eaglewing", "fortythieves", "freecell", "golf",
                              "gypsy", "hamilton", "klondike", "scorpion", "spider", "spiderette", "spiderthreedecks", "willothewisp", "yukon"]
    ruleset, file = models["hamilton"]
    assert ruleset.game == "hamilton" and file == default_sources() / "hamilton.xml"


def test_the_aisleriot_manual_gets_our_models_and_nothing_else():
    document = load_document(CORPUS)
    attached = attach_engine_models(document)
    assert {slug: path.name for slug, path in attached.items()} == {
        "agnes": "agnes.xml", "bakers_dozen": "bakers_dozen.xml", "canfield": "canfield.xml",
        "eagle-wing": "eagle_wing.xml", "forty_thieves": "forty_thieves.xml", "freecell": "freecell.xml",
        "golf": "golf.xml", "gypsy": "gypsy.xml", "hamilton": "hamilton.xml", "klondike": "klondike.xml",
        "scorpion": "scorpion.xml", "spider": "spider.xml", "spider_three_decks": "spider_three_decks.xml", "spiderette": "spiderette.xml",
        "will_o_the_wisp": "will_o_the_wisp.xml", "yukon": "yukon.xml"}
    pages = {page.slug: page for page in document.pages}
    assert pages["eagle-wing"].rules.game == "eagle_wing"
    assert pages["klondike"].rules.game == "klondike"
    assert pages["accordion"].rules is None and pages["definitions"].rules is None
    assert sum(1 for page in document.pages if page.kind == "game") == 91


def test_the_embedded_book_keeps_its_own_blocks():
    document = load_document(default_sources())
    before = {page.slug: page.rules for page in document.pages}
    assert attach_engine_models(document) == {}
    assert {page.slug: page.rules for page in document.pages} == before
