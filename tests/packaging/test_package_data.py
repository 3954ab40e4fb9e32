"""What the package carries and where it looks for it (fast; tests/packaging/test_install.py
installs the real thing)."""

from __future__ import annotations

import json
from pathlib import Path

from patiencebook.generator import project
from patiencebook.generator.pages import board

REPO = Path(__file__).resolve().parents[2]


def test_the_pyodide_version_is_the_one_npm_installs():
    lock = json.loads((REPO / "package-lock.json").read_text(encoding="utf-8"))
    assert lock["packages"]["node_modules/pyodide"]["version"] == board.PYODIDE_VERSION
    assert f"npm install pyodide@{board.PYODIDE_VERSION}" in board.pyodide_missing()
    assert board.PYODIDE_ENV in board.pyodide_missing()


def test_pyodide_is_also_looked_for_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.delenv(board.PYODIDE_ENV, raising=False)
    monkeypatch.setattr(project, "PROJECT_DIR", tmp_path / "nowhere")
    monkeypatch.chdir(tmp_path)
    assert board.find_pyodide() is None
    folder = tmp_path / "node_modules" / "pyodide"
    folder.mkdir(parents=True)
    for name in board.PYODIDE_FILES:
        (folder / name).write_text("", encoding="utf-8")
    assert board.find_pyodide() == folder


def test_the_embedded_folders_sit_beside_the_generator_as_they_will_in_the_package():
    # setup.py maps rules/ and locales/ to patiencebook/rules and patiencebook/locales, beside
    # patiencebook/generator: the same place relative to the code as in this checkout.
    assert project.default_sources() == project.PROJECT_DIR / "rules"
    assert (project.default_sources() / "index.docbook").is_file()
    assert (project.default_catalogs() / "help.pot").is_file()
    setup = (REPO / "setup.py").read_text(encoding="utf-8")
    assert '"patiencebook.rules": "rules"' in setup and '"patiencebook.locales": "locales"' in setup
