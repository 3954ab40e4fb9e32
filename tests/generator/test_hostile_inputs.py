"""Broken and hostile sources and catalogs (tests/data/hostile/, outcomes in expected.json): each is
refused with one line naming the file, the line and what is wrong, or built safely; never a
traceback, and the site built before stays as it was."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

from patiencebook.generator.catalogs import MAX_CATALOG_BYTES
from patiencebook.generator.cli import main
from patiencebook.generator.docbook.sources import MAX_SOURCE_BYTES

DATA = Path(__file__).resolve().parents[1] / "data"
HOSTILE = DATA / "hostile"
EXPECTED = json.loads((HOSTILE / "expected.json").read_text(encoding="utf-8"))
SITE = DATA / "site"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "hostile-input.md"


def _pages(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".patiencebook-cache" not in p.relative_to(folder).parts}


@pytest.fixture(scope="module")
def previous(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    """A good site, built before each hostile build into the same folder."""
    out = tmp_path_factory.mktemp("hostile") / "site"
    assert main(["build", "--sources", str(SITE / "C"), "--catalogs", str(SITE / "locales"), "--out", str(out),
                 "--lang", "en", "--lang", "de", "--progress", "none"]) == 0
    return out, _pages(out)


def _run(argv: list[str], capsys) -> tuple[int, str, str]:
    status = main(argv + ["--progress", "none"])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _assert_refused(status: int, err: str, file: Path, line: int, message: str) -> None:
    assert status == 1
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"patiencebook: error: {file}:{line}: {message}"), lines[0]


@pytest.mark.parametrize("case", sorted(EXPECTED["sources"]))
def test_hostile_source(case, previous, tmp_path, capsys):
    out, before = previous
    expected = EXPECTED["sources"][case]
    folder = HOSTILE / "sources" / case
    if "refused" in expected:
        status, _, err = _run(["build", "--sources", str(folder), "--out", str(out), "--lang", "en"], capsys)
        line, message = expected["refused"]
        _assert_refused(status, err, folder / expected.get("file", "index.docbook"), line, message)
        assert _pages(out) == before
    else:
        target = tmp_path / "site"
        status, _, err = _run(["build", "--sources", str(folder), "--out", str(target), "--lang", "en"], capsys)
        assert status == 0 and "Traceback" not in err
        assert expected["built"] in (target / "en" / "c.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", sorted(EXPECTED["catalogs"]))
def test_hostile_catalog(case, previous, tmp_path, capsys):
    out, before = previous
    expected = EXPECTED["catalogs"][case]
    catalogs = tmp_path / "locales"
    po = catalogs / "de" / "LC_MESSAGES" / "help.po"
    po.parent.mkdir(parents=True)
    shutil.copyfile(HOSTILE / "catalogs" / f"{case}.po", po)
    argv = ["build", "--sources", str(SITE / "C"), "--catalogs", str(catalogs), "--lang", "de"]
    if "refused" in expected:
        status, _, err = _run(argv + ["--out", str(out)], capsys)
        line, message = expected["refused"]
        _assert_refused(status, err, po, line, message)
        assert _pages(out) == before
    else:
        target = tmp_path / "site"
        status, _, err = _run(argv + ["--out", str(target)], capsys)
        assert status == 0 and "Traceback" not in err
        assert expected["built"] in (target / "de" / "intro.html").read_text(encoding="utf-8")
        if "warning" in expected:
            line, message = expected["warning"]
            assert f"de: {po}:{line}: {message}" in err


def test_an_oversized_source_is_refused_before_it_is_read(tmp_path, capsys):
    folder = tmp_path / "src"
    folder.mkdir()
    with open(folder / "index.docbook", "wb") as handle:
        handle.truncate(MAX_SOURCE_BYTES + 1)  # sparse: no disk space used
    status, _, err = _run(["build", "--sources", str(folder), "--out", str(tmp_path / "out"), "--lang", "en"], capsys)
    assert status == 1
    assert err.strip() == f"patiencebook: error: {folder / 'index.docbook'}: file is larger than 16 MiB, the most a file may be"
    assert not (tmp_path / "out").exists()


def test_an_oversized_catalog_is_refused_before_it_is_read(tmp_path, capsys):
    po = tmp_path / "locales" / "de" / "LC_MESSAGES" / "help.po"
    po.parent.mkdir(parents=True)
    with open(po, "wb") as handle:
        handle.truncate(MAX_CATALOG_BYTES + 1)
    status, _, err = _run(["build", "--sources", str(SITE / "C"), "--catalogs", str(tmp_path / "locales"),
                           "--out", str(tmp_path / "out"), "--lang", "de"], capsys)
    assert status == 1 and f"patiencebook: error: {po}: file is larger than 32 MiB" in err


def test_an_xinclude_of_a_link_that_leads_out_of_the_sources_is_refused(tmp_path, capsys):
    folder = tmp_path / "src"
    shutil.copytree(SITE / "C", folder)
    outside = tmp_path / "secret.xml"
    outside.write_text('<?xml version="1.0"?><sect1 id="secret"><title>Secret</title></sect1>', encoding="utf-8")
    os.symlink(outside, folder / "sultan.xml.link")
    book = folder / "index.docbook"
    text = book.read_text(encoding="utf-8")
    book.write_text(re.sub(r'href="sultan\.xml"', 'href="sultan.xml.link"', text), encoding="utf-8")
    line = next(n for n, l in enumerate(book.read_text(encoding="utf-8").splitlines(), 1) if "sultan.xml.link" in l)
    status, _, err = _run(["build", "--sources", str(folder), "--out", str(tmp_path / "out"), "--lang", "en"], capsys)
    _assert_refused(status, err, book, line, "XInclude of 'sultan.xml.link' points outside the source folder")


def test_the_docs_table_lists_every_hostile_file():
    table = DOCS.read_text(encoding="utf-8")
    for kind in ("sources", "catalogs"):
        for case in EXPECTED[kind]:
            assert f"`{kind}/{case}`" in table, f"{kind}/{case} is missing from {DOCS.name}"
