"""Measured solver figures: how many of a game's numbered deals can be won with all cards known.

``patiencebook solve GAME --deals 1-1000 --record`` stores the answer for every deal in
``solved.json`` beside the rules sources; the build shows each game's figure on its page, in the
page's language. A figure is kept with a digest of the rules it was measured on, so a figure of
rules that have changed since is never shown (and the tests say so).

File form (JSON): ``{"format": 1, "figures": [{"game": "klondike", "variant": "single-card-deals",
"rules": "<digest>", "first": 1, "budget": 20000, "results": "WWL?..."}]}`` with one letter per deal
from ``first`` on: ``W`` solved (can be won), ``L`` unsolvable, ``?`` unknown within the budget.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from patiencebook.engine.rules import Ruleset
from patiencebook.engine.rulesdata import ruleset_to_data
from patiencebook.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE
from patiencebook.generator.errors import SourceError

__all__ = ["FILE_NAME", "FORMAT", "Figure", "rules_digest", "load_figures", "record_figure", "figure_for",
           "figure_sentence"]

FILE_NAME = "solved.json"
FORMAT = 1
_LETTERS = {SOLVED: "W", UNSOLVABLE: "L", UNKNOWN: "?"}
_KIND_WORDS = {str: "a string", int: "a whole number"}


@dataclass(frozen=True, slots=True)
class Figure:
    """One game's measured deals.

    Attributes:
        game: the ruleset's game name; ``variant``: its variant id, or ``None``.
        rules: :func:`rules_digest` of the ruleset measured.
        first: the first deal number (AisleRiot's numbering); deal ``first + i`` is ``results[i]``.
        budget: positions searched per deal before it counted as unknown.
        results: one letter per deal: ``W`` solved, ``L`` unsolvable, ``?`` unknown.
    """

    game: str
    variant: str | None
    rules: str
    first: int
    budget: int
    results: str

    @property
    def last(self) -> int:
        """The last deal number measured."""
        return self.first + len(self.results) - 1

    def count(self, status: str) -> int:
        """How many deals ended with ``status`` (:data:`~patiencebook.engine.solver.SOLVED` ...)."""
        return self.results.count(_LETTERS[status])

    def status(self, deal: int) -> str:
        """The answer for ``deal``; ``KeyError`` when it was not measured."""
        if not self.first <= deal <= self.last:
            raise KeyError(deal)
        letter = self.results[deal - self.first]
        return next(status for status, code in _LETTERS.items() if code == letter)


def rules_digest(ruleset: Ruleset) -> str:
    """A short digest of everything in ``ruleset`` that play depends on: its JSON data form
    (:func:`~patiencebook.engine.rulesdata.ruleset_to_data`, which leaves out a field added to the
    model later while it holds its default, ``OMIT_DEFAULT``, so that a new word of the rules
    vocabulary keeps the figures of the games that do not use it)."""
    data = json.dumps(ruleset_to_data(ruleset), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:16]


def _fail(path: Path, message: str, line: int | None = None) -> SourceError:
    return SourceError(f"solver figures: {message}", path, line)


def load_figures(path: Path) -> list[Figure]:
    """The figures in ``path``; ``[]`` when the file does not exist.

    Raises :class:`SourceError` with the file (and line, for bad JSON) when the file cannot be read,
    is not JSON, or an entry lacks a field, has one of the wrong type, or holds a letter other
    than W, L and ?.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as error:
        raise _fail(path, f"cannot read the file: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise _fail(path, f"not JSON: {error.msg}", error.lineno) from None
    if not isinstance(data, dict) or type(data.get("format")) is not int or data.get("format") != FORMAT \
            or not isinstance(data.get("figures"), list):
        raise _fail(path, f'expected an object with "format": {FORMAT} and a "figures" list')
    out = []
    fields = {"game": str, "rules": str, "first": int, "budget": int, "results": str}
    for n, entry in enumerate(data["figures"]):
        if not isinstance(entry, dict):
            raise _fail(path, f"figures[{n}] is not an object")
        for name, kind in fields.items():
            value = entry.get(name)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise _fail(path, f"figures[{n}].{name} must be {_KIND_WORDS[kind]}")
        variant = entry.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise _fail(path, f"figures[{n}].variant must be a string or null")
        if not entry["results"] or set(entry["results"]) - set(_LETTERS.values()):
            raise _fail(path, f"figures[{n}].results must be letters W, L and ?, one per deal")
        if entry["first"] < 0 or entry["budget"] < 1:
            raise _fail(path, f"figures[{n}]: first is a deal number (0 or more) and budget at least 1")
        out.append(Figure(entry["game"], variant, entry["rules"], entry["first"], entry["budget"], entry["results"]))
    return out


def record_figure(path: Path, ruleset: Ruleset, first: int, budget: int, statuses: list[str]) -> Figure:
    """Store the answers ``statuses`` (one per deal from ``first`` on) for ``ruleset`` in ``path``,
    replacing the figure of the same game and variant; written atomically, the other figures kept,
    under a lock, so solves recording at the same time each keep their figure.
    Returns the figure stored. Raises :class:`SourceError` as :func:`load_figures` does, and
    naming the file when it cannot be written (the file is then as it was)."""
    figure = Figure(ruleset.game, ruleset.variant, rules_digest(ruleset), first, budget,
                    "".join(_LETTERS[s] for s in statuses))
    # Two solves recording at once must not lose each other's figure: the read and the write are
    # one step under a lock on the folder (no lock file is left behind).
    # A solved.json that is a symbolic link is written where it points, and stays a link.
    path = path.resolve() if path.is_symlink() else path
    try:
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            fcntl.flock(folder, fcntl.LOCK_EX)
            _write_figure(path, figure)
        finally:
            os.close(folder)  # releases the lock
    except OSError as error:
        raise _fail(path, f"cannot write the file: {error.strerror or error}") from None
    return figure


def _write_figure(path: Path, figure: Figure) -> None:
    kept = [f for f in load_figures(path) if (f.game, f.variant) != (figure.game, figure.variant)]
    figures = sorted(kept + [figure], key=lambda f: (f.game, f.variant or ""))
    data = {"format": FORMAT, "figures": [
        {"game": f.game, "variant": f.variant, "rules": f.rules, "first": f.first, "budget": f.budget,
         "results": f.results} for f in figures]}
    text = json.dumps(data, indent=1) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".solved-", dir=path.parent)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # as a file written plainly, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def figure_for(figures: list[Figure], ruleset: Ruleset) -> Figure | None:
    """The figure measured on exactly ``ruleset`` (same game, variant and rules digest), or ``None``."""
    digest = rules_digest(ruleset)
    return next((f for f in figures if (f.game, f.variant, f.rules) == (ruleset.game, ruleset.variant, digest)),
                None)


def figure_sentence(figure: Figure, ui: Mapping[str, str], babel_locale: str) -> str:
    """The figure as a sentence in a language: the ``solved_figure`` interface string (or
    ``solved_figure_decided`` when no deal was left undecided), shares as CLDR percentages."""
    from babel.numbers import format_decimal, format_percent

    total = len(figure.results)

    def share(status: str) -> str:
        return format_percent(figure.count(status) / total, locale=babel_locale, decimal_quantization=False)

    values: dict[str, Any] = {
        "first": format_decimal(figure.first, locale=babel_locale),
        "last": format_decimal(figure.last, locale=babel_locale),
        "won": share(SOLVED), "lost": share(UNSOLVABLE), "open": share(UNKNOWN),
        "budget": format_decimal(figure.budget, locale=babel_locale),
    }
    key = "solved_figure" if figure.count(UNKNOWN) else "solved_figure_decided"
    return ui[key].format(**values)
