"""Rule facts of a help message and the check that a translation states the same facts."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from patiencebook.generator.check.facts import UNLIMITED, extract_facts, check_facts
from patiencebook.generator.check.statements import severity_of

REPO = Path(__file__).resolve().parents[3]
SHARED = REPO.parent / "shared"  # the AisleRiot corpus lives beside the repository, never inside it


def _only(findings, check):
    hits = [f for f in findings if f[0] == check]
    assert len(hits) == 1, findings
    return hits[0]


# (check, lang, msgid, msgstr, severity, source text, translation text)
PLANTED = [
    ("number", "de", "Deal seven cards.", "Geben Sie acht Karten.", "error", "seven", "acht"),
    ("number", "el", "Deal seven cards.", "Μοιράστε οκτώ φύλλα.", "error", "seven", "οκτώ"),
    ("number", "sr", "Deal seven cards.", "Поделите осам карата.", "error", "seven", "осам"),
    # A bare count the translation leaves out is information, not a warning.
    ("number", "de", "The stock holds 24 cards.", "Der Talon enthält die Karten.", "info", "24", None),
    ("rank", "de", "Build from Ace to King.", "Von Ass bis Dame anlegen.", "error", "King", "Dame"),
    ("rank", "el", "Build from Ace to King.", "Από τον Άσσο ως τη Ντάμα.", "error", "King", "Ντάμα"),
    ("rank", "sr", "Build from Ace to King.", "Од кеца до даме.", "error", "King", "даме"),
    ("rank", "de", "Remove a ten.", "Entfernen Sie eine Neun.", "error", "a ten", "eine Neun"),
    ("pile", "de", "Move the card to the foundation.", "Legen Sie die Karte auf den Talon.",
     "error", "foundation", "Talon"),
    ("pile", "el", "Move the card to the foundation.", "Μετακινήστε το φύλλο στη μάνα.",
     "error", "foundation", "μάνα"),
    ("pile", "sr", "Move the card to the foundation.", "Преместите карту на отпад.",
     "error", "foundation", "отпад"),
    ("suit-colour", "de", "Build in suit.", "Nach Farbgruppe anlegen.", "error", "suit", "Farbgruppe"),
    ("suit-colour", "el", "Build in suit.", "Χτίζεται κατά χρώμα.", "error", "suit", "χρώμα"),
    ("suit-colour", "sr", "Build in suit.", "Слаже се по боји.", "error", "suit", "боји"),
    ("direction", "de", "Build down in suit.", "Aufsteigend in Farbe anlegen.",
     "error", "Build down", "Aufsteigend"),
    ("direction", "el", "Build down in suit.", "Χτίζεται σε αύξουσα σειρά κατά φυλή.",
     "error", "Build down", "αύξουσα"),
    ("direction", "sr", "Build down in suit.", "Слаже се навише по знаку.", "error", "Build down", "навише"),
    ("face", "de", "Deal one card face up.", "Geben Sie eine Karte verdeckt.", "error", "face up", "verdeckt"),
    ("face", "el", "Deal one card face up.", "Μοιράστε ένα φύλλο κλειστό.", "error", "face up", "κλειστό"),
    ("face", "sr", "Deal one card face up.", "Поделите једну карту лицем надоле.",
     "error", "face up", "лицем надоле"),
    ("redeal", "de", "There are two redeals.", "Es gibt drei Neuverteilungen.",
     "error", "redeals", "Neuverteilungen"),
    ("redeal", "el", "There are two redeals.", "Επιτρέπονται τρία ξαναμοιράσματα.",
     "error", "redeals", "ξαναμοιράσματα"),
    ("redeal", "sr", "There are two redeals.", "Дозвољена су три поновна дељења.",
     "error", "redeals", "поновна дељења"),
    ("redeal", "de", "There is no redeal.", "Es gibt nichts weiter.", "warning", "redeal", None),
    ("at-a-time", "de", "Deal three cards at a time.", "Die Karten werden einzeln gegeben.",
     "error", "at a time", "einzeln"),
    ("at-a-time", "el", "Deal one card at a time.", "Μοιράστε τρία τρία.",
     "error", "one card at a time", "τρία τρία"),
    ("at-a-time", "sr", "Deal three cards at a time.", "Дели се једна по једна карта.",
     "error", "at a time", "једна по једна"),
    ("side", "de", "The pile on the left.", "Der Stapel rechts.", "error", "on the left", "rechts"),
    ("side", "el", "The pile on the left.", "Η στοίβα στα δεξιά.", "error", "on the left", "δεξιά"),
    ("side", "sr", "The pile on the left.", "Гомила десно.", "error", "on the left", "десно"),
    ("comparator", "de", "Remove pairs that add up to 13.", "Entfernen Sie Paare mit mehr als 13.",
     "error", "add up to", "mehr als"),
    ("comparator", "el", "Remove pairs that add up to 13.", "Απομακρύνετε ζευγάρια με περισσότερα από 13.",
     "error", "add up to", "περισσότερα από"),
    ("comparator", "sr", "Remove pairs that add up to 13.", "Уклоните парове са више од 13.",
     "error", "add up to", "више од"),
]


@pytest.mark.parametrize("check,lang,msgid,msgstr,severity,src,dst", PLANTED,
                         ids=[f"{p[0]}-{p[1]}-{p[4]}-{i}" for i, p in enumerate(PLANTED)])
def test_planted_fact_error_is_reported_with_its_spans(check, lang, msgid, msgstr, severity, src, dst):
    findings = check_facts(msgid, msgstr, lang)
    assert len(findings) == 1, findings
    name, sev, message, source, translation, confidence = _only(findings, check)
    assert sev == severity == severity_of(confidence)
    assert message
    assert source.text == src and msgid[source.start:source.end] == src
    if dst is None:
        assert translation is None
    else:
        assert translation.text == dst and msgstr[translation.start:translation.end] == dst


def test_number_error_message_names_both_values():
    finding = _only(check_facts("Deal seven cards.", "Geben Sie sechs Karten.", "de"), "number")
    assert finding[2] == "7 in the source, 6 in the translation"


CONSISTENT = [
    ("de", "Move a card to the foundation.", "Legen Sie eine Karte auf den Zielstapel."),
    ("de", 'See <link linkend="x7">the rules</link> for seven cards.',
     'Siehe <link linkend="x8">Regeln</link> für sieben Karten.'),
    ("sr", "Build down in suit.", "Slaže se naniže po znaku."),
    ("el", "THREE ACES.", "ΤΡΕΙΣ ΑΣΣΟΙ."),
    ("el", "three aces", "τρεις άσσοι"),
    ("de", "Move three cards.", "Legen Sie einen Dreierstapel."),
    ("de", "Copyright 2024 the authors.", "Copyright 2025 die Autoren."),
    ("de", "Fifty-four cards.", "Vierundfünfzig Karten."),
    ("el", "Fifty-four cards.", "Πενήντα τέσσερα φύλλα."),
    ("de", "Build down in alternate colours.", "Absteigend in abwechselnden Farbgruppen anlegen."),
    ("el", "Build down in alternate colours.", "Χτίζεται σε φθίνουσα σειρά με εναλλασσόμενα χρώματα."),
    ("sr", "Build down in alternate colours.", "Слаже се наниже по наизменичним бојама."),
    ("de", "There are two redeals.", "Sie haben drei Durchgänge."),
    ("el", "You can go through the deck three times.", "Επιτρέπονται δύο ξαναμοιράσματα."),
    ("sr", "There is no redeal.", "Поновног дељења нема."),
    ("de", "Deal four cards, twice.", "Geben Sie zweimal vier Karten."),
    ("sr", "Remove a ten.", "Уклоните десетку."),
    ("de", "Remove a ten.", "Entfernen Sie eine Zehn."),
    ("de", "Seven cards", ""),
    ("el", "Kings are removed singly.", "Οι Ρήγες απομακρύνονται μόνοι τους."),
    ("el", "Foundations are built up or down, disregarding suit.",
     "Οι βάσεις χτίζονται πάνω ή κάτω από το φύλλο τους, αγνοώντας τη φυλή."),
    ("sr", "Foundations are built up or down regardless of suit.", "Темељи се слажу нагоре или надоле, без обзира на знак."),
    # Three deals in all are three passes through the stock: two redeals.
    ("el", "You can go through the deck three times.", "Συνολικά επιτρέπονται τρεις μοιρασιές."),
    ("sr", "Built up or down, disregarding suit.", "Слаже се нагоре или надоле, занемарујући знак."),
    # "eins höher" is one rank up, as "one higher" is.
    ("de", "Move a card one higher or one lower.", "Legen Sie eine Karte eins höher oder niedriger."),
    # "највише лево" is the leftmost, not "at most".
    ("sr", "Move the others on to the leftmost card.", "Померите остале на карту која је највише лево."),
    # "κέντρο" (centre) is no "κενό" (empty).
    ("el", "Four piles in the middle.", "Τέσσερις στοίβες στο κέντρο."),
]


@pytest.mark.parametrize("lang,msgid,msgstr", CONSISTENT)
def test_consistent_translation_gives_no_finding(lang, msgid, msgstr):
    assert check_facts(msgid, msgstr, lang) == []


def test_redeal_value_counts_passes_through_the_deck_as_one_more_than_redeals():
    facts = [f for f in extract_facts("You can go through the deck three times.", "en") if f.kind == "redeal"]
    assert [f.value for f in facts] == [2]
    facts = [f for f in extract_facts("Unlimited redeals.", "en") if f.kind == "redeal"]
    assert [f.value for f in facts] == [UNLIMITED]
    facts = [f for f in extract_facts("There is no redeal.", "en") if f.kind == "redeal"]
    assert [f.value for f in facts] == [0]


def test_extract_facts_finds_inflected_greek_and_serbian_words():
    greek = {(f.kind, f.value) for f in extract_facts("στις βάσεις, τρεις Ρήγες", "el")}
    assert {("pile", "foundation"), ("number", 3), ("rank", 13)} <= greek
    serbian = {(f.kind, f.value) for f in extract_facts("на темељима, три краља", "sr")}
    assert {("pile", "foundation"), ("number", 3), ("rank", 13)} <= serbian


def test_numbers_inside_markup_attributes_are_ignored():
    facts = extract_facts('<link linkend="rule-7" xref="12">see</link>', "en")
    assert [f for f in facts if f.kind == "number"] == []


def _units(path: Path):
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id and message.string and not message.fuzzy and isinstance(message.id, str):
            yield message.id, message.string


def _skipped(path: Path) -> set[tuple[str, str]]:
    """(msgid, check) pairs a translator silenced with a ``# check: skip=NAME reason`` comment."""
    with path.open("rb") as handle:
        catalog = read_po(handle)
    return {(message.id, name) for message in catalog for comment in message.user_comments
            if comment.startswith("check: skip=") for name in comment.split()[1][len("skip="):].split(",")}


