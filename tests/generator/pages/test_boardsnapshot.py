"""The live board's Python snapshot: made at build time by Node.js from the project's Pyodide and
engine, restored by Pyodide with the engine imported and playing as the engine plays; kept in a
cache folder between builds; a clear sentence when it cannot be made."""

from __future__ import annotations

import json
import subprocess

import pytest

from patiencebook.engine.frontend import BoardGame
from patiencebook.engine.rulesdata import ruleset_to_data
from patiencebook.generator.pages import boardsnapshot
from patiencebook.generator.pages.board import engine_zip_bytes, find_pyodide
from patiencebook.generator.pages.boardsnapshot import SnapshotError, SnapshotJob, cache_dir, make_snapshot, node_command


# Restores the snapshot as pb-board-start.js does and answers the board's first state, as JSON.
RESTORE = r"""
const { createRequire } = require("node:module");
const { readFileSync } = require("node:fs");
const { gunzipSync } = require("node:zlib");
const [folder, snapshot, board] = process.argv.slice(2);
const { loadPyodide } = createRequire(__filename)(folder + "/pyodide.js");
loadPyodide({ indexURL: folder + "/", fullStdLib: false,
              _loadSnapshot: new Uint8Array(gunzipSync(readFileSync(snapshot))) }).then((pyodide) => {
  pyodide.globals.set("board", readFileSync(board, "utf8"));
  process.stdout.write(pyodide.runPython([
    "import json, sys",
    "imported = 'patiencebook.engine.frontend' in sys.modules",
    "from patiencebook.engine.frontend import BoardGame",
    "game = BoardGame.from_json(board)",
    "json.dumps({'imported': imported, 'state': game.state(), 'hint': game.hint()['move']})",
  ].join("\n")));
});
"""


@pytest.mark.slow
def test_the_snapshot_restores_python_with_the_engine_imported_and_playing_as_the_engine_plays(tmp_path, hamilton):
    node = node_command()
    assert node is not None, "Node.js not found: scripts/setup.sh installs it"
    pyodide = find_pyodide()
    assert pyodide is not None, "node_modules/pyodide not found: run `npm ci`"
    archive = tmp_path / "engine.zip"
    archive.write_bytes(engine_zip_bytes())
    warmup = tmp_path / "warmup.json"
    warmup.write_text(json.dumps([{"ruleset": ruleset_to_data(hamilton), "deal": 1}]), encoding="utf-8")
    made = make_snapshot(pyodide, archive, tmp_path / "python.snapshot.gz", warmup=warmup)
    assert made.read_bytes()[:2] == b"\x1f\x8b" and made.stat().st_mode & 0o777 == 0o644
    board = {"ruleset": ruleset_to_data(hamilton), "deal": 7, "ui": {}, "names": {}}
    (tmp_path / "board.json").write_text(json.dumps(board), encoding="utf-8")
    (tmp_path / "restore.cjs").write_text(RESTORE, encoding="utf-8")
    done = subprocess.run([node, str(tmp_path / "restore.cjs"), str(pyodide), str(made), str(tmp_path / "board.json")],
                          capture_output=True, text=True, timeout=300, check=True)
    answer = json.loads(done.stdout)
    expected = BoardGame.from_data(board)
    assert answer["imported"] is True
    assert answer["state"] == json.loads(json.dumps(expected.state()))
    assert answer["hint"] == expected.hint()["move"]


def test_a_job_finds_a_snapshot_kept_in_the_cache_without_running_node(tmp_path, fake_pyodide):
    kept = tmp_path / "cache" / "python-0123456789ab.snapshot.gz"
    kept.parent.mkdir()
    kept.write_bytes(b"\x1f\x8bkept")
    job = SnapshotJob(fake_pyodide, b"engine", kept.name, cache=kept.parent, node="/nowhere/node")
    assert job.wait() == kept and job.error is None


def test_without_node_there_is_no_snapshot_and_the_job_says_why(tmp_path, fake_pyodide, monkeypatch):
    monkeypatch.setenv(boardsnapshot.NODE_ENV, "")
    assert node_command() is None
    job = SnapshotJob(fake_pyodide, b"engine", "python-0123456789ab.snapshot.gz", cache=tmp_path / "cache")
    assert job.wait() is None and job.error == "Node.js not found"
    assert not (tmp_path / "cache" / "python-0123456789ab.snapshot.gz").exists()


def test_a_failing_snapshot_script_leaves_no_file_and_gives_its_last_line(tmp_path, fake_pyodide):
    node = node_command()
    assert node is not None, "Node.js not found: scripts/setup.sh installs it"
    archive = tmp_path / "engine.zip"
    archive.write_bytes(engine_zip_bytes())
    with pytest.raises(SnapshotError) as caught:
        make_snapshot(fake_pyodide, archive, tmp_path / "out" / "python.snapshot.gz", node=node)
    assert str(caught.value).startswith("pb-snapshot: ") and "\n" not in str(caught.value)
    assert list((tmp_path / "out").iterdir()) == []


def test_the_cache_folder_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(boardsnapshot.CACHE_ENV, str(tmp_path / "mine"))
    assert cache_dir() == tmp_path / "mine" / "snapshots"
    monkeypatch.delenv(boardsnapshot.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "patiencebook" / "snapshots"
