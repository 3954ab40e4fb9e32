"""Terminology checks: one translated term per concept, variant counts, and false friends."""

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from patiencebook.generator.check.glossary import Concept, GlossaryTerm
from patiencebook.generator.check.run import run_checks
from patiencebook.generator.check.terminology import (check_false_friends, check_terminology, concept_variants)

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "tests" / "data" / "check" / "terminology"
SOURCES, CATALOGS = DATA / "C", DATA / "locales"
#: AisleRiot's help, outside the repository: <repo>/../shared/corpus/aisleriot/help.
CORPUS = REPO.parent / "shared" / "corpus" / "aisleriot" / "help"


def _concept(cid, en, **terms):
    return Concept(cid, (GlossaryTerm("en", en),) + tuple(GlossaryTerm(l, t) for l, t in terms.items()))


def _catalog(lang, pairs):
    catalog = Catalog(locale=lang)
    for msgid, msgstr in pairs:
        catalog.add(msgid, msgstr)
    return catalog


def test_planted_variants_and_false_friend_give_exact_findings():
    findings, _ = run_checks(SOURCES, CATALOGS, checks=["terminology", "false-friend"])
    rows = [(f.lang, f.file, f.line, f.check, f.severity, f.message,
             f.translation.text if f.translation else None, f.po_line) for f in findings]
    assert rows == [
        ("de", "gamma.xml", 29, "terminology", "warning",
         "'Vorrat' for 'Stock'; the glossary term is 'Talon'", "Vorrat", 87),
        ("de", "gamma.xml", 30, "terminology", "warning",
         "'Fundament' for 'Foundation'; the glossary term is 'Zielstapel'", "Fundament", 92),
        ("de", "gamma.xml", 31, "false-friend", "warning",
         "'Farbe' means suit here, but the English says colour ('Farbe' is the suit at the card table "
         "but red/black in everyday German)", "Farbe", 97),
        ("de", "help.po", None, "terminology", "info", "Stock: Talon ×1 (glossary), Vorrat ×1 in 2 messages",
         None, None),
        ("de", "help.po", None, "terminology", "info",
         "Foundation: Zielstapel ×3 (glossary), Fundament ×1 in 4 messages", None, None),
        ("de", "help.po", None, "terminology", "info", "Tableau: Tableau ×3 (glossary) in 3 messages",
         None, None),
    ]


def test_variant_summaries_only_when_terminology_is_asked_for():
    findings, _ = run_checks(SOURCES, CATALOGS)
    term = [(f.check, f.severity, f.line) for f in findings if f.check in ("terminology", "false-friend")]
    assert term == [("terminology", "warning", 29), ("terminology", "warning", 30),
                    ("false-friend", "warning", 31)]


def test_inflected_and_compound_forms_of_the_preferred_term_are_the_preferred_term():
    concepts = [_concept("foundation", "Foundation", de="Zielstapel")]
    catalog = _catalog("de", [("Move cards to the foundations.", "Legen Sie die Karten auf den Zielstapeln ab."),
                              ("The foundation is empty.", "Der Zielstapelplatz ist leer.")])
    problems, matchers = check_terminology(concepts, catalog, "de")
    assert [p.severity for p in problems] == ["info"]
    assert concept_variants(matchers[0])[0].count == 2
    assert concept_variants(matchers[0])[0].preferred is True


def test_synonym_beside_the_preferred_term_names_something_else():
    # "shuffled deck" and "stock" in one message: "шпила" is the deck, "талона" the stock.
    concepts = [_concept("stock", "Stock", sr="Талон")]
    catalog = _catalog("sr", [("Deal from the shuffled deck; later take cards from the stock.",
                               "Делите из промешаног шпила; касније узимајте карте из талона.")])
    problems, _ = check_terminology(concepts, catalog, "sr")
    assert [p.severity for p in problems] == ["info"]


