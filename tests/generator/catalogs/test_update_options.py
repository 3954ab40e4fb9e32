"""``patiencebook update``: fuzzy matching on or off, ``#|`` lines kept or dropped, the fuzzy guesses
reported, another domain, and ``--strict``."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.generator.catalogs import merge_catalog, read_catalog, update_catalog
from patiencebook.generator.cli import main

HEADER = """msgid ""
msgstr ""
"Project-Id-Version: test\\n"
"POT-Creation-Date: {date}\\n"
"Language: de\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"""

# The old catalog: every unit translated. The new template keeps "Deal one card at a time." and
# adds "Deal three cards at a time.", which fuzzy matching would give the translation of the
# other (wrong: "eine Karte").
CATALOG = HEADER.format(date="2026-01-01 00:00+0000") + """
#: C/deal.xml:4
msgid "Dealing"
msgstr "Geben"

#: C/deal.xml:6
msgid "Deal one card at a time."
msgstr "Geben Sie jeweils eine Karte."

#: C/deal.xml:8
msgid "The stock is dealt once."
msgstr "Der Talon wird einmal gegeben."
"""

TEMPLATE = HEADER.format(date="2026-06-01 12:00+0000") + """
#: C/deal.xml:4
msgid "Dealing"
msgstr ""

#: C/deal.xml:6
msgid "Deal one card at a time."
msgstr ""

#: C/deal.xml:7
msgid "Deal three cards at a time."
msgstr ""

#: C/deal.xml:9
msgid "The stock is dealt twice."
msgstr ""
"""

# A catalog with a unit left fuzzy by an earlier update, its old msgid kept as #| lines.
WITH_PREVIOUS = HEADER.format(date="2026-01-01 00:00+0000") + """
#: C/deal.xml:4
msgid "Dealing"
msgstr "Geben"

#: C/deal.xml:6
#, fuzzy
#| msgid "Deal a card at a time."
msgid "Deal one card at a time."
msgstr "Geben Sie jeweils eine Karte."
"""


@pytest.fixture
def catalogs(tmp_path) -> Path:
    folder = tmp_path / "locales"
    po = folder / "de" / "LC_MESSAGES" / "help.po"
    po.parent.mkdir(parents=True)
    po.write_text(CATALOG, encoding="utf-8")
    (folder / "help.pot").write_text(TEMPLATE, encoding="utf-8")
    return folder


def po_of(catalogs: Path, domain: str = "help") -> Path:
    return catalogs / "de" / "LC_MESSAGES" / f"{domain}.po"


def test_fuzzy_matching_gives_a_new_msgid_the_translation_of_another(catalogs, capsys):
    assert main(["update", "--catalogs", str(catalogs)]) == 0
    guess = read_catalog(po_of(catalogs)).get("Deal three cards at a time.")
    assert (guess.string, guess.fuzzy) == ("Geben Sie jeweils eine Karte.", True)
    assert guess.previous_id == ["Deal one card at a time."]


def test_no_fuzzy_matching_leaves_a_new_msgid_untranslated(catalogs, capsys):
    assert main(["update", "--catalogs", str(catalogs), "--no-fuzzy-matching"]) == 0
    catalog = read_catalog(po_of(catalogs))
    new = catalog.get("Deal three cards at a time.")
    assert (new.string, new.fuzzy, new.previous_id) == ("", False, [])
    assert catalog.get("Deal one card at a time.").string == "Geben Sie jeweils eine Karte."
    assert not any(m.fuzzy for m in catalog if m.id)
    assert [m.id for m in catalog.obsolete.values()] == ["The stock is dealt once."]
    out = capsys.readouterr().out
    assert out == f"updated {po_of(catalogs)}\n"


def test_update_reports_each_fuzzy_guess_with_its_line_and_the_msgid_it_took(catalogs, capsys):
    assert main(["update", "--catalogs", str(catalogs)]) == 0
    po = po_of(catalogs)
    lines = {m.id: m.lineno for m in read_catalog(po) if m.id}
    assert capsys.readouterr().out.splitlines() == [
        f"updated {po} (2 fuzzy guesses to review)",
        f"  {po}:{lines['Deal three cards at a time.']}: fuzzy 'Deal three cards at a time.' took the translation "
        "of 'Deal one card at a time.'",
        f"  {po}:{lines['The stock is dealt twice.']}: fuzzy 'The stock is dealt twice.' took the translation "
        "of 'The stock is dealt once.'"]
    text = po.read_text(encoding="utf-8").split("\n")
    assert text[lines["Deal three cards at a time."] - 1] == 'msgid "Deal three cards at a time."'


