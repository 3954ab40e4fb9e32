"""What a build shows on the terminal: progress per language and page while it runs, and a summary
table at the end.

Progress modes (``patiencebook build --progress``):

- ``bar``: one status line, redrawn in place, with each running language's stage, page count and
  current page (``de writing 45/99 hamilton · el reading 30/99 klondike``);
- ``lines``: a line per page and stage (``de: writing 45/99 hamilton``), for logs;
- ``languages``: a line when a language is done;
- ``none``: nothing;
- ``auto`` (the default): ``bar`` on a terminal, else ``languages``.

Progress goes to standard error; the summary table to standard output.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
import threading
import time
from typing import IO, Iterable, Sequence

__all__ = ["MODES", "Progress", "summary_table", "games_without_model"]

MODES = ("auto", "bar", "lines", "languages", "none")
_REDRAW = 0.1  # seconds between redraws of the status line


class Progress:
    """Receives ``(lang, stage, done, total, page)`` updates and shows them.

    Args:
        mode: one of :data:`MODES`.
        stream: where to write (default standard error).

    Raises ``ValueError`` for an unknown mode.
    """

    def __init__(self, mode: str = "auto", stream: IO[str] | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown progress mode {mode!r}; choose one of {', '.join(MODES)}")
        self.stream = stream if stream is not None else sys.stderr
        if mode == "auto":
            mode = "bar" if getattr(self.stream, "isatty", lambda: False)() else "languages"
        self.mode = mode
        self._running: dict[str, str] = {}
        self._drawn = 0.0
        self._width = 0
        self._lock = threading.Lock()

    def update(self, lang: str, stage: str, done: int = 0, total: int | None = None, page: str = "") -> None:
        """``lang`` is at ``stage`` ("translating", "checking", "reading", "writing"), page number
        ``done`` of ``total`` (``None`` when not known), on ``page`` (a slug)."""
        count = f" {done}/{total}" if total else f" {done}" if done else ""
        text = f"{stage}{count}{' ' + page if page else ''}"
        if self.mode == "lines":
            self._write(f"{lang}: {text}\n")
        elif self.mode == "bar":
            self._running[lang] = text
            now = time.monotonic()
            if now - self._drawn >= _REDRAW:
                self._drawn = now
                self._draw()

    def finished(self, lang: str, pages: int, seconds: float, reused: bool = False) -> None:
        """``lang`` is done: ``pages`` pages in ``seconds`` (``reused``: taken from the last build)."""
        self._running.pop(lang, None)
        line = (f"{lang}: {pages} pages unchanged, reused" if reused
                else f"{lang}: {pages} pages built in {seconds:.1f} s")
        if self.mode in ("lines", "languages"):
            self._write(line + "\n")
        elif self.mode == "bar":
            self._clear()
            self._write(line + "\n")
            self._draw()

    def close(self) -> None:
        """Clear the status line (``bar`` mode)."""
        if self.mode == "bar":
            self._clear()

    def _draw(self) -> None:
        if not self._running:
            return
        try:
            columns = os.get_terminal_size(self.stream.fileno()).columns - 1  # the terminal shown on
        except (AttributeError, OSError, ValueError):
            columns = shutil.get_terminal_size((100, 20)).columns - 1
        line = " · ".join(f"{lang} {text}" for lang, text in self._running.items())[:columns]
        self._write("\r" + line + " " * max(0, self._width - len(line)) + "\r")
        self._width = len(line)

    def _clear(self) -> None:
        if self._width:
            self._write("\r" + " " * self._width + "\r")
            self._width = 0

    def _write(self, text: str) -> None:
        with self._lock:
            self._write_unlocked(text)

    def _write_unlocked(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed terminal does not stop the build


def summary_table(reports: Sequence, seconds: float) -> str:
    """The table printed at the end of a build: per language its pages, translated blocks of all
    and the coverage, fuzzy and untranslated blocks, warnings, checker findings and time ("reused" when its pages came
    unchanged from the last build), then a total line. ``reports`` are
    :class:`~patiencebook.generator.site.build.LanguageReport`; ``seconds`` is the build's wall time."""
    head = ("language", "pages", "blocks", "coverage", "fuzzy", "untranslated", "warnings", "findings", "time")
    rows = [head]
    for r in reports:
        rows.append((r.lang, str(r.pages), f"{r.translated}/{r.total}", f"{_percent(r.translated, r.total)} %",
                     str(r.fuzzy),
                     str(r.untranslated),
                     str(len(r.warnings)), str(r.findings), "reused" if r.reused else f"{r.seconds:.1f} s"))
    rows.append(("total", str(sum(r.pages for r in reports)), "", "", str(sum(r.fuzzy for r in reports)),
                 str(sum(r.untranslated for r in reports)), str(sum(len(r.warnings) for r in reports)),
                 str(sum(r.findings for r in reports)), f"{seconds:.1f} s"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]

    def line(row: Sequence[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(rows[0]), rule] + [line(r) for r in rows[1:-1]] + [rule, line(rows[-1])])


def _percent(part: int, whole: int) -> str:
    """``part/whole`` in per cent with one decimal, rounded down: 2198 of 2199 is 99.9, not 100.0."""
    if whole == 0:
        return "100.0"
    tenths = part * 1000 // whole
    return f"{tenths // 10}.{tenths % 10}"


def games_without_model(slugs: Iterable[str], width: int = 100) -> str:
    """The lines naming the game pages that have no engine model (``slugs``), wrapped at ``width``;
    one line saying that every game has one when ``slugs`` is empty."""
    slugs = list(slugs)
    if not slugs:
        return "every game page has an engine model"
    head = f"{len(slugs)} game page{'s' if len(slugs) != 1 else ''} with no engine model: "
    return textwrap.fill(head + ", ".join(slugs), width=width, subsequent_indent="  ",
                         break_on_hyphens=False)
