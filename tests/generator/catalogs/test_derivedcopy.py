"""A hand-kept sr@latin catalog beside sr: where it lacks or changes a message, and which one a build uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.generator.catalogs.derivedcopy import choose_catalog, compare_copy
from patiencebook.generator.catalogs.pofile import read_catalog

HEADER = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: {lang}\\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

'''


def _po(path: Path, lang: str, units: dict[str, str]) -> Path:
    body = "".join(f'msgid "{msgid}"\nmsgstr "{msgstr}"\n\n' for msgid, msgstr in units.items())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER.format(lang=lang) + body, encoding="utf-8")
    return path


@pytest.fixture
def catalogs(tmp_path):
    base = _po(tmp_path / "sr" / "sr.po", "sr", {"Stock": "Шпил", "Waste": "Отпад", "Seven piles": "Седам гомила"})
    complete = _po(tmp_path / "a" / "sr@latin.po", "sr@latin",
                   {"Stock": "Špil", "Waste": "Otpad", "Seven piles": "Sedam gomila"})
    behind = _po(tmp_path / "b" / "sr@latin.po", "sr@latin", {"Stock": "Špil", "Seven piles": "Osam gomila"})
    return base, complete, behind


def test_a_missing_and_a_changed_message_are_found_with_the_derived_text_beside(catalogs):
    base, _, behind = catalogs
    found = compare_copy(read_catalog(base), read_catalog(behind), "cyrillic-to-latin")
    assert [(d.msgid, d.kind, d.kept, d.derived) for d in found] == [
        ("Waste", "missing", "", "Otpad"), ("Seven piles", "differs", "Osam gomila", "Sedam gomila")]
    assert found[1].po_line is not None and found[0].po_line is None


def test_auto_uses_the_hand_kept_catalog_only_when_it_is_complete_and_up_to_date(catalogs):
    base, complete, behind = catalogs
    kept = choose_catalog("sr@latin", "sr", base, complete, "cyrillic-to-latin")
    assert kept.kept and "complete and up to date" in kept.reason and not kept.differences
    derived = choose_catalog("sr@latin", "sr", base, behind, "cyrillic-to-latin")
    assert not derived.kept
    assert "lacks 1 message(s) sr translates and 1 differ" in derived.reason and str(behind) in derived.reason


def test_the_option_chooses_either_way(catalogs):
    base, complete, behind = catalogs
    assert choose_catalog("sr@latin", "sr", base, behind, "cyrillic-to-latin", "catalog").kept
    assert not choose_catalog("sr@latin", "sr", base, complete, "cyrillic-to-latin", "derive").kept
    with pytest.raises(ValueError):
        choose_catalog("sr@latin", "sr", base, complete, "cyrillic-to-latin", "newest")


def test_the_build_plan_says_which_catalog_it_uses_and_why(catalogs, tmp_path):
    from patiencebook.generator.site.build import plan_languages

    base, _, behind = catalogs
    found = {"sr": base, "sr@latin": behind}
    notes: list[str] = []
    plan = plan_languages(["en", "sr", "sr@latin"], found, "en", tmp_path, "auto", notes)
    assert [(language.code, catalog, derive) for language, catalog, derive in plan] == [
        ("en", None, False), ("sr", base, False), ("sr@latin", base, True)]
    assert len(notes) == 1 and notes[0].startswith("sr@latin: built from sr")
    plan = plan_languages(["sr@latin"], found, "en", tmp_path, "catalog", notes)
    assert [(catalog, derive) for _, catalog, derive in plan] == [(behind, False)]


def test_the_check_warns_per_message_with_the_converted_text(catalogs):
    from patiencebook.generator.check.derivedcopy import derived_copy_problems

    base, complete, behind = catalogs
    problems = derived_copy_problems("sr@latin", read_catalog(behind), {"sr": base, "sr@latin": behind})
    assert [(p.msgid, p.check, p.severity) for p in problems] == [
        ("Waste", "derived-copy", "warning"), ("Seven piles", "derived-copy", "warning")]
    assert "'Otpad'" in problems[0].message and "'Sedam gomila'" in problems[1].message
    assert problems[1].translation.text == "Osam gomila"
    assert derived_copy_problems("sr@latin", read_catalog(complete), {"sr": base, "sr@latin": complete}) == []
    assert derived_copy_problems("sr@latin", read_catalog(behind), {"sr@latin": behind}) == []  # no base beside it
    assert derived_copy_problems("de", read_catalog(base), {"sr": base, "de": base}) == []  # not a derived language
