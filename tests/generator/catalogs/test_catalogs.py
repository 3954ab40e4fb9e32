"""Catalog reading (strict, with file:line errors), finding both layouts, and small-diff merges."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from patiencebook.generator.catalogs import find_catalogs, read_catalog, update_catalog, update_catalogs
from patiencebook.generator.errors import CatalogError

PO = Path(__file__).resolve().parents[2] / "data" / "po"


def test_read_catalog_gives_units_and_fuzzy_state():
    catalog = read_catalog(PO / "de.po")
    assert catalog.get("Getting Started").string == "Erste Schritte"
    assert catalog.get("Rules of a few patience games, edition 2.5.").fuzzy is True
    assert catalog.get("translator-credits", context="_").string.startswith("Test Translator")


def test_unterminated_string_is_a_catalog_error_at_its_line():
    with pytest.raises(CatalogError) as caught:
        read_catalog(PO / "syntax-error.po")
    assert (caught.value.file, caught.value.line) == (str(PO / "syntax-error.po"), 11)
    assert caught.value.message == "msgstr needs one quoted string"


def test_missing_msgstr_is_a_catalog_error_at_the_msgid():
    with pytest.raises(CatalogError) as caught:
        read_catalog(PO / "missing-msgstr.po")
    assert caught.value.line == 5
    assert "missing msgstr for msgid 'Stock'" in caught.value.message


def test_unknown_charset_is_a_catalog_error_at_the_header_line():
    with pytest.raises(CatalogError) as caught:
        read_catalog(PO / "bad-charset.po")
    assert (caught.value.line, caught.value.message) == (3, "unknown charset 'KLINGON-8' in the header")


def test_a_nul_byte_in_the_charset_is_a_catalog_error(tmp_path):
    path = tmp_path / "nul.po"
    path.write_bytes(b'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=\x00utf-8\\n"\n')
    with pytest.raises(CatalogError) as caught:
        read_catalog(path)
    assert (caught.value.line, caught.value.message) == (3, "unknown charset '\\x00utf-8' in the header")


def test_a_msgid_defined_twice_is_a_catalog_error_at_the_second(tmp_path):
    path = tmp_path / "twice.po"
    path.write_text('msgid ""\nmsgstr ""\n\nmsgctxt "a"\nmsgid "Stock"\nmsgstr "Talon"\n\n'
                    'msgid "Stock"\nmsgstr "Talon"\n\nmsgctxt "a"\nmsgid ""\n"Stock"\nmsgstr "Vorrat"\n',
                    encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        read_catalog(path)
    assert (caught.value.line, caught.value.message) == (12, "msgid 'Stock' is defined twice (first at line 5)")


def test_line_not_in_declared_charset_is_a_catalog_error_at_that_line():
    with pytest.raises(CatalogError) as caught:
        read_catalog(PO / "bad-encoding.po")
    assert caught.value.line == 9
    assert caught.value.message.startswith("line is not valid UTF-8: byte 0xe9")


def test_unknown_keyword_is_a_catalog_error(tmp_path):
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr ""\n\nmsgid "a"\nmsgtsr "b"\n', encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        read_catalog(po)
    assert (caught.value.line, caught.value.message) == (5, "unknown keyword 'msgtsr'")


def test_find_catalogs_accepts_both_layouts(tmp_path):
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "de" / "LC_MESSAGES" / "help.po").write_text("")
    (tmp_path / "el").mkdir()
    (tmp_path / "el" / "el.po").write_text("")
    (tmp_path / "sr@latin" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "sr@latin" / "LC_MESSAGES" / "help.po").write_text("")
    (tmp_path / "C").mkdir()
    (tmp_path / "C" / "index.docbook").write_text("")
    (tmp_path / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "fr" / "LC_MESSAGES" / "other.po").write_text("")
    assert find_catalogs(tmp_path, "help") == {
        "de": tmp_path / "de" / "LC_MESSAGES" / "help.po",
        "el": tmp_path / "el" / "el.po",
        "sr@latin": tmp_path / "sr@latin" / "LC_MESSAGES" / "help.po"}


@pytest.fixture
def po_copy(tmp_path):
    target = tmp_path / "de" / "LC_MESSAGES" / "help.po"
    target.parent.mkdir(parents=True)
    shutil.copy(PO / "update-base.po", target)
    return target


def test_update_with_same_units_does_not_rewrite_the_file(po_copy):
    before = po_copy.read_bytes()
    mtime = po_copy.stat().st_mtime_ns
    assert update_catalog(po_copy, read_catalog(PO / "update-same.pot")) is False
    assert po_copy.read_bytes() == before
    assert po_copy.stat().st_mtime_ns == mtime


def test_update_marks_changed_msgid_fuzzy_with_previous_and_obsoletes_vanished(po_copy):
    assert update_catalog(po_copy, read_catalog(PO / "update-changed.pot")) is True
    catalog = read_catalog(po_copy)
    moved = catalog.get("Move all cards to the foundations, building up in suit from the ace to "
                        "the queen.")
    assert moved.fuzzy is True
    assert moved.string.endswith("vom Ass bis zum König.")
    assert moved.previous_id == ["Move all cards to the foundations, building up in suit from the "
                                 "ace to the king."]
    new = catalog.get("An empty fan can be filled only by a king.")
    assert (new.string, new.fuzzy) == ("", False)
    assert [m.id for m in catalog.obsolete.values()] == ["Redeals are not allowed."]
    text = po_copy.read_text(encoding="utf-8")
    assert '#~ msgid "Redeals are not allowed."\n#~ msgstr "Neuverteilen ist nicht erlaubt."\n' in text
    assert '"POT-Creation-Date: 2026-06-01 12:00+0000\\n"' in text


def test_update_copies_unchanged_units_and_header_byte_for_byte(po_copy):
    original = po_copy.read_text(encoding="utf-8")
    update_catalog(po_copy, read_catalog(PO / "update-changed.pot"))
    text = po_copy.read_text(encoding="utf-8")
    unchanged = original.split("\n\n")[1]  # the "Fan Game" unit
    assert unchanged in text.split("\n\n")
    header = original.split("\n\n")[0].replace("2026-01-01 00:00+0000", "2026-06-01 12:00+0000")
    assert text.split("\n\n")[0] == header
    assert "X-Generator: Hand" in header


def test_updated_catalog_is_accepted_by_msgfmt(po_copy):
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        pytest.skip("GNU gettext's msgfmt is not installed")
    update_catalog(po_copy, read_catalog(PO / "update-changed.pot"))
    result = subprocess.run([msgfmt, "-c", "-o", "/dev/null", str(po_copy)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_update_catalogs_reports_each_language(tmp_path, po_copy):
    catalogs = po_copy.parents[2]
    (catalogs / "el").mkdir()
    shutil.copy(PO / "update-base.po", catalogs / "el" / "el.po")
    result = update_catalogs(PO / "update-changed.pot", catalogs, "help")
    assert result == {po_copy: True, catalogs / "el" / "el.po": True}
    assert update_catalogs(PO / "update-changed.pot", catalogs, "help") == {
        po_copy: False, catalogs / "el" / "el.po": False}


def test_detect_width_finds_gettext_width_or_no_wrapping():
    from patiencebook.generator.catalogs import detect_width

    wrapped = "".join(f'msgid ""\n"{"x" * 70} "\n"{"y" * 10}"\nmsgstr ""\n\n' for _ in range(30))
    assert detect_width(wrapped) == 73
    unwrapped = f'msgid "{"z" * 300}"\nmsgstr ""\n'
    assert detect_width(unwrapped) == 0
    assert detect_width('msgid "a"\nmsgstr "b"\n') == 79


def test_fuzzy_unit_keeps_its_previous_msgid_across_updates(po_copy):
    update_catalog(po_copy, read_catalog(PO / "update-changed.pot"))
    assert update_catalog(po_copy, read_catalog(PO / "update-changed.pot")) is False
    text = po_copy.read_text(encoding="utf-8")
    assert '#| msgid ""\n#| "Move all cards to the foundations, building up in suit from the ace' in text
