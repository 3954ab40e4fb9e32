"""Writing findings: text grouped by page and severity, JSON, and the annotated catalog."""

import json
from pathlib import Path

from patiencebook.generator.catalogs import read_catalog
from patiencebook.generator.check import Finding, Span
from patiencebook.generator.check.report import annotate_catalog, format_json, format_text, summary

DATA = Path(__file__).resolve().parents[2] / "data" / "check"
CATALOG = DATA / "locales" / "de" / "LC_MESSAGES" / "help.po"

MARKUP = Finding("de", "beta.xml", 5, "See <_:xref-1/> for a harder game.", "markup", "error",
                 "the translation adds the event handler onclick= to <_:xref-1>", Span(4, 15, "<_:xref-1/>"),
                 Span(6, 35, '<_:xref-1 onclick="steal()"/>'), ("beta.xml",), 99)
SHARED = Finding("de", "alpha.xml", 29, "Move all cards to the foundations.", "untranslated", "warning",
                 "the msgstr is empty", pages=("alpha.xml", "beta.xml"), po_line=37)
STALE = Finding("de", "alpha.xml", 53, "Deal 8 cards to the waste.", "stale", "warning",
                "the English changed since this was translated: 16 became 8", pages=("alpha.xml",), po_line=84)
HEADER = Finding("de", "help.po", None, "", "gettext", "error", "the header's Plural-Forms is wrong",
                 pages=("help.po",), po_line=2)


def test_text_groups_by_page_then_severity():
    text = format_text([SHARED, STALE, MARKUP])
    assert text.split("\n") == [
        "alpha.xml",
        "  warning",
        "    alpha.xml:29 de [untranslated] the msgstr is empty (po line 37)",
        "        msgid: 'Move all cards to the foundations.'",
        "        also on: beta.xml",
        "    alpha.xml:53 de [stale] the English changed since this was translated: 16 became 8 (po line 84)",
        "        msgid: 'Deal 8 cards to the waste.'",
        "beta.xml",
        "  error",
        "    beta.xml:5 de [markup] the translation adds the event handler onclick= to <_:xref-1> (po line 99)",
        "        msgid: 'See <_:xref-1/> for a harder game.'",
        "        English: '<_:xref-1/>' at 4",
        "        translation: '<_:xref-1 onclick=\"steal()\"/>' at 6",
        "3 findings: 1 error, 2 warnings, 0 info",
        "",
    ]
    assert format_text([]) == "no findings\n"
    assert summary([HEADER]) == "1 finding: 1 error, 0 warnings, 0 info"


def test_json_is_a_list_of_to_dict():
    data = json.loads(format_json([MARKUP, SHARED]))
    assert data == [MARKUP.to_dict(), SHARED.to_dict()]
    assert data[1]["pages"] == ["alpha.xml", "beta.xml"]
    assert set(data[0]) == {"lang", "file", "line", "msgid", "check", "severity", "message", "source",
                            "translation", "pages", "po_line", "confidence"}


def test_text_orders_each_severity_by_confidence_and_shows_it():
    weak = Finding("de", "alpha.xml", 10, "Build down.", "direction", "warning",
                   "the source says down; the translation does not", po_line=20, confidence=0.55)
    strong = Finding("de", "alpha.xml", 40, "No redeals.", "negation", "warning",
                     "the source states a negation ('No'); the translation does not", po_line=60, confidence=0.65)
    lines = format_text([weak, strong]).split("\n")
    assert lines[2].startswith("    alpha.xml:40 de [negation 0.65] ")
    assert lines[4].startswith("    alpha.xml:10 de [direction 0.55] ")


def test_annotated_catalog_has_one_comment_per_finding_on_its_unit_and_keeps_the_rest(tmp_path):
    original = CATALOG.read_text(encoding="utf-8")
    text = annotate_catalog(CATALOG, [MARKUP, SHARED, STALE, HEADER]).decode("utf-8")
    added = [line for line in text.split("\n") if line not in original.split("\n")]
    assert added == [
        "# check: gettext: the header's Plural-Forms is wrong",
        "# check: untranslated: the msgstr is empty",
        "# check: stale: the English changed since this was translated: 16 became 8",
        "# check: markup: the translation adds the event handler onclick= to <_:xref-1>",
    ]
    # Dropping the added lines gives back the catalog byte for byte.
    assert "\n".join(line for line in text.split("\n") if line not in added) == original
    # The stale finding sits on the old unit (po line 84), the markup one on its own unit.
    (tmp_path / "de.po").write_text(text, encoding="utf-8")
    catalog = read_catalog(tmp_path / "de.po")
    assert catalog.get("Deal 16 cards to the waste.").user_comments == [
        "check: stale: the English changed since this was translated: 16 became 8"]
    assert catalog.get("See <_:xref-1/> for a harder game.").user_comments == [
        "check: markup: the translation adds the event handler onclick= to <_:xref-1>"]


def test_annotating_again_replaces_old_finding_comments_and_keeps_skip_comments(tmp_path):
    once = annotate_catalog(CATALOG, [MARKUP, SHARED])
    path = tmp_path / "de.po"
    path.write_bytes(once)
    twice = annotate_catalog(path, [MARKUP, SHARED]).decode("utf-8")
    assert twice == once.decode("utf-8")
    assert "# check: skip=markup the emphasis is wanted here" in twice
    assert annotate_catalog(path, []) == CATALOG.read_bytes()