def test_a_unit_already_fuzzy_is_not_reported_again(catalogs, capsys):
    main(["update", "--catalogs", str(catalogs)])
    capsys.readouterr()
    assert main(["update", "--catalogs", str(catalogs)]) == 0
    assert capsys.readouterr().out == f"unchanged {po_of(catalogs)}\n"


def test_merge_catalog_returns_the_guesses_and_update_catalog_whether_it_wrote(catalogs):
    template = read_catalog(catalogs / "help.pot")
    result = merge_catalog(po_of(catalogs), template, fuzzy_matching=True)
    assert result.changed is True
    assert [(g.msgid, g.previous) for g in result.guesses] == [
        ("Deal three cards at a time.", "Deal one card at a time."),
        ("The stock is dealt twice.", "The stock is dealt once.")]
    assert all(g.line > 0 for g in result.guesses)
    assert update_catalog(po_of(catalogs), template) is False


def test_previous_msgids_are_kept_by_default(catalogs, capsys):
    po_of(catalogs).write_text(WITH_PREVIOUS, encoding="utf-8")
    assert main(["update", "--catalogs", str(catalogs)]) == 0
    text = po_of(catalogs).read_text(encoding="utf-8")
    assert '#| msgid "Deal a card at a time."\nmsgid "Deal one card at a time."' in text
    assert '#| msgid "Deal one card at a time."\nmsgid "Deal three cards at a time."' in text


def test_no_previous_drops_the_previous_msgid_lines(catalogs, capsys):
    po_of(catalogs).write_text(WITH_PREVIOUS, encoding="utf-8")
    assert main(["update", "--catalogs", str(catalogs), "--no-previous"]) == 0
    text = po_of(catalogs).read_text(encoding="utf-8")
    assert "#|" not in text
    catalog = read_catalog(po_of(catalogs))
    assert catalog.get("Deal one card at a time.").fuzzy is True
    assert catalog.get("Deal three cards at a time.").fuzzy is True
    assert '#: C/deal.xml:4\nmsgid "Dealing"\nmsgstr "Geben"\n' in text  # an unchanged unit, as it was
    assert "(1 fuzzy guess to review)" in capsys.readouterr().out


def test_update_domain_merges_that_domains_template_into_its_catalogs(catalogs, capsys):
    po_of(catalogs).rename(po_of(catalogs, "aisleriot"))
    (catalogs / "help.pot").rename(catalogs / "aisleriot.pot")
    assert main(["update", "--catalogs", str(catalogs), "--domain", "aisleriot"]) == 0
    out, err = capsys.readouterr()
    assert (out.splitlines()[0], err) == (f"updated {po_of(catalogs, 'aisleriot')} (2 fuzzy guesses to review)", "")
    assert read_catalog(po_of(catalogs, "aisleriot")).get("Deal three cards at a time.") is not None


def test_update_warns_about_a_catalog_it_leaves_alone(catalogs, capsys):
    stray = catalogs / "de.po"
    stray.write_text(CATALOG, encoding="utf-8")
    assert main(["update", "--catalogs", str(catalogs)]) == 0
    out, err = capsys.readouterr()
    assert err == (f"patiencebook: warning: {stray}: not used: another catalog of 'de'; de/LC_MESSAGES/help.po "
                   "is the one used\n")
    assert out.startswith(f"updated {po_of(catalogs)}")
    assert stray.read_text(encoding="utf-8") == CATALOG


def test_strict_update_makes_a_warning_an_error_and_writes_nothing(catalogs, capsys):
    (catalogs / "LINGUAS").write_text("de\nel\n", encoding="utf-8")
    assert main(["update", "--catalogs", str(catalogs), "--strict"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"patiencebook: error: {catalogs / 'LINGUAS'}:2: 'el' is listed but has no catalog")
    assert po_of(catalogs).read_text(encoding="utf-8") == CATALOG


def test_update_leaves_a_catalog_linguas_does_not_list_as_it_is(catalogs, capsys):
    (catalogs / "LINGUAS").write_text("de\n", encoding="utf-8")
    el = catalogs / "el" / "el.po"
    el.parent.mkdir()
    el.write_text(CATALOG.replace("Language: de", "Language: el"), encoding="utf-8")
    before = el.read_bytes()
    assert main(["update", "--catalogs", str(catalogs)]) == 0
    out, err = capsys.readouterr()
    assert err == f"patiencebook: warning: {el}: not used: 'el' is not listed in {catalogs / 'LINGUAS'}\n"
    assert str(el) not in out and el.read_bytes() == before