@pytest.mark.parametrize("lang", ["de", "el", "sr"])
def test_project_catalogs_state_the_same_facts_as_the_source(lang):
    from patiencebook.generator.catalogs import read_catalog
    from patiencebook.generator.check.context import catalog_contexts
    from patiencebook.generator.docbook.sources import load_document

    path = REPO / "locales" / lang / "LC_MESSAGES" / "help.po"
    skipped = _skipped(path)
    contexts = catalog_contexts(load_document(REPO / "rules"), read_catalog(path))
    findings = [(msgid, f) for msgid, msgstr in _units(path)
                for f in check_facts(msgid, msgstr, lang, contexts.get((None, msgid)))
                if (msgid, f[0]) not in skipped]
    # Information (a count left to a paraphrase) may remain; nothing a translator is told to fix.
    assert [f for f in findings if f[1][1] in ("error", "warning")] == []


@pytest.mark.corpus
@pytest.mark.parametrize("lang", ["de", "el", "sr"])
def test_aisleriot_catalog_known_rule_errors_are_found(lang):
    path = SHARED / "corpus" / "aisleriot" / "help" / lang / f"{lang}.po"
    if not path.exists():
        pytest.skip(f"AisleRiot corpus not found at {path} (expected beside the repository)")
    errors = [f for msgid, msgstr in _units(path) for f in check_facts(msgid, msgstr, lang) if f[1] == "error"]
    # The corpus has known wrong piles, suits, numbers and directions: each language shows several.
    assert len(errors) >= 5
    assert {f[0] for f in errors} & {"pile", "suit-colour", "number", "direction"}


