"""Speed of our translator checks against translate-toolkit's pofilter on the AisleRiot help catalogs.

Both run in this process on the same catalogs (../shared/corpus/aisleriot/help/{de,el,sr}), each timed
as the best of a few passes after a warm-up pass, and both report what they checked: units, findings
and how many distinct checks ran. The last rows ("fresh") time one pass of each in a new process, as
a user's command meets it: there our memos start empty, and ours runs as the command does the first
time it checks the catalogs, the same in one process, and again with the results a run before kept.
The "commands" rows time the whole commands a user types, Python start and exit included: ours
once for the three catalogs, pofilter once per catalog. Needs the ``bench`` extra (``pip install -e '.[bench]'``). Run from the repository root:

    .venv/bin/python benchmarks/check.py [--repeat 3] [--corpus DIR] [--profile]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import pstats
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from patiencebook.generator.catalogs import read_catalog  # noqa: E402
from patiencebook.generator.check.run import SOURCE_LANG, known_checks, run_checks  # noqa: E402

# The corpus sits next to the repository: repo root/../shared/corpus.
CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "aisleriot" / "help"
LANGS = ("de", "el", "sr")
# The flags given to pofilter: its default checks (StandardChecker + StandardUnitChecker, fuzzy and
# review units included, notes added to the output), the target language it asks for, and no
# progress display.
POFILTER_FLAGS = ("--language={lang}", "--progress=none")


def pofilter_run(path: Path, lang: str, out_dir: Path) -> tuple[int, int, set[str], int]:
    """One pofilter pass over ``path`` as the ``pofilter`` command does it, written to ``out_dir``.

    Option parsing, building the checker, reading the catalog, running every filter on every unit
    and writing the failing units out are all included. Returns ``(units checked, findings, names of
    the checks that failed at least once, checks run)``.
    """
    from translate.filters import checks, pofilter

    parser = pofilter.cmdlineparser()
    flags = [flag.format(lang=lang) for flag in POFILTER_FLAGS]
    options, _ = parser.parse_args(flags + ["-i", str(path), "-o", str(out_dir / path.name)])
    checkerclasses = [options.filterclass or checks.StandardChecker, checks.StandardUnitChecker]
    config = parser.build_checkerconfig(options)
    counts = {"units": 0, "findings": 0}
    fired: set[str] = set()

    class Counting(pofilter.pocheckfilter):
        """pofilter's own filter, counting the units it checks and the failures it finds."""

        def filterunit(self, unit):
            result = super().filterunit(unit)
            if not unit.isheader() and (self.options.includefuzzy or not unit.isfuzzy()):
                counts["units"] += 1
            if result:
                counts["findings"] += len(result)
                fired.update(result)
            return result

    checkfilter = Counting(options, checkerclasses, config)
    with open(path, "rb") as source, open(out_dir / path.name, "wb") as target:
        pofilter.runfilter(source, target, None, checkfilter)
    return counts["units"], counts["findings"], fired, len(checkfilter.checker.combinedfilters)


def ours_run(corpus: Path, langs: list[str]):
    """One ``run_checks`` pass (every check) over the sources in ``corpus/C`` and the ``langs``
    catalogs, in this process (``jobs=1``: worker processes would start with empty memos)."""
    return run_checks(corpus / "C", corpus, langs=langs, jobs=1)


def catalog_units(path: Path) -> int:
    """Units in a catalog as our checks see them: every message but the header, obsolete ones too."""
    catalog = read_catalog(path)
    return sum(1 for m in catalog if m.id) + len(catalog.obsolete)


def best_of(fn, repeat: int) -> tuple[float, object]:
    """``(fastest seconds of repeat calls after one untimed warm-up call, result of the last call)``."""
    result = fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def interleaved(first, second, repeat: int) -> tuple[float, float, object]:
    """``(fastest seconds of first, fastest of second, result of the last call of second)``: one
    untimed call of each, then ``repeat`` rounds timing one call of each in turn."""
    first()
    result = second()
    best_first = best_second = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        first()
        best_first = min(best_first, time.perf_counter() - start)
        start = time.perf_counter()
        result = second()
        best_second = min(best_second, time.perf_counter() - start)
    return best_first, best_second, result


