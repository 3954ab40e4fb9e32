"""Solver figures (``solved.json``): reading and its errors, recording, matching the rules measured, the
sentence in each language, and ``patiencebook solve`` with variants, Microsoft deal numbers and --record.

The command is run on a copy of ``rules/`` in a temporary folder whenever it writes anything.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from functools import lru_cache
from pathlib import Path

import lxml.html
import pytest

from patiencebook.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE
from patiencebook.generator.cli import main
from patiencebook.generator.errors import SourceError
from patiencebook.generator.pages.figures import (FILE_NAME, Figure, figure_for, figure_sentence, load_figures,
                                                  record_figure, rules_digest)
from patiencebook.generator.languages import ui_strings
from patiencebook.generator.docbook.sources import load_document

REPO = Path(__file__).resolve().parents[3]
RULES = REPO / "rules"
NBSP = "\u00a0"


@lru_cache(maxsize=None)
def page(game: str):
    return load_document(RULES).page(game)


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def without(path: Path, game: str, variant: str | None) -> None:
    """Drop one figure from a copy of solved.json, so that a small one may be recorded in its place."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["figures"] = [f for f in data["figures"] if (f["game"], f["variant"]) != (game, variant)]
    write(path, data)


def entry(**changes: object) -> dict:
    base = {"game": "golf", "variant": None, "rules": "0123456789abcdef", "first": 1, "budget": 500,
            "results": "WL?"}
    base.update(changes)
    return {k: v for k, v in base.items() if v is not ...}


def load_error(path: Path) -> SourceError:
    with pytest.raises(SourceError) as info:
        load_figures(path)
    return info.value


# -- reading -------------------------------------------------------------------------------------

def test_missing_figures_file_has_no_figures(tmp_path):
    assert load_figures(tmp_path / FILE_NAME) == []


def test_figures_file_loads_each_entry_with_its_counts(tmp_path):
    path = write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(first=7, results="WWL?W")]})
    (figure,) = load_figures(path)
    assert figure == Figure("golf", None, "0123456789abcdef", 7, 500, "WWL?W")
    assert (figure.last, figure.count(SOLVED), figure.count(UNSOLVABLE), figure.count(UNKNOWN)) == (11, 3, 1, 1)
    assert (figure.status(7), figure.status(9), figure.status(10)) == (SOLVED, UNSOLVABLE, UNKNOWN)
    with pytest.raises(KeyError):
        figure.status(12)


def test_bad_json_is_an_error_naming_the_file_and_line(tmp_path):
    path = tmp_path / FILE_NAME
    path.write_text('{\n "format": 1,\n "figures": [\n  oops\n ]\n}\n', encoding="utf-8")
    error = load_error(path)
    assert (error.file, error.line) == (str(path), 4)
    assert error.message == "solver figures: not JSON: Expecting value"
    assert str(error) == f"{path}:4: solver figures: not JSON: Expecting value"


def test_wrong_format_number_is_an_error(tmp_path):
    error = load_error(write(tmp_path / FILE_NAME, {"format": 2, "figures": []}))
    assert error.message == 'solver figures: expected an object with "format": 1 and a "figures" list'


def test_letters_other_than_w_l_and_question_mark_are_an_error(tmp_path):
    path = write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(), entry(results="WWX")]})
    error = load_error(path)
    assert (error.file, error.line) == (str(path), None)
    assert error.message == "solver figures: figures[1].results must be letters W, L and ?, one per deal"
    assert str(error) == f"{path}: solver figures: figures[1].results must be letters W, L and ?, one per deal"


def test_empty_results_are_an_error(tmp_path):
    error = load_error(write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(results="")]}))
    assert error.message == "solver figures: figures[0].results must be letters W, L and ?, one per deal"


@pytest.mark.parametrize("field, kind", [("game", "a string"), ("rules", "a string"), ("first", "a whole number"),
                                         ("budget", "a whole number"), ("results", "a string")])
def test_missing_field_is_an_error_naming_it(tmp_path, field, kind):
    error = load_error(write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(**{field: ...})]}))
    assert error.file == str(tmp_path / FILE_NAME)
    assert error.message == f"solver figures: figures[0].{field} must be {kind}"


