"""``patiencebook solve``: deal ranges, per-deal lines and the rates."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.generator.cli import main
from patiencebook.generator.errors import PatienceBookError
from patiencebook.generator.solving import DealResult, parse_deal_spec, parse_deals, summary


def test_deal_ranges_and_lists():
    assert parse_deals("1-5") == [1, 2, 3, 4, 5]
    assert parse_deals("7") == [7]
    assert parse_deals(" 1-3, 9 ,12-12") == [1, 2, 3, 9, 12]
    assert parse_deals("0,4294967295") == [0, 4294967295]
    for bad, message in (("5-1", "runs backwards"), ("x", "numbers or ranges"), ("1-2000000", "at most"),
                         ("3,1-2,3", "deal 3 is named twice"), ("1,,2", "an empty item"),
                         ("4294967296", "from 0 to 4294967295"), ("1-1000000000000", "from 0 to 4294967295"),
                         ("\uff11", "numbers or ranges"), ("\u0661\u0660", "numbers or ranges")):
        with pytest.raises(PatienceBookError, match=message):
            parse_deals(bad)


def test_microsoft_deal_numbers_keep_their_ms_in_errors():
    assert parse_deal_spec("ms1-ms3,ms9") == ("ms", [1, 2, 3, 9])
    for bad, message in (("ms-5", "written ms617 or ms1-ms100, not 'ms-5'"), ("ms3-ms1", "ms3-ms1 runs backwards"),
                         ("ms0", "from ms1 to ms2147483647"), ("ms99999999999999999999", "from ms1 to"),
                         ("ms1-2", "written ms617 or ms1-ms100")):
        with pytest.raises(PatienceBookError, match=message):
            parse_deal_spec(bad)


@pytest.mark.parametrize("argv, message", [
    (["--deal", "2", "--deals", "5-6"], "not allowed with argument"),
    (["--budget", "\u00b2"], "expected a whole number of at least 1"),
    (["--jobs", "\u0661"], "expected a whole number of at least 1"),
])
def test_options_that_do_not_go_together_or_are_not_numbers_are_usage_errors(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_:
        main(["solve", "golf", *argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "_positive" not in err


@pytest.mark.parametrize("deal", ["1-3", "1,5", "", "ms"])
def test_deal_takes_one_deal_number(capsys, deal):
    assert main(["solve", "golf", "--deal", deal]) == 1
    assert capsys.readouterr().err.startswith("patiencebook: error: --deal takes one deal number")


def test_a_closed_pipe_stops_the_output_not_the_recording(tmp_path):
    import shutil
    import subprocess
    import sys

    from patiencebook.generator.pages.figures import load_figures

    copy = tmp_path / "rules"
    shutil.copytree(Path(__file__).resolve().parents[2] / "rules", copy)
    (copy / "solved.json").unlink()
    command = (f"{sys.executable} -m patiencebook.generator.cli solve golf --sources {copy} --deals 1-40 "
               f"--budget 50 --jobs 1 --record | head -1; echo \"status ${{PIPESTATUS[0]}}\"")
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=300)
    assert done.stdout.splitlines()[0].startswith("deal 1: ")
    assert done.stdout.splitlines()[-1] == "status 0"
    assert "Traceback" not in done.stderr and done.stderr == ""
    assert len(load_figures(copy / "solved.json")[0].results) == 40


def test_terminate_ends_with_status_143_and_says_so():
    import signal
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "patiencebook.generator.cli", "solve", "golf",
                                "--deals", "1-100000", "--budget", "2000", "--jobs", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout.readline().startswith("deal 1: ")  # running, its handlers set
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert err.strip() == "patiencebook: terminated"


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
