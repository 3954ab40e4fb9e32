"""The terms a catalog's glossary agrees on extend the lexicon, but a suit or colour term does not take
over a word the lexicon reads as a pile (a catalog that gave the option "One Suit" as "one deck")."""

from __future__ import annotations

from patiencebook.generator.check.facts import extract_facts, lexicon_key
from patiencebook.generator.check.statements import UnitContext, compare


def _facts(text, key):
    return {(f.kind, f.value) for f in extract_facts(text, key)}


def test_a_suit_term_that_is_a_pile_word_gives_way():
    key = lexicon_key("uk", (("suit-colour", "suit", "Колода"), ("suit-colour", "suit", "Одна колода")))
    facts = _facts("Карти роздають по одній з колоди до відкинутих.", key)
    assert ("pile", "stock") in facts and not any(kind == "suit-colour" for kind, _ in facts)
    assert compare("Cards are dealt singly from Stock to Waste.", "Карти роздають по одній з колоди до відкинутих.",
                   "uk", UnitContext(lexicon=key)) == []


def test_a_suit_term_of_other_words_is_still_added():
    key = lexicon_key("uk", (("suit-colour", "suit", "комплект"),))
    assert ("suit-colour", "suit") in _facts("карти того ж комплекту", key)
