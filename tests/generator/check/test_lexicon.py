"""Fact lexicons: data files load, words fold across accents, case and script, numbers come from CLDR."""

from __future__ import annotations

import json

import pytest

from patiencebook.generator.check.lexicon import LEXICON_DIR, fold, load_lexicon, tokens
from patiencebook.generator.errors import LanguageError

LANGS = ("en", "de", "el", "sr", "fr", "es", "ca", "sv")


def test_greek_folding_drops_accents_case_and_final_sigma():
    assert fold("ΆΣΣΟΣ", "el") == fold("άσσος", "el") == "ασσοσ"


def test_serbian_folding_accepts_cyrillic_and_latin_alike():
    assert fold("Краљ", "sr") == fold("kralj", "sr") == "kralj"
    assert fold("Нижу", "sr") != fold("низу", "sr")  # diacritics keep these apart


def test_german_folding_drops_umlauts():
    assert fold("König", "de") == "konig"


@pytest.mark.parametrize("lang", LANGS)
def test_every_lexicon_file_is_json_with_a_stemmer_and_piles(lang):
    data = json.loads((LEXICON_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    assert data["lang"] == lang and data["stemmer"]
    piles = {v for key in data["pile"] for v in key.split("|")}
    assert {"stock", "waste", "foundation", "tableau", "reserve"} <= piles


@pytest.mark.parametrize("lang,word,value", [
    ("de", "dreizehn", 13), ("de", "sieben", 7), ("de", "dritten", 3),
    ("el", "τρεις", 3), ("el", "τρία", 3), ("el", "επτά", 7),
    ("sr", "три", 3), ("sr", "седам", 7), ("sr", "sedam", 7), ("en", "thirteen", 13),
])
def test_number_words_are_generated_from_cldr_spellout(lang, word, value):
    lex = load_lexicon(lang)
    folded = fold(word, lang)
    values = {t.value for t in lex.candidates(folded, lex.stem(folded)) if t.kind == "number"}
    assert value in values


def test_tokens_keep_offsets_and_skip_markup():
    text = 'a <xref linkend="r7"/> Ace'
    toks = tokens(text, "en")
    assert [(text[t[0]:t[1]], t[2]) for t in toks] == [("a", "a"), ("Ace", "ace")]


def test_unknown_language_raises_language_error():
    with pytest.raises(LanguageError):
        load_lexicon("xx")


@pytest.mark.parametrize("lang", LANGS)
def test_opposite_directions_share_no_term(lang):
    data = json.loads((LEXICON_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    for kind in ("direction", "face", "side"):
        values = list(data[kind].values())
        assert not set(values[0]) & set(values[1]), kind


def _phrases(entry) -> set[str]:
    if isinstance(entry, str):
        return {entry.lstrip("=")}
    if isinstance(entry, dict):
        return set().union(*(_phrases(v) for v in entry.values())) if entry else set()
    if isinstance(entry, list):
        return set().union(*(_phrases(v) for v in entry)) if entry else set()
    return set()


@pytest.mark.parametrize("lang", LANGS)
def test_no_phrase_is_both_ignored_and_a_fact(lang):
    # An ignored phrase wins over every other kind, so the same phrase listed as a fact would never count.
    data = json.loads((LEXICON_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    ignored = _phrases(data["ignore"])
    for kind in ("at-a-time", "redeal", "pass", "face", "direction", "side", "comparator", "unlimited"):
        if kind in data:
            assert not ignored & _phrases(data[kind]), (lang, kind, sorted(ignored & _phrases(data[kind])))


def test_an_exact_mark_before_a_prefix_pattern_is_dropped():
    # "=горњ*" is the prefix "горњ" ("горњем левом углу", the top left corner), not a word "=горњ".
    lex = load_lexicon("sr")
    pattern = lex.word_pattern("=горњ*")
    assert (pattern.how, pattern.text) == ("prefix", fold("горњ", "sr"))
    from patiencebook.generator.check.facts import extract_facts
    assert [f.value for f in extract_facts("са асом у горњем левом углу", "sr") if f.kind == "position"] == ["top"]


@pytest.mark.parametrize("lang,text,value", [
    ("fr", "dix-sept", 17), ("fr", "vingt-et-une", 21), ("es", "cincuenta y dos", 52), ("ca", "vint-i-una", 21),
    ("sv", "femtiotvå", 52), ("sr", "двадесет и један", 21), ("en", "twenty-one", 21),
])
def test_a_spell_out_of_several_words_is_one_number(lang, text, value):
    from patiencebook.generator.check.facts import extract_facts
    assert [(f.kind, f.value) for f in extract_facts(text, lang)] == [("number", value)]


def test_a_middle_dot_between_letters_stays_in_the_word():
    assert [t[2] for t in tokens("Es col·loca a la cel·la", "ca")] == ["es", "col·loca", "a", "la", "cel·la"]
