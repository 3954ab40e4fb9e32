"""Czech rule facts: the lexicon reads the words translators use (negation joined to the verb, "barva"
for suit and colour, "barevnost" for colour), a changed rule is found and a faithful translation,
paraphrased or not, is not flagged."""

from __future__ import annotations

import json

import pytest

from patiencebook.generator.check.facts import extract_facts
from patiencebook.generator.check.lexicon import LEXICON_DIR

LANG = "cs"

#: (check, severity, English, faithful translation, translation with that fact changed)
CHANGED = [
    ("number", "error", "Deal seven cards face down on each pile.",
     "Na každou hromádku se rozdá sedm karet lícem dolů.", "Na každou hromádku se rozdá šest karet lícem dolů."),
    ("rank", "error", "An empty space can be filled with a King.",
     "Prázdné místo lze zaplnit králem.", "Prázdné místo lze zaplnit esem."),
    ("pile", "error", "Cards are turned over one at a time from the stock to the waste.",
     "Karty se po jedné otáčejí z balíčku na odhazovací hromádku.",
     "Karty se po jedné otáčejí z balíčku na základnu."),
    ("suit-colour", "error", "The tableau is built down in suit.",
     "Na hrací ploše se karty skládají sestupně v barvě.",
     "Na hrací ploše se karty skládají sestupně ve stejné barevnosti."),
    ("suit-colour", "error", "The tableau is built down in suit.",
     "Na hrací ploše se karty skládají sestupně v barvě.",
     "Na hrací ploše se karty skládají sestupně ve střídavých barvách."),
    ("direction", "error", "Foundations are built up in suit from Ace to King.",
     "Základny se skládají vzestupně v barvě od esa po krále.",
     "Základny se skládají sestupně v barvě od esa po krále."),
    ("negation", "warning", "Empty spaces in the tableau are not filled.",
     "Prázdná místa na hrací ploše se nezaplňují.", "Prázdná místa na hrací ploše se zaplňují."),
    ("only", "warning", "An empty pile can be filled only with a King.",
     "Prázdnou hromádku lze zaplnit pouze králem.", "Prázdnou hromádku lze zaplnit králem."),
    ("at-a-time", "error", "The stock is dealt three cards at a time.",
     "Z balíčku se rozdává po třech kartách.", "Z balíčku se rozdává po dvou kartách."),
    ("face", "error", "Deal the rest of the cards face down.",
     "Zbytek karet se rozdá rubem nahoru.", "Zbytek karet se rozdá lícem nahoru."),
    ("redeal", "error", "There are two redeals.", "Hromádka se dvakrát vrací.", "Hromádka se nevrací zpět."),
]

#: Faithful translations in other words than the English.
PARAPHRASES = [
    ("Empty spaces in the tableau are not filled.", "Prázdná místa na hrací ploše se nedají zaplnit."),
    ("An empty pile can be filled only with a King.", "Prázdnou hromádku lze zaplnit jen králem."),
    ("There are no redeals.", "Nové rozdání není možné."),
    # The negation joined to the verb says "no redeal" by itself, and a "cannot" as well.
    ("There are no redeals.", "Hromádka se nevrací zpět."),
    ("Stock cannot be turned.", "Hromádka se nevrací zpět."),
    ("Redeals are unlimited.", "Počet nových rozdání není omezen."),
    ("No card can be moved to the reserve.", "Žádnou kartu nelze přesunout do rezervy."),
    ("Groups of cards can be moved regardless of suit.", "Skupiny karet lze přesouvat bez ohledu na barvu."),
    ("Cards in the foundations are no longer in play.", "Karty na základnách jsou již mimo hru."),
    ("Cards in the foundations are no longer in play.", "Karty ze základen se již nevrací do hry."),
    ("A card can be placed on a card one rank higher.", "Kartu lze položit na kartu o jednu vyšší."),
    ("Each suit has an Ace, 2 to 10, Jack, Queen and King.", "Každá barva má eso, 2 až 10, kluka, dámu a krále."),
    ("Four to six empty slots.", "Čtyři až šest volných pozic."),
    ("Two of the piles are empty.", "Dvě z hromádek jsou prázdné."),
]


def test_a_redeal_word_that_is_negated_says_there_is_none():
    facts = {(f.kind, f.value) for f in extract_facts("Hromádka se nevrací zpět.", LANG)}
    assert facts == {("redeal", 0), ("negation", "redeal")}


@pytest.mark.parametrize("word,value", [("třech", 3), ("dvakrát", 2), ("sedmi", 7), ("oběma", 2), ("třinácti", 13)])
def test_number_words_in_every_case(word, value):
    assert [f.value for f in extract_facts(word, LANG) if f.kind == "number"] == [value]


@pytest.mark.parametrize("text,kind,value", [
    ("nelze", "negation", "not"), ("nebo", None, None), ("než", None, None), ("královnu", "rank", 12),
    ("králem", "rank", 13), ("barevnosti", "suit-colour", "colour"), ("barvě", "suit-colour", ("suit", "colour")),
])
def test_words_that_look_alike_are_read_apart(text, kind, value):
    assert [(f.kind, f.value) for f in extract_facts(text, LANG)] == ([(kind, value)] if kind else [])


def test_the_lexicon_names_the_piles_and_keeps_opposites_apart():
    data = json.loads((LEXICON_DIR / f"{LANG}.json").read_text(encoding="utf-8"))
    assert data["stemmer"] == "czech" and data["settings"]["lemmas"] == LANG
    assert {"stock", "waste", "foundation", "tableau", "reserve"} <= {v for key in data["pile"] for v in key.split("|")}
    for kind in ("direction", "face", "side"):
        first, second = list(data[kind].values())[:2]
        assert not set(first) & set(second), kind
