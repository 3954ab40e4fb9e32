"""Executable examples: read from the rules pages, replayed by the engine, turned into traces."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from patiencebook.engine import Game
from patiencebook.engine.notation import position_to_dict
from patiencebook.generator.errors import SourceError
from patiencebook.generator.docbook.examples import check_examples, find_examples, parse_expectations, replay, trace
from patiencebook.generator.languages import ui_strings
from patiencebook.generator.docbook.sources import load_document

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "rules"


@pytest.fixture(scope="module")
def document():
    return load_document(RULES)


def _edited(tmp_path: Path, game: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of rules/ with ``old`` replaced by ``new`` once in ``game``.xml; the line of the change."""
    tree = tmp_path / "rules"
    shutil.copytree(RULES, tree)
    path = tree / f"{game}.xml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1, old
    at = text.index(old)
    path.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    return tree, text[:at].count("\n") + 1


def _failure(tree: Path) -> SourceError:
    with pytest.raises(SourceError) as caught:
        check_examples(load_document(tree).pages)
    return caught.value


def test_every_game_has_at_least_two_examples_that_replay(document):
    replays = check_examples(document.pages)
    per_game: dict[str, list[str]] = {}
    for example, played in replays.items():
        per_game.setdefault(played.start.game, []).append(example.id)
    assert per_game == {
        "agnes": ["agnes-example-base", "agnes-example-runs"],
        "bakers_dozen": ["bakers_dozen-example-kings", "bakers_dozen-example-empty"],
        "bakers_game": ["bakers_game-example-suit", "bakers_game-example-limit"],
        "beleaguered_castle": ["beleaguered_castle-example-aces", "beleaguered_castle-example-back"],
        "canfield": ["canfield-example-reserve", "canfield-example-stock"],
        "eagle_wing": ["eagle_wing-example-reserve", "eagle_wing-example-limit"],
        "eight_off": ["eight_off-example-limit", "eight_off-example-foundation"],
        "easthaven": ["easthaven-example-king", "easthaven-example-runs"],
        "forty_thieves": ["forty_thieves-example-limit", "forty_thieves-example-foundation"],
        "fortress": ["fortress-example-suit", "fortress-example-lost"],
        "freecell": ["freecell-example-autoplay", "freecell-example-limit"],
        "golf": ["golf-example-king", "golf-example-ace"],
        "gypsy": ["gypsy-example-deal", "gypsy-example-autoplay"],
        "giant": ["giant-example-row", "giant-example-reserve"],
        "cruel": ["cruel-example-redeal", "cruel-example-build"],
        "chessboard": ["chessboard-example-base", "chessboard-example-wrap"],
        "hamilton": ["hamilton-example-start", "hamilton-example-wrap"],
        "king_albert": ["king_albert-example-reserve", "king_albert-example-groups"],
        "kansas": ["kansas-example-reserve", "kansas-example-runs"],
        "jumbo": ["jumbo-example-king", "jumbo-example-aces"],
        "klondike": ["klondike-example-king", "klondike-example-stock"],
        "lady_jane": ["lady_jane-example-empty", "lady_jane-example-stock"],
        "odessa": ["odessa-example-groups", "odessa-example-suit"],
        "scorpion": ["scorpion-example-unit", "scorpion-example-stock"],
        "seahaven": ["seahaven-example-run", "seahaven-example-foundation"],
        "spider": ["spider-example-suits", "spider-example-empty"],
        "westhaven": ["westhaven-example-unit", "westhaven-example-empty"],
        "streets_and_alleys": ["streets_and_alleys-example-build", "streets_and_alleys-example-back"],
        "spider_three_decks": ["spider_three_decks-example-empty", "spider_three_decks-example-last-deal"],
        "spiderette": ["spiderette-example-empty", "spiderette-example-last-deal"],
        "triple_peaks": ["triple_peaks-example-run", "triple_peaks-example-peaks"],
        "will_o_the_wisp": ["will_o_the_wisp-example-runs", "will_o_the_wisp-example-last-deal"],
        "yukon": ["yukon-example-groups", "yukon-example-king"],
        "monte_carlo": ["monte_carlo-example-pairs", "monte_carlo-example-corners"],
        "osmosis": ["osmosis-example-ranks", "osmosis-example-start"],
        "whitehead": ["whitehead-example-suit", "whitehead-example-run"],
        "thumb_and_pouch": ["thumb_and_pouch-example-suit", "thumb_and_pouch-example-foundation"],
    }


