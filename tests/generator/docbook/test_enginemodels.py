"""Game pages without a rules block take the engine model of the same game from the embedded rules."""

from __future__ import annotations

from pathlib import Path

from patiencebook.generator.docbook.enginemodels import attach_engine_models, embedded_models, game_key
from patiencebook.generator.project import default_sources
from patiencebook.generator.docbook.sources import load_document

from tests.embedded import EMBEDDED_GAMES

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "aisleriot" / "help" / "C"


def test_game_keys_ignore_case_and_dash_or_underscore():
    assert game_key("Eagle_Wing") == game_key("eagle-wing") == game_key(" eagle_wing ") == "eaglewing"


def test_the_embedded_rules_model_every_game_of_the_book():
    models = embedded_models()
    assert sorted(models) == sorted(game.replace("_", "") for game in EMBEDDED_GAMES)
    ruleset, file = models["hamilton"]
    assert ruleset.game == "hamilton" and file == default_sources() / "hamilton.xml"


def test_the_aisleriot_manual_gets_our_models_and_nothing_else():
    document = load_document(CORPUS)
    attached = attach_engine_models(document)
    assert {slug: path.name for slug, path in attached.items()} == {
        "agnes": "agnes.xml", "bakers_dozen": "bakers_dozen.xml", "bakers_game": "bakers_game.xml",
        "beleaguered_castle": "beleaguered_castle.xml",
        "canfield": "canfield.xml", "chessboard": "chessboard.xml",
        "cruel": "cruel.xml",
        "eagle-wing": "eagle_wing.xml", "eight_off": "eight_off.xml", "easthaven": "easthaven.xml", "fortress": "fortress.xml", "forty_thieves": "forty_thieves.xml", "freecell": "freecell.xml",
        "giant": "giant.xml", "golf": "golf.xml", "gypsy": "gypsy.xml", "hamilton": "hamilton.xml", "king_albert": "king_albert.xml", "kansas": "kansas.xml", "jumbo": "jumbo.xml", "klondike": "klondike.xml", "lady_jane": "lady_jane.xml",
        "odessa": "odessa.xml", "scorpion": "scorpion.xml", "seahaven": "seahaven.xml", "spider": "spider.xml", "thumb_and_pouch": "thumb_and_pouch.xml", "westhaven": "westhaven.xml", "spider_three_decks": "spider_three_decks.xml", "spiderette": "spiderette.xml",
        "whitehead": "whitehead.xml", "triple_peaks": "triple_peaks.xml",
        "streets_and_alleys": "streets_and_alleys.xml",
        "will_o_the_wisp": "will_o_the_wisp.xml", "yukon": "yukon.xml",
        "monte_carlo": "monte_carlo.xml", "osmosis": "osmosis.xml"}
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


def test_a_book_read_for_its_models_alone_has_the_same_pages_and_no_segments():
    whole = load_document(default_sources())
    bare = load_document(default_sources(), segments=False)
    assert bare.segments == [] and whole.segments
    assert [(p.slug, p.rules.game if p.rules else None) for p in bare.pages] == [
        (p.slug, p.rules.game if p.rules else None) for p in whole.pages]
