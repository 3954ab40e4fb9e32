"""The helper that builds the embedded models and reads the split catalogs while the sources load."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import threading
import time
from pathlib import Path

import pytest

from patiencebook.generator.catalogs import read_catalog
from patiencebook.generator.check import readahead, run, workers
from patiencebook.generator.check.readahead import ReadAhead
from patiencebook.generator.check.run import run_checks
from patiencebook.generator.docbook import enginemodels
from patiencebook.generator.errors import CatalogError

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO.parent / "shared" / "corpus" / "aisleriot" / "help"
forking = pytest.mark.skipif(not hasattr(os, "fork"), reason="the helper is forked")
corpus = pytest.mark.skipif(not (CORPUS / "C" / "index.docbook").is_file(), reason="needs ../shared/corpus")


def _units(catalog) -> list[tuple]:
    return [(m.id, m.string, m.context, m.lineno, m.locations, sorted(m.flags), m.previous_id, m.fuzzy)
            for m in list(catalog) + list(catalog.obsolete.values())]


@forking
def test_the_helper_hands_over_the_models_and_catalogs_this_process_would_make(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    good = REPO / "locales" / "de" / "LC_MESSAGES" / "help.po"
    broken = tmp_path / "broken.po"
    broken.write_text('msgid "a"\nmsgstr "b"\nmsgstr "c"\n', encoding="utf-8")
    monkeypatch.setattr(enginemodels, "_MODELS", {})  # not loaded in this process yet
    with ReadAhead.start([good, broken, tmp_path / "missing.po"], True) as ahead:
        ahead.take_models()
        read = ahead.catalogs(wait=30)
        errors = ahead.errors()
    handed = enginemodels._MODELS[None]
    monkeypatch.setattr(enginemodels, "_MODELS", {})
    own = enginemodels.embedded_models()
    assert sorted(handed) == sorted(own) and len(own) >= 13
    assert all(pickle.dumps(handed[k][0]) == pickle.dumps(own[k][0]) and handed[k][1] == own[k][1] for k in own)
    # Only what could be read is handed over, and the errors of what could not be.
    assert list(read) == [str(good)]
    assert sorted(errors) == sorted([str(broken), str(tmp_path / "missing.po")])
    assert (errors[str(broken)].file, errors[str(broken)].line) == (str(broken), 3)
    assert _units(read[str(good)]) == _units(read_catalog(good))


def test_no_helper_without_a_core_to_spare_or_with_nothing_to_read(tmp_path, monkeypatch, another_thread):
    monkeypatch.setattr(workers, "usable_cores", lambda: 1)
    assert ReadAhead.start([tmp_path / "de.po"], True) is None
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    assert ReadAhead.start([], False) is None
    with another_thread():
        assert ReadAhead.start([tmp_path / "de.po"], True) is None  # a forked child would hold one thread


@forking
def test_closing_ends_a_helper_that_is_still_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    pipe = tmp_path / "de.po"
    os.mkfifo(pipe)  # opening it blocks until a writer comes: the helper never ends by itself
    monkeypatch.setattr(readahead, "WAIT", 0.2)
    ahead = ReadAhead.start([pipe], False)
    assert ahead.catalogs(wait=0.2) == {}  # nothing in time: the catalog is read where it is checked
    start = time.monotonic()
    ahead.close()
    assert time.monotonic() - start < 5 and not ahead._process.is_alive()


@forking
@corpus
def test_a_first_run_takes_the_split_catalog_from_the_helper_and_finds_the_same(monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    handed = []
    catalogs = ReadAhead.catalogs

    def recorded(self, wait=0.0):
        found = catalogs(self, wait=30)  # handed over, however busy the machine
        handed.append(sorted(found))
        return found

    monkeypatch.setattr(ReadAhead, "catalogs", recorded)
    langs = ["de", "el", "sr"]
    several, _ = run_checks(CORPUS / "C", CORPUS, langs=langs)
    assert handed == [[str(CORPUS / "de" / "de.po")]]  # the smallest of three, split over two workers
    one, _ = run_checks(CORPUS / "C", CORPUS, langs=langs, jobs=1)
    assert handed == [[str(CORPUS / "de" / "de.po")]]  # one process: no helper
    assert several == one and len(one) > 900


@forking
@corpus
def test_a_broken_split_catalog_is_still_reported_with_its_line(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    shutil.copytree(CORPUS / "C", tmp_path / "C")
    for lang in ("de", "el", "sr"):
        (tmp_path / lang).mkdir()
        shutil.copy(CORPUS / lang / f"{lang}.po", tmp_path / lang / f"{lang}.po")
    path = tmp_path / "de" / "de.po"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if i > 40 and line.startswith("msgstr"))
    lines.insert(at + 1, 'msgstrx "kaputt"\n')
    path.write_text("".join(lines), encoding="utf-8")
    assert workers.split_catalogs([tmp_path / l / f"{l}.po" for l in ("de", "el", "sr")], None) == [path]
    with pytest.raises(CatalogError) as raised:
        run_checks(tmp_path / "C", tmp_path, langs=["de", "el", "sr"])
    assert (raised.value.file, raised.value.line) == (str(path), at + 2)
    # Found by the helper while the sources loaded, it is reported before any catalog is checked.
    monkeypatch.setattr(readahead, "CATALOG_WAIT", 30.0)

    def no_checks(*args, **kwargs):
        raise AssertionError("the catalogs were checked before the broken one was reported")

    monkeypatch.setattr(run, "check_each", no_checks)
    with pytest.raises(CatalogError) as raised:
        run_checks(tmp_path / "C", tmp_path, langs=["de", "el", "sr"])
    assert (raised.value.file, raised.value.line) == (str(path), at + 2)
    # Without the helper (one process), the same error.
    monkeypatch.setattr(run, "check_each", workers.check_each)
    with pytest.raises(CatalogError) as raised:
        run_checks(tmp_path / "C", tmp_path, langs=["de", "el", "sr"], jobs=1)
    assert (raised.value.file, raised.value.line) == (str(path), at + 2)
    assert multiprocessing.active_children() == []  # the helper and the workers have ended


@forking
def test_tasks_run_while_waiting_and_stop_once_the_helper_hands_over(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    pipe = tmp_path / "de.po"
    os.mkfifo(pipe)  # the helper waits for a writer: the catalogs come when this test writes them
    ran = []

    def tasks():
        for i in range(10_000):
            def task(i=i):
                ran.append(i)
                time.sleep(0.01)
                if i == 5:  # the helper can now read the catalog and hand it over
                    threading.Thread(target=pipe.write_text, args=('msgid "a"\nmsgstr "b"\n',)).start()
            yield task

    with ReadAhead.start([pipe], False) as ahead:
        ahead.meanwhile(tasks())
        read = ahead.catalogs(wait=30)
        assert list(read) == [str(pipe)]
        assert 6 <= len(ran) < 1000 and ran == list(range(len(ran)))  # one after the other, until the hand-over
        count = len(ran)
        ahead.take_models()  # nothing more to wait for: no more tasks run
        assert len(ran) == count


@forking
def test_tasks_stop_when_the_wait_runs_out(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    pipe = tmp_path / "de.po"
    os.mkfifo(pipe)  # never written: the helper hands nothing over
    ran = []
    with ReadAhead.start([pipe], False) as ahead:
        ahead.meanwhile(iter(lambda: ran.append(time.sleep(0.01)), 1))  # endless tasks of 10 ms
        start = time.monotonic()
        assert ahead.catalogs(wait=0.2) == {}
        assert 0.2 <= time.monotonic() - start < 5 and 1 <= len(ran) <= 21
