"""Fixtures shared by the tests of what a game page gets: the Hamilton rules and a stand-in for the
npm package ``pyodide``."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.generator.docbook.sources import load_document
from patiencebook.generator.pages.board import PYODIDE_FILES

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def hamilton():
    """The rules model of the embedded Hamilton page."""
    return load_document(ROOT / "rules").page("hamilton").rules


@pytest.fixture
def fake_pyodide(tmp_path):
    """A folder holding every file of :data:`PYODIDE_FILES`, each with a line of its own text."""
    folder = tmp_path / "npm" / "pyodide"
    folder.mkdir(parents=True)
    for name in PYODIDE_FILES:
        (folder / name).write_bytes(f"contents of {name}".encode())
    return folder
