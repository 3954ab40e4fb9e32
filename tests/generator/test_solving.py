"""``patiencebook solve``: deal ranges, per-deal lines and the rates."""

from __future__ import annotations

import pytest

from patiencebook.generator.cli import main
from patiencebook.generator.errors import PatienceBookError
from patiencebook.generator.solving import DealResult, parse_deals, summary


def test_deal_ranges_and_lists():
    assert parse_deals("1-5") == [1, 2, 3, 4, 5]
    assert parse_deals("7") == [7]
    assert parse_deals(" 1-3, 9 ,12-12") == [1, 2, 3, 9, 12]
    for bad, message in (("5-1", "runs backwards"), ("x", "numbers or ranges"), ("1-2000000", "at most")):
        with pytest.raises(PatienceBookError, match=message):
            parse_deals(bad)


def test_the_summary_gives_counts_and_rates():
    results = [DealResult(1, "solved", 10, 90), DealResult(2, "unsolvable", 50, 0), DealResult(3, "unknown", 99, 0),
               DealResult(4, "solved", 12, 95)]
    text = summary("agnes", "rules of agnes.xml", results, 99)
    assert text.splitlines() == [
        "agnes (rules of agnes.xml), deals 1-4, all cards known, budget 99 positions per deal:",
        "  solved 2 (50.0 %), unsolvable 1 (25.0 %), unknown 1 (25.0 %); 171 positions searched"]


def test_the_command_solves_each_deal_and_prints_the_rate(capsys):
    assert main(["solve", "eagle-wing", "--deals", "1,3", "--budget", "5000", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("deal 1: solved (") and lines[1].startswith("deal 3: solved (")
    assert lines[2] == ("eagle_wing (rules of eagle_wing.xml), 2 deals from 1 to 3, all cards known, budget 5000 "
                        "positions per deal:")
    assert lines[3].startswith("  solved 2 (100.0 %), unsolvable 0 (0.0 %), unknown 0 (0.0 %);")


def test_an_unknown_game_or_a_bad_range_is_one_line_of_error(capsys):
    assert main(["solve", "no-such-game"]) == 1
    assert main(["solve", "agnes", "--deals", "9-1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("patiencebook: error: ") for line in err)


def test_parallel_solving_ends_quietly(capfd):
    assert main(["solve", "eagle-wing", "--deals", "1-4", "--budget", "2000", "--jobs", "2"]) == 0
    out, err = capfd.readouterr()
    assert [line.split(":")[0] for line in out.splitlines()[:4]] == ["deal 1", "deal 2", "deal 3", "deal 4"]
    assert "Traceback" not in err and err == ""
