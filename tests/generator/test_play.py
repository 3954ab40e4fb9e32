"""The terminal play session: pile names from the help catalogs, board text, commands, localized
refusal reasons, the JSON-lines face, colour only on a terminal."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from patiencebook.engine import Move, Position
from patiencebook.generator.errors import PatienceBookError
from patiencebook.generator.languages import UI_DIR, get_language, ui_strings
from patiencebook.generator.play import (Session, find_game, known_games, player_pile_names, position_dict,
                                         run_interactive, run_jsonl, use_colour)

from tests.embedded import EMBEDDED_GAMES

ENGINE = Path(__file__).resolve().parents[2] / "engine"


@pytest.fixture(scope="module")
def games():
    return known_games()


def session(games, slug="hamilton", deal=1, lang="en", colour=False) -> Session:
    language = get_language(lang)
    return Session(games[slug], deal, ui_strings(language), player_pile_names(games[slug].ruleset, language), colour)


# -- games and names --------------------------------------------------------------------------------

def test_game_is_found_by_page_slug_or_aisleriot_name(games):
    assert find_game("eagle_wing").slug == "eagle_wing"
    assert find_game("eagle-wing").slug == "eagle_wing"
    assert find_game("Hamilton").slug == "hamilton"
    assert sorted(games) == EMBEDDED_GAMES


def test_unknown_game_names_the_closest_and_the_known_games():
    known = re.escape(", ".join(EMBEDDED_GAMES))
    with pytest.raises(PatienceBookError, match=rf"^unknown game 'Klondyke'; did you mean klondike or lady_jane\? Known games: "
                                                rf"{known} \(`patiencebook games` lists them with their names\)$"):
        find_game("Klondyke")
    with pytest.raises(PatienceBookError, match=r"^unknown game 'zzzz'\. Known games: agnes, "):
        find_game("zzzz")


@pytest.mark.parametrize("name", ["Eagle Wing", "EagleWing", "eagle-wing", "EAGLE_WING", "eagle.wing",
                                  "Adlerschwinge", "adler schwinge"])
def test_a_game_is_found_by_any_of_its_names(name):
    assert find_game(name).slug == "eagle_wing"


def test_apostrophes_and_spaces_do_not_count():
    assert find_game("Baker's Dozen").slug == find_game("bakers dozen").slug == find_game("Baker’s-Dozen").slug \
        == "bakers_dozen"


def test_sources_without_rules_blocks_say_that_nothing_can_be_played(tmp_path):
    source = Path(__file__).resolve().parents[1] / "data" / "site" / "C"
    with pytest.raises(PatienceBookError, match="no page of these sources has a rules block") as caught:
        find_game("spider", source)
    assert caught.value.file == str(source)


@pytest.mark.parametrize("lang, stock, foundation, tableau, chooser", [
    ("en", "Stock", "Foundation 1", "Tableau 7", "Chooser"),
    ("de", "Talon", "Zielstapel 1", "Tableau 7", "Auswahlstapel"),
    ("el", "Μάνα", "Βάση 1", "Ταμπλό 7", "Επιλογέας"),
    ("sr", "Талон", "Темељ 1", "Поље 7", "Бирач"),
    ("sr@latin", "Talon", "Temelj 1", "Polje 7", "Birač"),
])
def test_pile_names_are_the_setup_table_labels_of_the_help_catalog(games, lang, stock, foundation, tableau, chooser):
    names = player_pile_names(games["hamilton"].ruleset, get_language(lang))
    assert (names["stock"], names["foundation1"], names["tableau7"], names["chooser"]) == (
        stock, foundation, tableau, chooser)


def test_pile_names_of_eagle_wing_in_german_include_waste_and_reserve(games):
    names = player_pile_names(games["eagle_wing"].ruleset, get_language("de"))
    assert (names["waste"], names["reserve"]) == ("Ablagestapel", "Reserve")


def test_pile_names_without_a_language_are_the_english_labels(games):
    names = player_pile_names(games["hamilton"].ruleset)
    assert names == player_pile_names(games["hamilton"].ruleset, get_language("en"))
    assert names["foundation1"] == "Foundation 1"


# -- machine form -------------------------------------------------------------------------------------

def test_position_dict_marks_face_down_cards_and_follows_slot_order(games):
    from patiencebook.engine import Game
    position = Game.deal(games["agnes"].ruleset, 1).position
    data = position_dict(position, 1)
    assert [p["id"] for p in data["piles"]][:6] == ["stock", "foundation1", "foundation2", "foundation3",
                                                    "foundation4", "tableau1"]
    assert data["piles"][1] == {"id": "foundation1", "role": "foundation", "cards": ["4c"]}
    assert data["piles"][-1]["cards"] == ["#4d", "#3h", "#3s", "#Jh", "#4h", "#9h", "9s"]


def test_run_jsonl_writes_one_line_per_move_and_an_error_line_for_a_refused_one(games):
    out = io.StringIO()
    status = run_jsonl(games["hamilton"].ruleset, 1, ["stock\n", "\n", "chooser>tableau1\n", "chooser>foundation1\n"],
                       out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert status == 0 and len(lines) == 4
    assert lines[1]["legal"] == ["chooser>foundation1", "chooser>foundation2", "chooser>foundation3",
                                 "chooser>foundation4", "stock"]
    assert lines[2]["code"] == "start-card-target"
    assert lines[2]["error"] == "the card in the chooser can only go to an empty foundation, as the start card"
    assert lines[2]["piles"] == lines[1]["piles"]
    assert lines[3]["score"] == 1 and lines[3]["legal"] == ["tableau2>tableau5", "stock"]


# -- board and commands ---------------------------------------------------------------------------------

def test_board_numbers_piles_in_slot_order_with_suit_symbols(games):
    board = session(games, "eagle_wing").board().splitlines()
    assert board[0] == "Eagle Wing, deal 1"
    assert board[1] == " 1  Stock         ##  (30 cards)"
    assert board[3] == " 3  Foundation 1  J♥"
    assert board[11] == "11  Reserve       9♣ ## ## ## ## ## ## ## ## ## ## ## ##"
    assert board[-1] == "Score: 1 of 52"


def test_red_suits_are_coloured_only_when_colour_is_on(games):
    plain, coloured = session(games), session(games, colour=True)
    assert plain.card("Th") == "10♥" and plain.card("Qs") == "Q♠"
    assert coloured.card("Th") == "\x1b[31m10♥\x1b[0m"
    assert coloured.card("Qs") == "Q♠"
    assert coloured.card("7d", face_up=False) == "##"
    assert plain.card("Jk") == coloured.card("Jk") == "Jk"


def test_colour_is_off_for_a_pipe_and_when_no_color_is_set(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_colour(Terminal()) is True
    assert use_colour(io.StringIO()) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_colour(Terminal()) is False


def test_numbered_commands_stand_for_drags_clicks_and_notation(games):
    s = session(games)
    assert s.parse("7 8") == Move.drag("tableau1", "tableau2")
    assert s.parse("13:3 9") == Move.drag("tableau7", "tableau3", 3)
    assert s.parse("s") == Move.stock()
    assert s.parse("d 2") == Move.double_click("chooser")
    assert s.parse("tableau3:2>tableau5") == Move.parse("tableau3:2>tableau5")


def test_a_pile_number_past_the_last_pile_is_refused_with_the_range(games):
    text, go_on = session(games, lang="de").handle("14 1")
    assert (text, go_on) == ("Einen Stapel 14 gibt es nicht; die Stapel sind von 1 bis 13 nummeriert.", True)


def test_undo_and_redo_without_moves_are_refused_in_the_language(games):
    s = session(games, lang="de")
    assert s.handle("u") == ("Nicht erlaubt: Es gibt keinen Zug, der zurückgenommen werden kann.", True)
    assert s.handle("r") == ("Nicht erlaubt: Es gibt keinen Zug, der wiederholt werden kann.", True)


def test_hint_says_in_words_what_to_do_with_the_typed_pile_numbers(games):
    assert session(games, "eagle_wing", lang="de").handle("h") == (
        "Legen Sie den B♣ von Tableau 4 [10] auf Zielstapel 2 [4].", True)
    assert session(games, "eagle_wing", lang="en").handle("h") == (
        "Move the J♣ from tableau pile 4 [10] onto foundation 2 [4].", True)


def test_a_move_says_what_it_did_then_undo_and_redo_say_what_they_did(games):
    s = session(games, "eagle_wing", lang="el")
    text, _ = s.handle("10 4")
    assert text.splitlines()[0] == "Ο Β♣ μετακινήθηκε από το Ταμπλό 4 [10] στη Βάση 2 [4]."
    assert text.splitlines()[1] == "Eagle Wing, μοίρασμα αρ. 1"
    assert s.handle("u")[0].splitlines()[0] == "Ο Β♣ επέστρεψε στο Ταμπλό 4 [10]."
    assert s.handle("r")[0].splitlines()[0] == ("Η κίνηση έγινε ξανά. "
                                                "Ο Β♣ μετακινήθηκε από το Ταμπλό 4 [10] στη Βάση 2 [4].")


def test_the_board_writes_ranks_and_counts_in_the_language(games):
    german = session(games, "eagle_wing", lang="de").board().splitlines()
    assert german[1] == " 1  Talon         ##  (30 Karten)"
    assert german[3] == " 3  Zielstapel 1  B♥"
    serbian = session(games, "eagle_wing", lang="sr").board().splitlines()
    assert serbian[3] == " 3  Темељ 1  Ж♥" and serbian[1] == " 1  Талон    ##  (30 карата)"


def test_a_language_without_a_catalog_names_the_piles_as_its_interface_strings_do(games):
    """French has no help catalog: the pile names come from its pile_forms, so a message never
    mixes French words with English pile names."""
    ruleset = games["eagle_wing"].ruleset
    names = player_pile_names(ruleset, get_language("fr"))
    assert (names["stock"], names["foundation2"], names["tableau4"]) == ("Talon", "Fondation 2", "Colonne 4")
    assert session(games, "eagle_wing", lang="fr").handle("h") == (
        "Déplacez la carte V♣ de la colonne 4 [10] sur la fondation 2 [4].", True)


def test_a_refused_drag_names_cards_and_piles_in_greek(games):
    s = session(games, "eagle_wing", lang="el")
    text, _ = s.handle("7 9")
    assert text == ("Δεν επιτρέπεται: το 9♦ δεν μπαίνει πάνω στο 5♠: το Ταμπλό 3 [9] χτίζεται "
                    "προς τα κάτω στο ίδιο χρώμα (ίδια φυλή).")


def test_new_deal_takes_the_next_deal_number(games):
    s = session(games, "agnes", deal=41)
    text, _ = s.handle("n")
    assert text.splitlines()[:2] == ["New game: deal 42.", "Agnes, deal 42"]
    assert s.game.seed == 42


def test_won_game_says_so(games, monkeypatch):
    s = session(games, "hamilton")
    monkeypatch.setattr(Position, "is_won", lambda self: True)
    text, _ = s.handle("s")
    assert text.endswith("You won: every card is on the foundations.")


def test_load_of_a_saved_game_of_another_game_is_refused_with_the_reason(games, tmp_path):
    saved = tmp_path / "agnes.txt"
    saved.write_text("game: agnes\nseed: 3\nmoves:\n", encoding="utf-8")
    text, go_on = session(games, "hamilton").handle(f"load {saved}")
    assert go_on and text == f"Cannot use {saved}: the saved game is of 'agnes', not 'hamilton'"


def test_run_interactive_echoes_piped_commands_and_quits(games):
    out = io.StringIO()
    status = run_interactive(games["agnes"], 1, get_language("en"), ["?\n", "q\n"], out, colour=False)
    text = out.getvalue()
    assert status == 0
    assert "Your move (? for help): ?\nCommands:\n  3 5       move the top card of pile 3 to pile 5" in text
    assert text.endswith("Your move (? for help): q\nGoodbye.\n")


# -- translations ----------------------------------------------------------------------------------------

def engine_reason_codes() -> set[str]:
    text = "".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    codes = set(re.findall(r'Reason\(\s*"([a-z-]+)"', text))
    codes |= set(re.findall(r'IllegalMove\([^()]*?,\s*"([a-z-]+)"\)', text))
    return codes


def test_every_refusal_code_of_the_engine_has_a_reason_in_every_language():
    codes = engine_reason_codes()
    assert {"does-not-fit", "face-down", "no-undo", "no-redo", "stock-empty"} <= codes
    for path in sorted(UI_DIR.glob("*.json")):
        if path.name == "sphinx-strings.json":
            continue
        keys = json.loads(path.read_text(encoding="utf-8"))
        missing = sorted(c for c in codes if f"reason_{c}" not in keys)
        assert missing == [], f"{path.name} lacks reasons for {missing}"