def traced_peak(fn) -> int:
    """Peak bytes allocated by Python objects during one call of ``fn`` (tracemalloc)."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@contextlib.contextmanager
def quiet():
    """Silences the warnings and stderr chatter pofilter may print (counted, not shown)."""
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stderr(io.StringIO()) as err:
        warnings.simplefilter("always")
        yield caught, err


#: The runs of the fresh rows, each in a new process: pofilter; ours as ``patiencebook check`` runs
#: the first time it checks the catalogs (no rule-fact results kept, catalogs checked in worker
#: processes), the same in one process (``--jobs 1``), and again with the results of an earlier run.
FRESH_RUNS = ("pofilter", "first", "first-jobs-1", "again")


def one_pass(which: str, corpus: Path) -> float:
    """Seconds of one pass of ``which`` (one of :data:`FRESH_RUNS`) over de, el and sr in this
    process, as the first thing it checks: what a user's ``pofilter`` or ``patiencebook check``
    command meets once Python has imported the modules (imports, those a pass makes along the way
    too, are done before the clock starts: see :func:`_import_pass_modules`). Ours keeps and reads
    its files in the folder ``$PATIENCEBOOK_CACHE_DIR`` names, as the command does; ``first`` and
    ``first-jobs-1`` remove the kept rule-fact results before the clock starts."""
    paths = {lang: corpus / lang / f"{lang}.po" for lang in LANGS}
    _import_pass_modules("pofilter" if which == "pofilter" else "ours")
    if which != "pofilter":
        from patiencebook.generator.check.cachefiles import code_digest, fact_memo_path, remembered_facts

        code_digest()  # read once per installed version; a command's own start-up, not the check's
        memo = fact_memo_path()
        if which != "again" and memo is not None:
            memo.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as tmp, quiet():
        start = time.perf_counter()
        if which == "pofilter":
            for lang, path in paths.items():
                pofilter_run(path, lang, Path(tmp))
        else:
            with remembered_facts():
                run_checks(corpus / "C", corpus, langs=list(LANGS), jobs=1 if which == "first-jobs-1" else None)
        return time.perf_counter() - start


#: Modules outside our check and source packages that a first pass imports when it needs them (CLDR's
#: number words, Babel's number data, the XML reader of unicode-rbnf, the worker pool; pofilter's PO
#: reader and language data), imported before the clock as the tools' own modules are.
PASS_IMPORTS = {
    "ours": ("unicode_rbnf.engine", "babel.numbers", "_strptime", "xml.etree.ElementTree",
             "concurrent.futures.process"),
    "pofilter": ("translate.filters.checks", "translate.filters.pofilter", "translate.storage.po",
                 "translate.storage.pypo", *(f"translate.lang.{lang}" for lang in LANGS)),
}


def _import_pass_modules(which: str) -> None:
    """Import what a pass of ``which`` imports along the way: for ours every module of the check,
    catalog, DocBook and engine packages, for both the modules of :data:`PASS_IMPORTS`, so that the
    timed pass compiles and runs no module's code for the first time (as an installed command,
    whose modules are compiled at install, does not either)."""
    import importlib
    import pkgutil

    names = list(PASS_IMPORTS[which])
    if which == "ours":
        import patiencebook.engine
        import patiencebook.generator.catalogs
        import patiencebook.generator.check
        import patiencebook.generator.docbook
        for package in (patiencebook.engine, patiencebook.generator.catalogs, patiencebook.generator.check,
                        patiencebook.generator.docbook):
            names += [info.name for info in pkgutil.iter_modules(package.__path__, package.__name__ + ".")]
        names += ["patiencebook.generator.languages", "patiencebook.generator.project"]
    for name in names:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError:
            pass  # translate-toolkit has no module of its own for every language (Serbian)


def fresh(corpus: Path, repeat: int) -> dict[str, list[float]]:
    """Seconds of :func:`one_pass` of each of :data:`FRESH_RUNS`, each run in a new Python process
    (so that nothing one pass worked out in memory is left for the next), ``repeat`` rounds of all
    of them in turn, so that a slow spell of the machine falls on all alike. Our files are kept in
    a temporary folder, filled by one untimed run first (simplemma's lemmas of the catalogs' words
    and CLDR's number words of their languages, as after any earlier run; see
    generator/check/cachefiles.py)."""
    times: dict[str, list[float]] = {which: [] for which in FRESH_RUNS}
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PATIENCEBOOK_CACHE_DIR": cache}

        def run(which: str) -> float:
            done = subprocess.run([sys.executable, __file__, "--one-pass", which, "--corpus", str(corpus)],
                                  capture_output=True, text=True, check=True, env=env)
            return float(done.stdout.strip().splitlines()[-1])

        run("first")
        for _ in range(repeat):
            for which in FRESH_RUNS:
                times[which].append(run(which))
    return times


def commands(corpus: Path, repeat: int) -> dict[str, list[float]]:
    """Seconds of the whole commands a user types, each a new process from start to exit, ``repeat``
    rounds in turn: ``patiencebook check`` over de, el and sr the first time it checks them (rule-fact
    results removed; lemmas and number words kept, as after any earlier check of those languages)
    and again; and ``pofilter`` with the flags of :data:`POFILTER_FLAGS`, one command per catalog, as
    it takes one target language at a time. Python start, imports and exit are counted for both;
    our modules are compiled first, as an installed package has them."""
    import compileall
    import shutil

    for folder in ("patiencebook", "generator", "engine"):
        compileall.compile_dir(REPO_ROOT / folder, quiet=1)
    pofilter = shutil.which("pofilter", path=str(Path(sys.executable).parent)) or shutil.which("pofilter")
    if pofilter is None:
        raise SystemExit("pofilter is not installed: pip install -e '.[bench]'")
    ours = [sys.executable, "-m", "patiencebook", "check", "--sources", str(corpus / "C"), "--catalogs", str(corpus)]
    ours += [arg for lang in LANGS for arg in ("--lang", lang)]
    times: dict[str, list[float]] = {"pofilter": [], "first": [], "again": []}
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        env = {**os.environ, "PATIENCEBOOK_CACHE_DIR": cache}

        def timed(*argvs: list[str]) -> float:
            start = time.perf_counter()
            for argv in argvs:
                done = subprocess.run(argv, env=env, cwd=out, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                if done.returncode not in (0, 1):  # 1: findings include errors
                    raise SystemExit(f"{' '.join(argv)} failed with exit status {done.returncode}")
            return time.perf_counter() - start

        def first() -> float:
            for memo in Path(cache).glob("facts-*.json"):
                memo.unlink()
            return timed(ours)

        first()  # lemmas and number words of the three languages, as an earlier check leaves them
        for _ in range(repeat):
            times["pofilter"].append(timed(*([pofilter, *(f.format(lang=lang) for f in POFILTER_FLAGS), "-i",
                                               str(corpus / lang / f"{lang}.po"), "-o", f"{out}/{lang}.po"]
                                             for lang in LANGS)))
            times["first"].append(first())
            times["again"].append(timed(ours))
    return times


def paired(ours: list[float], theirs: list[float]) -> str:
    """The per-round comparison of two series timed in turn (round i of each is one pair): the
    median of the rounds' ratios ours/theirs and in how many rounds ours took less. A slow spell of
    the machine falls on both of a pair, so this is steadier than comparing the series' medians."""
    ratios = [a / b for a, b in zip(ours, theirs)]
    return (f"paired median ratio {statistics.median(ratios):.2f}, faster in "
            f"{sum(r < 1 for r in ratios)} of {len(ratios)} rounds")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--one-pass", choices=FRESH_RUNS, help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes after the warm-up (best kept)")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="AisleRiot help folder (C/ and <lang>/)")
    parser.add_argument("--profile", action="store_true", help="also print the top functions of one pass of ours")
    args = parser.parse_args(argv)
    if args.one_pass:
        print(f"{one_pass(args.one_pass, args.corpus):.6f}")
        return 0
    try:
        from translate.__version__ import sver as translate_version
    except ImportError:
        print("translate-toolkit is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    corpus = args.corpus
    paths = {lang: corpus / lang / f"{lang}.po" for lang in LANGS}
    missing = [str(p) for p in [corpus / "C" / "index.docbook", *paths.values()] if not p.is_file()]
    if missing:
        print(f"corpus not found: {', '.join(missing)}", file=sys.stderr)
        return 2

    our_checks = [name for name in known_checks() if name != "model"]  # "model" names a family
    print(f"pofilter {translate_version} flags: {' '.join(POFILTER_FLAGS)} -i <lang>.po -o <tmp>; "
          f"ours: run_checks (all checks); best of {args.repeat} after a warm-up")
    header = (f"{'catalog':<8}{'pofilter s':>11}{'ours s':>9}{'ratio':>7}"
              f"{'pf units':>10}{'our units':>10}{'pf finds':>10}{'our finds':>10}"
              f"{'pf checks':>10}{'our checks':>11}")
    print(header)
    print("-" * len(header))
    warned = 0
    totals = {"pf": 0.0, "ours": 0.0, "pf_units": 0, "pf_finds": 0, "units": 0}
    pf_fired_all: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = Path(tmp)
        pf_runs = 0
        for lang, path in paths.items():
            with quiet() as (caught, err):
                pf_s, (pf_units, pf_finds, pf_fired, pf_runs) = best_of(
                    lambda: pofilter_run(path, lang, out_dir), args.repeat)
            warned += len(caught) + bool(err.getvalue())
            pf_fired_all |= pf_fired
            our_s, (findings, _) = best_of(lambda: ours_run(corpus, [lang]), args.repeat)
            mine = [f for f in findings if f.lang == lang]
            units = catalog_units(path)
            print(f"{lang:<8}{pf_s:>11.3f}{our_s:>9.3f}{our_s / pf_s:>7.2f}{pf_units:>10}{units:>10}"
                  f"{pf_finds:>10}{len(mine):>10}"
                  f"{f'{len(pf_fired)}/{pf_runs}':>10}{f'{len({f.check for f in mine})}/{len(our_checks)}':>11}")
            totals["pf"] += pf_s
            totals["pf_units"] += pf_units
            totals["pf_finds"] += pf_finds
            totals["units"] += units

        # Ours checks the three languages in one call, loading the sources once. The two totals are
        # timed pass for pass in turn, so that a slow spell of the machine falls on both alike.
        with quiet():
            pf_total, our_s, (findings, _) = interleaved(
                lambda: [pofilter_run(p, lang, out_dir) for lang, p in paths.items()],
                lambda: ours_run(corpus, list(LANGS)), args.repeat)
        totals["pf"] = pf_total
        fired = {f.check for f in findings}
        print("-" * len(header))
        print(f"{'total':<8}{totals['pf']:>11.3f}{our_s:>9.3f}{our_s / totals['pf']:>7.2f}"
              f"{totals['pf_units']:>10}{totals['units']:>10}{totals['pf_finds']:>10}{len(findings):>10}"
              f"{f'{len(pf_fired_all)}/{pf_runs}':>10}{f'{len(fired)}/{len(our_checks)}':>11}")
        print("  pofilter total = its three separate runs one after the other; ours total = one run_checks call "
              "over de, el, sr; the two timed in turn, best of each")
        source_findings = sum(1 for f in findings if f.lang == SOURCE_LANG)
        print(f"  checks: fired/run; our findings in the total include {source_findings} on the English "
              f"sources (model checks), reported once")
        if warned:
            print(f"  pofilter printed {warned} warnings (silenced)")

        with quiet():
            pf_peak = traced_peak(lambda: [pofilter_run(p, lang, out_dir) for lang, p in paths.items()])
        our_peak = traced_peak(lambda: ours_run(corpus, list(LANGS)))
    # The passes above follow a warm-up in one process, where our memos of what a text says are
    # already full; a user's command starts with them empty. So each tool also runs alone in new
    # processes: the figures a user meets.
    runs = fresh(corpus, args.repeat)
    pf_best, pf_median = min(runs["pofilter"]), statistics.median(runs["pofilter"])
    labels = {"first": "first run", "first-jobs-1": "--jobs 1", "again": "again"}
    print(f"fresh: one pass over de, el, sr in a new process each, imports done first; {args.repeat} rounds "
          f"in turn; pofilter best {pf_best:.3f} s, median {pf_median:.3f} s")
    for which, label in labels.items():
        best, median = min(runs[which]), statistics.median(runs[which])
        print(f"  {label:<10} ours best {best:.3f} s (ratio {best / pf_best:.2f}), "
              f"median {median:.3f} s (ratio {median / pf_median:.2f}); {paired(runs[which], runs['pofilter'])}")
    print(f"  first run: no rule-fact results kept, catalogs checked in up to {os.cpu_count()} worker processes "
          "(a catalog left over in two parts, read ahead by a helper with the embedded models); "
          "--jobs 1: the same in one process; again: with the results the run before kept "
          "(generator/check/cachefiles.py)")
    whole = commands(corpus, args.repeat)
    pf_best, pf_median = min(whole["pofilter"]), statistics.median(whole["pofilter"])
    print(f"commands: the whole commands, each a new process from start to exit; {args.repeat} rounds in turn; "
          f"pofilter (one command per catalog) best {pf_best:.3f} s, median {pf_median:.3f} s")
    for which, label in (("first", "first run"), ("again", "again")):
        best, median = min(whole[which]), statistics.median(whole[which])
        print(f"  {label:<10} patiencebook check --lang de --lang el --lang sr: best {best:.3f} s "
              f"(ratio {best / pf_best:.2f}), median {median:.3f} s (ratio {median / pf_median:.2f}); "
              f"{paired(whole[which], whole['pofilter'])}")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak Python memory (tracemalloc, one pass over all three): pofilter {pf_peak / 2**20:.1f} MiB, "
          f"ours {our_peak / 2**20:.1f} MiB; process peak RSS {rss / 1024:.1f} MiB")

    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(ours_run, corpus, list(LANGS))
        stats = pstats.Stats(profile, stream=sys.stdout)
        stats.sort_stats("cumulative").print_stats(25)
        stats.sort_stats("tottime").print_stats(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
