"""POT writing: itstool's header and comments, GNOME-style references, merged units, atomic writes."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from patiencebook.generator.catalogs import pot as extract
from patiencebook.generator.errors import CatalogError
from patiencebook.generator.catalogs.pot import pot_catalog, write_pot
from patiencebook.generator.docbook.sources import load_document

BOOK = Path(__file__).resolve().parents[2] / "data" / "docbook" / "book"
WHEN = datetime.datetime(2026, 5, 4, 3, 2, tzinfo=datetime.timezone.utc)


@pytest.fixture(scope="module")
def document():
    return load_document(BOOK)


def test_pot_header_has_itstool_fields_only(document, tmp_path):
    pot = tmp_path / "help.pot"
    write_pot(document, pot, creation_date=WHEN)
    head = pot.read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert head == "\n".join([
        'msgid ""', 'msgstr ""',
        '"Project-Id-Version: PACKAGE VERSION\\n"',
        '"POT-Creation-Date: 2026-05-04 03:02+0000\\n"',
        '"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"',
        '"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"',
        '"Language-Team: LANGUAGE <LL@li.org>\\n"',
        '"MIME-Version: 1.0\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"'])


def test_translator_credits_unit_comes_first(document, tmp_path):
    pot = tmp_path / "help.pot"
    write_pot(document, pot, creation_date=WHEN)
    units = pot.read_text(encoding="utf-8").split("\n\n")
    assert units[1] == ("#. One line per translator: NAME <EMAIL>, YEAR1, YEAR2\n"
                        'msgctxt "_"\nmsgid "translator-credits"\nmsgstr ""')


def test_unit_has_itstool_path_comment_and_reference_relative_to_source_parent(document, tmp_path):
    pot = tmp_path / "help.pot"
    write_pot(document, pot, creation_date=WHEN)
    text = pot.read_text(encoding="utf-8")
    assert ("#. (itstool) path: sect2/para\n#: book/fan_game.xml:24\n"
            "msgid \"Build down in suit on the <_:emphasis-1/>. Only the top card of a fan moves.\"\n"
            "msgstr \"\"\n") in text


def test_identical_msgids_share_one_unit_with_all_references_and_paths(tmp_path):
    (tmp_path / "C").mkdir()
    (tmp_path / "C" / "index.docbook").write_text(
        '<book xmlns:xi="http://www.w3.org/2001/XInclude">\n<chapter id="a">\n<title>Rules</title>\n'
        '<para>Rules</para>\n</chapter>\n<xi:include href="g.xml"/>\n</book>\n')
    (tmp_path / "C" / "g.xml").write_text("<sect1>\n<title>Rules</title>\n</sect1>\n")
    catalog = pot_catalog(load_document(tmp_path / "C"), creation_date=WHEN)
    unit = catalog.get("Rules")
    assert unit.locations == [("C/index.docbook", 3), ("C/index.docbook", 4), ("C/g.xml", 2)]
    assert unit.auto_comments == ["(itstool) path: chapter/title", "(itstool) path: chapter/para",
                                  "(itstool) path: sect1/title"]
    assert len([m for m in catalog if m.id]) == 1


def test_verbatim_unit_is_no_wrap(document):
    unit = pot_catalog(document, creation_date=WHEN).get("deal 7\n  move  a1 b2")
    assert unit.flags == {"no-wrap"}


def test_percent_in_text_is_not_flagged_python_format(tmp_path):
    (tmp_path / "index.docbook").write_text("<book><chapter><para>Win 50% of deals</para></chapter></book>")
    unit = pot_catalog(load_document(tmp_path), creation_date=WHEN).get("Win 50% of deals")
    assert unit.flags == set()


def test_written_pot_reads_back_with_every_unit(document, tmp_path):
    pot = tmp_path / "help.pot"
    write_pot(document, pot, creation_date=WHEN)
    with pot.open("rb") as handle:
        catalog = read_po(handle)
    assert {(m.context, m.id) for m in catalog if m.id} == {(s.msgctxt, s.msgid) for s in document.segments}


def test_pot_is_not_rewritten_when_only_the_date_would_change(document, tmp_path):
    pot = tmp_path / "help.pot"
    assert write_pot(document, pot, creation_date=WHEN) is True
    before = pot.read_bytes()
    later = WHEN + datetime.timedelta(days=3)
    assert write_pot(document, pot, creation_date=later) is False
    assert pot.read_bytes() == before


def test_failed_write_keeps_old_file_and_leaves_no_temporary(document, tmp_path, monkeypatch):
    pot = tmp_path / "help.pot"
    pot.write_bytes(b"old contents\n")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(extract.os, "replace", refuse)
    with pytest.raises(CatalogError) as caught:
        write_pot(document, pot, creation_date=WHEN)
    assert caught.value.file == str(pot)
    assert "Permission denied" in caught.value.message
    assert pot.read_bytes() == b"old contents\n"
    assert os.listdir(tmp_path) == ["help.pot"]
