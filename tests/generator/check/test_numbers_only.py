"""A language without a lexicon of its own still has its numbers compared: a lexicon of CLDR's number
words alone (unicode-rbnf), which states numbers and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.generator.check.facts import extract_facts
from patiencebook.generator.check.lexicon import LEXICON_DIR, load_lexicon
from patiencebook.generator.check.run import run_checks
from patiencebook.generator.check.statements import compare
from patiencebook.generator.errors import LanguageError

DATA = Path(__file__).resolve().parents[2] / "data" / "check"


def _reported(findings):
    return [(f[0], f[1]) for f in findings if f[1] in ("error", "warning")]


def test_a_language_without_a_lexicon_file_gets_its_cldr_number_words():
    assert not (LEXICON_DIR / "it.json").exists()
    lex = load_lexicon("it")
    assert lex.kinds == {"number"}
    assert [(f.kind, f.value) for f in extract_facts("Sette pile e cinquantadue carte.", "it")] == [
        ("number", 7), ("number", 52)]


def test_a_language_cldr_has_no_number_words_for_is_compared_in_digits():
    lex = load_lexicon("xh")  # isiXhosa: no spell-out rules in unicode-rbnf, no lexicon file
    assert (lex.kinds, lex.number_words) == ({"number"}, False)
    assert [(f.kind, f.value) for f in extract_facts("Nika amakhadi ali-8 kwizitaki ezi-4.", "xh")] == [
        ("number", 8), ("number", 4)]


@pytest.mark.parametrize("lang,msgid,msgstr", [
    ("it", "Seven piles.", "Otto pile."),
    ("it", "Deal 3 cards to each pile.", "Distribuisci 4 carte su ogni pila."),
    ("it", "Deal three cards to each pile.", "Distribuisci 4 carte su ogni pila."),
    ("ru", "Ten piles. Deal five cards to each pile.", "Восемь стопок. На каждую стопку сдаётся пять карт."),
])
def test_a_changed_number_is_an_error(lang, msgid, msgstr):
    assert ("number", "error") in _reported(compare(msgid, msgstr, lang))


@pytest.mark.parametrize("lang,msgid,msgstr", [
    # The English in words, the translation in digits, and back.
    ("it", "Seven piles of three cards.", "7 pile di 3 carte."),
    ("it", "Deal 16 cards to the waste.", "Distribuisci sedici carte agli scarti."),
    # A number of several words, and one inflected (Kazakh "он үшке", to thirteen).
    ("ru", "Fifty-two cards.", "Пятьдесят две карты."),
    ("kk", "Remove pairs that add up to thirteen.", "Қосындысы он үшке тең жұптарды алып тастаңыз."),
    # A rank from two to ten is its number.
    ("it", "Fill it with a ten.", "Riempila con un 10."),
    # "Two at a time" is the number two.
    ("it", "Cards are dealt two at a time.", "Le carte si distribuiscono due alla volta."),
])
def test_the_same_number_in_words_or_digits_gives_nothing(lang, msgid, msgstr):
    assert _reported(compare(msgid, msgstr, lang)) == []


def test_passes_said_as_redeals_are_no_changed_number():
    # Three times through the deck is two redeals: the translation's lexicon cannot read which it says.
    assert _reported(compare("You may go through the deck three times.", "Puoi ridistribuire due volte.", "it")) == []


def test_a_one_said_otherwise_is_no_error():
    # Without the language's articles, a "one" cannot be counted: "one card to each of the other
    # piles" as "the other three piles" is information at most.
    found = compare("Fill the rest with one card to each pile.", "Riempi le altre tre pile dal mazzo.", "it")
    assert _reported(found) == []


@pytest.mark.parametrize("msgid,msgstr", [
    ("Empty piles cannot be filled.", "Le pile vuote si riempiono."),  # negation dropped: not read
    ("Build down in suit.", "Costruisci in ordine crescente per colore."),  # direction, suit: not read
    ("Move the card to the foundation.", "Sposta la carta sul mazzo."),  # pile: not read
    ("Empty piles can only be filled with Kings.", "Le pile vuote si riempiono con i Re."),  # "only": not read
])
def test_no_other_kind_of_fact_is_compared(msgid, msgstr):
    assert compare(msgid, msgstr, "it") == []


_HEADER = '''msgid ""
msgstr ""
"Project-Id-Version: check fixture\\n"
"Language: {lang}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

'''


def _catalog(tmp_path: Path, lang: str, units: dict[str, str]) -> Path:
    folder = tmp_path / lang
    folder.mkdir()
    body = "".join(f'msgid "{msgid}"\nmsgstr "{msgstr}"\n\n' for msgid, msgstr in units.items())
    (folder / f"{lang}.po").write_text(_HEADER.format(lang=lang) + body, encoding="utf-8")
    return tmp_path


def test_check_compares_the_numbers_of_a_language_without_a_lexicon(tmp_path):
    catalogs = _catalog(tmp_path, "it", {
        "Four piles, built up in suit.": "Cinque pile, costruite in ordine crescente per seme.",
        "There are two redeals.": "Ci sono due ridistribuzioni.",
        "Deal 16 cards to the waste.": "Distribuisci sedici carte agli scarti.",
        "The tableau is built up in suit.": "Il tableau si costruisce in ordine decrescente.",
    })
    findings = run_checks(DATA / "C", catalogs, source_checks=False)[0]
    rules = [(f.lang, f.msgid, f.check, f.severity) for f in findings if f.severity in ("error", "warning")
             and f.check not in ("untranslated", "fuzzy", "stale", "obsolete", "gettext", "markup")]
    assert rules == [("it", "Four piles, built up in suit.", "number", "error")]
    # The rule-fact checks ran (no "skipped" note), and no terminology was compared without a lexicon.
    assert not [f for f in findings if f.check in ("facts", "terminology", "false-friend")]


def test_a_regional_catalog_has_the_numbers_of_its_language():
    from patiencebook.generator.check import run

    facts, skipped = run._facts_for("pt_BR")  # CLDR spells out Portuguese numbers, not "pt_BR" ones
    assert skipped is None
    assert [(f[0], f[1]) for f in facts("Seven piles.", "Oito pilhas.", "pt_BR")] == [("number", "error")]
    assert facts("Seven piles.", "Sete pilhas.", "pt_BR") == []


def test_a_catalog_with_a_script_modifier_uses_its_languages_lexicon(monkeypatch):
    from patiencebook.generator.check import run

    seen = []

    def fake(msgid, msgstr, lang, context=None):
        if lang != "sr":
            raise LanguageError(f"no fact lexicon for language {lang!r}")
        seen.append(lang)
        return []

    monkeypatch.setattr(run, "_facts", lambda: fake)
    facts, skipped = run._facts_for("sr@latin")
    assert skipped is None
    facts("Seven piles.", "Sedam gomila.", "sr@latin")
    assert seen[-1] == "sr"


def test_basque_galician_and_occitan_numbers_are_compared_from_the_projects_own_words():
    """CLDR spells out no numbers in eu, gl, oc: their lexicon files list the words."""
    from patiencebook.generator.check import run

    cases = {
        "eu": ("Zazpi pila, hiru karta bakoitzean.", "Zortzi pila, hiru karta bakoitzean.", "Banatu 7 karta.", "Banatu 8 karta."),
        "gl": ("Sete montóns de tres cartas.", "Oito montóns de tres cartas.", "Reparta 7 cartas.", "Reparta 8 cartas."),
        "oc": ("Sèt pilas de tres cartas.", "Uèch pilas de tres cartas.", "Distribuís 7 cartas.", "Distribuís 8 cartas."),
    }
    for lang, (right, wrong, digits, wrong_digits) in cases.items():
        facts, note = run._facts_for(lang)
        assert note is None, lang
        assert facts("Seven piles of three cards.", right, lang) == [], lang
        assert [(f[0], f[1]) for f in facts("Seven piles of three cards.", wrong, lang)] == [("number", "error")], lang
        assert facts("Deal 7 cards.", digits, lang) == [], lang
        assert [(f[0], f[1]) for f in facts("Deal 7 cards.", wrong_digits, lang)] == [("number", "error")], lang


def test_a_language_without_number_words_has_its_digits_compared_with_one_note():
    from patiencebook.generator.check import run

    facts, note = run._facts_for("xh")  # CLDR knows isiXhosa but spells out no numbers in it
    assert note == ("number words not compared: CLDR spells out no numbers in 'xh' and there is no lexicon "
                    "for it; numbers in digits are compared")
    assert [(f[0], f[1]) for f in facts("Deal 7 cards.", "Nika amakhadi ali-8.", "xh")] == [("number", "error")]
    assert facts("Deal 7 cards.", "Nika amakhadi ali-7.", "xh") == []
