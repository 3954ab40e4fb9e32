"""Moves, refusals, undo, redo, hints and the end of a game in words: the exact sentence of each
message kind in each language with interface strings (their pile names in the cases and with the
articles the language needs, counts in the plural form the language's CLDR rule picks, rank marks
in the language), the sentences shown together each with its full stop, and the message format's
checks of a language's strings."""

from __future__ import annotations

import dataclasses
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from patiencebook.engine import Game, IllegalMove, Move
from patiencebook.engine.frontend import BoardGame
from patiencebook.engine.rules import Reveal, Ruleset, pile_ids
from patiencebook.engine.wording import Phrase, Wording, check_interface
from patiencebook.generator.languages import get_language, plural_categories, ui_strings
from patiencebook.generator.play import known_games, player_pile_names

LANGUAGES = ("en", "de", "el", "sr", "sr@latin", "ca", "cs", "es", "eu", "fr", "hu", "kk", "ru", "sv", "zh_CN")

#: name -> (game, variant, deal, moves played first, the move said): one scenario per message kind.
SCENARIOS = {
    "move": ("eagle_wing", None, 1, [], "tableau4>foundation2"),
    "move_onto": ("eagle_wing", None, 1, [], "tableau7>tableau2"),
    "move_from_chooser": ("hamilton", None, 1, ["stock"], "chooser>foundation1"),
    "run": ("yukon", None, 1, ["tableau1>tableau3"], "tableau2:3>tableau1"),
    "run_onto": ("yukon", None, 1, [], "tableau3:2>tableau2"),
    "deal_one": ("eagle_wing", None, 1, [], "stock"),
    "deal_three": ("klondike", "three-card-deals", 1, [], "stock"),
    "deal_each": ("agnes", None, 1, [], "stock"),
    "offer": ("hamilton", None, 1, [], "stock"),
    "redeal": ("klondike", "three-card-deals", 1, ["stock"] * 8, "stock"),
    "dbl": ("freecell", None, 1, [], "dbl:tableau1"),
    "dbl_run": ("hamilton", None, 5, ["stock", "chooser>foundation3", "stock"], "dbl:tableau7"),
    "dbl_auto": ("klondike", "single-card-deals", 1, [], "dbl:foundation1"),
    "flip": ("klondike-click", "single-card-deals", 2, ["tableau2>tableau5"], "flip:tableau2"),
    "refused_fit": ("eagle_wing", None, 1, [], "tableau1>tableau3"),
    "refused_face_down": ("yukon", None, 1, [], "tableau2:6>tableau1"),
    "refused_dbl": ("eagle_wing", None, 1, [], "dbl:stock"),
    "refused_no_redeal": ("golf", None, 1, ["stock"] * 17, "stock"),
    "refused_redeals_used": ("klondike", "single-card-deals", 1, (["stock"] * 25) * 2 + ["stock"] * 24, "stock"),
    "pair": ("monte_carlo", None, 1, [], "tableau12>tableau17"),
    "close_up": ("monte_carlo", None, 1, ["tableau12>tableau17"], "stock"),
    "refused_neighbours": ("monte_carlo", None, 1, [], "tableau6>tableau10"),
    "refused_rank_before": ("osmosis", "single-card-deals", 1, ["stock"] * 5, "waste>foundation3"),
}


@lru_cache(maxsize=None)
def ruleset_of(game: str, variant: str | None) -> Ruleset:
    """The ruleset of a shipped game; ``klondike-click``: Klondike whose tableau cards are turned
    over by a click (no shipped game does that), for the flip messages."""
    if game == "klondike-click":
        ruleset = ruleset_of("klondike", variant)
        piles = tuple(dataclasses.replace(p, reveal=Reveal.CLICK) if p.id == "tableau" else p for p in ruleset.piles)
        return dataclasses.replace(ruleset, piles=piles)
    return known_games()[game].variant(variant)


def wording(lang: str, ruleset: Ruleset) -> Wording:
    return Wording(ruleset, ui_strings(lang), player_pile_names(ruleset, get_language(lang)))


def said(lang: str, scenario: str) -> tuple[str, str, str | None]:
    """(what to do, what it did or why it is refused, what taking it back did) of a scenario."""
    game, variant, deal, before, text = SCENARIOS[scenario]
    ruleset = ruleset_of(game, variant)
    w = wording(lang, ruleset)
    played = Game.deal(ruleset, deal)
    for move in before:
        played.push(move)
    position, move = played.position, Move.parse(text)
    try:
        position.apply(move)
    except IllegalMove as err:
        return w.describe(move, position), w.refused(err), None
    return w.describe(move, position), w.report(move, position), w.taken_back(move, position)