def test_examples_show_the_refusals_their_rules_are_about(document):
    refused = {example.id: [s.refused.code for s in played.steps if s.refused]
               for example, played in check_examples(document.pages).items()}
    assert refused["hamilton-example-start"] == ["offers-used"]
    assert refused["agnes-example-base"] == ["empty-takes-base", "does-not-fit"]
    assert refused["eagle_wing-example-limit"] == ["pile-full"]
    assert refused["freecell-example-limit"] == ["too-many-for-free-cells"]
    assert refused["forty_thieves-example-limit"] == ["too-many-for-empty-piles"]
    assert refused["spider-example-empty"] == ["fill-empty-first"]
    assert refused["spiderette-example-empty"] == ["fill-empty-first"]
    assert refused["golf-example-king"] == ["closed-on"]
    assert refused["bakers_dozen-example-empty"] == ["empty-takes-none"]
    assert refused["bakers_game-example-suit"] == ["does-not-fit"]
    assert refused["bakers_game-example-limit"] == ["too-many-for-free-cells"]
    assert refused["eight_off-example-limit"] == ["too-many-for-free-cells"]
    assert refused["eight_off-example-foundation"] == ["does-not-fit"]
    assert refused["beleaguered_castle-example-back"] == ["base-stays"]
    assert refused["whitehead-example-suit"] == ["not-a-run"]
    assert refused["easthaven-example-king"] == ["king-for-empty-pile"]
    assert refused["odessa-example-groups"] == ["not-a-run"]
    assert refused["seahaven-example-run"] == ["too-many-for-free-cells"]
    assert refused["seahaven-example-foundation"] == ["cannot-lift"]
    assert refused["triple_peaks-example-run"] == ["face-down"]
    assert refused["streets_and_alleys-example-back"] == ["empty-takes-base"]
    assert refused["fortress-example-suit"] == ["does-not-fit"]
    assert refused["westhaven-example-unit"] == ["top-or-all-face-up"]
    assert refused["lady_jane-example-stock"] == ["stock-last-card"]
    assert refused["giant-example-reserve"] == ["pile-full"]
    assert refused["cruel-example-redeal"] == ["redeal-changes-nothing"]
    assert refused["chessboard-example-base"] == ["empty-takes-base"]
    assert refused["thumb_and_pouch-example-suit"] == ["does-not-fit"]
    assert refused["jumbo-example-king"] == ["empty-takes-king"]


def test_replay_matches_the_engine_played_directly(document):
    page = document.page("hamilton")
    example = next(e for e in find_examples(page) if e.id == "hamilton-example-wrap")
    played = replay(example, page.rules)
    game = Game.deal(page.rules, 1)
    for move in ("stock", "dbl:chooser", "tableau2>tableau5", "tableau2>tableau6"):
        game.push(move)
    assert played.steps[-1].after == game.position
    assert played.start == Game.deal(page.rules, 1).position


def test_an_illegal_move_fails_with_file_line_and_the_engines_reason(tmp_path):
    tree, line = _edited(tmp_path, "agnes", 'pb:move="tableau2&gt;tableau7"', 'pb:move="tableau3&gt;tableau7"')
    error = _failure(tree)
    assert Path(error.file) == tree / "agnes.xml" and error.line == line
    assert "example 'agnes-example-runs', step 1 (tableau3>tableau7): the engine refuses the move" in error.message
    assert "cannot go on the 8 of spades" in error.message


def test_a_wrong_stated_result_fails_with_what_the_position_holds(tmp_path):
    tree, line = _edited(tmp_path, "eagle_wing", "tableau4: 3h; reserve=12", "tableau4: 4h; reserve=12")
    error = _failure(tree)
    assert (Path(error.file), error.line) == (tree / "eagle_wing.xml", line)
    assert error.message.endswith("expected 'tableau4: 4h', but tableau4 holds 3h")


def test_a_wrong_score_fails(tmp_path):
    tree, line = _edited(tmp_path, "hamilton", "base=5; score=1", "base=5; score=2")
    error = _failure(tree)
    assert error.line == line and error.message.endswith("expected 'score=2', but the score is 1")


def test_a_move_stated_as_refused_but_allowed_fails(tmp_path):
    tree, line = _edited(tmp_path, "eagle_wing", 'pb:move="tableau8&gt;tableau6" pb:expect="refused=pile-full"',
                         'pb:move="tableau8&gt;tableau6" pb:expect="refused"')
    # Still refused: fine. Now one the rules allow:
    check_examples(load_document(tree).pages)
    tree2, line2 = _edited(tmp_path / "second", "agnes", 'pb:expect="tableau7: #Jd #4s #Qh #8h #6h #4h 8s 7c; tableau2: 2c"',
                           'pb:expect="refused"')
    error = _failure(tree2)
    assert error.line == line2 and error.message.endswith("expected the move to be refused, but the rules allow it")


def test_a_refusal_for_another_reason_fails(tmp_path):
    tree, line = _edited(tmp_path, "agnes", "refused=empty-takes-base", "refused=pile-full")
    error = _failure(tree)
    assert error.line == line
    assert "expected the move to be refused for 'pile-full', but the engine refuses it for 'empty-takes-base'" \
        in error.message


@pytest.mark.parametrize("expect, message", [
    ("score=x", "cannot read 'score=x'"),
    ("nowhere: 5h", "unknown pile 'nowhere'"),
    ("chooser: 5z", "'chooser: 5z'"),
    ("base=Z", "'Z' is not a rank letter"),
])
def test_an_unreadable_expectation_fails_at_its_step(tmp_path, expect, message):
    tree, line = _edited(tmp_path, "hamilton", 'pb:expect="chooser: 5c"', f'pb:expect="{expect}"')
    error = _failure(tree)
    assert error.line == line and message in error.message and error.message.startswith("pb:expect:")


