"""benchmarks/check_mutants.py: the operator files of every language load, an operator of a new
language makes the edit it says, and ``--corpus`` mutates only the units that were clean."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO.parent / "shared" / "corpus" / "aisleriot" / "help"


def _load():
    spec = importlib.util.spec_from_file_location("check_mutants", REPO / "benchmarks" / "check_mutants.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("check_mutants", module)
    spec.loader.exec_module(module)
    return module


cm = _load()


def _texts(unit, lang, category):
    return {m.text for m in cm.mutants_of(unit, cm.load_operators(lang)) if m.category == category}


@pytest.mark.parametrize("lang", cm.CORPUS_LANGS)
def test_every_operator_file_loads_with_every_category(lang):
    operators = cm.load_operators(lang)
    assert list(operators) == list(cm.CATEGORIES)
    assert all(operators[c] for c in cm.CATEGORIES), [c for c in cm.CATEGORIES if not operators[c]]


def test_a_french_pile_operator_swaps_stock_and_waste():
    unit = cm.Unit(1, "", "Cards are dealt from the Stock to the Waste.",
                   "Les cartes sont retournées de la pioche vers la défausse.")
    assert _texts(unit, "fr", "pile") == {
        "Les cartes sont retournées de la défausse vers la défausse.",
        "Les cartes sont retournées de la pioche vers la pioche.",
    }


def test_a_french_negation_drops_ne_and_pas_and_leaves_markup_alone():
    unit = cm.Unit(1, "", "Empty piles cannot be filled.",
                   "Les piles <emphasis>vides</emphasis> ne peuvent pas être remplies.")
    assert "Les piles <emphasis>vides</emphasis> peuvent être remplies." in _texts(unit, "fr", "negation")


def test_a_russian_operator_keeps_the_case_of_the_noun():
    unit = cm.Unit(1, "", "Cards are dealt from the Stock.", "Карты сдаются из колоды на сброс.")
    assert "Карты сдаются из сброса на сброс." in _texts(unit, "ru", "pile")
    assert "Карты сдаются из колоды на колоду." in _texts(unit, "ru", "pile")


def test_a_hungarian_operator_keeps_the_case_ending():
    unit = cm.Unit(1, "", "Four piles.", "Helyezzen egy ászt mindegyik alapra.")
    assert "Helyezzen egy ászt mindegyik talonra." in _texts(unit, "hu", "pile")
    assert "Helyezzen egy királyt mindegyik alapra." in _texts(unit, "hu", "rank")


def test_a_replacement_takes_the_capital_of_the_sentence_it_starts():
    unit = cm.Unit(1, "", "No redeals.", "Pas de redistribution.")
    assert _texts(unit, "fr", "redeal") == {"Une redistribution."}


def _corpus_language(units, lang="fr"):
    return cm.CorpusLanguage(lang, units, cm.load_operators(lang), {}, True, None)


def test_the_corpus_mode_mutates_only_the_clean_units():
    flagged = cm.Unit(1, "", "Cards are dealt from the Stock.", "Les cartes sont distribuées depuis la pioche.")
    clean = cm.Unit(2, "", "Move cards to the Waste.", "Déplacez les cartes vers la défausse.")
    finding = Counter({("pile", "error", "pile differs"): 1})
    seen = []

    def checker(msgid, msgstr, lang, context=None):
        seen.append(msgstr)
        return finding if msgstr == flagged.msgstr else Counter()

    figures = cm.run_corpus({"fr": _corpus_language([flagged, clean])}, cm.CATEGORIES, checker, limit=None)
    fig = figures["fr"]
    assert (fig["units"], fig["clean"], fig["flagged"], fig["mutated"]) == (2, 1, 1, 1)
    assert fig["categories"]["pile"]["mutants"] == 1
    assert fig["missed"] and {m.unit for m in fig["missed"]} == {clean}
    # the flagged unit is checked once, as it stands, and never mutated
    assert seen.count(flagged.msgstr) == 1
    assert not any("pioche" not in text and "distribuées depuis" in text for text in seen)


def test_a_mutant_with_a_finding_is_caught():
    unit = cm.Unit(1, "", "Move cards to the Waste.", "Déplacez les cartes vers la défausse.")

    def checker(msgid, msgstr, lang, context=None):
        return Counter({("pile", "error", "x"): 1}) if "pioche" in msgstr else Counter()

    fig = cm.run_corpus({"fr": _corpus_language([unit])}, cm.CATEGORIES, checker, limit=None)["fr"]
    assert fig["categories"]["pile"] == {"operators": len(cm.load_operators("fr")["pile"]), "available": 1,
                                         "mutants": 1, "caught": 1, "caught_by": Counter({"pile": 1})}
    assert fig["missed"] == []


def test_without_rule_checks_every_unit_is_clean_and_nothing_is_checked():
    unit = cm.Unit(1, "", "Move cards to the Waste.", "Déplacez les cartes vers la défausse.")

    def checker(*args, **kwargs):
        raise AssertionError("no rule checks: the checker is not called")

    data = cm.CorpusLanguage("fr", [unit], cm.load_operators("fr"), {}, False, "no lexicon")
    fig = cm.run_corpus({"fr": data}, cm.CATEGORIES, checker, limit=None)["fr"]
    assert fig["clean"] == 1 and fig["categories"]["pile"]["mutants"] == 1
    assert fig["categories"]["pile"]["caught"] == 0


def test_the_draw_is_fixed_by_the_seed_and_keeps_the_order():
    items = list(range(50))
    first = cm.drawn(items, 10, 1, "de", "pile")
    assert first == cm.drawn(items, 10, 1, "de", "pile") == sorted(first) and len(first) == 10
    assert cm.drawn(items, 10, 2, "de", "pile") != first
    assert cm.drawn(items, None, 1, "de", "pile") == items


def test_without_corpus_only_our_languages_are_accepted(capsys):
    with pytest.raises(SystemExit):
        cm.main(["--lang", "fr"])
    assert "without --corpus" in capsys.readouterr().err


@pytest.mark.corpus
def test_the_aisleriot_units_mutated_have_no_rule_finding_of_their_own():
    if not (CORPUS / "C" / "index.docbook").is_file():
        pytest.skip(f"AisleRiot corpus not found at {CORPUS}")
    checker = cm.Checker()
    data = cm.corpus_inputs(["de"], CORPUS)["de"]
    # a unit the sources no longer hold has no context; it is checked without one, as patiencebook check does
    roles = {getattr(data.contexts.get((u.context or None, u.msgid)), "role", None) for u in data.units}
    assert "other" not in roles and "rule" in roles
    assert not any(u.msgid == "translator-credits" for u in data.units)
    fig = cm.run_corpus({"de": data}, ("number-digits", "negation"), checker, limit=5)["de"]
    assert fig["flagged"] > 0 and fig["clean"] + fig["flagged"] + fig["failed"] == fig["units"]
    for category in ("number-digits", "negation"):
        assert fig["categories"][category]["mutants"] == 5
    for mutant in fig["missed"]:
        context = data.contexts.get((mutant.unit.context or None, mutant.unit.msgid))
        assert checker(mutant.unit.msgid, mutant.unit.msgstr, "de", context) == Counter()
