"""Ukrainian rule facts: the lexicon (no Snowball stemmer: lemmas and prefixes) reads the words
translators use, a changed rule is found and a faithful translation, paraphrased or not, is not flagged."""

from __future__ import annotations

import json

import pytest

from patiencebook.generator.check.facts import extract_facts
from patiencebook.generator.check.lexicon import LEXICON_DIR

LANG = "uk"

#: (check, severity, English, faithful translation, translation with that fact changed)
CHANGED = [
    ("number", "error", "Deal five cards face up on each pile.",
     "На кожен стос роздайте п'ять карт зображенням догори.", "На кожен стос роздайте шість карт зображенням догори."),
    ("number", "error", "Deal 52 cards.", "Роздайте п'ятдесят дві карти.", "Роздайте п'ятдесят три карти."),
    ("rank", "error", "An empty space can be filled with a King.",
     "Порожнє місце можна заповнити королем.", "Порожнє місце можна заповнити валетом."),
    ("pile", "error", "Cards are turned over one at a time from the stock to the waste.",
     "Карти по одній перевертаються з колоди до відкинутих.", "Карти по одній перевертаються з колоди на основу."),
    ("suit-colour", "error", "The tableau is built down in suit.",
     "Карти на столі збираються за спаданням за мастю.",
     "Карти на столі збираються за спаданням з чергуванням кольорів."),
    ("suit-colour", "warning", "The tableau is built down in alternate colours.",
     "Карти на столі збираються за спаданням з чергуванням кольорів.",
     "Карти на столі збираються за спаданням за мастю."),
    ("direction", "error", "Foundations are built up in suit from Ace to King.",
     "Основи збираються за мастю за зростанням від туза до короля.",
     "Основи збираються за мастю за спаданням від туза до короля."),
    ("negation", "warning", "Empty spaces in the tableau are not filled.",
     "Порожні місця на столі не заповнюються.", "Порожні місця на столі заповнюються."),
    ("only", "warning", "An empty pile can be filled only with a King.",
     "Порожній стос можна заповнити лише королем.", "Порожній стос можна заповнити королем."),
    ("redeal", "error", "There are two redeals.", "Дозволено дві перездачі.", "Дозволено одну перездачу."),
    ("face", "error", "Deal the rest of the cards face down.",
     "Решту карт роздайте сорочкою догори.", "Решту карт роздайте зображенням догори."),
]

#: Faithful translations in other words than the English.
PARAPHRASES = [
    ("Deal five cards face up on each pile.", "На кожен стос роздайте пʼять карт зображенням догори."),
    ("Nine piles.", "Дев'ять стосів."),
    ("There are no redeals.", "Перездач немає."),
    ("There are no redeals.", "Без перездач."),
    ("Redeals are unlimited.", "Кількість перездач не обмежено."),
    ("An empty pile can be filled only with a King.", "Порожній стос можна заповнити тільки королем."),
    ("No card can be moved to the reserve.", "Жодну карту не можна пересунути до резерву."),
    ("Groups of cards can be moved regardless of suit.", "Групи карт можна пересувати незалежно від масті."),
    ("Cards in the foundations are no longer in play.", "Картами в основах грати вже не можна."),
    ("A card can be placed on a card one rank higher.", "Карту можна покласти на карту на одиницю старшу."),
    ("Cards are moved to the foundations.", "Карти пересуваються основами."),
    ("Cards are dealt from the stock one at a time.", "Карти роздають з колоди по одній."),
]


@pytest.mark.parametrize("word,value", [
    ("п'ять", 5), ("пʼять", 5), ("дев'яти", 9), ("трьох", 3), ("двома", 2), ("обидві", 2), ("тринадцяти", 13),
    ("двічі", 2),
])
def test_number_words_in_every_case_and_with_either_apostrophe(word, value):
    assert [f.value for f in extract_facts(word, LANG) if f.kind == "number"] == [value]


@pytest.mark.parametrize("text,kind,value", [
    ("основами", "pile", "foundation"), ("столі", "pile", "tableau"), ("сорочкою догори", "face", "down"),
    ("червоних", "suit-colour", ("colour", "red")), ("чирви", "suit-name", "hearts"), ("королевою", "rank", 12),
])
def test_inflected_and_look_alike_words_are_read(text, kind, value):
    assert [(f.kind, f.value) for f in extract_facts(text, LANG)] == [(kind, value)]


def test_the_lexicon_names_no_stemmer_but_the_piles_and_keeps_opposites_apart():
    data = json.loads((LEXICON_DIR / f"{LANG}.json").read_text(encoding="utf-8"))
    assert data["stemmer"] is None and data["settings"]["lemmas"] == LANG
    assert {"stock", "waste", "foundation", "tableau", "reserve"} <= {v for key in data["pile"] for v in key.split("|")}
    for kind in ("direction", "face", "side"):
        first, second = list(data[kind].values())[:2]
        assert not set(first) & set(second), kind
