"""Russian rule facts: the lexicon reads the words translators use, a changed rule is found and a
faithful translation, paraphrased or not, is not flagged."""

from __future__ import annotations

import json

import pytest

from patiencebook.generator.check.facts import extract_facts
from patiencebook.generator.check.lexicon import LEXICON_DIR

LANG = "ru"

#: (check, severity, English, faithful translation, translation with that fact changed)
CHANGED = [
    ("number", "error", "Deal seven cards face down on each pile.",
     "На каждую стопку сдаётся семь карт лицом вниз.", "На каждую стопку сдаётся восемь карт лицом вниз."),
    ("rank", "error", "An empty space can be filled with a King.",
     "Пустое место можно заполнить королём.", "Пустое место можно заполнить дамой."),
    ("pile", "error", "Cards are turned over one at a time from the stock to the waste.",
     "Карты по одной переворачиваются из колоды в сброс.", "Карты по одной переворачиваются из колоды в расклад."),
    ("suit-colour", "error", "The tableau is built down in suit.",
     "Карты в раскладе собираются по убыванию по масти.", "Карты в раскладе собираются по убыванию одного цвета."),
    ("suit-colour", "error", "The tableau is built down in suit.",
     "Карты в раскладе собираются по убыванию по масти.",
     "Карты в раскладе собираются по убыванию с чередованием цвета."),
    ("direction", "error", "Foundations are built up in suit from Ace to King.",
     "Основания собираются по масти в восходящем порядке от туза до короля.",
     "Основания собираются по масти в нисходящем порядке от туза до короля."),
    ("negation", "warning", "Empty spaces in the tableau are not filled.",
     "Пустые места в раскладе не заполняются.", "Пустые места в раскладе заполняются."),
    ("only", "warning", "An empty pile can be filled only with a King.",
     "Пустую стопку можно заполнить только королём.", "Пустую стопку можно заполнить королём."),
    ("redeal", "error", "There are two redeals.", "Разрешены две пересдачи.", "Разрешены три пересдачи."),
    ("face", "error", "Deal the rest of the cards face down.",
     "Остальные карты сдаются рубашкой вверх.", "Остальные карты сдаются лицом вверх."),
]

#: Faithful translations in other words than the English.
PARAPHRASES = [
    ("There are no redeals.", "Пересдач нет."),
    ("Redeals are unlimited.", "Количество пересдач не ограничено."),
    ("An empty pile can be filled only with a King.", "Пустую стопку можно заполнить лишь королём."),
    ("Cards are dealt from the stock one at a time.", "Карты сдаются из колоды по одной."),
    ("No card can be moved to the reserve.", "Ни одну карту нельзя переместить в резерв."),
    ("Groups of cards can be moved regardless of suit.", "Группы карт можно перемещать независимо от масти."),
    ("Cards in the foundations are no longer in play.", "Карты в основаниях выходят из игры."),
    ("A card can be placed on a card one rank higher.", "Карту можно положить на карту на единицу старше."),
    ("Four piles on the top right.", "Четыре стопки справа вверху."),
    ("Remove pairs of cards that add up to thirteen.", "Убирайте пары карт, которые в сумме дают тринадцать."),
    ("Nevertheless, the reserve is used.", "Тем не менее, резерв используется."),
    ("If a card can go to a foundation, you do not need to drag it.",
     "Если карту можно переместить на основание, не нужно её перетаскивать."),
]


@pytest.mark.parametrize("word,value", [("трёх", 3), ("семью", 7), ("дважды", 2), ("обеих", 2), ("тринадцати", 13)])
def test_number_words_in_every_case(word, value):
    assert [f.value for f in extract_facts(word, LANG) if f.kind == "number"] == [value]


@pytest.mark.parametrize("text,kind,value", [
    ("рубашкой вверх", "face", "down"), ("рубашками вниз", "face", "up"), ("королевой", "rank", 12),
    ("королём", "rank", 13), ("червей", "suit-name", "hearts"), ("красных", "suit-colour", ("colour", "red")),
])
def test_words_that_look_alike_are_read_apart(text, kind, value):
    assert [(f.kind, f.value) for f in extract_facts(text, LANG)] == [(kind, value)]


def test_the_lexicon_names_the_piles_and_keeps_opposites_apart():
    data = json.loads((LEXICON_DIR / f"{LANG}.json").read_text(encoding="utf-8"))
    assert data["stemmer"] == "russian" and data["settings"]["lemmas"] == LANG
    assert {"stock", "waste", "foundation", "tableau", "reserve"} <= {v for key in data["pile"] for v in key.split("|")}
    for kind in ("direction", "face", "side"):
        first, second = list(data[kind].values())[:2]
        assert not set(first) & set(second), kind
