"""The whole AisleRiot manual in every language: GNOME's pipeline against `patiencebook build`.

GNOME's pipeline, per language: ``msgfmt`` (``msgfilter … recode-sr-latin`` first for sr@latin,
as GNOME derives it), ``itstool -m LANG.mo`` over the book and its pages, the figures copied, then
``yelp-build html``; English is ``yelp-build html`` on the sources. The languages run in parallel,
as many at once as this machine has cores (the same as our build), and also one after another.

Ours: ``patiencebook build --sources C --catalogs help`` (English and every catalog there: the
21 languages of the AisleRiot help), from scratch into an empty folder; then, on that site, the rebuild after one msgstr of the German
catalog changed (a different msgstr each time), and for comparison GNOME's redo of that one
language.

Peak memory is the largest sum of the resident set sizes of a pipeline's processes, sampled every
50 ms (psutil). Targets: full build ratio ours/GNOME at most 0.8; rebuild at most 0.2 of our full
build; peak memory under 2 GiB.

    .venv/bin/python benchmarks/build.py [--runs N] [--edits N]

Needs ``itstool``, ``gettext`` and ``yelp-tools`` (Debian) and psutil (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HELP = ROOT.parent / "shared" / "corpus" / "aisleriot" / "help"
#: Every language the AisleRiot help is translated into (a folder with its catalog), and English.
LANGS = sorted(p.parent.name for p in HELP.glob("*/*.po") if p.stem == p.parent.name)
TARGET_FULL, TARGET_REBUILD, TARGET_PEAK = 0.8, 0.2, 2 * (1 << 30)
TOOLS = {"itstool": "itstool", "msgfmt": "gettext", "msgfilter": "gettext", "yelp-build": "yelp-tools"}
GIB = 1 << 30


class PeakMemory:
    """Samples the summed RSS of a process and all its descendants until stopped (bytes)."""

    def __init__(self, pid: int, every: float = 0.05) -> None:
        import psutil

        self._psutil = psutil
        self.root = psutil.Process(pid)
        self.peak = 0
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            total = 0
            try:
                procs = [self.root] + self.root.children(recursive=True)
            except self._psutil.Error:
                procs = []
            for proc in procs:
                try:
                    total += proc.memory_info().rss
                except self._psutil.Error:
                    pass
            self.peak = max(self.peak, total)
            self._stop.wait(self.every)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


def run(argv: list[str], **kwargs) -> tuple[float, int]:
    """Run a command; (wall seconds, peak RSS of its process tree). Exits on failure."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)
    meter = PeakMemory(proc.pid)
    _, err = proc.communicate()
    peak = meter.stop()
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(map(str, argv))}\n{err.decode(errors='replace')[-2000:]}")
    return seconds, peak


def gnome_language(lang: str, help_dir: Path, work: Path) -> list[list[str]]:
    """The commands GNOME's pipeline runs for ``lang`` (English: only yelp-build on the sources)."""
    sources = help_dir / "C"
    html = work / "html" / lang
    if lang == "en":
        return [["yelp-build", "html", "-o", f"{html}/", str(sources / "index.docbook")]]
    catalog = help_dir / lang / f"{lang}.po"
    cmds = []
    if lang == "sr@latin":
        derived = work / "sr@latin.po"
        cmds.append(["msgfilter", "-i", str(help_dir / "sr" / "sr.po"), "-o", str(derived), "recode-sr-latin"])
        catalog = derived
    mo = work / f"{lang}.mo"
    translated = work / "xml" / lang
    pages = sorted(str(p) for p in sources.glob("*.xml"))
    cmds += [["msgfmt", "-o", str(mo), str(catalog)],
             ["itstool", "-m", str(mo), "-o", f"{translated}/", str(sources / "index.docbook"), *pages],
             ["cp", "-r", str(sources / "figures"), f"{translated}/"],
             ["yelp-build", "html", "-o", f"{html}/", str(translated / "index.docbook")]]
    return cmds


