"""``patiencebook solve``: deal ranges, per-deal lines, the rates, the winning moves in words (``--show``)
and the rule variants."""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.engine import Game
from patiencebook.generator.cli import EMBEDDED_VARIANTS, VARIANT_HELP, main
from patiencebook.generator.play import find_game, known_games
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


# -- the winning moves --------------------------------------------------------------------------------

#: ``solve freecell --deal 5 --show --lang en``: FreeCell deal 5 (AisleRiot's numbering) won in 29 moves.
FREECELL_5_SHOWN = [
    'deal 5: solved (257 positions, 29 moves)',
    '   1. Move the A♦ from tableau pile 1 onto foundation 1. (tableau1>foundation1)',
    '   2. Move the 2♣ from tableau pile 2 into free cell 1. (tableau2>freecell1)',
    '   3. Move the 5♦ from tableau pile 2 into free cell 2. (tableau2>freecell2)',
    '   4. Move the 3♣ from tableau pile 1 onto foundation 2. (tableau1>foundation2)',
    '   5. Move the 4♠ from tableau pile 8 into free cell 1. (tableau8>freecell1)',
    '   6. Move the J♦ from tableau pile 8 into free cell 3. (tableau8>freecell3)',
    '   7. Move the 8♠ from tableau pile 7 into free cell 4. (tableau7>freecell4)',
    '   8. Move the 3♦ from tableau pile 7 onto the 4♣ on tableau pile 2. (tableau7>tableau2)',
    '   9. Move the J♥ from tableau pile 6 onto the Q♣ on tableau pile 7. (tableau6>tableau7)',
    '  10. Move the 4♠ from free cell 1 onto the 5♥ on tableau pile 6. (freecell1>tableau6)',
    '  11. Move the J♥ from tableau pile 7 into free cell 1. (tableau7>freecell1)',
    '  12. Move the 3♦ from tableau pile 2 onto the 4♠ on tableau pile 6. (tableau2>tableau6)',
    '  13. Move the 4♣ from tableau pile 2 onto foundation 2. (tableau2>foundation2)',
    '  14. Move the Q♣ from tableau pile 7 onto the K♦ on tableau pile 2. (tableau7>tableau2)',
    '  15. Move the 3♦ from tableau pile 6 onto foundation 1. (tableau6>foundation1)',
    '  16. Move the 3♥ from tableau pile 7 onto the 4♠ on tableau pile 6. (tableau7>tableau6)',
    '  17. Move the K♣ from tableau pile 1 onto tableau pile 7. (tableau1>tableau7)',
    '  18. Move the 4♦ from tableau pile 1 onto foundation 1. (tableau1>foundation1)',
    '  19. Move the 3♠ from tableau pile 8 onto foundation 3. (tableau8>foundation3)',
    '  20. Move the 5♦ from free cell 2 onto foundation 1. (freecell2>foundation1)',
    '  21. Move the K♠ from tableau pile 8 into free cell 2. (tableau8>freecell2)',
    '  22. Move the 8♦ from tableau pile 4 onto tableau pile 1. (tableau4>tableau1)',
    '  23. Move the 7♦ from tableau pile 3 onto foundation 1. (tableau3>foundation1)',
    '  24. Move the 7♠ from tableau pile 5 onto tableau pile 8. (tableau5>tableau8)',
    '  25. Move the 8♣ from tableau pile 5 onto the 9♥ on tableau pile 6. (tableau5>tableau6)',
    '  26. Move the run of 2 cards that starts with the K♦ from tableau pile 2 onto tableau pile 8. (tableau2:2>tableau8)',
    '  27. Move the K♥ from tableau pile 5 onto tableau pile 1. (tableau5>tableau1)',
    '  28. Move the Q♠ from tableau pile 3 onto tableau pile 2. (tableau3>tableau2)',
    '  29. Move the Q♥ from tableau pile 4 onto foundation 4. (tableau4>foundation4)',
    'freecell (rules of freecell.xml), deal 5, all cards known, budget 200000 positions per deal:',
    '  solved 1 (100.0 %), unsolvable 0 (0.0 %), unknown 0 (0.0 %); 257 positions searched',
]


def test_show_prints_the_winning_moves_numbered_in_words_and_notation(capsys):
    assert main(["solve", "freecell", "--deal", "5", "--show", "--lang", "en", "--jobs", "1"]) == 0
    assert capsys.readouterr().out.splitlines() == FREECELL_5_SHOWN


def test_the_moves_shown_win_the_deal_when_replayed():
    game = Game.deal(find_game("freecell").ruleset, 5)
    for line in FREECELL_5_SHOWN[1:30]:
        game.push(line.rsplit("(", 1)[1].rstrip(")"))
    assert game.position.is_won()


def test_show_words_the_moves_in_the_language_chosen(capsys):
    assert main(["solve", "freecell", "--deal", "5", "--show", "--lang", "el", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:4] == [
        "   1. Μετακινήστε τον Α♦ από το Ταμπλό 1 στη Βάση 1. (tableau1>foundation1)",
        "   2. Μετακινήστε το 2♣ από το Ταμπλό 2 στο Ελεύθερο κελί 1. (tableau2>freecell1)",
        "   3. Μετακινήστε το 5♦ από το Ταμπλό 2 στο Ελεύθερο κελί 2. (tableau2>freecell2)"]
    assert lines[26] == '  26. Μετακινήστε από το Ταμπλό 2 στο Ταμπλό 8 τη σειρά 2 φύλλων που ξεκινά με τον Ρ♦. (tableau2:2>tableau8)'
    assert len(lines) == 32


def test_show_prints_no_moves_for_a_deal_that_cannot_be_won(capsys):
    assert main(["solve", "hamilton", "--deal", "4", "--show", "--lang", "en", "--jobs", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[0:2] == [
        "deal 4: unsolvable (2200 positions)",
        "hamilton (rules of hamilton.xml), deal 4, all cards known, budget 200000 positions per deal:"]


def test_the_variants_in_the_help_are_those_the_embedded_rules_name():
    named = {slug: tuple(vid for vid, _ in game.variants) for slug, game in known_games().items() if game.variants}
    assert named == EMBEDDED_VARIANTS
    assert all(game.ruleset.variant == EMBEDDED_VARIANTS[slug][0] for slug, game in known_games().items()
               if game.variants)
    assert VARIANT_HELP == ("a rule variant of the game, by the id its rules name (giant: alternate-colours, the "
                            "default, same-suit; klondike: single-card-deals, the "
                            "default, three-card-deals, no-redeals, unlimited-redeals; osmosis: single-card-deals, the "
                            "default, three-card-deals; spider: four-suits, the default, "
                            "two-suits, one-suit); default: the rules the page states")


def test_an_unknown_variant_names_the_game_and_its_variants(capsys):
    assert main(["solve", "spider", "--variant", "three-suits", "--deal", "1"]) == 1
    assert capsys.readouterr().err == ("patiencebook: error: spider has no variant 'three-suits'; its variants: "
                                       "four-suits (the default), two-suits, one-suit\n")
    assert main(["solve", "golf", "--variant", "one-suit", "--deal", "1"]) == 1
    assert capsys.readouterr().err == ("patiencebook: error: golf has no rule variants, so it takes no --variant "
                                       "(not 'one-suit'); its page states one set of rules\n")