@pytest.mark.parametrize("lang,text", [
    ("el", "Η νίκη εξαρτάται από τη δεξιοτεχνία σας."),      # depends, skill: no Six, no right
    ("el", "Αφήστε το φύλλο απείραχτο και αποθηκεύετε την παρτίδα."),  # untouched, save: no limit, no reserve
    ("el", "Τέσσερις στοίβες στο κέντρο."),                 # centre: not empty
    ("sr", "Четири места у одаји за публику."),             # audience: no Jack
])
def test_words_that_begin_like_a_term_are_not_read_as_it(lang, text):
    assert [(f.kind, f.value) for f in extract_facts(text, lang) if f.kind != "number"] == []


@pytest.mark.parametrize("lang,text,facts", [
    ("el", "Ένα εξάρι και ένας βαλές στη δεξιά αποθήκη.", [("rank", 6), ("rank", 11), ("side", "right"),
                                                         ("pile", "reserve")]),
    ("sr", "Пуб на даму.", [("rank", 11), ("rank", 12)]),
])
def test_the_terms_themselves_are_still_read(lang, text, facts):
    assert [(f.kind, f.value) for f in extract_facts(text, lang) if f.kind != "number"] == facts


def test_a_phrase_does_not_run_on_past_the_end_of_a_sentence():
    # "πάνω. Από" is no "πάνω από" (more than): the first sentence ends with "on top".
    text = "Μετακινήστε τους στη θέση, με το Βαλέ από πάνω. Από εκεί και πέρα, χτίστε."
    assert [(f.kind, f.value) for f in extract_facts(text, "el") if f.kind != "rank"] == [("position", "top")]


def test_a_limit_without_its_number_leaves_its_words_to_other_terms():
    # "πάνω από" is "more than" before a number; before a card it is "on top of".
    assert [(f.kind, f.value) for f in extract_facts("Τοποθετήστε το πάνω από τον Ρήγα.", "el")] == [
        ("position", "top"), ("rank", 13)]
    assert [(f.kind, f.value) for f in extract_facts("πάνω από δέκα φύλλα", "el")] == [
        ("comparator", "more"), ("number", 10)]