def gnome_build(help_dir: Path, work: Path, langs: list[str], parallel: int) -> tuple[float, int]:
    """GNOME's pipeline for ``langs``, ``parallel`` languages at once; (seconds, peak bytes)."""
    shutil.rmtree(work, ignore_errors=True)
    for lang in langs:
        (work / "html" / lang).mkdir(parents=True)
        (work / "xml" / lang).mkdir(parents=True)
    script = work / "pipeline.sh"
    lines = ["set -e"]
    for lang in langs:
        lines.append("(" + " && ".join(" ".join(_quote(a) for a in cmd) for cmd in gnome_language(lang, help_dir, work))
                     + f") > {_quote(str(work / (lang + '.log')))} 2>&1")
    # xargs runs the per-language lines `parallel` at a time, one shell per language.
    per_lang = work / "languages.txt"
    per_lang.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    script.write_text(f"xargs -d '\\n' -P {parallel} -I CMD sh -c CMD < {_quote(str(per_lang))}\n", encoding="utf-8")
    seconds, peak = run(["sh", str(script)])
    for lang in langs:
        if not any((work / "html" / lang).glob("*.html")):
            sys.exit(f"GNOME's pipeline wrote no page for {lang}; see {work / (lang + '.log')}")
    return seconds, peak


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def ours(sources: Path, catalogs: Path, out: Path, fresh: bool = False) -> tuple[float, int]:
    argv = [sys.executable, "-m", "patiencebook.generator.cli", "build", "--sources", str(sources),
            "--catalogs", str(catalogs), "--out", str(out), "--progress", "none"]
    return run(argv + (["--fresh"] if fresh else []))


def shown_msgstrs(catalog: Path, pages: Path) -> list[str]:
    """One-line msgstrs of translated, not fuzzy units of ``catalog`` that the built German pages
    in ``pages`` show as the whole text of an element (the ones an edit must visibly change)."""
    from babel.messages.pofile import read_po

    with catalog.open("rb") as handle:
        units = read_po(handle)
    html = "\n".join(p.read_text(encoding="utf-8") for p in sorted(pages.glob("*.html")))
    text = catalog.read_text(encoding="utf-8")
    return [m.string for m in units if m.id and isinstance(m.string, str) and not m.fuzzy
            and len(m.string) >= 20 and re.fullmatch(r"[^<>&\"'\\\n]+", m.string)
            and text.count(f'msgstr "{m.string}"\n') == 1 and f">{m.string}<" in html]


