"""The engine's command line faces, run as a separate process: ``deal`` and ``play`` (JSON lines and
the terminal session), with real deals of the embedded games.

Expected layouts are AisleRiot's: Hamilton deal 1 is the order recorded in tests/engine/test_deals.py
(read from AisleRiot 3.22.23), dealt in rows to the seven tableau piles, the rest face down in the stock.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.embedded import EMBEDDED_GAMES
from tests.engine.test_deals import HAMILTON_1

REPO = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "", env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    # The session's own locale must not choose the language of play (see test_play_takes_the_locale).
    quiet = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    environment = {**quiet, "NO_COLOR": "", **(env or {})}
    return subprocess.run([sys.executable, "-m", "patiencebook.generator.cli", *args], input=stdin,
                          capture_output=True, text=True, encoding="utf-8", cwd=REPO, env=environment,
                          timeout=120)


HAMILTON_1_PILES = [
    {"id": "stock", "role": "stock", "cards": [
        "#7s", "#2h", "#Ah", "#7c", "#Th", "#5h", "#2c", "#Ts", "#7d", "#8s", "#4s", "#8c", "#Qc", "#Qd", "#Jd",
        "#6h", "#Tc", "#Kc", "#6d", "#Kh", "#Qs", "#5c", "#5d", "#4c"]},
    {"id": "chooser", "role": "chooser", "cards": []},
    {"id": "foundation1", "role": "foundation", "cards": []},
    {"id": "foundation2", "role": "foundation", "cards": []},
    {"id": "foundation3", "role": "foundation", "cards": []},
    {"id": "foundation4", "role": "foundation", "cards": []},
    {"id": "tableau1", "role": "tableau", "cards": ["9c"]},
    {"id": "tableau2", "role": "tableau", "cards": ["Qh", "Ks"]},
    {"id": "tableau3", "role": "tableau", "cards": ["8d", "Td", "9d"]},
    {"id": "tableau4", "role": "tableau", "cards": ["3c", "Ad", "3d", "7h"]},
    {"id": "tableau5", "role": "tableau", "cards": ["6s", "2s", "5s", "2d", "As"]},
    {"id": "tableau6", "role": "tableau", "cards": ["Ac", "Js", "Jc", "6c", "8h", "Kd"]},
    {"id": "tableau7", "role": "tableau", "cards": ["4d", "3h", "3s", "Jh", "4h", "9h", "9s"]},
]


# -- deal ----------------------------------------------------------------------------------------

def test_deal_json_of_hamilton_1_is_aisleriot_deal_1_in_slot_order():
    result = run("deal", "hamilton", "--deal", "1", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"game": "hamilton", "deal": 1, "piles": HAMILTON_1_PILES}


def test_deal_json_of_hamilton_1_holds_the_recorded_aisleriot_order_card_for_card():
    piles = {p["id"]: p["cards"] for p in json.loads(run("deal", "hamilton", "--deal", "1", "--json").stdout)["piles"]}
    # Rows: the n-th round gives one card to each tableau pile from the n-th onwards.
    order, tableau = [], [piles[f"tableau{n}"] for n in range(1, 8)]
    for row in range(7):
        order += [tableau[n][row] for n in range(row, 7)]
    order += [c.lstrip("#") for c in reversed(piles["stock"])]
    assert order == [str(c) for c in HAMILTON_1]


def test_deal_json_of_eagle_wing_lists_the_reserve_between_tableau_4_and_5_as_aisleriot_slot_10():
    result = run("deal", "eagle-wing", "--deal", "1", "--json")
    data = json.loads(result.stdout)
    assert data["game"] == "eagle_wing"
    assert [p["id"] for p in data["piles"]] == [
        "stock", "waste", "foundation1", "foundation2", "foundation3", "foundation4",
        "tableau1", "tableau2", "tableau3", "tableau4", "reserve", "tableau5", "tableau6", "tableau7", "tableau8"]
    assert data["piles"][10]["cards"] == ["9c", "#Qh", "#8d", "#3c", "#6s", "#Ac", "#4d", "#Ks", "#Td", "#Ad",
                                          "#2s", "#Js", "#3h"]
    assert data["piles"][2]["cards"] == ["Jh"]


def test_deal_without_json_prints_the_text_form():
    result = run("deal", "agnes", "--deal", "1")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[:5] == ["game: agnes", "base: 4", "redeals: 0", "offers: 0", "score: 1"]
    assert "tableau7: #4d #3h #3s #Jh #4h #9h 9s" in lines


def test_unknown_game_is_one_error_line_naming_the_known_games_with_status_1():
    result = run("deal", "accordion", "--deal", "1", "--json")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.startswith("patiencebook: error: unknown game 'accordion'")
    assert result.stderr.endswith(f"Known games: {', '.join(EMBEDDED_GAMES)} (`patiencebook games` "
                                  "lists them with their names)\n")
    assert result.stderr.count("\n") == 1
    assert run("play", "accordion", "--deal", "1").returncode == 1


def test_deal_number_out_of_range_is_one_error_line():
    result = run("deal", "hamilton", "--deal", "4294967296")
    assert result.returncode == 1
    assert result.stderr.startswith("patiencebook: error: a deal number is a whole number from 0 to 4294967295")


# -- play --jsonl ---------------------------------------------------------------------------------

def states(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_play_jsonl_writes_the_initial_state_before_any_move():
    result = run("play", "hamilton", "--deal", "1", "--jsonl")
    assert result.returncode == 0
    [first] = states(result.stdout)
    assert first["piles"] == HAMILTON_1_PILES
    assert (first["score"], first["won"], first["lost"], first["legal"]) == (0, False, False, ["stock"])


def test_play_jsonl_scripted_eagle_wing_moves_give_scores_and_legal_moves():
    moves = "tableau4>foundation2\ntableau7>tableau2\nstock\n"
    result = run("play", "eagle_wing", "--deal", "1", "--jsonl", stdin=moves)
    assert result.returncode == 0, result.stderr
    out = states(result.stdout)
    assert [(s["score"], s["legal"]) for s in out] == [
        (1, ["tableau4>foundation2", "tableau4>foundation3", "tableau4>foundation4", "tableau7>tableau2", "stock"]),
        (2, ["tableau7>tableau2", "stock"]),
        (2, ["tableau7>foundation3", "tableau7>foundation4", "stock"]),
        (2, ["tableau7>foundation3", "tableau7>foundation4", "stock"]),
    ]
    piles = {p["id"]: p["cards"] for p in out[-1]["piles"]}
    # The emptied tableau 4 took the reserve's top card, face up; the stock's top card went to the waste.
    assert piles["tableau4"] == ["3h"] and piles["foundation2"] == ["Jc"]
    assert piles["tableau2"] == ["3d", "2d"] and piles["tableau7"] == ["Js"]
    assert piles["waste"] == ["As"]
    assert all(not s["won"] and not s["lost"] and "error" not in s for s in out)


def test_play_jsonl_illegal_or_unreadable_move_reports_error_and_keeps_the_state():
    result = run("play", "eagle_wing", "--deal", "1", "--jsonl",
                 stdin="tableau1>tableau3\nnot a move\ntableau4>foundation2\n")
    first, illegal, unreadable, played = states(result.stdout)
    assert illegal["error"] == "a 9 of diamonds cannot go on the 5 of spades: the tableau builds down in suit"
    assert illegal["code"] == "does-not-fit"
    assert unreadable["code"] == "bad-move" and unreadable["error"].startswith("bad move 'not a move'")
    for refused in (illegal, unreadable):
        assert {k: v for k, v in refused.items() if k not in ("error", "code")} == first
    assert played["score"] == 2 and "error" not in played
    assert result.returncode == 0


# -- interactive play -------------------------------------------------------------------------------

def test_interactive_play_in_german_names_piles_refuses_in_german_undoes_and_quits():
    script = "7 8\ns\n2 3\nu\nq\n"
    result = run("play", "hamilton", "--deal", "1", "--lang", "de", stdin=script)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    lines = out.splitlines()
    assert lines[0] == "Hamilton, Spiel Nr. 1"
    assert lines[1] == " 1  Talon          ##  (24 Karten)"
    assert lines[2] == " 2  Auswahlstapel  (leer)"
    assert lines[3] == " 3  Zielstapel 1   (leer)"
    assert lines[8] == " 8  Tableau 2      D♥ K♠"  # German rank marks: Dame, König
    assert lines[14] == "Punkte: 0 von 52"
    assert ("Nicht erlaubt: Wählen Sie zuerst die Startkarte: Klicken Sie auf den Talon, um eine Karte auf den "
            "Auswahlstapel zu legen, und legen Sie diese dann auf einen Zielstapel.\n") in out
    assert "Ihr Zug (? für Hilfe): s\nVom Talon [1] wurde die 4♣ auf den Auswahlstapel [2] gelegt.\n" in out
    assert "Ihr Zug (? für Hilfe): 2 3\nDie 4♣ wurde vom Auswahlstapel [2] auf Zielstapel 1 [3] gelegt.\n" in out
    assert "Punkte: 1 von 52" in out
    assert "Ihr Zug (? für Hilfe): u\nDie 4♣ liegt wieder auf dem Auswahlstapel [2].\n" in out
    # After the undo the 4 of clubs is back in the chooser and the score is 0 again.
    after_undo = out.split("Die 4♣ liegt wieder auf dem Auswahlstapel [2].")[1]
    assert " 2  Auswahlstapel  4♣" in after_undo and "Punkte: 0 von 52" in after_undo
    assert out.rstrip().endswith("Auf Wiedersehen.")
    assert "\x1b[" not in out


def test_interactive_play_refuses_a_misfit_card_with_a_german_reason():
    result = run("play", "eagle_wing", "--deal", "1", "--lang", "de", stdin="7 9\nq\n")
    assert ("Nicht erlaubt: Die 9♦ passt nicht auf die 5♠: Auf Tableau 3 [9] wird abwärts in gleicher Farbe "
            "angelegt.\n" in result.stdout)
    assert " 2  Ablagestapel  (leer)" in result.stdout
    assert "11  Reserve       9♣ ## ## ## ## ## ## ## ## ## ## ## ##" in result.stdout


def test_interactive_save_then_load_restores_the_same_position(tmp_path):
    saved = tmp_path / "game.txt"
    script = f"s\nd 2\nsave {saved}\nn\nload {saved}\nq\n"
    result = run("play", "hamilton", "--deal", "1", stdin=script)
    assert result.returncode == 0, result.stderr
    assert saved.read_text(encoding="utf-8").splitlines()[:2] == ["game: hamilton", "seed: 1"]
    assert saved.read_text(encoding="utf-8").splitlines()[-1] == "moves: stock dbl:chooser"
    boards = result.stdout.split("Hamilton, deal ")
    before_save, new_deal, loaded = boards[3], boards[4], boards[5]
    assert new_deal.startswith("2\n")
    assert loaded.startswith("1\n")
    assert loaded.split("Your move")[0] == before_save.split("Your move")[0]
    assert " 3  Foundation 1  4♣" in loaded and "Score: 1 of 52" in loaded


def test_interactive_play_without_a_deal_number_picks_one_and_says_which():
    result = run("play", "agnes", stdin="q\n")
    first = result.stdout.splitlines()[0]
    assert first.startswith("No deal number given: playing deal ")
    number = int(first.removeprefix("No deal number given: playing deal ").rstrip("."))
    assert result.stdout.splitlines()[1] == f"Agnes, deal {number}"


def test_interactive_play_ends_with_status_0_at_end_of_input():
    result = run("play", "agnes", "--deal", "5", "--lang", "sr@latin", stdin="h\n")
    assert result.returncode == 0
    # The hint in words, in the formal register, never the move's notation.
    assert "(? za pomoć): h\nPremestite kartu 4♣ sa Polja 6 [11] na kartu 5♣ na Polju 1 [6].\n" in result.stdout
    assert "Talon" in result.stdout and "Temelj 1" in result.stdout and "Polje 1" in result.stdout


# -- rule variants ---------------------------------------------------------------------------------

def test_play_a_variant_three_card_deals_turns_three_cards_and_the_title_names_it():
    result = run("play", "klondike", "--variant", "three-card-deals", "--deal", "3", stdin="s\nn\nq\n")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Klondike (Three card deals), deal 3"
    assert lines[1:3] == [" 1  Stock         ##  (24 cards)", " 2  Waste         (empty)"]
    after = lines[lines.index("Your move (? for help): s") + 1:]
    assert after[:4] == ["The stock [1] turned its top 3 cards over onto the waste [2].",
                         "Klondike (Three card deals), deal 3", " 1  Stock         ##  (21 cards)",
                         " 2  Waste         10♣ 5♠ 4♦"]
    # A new deal keeps the variant.
    assert "New game: deal 4.\nKlondike (Three card deals), deal 4\n" in result.stdout


def test_play_without_a_variant_plays_the_pages_own_rules():
    result = run("play", "klondike", "--deal", "3", "--lang", "de", stdin="s\nq\n")
    lines = result.stdout.splitlines()
    assert lines[0] == "Klondike, Spiel Nr. 3"
    assert lines[lines.index("Ihr Zug (? für Hilfe): s") + 1:][:4] == [
        "Vom Talon [1] wurde die oberste Karte auf den Ablagestapel [2] umgedreht.",
        "Klondike, Spiel Nr. 3", " 1  Talon         ##  (23 Karten)", " 2  Ablagestapel  10♣"]
    # The page's own variant named is the same game, with the same title.
    named = run("play", "klondike", "--variant", "single-card-deals", "--deal", "3", "--lang", "de", stdin="s\nq\n")
    assert named.stdout == result.stdout


def test_play_a_variant_names_it_in_the_language_of_play():
    result = run("play", "spider", "--variant", "two-suits", "--deal", "3", "--lang", "el", stdin="q\n")
    assert result.stdout.splitlines()[0] == "Αράχνη (Δύο φυλές), μοίρασμα αρ. 3"


def test_play_jsonl_of_one_suit_spider_deals_only_spades():
    result = run("play", "spider", "--variant", "one-suit", "--deal", "3", "--jsonl", stdin="")
    state = json.loads(result.stdout.splitlines()[0])
    cards = [card.lstrip("#") for pile in state["piles"] for card in pile["cards"]]
    assert len(cards) == 104 and {card[1] for card in cards} == {"s"}
    assert sorted(cards).count("As") == 8


def test_play_with_a_variant_the_game_does_not_have_lists_its_variants():
    result = run("play", "klondike", "--variant", "three", "--deal", "3", stdin="q\n")
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == ("patiencebook: error: klondike has no variant 'three'; its variants: single-card-deals "
                             "(the default), three-card-deals, no-redeals, unlimited-redeals\n")


def test_play_help_lists_the_variants():
    result = run("play", "--help")
    # argparse may break a line after the hyphen of a variant id ("single- card-deals"): join those back.
    help_text = re.sub(r"(?<=\w)- (?=\w)", "-", " ".join(result.stdout.split()))
    assert ("--variant ID a rule variant of the game, by the id its rules name (giant: alternate-colours, the "
            "default, same-suit; klondike: single-card-deals, the "
            "default, three-card-deals, no-redeals, unlimited-redeals; osmosis: single-card-deals, the default, "
            "three-card-deals; spider: four-suits, the default, two-suits, "
            "one-suit); default: the rules the page states") in help_text
