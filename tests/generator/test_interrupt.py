"""Ctrl-C ends the command with one line and exit status 130, whenever it comes, and leaves no process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import patiencebook.__main__ as entry
from patiencebook.generator import cli

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus" / "aisleriot" / "help"


class _Interrupting(types.ModuleType):
    def __getattr__(self, name):
        raise KeyboardInterrupt


def test_ctrl_c_while_the_command_line_is_imported(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "patiencebook.generator.cli", _Interrupting("patiencebook.generator.cli"))
    assert entry.main() == 130
    assert capsys.readouterr().err == "patiencebook: interrupted\n"


def test_ctrl_c_while_the_arguments_are_read(monkeypatch, capsys):
    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["check"]) == 130
    assert capsys.readouterr().err == "patiencebook: interrupted\n"


def test_the_package_imports_without_reading_its_metadata():
    probe = "import sys, patiencebook; print('importlib.metadata' in sys.modules, patiencebook.__version__ != '')"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


@pytest.mark.skipif(not hasattr(os, "killpg") or not (CORPUS / "C" / "index.docbook").is_file(),
                    reason="needs process groups and ../shared/corpus")
def test_ctrl_c_during_a_check_ends_it_and_every_process_it_started(tmp_path):
    command = [sys.executable, "-m", "patiencebook", "check", "--sources", str(CORPUS / "C"), "--catalogs",
               str(CORPUS), "--lang", "de", "--lang", "el", "--lang", "sr"]
    env = dict(os.environ, PATIENCEBOOK_CACHE_DIR=str(tmp_path))
    subprocess.run(command, env=env, capture_output=True, check=False)  # lemmas kept: a first run's pace
    for delay in (0.3, 0.45, 0.6, 0.8):
        for memo in tmp_path.glob("facts-*.json"):
            memo.unlink()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)
        time.sleep(delay)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C reaches the whole group
        err = process.communicate(timeout=60)[1]
        if process.returncode in (0, 1):
            continue  # done before the interrupt came
        # 130, or killed by the signal itself, which a shell reports as 130 too.
        assert process.returncode in (130, -signal.SIGINT) and "patiencebook: interrupted" in err, err
        assert "Traceback" not in err
        time.sleep(0.2)
        with pytest.raises(ProcessLookupError):
            os.killpg(process.pid, 0)  # no process of the group is left