def edit_one_msgstr(catalog: Path, candidates: list[str], n: int) -> str:
    """Change the ``n``-th of ``candidates`` in ``catalog`` (appends a marker); returns the new text."""
    old = candidates[(n * 37) % len(candidates)]
    new = f"{old} (Änderung {n})"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(text.replace(f'msgstr "{old}"\n', f'msgstr "{new}"\n', 1), encoding="utf-8")
    return new


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="full builds of each pipeline (median)")
    parser.add_argument("--edits", type=int, default=5, help="rebuilds after one msgstr edit (median)")
    args = parser.parse_args()
    missing = sorted({pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None})
    if missing:
        sys.exit(f"missing tools: apt-get install {' '.join(missing)}")
    try:
        import psutil  # noqa: F401
    except ImportError:
        sys.exit("psutil is missing: .venv/bin/pip install -e '.[bench]'")
    if not (HELP / "C" / "index.docbook").is_file():
        sys.exit(f"AisleRiot corpus not found at {HELP}")
    cores = os.cpu_count() or 1
    langs = ["en"] + LANGS
    pages = len(list((HELP / "C").glob("*.xml")))
    print(f"AisleRiot manual: index.docbook + {pages} pages, languages {' '.join(langs)}; {cores} cores; "
          f"median of {args.runs} full builds, {args.edits} rebuilds")

    with tempfile.TemporaryDirectory(prefix="pb-bench-build-") as tmp:
        tmp = Path(tmp)
        help_dir = tmp / "help"
        shutil.copytree(HELP, help_dir)
        for path in help_dir.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)

        gnome_par = [gnome_build(help_dir, tmp / "gnome", langs, cores) for _ in range(args.runs)]
        gnome_ser = [gnome_build(help_dir, tmp / "gnome", langs, 1) for _ in range(args.runs)]
        gnome_pages = len(list((tmp / "gnome" / "html" / "de").glob("*.html")))
        full = []
        for _ in range(args.runs):
            shutil.rmtree(tmp / "site", ignore_errors=True)
            full.append(ours(help_dir / "C", help_dir, tmp / "site"))
        our_pages = len(list((tmp / "site" / "de").glob("*.html")))

        catalog = help_dir / "de" / "de.po"
        rebuilds, gnome_redo = [], []
        ours(help_dir / "C", help_dir, tmp / "site", fresh=True)  # the site's cache now lies where it stays
        candidates = shown_msgstrs(catalog, tmp / "site" / "de")
        for n in range(args.edits):
            new = edit_one_msgstr(catalog, candidates, n)
            rebuilds.append(ours(help_dir / "C", help_dir, tmp / "site"))
            shown = any(new in p.read_text(encoding="utf-8") for p in (tmp / "site" / "de").glob("*.html"))
            if not shown:
                sys.exit(f"the rebuild does not show the edited msgstr {new!r}")
            gnome_redo.append(gnome_build(help_dir, tmp / "gnome-de", ["de"], 1))

    def med(pairs, i=0):
        return statistics.median(p[i] for p in pairs)

    g_par, g_ser, our_full = med(gnome_par), med(gnome_ser), med(full)
    our_re, g_re = med(rebuilds), med(gnome_redo)
    peak_ours = max(p[1] for p in full + rebuilds)
    peak_gnome = max(p[1] for p in gnome_par + gnome_ser)
    ratio_full = our_full / g_par
    ratio_re = our_re / our_full
    print(f"pages per language: GNOME {gnome_pages}, ours {our_pages} (ours adds the index of games, the "
          f"translation report and search)")
    print("full build, all languages")
    print(f"  GNOME (itstool -m + yelp-build html), {cores} at once: {g_par:7.2f} s")
    print(f"  GNOME, one language after another:        {g_ser:7.2f} s")
    print(f"  patiencebook build:                       {our_full:7.2f} s")
    print(f"  ratio ours / GNOME ({cores} at once) = {ratio_full:.2f}; ours / GNOME one at a time = "
          f"{our_full / g_ser:.2f}   target <= {TARGET_FULL}: {'met' if ratio_full <= TARGET_FULL else 'NOT met'}")
    print("rebuild after one msgstr edit (de)")
    print(f"  patiencebook build:                       {our_re:7.2f} s  (min {min(r[0] for r in rebuilds):.2f}, "
          f"max {max(r[0] for r in rebuilds):.2f})")
    print(f"  GNOME, the de pipeline again:             {g_re:7.2f} s")
    print(f"  ratio ours rebuild / ours full = {ratio_re:.2f}   target <= {TARGET_REBUILD}: "
          f"{'met' if ratio_re <= TARGET_REBUILD else 'NOT met'}")
    print("peak memory (sum of the process tree's RSS)")
    print(f"  patiencebook build: {peak_ours / (1 << 20):7.0f} MiB   GNOME: {peak_gnome / (1 << 20):7.0f} MiB   "
          f"target < {TARGET_PEAK >> 20} MiB: {'met' if peak_ours < TARGET_PEAK else 'NOT met'}")
    return 0 if ratio_full <= TARGET_FULL and ratio_re <= TARGET_REBUILD and peak_ours < TARGET_PEAK else 1


if __name__ == "__main__":
    sys.exit(main())
