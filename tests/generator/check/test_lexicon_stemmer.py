"""A fact lexicon may name no Snowball stemmer (Ukrainian has none): words then match by their
folded form, their lemma and prefixes."""

from __future__ import annotations

import json

import pytest

from patiencebook.generator.check import lexicon as lexicon_module
from patiencebook.generator.check.lexicon import fold, load_lexicon, tokens


@pytest.fixture
def lexicon_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(lexicon_module, "LEXICON_DIR", tmp_path)
    load_lexicon.cache_clear()
    yield tmp_path
    load_lexicon.cache_clear()


@pytest.mark.parametrize("stemmer", [None, ""])
def test_a_lexicon_without_a_stemmer_matches_whole_words_and_prefixes(lexicon_dir, stemmer):
    data = {"lang": "uk", "stemmer": stemmer, "settings": {},
            "pile": {"foundation": ["основа"], "tableau": ["стіл", "стол*"]}}
    (lexicon_dir / "uk.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    lex = load_lexicon("uk")
    assert lex.stem(fold("основами", "uk")) == fold("основами", "uk")  # no stemming: the word itself
    assert lex.word_pattern("основа").text == fold("основа", "uk")
    found = {t.value for t in lex.candidates(fold("основа", "uk"), lex.stem(fold("основа", "uk")))}
    assert found == {"foundation"}
    assert {t.value for t in lex.candidates("столі", "столі")} == {"tableau"}
    assert not lex.candidates("основами", "основами")  # another form needs its lemma or a prefix


def test_a_lexicon_may_leave_the_stemmer_out(lexicon_dir):
    (lexicon_dir / "uk.json").write_text(json.dumps({"lang": "uk", "pile": {"stock": ["колод*"]}}),
                                         encoding="utf-8")
    lex = load_lexicon("uk")
    assert lex.stemmer_name == ""
    assert {t.value for t in lex.candidates("колоди", "колоди")} == {"stock"}


@pytest.mark.parametrize("unfolded,matches", [(True, True), (False, False)])
def test_a_lexicon_may_stem_words_before_their_diacritics_are_dropped(lexicon_dir, unfolded, matches):
    # Czech Snowball strips "-ých" but not the "-ych" left once the accent is folded away.
    data = {"lang": "cs", "stemmer": "czech", "settings": {"stem_unfolded": unfolded},
            "pile": {"tableau": ["rozdané"]}}
    (lexicon_dir / "cs.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    lex = load_lexicon("cs")
    assert lex.word_pattern("rozdané").text == "rozdan"
    (_, _, folded, stem, lemma, lemma_stem), = tokens("rozdaných", "cs", lex)
    assert (folded, stem) == ("rozdanych", "rozdan" if unfolded else "rozdanych")
    assert bool(lex.candidates(folded, stem, lemma, lemma_stem)) is matches