def test_a_bad_move_text_fails(tmp_path):
    tree, line = _edited(tmp_path, "hamilton", 'pb:move="dbl:chooser"', 'pb:move="dbl chooser"')
    error = _failure(tree)
    assert error.line == line and "bad move 'dbl chooser'" in error.message


def test_replay_needs_a_deal_or_a_position(tmp_path):
    tree, line = _edited(tmp_path, "agnes", '<pb:replay deal="20"/>', "<pb:replay/>")
    error = _failure(tree)
    assert error.line == line and "either deal=" in error.message
    tree, line = _edited(tmp_path / "2", "agnes", '<pb:replay deal="20"/>', '<pb:replay deal="0"/>')
    error = _failure(tree)
    assert error.line == line and "deal='0' is not a deal number" in error.message


def test_an_example_can_start_from_a_position(tmp_path, document):
    start = Game.deal(document.page("agnes").rules, 20).position
    from patiencebook.engine.notation import position_to_text

    text = position_to_text(start).replace("<", "&lt;")
    tree, _ = _edited(tmp_path, "agnes", '<pb:replay deal="20"/>',
                      f"<pb:replay><pb:position>\n{text}</pb:position></pb:replay>")
    replays = check_examples(load_document(tree).pages)
    played = next(p for e, p in replays.items() if e.id == "agnes-example-runs")
    assert played.start == start and played.example.deal is None


def test_a_bad_position_fails_at_its_line(tmp_path, document):
    from patiencebook.engine.notation import position_to_text

    text = position_to_text(Game.deal(document.page("agnes").rules, 20).position).replace("tableau3:", "tableau9:")
    tree, line = _edited(tmp_path, "agnes", '<pb:replay deal="20"/>',
                         f"<pb:replay><pb:position>\n{text}</pb:position></pb:replay>")
    error = _failure(tree)
    edited = (tree / "agnes.xml").read_text(encoding="utf-8")
    bad_line = edited[:edited.index("tableau9:")].count("\n") + 1
    assert error.line == bad_line > line and "unknown line 'tableau9'" in error.message


def test_expectation_grammar():
    document = load_document(RULES)
    rules = document.page("hamilton").rules
    kinds = [(e.kind, e.pile) for e in parse_expectations("refused=offers-used; score=3; won; base=-; stock=23; "
                                                           "chooser: #5c 4h", rules)]
    assert kinds == [("refused", None), ("score", None), ("status", None), ("base", None), ("count", "stock"),
                     ("cards", "chooser")]


def test_trace_says_every_step_in_the_page_language(document):
    page = document.page("agnes")
    example = next(e for e in find_examples(page) if e.id == "agnes-example-base")
    played = replay(example, page.rules)
    names = {"tableau1": "Tableau 1", "tableau4": "Tableau 4", "foundation2": "Zielstapel 2"}
    data = trace(played, "de", ui_strings("de"), names, {2: "Die Zehn beginnt den zweiten Zielstapel."})
    assert data["deal"] == 3 and data["lang"] == "de" and len(data["steps"]) == 4
    assert data["steps"][0]["position"] == position_to_dict(played.start)
    first = data["steps"][1]
    assert first["refused"] is not None and first["position"] == data["steps"][0]["position"]
    assert "Zielstapel 2" in first["words"] and first["announce"].startswith("Schritt 1 von 3")
    second = data["steps"][2]
    assert second["refused"] is None and second["position"] == position_to_dict(played.steps[1].after)
    assert second["announce"].endswith("Die Zehn beginnt den zweiten Zielstapel.")
    assert (second["source"], second["target"], second["count"]) == ("tableau4", "foundation2", 1)
    # Each part a whole sentence with its full stop: the step, what to do, what came of it, the note.
    assert [step["announce"] for step in data["steps"]] == [
        "Schritt 0 von 3. Ausgangsstellung von Spiel Nr. 3.",
        "Schritt 1 von 3. Legen Sie die 9♦ von Tableau 1 auf Zielstapel 2. Abgewiesen: Zielstapel 2 ist leer und "
        "nimmt nur eine Karte vom Rang 10, nicht die 9♦.",
        "Schritt 2 von 3. Legen Sie die 10♥ von Tableau 4 auf Zielstapel 2. Punktestand: 2. Die Zehn beginnt den "
        "zweiten Zielstapel.",
        "Schritt 3 von 3. Legen Sie die 9♦ von Tableau 1 auf Zielstapel 2. Abgewiesen: Die 9♦ passt nicht auf die "
        "10♥: Auf Zielstapel 2 wird aufwärts in gleicher Farbe angelegt."]
    assert data["ui"]["ranks"] == "A 2 3 4 5 6 7 8 9 10 B D K"
