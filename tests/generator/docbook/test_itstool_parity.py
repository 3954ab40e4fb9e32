"""Parity with Debian's itstool on the real AisleRiot help: same POT units, same merged blocks.

Reads the AisleRiot corpus from ``../shared/corpus/aisleriot/help`` next to the repository (skipped
with a message when absent). itstool and msgfmt are required: a missing tool is a failure, not a skip.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from lxml import etree

from patiencebook.generator.catalogs import read_catalog
from patiencebook.generator.catalogs.pot import pot_catalog
from patiencebook.generator.docbook.document import NS_BUILD, XML_LANG
from patiencebook.generator.docbook.sources import load_document, parse_xml
from patiencebook.generator.catalogs.translate import translate

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO.parent / "shared" / "corpus" / "aisleriot" / "help"
FIXTURE = REPO / "tests" / "data" / "docbook" / "book"
LANGUAGES = ("de", "el", "sr")


def _require_corpus() -> Path:
    if not (CORPUS / "C" / "index.docbook").is_file():
        pytest.skip(f"AisleRiot corpus not found at {CORPUS} (expected ../shared/corpus next to the repository)")
    return CORPUS


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"'{name}' is required for the itstool parity tests and was not found on PATH "
                    "(Debian packages: itstool, gettext)")
    return path


def _run(args: list[str], cwd: Path) -> None:
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(args)} failed in {cwd}: {result.stderr.strip()}")


def _itstool_files(source_dir: Path, prefix: str = "") -> list[str]:
    """The book file, then every other XML file sorted, as GNOME's build passes them to itstool."""
    pages = sorted(p.name for p in source_dir.glob("*.xml"))
    return [f"{prefix}index.docbook"] + [f"{prefix}{name}" for name in pages]


def _itstool_pot(source_dir: Path, out: Path) -> list:
    """Run ``itstool -o`` from the parent of ``source_dir`` and return its units (Babel messages)."""
    _run([_tool("itstool"), "-o", str(out), *_itstool_files(source_dir, f"{source_dir.name}/")],
         cwd=source_dir.parent)
    with out.open("rb") as handle:
        return [m for m in read_po(handle) if m.id]


@pytest.fixture(scope="module")
def corpus_document():
    return load_document(_require_corpus() / "C")


@pytest.fixture(scope="module")
def corpus_itstool_units(tmp_path_factory):
    _require_corpus()
    return _itstool_pot(CORPUS / "C", tmp_path_factory.mktemp("pot") / "help.pot")


@pytest.mark.corpus
def test_pot_has_the_same_units_as_itstool(corpus_document, corpus_itstool_units):
    ours = {(m.context, m.id) for m in pot_catalog(corpus_document) if m.id}
    theirs = {(m.context, m.id) for m in corpus_itstool_units}
    print(f"itstool parity: {len(ours)} units ours, {len(theirs)} itstool's")
    assert sorted(ours - theirs, key=str) == []
    assert sorted(theirs - ours, key=str) == []
    assert len(ours) == 930


@pytest.mark.corpus
def test_pot_units_have_itstool_order_references_and_paths(corpus_document, corpus_itstool_units):
    ours = [m for m in pot_catalog(corpus_document) if m.id]
    assert [(m.context, m.id) for m in ours] == [(m.context, m.id) for m in corpus_itstool_units]
    for mine, theirs in zip(ours, corpus_itstool_units):
        assert mine.locations == theirs.locations, mine.id
        assert [c for c in mine.auto_comments if c.startswith("(itstool)")] == [
            c for c in theirs.auto_comments if c.startswith("(itstool)")], mine.id


def test_fixture_pot_has_the_same_units_in_the_same_order_as_itstool(tmp_path):
    document = load_document(FIXTURE)
    ours = [m for m in pot_catalog(document) if m.id]
    theirs = _itstool_pot(FIXTURE, tmp_path / "fixture.pot")
    assert [(m.context, m.id) for m in ours] == [(m.context, m.id) for m in theirs]
    assert [m.locations for m in ours] == [m.locations for m in theirs]
    assert [m.flags for m in ours] == [m.flags for m in theirs]


