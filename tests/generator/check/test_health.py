"""Catalog health: untranslated, fuzzy, obsolete, stale units and gettext validity."""

import difflib
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from hypothesis import given, settings, strategies as st

from patiencebook.generator.catalogs import read_catalog
from patiencebook.generator.check.health import (check_gettext, check_matches, check_units, closest_translated,
                                                 describe_change, plural_forms, skipped_checks)
from patiencebook.generator.catalogs.pot import pot_catalog
from patiencebook.generator.docbook.sources import load_document

DATA = Path(__file__).resolve().parents[2] / "data" / "check"
CATALOG = DATA / "locales" / "de" / "LC_MESSAGES" / "help.po"


@pytest.fixture(scope="module")
def problems():
    pot = pot_catalog(load_document(DATA / "C"))
    return check_units(read_catalog(CATALOG), pot)


def _by_check(problems, check):
    return [(p.msgid, p.severity, p.message, p.po_line) for p in problems if p.check == check]


def test_describe_change_names_changed_numbers_first():
    assert describe_change("Deal 16 cards.", "Deal 8 cards.") == "16 became 8"
    assert describe_change("Eight piles, built down.", "Seven piles, built up.") == \
        "Eight became Seven; 'down.' became 'up.'"
    assert describe_change("Eight piles.", "Eight <emphasis>piles</emphasis>.") == ""
    assert describe_change("Version 2.12 here.", "Version 3.2 here.") == "2.12 became 3.2"


def test_describe_change_names_at_most_three_changes():
    assert describe_change("a b c d e f g", "a X c Y e Z g W") == \
        "'b' became 'X'; 'd' became 'Y'; 'f' became 'Z'; and 1 more change"


_WORDS = st.lists(st.sampled_from(["move", "the", "card", "cards", "to", "a", "pile", "king", ",", "."]),
                  min_size=0, max_size=9)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_WORDS, st.sampled_from([None, "x"])), max_size=8), _WORDS, st.sampled_from([None, "x"]))
def test_closest_translated_is_the_first_unit_with_the_best_ratio_over_words(candidates, words, context):
    # The reference: every unit of the same msgctxt, SequenceMatcher's ratio over the words, the
    # first of the best at 0.6 or more. The quick filters before the ratio must change nothing.
    units = [Message(" ".join(w) or "-", "x", context=c) for w, c in candidates]
    target = Message(" ".join(words) or "-", context=context)
    best, best_ratio = None, 0.6
    for unit in units:
        if unit.context != context:
            continue
        ratio = difflib.SequenceMatcher(None, unit.id.split(), target.id.split(), autojunk=False).ratio()
        if ratio > best_ratio or (best is None and ratio >= best_ratio):
            best, best_ratio = unit, ratio
    assert closest_translated(target, units) is best


def test_empty_msgstr_is_untranslated(problems):
    assert _by_check(problems, "untranslated") == [
        ("Move all cards to the foundations.", "warning", "the msgstr is empty", 37)]


def test_fuzzy_unit_shows_the_english_change_from_previous_msgid(problems):
    assert _by_check(problems, "fuzzy") == [
        ("Eight piles. The stock holds 23 cards.", "warning",
         "the unit is marked fuzzy: its translation is not used until a translator confirms it "
         "(the English changed: 24 became 23)", 64)]


def test_obsolete_unit_is_info(problems):
    assert _by_check(problems, "obsolete") == [
        ("Old line.", "info", "obsolete unit (#~): its English is no longer in the sources", 118)]


def test_changed_english_is_stale_with_the_change_and_gone_english_would_become_obsolete(problems):
    assert _by_check(problems, "stale") == [
        ("Deal 8 cards to the waste.", "warning", "the English changed since this was translated: 16 became 8", 84),
        ("Jokers are wild in this game.", "info",
         "the English of this unit is gone from the sources; the next update makes it obsolete", 115)]


def test_checking_does_not_change_the_catalog():
    catalog = read_catalog(CATALOG)
    before = [(m.id, m.string, m.fuzzy) for m in catalog]
    check_units(catalog, pot_catalog(load_document(DATA / "C")))
    assert [(m.id, m.string, m.fuzzy) for m in catalog] == before
    assert list(catalog.obsolete) == ["Old line."]


def test_plural_forms_sanity():
    assert plural_forms("nplurals=2; plural=(n != 1);") == (2, "(n != 1)")
    assert plural_forms("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
                        "(n%100<10 || n%100>=20) ? 1 : 2);")[0] == 3
    assert plural_forms("nplurals=2; plural=(n > 1 ? 2 : 0);") == \
        "has a plural expression giving form 2, but nplurals=2"
    assert plural_forms("plural=(n != 1);") == "is not 'nplurals=N; plural=EXPRESSION;'"
    assert plural_forms("nplurals=2; plural=import os;").startswith("has a plural expression that cannot be read")


def _write(tmp_path: Path, header: str, units: str) -> Path:
    path = tmp_path / "x.po"
    path.write_text(f'msgid ""\nmsgstr ""\n{header}\n{units}', encoding="utf-8")
    return path


def test_planted_header_error_is_reported_on_the_header_line():
    problems = check_gettext(CATALOG, read_catalog(CATALOG))
    assert [(p.check, p.severity, p.message, p.po_line) for p in problems] == [
        ("gettext", "error", "the header's Plural-Forms has a plural expression giving form 2, but nplurals=2", 2)]


def test_missing_charset_and_plural_forms(tmp_path):
    path = _write(tmp_path, '"Content-Type: text/plain\\n"\n', 'msgid "a"\nmsgstr "b"\n')
    problems = check_gettext(path, read_catalog(path))
    assert [(p.severity, p.message) for p in problems] == [
        ("error", "the header's Content-Type names no charset: 'text/plain'"),
        ("warning", "the header has no Plural-Forms")]


def test_plural_unit_needs_nplurals_msgstrs_and_newlines_must_match(tmp_path):
    header = ('"Content-Type: text/plain; charset=UTF-8\\n"\n'
              '"Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);\\n"\n')
    units = ('msgid "one card"\nmsgid_plural "%d cards"\nmsgstr[0] "eine Karte"\nmsgstr[1] "%d Karten"\n\n'
             'msgid "line\\n"\nmsgstr "Zeile"\n')
    path = _write(tmp_path, header, units)
    problems = check_gettext(path, read_catalog(path))
    assert [(p.msgid, p.message, p.po_line) for p in problems] == [
        ("one card", "the unit has 2 plural msgstrs; Plural-Forms says 3", 6),
        ("line\n", "the msgid and msgstr do not both end with a newline", 11)]


def test_skip_comment_names_checks_and_families():
    message = Message("x", "y", user_comments=["check: skip=number,model the figure is right", "other"])
    assert skipped_checks(message) == {"number", "model"}
    assert check_matches("model-pile", skipped_checks(message))
    assert not check_matches("markup", skipped_checks(message))
    assert check_matches("markup", {"*"})
    assert skipped_checks(Message("x", "y", user_comments=["check: markup: a finding, not a skip"])) == set()
