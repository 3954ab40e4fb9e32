"""Catalogs checked at once in worker processes: when workers start, what comes back, and in what order."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from patiencebook.generator.check import facts, lemmas, workers
from patiencebook.generator.check.run import run_checks
from patiencebook.generator.errors import CatalogError, PatienceBookError

REPO = Path(__file__).resolve().parents[3]
#: AisleRiot's help, outside the repository: <repo>/../shared/corpus/aisleriot/help.
CORPUS = REPO.parent / "shared" / "corpus" / "aisleriot" / "help"

forking = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forked")


def _catalogs(folder: Path, *langs: str, size: int = workers.PARALLEL_BYTES) -> list[tuple[str, Path]]:
    """``(lang, path)`` of files big enough together for workers (their content is not read here)."""
    out = []
    for lang in langs:
        path = folder / f"{lang}.po"
        path.write_bytes(b"#" * size)
        out.append((lang, path))
    return out


def test_how_many_workers(tmp_path, monkeypatch, another_thread):
    monkeypatch.setattr(workers, "usable_cores", lambda: 4)
    big = [p for _, p in _catalogs(tmp_path, "de", "el", "sr")]
    if hasattr(os, "fork"):
        assert workers.worker_count(big, None) == 3  # one per catalog, at most one per core
        assert workers.worker_count(big, 2) == 2
        monkeypatch.setattr(workers, "usable_cores", lambda: 2)
        assert workers.worker_count(big, 8) == 2
    assert workers.worker_count(big, 1) == 1
    assert workers.worker_count(big[:1], None) == 1
    (tmp_path / "small").mkdir()
    small = [p for _, p in _catalogs(tmp_path / "small", "de", "el", size=100)]
    assert workers.worker_count(small, None) == 1  # starting workers would cost more than it saves
    # Another thread running: a forked worker would hold only this one.
    with another_thread():
        assert workers.worker_count(big, None) == 1


@forking
def test_results_come_back_in_the_order_given_with_the_lemmas_the_workers_looked_up(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    words = {"de": "Karten", "el": "Stapeln", "sr": "abgelegt"}
    # No lemma known yet in this process (other tests may have looked these words up).
    monkeypatch.setenv(lemmas.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(lemmas, "_known", None)
    monkeypatch.setattr(lemmas, "_new", {})
    monkeypatch.setattr(lemmas, "_added", 0)

    def work(lang, path):
        return [lang, path.name, os.getpid(), lemmas.lemma("de", words[lang])]

    results = workers.check_each(work, _catalogs(tmp_path, "de", "el", "sr"), None)
    assert [r[:2] for r in results] == [["de", "de.po"], ["el", "el.po"], ["sr", "sr.po"]]
    assert [r[3] for r in results] == ["Karte", "Stapel", "ablegen"]
    # Checked in worker processes (at most two; a worker done early may take the next catalog too).
    assert os.getpid() not in {r[2] for r in results} and 1 <= len({r[2] for r in results}) <= 2
    # The workers' look-ups are this process's now, to be written to the lemma file at exit.
    added = lemmas.added().get("de", {})
    assert {w: added.get(w) for w in words.values()} == {"Karten": "Karte", "Stapeln": "Stapel", "abgelegt": "ablegen"}


@forking
def test_a_catalogs_error_is_raised_with_its_file_and_line_without_waiting_for_the_others(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    finished = tmp_path / "de-finished"

    def work(lang, path):
        if lang == "el":
            raise CatalogError(f"bad unit in {lang}", path, 7)
        time.sleep(60)  # a long catalog: stopped, not waited for
        finished.write_text("", encoding="utf-8")
        return []

    catalogs = _catalogs(tmp_path, "de", "el")
    with pytest.raises(CatalogError) as raised:
        workers.check_each(work, catalogs, 2)
    assert (raised.value.message, raised.value.file, raised.value.line) == ("bad unit in el", str(catalogs[1][1]), 7)
    assert str(raised.value) == f"{catalogs[1][1]}:7: bad unit in el"
    assert not finished.exists()


@forking
def test_the_fact_results_workers_work_out_are_kept_here(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    units = {"de": ("Deal seven cards.", "Gib sieben Karten."), "el": ("Deal seven cards.", "Μοιράστε επτά φύλλα.")}
    facts.use_fact_memo(tmp_path / "memo.json")
    try:
        workers.check_each(lambda lang, path: facts.check_facts(*units[lang], lang), _catalogs(tmp_path, "de", "el"), 2)
        kept = facts._MEMO
        assert set(kept) == {facts._memo_key(*units[lang], lang, None) for lang in ("de", "el")}
        facts.save_fact_memo(tmp_path / "memo.json")
    finally:
        facts.use_fact_memo(None)
    facts.use_fact_memo(tmp_path / "memo.json")  # read back: the results a next run reuses
    try:
        assert len(facts._MEMO) == 2
    finally:
        facts.use_fact_memo(None)


@forking
@pytest.mark.skipif(not (CORPUS / "C" / "index.docbook").is_file(), reason="needs ../shared/corpus")
def test_catalogs_checked_in_workers_give_what_one_process_gives(monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    assert workers.worker_count([CORPUS / "de" / "de.po", CORPUS / "sr" / "sr.po"], None) == 2
    one, _ = run_checks(CORPUS / "C", CORPUS, langs=["de", "sr"], jobs=1)
    several, _ = run_checks(CORPUS / "C", CORPUS, langs=["de", "sr"])
    assert len(one) > 300 and {f.lang for f in one} >= {"de", "sr"}
    assert several == one


def test_how_many_catalogs_are_checked_in_two_parts():
    assert workers.split_count(3, 2) == 1  # one left over for two workers: split, no worker waits
    assert workers.split_count(21, 2) == 1
    assert workers.split_count(6, 4) == 2
    assert workers.split_count(4, 2) == 0  # they share out evenly
    assert workers.split_count(7, 4) == 0  # three parts' worth of re-reading for four workers: no
    assert workers.split_count(2, 2) == 0 and workers.split_count(1, 2) == 0


@forking
def test_the_catalog_left_over_is_checked_in_two_parts_and_combined(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    catalogs = _catalogs(tmp_path, "de", "el", "sr")
    catalogs[0][1].write_bytes(b"#" * (workers.PARALLEL_BYTES // 2))  # de, the smallest: split

    def work(lang, path, part=None, units=None):
        return [(lang, part, os.getpid(), None if units is None else list(units(50)))]

    def combine(parts):
        assert [p[0][1] for p in parts] == [(0, 2), (1, 2)]  # the parts in order
        return ["combined", *(p[0][:2] for p in parts), [p[0][3] for p in parts]]

    results = workers.check_each(work, catalogs, None, combine=combine)
    assert results[0][:3] == ["combined", ("de", (0, 2)), ("de", (1, 2))]
    # The parts took the catalog's 50 units between them, each once, in rising order.
    taken = results[0][3]
    assert sorted(taken[0] + taken[1]) == list(range(50)) and all(t == sorted(t) for t in taken)
    assert [r[0][:2] for r in results[1:]] == [("el", None), ("sr", None)]
    assert [r[0][3] for r in results[1:]] == [None, None]
    # Without combine, no catalog is split.
    assert [r[0][1] for r in workers.check_each(work, catalogs, None)] == [None, None, None]


def test_the_parts_of_a_catalog_take_its_units_a_few_at_a_time():
    import multiprocessing

    share = workers.UnitShare(multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn"))
    first, second = share.units(10), share.units(10)
    chunk = workers.UnitShare.CHUNK
    took = [next(first) for _ in range(chunk + 1)]  # its first chunk, then one of the next
    rest = list(second)
    assert took == list(range(chunk + 1))
    # The second part took every chunk not yet handed out; the first keeps the chunk it began.
    assert rest == list(range(2 * chunk, 10))
    assert list(first) == list(range(chunk + 1, 2 * chunk))
    assert list(share.units(10)) == []  # a part that starts when all are taken checks none


@forking
def test_a_part_that_starts_late_takes_only_the_units_left(tmp_path, monkeypatch):
    import multiprocessing

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    catalogs = _catalogs(tmp_path, "de", "el", "sr")
    catalogs[0][1].write_bytes(b"#" * (workers.PARALLEL_BYTES // 2))  # de, the smallest: split
    drained = multiprocessing.get_context("fork").Event()  # inherited by the workers

    def work(lang, path, part=None, units=None):
        if part == (0, 2):
            # Held up (the checks of the whole catalog, say) until the other part took every unit.
            drained.wait(10)
            return list(units(200))
        if part == (1, 2):
            taken = list(units(200))
            drained.set()
            return taken
        return [lang]

    results = workers.check_each(work, catalogs, None, combine=lambda parts: parts)
    assert results[0] == [[], list(range(200))]


@forking
@pytest.mark.skipif(not (CORPUS / "C" / "index.docbook").is_file(), reason="needs ../shared/corpus")
def test_a_catalog_checked_in_two_parts_gives_what_one_process_gives(monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    langs = ["de", "el", "sr"]
    assert workers.split_count(len(langs), workers.worker_count([CORPUS / l / f"{l}.po" for l in langs], None)) == 1
    from patiencebook.generator.check.run import _CatalogJob

    combined = []
    real = _CatalogJob.combine
    monkeypatch.setattr(_CatalogJob, "combine", staticmethod(lambda parts: combined.append(parts) or real(parts)))
    one, _ = run_checks(CORPUS / "C", CORPUS, langs=langs, jobs=1)
    several, _ = run_checks(CORPUS / "C", CORPUS, langs=langs)
    # de, the smallest, came in two parts, each with findings of its own.
    (parts,) = combined
    assert len(parts) == 2 and all(parts) and {f.lang for _, f in parts[0] + parts[1]} == {"de"}
    # Each unit is checked in one part, the whole catalog's checks in the first only.
    units = [{rank for rank, _ in part if rank[0] == 1} for part in parts]
    assert not units[0] & units[1] and units[0] and units[1]
    assert all(rank[0] == 1 for rank, _ in parts[1]) and any(rank[0] != 1 for rank, _ in parts[0])
    assert {f.lang for f in one} >= set(langs) and several == one


@forking
def test_a_worker_that_dies_is_an_error_naming_a_catalog_not_a_hang(tmp_path, monkeypatch):
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)

    def work(lang, path):
        if lang == "el":
            os._exit(3)  # as the system's out-of-memory killer would end it
        return [lang]

    with pytest.raises(PatienceBookError) as raised:
        workers.check_each(work, _catalogs(tmp_path, "de", "el", "sr"), 2)
    # Which catalogs the dead worker held cannot be told: those not checked are named.
    assert raised.value.message.startswith("a worker process stopped before the checks of the ")
    assert "el" in raised.value.message and "--jobs 1" in raised.value.message


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="no CPU affinity on this platform")
def test_the_cores_counted_are_those_the_process_may_use(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3})  # as under taskset -c 3
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert workers.usable_cores() == 1


_STOPPED_WHILE_WRITING = """
import sys, time
from pathlib import Path
from patiencebook.generator.check import lemmas, workers
from patiencebook.generator.errors import CatalogError

