"""The command line: one clean ``file:line: message`` per user error, exit status 1, nothing half-written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from patiencebook.generator.cli import main

BOOK = """<?xml version="1.0" encoding="utf-8"?>
<book id="index" lang="en" xmlns:xi="http://www.w3.org/2003/XInclude">
  <bookinfo><title>Tiny Book</title></bookinfo>
  <chapter id="games"><title>The Games</title>
    <xi:include href="tiny.xml"/>
  </chapter>
</book>
"""

PAGE = """<?xml version="1.0" encoding="utf-8"?>
<sect1 id="tiny">
  <title>Tiny</title>
  <sect2 id="tiny-goal"><title>Goal</title>
    <para>Move every card to the foundations.</para>
  </sect2>
</sect1>
"""

CATALOG = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Language: de\\n"

msgid "Tiny"
msgstr "Winzig"
"""


def make_tree(root: Path, page: str = PAGE) -> tuple[Path, Path]:
    sources = root / "src"
    sources.mkdir()
    (sources / "index.docbook").write_text(BOOK, encoding="utf-8")
    (sources / "tiny.xml").write_text(page, encoding="utf-8")
    catalogs = root / "po"
    (catalogs / "de" / "LC_MESSAGES").mkdir(parents=True)
    (catalogs / "de" / "LC_MESSAGES" / "help.po").write_text(CATALOG, encoding="utf-8")
    return sources, catalogs


def error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    return err


def test_malformed_xml_reports_file_and_line(tmp_path, capsys):
    broken = PAGE.replace("<para>Move every card to the foundations.</para>",
                          "<para>Move every card <emphasis>to the foundations.</para>")
    sources, catalogs = make_tree(tmp_path, broken)
    status = main(["build", "--sources", str(sources), "--catalogs", str(catalogs),
                   "--out", str(tmp_path / "site")])
    assert status == 1
    err = error_line(capsys)
    assert err.startswith("patiencebook: error: ")
    assert "tiny.xml:5:" in err
    assert not (tmp_path / "site").exists()


def test_external_entity_is_refused_with_file_and_line(tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    hostile = PAGE.replace('<?xml version="1.0" encoding="utf-8"?>\n',
                           '<?xml version="1.0" encoding="utf-8"?>\n'
                           f'<!DOCTYPE sect1 [<!ENTITY leak SYSTEM "file://{secret}">]>\n'
                           ).replace("Move every card", "&leak; Move every card")
    sources, catalogs = make_tree(tmp_path, hostile)
    status = main(["extract", "--sources", str(sources), "--pot", str(tmp_path / "x.pot")])
    assert status == 1
    err = error_line(capsys)
    assert "tiny.xml:" in err
    assert "entity" in err.lower()
    assert not (tmp_path / "x.pot").exists()


def test_po_syntax_error_reports_catalog_file_and_line(tmp_path, capsys):
    sources, catalogs = make_tree(tmp_path)
    po = catalogs / "de" / "LC_MESSAGES" / "help.po"
    po.write_text(CATALOG + '\nmsgid "Goal"\nmsgstr "Ziel\n', encoding="utf-8")
    status = main(["build", "--sources", str(sources), "--catalogs", str(catalogs),
                   "--lang", "de", "--out", str(tmp_path / "site")])
    assert status == 1
    err = error_line(capsys)
    assert f"{po}:" in err
    line = int(err.split(f"{po}:")[1].split(":")[0])
    assert line in (9, 10)


def test_unknown_language_is_named(tmp_path, capsys):
    sources, catalogs = make_tree(tmp_path)
    status = main(["build", "--sources", str(sources), "--catalogs", str(catalogs),
                   "--lang", "xx", "--out", str(tmp_path / "site")])
    assert status == 1
    err = error_line(capsys)
    assert "xx" in err


def test_failed_build_leaves_previous_site_intact(tmp_path, capsys):
    sources, catalogs = make_tree(tmp_path)
    site = tmp_path / "site"
    assert main(["build", "--sources", str(sources), "--catalogs", str(catalogs),
                 "--lang", "en", "--lang", "de", "--out", str(site)]) == 0
    before = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert Path("de/tiny.html") in before
    (sources / "tiny.xml").write_text(PAGE.replace("</sect1>", ""), encoding="utf-8")
    assert main(["build", "--sources", str(sources), "--catalogs", str(catalogs),
                 "--lang", "en", "--lang", "de", "--out", str(site)]) == 1
    after = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["po", "site", "src"]


def test_extract_then_update_round_trip(tmp_path, capsys):
    sources, catalogs = make_tree(tmp_path)
    pot = catalogs / "help.pot"
    assert main(["extract", "--sources", str(sources), "--pot", str(pot)]) == 0
    text = pot.read_text(encoding="utf-8")
    assert 'msgid "Move every card to the foundations."' in text
    assert "#. (itstool) path: sect2/para" in text or "#. (itstool) path: " in text
    assert main(["update", "--catalogs", str(catalogs), "--pot", str(pot)]) == 0
    po = (catalogs / "de" / "LC_MESSAGES" / "help.po").read_text(encoding="utf-8")
    assert 'msgid "Move every card to the foundations."' in po
    assert 'msgstr "Winzig"' in po
