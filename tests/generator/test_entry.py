"""The command's entry point: its exit status, its output and its exit work, without Python's clean-up."""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import patiencebook.__main__ as entry

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "check" / "terminology"


class _Ended(Exception):
    pass


def _ending(monkeypatch, status: int):
    """Make :func:`entry.run` see ``main`` return ``status``; returns what its end records."""
    seen: dict = {}

    def exit_now(code):
        seen["os._exit"] = code
        raise _Ended

    monkeypatch.setattr(entry, "main", lambda: status)
    monkeypatch.setattr(os, "_exit", exit_now)
    monkeypatch.setattr(atexit, "_run_exitfuncs", lambda: seen.setdefault("atexit", True))
    return seen


def test_the_process_ends_at_once_after_its_exit_functions(monkeypatch):
    seen = _ending(monkeypatch, 3)
    with pytest.raises(_Ended):
        entry.run()
    assert seen == {"atexit": True, "os._exit": 3}


def test_with_another_thread_running_python_exits_as_usual(monkeypatch, another_thread):
    seen = _ending(monkeypatch, 1)
    with another_thread(), pytest.raises(SystemExit) as ended:
        entry.run()
    assert ended.value.code == 1 and seen == {}


def test_a_check_gives_its_report_status_and_lemma_file_as_a_normal_exit_does(tmp_path):
    argv = ["check", "--sources", str(DATA / "C"), "--catalogs", str(DATA / "locales"), "--lang", "de",
            "--check", "terminology"]
    env = dict(os.environ, PATIENCEBOOK_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "patiencebook", *argv], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "'Vorrat' for 'Stock'; the glossary term is 'Talon'" in done.stdout
    # The same report as the command line gives in this process.
    probe = ("import sys; from patiencebook.generator import cli; "
             f"sys.exit(cli.main({argv!r}))")
    same = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert same.returncode == done.returncode and same.stdout == done.stdout
    # The lemma file is written by an exit function: it ran.
    (lemmas,) = (tmp_path / "cache").glob("lemmas-*.json")
    assert json.loads(lemmas.read_text(encoding="utf-8"))["de"]


def test_an_error_is_one_line_and_status_1(tmp_path):
    done = subprocess.run([sys.executable, "-m", "patiencebook", "check", "--sources", str(tmp_path / "none")],
                          env=dict(os.environ, PATIENCEBOOK_CACHE_DIR=str(tmp_path / "cache")),
                          capture_output=True, text=True)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("patiencebook: error: ") and done.stderr.count("\n") == 1


def test_the_installed_script_starts_in_run():
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert 'patiencebook = "patiencebook.__main__:run"' in text


def test_output_that_cannot_be_written_at_the_end_is_said_and_status_120(monkeypatch, capfd):
    class Full:
        def flush(self):
            raise OSError(28, "No space left on device")

    seen = _ending(monkeypatch, 0)
    monkeypatch.setattr(sys, "stdout", Full())
    with pytest.raises(_Ended):
        entry.run()
    assert seen["os._exit"] == 120
    assert capfd.readouterr().err == "patiencebook: error: cannot write to standard output: No space left on device\n"