workers.usable_cores = lambda: 2
folder = Path(sys.argv[1])
catalogs = []
for lang in ("de", "el"):
    (folder / f"{lang}.po").write_bytes(b"#" * workers.PARALLEL_BYTES)
    catalogs.append((lang, folder / f"{lang}.po"))

def work(lang, path):
    # Many lemmas looked up, then an error: each worker's answer is written in many pieces, and
    # the second is stopped halfway when the first arrives.
    lemmas._new[lang] = {f"{lang}{i}": "x" * 40 for i in range(300_000)}
    time.sleep(0.5)
    raise CatalogError("bad unit", path, 3)

try:
    workers.check_each(work, catalogs, 2)
except CatalogError as error:
    print(error)
"""


@forking
def test_a_worker_stopped_while_it_writes_its_answer_does_not_hang_the_pool(tmp_path):
    import subprocess
    import sys

    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", _STOPPED_WHILE_WRITING, str(tmp_path)], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.strip().endswith(".po:3: bad unit"), done.stderr


@forking
def test_work_beside_the_workers_runs_with_a_short_switch_interval_then_the_old_one(tmp_path, monkeypatch):
    import sys

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    before = sys.getswitchinterval()
    seen = []

    def meanwhile():
        seen.append(sys.getswitchinterval())
        raise KeyboardInterrupt  # a Ctrl-C while it runs leaves the interval as it was too

    with pytest.raises(KeyboardInterrupt):
        workers.check_each(lambda lang, path: lang, _catalogs(tmp_path, "de", "el"), None, meanwhile=meanwhile)
    assert seen == [pytest.approx(workers.SWITCH_INTERVAL)] and sys.getswitchinterval() == before
    seen.clear()
    assert workers.check_each(lambda lang, path: lang, _catalogs(tmp_path, "de", "el"), None,
                              meanwhile=lambda: seen.append(sys.getswitchinterval())) == ["de", "el"]
    assert seen == [pytest.approx(workers.SWITCH_INTERVAL)] and sys.getswitchinterval() == before
