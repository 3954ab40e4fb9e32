"""What ``patiencebook check`` keeps from one run to the next: where, under which name, and that it is reused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from patiencebook.generator import cli
from patiencebook.generator.check import cachefiles, statements

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "tests" / "data" / "check"
SOURCES, CATALOGS = DATA / "C", DATA / "locales"
#: AisleRiot's help, outside the repository: <repo>/../shared/corpus/aisleriot/help.
CORPUS = REPO.parent / "shared" / "corpus" / "aisleriot" / "help"


def test_the_files_live_in_the_cache_folder_named_for_the_code(tmp_path, monkeypatch):
    monkeypatch.setenv(cachefiles.CACHE_ENV, str(tmp_path))
    path = cachefiles.fact_memo_path()
    assert path.parent == tmp_path and path.name == f"facts-{cachefiles.code_digest()[:24]}.json"
    monkeypatch.setenv(cachefiles.CACHE_ENV, "")
    assert cachefiles.fact_memo_path() is None
    monkeypatch.delenv(cachefiles.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cachefiles.cache_folder() == tmp_path / "xdg" / "patiencebook"


def _check(capsys) -> tuple[int, str]:
    status = cli.main(["check", "--sources", str(SOURCES), "--catalogs", str(CATALOGS), "--min-confidence", "0"])
    return status, capsys.readouterr().out


def test_a_second_run_reuses_the_rule_fact_results_of_the_first(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(cachefiles.CACHE_ENV, str(tmp_path))
    (tmp_path / "facts-0123456789abcdef01234567.json").write_text("[]", encoding="utf-8")  # other code's
    first = _check(capsys)
    [memo] = tmp_path.glob("facts-*.json")
    assert memo == cachefiles.fact_memo_path()
    kept = json.loads(memo.read_text(encoding="utf-8"))
    assert len(kept) > 5 and {entry[2] for entry in kept} == {"de"}

    def no_comparison(*args, **kwargs):
        raise AssertionError("a unit kept from the first run was compared again")

    monkeypatch.setattr(statements, "compare", no_comparison)
    assert _check(capsys) == first


def test_results_of_translations_no_longer_in_the_catalog_are_not_kept(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(cachefiles.CACHE_ENV, str(tmp_path))
    _check(capsys)
    [memo] = tmp_path.glob("facts-*.json")
    entries = json.loads(memo.read_text(encoding="utf-8"))
    # A kept result whose translation the catalog no longer has is not used: planted, it changes nothing.
    msgid, msgstr, lang, context, found = entries[0]
    planted = [[msgid, msgstr + " (alt)", lang, context, [["number", "error", "planted", None, None, 1.0]]]]
    memo.write_text(json.dumps(entries + planted), encoding="utf-8")
    status, out = _check(capsys)
    assert "planted" not in out
    # The kept file holds only what this run asked for: the planted entry is gone.
    assert all(e[1] != msgstr + " (alt)" for e in json.loads(memo.read_text(encoding="utf-8")))


@pytest.mark.skipif(not (CORPUS / "C" / "index.docbook").is_file(), reason="needs ../shared/corpus")
def test_the_kept_results_have_the_same_keys_whatever_the_hash_seed(tmp_path):
    """The context of a unit names the book's games (AisleRiot's German titles, several of the same
    length) in an order that must not depend on Python's string hashing, which differs from one
    process to the next: else no kept result would ever be found again."""
    def run(seed: str) -> list:
        env = dict(os.environ, PATIENCEBOOK_CACHE_DIR=str(tmp_path), PYTHONHASHSEED=seed)
        subprocess.run([sys.executable, "-m", "patiencebook", "check", "--sources", str(CORPUS / "C"),
                        "--catalogs", str(CORPUS), "--lang", "de", "--jobs", "1"], env=env, capture_output=True)
        [memo] = tmp_path.glob("facts-*.json")
        return sorted(tuple(entry[:4]) for entry in json.loads(memo.read_text(encoding="utf-8")))

    first = run("1")
    assert len(first) > 500
    assert run("2") == first