def _canonical(element: etree._Element) -> str:
    """Content of a block (text and inline markup), whitespace collapsed, build and language marks dropped."""
    out: list[str] = []

    def text(value: str | None) -> None:
        if value:
            out.append(value.replace("&", "&amp;").replace("<", "&lt;"))

    def walk(node) -> None:
        if isinstance(node, etree._Comment):
            out.append(f"<!--{node.text}-->")
            return
        if not isinstance(node.tag, str):
            return
        attrs = sorted((k, v) for k, v in node.attrib.items()
                       if not k.startswith(f"{{{NS_BUILD}}}") and k not in (XML_LANG, "lang"))
        out.append(f"<{node.tag}{''.join(f' {k}={v!r}' for k, v in attrs)}>")
        text(node.text)
        for child in node:
            walk(child)
            text(child.tail)
        out.append(f"</{node.tag}>")

    text(element.text)
    for child in element:
        walk(child)
        text(child.tail)
    return " ".join("".join(out).split())


def _index_path(element: etree._Element, root: etree._Element) -> list[int]:
    path = []
    while element is not root:
        parent = element.getparent()
        path.append(parent.index(element))
        element = parent
    return path[::-1]


def _follow(root: etree._Element, path: list[int]) -> etree._Element:
    for index in path:
        root = root[index]
    return root


def _itstool_quirk(segment, blocks: set) -> bool:
    """A nested block that has its own unit and child elements: itstool 2.0.6 leaves it in English."""
    return any(holder in blocks and any(isinstance(c.tag, str) for c in holder)
               for holder in segment.placeholders)


@pytest.mark.corpus
@pytest.mark.parametrize("lang", LANGUAGES)
def test_translated_blocks_equal_itstool_merge(corpus_document, lang, tmp_path):
    """Every top-level block of our translate() equals the block itstool -m writes for it.

    The shipped catalog is compiled by msgfmt (fuzzy units left out, as GNOME installs them);
    blocks are aligned by their position in each source file, which merging does not change.
    """
    po = CORPUS / lang / f"{lang}.po"
    mo = tmp_path / f"{lang}.mo"
    out = tmp_path / lang
    out.mkdir()
    _run([_tool("msgfmt"), "-o", str(mo), str(po)], cwd=tmp_path)
    _run([_tool("itstool"), "-m", str(mo), "-o", str(out), *_itstool_files(CORPUS / "C")], cwd=CORPUS / "C")

    document = corpus_document
    translated = translate(document, read_catalog(po), lang)
    file_roots = {f.path: f.root for f in document.files}
    blocks = {s.element for s in document.segments if s.element is not None}
    itstool_trees: dict[str, etree._Element] = {}
    compared = differing = changed = skipped = 0
    failures = []
    for page in translated.pages + [translated.front]:
        own = {s.element for s in page.page.segments}
        for segment in page.page.segments:
            if any(ancestor in own for ancestor in segment.element.iterancestors()):
                continue  # compared as part of its enclosing block
            if any(_itstool_quirk(s, blocks) for s in page.page.segments
                   if s.element is segment.element or segment.element in s.element.iterancestors()):
                skipped += 1
                continue
            name = segment.file.name
            if name not in itstool_trees:
                itstool_trees[name] = parse_xml(out / name).getroot()
            ours = _follow(page.root, _index_path(segment.element, page.page.root))
            theirs = _follow(itstool_trees[name], _index_path(segment.element, file_roots[segment.file]))
            compared += 1
            english = _canonical(segment.element)
            if _canonical(theirs) != english:
                changed += 1
            if _canonical(ours) != _canonical(theirs):
                differing += 1
                if len(failures) < 5:
                    failures.append(f"{name}:{segment.line} {segment.path}\n  ours:    {_canonical(ours)[:200]}"
                                    f"\n  itstool: {_canonical(theirs)[:200]}")
    print(f"itstool parity {lang}: {compared} blocks compared, {changed} translated by itstool, "
          f"{differing} differ, {skipped} skipped (itstool keeps nested blocks with markup English)")
    assert failures == []
    assert differing == 0
    assert compared > 2000
    assert changed > compared // 2  # the comparison is not English against English