def test_synonym_without_the_preferred_term_warns_with_both_spans():
    concepts = [_concept("stock", "Stock", sr="Талон")]
    catalog = _catalog("sr", [("Click the stock.", "Кликните на шпил.")])
    problems, _ = check_terminology(concepts, catalog, "sr")
    warning = problems[0]
    assert (warning.check, warning.severity) == ("terminology", "warning")
    assert (warning.source.text, warning.translation.text) == ("stock", "шпил")
    assert problems[1].message == "Stock: шпил ×1 in 1 messages"


def test_false_friend_follows_the_glossary_meaning():
    catalog = _catalog("sr", [("Move a card to the tableau.", "Преместите карту на талон.")])
    as_stock = [_concept("stock", "Stock", sr="Талон")]
    as_tableau = [_concept("tableau", "Tableau", sr="Талон")]
    found = check_false_friends(as_stock, catalog, "sr")
    assert [(p.check, p.translation.text) for p in found] == [("false-friend", "талон")]
    assert found[0].message.startswith("'талон' means stock here, but the English says tableau")
    assert check_false_friends(as_tableau, catalog, "sr") == []


def test_greek_colour_word_for_suit_is_a_false_friend():
    catalog = _catalog("el", [("Build down in suit.", "Χτίστε καθοδικά στο ίδιο χρώμα."),
                              ("Build down in alternate colour.", "Χτίστε καθοδικά σε εναλλασσόμενο χρώμα.")])
    found = check_false_friends([], catalog, "el")
    assert [(p.msgid, p.translation.text) for p in found] == [("Build down in suit.", "χρώμα")]


def test_our_catalogs_use_one_term_per_concept():
    findings, checked = run_checks(REPO / "rules", REPO / "locales", checks=["terminology", "false-friend"])
    assert sorted(checked) == ["de", "el", "sr"]
    assert [f for f in findings if f.severity != "info"] == []
    # Every German message about foundations says "Zielstapel", the glossary term, and nothing else.
    used = [re.match(r"Foundation: Zielstapel ×(\d+) \(glossary\) in (\d+) messages$", f.message)
            for f in findings if f.lang == "de"]
    counts = [(int(m.group(1)), int(m.group(2))) for m in used if m]
    assert len(counts) == 1 and counts[0][0] >= counts[0][1] > 32


def test_aisleriot_german_foundation_variants_are_counted():
    if not (CORPUS / "C" / "index.docbook").is_file():
        pytest.skip(f"AisleRiot corpus not found at {CORPUS} (expected <repo>/../shared/corpus)")
    findings, _ = run_checks(CORPUS / "C", CORPUS, langs=["de"], checks=["terminology"])
    summary = next(f.message for f in findings if f.severity == "info" and f.message.startswith("Foundation:"))
    assert summary.startswith("Foundation: Fundamentstapel ×129 (glossary), Fundament ×7")
    assert sum(1 for f in findings if f.severity == "warning") > 0


def _document():
    from patiencebook.generator.docbook.sources import load_document

    return load_document(SOURCES)


def test_the_catalog_header_states_the_glossary():
    from patiencebook.generator.check.terminology import header_glossary, load_glossary

    catalog = _catalog("de", [("Stock", "Vorrat"), ("The stock deals one card.", "Der Talon gibt eine Karte.")])
    catalog.header_comment = ("# German translation\n# Besondere Ausdrücke\n# stock = Talon (der Kartenstoß)\n"
                              "# redeal = Neuverteilung/Neuausgabe\n# slot = Ablage?\n")
    header = {c.in_lang("en")[0].text: [(t.text, t.status) for t in c.in_lang("de")] for c in header_glossary(catalog, "de")}
    assert header == {"stock": [("Talon", "preferred")],
                      "redeal": [("Neuverteilung", "preferred"), ("Neuausgabe", "admitted")],
                      "slot": [("Ablage", "preferred")]}
    # The header outvotes the Setup label's own translation ("Vorrat").
    stock = next(c for c in load_glossary(_document(), catalog, "de", None) if c.in_lang("en")[0].text == "Stock")
    assert stock.preferred("de") == "Talon"


