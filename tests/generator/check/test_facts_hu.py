"""Hungarian rule facts: the lexicon reads the words translators use ("szín" for suit and colour, "egy"
as an article, "két" before a noun), a changed rule is found and a faithful translation, paraphrased
or not, is not flagged."""

from __future__ import annotations

import json

import pytest

from patiencebook.generator.check.facts import extract_facts
from patiencebook.generator.check.lexicon import LEXICON_DIR

LANG = "hu"

#: (check, severity, English, faithful translation, translation with that fact changed)
CHANGED = [
    ("number", "error", "Deal seven cards face down on each pile.",
     "Minden halomra hét lapot osszunk képpel lefelé.", "Minden halomra hat lapot osszunk képpel lefelé."),
    ("number", "error", "Deal 52 cards.", "Osszon ki ötvenkét lapot.", "Osszon ki negyvenkét lapot."),
    ("rank", "error", "An empty space can be filled with a King.",
     "Az üres helyre királyt lehet tenni.", "Az üres helyre dámát lehet tenni."),
    ("pile", "error", "Cards are turned over one at a time from the stock to the waste.",
     "A lapokat egyesével fordítjuk a készletből a szemétdombra.",
     "A lapokat egyesével fordítjuk a készletből az alapokra."),
    ("suit-colour", "error", "The tableau is built down in suit.",
     "A táblán a lapok csökkenő sorrendben, színenként rakhatók.",
     "A táblán a lapok csökkenő sorrendben, váltakozó színekben rakhatók."),
    ("direction", "error", "Foundations are built up in suit from Ace to King.",
     "Az alapokra színenként, növekvő sorrendben ásztól királyig rakjuk a lapokat.",
     "Az alapokra színenként, csökkenő sorrendben ásztól királyig rakjuk a lapokat."),
    ("negation", "warning", "Empty spaces in the tableau are not filled.",
     "A táblán az üres helyek nem tölthetők fel.", "A táblán az üres helyek feltölthetők."),
    ("only", "warning", "An empty pile can be filled only with a King.",
     "Üres halomra csak király tehető.", "Üres halomra király tehető."),
    ("redeal", "error", "There are two redeals.", "Két újraosztás engedélyezett.", "Három újraosztás engedélyezett."),
    ("face", "error", "Deal the rest of the cards face down.",
     "A többi lapot képpel lefelé osszuk ki.", "A többi lapot képpel felfelé osszuk ki."),
]

#: Faithful translations in other words than the English.
PARAPHRASES = [
    ("An empty pile can be filled only with a King.", "Üres halomra kizárólag király tehető."),
    ("There are no redeals.", "Nincs újraosztás."),
    ("There are no redeals.", "Újraosztás nélkül."),
    ("There are two redeals.", "Kétszer lehet újraosztani."),
    ("Redeals are unlimited.", "Az újraosztások száma korlátlan."),
    ("Deal a card face up on each pile.", "Minden halomra egy lapot osszunk felfordítva."),
    ("No card can be moved to the reserve.", "Semmilyen lapot nem lehet a tartalékba tenni."),
    ("Groups of cards can be moved regardless of suit.", "A lapcsoportok színtől függetlenül mozgathatók."),
    ("Cards in the foundations are no longer in play.", "Az alapokon lévő lapok kikerülnek a játékból."),
    ("A card can be placed on a card one rank higher.", "Egy lapot egy eggyel nagyobb lapra lehet tenni."),
    ("Cards are dealt one at a time.", "A lapokat egyenként osztjuk."),
    ("Move a card to the foundation.", "Tegyen egy lapot az alapra."),
    ("Four piles on the top right.", "Négy halom jobbra fent."),
    ("None", "Egyik sem"),
]


@pytest.mark.parametrize("word,value", [("két", 2), ("ötvenkét", 52), ("hármat", 3), ("kétszer", 2), ("mindkét", 2),
                                        ("tizenhárom", 13)])
def test_number_words_with_their_endings(word, value):
    assert [f.value for f in extract_facts(word, LANG) if f.kind == "number"] == [value]


@pytest.mark.parametrize("text,kind,value", [
    ("asztalon", "pile", "tableau"), ("ásztól", "rank", 1), ("királynőre", "rank", 12), ("királyig", "rank", 13),
    ("szintén", None, None), ("jobb", None, None), ("jobbra", "side", "right"), ("kőrt", "suit-name", "hearts"),
])
def test_words_that_look_alike_are_read_apart(text, kind, value):
    assert [(f.kind, f.value) for f in extract_facts(text, LANG)] == ([(kind, value)] if kind else [])


def test_the_lexicon_names_the_piles_and_keeps_opposites_apart():
    data = json.loads((LEXICON_DIR / f"{LANG}.json").read_text(encoding="utf-8"))
    assert data["stemmer"] == "hungarian" and data["settings"]["lemmas"] == LANG
    assert {"stock", "waste", "foundation", "tableau", "reserve"} <= {v for key in data["pile"] for v in key.split("|")}
    for kind in ("direction", "face", "side"):
        first, second = list(data[kind].values())[:2]
        assert not set(first) & set(second), kind