def test_true_is_not_a_deal_number(tmp_path):
    error = load_error(write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(first=True)]}))
    assert error.message.startswith("solver figures: figures[0].first must be a")


def test_first_deal_is_a_deal_number_and_budget_at_least_one(tmp_path):
    message = "solver figures: figures[0]: first is a deal number (0 or more) and budget at least 1"
    assert load_error(write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(budget=0)]})).message == message
    assert load_error(write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(first=-1)]})).message == message
    # Deal 0 is one of AisleRiot's deal numbers: a figure may start there.
    write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(first=0)]})
    assert load_figures(tmp_path / FILE_NAME)[0].first == 0


@pytest.mark.parametrize("form", [True, 1.0, "1"])
def test_the_format_is_the_whole_number_one(tmp_path, form):
    error = load_error(write(tmp_path / FILE_NAME, {"format": form, "figures": [entry()]}))
    assert error.message.startswith('solver figures: expected an object with "format": 1')


def test_variant_is_text_or_null(tmp_path):
    error = load_error(write(tmp_path / FILE_NAME, {"format": 1, "figures": [entry(variant=3)]}))
    assert error.message == "solver figures: figures[0].variant must be a string or null"


def test_figures_entry_that_is_not_an_object_is_an_error(tmp_path):
    error = load_error(write(tmp_path / FILE_NAME, {"format": 1, "figures": ["golf"]}))
    assert error.message == "solver figures: figures[0] is not an object"


# -- recording -----------------------------------------------------------------------------------

def test_record_figure_writes_a_figure_that_loads_back(tmp_path):
    path = tmp_path / FILE_NAME
    rules = page("golf").rules
    figure = record_figure(path, rules, 5, 500, [SOLVED, UNSOLVABLE, UNKNOWN, SOLVED])
    assert figure == Figure("golf", None, rules_digest(rules), 5, 500, "WL?W")
    assert load_figures(path) == [figure]
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == 1
    assert os.listdir(tmp_path) == [FILE_NAME]


def test_record_figure_replaces_the_same_game_and_variant_and_keeps_the_others(tmp_path):
    path = tmp_path / FILE_NAME
    klondike = page("klondike").variants
    single, three = klondike["single-card-deals"], klondike["three-card-deals"]
    golf = page("golf").rules
    kept_three = record_figure(path, three, 1, 100, [UNSOLVABLE, UNKNOWN])
    record_figure(path, single, 1, 100, [SOLVED, SOLVED, UNSOLVABLE])
    kept_golf = record_figure(path, golf, 1, 100, [SOLVED])
    new_single = record_figure(path, single, 11, 300, [UNKNOWN])
    assert load_figures(path) == [
        Figure("golf", None, rules_digest(golf), 1, 100, "W"),
        Figure("klondike", "single-card-deals", rules_digest(single), 11, 300, "?"),
        Figure("klondike", "three-card-deals", rules_digest(three), 1, 100, "L?"),
    ]
    assert kept_three in load_figures(path) and kept_golf in load_figures(path) and new_single in load_figures(path)
    assert sorted(os.listdir(tmp_path)) == [FILE_NAME]


def _record_many(path: str, game: str, variant: str | None, times: int) -> None:
    rules = page(game).variants[variant] if variant else page(game).rules
    for n in range(times):
        record_figure(Path(path), rules, 1, 100 + n, [SOLVED, UNKNOWN])


def test_solves_recording_at_the_same_time_each_keep_their_figure(tmp_path):
    # Without the lock, a write made between another process's read and write of the file is lost.
    import multiprocessing

    path = tmp_path / FILE_NAME
    writers = [("golf", None), ("yukon", None), ("klondike", "three-card-deals"), ("klondike", "no-redeals")]
    for game, variant in writers:
        page(game)  # parsed once, before the processes start
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_record_many, args=(str(path), game, variant, 25)) for game, variant in writers]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
        assert process.exitcode == 0
    stored = {(f.game, f.variant): f.budget for f in load_figures(path)}
    assert stored == {writer: 124 for writer in writers}
    assert sorted(os.listdir(tmp_path)) == [FILE_NAME]


