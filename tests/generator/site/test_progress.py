"""What a build shows on the terminal: progress lines or a status line, and the summary table."""

from __future__ import annotations

import io

import pytest

from patiencebook.generator.site.reports import LanguageReport
from patiencebook.generator.site.progress import Progress, games_without_model, summary_table


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_lines_mode_prints_each_page_and_each_finished_language():
    stream = io.StringIO()
    progress = Progress("lines", stream)
    progress.update("de", "reading", 1, 98, "accordion")
    progress.update("de", "writing", 2, None, "agnes")
    progress.update("el", "checking")
    progress.finished("de", 98, 1.94)
    progress.finished("el", 98, 0.0, reused=True)
    assert stream.getvalue().splitlines() == [
        "de: reading 1/98 accordion", "de: writing 2 agnes", "el: checking",
        "de: 98 pages built in 1.9 s", "el: 98 pages unchanged, reused"]


def test_auto_mode_off_a_terminal_prints_only_finished_languages():
    stream = io.StringIO()
    progress = Progress("auto", stream)
    progress.update("de", "reading", 1, 98, "accordion")
    progress.finished("de", 98, 2.0)
    assert progress.mode == "languages"
    assert stream.getvalue() == "de: 98 pages built in 2.0 s\n"


def test_auto_mode_on_a_terminal_redraws_one_status_line_and_clears_it():
    stream = _Terminal()
    progress = Progress("auto", stream)
    assert progress.mode == "bar"
    progress.update("de", "reading", 3, 98, "athena")
    progress.update("el", "reading", 1, 98, "accordion")  # within the redraw interval: not drawn yet
    shown = stream.getvalue()
    assert "\n" not in shown and shown.startswith("\rde reading 3/98 athena")
    progress.finished("de", 98, 2.0)
    progress.close()
    lines = stream.getvalue().split("\n")
    assert lines[-2].strip("\r ").endswith("de: 98 pages built in 2.0 s")
    assert "el reading 1/98 accordion" in lines[-1]  # the status line went on with what still runs
    assert stream.getvalue().endswith("\r")  # and was cleared at the end


def test_none_mode_prints_nothing_and_unknown_modes_are_refused():
    stream = io.StringIO()
    progress = Progress("none", stream)
    progress.update("de", "reading", 1, 2, "x")
    progress.finished("de", 2, 0.1)
    assert stream.getvalue() == ""
    with pytest.raises(ValueError, match="unknown progress mode 'loud'"):
        Progress("loud", stream)


def test_summary_table_has_a_row_per_language_and_totals():
    reports = [LanguageReport("en", "en", 10, 10, 0, 0, pages=5, seconds=1.25),
               LanguageReport("de", "de", 10, 7, 1, 2, warnings=("w1", "w2"), findings=4, pages=5, reused=True)]
    rows = [line.split() for line in summary_table(reports, 3.5).splitlines()]
    assert rows[0] == ["language", "pages", "blocks", "coverage", "fuzzy", "untranslated", "warnings",
                       "findings", "time"]
    assert rows[2] == ["en", "5", "10/10", "100.0", "%", "0", "0", "0", "0", "1.2", "s"]
    assert rows[3] == ["de", "5", "7/10", "70.0", "%", "1", "2", "2", "4", "reused"]
    assert rows[5] == ["total", "10", "1", "2", "2", "4", "3.5", "s"]


def test_games_without_model_are_listed_wrapped():
    text = games_without_model([f"game_{n}" for n in range(30)], width=60)
    assert text.startswith("30 game pages with no engine model: game_0, game_1")
    assert all(len(line) <= 60 for line in text.splitlines())
    assert games_without_model([]) == "every game page has an engine model"
