"""The TBX-Basic term glossary: round trip, TBX 2019 reading, inference and the ``glossary`` command."""

import shutil
from pathlib import Path

import pytest

from patiencebook.generator import cli
from patiencebook.generator.check.glossary import (Concept, GlossaryTerm, infer_glossary, read_tbx, source_terms,
                                                   write_tbx)
from patiencebook.generator.errors import CatalogError
from patiencebook.generator.docbook.sources import load_document

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "tests" / "data" / "check" / "terminology"


def test_tbx_round_trip_keeps_ids_definitions_order_and_status(tmp_path):
    concepts = [
        Concept("stock", (GlossaryTerm("en", "Stock"), GlossaryTerm("de", "Talon"),
                          GlossaryTerm("de", "Vorrat", "admitted"), GlossaryTerm("de", "Stock", "deprecated")),
                "Face-down cards dealt from later."),
        Concept("free-cell", (GlossaryTerm("en", "Free cell"), GlossaryTerm("sr", "Слободна ћелија"))),
    ]
    path = tmp_path / "de" / "glossary.tbx"
    write_tbx(path, concepts)
    assert read_tbx(path) == concepts
    text = path.read_text(encoding="utf-8")
    assert '<martif type="TBX-Basic" xml:lang="en">' in text
    assert "<termNote type=\"administrativeStatus\">admittedTerm-admn-sts</termNote>" in text
    assert concepts[0].preferred("de") == "Talon"


def test_write_refuses_to_replace_a_glossary_without_force(tmp_path):
    path = tmp_path / "glossary.tbx"
    path.write_text("mine", encoding="utf-8")
    with pytest.raises(CatalogError, match="exists already"):
        write_tbx(path, [])
    assert path.read_text(encoding="utf-8") == "mine"
    write_tbx(path, [], force=True)
    assert read_tbx(path) == []
    assert [p.name for p in tmp_path.iterdir()] == ["glossary.tbx"]


def test_tbx_2019_core_structure_is_read(tmp_path):
    path = tmp_path / "g.tbx"
    path.write_text(
        '<?xml version="1.0"?>\n<tbx xmlns="urn:iso:std:iso:30042:ed-2" type="TBX-Core" style="dca" '
        'xml:lang="en"><tbxHeader/><text><body><conceptEntry id="waste">'
        '<langSec xml:lang="en"><termSec><term>Waste</term></termSec></langSec>'
        '<langSec xml:lang="el"><termSec><term>Στοίβα απόρριψης</term></termSec></langSec>'
        '</conceptEntry></body></text></tbx>', encoding="utf-8")
    assert read_tbx(path) == [Concept("waste", (GlossaryTerm("en", "Waste"),
                                                GlossaryTerm("el", "Στοίβα απόρριψης")))]


def test_malformed_glossary_names_file_and_line(tmp_path):
    path = tmp_path / "g.tbx"
    path.write_text("<martif>\n<text>\n</martif>\n", encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        read_tbx(path)
    assert (caught.value.file, caught.value.line) == (str(path), 3)
    path.write_text("<html/>", encoding="utf-8")
    with pytest.raises(CatalogError, match="not <martif> or <tbx>"):
        read_tbx(path)


def test_terms_come_from_first_row_cells_then_definition_terms():
    document = load_document(REPO / "rules")
    labels = [label for _, label in source_terms(document)]
    assert labels[:4] == ["Type of Deck", "Stock", "Foundation", "Tableau"]
    assert {"Waste", "Reserve", "Free Cell", "Chooser"} <= set(labels[4:10])
    assert "Base card" in labels and "Redeal" in labels
    assert "Four piles." not in labels


def test_inferred_concepts_take_the_label_translations():
    document = load_document(DATA / "C")
    concepts = infer_glossary(document, {"de": {"Stock": "Talon", "Foundation": "Zielstapel (Fundament)"}})
    assert [(c.id, c.preferred("en"), c.preferred("de")) for c in concepts] == [
        ("stock", "Stock", "Talon"), ("foundation", "Foundation", "Zielstapel"), ("tableau", "Tableau", None)]


def test_glossary_command_writes_then_refuses_to_overwrite(tmp_path, capsys):
    catalogs = tmp_path / "locales"
    shutil.copytree(DATA / "locales", catalogs)
    argv = ["glossary", "--sources", str(DATA / "C"), "--catalogs", str(catalogs)]
    assert cli.main(argv) == 0
    path = catalogs / "de" / "glossary.tbx"
    assert [(c.id, c.preferred("de")) for c in read_tbx(path)] == [
        ("stock", "Talon"), ("foundation", "Zielstapel"), ("tableau", "Tableau")]
    path.write_text(path.read_text(encoding="utf-8").replace("Zielstapel", "Fundament"), encoding="utf-8")
    assert cli.main(argv + ["--lang", "de"]) == 1
    assert "glossary exists already" in capsys.readouterr().err
    assert read_tbx(path)[1].preferred("de") == "Fundament"
    assert cli.main(argv + ["--force"]) == 0
    assert read_tbx(path)[1].preferred("de") == "Zielstapel"


def test_project_glossaries_name_the_translators_terms():
    preferred = {lang: {c.id: c.preferred(lang) for c in read_tbx(REPO / "locales" / lang / "glossary.tbx")}
                 for lang in ("de", "el", "sr")}
    assert [preferred[lang]["foundation"] for lang in ("de", "el", "sr")] == ["Zielstapel", "Βάση", "Темељ"]
    assert preferred["sr"]["stock"] == "Талон"
