"""How many seeded rule errors the rule-fact checker catches in our German, Greek and Serbian help, or in AisleRiot's.

Our catalogs ``locales/{de,el,sr}/LC_MESSAGES/help.po`` are taken to be correct. Each is mutated with
the operators of ``benchmarks/data/mutations/<lang>.json``: small edits that a translator could make
and that change a rule a player would follow ("sieben" made "acht", "Talon" made "Ablagestapel",
"absteigend" made "aufsteigend", a dropped "nicht" or "nur", a number one higher), one list per
category of ``CATEGORIES`` (the file's ``_about`` describes the keys). Every place in a msgstr where
an operator applies gives one mutant with that one change only; markup (``<...>``) is never touched.
The header, fuzzy and untranslated units and the translator credits (msgctxt ``_``) are left out.

Each mutant goes through ``check_facts(msgid, mutated msgstr, lang, context)``, with the unit's
context as ``patiencebook check`` builds it. A mutant is *caught* when it
gets at least one finding of severity ``error`` or ``warning`` (compared by check, severity and
message) that the unmutated unit does not get. Every untouched unit is checked too: it is *flagged*
when it gets any ``error`` or ``warning``, a false alarm, since the catalogs are correct. Run from
the repository root:

    .venv/bin/python benchmarks/check_mutants.py [--lang de] [--show] [--json]
    .venv/bin/python benchmarks/check_mutants.py --show --lang el --category negation

Targets: at least 90 % of the mutants caught, at most 1 % of the untouched units flagged. The exit
status is 0 whatever the figures; 1, with one line naming the file, when a catalog or an operator
file is broken or ``check_facts`` does not import.

``--corpus`` mutates real translations instead: GNOME AisleRiot's help catalogs
(``../shared/corpus/aisleriot/help/<lang>/<lang>.po``, English sources in its ``C/``), in every
language of ``CORPUS_LANGS`` (de, el, sr and fr, es, ru, uk, ca, cs, hu, sv), each unit with the
context ``patiencebook check`` gives it for those sources. Only the units that were clean are
mutated: confirmed, translated, neither the credits nor the front matter or legal notice (the
context's role ``other``), and without an ``error`` or ``warning`` rule finding of their own; a
mutant is caught when it gets one. A unit the sources no longer hold is checked without a context,
as there. A language the checker has no lexicon for gets no rule checks (as in ``patiencebook
check``): its mutants are counted and none is caught. When a category gives more than
``--max-per-category`` mutants in a language (400 unless told; 0 for all), that many are drawn
with a fixed seed (``--seed``) and the output marks the category. ``--list-mutants`` only counts
the mutants each category yields per language (with ``--corpus`` on the clean AisleRiot units,
without it on our catalogs), ``--examples N`` shows N of them per category and ``--show`` the
operators that apply nowhere:

    .venv/bin/python benchmarks/check_mutants.py --corpus [--lang de] [--max-per-category 0] [--json]
    .venv/bin/python benchmarks/check_mutants.py --corpus --list-mutants --lang fr --examples 3
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

LOCALES = REPO_ROOT / "locales"
OPERATORS = Path(__file__).resolve().parent / "data" / "mutations"
LANGS = ("de", "el", "sr")
#: GNOME AisleRiot's help: the sources in ``C/``, a catalog ``<lang>/<lang>.po`` per language.
CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "aisleriot" / "help"
#: The languages ``--corpus`` mutates: those with an operator file.
CORPUS_LANGS = ("de", "el", "sr", "fr", "es", "ru", "uk", "ca", "cs", "hu", "sv")
#: ``--corpus``: the most mutants checked per language and category, and the seed they are drawn with.
MAX_PER_CATEGORY, SEED = 400, 1
#: The mutation categories, in the order they are reported. A mutant that two operators make alike
#: (the same unit, the same mutated text) is counted once, under the first category.
CATEGORIES = ("number-digits", "number-words", "rank", "pile", "suit-colour", "direction", "face",
              "redeal", "at-a-time", "side", "comparator", "negation", "only")
TARGET_CAUGHT, TARGET_FLAGGED = 0.90, 0.01
COUNTED = ("error", "warning")

_MARKUP = re.compile(r"<[^>]*>")
_OPERATOR_KEYS = {"find", "delete", "replace", "digits", "after", "not_after", "before", "not_before",
                  "case", "note"}
_CONTEXT_KEYS = ("after", "not_after", "before", "not_before")


class InputError(Exception):
    """A catalog or an operator file that cannot be used; the message names the file."""


@dataclass(frozen=True)
class Unit:
    line: int
    context: str
    msgid: str
    msgstr: str


@dataclass(frozen=True)
class Operator:
    """One mutation operator of one category, compiled from its JSON object."""

    category: str
    index: int
    label: str                  # "sieben -> acht", "nicht -> (dropped)", "digits +1"
    find: re.Pattern | None     # None for a digits operator
    replace: str
    delta: int                  # digits operators: the number added
    after: re.Pattern | None
    not_after: re.Pattern | None
    before: re.Pattern | None
    not_before: re.Pattern | None


@dataclass(frozen=True)
class Mutant:
    category: str
    operator: Operator
    unit: Unit
    start: int
    end: int
    old: str
    new: str
    text: str


# ---------------------------------------------------------------------------------------------------
# Inputs


def load_units(lang: str) -> list[Unit]:
    """The confirmed translated units of our ``lang`` catalog, sorted by msgid and msgctxt."""
    from patiencebook.generator.catalogs import read_catalog
    from patiencebook.generator.errors import PatienceBookError

    path = LOCALES / lang / "LC_MESSAGES" / "help.po"
    try:
        catalog = read_catalog(path)
    except (OSError, PatienceBookError) as error:
        message = str(error)  # the catalog reader's messages already name the file
        raise InputError(message if message.startswith(str(path)) else f"{path}: {message}") from None
    units = []
    for message in catalog:
        if not message.id or message.fuzzy or message.context == "_":
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        msgstr = message.string if isinstance(message.string, str) else (message.string or ("",))[0]
        if msgstr and msgstr.strip():
            units.append(Unit(message.lineno, message.context or "", msgid, msgstr))
    if not units:
        raise InputError(f"{path}: no translated unit")
    return sorted(units, key=lambda u: (u.msgid, u.context, u.line))


def corpus_units(catalog) -> list[Unit]:
    """The confirmed translated units of an AisleRiot catalog, the credits left out, sorted by msgid
    and msgctxt."""
    units = []
    for message in catalog:
        if not message.id or message.fuzzy or message.context == "_" or message.id == "translator-credits":
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        msgstr = message.string if isinstance(message.string, str) else (message.string or ("",))[0]
        if msgstr and msgstr.strip():
            units.append(Unit(message.lineno, message.context or "", msgid, msgstr))
    return sorted(units, key=lambda u: (u.msgid, u.context, u.line))


def _read_corpus_catalog(corpus: Path, lang: str):
    from patiencebook.generator.catalogs import read_catalog
    from patiencebook.generator.errors import PatienceBookError

    path = corpus / lang / f"{lang}.po"
    try:
        return read_catalog(path)
    except (OSError, PatienceBookError) as error:
        message = str(error)
        raise InputError(message if message.startswith(str(path)) else f"{path}: {message}") from None


def _word_pattern(text: str, exact: bool) -> re.Pattern:
    """A word or phrase matched on word boundaries; a space in it matches any run of white space."""
    body = r"\s+".join(re.escape(part) for part in text.split())
    return re.compile(rf"(?<!\w){body}(?!\w)", 0 if exact else re.IGNORECASE)


def load_operators(lang: str) -> dict[str, list[Operator]]:
    """The compiled operators of ``benchmarks/data/mutations/<lang>.json``, by category."""
    path = OPERATORS / f"{lang}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: {error}") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a JSON object of categories")
    unknown = sorted(k for k in data if k not in CATEGORIES and not k.startswith("_"))
    missing = [c for c in CATEGORIES if c not in data]
    if unknown or missing:
        what = [f"unknown categories {', '.join(unknown)}"] * bool(unknown) + \
               [f"missing categories {', '.join(missing)}"] * bool(missing)
        raise InputError(f"{path}: {'; '.join(what)}")
    out: dict[str, list[Operator]] = {}
    for category in CATEGORIES:
        if not isinstance(data[category], list):
            raise InputError(f"{path}: {category}: not a list of operators")
        ops, seen = [], set()
        for index, raw in enumerate(data[category]):
            where = f"{path}: {category}[{index}]"
            op = _compile(raw, category, index, where)
            key = json.dumps({k: v for k, v in raw.items() if k != "note"}, sort_keys=True,
                             ensure_ascii=False)
            if key in seen:
                raise InputError(f"{where}: the same operator twice")
            seen.add(key)
            ops.append(op)
        out[category] = ops
    return out


def _compile(raw, category: str, index: int, where: str) -> Operator:
    if not isinstance(raw, dict) or not raw:
        raise InputError(f"{where}: not an operator object")
    extra = sorted(set(raw) - _OPERATOR_KEYS)
    if extra:
        raise InputError(f"{where}: unknown keys {extra}")
    kinds = [k for k in ("find", "delete", "digits") if k in raw]
    if len(kinds) != 1:
        raise InputError(f"{where}: give exactly one of find, delete, digits")
    contexts = {}
    for key in _CONTEXT_KEYS:
        value = raw.get(key)
        if value is None:
            contexts[key] = None
            continue
        if not isinstance(value, str) or not value:
            raise InputError(f"{where}: {key} is not a regular expression")
        try:
            re.compile(value)
            # after / not_after are tested against the text before the match, before / not_before
            # against the text after it; they are case-sensitive unless they say (?i).
            contexts[key] = re.compile(f"(?:{value})$" if "after" in key else f"(?:{value})")
        except re.error as error:
            raise InputError(f"{where}: {key}: {error}") from None
    case = raw.get("case", "any")
    if case not in ("any", "exact"):
        raise InputError(f"{where}: case is 'any' or 'exact'")
    if "digits" in raw:
        match = re.fullmatch(r"([+-])(\d+)", str(raw["digits"]))
        if not match or int(match.group(2)) == 0 or "replace" in raw:
            raise InputError(f"{where}: digits is '+N' or '-N' (N > 0), without replace")
        delta = int(match.group(2)) * (1 if match.group(1) == "+" else -1)
        return Operator(category, index, f"digits {raw['digits']}", None, "", delta, **contexts)
    if "delete" in raw:
        if "replace" in raw:
            raise InputError(f"{where}: delete takes no replace")
        find, replace = raw["delete"], ""
    else:
        find, replace = raw["find"], raw.get("replace")
        if not isinstance(replace, str) or not replace.strip():
            raise InputError(f"{where}: find needs a replace (use delete to drop a word)")
    if not isinstance(find, str) or not find.strip() or _MARKUP.search(find):
        raise InputError(f"{where}: find / delete is not a word or phrase")
    if " ".join(find.split()).casefold() == " ".join(replace.split()).casefold():
        raise InputError(f"{where}: {find!r} -> {replace!r} changes nothing")
    label = f"{find} -> {replace}" if replace else f"{find} -> (dropped)"
    return Operator(category, index, label, _word_pattern(find, case == "exact"), replace, 0,
                    **contexts)


# ---------------------------------------------------------------------------------------------------
# Mutants

_NUMBER = re.compile(r"(?<![\w.,])\d+(?![\w]|[.,]\d)")


def _in_context(op: Operator, text: str, start: int, end: int) -> bool:
    head, tail = text[:start], text[end:]
    if op.after and not op.after.search(head):
        return False
    if op.not_after and op.not_after.search(head):
        return False
    if op.before and not op.before.match(tail):
        return False
    if op.not_before and op.not_before.match(tail):
        return False
    return True


def _apply(op: Operator, text: str, start: int, end: int) -> tuple[int, int, str]:
    """``(start, end, new text)`` of the edit ``op`` makes on ``text[start:end]``."""
    old = text[start:end]
    if op.find is None:
        return start, end, str(int(old) + op.delta)
    new = op.replace
    if new:
        if old[:1].isupper():
            new = new[:1].upper() + new[1:]
        return start, end, new
    # A dropped word takes one neighbouring space with it; a dropped first word of a sentence
    # passes its capital on to the next word.
    if end < len(text) and text[end] == " ":
        end += 1
    elif start > 0 and text[start - 1] == " ":
        start -= 1
    if old[:1].isupper() and end < len(text) and text[end].islower():
        return start, end + 1, text[end].upper()
    return start, end, ""


def mutants_of(unit: Unit, operators: dict[str, list[Operator]]) -> list[Mutant]:
    """Every mutant of ``unit``: one per operator and place it applies, each made once (under the
    first category that makes it)."""
    text = unit.msgstr
    markup = [m.span() for m in _MARKUP.finditer(text)]
    seen: set[str] = set()
    out = []
    for category in CATEGORIES:
        for op in operators[category]:
            pattern = op.find or _NUMBER
            for match in pattern.finditer(text):
                start, end = match.span()
                if any(s < end and start < e for s, e in markup):
                    continue
                if not _in_context(op, text, start, end):
                    continue
                if op.find is None and int(match.group()) + op.delta < 0:
                    continue
                s, e, new = _apply(op, text, start, end)
                mutated = text[:s] + new + text[e:]
                if mutated == text or mutated in seen:
                    continue
                seen.add(mutated)
                out.append(Mutant(category, op, unit, start, end, match.group(), new, mutated))
    return out


# ---------------------------------------------------------------------------------------------------
# Checking


def _counted(findings) -> Counter:
    """The error and warning findings as (check, severity, message), spans left out."""
    out = Counter()
    for f in findings:
        if len(f) >= 2 and f[1] in COUNTED:
            out[(f[0], f[1], f[2] if len(f) > 2 and isinstance(f[2], str) else None)] += 1
    return out


class Checker:
    """``check_facts`` with its failures counted instead of raised (one failure is kept to show)."""

    def __init__(self):
        from patiencebook.generator.check.facts import check_facts

        self._check = check_facts
        self.calls = 0
        self.failures = 0
        self.first_failure = ""

    def __call__(self, msgid: str, msgstr: str, lang: str, context=None) -> Counter | None:
        self.calls += 1
        try:
            return _counted(self._check(msgid, msgstr, lang, context))
        except Exception as error:  # noqa: BLE001 - the checker is being measured, not trusted
            self.failures += 1
            if not self.first_failure:
                self.first_failure = f"{lang} {msgid[:50]!r}: {type(error).__name__}: {error}"
            return None


def _contexts(langs) -> dict:
    """Per language, each unit's context as ``patiencebook check`` gives it (role, names, page model,
    the catalog's lexicon): the mutants are checked as a translator's catalog would be."""
    from patiencebook.generator.catalogs import read_catalog
    from patiencebook.generator.check.context import checked_contexts
    from patiencebook.generator.docbook.sources import load_document

    document = load_document(REPO_ROOT / "rules")
    return {lang: checked_contexts(document, read_catalog(LOCALES / lang / "LC_MESSAGES" / "help.po"), lang,
                                   LOCALES) for lang in langs}


def run(langs, categories, checker: Checker) -> dict:
    """The figures for ``langs``: per category, the mutants and those caught; the untouched units and
    those flagged; the missed mutants."""
    inputs = {lang: (load_units(lang), load_operators(lang)) for lang in langs}  # all read before any run
    figures = {}
    contexts_of = _contexts(langs)
    for lang, (units, operators) in inputs.items():
        contexts = contexts_of.get(lang, {})
        per = {c: {"operators": len(operators[c]), "mutants": 0, "caught": 0, "caught_by": Counter()}
               for c in categories}
        missed, flagged = [], 0
        for unit in units:
            context = contexts.get((unit.context or None, unit.msgid))
            base = checker(unit.msgid, unit.msgstr, lang, context)
            if base is None:
                base = Counter()
            elif base:
                flagged += 1
            for mutant in mutants_of(unit, operators):
                if mutant.category not in per:
                    continue
                row = per[mutant.category]
                row["mutants"] += 1
                found = checker(unit.msgid, mutant.text, lang, context)
                new = (found or Counter()) - base
                if new:
                    row["caught"] += 1
                    row["caught_by"].update({check for check, _, _ in new})
                else:
                    missed.append(mutant)
        figures[lang] = {"categories": per, "units": len(units), "flagged": flagged, "missed": missed}
    return figures


# ---------------------------------------------------------------------------------------------------
# The AisleRiot corpus


@dataclass(frozen=True)
class CorpusLanguage:
    """What ``--corpus`` needs of one language, all read before any check runs."""

    lang: str
    units: list[Unit]               # confirmed, translated, neither credits nor front matter nor legal text
    operators: dict[str, list[Operator]]
    contexts: dict                  # (msgctxt or None, msgid) -> UnitContext, as patiencebook check gives it
    rule_checks: bool               # False: the checker has no lexicon for the language
    skipped: str | None             # why there are no rule checks
    other: int = 0                  # units left out as front matter or legal text (context role "other")


def corpus_inputs(langs, corpus: Path = CORPUS) -> dict[str, CorpusLanguage]:
    """The AisleRiot catalogs of ``langs`` with their operators and unit contexts.

    The contexts are built as ``patiencebook check`` builds them (generator/check/run.py): the
    sources of ``corpus/C`` with the embedded models of the games attached, and the rule facts read
    through the terms each catalog's glossary agrees on. A language without a lexicon gets no rule
    checks, as there. Besides the credits, the units whose context says they state no rule (role
    ``other``: the front matter and the legal notice) are left out.
    """
    from patiencebook.generator.check.context import checked_contexts
    from patiencebook.generator.check.run import _facts_for
    from patiencebook.generator.check.terminology import load_glossary
    from patiencebook.generator.docbook.enginemodels import attach_engine_models
    from patiencebook.generator.docbook.sources import load_document
    from patiencebook.generator.errors import PatienceBookError

    sources = Path(corpus) / "C"
    if not (sources / "index.docbook").is_file():
        raise InputError(f"{sources}: no index.docbook (the AisleRiot help is expected in {CORPUS})")
    operators = {lang: load_operators(lang) for lang in langs}
    catalogs = {lang: _read_corpus_catalog(Path(corpus), lang) for lang in langs}
    try:
        document = load_document(sources)
    except (OSError, PatienceBookError) as error:
        raise InputError(f"{sources}: {error}") from None
    attach_engine_models(document)
    out = {}
    for lang in langs:
        facts, skipped = _facts_for(lang)
        if facts is None and skipped is None:
            skipped = "check_facts is not there"
        concepts = load_glossary(document, catalogs[lang], lang, Path(corpus))
        contexts = checked_contexts(document, catalogs[lang], lang, Path(corpus), concepts)
        units, other = [], 0
        for unit in corpus_units(catalogs[lang]):
            context = contexts.get((unit.context or None, unit.msgid))
            if context is not None and context.role == "other":
                other += 1
            else:
                units.append(unit)
        out[lang] = CorpusLanguage(lang, units, operators[lang], contexts, facts is not None, skipped, other)
    return out


def clean_units(data: CorpusLanguage, checker) -> tuple[list[Unit], int, int]:
    """``(clean units, units with a rule finding of their own, units the checker raised on)``: a unit
    is clean when ``checker`` gives it no ``error`` or ``warning``. Without rule checks every unit is
    clean."""
    if not data.rule_checks:
        return list(data.units), 0, 0
    clean, flagged, failed = [], 0, 0
    for unit in data.units:
        found = checker(unit.msgid, unit.msgstr, data.lang, data.contexts.get((unit.context or None, unit.msgid)))
        if found is None:
            failed += 1
        elif found:
            flagged += 1
        else:
            clean.append(unit)
    return clean, flagged, failed


def mutants_by_category(units, operators, categories) -> dict[str, list[Mutant]]:
    by = {c: [] for c in categories}
    for unit in units:
        for mutant in mutants_of(unit, operators):
            if mutant.category in by:
                by[mutant.category].append(mutant)
    return by


def drawn(mutants: list[Mutant], limit: int | None, seed: int, lang: str, category: str) -> list[Mutant]:
    """At most ``limit`` of ``mutants``, in their order, drawn with a seed of their own per language
    and category (so a draw does not change with the other languages or categories asked for)."""
    if not limit or len(mutants) <= limit:
        return list(mutants)
    rng = random.Random(f"{seed}/{lang}/{category}")
    return [mutants[i] for i in sorted(rng.sample(range(len(mutants)), limit))]


def run_corpus(inputs: dict[str, CorpusLanguage], categories, checker, limit: int | None = MAX_PER_CATEGORY,
               seed: int = SEED) -> dict:
    """The figures of ``--corpus``: per language and category the mutants of the clean units (all of
    them, ``available``, and those checked, ``mutants``) and those caught; the units and the clean
    ones; the missed mutants."""
    figures = {}
    for lang, data in inputs.items():
        clean, flagged, failed = clean_units(data, checker)
        pools = mutants_by_category(clean, data.operators, categories)
        per, missed, mutated = {}, [], set()
        for category in categories:
            chosen = drawn(pools[category], limit, seed, lang, category)
            row = {"operators": len(data.operators[category]), "available": len(pools[category]),
                   "mutants": len(chosen), "caught": 0, "caught_by": Counter()}
            for mutant in chosen:
                mutated.add((mutant.unit.context, mutant.unit.msgid))
                if not data.rule_checks:
                    continue
                context = data.contexts.get((mutant.unit.context or None, mutant.unit.msgid))
                found = checker(mutant.unit.msgid, mutant.text, lang, context)
                if found:  # the unit had none of its own
                    row["caught"] += 1
                    row["caught_by"].update({check for check, _, _ in found})
                else:
                    missed.append(mutant)
            per[category] = row
        figures[lang] = {"categories": per, "units": len(data.units), "clean": len(clean), "flagged": flagged,
                         "failed": failed, "mutated": len(mutated), "rule_checks": data.rule_checks,
                         "skipped": data.skipped, "other": data.other, "missed": missed}
    return figures


# ---------------------------------------------------------------------------------------------------
# Report


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f} %"


def _excerpt(text: str, start: int, end: int, new: str, width: int = 40) -> str:
    """The change in its context: ``...words [old => new] words...``."""
    head = text[max(0, start - width):start]
    tail = text[end:end + width]
    head = ("…" if start > width else "") + head
    tail = tail + ("…" if end + width < len(text) else "")
    return f"{head}[{text[start:end]} => {new}]{tail}".replace("\n", " ")


def print_table(figures: dict, categories, seconds: float, checker: Checker) -> None:
    print(f"rule-fact checker (check_facts) on mutants of our catalogs (locales/<lang>/LC_MESSAGES/help.po); "
          f"{checker.calls} checks in {seconds:.1f} s")
    header = f"{'lang':<5}{'category':<15}{'ops':>5}{'mutants':>9}{'caught':>8}{'share':>9}"
    print(header)
    print("-" * len(header))
    all_mutants = all_caught = all_units = all_flagged = 0
    for lang, fig in figures.items():
        mutants = caught = 0
        for category in categories:
            row = fig["categories"][category]
            mutants += row["mutants"]
            caught += row["caught"]
            note = ""
            if not row["operators"]:
                note = "  (no operators)"
            elif not row["mutants"]:
                note = "  (none: no operator applies anywhere in the catalog)"
            share = _pct(_share(row["caught"], row["mutants"])) if row["mutants"] else "-"
            print(f"{lang:<5}{category:<15}{row['operators']:>5}{row['mutants']:>9}{row['caught']:>8}"
                  f"{share:>9}{note}")
        print(f"{lang:<5}{'total':<15}{'':>5}{mutants:>9}{caught:>8}{_pct(_share(caught, mutants)):>9}")
        print(f"{lang:<5}{'untouched':<15}{'':>5}{fig['units']:>9}{fig['flagged']:>8}"
              f"{_pct(_share(fig['flagged'], fig['units'])):>9}  flagged (false alarms)")
        print("-" * len(header))
        all_mutants += mutants
        all_caught += caught
        all_units += fig["units"]
        all_flagged += fig["flagged"]
    caught_share = _share(all_caught, all_mutants)
    flagged_share = _share(all_flagged, all_units)
    print(f"{'all':<5}{'total':<15}{'':>5}{all_mutants:>9}{all_caught:>8}{_pct(caught_share):>9}"
          f"  target >= {100 * TARGET_CAUGHT:.0f} % "
          f"({'met' if caught_share is not None and caught_share >= TARGET_CAUGHT else 'missed'})")
    print(f"{'all':<5}{'untouched':<15}{'':>5}{all_units:>9}{all_flagged:>8}{_pct(flagged_share):>9}"
          f"  target <= {100 * TARGET_FLAGGED:.0f} % "
          f"({'met' if flagged_share is not None and flagged_share <= TARGET_FLAGGED else 'missed'})")
    if checker.failures:
        print(f"check_facts raised {checker.failures} times (counted as no finding); first: "
              f"{checker.first_failure}")


def _shown(m: Mutant) -> str:
    """What a mutant puts in place of the matched text, as shown in the listing."""
    return "(dropped)" if m.operator.find is not None and not m.operator.replace else m.new


def _sorted_missed(missed: list[Mutant]) -> list[Mutant]:
    """The missed mutants by category (in report order), then by msgid, msgctxt and place."""
    order = {c: i for i, c in enumerate(CATEGORIES)}
    return sorted(missed, key=lambda m: (order[m.category], m.unit.msgid, m.unit.context, m.start, m.text))


def print_missed(figures: dict) -> None:
    for lang, fig in figures.items():
        print(f"\nmissed in {lang}: {len(fig['missed'])}")
        for m in _sorted_missed(fig["missed"]):
            print(f"  {lang} {m.category:<13} po line {m.unit.line:<5} {m.operator.label}")
            print(f"      msgid:  {m.unit.msgid[:100]!r}")
            print(f"      change: {_excerpt(m.unit.msgstr, m.start, m.end, _shown(m))}")


def as_json(figures: dict, categories, seconds: float, checker: Checker, show: bool) -> dict:
    out = {"seconds": round(seconds, 2), "checks": checker.calls, "checker_failures": checker.failures,
           "targets": {"caught_at_least": TARGET_CAUGHT, "flagged_at_most": TARGET_FLAGGED},
           "languages": {}}
    totals = Counter()
    for lang, fig in figures.items():
        per = {}
        for category in categories:
            row = fig["categories"][category]
            per[category] = {"operators": row["operators"], "mutants": row["mutants"], "caught": row["caught"],
                             "share": _share(row["caught"], row["mutants"]),
                             "caught_by": dict(sorted(row["caught_by"].items()))}
        mutants = sum(r["mutants"] for r in per.values())
        caught = sum(r["caught"] for r in per.values())
        entry = {"categories": per, "mutants": mutants, "caught": caught, "share": _share(caught, mutants),
                 "untouched": fig["units"], "flagged": fig["flagged"],
                 "flagged_share": _share(fig["flagged"], fig["units"])}
        if show:
            entry["missed"] = [{"category": m.category, "operator": m.operator.label, "po_line": m.unit.line,
                                "msgid": m.unit.msgid, "msgstr": m.unit.msgstr, "old": m.old, "new": _shown(m),
                                "mutated": m.text} for m in _sorted_missed(fig["missed"])]
        out["languages"][lang] = entry
        totals.update({"mutants": mutants, "caught": caught, "untouched": fig["units"],
                       "flagged": fig["flagged"]})
    out["total"] = {**{k: totals[k] for k in ("mutants", "caught", "untouched", "flagged")},
                    "share": _share(totals["caught"], totals["mutants"]),
                    "flagged_share": _share(totals["flagged"], totals["untouched"])}
    return out


def _corpus_notes(fig: dict) -> str:
    """``713 units (17 of front matter and legal text left out): 673 clean (40 with a rule finding of
    their own left out), 421 of them mutated``."""
    units = f"{fig['units']} confirmed translated units"
    if fig["other"]:
        units += f" ({fig['other']} of front matter and legal text left out)"
    dropped = [f"{fig['flagged']} with a rule finding of their own"] * bool(fig["flagged"]) + \
              [f"{fig['failed']} the checker raised on"] * bool(fig["failed"])
    clean = f"{fig['clean']} clean" + (f" ({', '.join(dropped)} left out)" if dropped else "")
    return f"{units}: {clean}, {fig['mutated']} of them mutated"


def print_corpus_table(figures: dict, categories, seconds: float, checker: Checker, corpus: Path,
                       limit: int | None, seed: int) -> None:
    print(f"rule-fact checker (check_facts) on mutants of GNOME AisleRiot's help catalogs "
          f"({corpus}/<lang>/<lang>.po), clean units only; {checker.calls} checks in {seconds:.1f} s")
    sampled = [(lang, c) for lang, fig in figures.items() for c in categories
               if fig["categories"][c]["mutants"] < fig["categories"][c]["available"]]
    if limit and sampled:
        print(f"sampled: at most {limit} mutants per language and category are checked, drawn with seed {seed} "
              f"({len(sampled)} language-categories marked *; 'of': the mutants the category gives)")
    elif limit:
        print(f"no category gives more than {limit} mutants (--max-per-category): none sampled")
    header = f"{'lang':<5}{'category':<15}{'ops':>5}{'of':>7}{'mutants':>9}{'caught':>8}{'share':>9}"
    print(header)
    print("-" * len(header))
    all_mutants = all_caught = 0
    for lang, fig in figures.items():
        mutants = caught = available = 0
        for category in categories:
            row = fig["categories"][category]
            mutants += row["mutants"]
            caught += row["caught"]
            available += row["available"]
            mark = "*" if row["mutants"] < row["available"] else ""
            note = ""
            if not row["operators"]:
                note = "  (no operators)"
            elif not row["available"]:
                note = "  (none: no operator applies to a clean unit)"
            share = _pct(_share(row["caught"], row["mutants"])) if row["mutants"] and fig["rule_checks"] else "-"
            print(f"{lang:<5}{category:<15}{row['operators']:>5}{row['available']:>7}{row['mutants']:>8}{mark:1}"
                  f"{row['caught']:>8}{share:>9}{note}")
        share = _pct(_share(caught, mutants)) if fig["rule_checks"] else "-"
        print(f"{lang:<5}{'total':<15}{'':>5}{available:>7}{mutants:>9}{caught:>8}{share:>9}")
        print(f"{lang:<5}units: {_corpus_notes(fig)}")
        if not fig["rule_checks"]:
            print(f"{lang:<5}no rule checks ({fig['skipped']}): its mutants are counted, none can be caught")
        print("-" * len(header))
        if fig["rule_checks"]:
            all_mutants += mutants
            all_caught += caught
    share = _share(all_caught, all_mutants)
    with_checks = [lang for lang, fig in figures.items() if fig["rule_checks"]]
    if with_checks:
        print(f"{'all':<5}{'total':<15}{'':>5}{'':>7}{all_mutants:>9}{all_caught:>8}{_pct(share):>9}"
              f"  languages with rule checks ({', '.join(with_checks)}); target >= {100 * TARGET_CAUGHT:.0f} % "
              f"({'met' if share is not None and share >= TARGET_CAUGHT else 'missed'})")
    if checker.failures:
        print(f"check_facts raised {checker.failures} times (counted as no finding); first: "
              f"{checker.first_failure}")


def corpus_json(figures: dict, categories, seconds: float, checker: Checker, show: bool, corpus: Path,
                limit: int | None, seed: int) -> dict:
    out = {"corpus": str(corpus), "seconds": round(seconds, 2), "checks": checker.calls,
           "checker_failures": checker.failures, "max_per_category": limit, "seed": seed,
           "targets": {"caught_at_least": TARGET_CAUGHT}, "languages": {}}
    totals = Counter()
    for lang, fig in figures.items():
        per = {}
        for category in categories:
            row = fig["categories"][category]
            per[category] = {"operators": row["operators"], "available": row["available"],
                             "mutants": row["mutants"], "caught": row["caught"],
                             "share": _share(row["caught"], row["mutants"]) if fig["rule_checks"] else None,
                             "caught_by": dict(sorted(row["caught_by"].items()))}
        mutants = sum(r["mutants"] for r in per.values())
        caught = sum(r["caught"] for r in per.values())
        entry = {"rule_checks": fig["rule_checks"], "skipped": fig["skipped"], "categories": per,
                 "available": sum(r["available"] for r in per.values()), "mutants": mutants, "caught": caught,
                 "share": _share(caught, mutants) if fig["rule_checks"] else None,
                 "units": fig["units"], "other": fig["other"], "clean": fig["clean"], "mutated": fig["mutated"],
                 "flagged": fig["flagged"], "failed": fig["failed"]}
        if show and fig["rule_checks"]:
            entry["missed"] = [{"category": m.category, "operator": m.operator.label, "po_line": m.unit.line,
                                "msgid": m.unit.msgid, "msgstr": m.unit.msgstr, "old": m.old, "new": _shown(m),
                                "mutated": m.text} for m in _sorted_missed(fig["missed"])]
        out["languages"][lang] = entry
        if fig["rule_checks"]:
            totals.update({"mutants": mutants, "caught": caught})
    out["total"] = {"mutants": totals["mutants"], "caught": totals["caught"],
                    "share": _share(totals["caught"], totals["mutants"])}
    return out


def list_mutants(langs, categories, checker: Checker, *, corpus: Path | None, examples: int, seed: int,
                 unused: bool) -> None:
    """How many mutants each category yields per language, on our catalogs (every unit, as the default
    mode mutates them) or on the AisleRiot ones (the clean units, as ``--corpus`` mutates them); with
    ``examples``, that many of them per category, drawn with ``seed``; with ``unused``, the operators
    that make no mutant."""
    if corpus is None:
        sets = {lang: (load_units(lang), load_operators(lang), "") for lang in langs}
        where = "our catalogs (locales/<lang>/LC_MESSAGES/help.po), every unit"
    else:
        sets = {}
        for lang, data in corpus_inputs(langs, corpus).items():
            clean, flagged, failed = clean_units(data, checker)
            note = f"{len(clean)} clean of {len(data.units)} units"
            if data.other:
                note += f" ({data.other} of front matter and legal text left out)"
            if not data.rule_checks:
                note += f" (no rule checks: {data.skipped})"
            sets[lang] = (clean, data.operators, note)
        where = f"AisleRiot's catalogs ({corpus}/<lang>/<lang>.po), clean units only"
    print(f"mutants each category yields on {where}")
    header = f"{'lang':<5}{'category':<15}{'ops':>5}{'applying':>9}{'mutants':>9}{'units':>7}"
    print(header)
    print("-" * len(header))
    for lang, (units, operators, note) in sets.items():
        by = mutants_by_category(units, operators, categories)
        total = 0
        for category in categories:
            mutants = by[category]
            total += len(mutants)
            applying = {m.operator.index for m in mutants}
            touched = {(m.unit.context, m.unit.msgid) for m in mutants}
            print(f"{lang:<5}{category:<15}{len(operators[category]):>5}{len(applying):>9}{len(mutants):>9}"
                  f"{len(touched):>7}")
        print(f"{lang:<5}{'total':<15}{'':>5}{'':>9}{total:>9}{'':>7}  {note}".rstrip())
        print("-" * len(header))
        for category in categories if examples else ():
            for m in drawn(by[category], examples, seed, lang, category):
                print(f"  {lang} {category:<13} po line {m.unit.line:<5} {m.operator.label}")
                print(f"      {_excerpt(m.unit.msgstr, m.start, m.end, _shown(m))}")
        if unused:
            for category in categories:
                used = {m.operator.index for m in by[category]}
                for op in operators[category]:
                    if op.index not in used:
                        print(f"  {lang} {category:<13} applies nowhere: {op.label}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", action="append", choices=CORPUS_LANGS,
                        help="only this language (repeatable); without --corpus one of " + ", ".join(LANGS))
    parser.add_argument("--category", action="append", choices=CATEGORIES,
                        help="only this mutation category (repeatable)")
    parser.add_argument("--show", action="store_true", help="also list each missed mutant "
                        "(with --list-mutants: the operators that apply nowhere)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--corpus", nargs="?", const=CORPUS, type=Path, metavar="DIR",
                        help="mutate the clean units of GNOME AisleRiot's help catalogs instead of ours "
                             f"(DIR: the help folder, default {CORPUS})")
    parser.add_argument("--max-per-category", type=int, default=MAX_PER_CATEGORY, metavar="N",
                        help=f"--corpus: check at most N mutants per language and category, drawn with "
                             f"--seed (default {MAX_PER_CATEGORY}; 0: all)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the seed of the draws (default {SEED})")
    parser.add_argument("--list-mutants", action="store_true",
                        help="only count the mutants each category yields per language")
    parser.add_argument("--examples", type=int, default=0, metavar="N",
                        help="--list-mutants: also show N mutants per category, drawn with --seed")
    args = parser.parse_args(argv)
    known = CORPUS_LANGS if args.corpus is not None else LANGS
    if args.corpus is None and any(lang not in LANGS for lang in args.lang or ()):
        parser.error(f"without --corpus, --lang is one of {', '.join(LANGS)}")
    if args.max_per_category < 0 or args.examples < 0:
        parser.error("--max-per-category and --examples take a number from 0")
    langs = [lang for lang in known if lang in (args.lang or known)]
    categories = [c for c in CATEGORIES if c in (args.category or CATEGORIES)]
    try:
        checker = Checker()
    except Exception as error:  # noqa: BLE001 - a checker that does not import is a broken input
        print(f"{REPO_ROOT / 'generator' / 'check' / 'facts.py'}: cannot import check_facts: "
              f"{type(error).__name__}: {error}", file=sys.stderr)
        return 1
    started = time.perf_counter()
    limit = args.max_per_category or None
    try:
        if args.list_mutants:
            list_mutants(langs, categories, checker, corpus=args.corpus, examples=args.examples, seed=args.seed,
                         unused=args.show)
            return 0
        if args.corpus is not None:
            figures = run_corpus(corpus_inputs(langs, args.corpus), categories, checker, limit, args.seed)
        else:
            figures = run(langs, categories, checker)
    except InputError as error:
        print(error, file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    if args.corpus is not None:
        if args.json:
            json.dump(corpus_json(figures, categories, seconds, checker, args.show, args.corpus, limit, args.seed),
                      sys.stdout, ensure_ascii=False, indent=1)
            print()
            return 0
        print_corpus_table(figures, categories, seconds, checker, args.corpus, limit, args.seed)
        if args.show:
            print_missed({lang: fig for lang, fig in figures.items() if fig["rule_checks"]})
        return 0
    if args.json:
        json.dump(as_json(figures, categories, seconds, checker, args.show), sys.stdout, ensure_ascii=False,
                  indent=1)
        print()
        return 0
    print_table(figures, categories, seconds, checker)
    if args.show:
        print_missed(figures)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the output piped into a program that stopped reading (head)
        sys.stderr.close()
        sys.exit(0)
