"""simplemma's lemmas kept on disk between runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from patiencebook.generator.check import lemmas

PROBE = ("import json, sys; from patiencebook.generator.check import lemmas; "
         "print(json.dumps([lemmas.lemma('de', w) for w in sys.argv[1:]]))")


def _run(env_dir, *words):
    env = dict(os.environ, PATIENCEBOOK_CACHE_DIR=str(env_dir))
    out = subprocess.run([sys.executable, "-c", PROBE, *words], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_lemmas_are_kept_and_read_again(tmp_path):
    assert _run(tmp_path, "abgebaut", "Karten") == ["abbauen", "Karte"]
    (path,) = tmp_path.glob("lemmas-simplemma-*.json")
    assert json.loads(path.read_text(encoding="utf-8"))["de"] == {"abgebaut": "abbauen", "Karten": "Karte"}
    # A lemma in the file is what the next run gives, without asking simplemma.
    data = {"de": {"abgebaut": "MARKER"}}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert _run(tmp_path, "abgebaut") == ["MARKER"]


def test_simplemma_is_imported_only_for_a_word_the_file_does_not_hold(tmp_path):
    probe = ("import sys; from patiencebook.generator.check import lemmas, run, facts, terminology; "
             "print('simplemma' in sys.modules, lemmas.lemma('de', sys.argv[1]), 'simplemma' in sys.modules)")
    env = dict(os.environ, PATIENCEBOOK_CACHE_DIR=str(tmp_path))
    (tmp_path / lemmas.cache_path().name).write_text(json.dumps({"de": {"Karten": "Karte"}}), encoding="utf-8")

    def run(word):
        return subprocess.run([sys.executable, "-c", probe, word], env=env, capture_output=True, text=True,
                              check=True).stdout.split()

    assert run("Karten") == ["False", "Karte", "False"]
    assert run("Stapeln") == ["False", "Stapel", "True"]
    # The file is named for simplemma's version as the module itself gives it.
    import simplemma

    assert lemmas.cache_path().name == f"lemmas-simplemma-{simplemma.__version__}.json"


def test_a_broken_file_is_ignored_and_replaced(tmp_path):
    name = lemmas.cache_path().name
    (tmp_path / name).write_text("{not json", encoding="utf-8")
    assert _run(tmp_path, "Stapeln") == ["Stapel"]
    assert json.loads((tmp_path / name).read_text(encoding="utf-8")) == {"de": {"Stapeln": "Stapel"}}


def test_an_empty_setting_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(lemmas.CACHE_ENV, "")
    assert lemmas.cache_path() is None
    monkeypatch.delenv(lemmas.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert lemmas.cache_path().parent == tmp_path / "patiencebook"


def test_an_unwritable_folder_is_no_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert _run(blocker / "sub", "Karten") == ["Karte"]  # the folder cannot be made: nothing kept


def test_an_unknown_language_raises_value_error():
    with pytest.raises(ValueError):
        lemmas.lemma("xx-unknown", "word")


def test_lemmas_another_process_wrote_meanwhile_are_kept(tmp_path, monkeypatch):
    """Languages of a site build look lemmas up in processes of their own, each writing the file."""
    monkeypatch.setenv(lemmas.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(lemmas, "_known", None)
    monkeypatch.setattr(lemmas, "_new", {})
    monkeypatch.setattr(lemmas, "_added", 0)
    assert lemmas.lemma("de", "Karten") == "Karte"
    path = lemmas.cache_path()
    path.write_text(json.dumps({"el": {"φύλλα": "φύλλο"}, "de": {"Stapeln": "Stapel"}}), encoding="utf-8")
    lemmas.save()
    assert json.loads(path.read_text(encoding="utf-8")) == {
        "el": {"φύλλα": "φύλλο"}, "de": {"Stapeln": "Stapel", "Karten": "Karte"}}
    assert lemmas.added() == {}