def board_messages(lang: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The board's answers around one move (``move`` scenario): played, taken back, played again,
    and played when it ends the game won or lost (the end faked, each sentence is what counts)."""
    ruleset = ruleset_of("eagle_wing", None)
    names = player_pile_names(ruleset, get_language(lang))
    board = BoardGame(ruleset, 1, ui_strings(lang), names)
    out = {"hint": board.hint()["message"], "played": board.play("tableau4>foundation2")["message"],
           "undone": board.undo()["message"], "redone": board.redo()["message"]}
    for status in ("won", "lost"):
        board.undo()
        monkeypatch.setattr(BoardGame, "status", lambda self, s=status: s)
        out[status] = board.play("tableau4>foundation2")["message"]
        monkeypatch.undo()
    return out


def marks(lang: str) -> dict[str, object]:
    """The cards as the language writes them, and the stock's count in the terminal."""
    w = wording(lang, ruleset_of("eagle_wing", None))
    return {"cards": " ".join(w.card(c) for c in ("Ah", "Td", "Jc", "Qh", "Ks")),
            "stock": [w.msg("play_stock_count", count=n) for n in (1, 2, 5, 21)]}


EXPECTED_DIR = Path(__file__).resolve().parents[1] / "data" / "messages"


@lru_cache(maxsize=None)
def expected(lang: str) -> dict:
    """The reviewed sentences of ``tests/data/messages/<lang>.json``: per scenario ``do`` (what to do),
    ``done`` (what the move did) and ``undone`` (what taking it back did), or ``refused``; the
    board's answers around the ``move`` scenario; the cards and the stock's count as written."""
    return json.loads((EXPECTED_DIR / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_message_kind_is_the_whole_sentence_of_the_language(lang, scenario):
    do, done, undone = said(lang, scenario)
    want = expected(lang)["moves"][scenario]
    assert do == want["do"]
    if "refused" in want:
        assert (done, undone) == (want["refused"], None)
    else:
        assert (done, undone) == (want["done"], want["undone"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_answers_are_whole_sentences_each_with_its_full_stop(lang, monkeypatch):
    want = expected(lang)["board"]
    assert board_messages(lang, monkeypatch) == want
    assert want["hint"] == expected(lang)["moves"]["move"]["do"]  # a hint says what to do, never the notation
    w = wording(lang, ruleset_of("eagle_wing", None))
    assert want["redone"] == w.join(w.msg("play_redone"), want["played"])
    assert want["won"] == w.join(want["played"], w.msg("board_won"))
    assert want["lost"] == w.join(want["played"], w.msg("board_lost"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_cards_carry_the_rank_marks_and_counts_the_plural_forms_of_the_language(lang):
    assert marks(lang) == {"cards": expected(lang)["cards"], "stock": expected(lang)["stock"]}


def test_the_reported_sentences_read_right():
    """What players found: the German and Greek cases after prepositions, a redeal count of none,
    the internal notation in a hint, English rank letters, two messages run together."""
    assert said("de", "move_from_chooser")[0] == "Legen Sie die 4♣ vom Auswahlstapel auf Zielstapel 1."
    assert said("el", "move_from_chooser")[0] == "Μετακινήστε το 4♣ από τον Επιλογέα στη Βάση 1."
    assert said("el", "redeal")[1] == "Η Στοίβα απόρριψης γύρισε ξανά στη Μάνα."
    assert said("en", "refused_no_redeal")[1] == "Not allowed: the stock is empty, and this game allows no redeal."
    assert expected("de")["board"]["won"] == ("Der B♣ wurde von Tableau 4 auf Zielstapel 2 gelegt. "
                                              "Gewonnen: Alle Karten liegen auf den Zielstapeln.")
    assert expected("de")["board"]["hint"] == "Legen Sie den B♣ von Tableau 4 auf Zielstapel 2."
    assert expected("sr")["cards"] == "А♥ 10♦ Ж♣ Д♥ К♠" and expected("sr@latin")["cards"] == "A♥ 10♦ Ž♣ D♥ K♠"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_is_whole(lang):
    """No slot left unfilled, no doubled space, a full stop at the end of each sentence."""
    texts = [text for kinds in expected(lang)["moves"].values() for text in kinds.values()]
    texts += list(expected(lang)["board"].values())
    for text in texts:
        assert "{" not in text and "  " not in text and text.endswith((".", "。")), text


def test_serbian_speaks_to_the_player_formally_everywhere():
    """One register, the formal one (кликните, not кликни), in every Serbian string."""
    informal = re.compile(r"\b(кликни|премести|окрени|опозови|понови|сачувај|учитај|изабери|упиши|урадиш|"
                          r"покрени|отвори|пређи)\b")
    for key, value in ui_strings("sr").items():
        for text in _texts(value):
            assert not informal.search(text), (key, text)


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _texts(item)]
    return []


# -- the pieces ---------------------------------------------------------------------------------------

RUSSIAN = {"one": "v = 0 and i % 10 = 1 and i % 100 != 11", "few": "v = 0 and i % 10 = 2..4 and i % 100 != 12..14",
           "many": "v = 0 and i % 10 = 0 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 11..14"}


def test_a_plural_template_picks_an_exact_value_first_then_the_category_of_the_count():
    ui = {"plural_rules": RUSSIAN, "m": {"=0": "нет карт", "one": "{count} карта", "few": "{count} карты",
                                         "many": "{count} карт", "other": "{count} карты"}}
    w = Wording(ruleset_of("eagle_wing", None), ui, {})
    assert [w.msg("m", count=n) for n in (0, 1, 2, 5, 11, 21, 22, 25, 111)] == [
        "нет карт", "1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты", "25 карт", "111 карт"]
    assert w.msg("m") == "{count} карты"  # no count: the other form, the slot left as written


def test_a_slot_takes_its_form_or_its_plain_name_and_a_caret_makes_a_capital():
    phrase = Phrase("Talon", {"nom": "der Talon", "from": "vom Talon"}, " [1]")
    assert f"{phrase}|{phrase:from}|{phrase:^nom}|{phrase:gen}" == "Talon [1]|vom Talon [1]|Der Talon [1]|Talon [1]"
    w = Wording(ruleset_of("eagle_wing", None), {"x": "{card:akk} {missing} {missing:dat}"}, {})
    assert w.msg("x", card=Phrase("7♠", {"akk": "die 7♠"})) == "die 7♠ {missing} {missing:dat}"


def test_a_pile_the_table_does_not_name_takes_the_forms_of_any_pile():
    """A catalog naming a pile otherwise than the interface strings: the ``*`` entry's forms."""
    ruleset = ruleset_of("eagle_wing", None)
    names = {**player_pile_names(ruleset, get_language("de")), "reserve": "Vorrat"}
    w = Wording(ruleset, ui_strings("de"), names)
    assert format(w.pile_phrase("reserve"), "from") == "von Vorrat"
    assert format(w.pile_phrase("waste"), "from") == "vom Ablagestapel"


@pytest.mark.parametrize("ui, problem", [
    ({"card_ranks": "A 2 3"}, ("card_ranks", "must be the 13 rank marks, Ace to King, separated by spaces")),
    ({"play_do_move": "Move {card} {source:from}."},
     ("play_do_move", "{source:from} uses the form 'from', but there is no pile_forms")),
    ({"pile_forms": {"Stock": {"name": "Stock", "the": "the stock"}, "*": {"the": "{name}"}},
      "play_x": "{stock:from}"},
     ("pile_forms['Stock']", "lacks the form 'from' that play_x uses")),
    ({"pile_forms": {"Stock": {"name": "Stock"}}}, ("pile_forms", "lacks the entry \"*\", the forms of a pile the "
                                                                  "table does not name")),
    ({"pile_forms": {"Tableau {n}": {"name": "Tableau", "*": "x"}, "*": {}}},
     ("pile_forms['Tableau {n}']", "form 'name' lacks {n}, the pile's number")),
    ({"card_forms": {"A 2 3 4 5 6 7 8 9 T J Q": {"nom": "the {card}"}}}, ("card_forms", "lacks the rank codes K Jk")),
    ({"reason_x": {"one": "{count} card"}}, ("reason_x", "lacks the plural forms few, many, other of the language")),
    ({"reason_x": {"one": "a", "few": "b", "other": "c"}}, ("reason_x", "lacks the plural forms many of the language")),
    ({"reason_x": {"=0": "none", "some": "x", "other": "y", "one": "z", "few": "", "many": ""}},
     ("reason_x", "some: not a plural category (zero, one, two, few, many, other) or an exact value (=0)")),
    ({"play_x": "{count:x}"}, ("play_x", "{count:x}: only a pile or a card slot takes a form")),
    ({"play_x": "a {card"}, ("play_x", "cannot be read as a template: expected '}' before end of string")),
    ({"report_title": {"one": "x"}}, ("report_title", "must be a text")),
])
def test_the_message_format_names_the_key_and_what_is_wrong(ui, problem):
    assert problem in check_interface(ui, {"one", "few", "many", "other"})


def test_every_interface_file_keeps_the_message_format():
    for lang in LANGUAGES:
        ui = {k: v for k, v in ui_strings(lang).items() if k != "plural_rules"}
        assert check_interface(ui, plural_categories(get_language(lang))) == [], lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_pile_of_every_game_is_named_by_its_own_forms(lang):
    """Each pile the shipped games have (their catalogs' names for de, el, sr) has its entry in the
    language's pile_forms, so no message falls back to the forms of an unknown pile."""
    for game in known_games().values():
        for ruleset in (game.ruleset, *(r for _, r in game.variants)):
            w = wording(lang, ruleset)
            for pid in pile_ids(ruleset):
                assert "name" in w.pile_phrase(pid).forms, (lang, ruleset.game, pid, w.pile(pid))

