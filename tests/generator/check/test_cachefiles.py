"""What ``patiencebook check`` keeps from one run to the next: where, under which name, and that it is reused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from patiencebook.generator import cli
from patiencebook.generator.check import cachefiles, facts, lemmas, statements

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
    assert len(kept) > 5 and {entry[1] for entry in kept} == {"de"}

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
    digest, lang, found = entries[0]
    gone = facts._memo_key("Deal seven cards.", "Gib sieben Karten (alt).", lang, None)[0]
    planted = [[gone, lang, [["number", "error", "planted", None, None, 1.0]]]]
    memo.write_text(json.dumps(entries + planted), encoding="utf-8")
    status, out = _check(capsys)
    assert "planted" not in out
    # The kept file holds only what this run asked for: the planted entry is gone.
    assert all(e[0] != gone for e in json.loads(memo.read_text(encoding="utf-8")))


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
        return sorted(tuple(entry[:2]) for entry in json.loads(memo.read_text(encoding="utf-8")))

    first = run("1")
    assert len(first) > 500
    assert run("2") == first


def test_a_damaged_results_file_is_not_trusted(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(cachefiles.CACHE_ENV, str(tmp_path))
    first = _check(capsys)
    memo = cachefiles.fact_memo_path()
    entries = json.loads(memo.read_text(encoding="utf-8"))
    with_results = next(e for e in entries if e[2])
    for damage in ("high", None, 7):  # a confidence that is no number from 0 to 1
        with_results[2][0][5] = damage
        memo.write_text(json.dumps(entries), encoding="utf-8")
        assert _check(capsys) == first
    with_results[2][0][5] = 0.9
    with_results[2][0][1] = "bogus"  # no severity
    memo.write_text(json.dumps(entries), encoding="utf-8")
    assert _check(capsys) == first
    with_results[2][0][1] = "error"
    with_results[2][0][3] = [5, 2, "x"]  # a span that ends before it starts
    memo.write_text(json.dumps(entries), encoding="utf-8")
    assert _check(capsys) == first


def test_a_damaged_lemma_file_is_not_trusted(tmp_path):
    from patiencebook.generator.check import lemmas

    env = dict(os.environ, PATIENCEBOOK_CACHE_DIR=str(tmp_path))
    probe = "from patiencebook.generator.check import lemmas; print(lemmas.lemma('de', 'Karten'))"
    (tmp_path / lemmas.cache_path().name).write_text(json.dumps({"de": {"Karten": 5}}), encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, "Karte", "")


def test_an_unchanged_run_leaves_the_file_as_it_was(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(cachefiles.CACHE_ENV, str(tmp_path))
    _check(capsys)
    memo = cachefiles.fact_memo_path()
    before = memo.stat()
    _check(capsys)
    after = memo.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_results_another_run_wrote_meanwhile_for_other_languages_are_kept(tmp_path, monkeypatch, capsys):
    from patiencebook.generator.check import facts

    monkeypatch.setenv(cachefiles.CACHE_ENV, str(tmp_path))
    memo = cachefiles.fact_memo_path()
    facts.use_fact_memo(memo)  # a run of German that began before the other run wrote its file
    try:
        found = facts.check_facts("Deal seven cards.", "Gib sechs Karten.", "de")
        other = [[*facts._memo_key("Deal seven cards.", "Μοιράστε επτά φύλλα.", "el", None), []]]
        memo.write_text(json.dumps(other), encoding="utf-8")
        facts.save_fact_memo(memo)
    finally:
        facts.use_fact_memo(None)
    kept = json.loads(memo.read_text(encoding="utf-8"))
    assert sorted(e[1] for e in kept) == ["de", "el"]
    assert [e for e in kept if e[1] == "de"][0][2][0][:3] == list(found[0][:3])
    assert [e[0] for e in kept if e[1] == "de"] == [facts._memo_key("Deal seven cards.", "Gib sechs Karten.", "de",
                                                                    None)[0]]


def test_partial_files_of_killed_runs_are_removed_once_old(tmp_path):
    memo = tmp_path / "facts-current.json"
    old, recent = tmp_path / ".facts-current.json.abc123", tmp_path / ".lemmas-def456.json"
    old_numbers = tmp_path / ".numbers-unicode-rbnf-2.4.1.json.x1"
    kept = tmp_path / "numbers-unicode-rbnf-2.4.1.json"
    for path in (memo, old, recent, old_numbers, kept, tmp_path / "facts-othercode.json"):
        path.write_text("[]", encoding="utf-8")
    hours_ago = time.time() - cachefiles.STALE_SECONDS - 60
    for path in (old, old_numbers):
        os.utime(path, (hours_ago, hours_ago))
    cachefiles.remove_other_memos(memo)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lemmas-def456.json", "facts-current.json",
                                                          "numbers-unicode-rbnf-2.4.1.json"]


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch):
    monkeypatch.delenv(cachefiles.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert cachefiles.cache_folder() == Path.home() / ".cache" / "patiencebook"


def test_a_file_that_cannot_be_read_as_json_reads_as_nothing(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")  # too deep for the JSON reader
    latin1 = tmp_path / "latin1.json"
    latin1.write_bytes('{"é": 1}'.encode("latin-1"))
    good = tmp_path / "good.json"
    cachefiles.write_json(good, {"de": {"Karten": "Karte"}}, ".good-")
    assert cachefiles.read_json(good) == {"de": {"Karten": "Karte"}}
    for path in (deep, latin1, tmp_path / "missing.json", tmp_path):  # the folder is no file either
        assert cachefiles.read_json(path) is None
    if hasattr(os, "mkfifo"):
        pipe = tmp_path / "pipe.json"
        os.mkfifo(pipe)
        assert cachefiles.read_json(pipe) is None  # not opened: reading would wait for a writer
    # The lemma and results readers take such a file as empty.
    assert lemmas._read(deep) == {} and facts._read_memo(deep) == {}


def test_a_worker_hands_each_result_over_once_and_its_parent_keeps_them_all(tmp_path):
    texts = [("Seven piles.", "Sieben Stapel."), ("Deal three cards.", "Drei Karten geben."),
             ("Build down in suit.", "Abwärts in Farbe bauen.")]
    memo = tmp_path / "facts.json"
    facts.use_fact_memo(memo)  # as a worker has it: the file read when the run began (none here)
    try:
        facts.check_facts(*texts[0], "de")
        facts.check_facts(*texts[1], "de")
        first = facts.fact_memo_added()
        facts.check_facts(*texts[1], "de")  # asked again in the next job: handed over already
        facts.check_facts(*texts[2], "de")
        second = facts.fact_memo_added()
        assert facts.fact_memo_added() == ([], [])
    finally:
        facts.use_fact_memo(None)
    keys = [facts._memo_key(*pair, "de", None) for pair in texts]
    assert [key for key, _ in first[1]] in (keys[:2], keys[1::-1])
    assert [key for key, _ in second[1]] == [keys[2]]
    # The parent keeps what each job handed over and writes all of it.
    facts.use_fact_memo(memo)
    try:
        facts.keep_fact_memo(first)
        facts.keep_fact_memo(second)
        facts.save_fact_memo(memo)
    finally:
        facts.use_fact_memo(None)
    kept = json.loads(memo.read_text(encoding="utf-8"))
    assert sorted((e[0], e[1]) for e in kept) == sorted(keys)


def test_the_code_digest_follows_every_file_of_the_code_and_data_but_not_compiled_files(tmp_path, monkeypatch):
    for name, text in {"generator/a.py": "x = 1\n", "generator/data/lexicons/de.json": "{}",
                       "engine/b.py": "y = 2\n", "rules/index.docbook": "<book/>"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(cachefiles, "_PACKAGE", tmp_path)

    def digest():
        cachefiles.code_digest.cache_clear()
        return cachefiles.code_digest()

    try:
        first = digest()
        assert digest() == first
        (tmp_path / "generator/__pycache__").mkdir()
        (tmp_path / "generator/__pycache__/a.cpython-311.pyc").write_bytes(b"\0compiled")
        (tmp_path / "rules/index.docbook").write_text("<book><x/></book>", encoding="utf-8")  # not code
        assert digest() == first
        (tmp_path / "generator/data/lexicons/de.json").write_text('{"a": 1}', encoding="utf-8")
        changed = digest()
        assert changed != first
        (tmp_path / "engine/b.py").rename(tmp_path / "engine/c.py")  # same bytes, another name
        assert digest() not in (first, changed)
    finally:
        cachefiles.code_digest.cache_clear()


def _add_number_words(folder, lang, barrier):
    os.environ[cachefiles.CACHE_ENV] = str(folder)
    from patiencebook.generator.check import lexicon

    barrier.wait()
    lexicon._save_numbers(lang, None)
    os._exit(0)


@pytest.mark.skipif(sys.platform == "win32", reason="needs fork and flock")
def test_processes_adding_number_words_at_once_keep_every_language(tmp_path):
    import multiprocessing

    from patiencebook.generator.check import lexicon

    context = multiprocessing.get_context("fork")
    for round_ in range(4):
        folder = tmp_path / str(round_)
        folder.mkdir()
        langs = [f"x{round_}{k}" for k in range(6)]
        barrier = context.Barrier(len(langs))
        processes = [context.Process(target=_add_number_words, args=(folder, lang, barrier)) for lang in langs]
        for process in processes:
            process.start()
        for process in processes:
            process.join(30)
        assert [p.exitcode for p in processes] == [0] * len(langs)
        (path,) = folder.glob("numbers-*.json")
        assert sorted(lexicon._read_numbers(path)) == langs


def test_a_second_process_waits_for_the_lock_and_not_for_ever(tmp_path):
    probe = ("import sys, time; from pathlib import Path; from patiencebook.generator.check import cachefiles; "
             "cachefiles.LOCK_WAIT = float(sys.argv[2]); start = time.monotonic(); "
             "exec('with cachefiles.locked(Path(sys.argv[1])): print(round(time.monotonic() - start, 2))')")

    def waited(limit):
        with cachefiles.locked(tmp_path):
            child = subprocess.Popen([sys.executable, "-c", probe, str(tmp_path), str(limit)], stdout=subprocess.PIPE,
                                     text=True)
            time.sleep(1.0)  # held this long while the child tries
        return float(child.communicate(timeout=30)[0])

    assert waited(10.0) >= 0.5  # it waited for this process to let go
    assert waited(0.2) < 0.9  # a lock held too long is not waited for