def test_a_solved_json_that_is_a_link_is_written_where_it_points(tmp_path):
    (tmp_path / "kept").mkdir()
    target = tmp_path / "kept" / FILE_NAME
    record_figure(target, page("golf").rules, 1, 100, [SOLVED])
    (tmp_path / "rules").mkdir()
    link = tmp_path / "rules" / FILE_NAME
    link.symlink_to(target)
    record_figure(link, page("yukon").rules, 1, 100, [UNKNOWN])
    assert link.is_symlink()
    assert [f.game for f in load_figures(target)] == ["golf", "yukon"]


def test_record_figure_leaves_no_temporary_file_when_the_write_fails(tmp_path, monkeypatch):
    path = tmp_path / FILE_NAME
    record_figure(path, page("golf").rules, 1, 100, [SOLVED])
    before = path.read_bytes()

    def refuse(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(SourceError, match="cannot write the file: disk full") as caught:
        record_figure(path, page("golf").rules, 1, 100, [UNSOLVABLE])
    assert caught.value.file == str(path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == [FILE_NAME]


def test_record_figure_refuses_to_overwrite_a_broken_file(tmp_path):
    path = tmp_path / FILE_NAME
    path.write_text("{", encoding="utf-8")
    with pytest.raises(SourceError, match="not JSON"):
        record_figure(path, page("golf").rules, 1, 100, [SOLVED])
    assert path.read_text(encoding="utf-8") == "{"
    assert os.listdir(tmp_path) == [FILE_NAME]


def test_recorded_figures_file_gets_the_mode_of_a_file_written_plainly(tmp_path):
    old = os.umask(0o022)
    try:
        record_figure(tmp_path / FILE_NAME, page("golf").rules, 1, 100, [SOLVED])
        (tmp_path / "plain.json").write_text("{}\n", encoding="utf-8")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / FILE_NAME).stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "plain.json").stat().st_mode) == 0o644


# -- matching the rules measured -----------------------------------------------------------------

def test_figure_for_finds_the_figure_of_exactly_these_rules():
    rules = page("golf").rules
    figure = Figure("golf", None, rules_digest(rules), 1, 100, "W")
    assert figure_for([figure], rules) is figure


def test_figure_for_ignores_a_figure_of_rules_that_have_changed_since():
    rules = page("golf").rules
    stale = Figure("golf", None, "0123456789abcdef", 1, 100, "W")
    assert figure_for([stale], rules) is None


def test_figure_for_ignores_a_figure_of_another_variant():
    klondike = page("klondike").variants
    single, three = klondike["single-card-deals"], klondike["three-card-deals"]
    figure = Figure("klondike", "three-card-deals", rules_digest(three), 1, 100, "W")
    assert figure_for([figure], single) is None and figure_for([figure], three) is figure


def test_rules_digest_differs_between_variants_and_is_stable():
    klondike = page("klondike").variants
    digests = {vid: rules_digest(rules) for vid, rules in klondike.items()}
    assert len(set(digests.values())) == 4
    assert all(len(d) == 16 and int(d, 16) >= 0 for d in digests.values())
    assert rules_digest(load_document(RULES).page("klondike").rules) == digests["single-card-deals"]


# -- the sentence --------------------------------------------------------------------------------

def test_german_sentence_uses_cldr_percentages_and_thousands_separators():
    figure = Figure("golf", None, "x", 1, 20000, "WW?L")
    assert figure_sentence(figure, ui_strings("de"), "de") == (
        f"Von den Spielen 1 bis 4 wurde für 50{NBSP}% gezeigt, dass sie sich gewinnen lassen, wenn alle Karten "
        f"bekannt sind, und für 25{NBSP}%, dass sie es nicht tun; die übrigen 25{NBSP}% blieben nach je 20.000 "
        f"Stellungen offen.")


def test_english_sentence_with_undecided_deals_claims_only_what_was_shown():
    figure = Figure("spider", None, "x", 1, 2000, "??W?")
    assert figure_sentence(figure, ui_strings("en"), "en") == (
        "Of deals 1 to 4, 25% were shown to be winnable with all cards known and 0% to be unwinnable; "
        "the other 75% were left undecided after 2,000 positions each.")


