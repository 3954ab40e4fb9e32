"""CLDR's number words kept on disk between runs (generator/check/lexicon.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from patiencebook.generator.check import lexicon
from patiencebook.generator.errors import LanguageError

PROBE = ("import json, sys; from patiencebook.generator.check import lexicon\n"
         "out = {}\n"
         "for lang in sys.argv[1:]:\n"
         "    try:\n"
         "        words, ordinals = lexicon._number_words(lang)\n"
         "        out[lang] = [words.get('sieben') or words.get('seven'), sorted(ordinals)[:2]]\n"
         "    except Exception as error:\n"
         "        out[lang] = type(error).__name__\n"
         "print(json.dumps(out))")


def _run(folder, *langs, block_cldr=False):
    code = PROBE
    if block_cldr:  # unicode-rbnf unusable: whatever the run gives comes from the file
        code = "import unicode_rbnf; unicode_rbnf.RbnfEngine = None\n" + code
    env = dict(os.environ, PATIENCEBOOK_CACHE_DIR=str(folder))
    out = subprocess.run([sys.executable, "-c", code, *langs], env=env, capture_output=True, text=True, check=True,
                         timeout=120)
    return json.loads(out.stdout)


def test_number_words_are_kept_and_read_again_without_cldr(tmp_path):
    first = _run(tmp_path, "de", "en", "xx")
    assert first["de"][0] == 7 and first["en"][0] == 7 and first["xx"] == "LanguageError"
    (path,) = tmp_path.glob("numbers-unicode-rbnf-*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["de"]["words"]["sieben"] == 7 and data["xx"] is None
    assert "siebte" in data["de"]["ordinals"]
    # The next run reads them from the file: the same answers with unicode-rbnf out of reach.
    assert _run(tmp_path, "de", "en", "xx", block_cldr=True) == first


def test_a_damaged_or_hand_edited_file_is_ignored_and_replaced(tmp_path):
    _run(tmp_path, "de")
    (path,) = tmp_path.glob("numbers-unicode-rbnf-*.json")
    for bad in ("{not json", json.dumps({"de": {"words": {"sieben": "7"}, "ordinals": []}}),
                json.dumps({"de": {"words": {}, "ordinals": [], "more": 1}}), json.dumps(["de"]),
                "[" * 100_000 + "]" * 100_000,  # nested too deep for Python's JSON reader
                json.dumps({"de": {"words": {"  ": 1}, "ordinals": []}}),  # no word at all
                json.dumps({"de": {"words": {"sieben": 700}, "ordinals": []}}),  # out of range
                json.dumps({"de": {"words": {"sieben  acht": 7}, "ordinals": []}}),  # not as written
                json.dumps({"de": {"words": {"7": 7}, "ordinals": []}})):
        path.write_text(bad, encoding="utf-8")
        assert _run(tmp_path, "de")["de"][0] == 7
        assert json.loads(path.read_text(encoding="utf-8"))["de"]["words"]["sieben"] == 7


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this platform")
def test_a_named_pipe_in_place_of_the_file_is_not_read(tmp_path):
    _run(tmp_path, "de")
    (path,) = tmp_path.glob("numbers-unicode-rbnf-*.json")
    path.unlink()
    os.mkfifo(path)  # reading it would wait for a writer for ever
    assert _run(tmp_path, "de")["de"][0] == 7
    assert path.is_file()  # replaced by the file written


def test_languages_another_run_wrote_are_kept(tmp_path):
    _run(tmp_path, "de")
    _run(tmp_path, "el")
    (path,) = tmp_path.glob("numbers-unicode-rbnf-*.json")
    assert set(json.loads(path.read_text(encoding="utf-8"))) == {"de", "el"}


def test_no_file_when_nothing_is_kept_or_the_folder_cannot_be_made(tmp_path, monkeypatch):
    monkeypatch.setenv("PATIENCEBOOK_CACHE_DIR", "")
    assert lexicon.number_words_path() is None
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert _run(blocker / "sub", "de")["de"][0] == 7  # worked out, nothing written
    assert blocker.read_text(encoding="utf-8") == ""


def test_a_language_cldr_does_not_cover_raises_language_error(monkeypatch):
    monkeypatch.setattr(lexicon, "_NUMBERS", {"zz": None})
    with pytest.raises(LanguageError):
        lexicon._number_words("zz")
