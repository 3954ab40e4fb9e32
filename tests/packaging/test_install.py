"""The package as a user installs it: the wheel and the sdist are built, each is installed into a
fresh venv, and the README's commands run from an empty folder, without the source tree.

Slow (a few minutes): each install fetches the dependencies from the package registry.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.embedded import EMBEDDED_GAMES

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """The sdist and the wheel, built as ``python -m build`` builds them (the wheel from the sdist)."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)], check=True,
                   capture_output=True, timeout=900)
    return out


def _install(artifact: Path, where: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=300)
    subprocess.run([str(where / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    str(artifact)], check=True, capture_output=True, timeout=1200)
    return where / "bin"


def _clean_env(bin_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["NO_COLOR"] = ""
    return env


def _run(bin_dir: Path, cwd: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_dir / "patiencebook"), *args], cwd=cwd, env=_clean_env(bin_dir), input=stdin,
                          capture_output=True, text=True, encoding="utf-8", timeout=900)


@pytest.mark.parametrize("kind", ["wheel", "sdist"])
def test_the_readme_commands_work_from_an_installed_package(dist, tmp_path, kind):
    (artifact,) = dist.glob("*.whl" if kind == "wheel" else "*.tar.gz")
    bin_dir = _install(artifact, tmp_path / "venv")
    empty = tmp_path / "work"
    empty.mkdir()
    # Nothing comes from the source tree: the package is imported from the fresh venv.
    where = subprocess.run([str(bin_dir / "python"), "-c", "import patiencebook.generator as g; print(g.__file__)"],
                           cwd=empty, env=_clean_env(bin_dir), capture_output=True, text=True, check=True).stdout
    assert str(tmp_path / "venv") in where and str(REPO) not in where

    from patiencebook import __version__

    assert _run(bin_dir, empty, "--version").stdout == f"patiencebook {__version__}\n"
    module = subprocess.run([str(bin_dir / "python"), "-m", "patiencebook", "--version"], cwd=empty,
                            env=_clean_env(bin_dir), capture_output=True, text=True)
    assert module.stdout == f"patiencebook {__version__}\n"
    games = json.loads(_run(bin_dir, empty, "games", "--format", "json").stdout)
    assert [g["id"] for g in games] == EMBEDDED_GAMES and all(g["solver_figure"] for g in games)

    deal = _run(bin_dir, empty, "deal", "hamilton", "--deal", "42", "--json")
    assert deal.returncode == 0, deal.stderr
    assert json.loads(deal.stdout)["game"] == "hamilton"
    play = _run(bin_dir, empty, "play", "eagle_wing", "--deal", "7", "--lang", "de", stdin="q\n")
    assert play.returncode == 0 and play.stdout.startswith("Adlerschwinge, Spiel Nr. 7"), play.stderr
    solve = _run(bin_dir, empty, "solve", "eagle-wing", "--deals", "1-3", "--budget", "2000")
    assert solve.returncode == 0, solve.stderr

    check = _run(bin_dir, empty, "check")
    assert (check.returncode, check.stdout, check.stderr) == (0, "no findings\n", "")
    numbers = _run(bin_dir, empty, "check", "--lang", "de", "--page", "hamilton", "--check", "number")
    assert numbers.returncode == 0, numbers.stderr
    assert _run(bin_dir, empty, "check", "--format", "json", "--out", "findings.json").returncode == 0
    assert json.loads((empty / "findings.json").read_text(encoding="utf-8")) is not None

    build = _run(bin_dir, empty, "build", "--lang", "de", "--progress", "none")
    assert build.returncode == 0, build.stderr
    assert (empty / "site" / "de" / "index.html").is_file()
    # The wheel carries the live board's Pyodide runtime (it is built where npm ci has installed it),
    # its service worker and the script that makes the Python snapshot (Node.js is there too).
    assert len(list((empty / "site" / "_pyodide").glob("*/pyodide.asm.wasm"))) == 1
    assert (empty / "site" / "pb-sw.js").is_file() and list((empty / "site" / "_engine").glob("python-*.snapshot.gz"))
    assert "Pyodide not found" not in build.stderr and "snapshot" not in build.stderr

    assert _run(bin_dir, empty, "extract").returncode == 0
    update = _run(bin_dir, empty, "update")
    assert update.returncode == 0 and "updated" not in update.stdout.replace("unchanged", ""), update.stdout