def test_german_sentence_keeps_the_decimals_of_a_share():
    figure = Figure("golf", None, "x", 1000, 500, "WLLLLLLL")
    assert figure_sentence(figure, ui_strings("de"), "de") == (
        f"Von den Spielen 1.000 bis 1.007 lassen sich 12,5{NBSP}% gewinnen, wenn alle Karten bekannt sind, "
        f"und 87,5{NBSP}% nicht.")


def test_sentence_without_undecided_deals_leaves_out_the_budget():
    figure = Figure("golf", None, "x", 1, 20000, "WWWL")
    assert figure_sentence(figure, ui_strings("en"), "en") == (
        "Of deals 1 to 4, 75% can be won with all cards known and 25% cannot.")


# -- patiencebook solve --------------------------------------------------------------------------

def test_solve_one_microsoft_freecell_deal(capsys):
    assert main(["solve", "freecell", "--deal", "ms1", "--budget", "300", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("deal ms1: ")
    assert lines[1] == ("freecell (rules of freecell.xml), deal ms1, all cards known, "
                        "budget 300 positions per deal:")


def test_microsoft_deals_for_klondike_are_one_line_of_error(capsys):
    assert main(["solve", "klondike", "--deals", "ms1-ms3", "--jobs", "1"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        "patiencebook: error: Microsoft deal numbers (ms123) deal 52 cards face up onto eight tableau piles, "
        "as FreeCell does; klondike deals otherwise"]


def test_unknown_variant_names_the_variants(capsys):
    assert main(["solve", "klondike", "--variant", "four-card-deals", "--deals", "1"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "patiencebook: error: klondike has no variant 'four-card-deals'; "
        "its variants: single-card-deals (the default), three-card-deals, no-redeals, unlimited-redeals"]


def test_variant_of_a_game_without_variants_says_none(capsys):
    assert main(["solve", "golf", "--variant", "two-suits", "--deals", "1"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "patiencebook: error: golf has no rule variants, so it takes no --variant (not 'two-suits'); "
        "its page states one set of rules"]


def test_solve_names_the_variant_solved(capsys):
    assert main(["solve", "klondike", "--variant", "three-card-deals", "--deals", "2", "--budget", "200",
                 "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("deal 2: ")
    assert lines[1] == ("klondike (three-card-deals variant of klondike.xml), deal 2, all cards known, "
                        "budget 200 positions per deal:")


@pytest.mark.parametrize("deals", ["ms1-ms3", "1,3"])
def test_record_keeps_only_a_range_of_aisleriot_deals(tmp_path, capsys, deals):
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    before = sorted(os.listdir(copy))
    game = "freecell" if deals.startswith("ms") else "golf"
    assert main(["solve", game, "--sources", str(copy), "--deals", deals, "--record", "--jobs", "1"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "patiencebook: error: --record and --retry-unknown keep a range of AisleRiot deal numbers, such as 1-1000"]
    assert sorted(os.listdir(copy)) == before


def test_record_writes_the_figure_beside_the_sources_and_the_build_shows_it(tmp_path, capsys):
    from patiencebook.generator.site.build import build_site

    embedded = RULES / FILE_NAME
    embedded_before = embedded.read_bytes() if embedded.exists() else None
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    without(copy / FILE_NAME, "golf", None)
    others = [f for f in load_figures(copy / FILE_NAME) if f.game != "golf"]

    assert main(["solve", "golf", "--sources", str(copy), "--deals", "1-3", "--budget", "500", "--jobs", "1",
                 "--record"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out[:3]] == ["deal 1", "deal 2", "deal 3"]
    assert out[-1] == f"recorded in {copy / FILE_NAME}"
    statuses = "".join({"solved": "W", "unsolvable": "L", "unknown": "?"}[line.split(": ")[1].split(" ")[0]]
                       for line in out[:3])

    golf = load_document(copy).page("golf").rules
    figures = load_figures(copy / FILE_NAME)
    assert Figure("golf", None, rules_digest(golf), 1, 500, statuses) in figures
    assert [f for f in figures if f.game != "golf"] == others
    assert (embedded.read_bytes() if embedded.exists() else None) == embedded_before

    site = tmp_path / "site"
    build_site(copy, None, site, langs=["en"], jobs=1, echo=False, report=False, progress="none")
    figure = figure_for(figures, golf)
    html = (site / "en" / "golf.html").read_text(encoding="utf-8")
    assert figure_sentence(figure, ui_strings("en"), "en") in html
    assert "Of deals 1 to 3, " in html


def test_retry_unknown_searches_only_the_unknown_deals_again_and_keeps_the_rest(tmp_path, capsys):
    sources = tmp_path / "rules"
    shutil.copytree(RULES, sources)
    (sources / "solved.json").unlink(missing_ok=True)
    # Eagle Wing deals 1-4 with one position each: nothing decided yet.
    assert main(["solve", "eagle_wing", "--sources", str(sources), "--deals", "1-4", "--budget", "1",
                 "--jobs", "1", "--record"]) == 0
    assert load_figures(sources / "solved.json")[0].results == "????"
    record_figure(sources / "solved.json", page("eagle_wing").rules, 1, 1, [UNKNOWN, UNSOLVABLE, UNKNOWN, UNKNOWN])
    capsys.readouterr()
    assert main(["solve", "eagle_wing", "--sources", str(sources), "--deals", "1-4", "--budget", "5000",
                 "--jobs", "1", "--retry-unknown"]) == 0
    out = capsys.readouterr().out
    assert "deal 2:" not in out and "1 deals kept from solved.json" in out
    assert "  deals 1-4 now: solved " in out
    figure = load_figures(sources / "solved.json")[0]
    assert figure.budget == 5000 and figure.results[1] == "L" and figure.results[0] == "W"


def test_retry_unknown_needs_a_recorded_range_and_a_larger_budget(tmp_path, capsys):
    sources = tmp_path / "rules"
    shutil.copytree(RULES, sources)
    (sources / "solved.json").unlink(missing_ok=True)
    assert main(["solve", "golf", "--sources", str(sources), "--deals", "1-2", "--retry-unknown"]) == 1
    assert "record them first" in capsys.readouterr().err
    assert main(["solve", "golf", "--sources", str(sources), "--deals", "1-2", "--budget", "50", "--jobs", "1",
                 "--record"]) == 0
    assert main(["solve", "golf", "--sources", str(sources), "--deals", "1-2", "--budget", "10",
                 "--retry-unknown"]) == 1
    assert "larger budget" in capsys.readouterr().err
    assert main(["solve", "golf", "--sources", str(sources), "--deals", "1-2", "--budget", "50",
                 "--retry-unknown"]) == 1
    assert "larger budget than the 50 positions" in capsys.readouterr().err
    assert main(["solve", "golf", "--sources", str(sources), "--deals", "1-5", "--budget", "100",
                 "--retry-unknown"]) == 1
    assert "it holds deals 1-2: give --deals 1-2" in capsys.readouterr().err


def test_retry_unknown_with_nothing_unknown_says_so_and_leaves_the_file(tmp_path, capsys):
    sources = tmp_path / "rules"
    shutil.copytree(RULES, sources)
    (sources / "solved.json").unlink(missing_ok=True)
    record_figure(sources / "solved.json", page("golf").rules, 1, 300, [SOLVED, UNSOLVABLE])
    before = (sources / "solved.json").read_bytes()
    assert main(["solve", "golf", "--sources", str(sources), "--deals", "1-2", "--budget", "400",
                 "--retry-unknown"]) == 0
    assert capsys.readouterr().out.endswith("and none is unknown: nothing to search again\n")
    assert (sources / "solved.json").read_bytes() == before


def test_record_refuses_to_replace_a_figure_with_less_before_searching(tmp_path, capsys):
    sources = tmp_path / "rules"
    shutil.copytree(RULES, sources)
    (sources / "solved.json").unlink(missing_ok=True)
    record_figure(sources / "solved.json", page("golf").rules, 1, 300, [UNKNOWN] * 20)
    before = (sources / "solved.json").read_bytes()
    for argv in (["--deal", "7"], ["--deals", "1-19"], ["--deals", "1-20", "--budget", "299"]):
        assert main(["solve", "golf", "--sources", str(sources), "--budget", "300", *argv, "--record"]) == 1
        out, err = capsys.readouterr()
        assert out == ""  # nothing was searched
        assert f"{sources / 'solved.json'} holds deals 1-20 of these rules at 300 positions" in err
    assert (sources / "solved.json").read_bytes() == before
    # More deals, or the same ones with a larger budget, replace it.
    assert main(["solve", "golf", "--sources", str(sources), "--deals", "1-21", "--budget", "300", "--jobs", "1",
                 "--record"]) == 0
    assert load_figures(sources / "solved.json")[0].last == 21


def test_record_reads_solved_json_before_searching(tmp_path, capsys):
    sources = tmp_path / "rules"
    shutil.copytree(RULES, sources)
    (sources / "solved.json").write_text("{", encoding="utf-8")
    assert main(["solve", "golf", "--sources", str(sources), "--deals", "1-3", "--budget", "50", "--record"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"patiencebook: error: {sources / 'solved.json'}:1: solver figures: not JSON")


# -- figures of rule variants ----------------------------------------------------------------------

def test_build_adds_a_variant_figure_to_the_options_item_of_that_variant(tmp_path, capsys):
    from patiencebook.generator.site.build import build_site

    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    without(copy / FILE_NAME, "klondike", "no-redeals")
    assert main(["solve", "klondike", "--variant", "no-redeals", "--sources", str(copy), "--deals", "1-2",
                 "--budget", "300", "--jobs", "1", "--record"]) == 0
    capsys.readouterr()
    no_redeals = load_document(copy).page("klondike").variants["no-redeals"]
    figure = figure_for(load_figures(copy / FILE_NAME), no_redeals)
    assert (figure.variant, figure.first, figure.last, figure.budget) == ("no-redeals", 1, 2, 300)

    build_site(copy, RULES.parent / "locales", tmp_path / "site", langs=["en", "de"], jobs=1, echo=False, report=False,
               progress="none")
    for lang in ("en", "de"):
        tree = lxml.html.fromstring((tmp_path / "site" / lang / "klondike.html").read_text(encoding="utf-8"))
        sentence = figure_sentence(figure, ui_strings(lang), lang)
        holders = [li for li in tree.iter("li") if sentence in li.text_content()]
        assert len(holders) == 1, lang
        text = " ".join(holders[0].text_content().split())
        assert text.startswith("No redeals:" if lang == "en" else "Nicht neu auflegen:")
        # The page's own rules keep their figure in the Goal section, not in an item.
        assert text.count("Of deals" if lang == "en" else "Von den Spielen") == 1


def test_a_variant_mark_must_name_a_variant_of_the_rules_block(tmp_path):
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    page = copy / "klondike.xml"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace('pb:variant="no-redeals"', 'pb:variant="no-redeal"'), encoding="utf-8")
    line = next(n for n, row in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
                if 'pb:variant="no-redeal"' in row)
    with pytest.raises(SourceError) as caught:
        load_document(copy)
    assert caught.value.file == str(page)
    assert caught.value.line == line
    assert caught.value.message == (
        "listitem: pb:variant='no-redeal' names no variant of the rules block; variants: no-redeals, "
        "single-card-deals, three-card-deals, unlimited-redeals")


def test_a_variant_mark_on_a_page_without_rules_is_an_error(tmp_path):
    copy = tmp_path / "rules"
    shutil.copytree(RULES, copy)
    page = copy / "definitions.xml"
    rows = page.read_text(encoding="utf-8").splitlines()
    n = next(i for i, row in enumerate(rows) if "<listitem><para>" in row)
    rows[n] = rows[n].replace("<listitem>", '<listitem xmlns:pb="urn:x-patiencebook:rules:1" pb:variant="one-suit">')
    page.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load_document(copy)
    assert (caught.value.file, caught.value.line) == (str(page), n + 1)
    assert caught.value.message == "listitem: pb:variant='one-suit' on a page without a rules block"