def test_the_header_glossary_is_read_as_the_file_writes_it(tmp_path, monkeypatch):
    from babel.core import Locale

    from patiencebook.generator.catalogs import read_catalog
    from patiencebook.generator.check.terminology import header_glossary

    path = tmp_path / "de.po"
    path.write_text('# German translation of the help.\n# stock = Talon\n# VERSION = Fassung\n'
                    'msgid ""\nmsgstr ""\n"Project-Id-Version: help 2.0\\n"\n"Language: de\\n"\n'
                    '"Content-Type: text/plain; charset=UTF-8\\n"\n', encoding="utf-8")
    catalog = read_catalog(path)
    assert "# 2.0 = Fassung" in catalog.header_comment  # Babel's view fills in its placeholders

    def unread(self):
        raise AssertionError("CLDR's data looked up: the English name of the language is not needed")

    # Babel's header_comment looks up the language's English name in CLDR (13 ms at first use).
    monkeypatch.setattr(Locale, "english_name", property(unread))
    header = {c.in_lang("en")[0].text: [t.text for t in c.in_lang("de")] for c in header_glossary(catalog, "de")}
    assert header == {"stock": ["Talon"], "VERSION": ["Fassung"]}


def test_without_a_header_the_term_the_catalog_uses_most_is_agreed():
    from patiencebook.generator.check.terminology import load_glossary

    catalog = _catalog("de", [("Stock", "Vorrat")] + [(f"The stock deals {n} cards.", f"Der Talon gibt {n} Karten.")
                                                       for n in range(2, 6)])
    stock = next(c for c in load_glossary(_document(), catalog, "de", None) if c.in_lang("en")[0].text == "Stock")
    assert stock.preferred("de") == "Talon"
    problems, _ = check_terminology([stock], catalog, "de")
    assert [p for p in problems if p.severity == "warning" and "Talon" in (p.translation.text if p.translation else "")] == []


def test_an_admitted_term_is_never_a_warning():
    concept = Concept("redeal", (GlossaryTerm("en", "Redeal"), GlossaryTerm("de", "Neuverteilung"),
                                 GlossaryTerm("de", "Neuausgabe", "admitted")))
    catalog = _catalog("de", [("One redeal.", "Eine Neuausgabe.")])
    problems, _ = check_terminology([concept], catalog, "de")
    assert [(p.severity, p.message) for p in problems] == [("info", "Redeal: Neuausgabe ×1 (accepted) in 1 messages")]


def test_the_pile_check_reads_the_catalogs_agreed_terms():
    # A catalog calling the tableau "талон" (the lexicon's stock) has it read as the tableau.
    from patiencebook.generator.check.facts import lexicon_key
    from patiencebook.generator.check.statements import UnitContext, compare
    from patiencebook.generator.check.terminology import agreed_terms

    as_tableau = agreed_terms([_concept("tableau", "Tableau", sr="Талон"), _concept("stock", "Stock", sr="Шпил")], "sr")
    assert ("pile", "tableau", "Талон") in as_tableau
    as_stock = agreed_terms([_concept("tableau", "Tableau", sr="Поље"), _concept("stock", "Stock", sr="Талон")], "sr")
    msgid, msgstr = "Move the card to the tableau.", "Преместите карту на талон."
    assert compare(msgid, msgstr, "sr", UnitContext(lexicon=lexicon_key("sr", as_tableau))) == []
    # Where the catalog agrees that "талон" is the stock, the same sentence names the wrong pile.
    assert [f[:2] for f in compare(msgid, msgstr, "sr", UnitContext(lexicon=lexicon_key("sr", as_stock)))] == [
        ("pile", "error")]


def test_a_phrase_naming_something_else_is_no_agreed_term():
    from patiencebook.generator.check.terminology import agreed_terms

    # "Иста боја" (same colour) for the label "Same suit" must not make "боја" a suit.
    assert agreed_terms([_concept("same-suit", "Same suit", sr="Иста боја")], "sr") == ()
