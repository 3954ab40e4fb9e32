"""The table layout: every pile placed once, the top row and the tableau row, Eagle Wing's trunk, and
the tables of the other games of rules/ (free cells, two-deck foundations, thirteen piles) worked out
from roles and counts alone."""

from __future__ import annotations

import dataclasses
import json
from functools import lru_cache
from pathlib import Path

import pytest

from patiencebook.engine.position import pile_ids
from patiencebook.engine.rules import Ruleset, pile_id
from patiencebook.generator.pages.layout import (CARD_HEIGHT, CARD_WIDTH, FAN_FACE_DOWN, FAN_FACE_UP, GAP, MIN_TOP_GAP,
                                                 pile_layout, start_faces, trunk_of)
from patiencebook.generator.docbook.sources import load_document

RULES_DIR = Path(__file__).resolve().parents[3] / "rules"
#: Every game page of rules/, so that a game added there gets the general checks too.
GAMES = tuple(page.id for page in load_document(RULES_DIR).pages if page.rules is not None)


@lru_cache(maxsize=None)
def ruleset(game: str) -> Ruleset:
    return load_document(RULES_DIR).page(game).rules


def piles(game_or_layout) -> dict[str, dict]:
    layout = pile_layout(ruleset(game_or_layout)) if isinstance(game_or_layout, str) else game_or_layout
    return {p["id"]: p for p in layout["piles"]}


def box(pile: dict) -> tuple[float, float, float, float]:
    width = pile["room"] if pile["fan"] == "right" else CARD_WIDTH
    height = pile["room"] if pile["fan"] == "down" else CARD_HEIGHT
    return pile["x"], pile["y"], pile["x"] + width, pile["y"] + height


@pytest.mark.parametrize("game", GAMES)
def test_every_pile_of_the_position_is_placed_once_in_pile_order(game):
    layout = pile_layout(ruleset(game))
    assert [p["id"] for p in layout["piles"]] == list(pile_ids(ruleset(game)))
    assert layout["card"] == {"width": 1.0, "height": 1.4}


@pytest.mark.parametrize("game", GAMES)
def test_no_pile_box_overlaps_another_and_all_lie_on_the_table(game):
    # Only a pile that lies over another one (pb:cover, Triple Peaks) may overlap it.
    layout = pile_layout(ruleset(game))
    boxes = {p["id"]: box(p) for p in layout["piles"]}
    lies_over = {(pile_id(g, m), pile_id(g, n))
                 for g in ruleset(game).piles if g.covered_by
                 for n, over in enumerate(g.covered_by, 1) for m in over}
    for pid, (x0, y0, x1, y1) in boxes.items():
        assert 0 < x0 and x1 < layout["width"] and 0 < y0 and y1 <= layout["height"] + 1e-9, pid
        for other, (a0, b0, a1, b1) in boxes.items():
            if other != pid and (pid, other) not in lies_over and (other, pid) not in lies_over:
                assert x1 <= a0 or a1 <= x0 or y1 <= b0 or b1 <= y0, (pid, other)


def test_piles_that_lie_over_others_are_half_a_card_lower_and_midway_between_them():
    layout = {p["id"]: p for p in pile_layout(ruleset("triple_peaks"))["piles"]}
    peak, middle = layout["tableau1"], (layout["tableau4"], layout["tableau5"])
    assert [p["row"] for p in (peak, *middle, layout["tableau10"], layout["tableau19"])] == [1, 2, 2, 3, 4]
    assert all(p["y"] == pytest.approx(peak["y"] + 0.7) for p in middle)
    assert peak["x"] == pytest.approx((middle[0]["x"] + middle[1]["x"]) / 2)
    front = [layout[f"tableau{n}"] for n in range(19, 29)]
    assert [p["x"] for p in front] == sorted(p["x"] for p in front) and len({p["y"] for p in front}) == 1


@pytest.mark.parametrize("game", GAMES)
def test_layout_is_plain_json_and_the_same_each_time(game):
    text = json.dumps(pile_layout(ruleset(game)), sort_keys=True)
    assert text == json.dumps(pile_layout(ruleset(game)), sort_keys=True)
    assert json.loads(text)["piles"][0]["id"] == pile_ids(ruleset(game))[0]


def test_hamilton_has_seven_tableau_piles_in_a_row_below_the_stock_and_chooser():
    p = piles("hamilton")
    tableau = [p[f"tableau{n}"] for n in range(1, 8)]
    assert {t["y"] for t in tableau} == {tableau[0]["y"]}
    assert [t["x"] for t in tableau] == sorted(t["x"] for t in tableau)
    assert tableau[0]["y"] >= p["stock"]["y"] + CARD_HEIGHT
    assert all(t["fan"] == "down" and t["row"] == 1 for t in tableau)
    assert p["stock"]["x"] == tableau[0]["x"] and p["stock"]["y"] == p["chooser"]["y"]
    assert p["stock"]["x"] < p["chooser"]["x"] < p["foundation1"]["x"]
    assert all(p[pid]["fan"] == "none" and p[pid]["row"] == 0 for pid in ("stock", "chooser", "foundation4"))


def test_foundations_end_flush_with_the_tableau_leaving_a_blank_slot_as_in_aisleriot():
    for game in ("hamilton", "agnes"):
        p = piles(game)
        assert p["foundation4"]["x"] == p["tableau7"]["x"], game
        assert p["foundation1"]["x"] == p["tableau4"]["x"], game  # AisleRiot slot column 3
    p = piles("hamilton")
    assert p["foundation1"]["x"] - p["chooser"]["x"] == pytest.approx(2 * (p["tableau2"]["x"] - p["tableau1"]["x"]))


def test_hamilton_tableau_has_room_for_the_longest_pile_after_the_stock_deals():
    # Pile 7: seven dealt cards plus one from each of the four stock deals, all face up.
    longest = CARD_HEIGHT + (7 + 4 - 1) * FAN_FACE_UP
    assert piles("hamilton")["tableau7"]["room"] >= longest


def test_eagle_wing_reserve_is_a_trunk_between_two_wings_of_four_tableau_piles():
    assert trunk_of(ruleset("eagle_wing"))[0].id == "reserve"
    assert trunk_of(ruleset("hamilton")) is None and trunk_of(ruleset("agnes")) is None
    p = piles("eagle_wing")
    xs = [p[f"tableau{n}"]["x"] for n in range(1, 9)]
    assert xs == sorted(xs)
    assert p["tableau4"]["x"] < p["reserve"]["x"] < p["tableau5"]["x"]
    assert p["reserve"]["row"] == 1 and p["reserve"]["fan"] == "none"
    # AisleRiot's wing shape: piles 3 and 6 highest, 1 and 8 lowest, the trunk below them all.
    ys = [p[f"tableau{n}"]["y"] for n in range(1, 9)]
    assert ys == ys[::-1]
    assert ys[2] == min(ys) and ys[0] == max(ys) and ys[0] > ys[1] > ys[2] < ys[3]
    assert p["reserve"]["y"] > max(ys)
    # The top row stays packed at the left: foundations after one blank slot, above the trunk's side.
    pitch = p["tableau2"]["x"] - p["tableau1"]["x"]
    assert p["foundation1"]["x"] == pytest.approx(p["waste"]["x"] + 2 * pitch)
    assert p["foundation2"]["x"] == p["reserve"]["x"]


def test_eagle_wing_tableau_room_is_its_capacity_of_three_cards():
    p = piles("eagle_wing")
    lowest = max(p[f"tableau{n}"]["y"] for n in range(1, 9))
    assert p["tableau1"]["y"] == lowest
    assert p["tableau1"]["room"] == pytest.approx(CARD_HEIGHT + 2 * FAN_FACE_UP)


def test_a_waste_given_three_cards_per_click_fans_right_and_pushes_the_foundations_along():
    base = ruleset("eagle_wing")
    three = dataclasses.replace(base, stock=dataclasses.replace(base.stock, cards=3))
    p, before = piles(pile_layout(three)), piles("eagle_wing")
    assert p["waste"]["fan"] == "right" and p["waste"]["room"] == pytest.approx(1.5)
    assert p["foundation1"]["x"] == pytest.approx(before["foundation1"]["x"] + 0.5)


def test_start_faces_follow_the_deal_steps():
    faces = start_faces(ruleset("eagle_wing"))
    assert faces["reserve"] == (True,) + (False,) * 12
    assert len(faces["stock"]) == 30 and not any(faces["stock"])
    agnes = start_faces(ruleset("agnes"))
    assert agnes["tableau3"] == (False, False, True)


def test_every_game_of_the_rules_folder_is_checked():
    assert {"hamilton", "agnes", "eagle_wing", "klondike", "freecell", "spider", "yukon", "golf", "canfield",
            "scorpion", "forty_thieves", "bakers_dozen", "gypsy", "beleaguered_castle", "spiderette",
            "whitehead", "odessa",
            "streets_and_alleys", "fortress", "kansas", "lady_jane", "giant", "cruel", "chessboard", "thumb_and_pouch", "jumbo", "will_o_the_wisp",
            "spider_three_decks"} <= set(GAMES)


def _ids(p: dict[str, dict], group: str) -> list[str]:
    return sorted((pid for pid, pile in p.items() if pile["group"] == group), key=lambda pid: p[pid]["x"])


def test_freecell_puts_four_free_cells_at_the_left_and_four_foundations_at_the_right_of_the_top_row():
    p = piles("freecell")
    cells, foundations, tableau = _ids(p, "freecell"), _ids(p, "foundation"), _ids(p, "tableau")
    assert len(cells) == 4 and len(foundations) == 4 and len(tableau) == 8
    assert {p[pid]["row"] for pid in cells + foundations} == {0}
    assert {p[pid]["y"] for pid in cells + foundations} == {p["freecell1"]["y"]}
    assert max(p[pid]["x"] for pid in cells) < min(p[pid]["x"] for pid in foundations)
    # Free cells start above the first tableau pile, foundations end above the last one.
    assert p[cells[0]]["x"] == p[tableau[0]]["x"] and p[foundations[-1]]["x"] == p[tableau[-1]]["x"]


def test_bakers_dozen_has_thirteen_tableau_piles_in_one_row_under_four_foundations():
    p = piles("bakers_dozen")
    tableau, foundations = _ids(p, "tableau"), _ids(p, "foundation")
    assert len(tableau) == 13 and len(foundations) == 4
    assert {p[pid]["y"] for pid in tableau} == {p["tableau1"]["y"]}
    assert p[foundations[-1]]["x"] == p[tableau[-1]]["x"]
    assert p["foundation1"]["y"] + CARD_HEIGHT < p["tableau1"]["y"]


def test_spider_has_its_stock_then_eight_foundations_above_ten_tableau_piles():
    p = piles("spider")
    tableau, foundations = _ids(p, "tableau"), _ids(p, "foundation")
    assert len(tableau) == 10 and len(foundations) == 8
    assert p["stock"]["x"] < p[foundations[0]]["x"] and p["stock"]["y"] == p[foundations[0]]["y"]
    assert p[foundations[-1]]["x"] == p[tableau[-1]]["x"]
    # Room for the deepest dealt pile (five face down, one up) and the stock's five deals at least.
    assert p["tableau1"]["room"] >= CARD_HEIGHT + 5 * FAN_FACE_DOWN + 5 * FAN_FACE_UP


def test_spider_three_decks_closes_up_its_stock_and_twelve_foundations_over_twelve_tableau_piles():
    p = piles("spider_three_decks")
    stock, foundations, tableau = _ids(p, "stock"), _ids(p, "foundation"), _ids(p, "tableau")
    assert len(stock) == 1 and len(foundations) == 12 and len(tableau) == 12
    # The top row spans the tableau exactly: its gaps close up below the usual one but not below the
    # least, with a double gap between the stock and the foundations.
    assert p[stock[0]]["x"] == p[tableau[0]]["x"]
    assert abs(p[foundations[-1]]["x"] - p[tableau[-1]]["x"]) < 1e-6
    gaps = [p[b]["x"] - p[a]["x"] - CARD_WIDTH for a, b in zip(foundations, foundations[1:])]
    assert all(MIN_TOP_GAP <= gap < GAP for gap in gaps)
    assert abs(p[foundations[0]]["x"] - p[stock[0]]["x"] - CARD_WIDTH - 2 * gaps[0]) < 0.01


def test_yukon_foundations_lie_in_the_top_row_above_the_right_end_of_the_tableau():
    p = piles("yukon")
    foundations, tableau = _ids(p, "foundation"), _ids(p, "tableau")
    assert len(foundations) == 4 and {p[pid]["row"] for pid in foundations} == {0}
    assert p[foundations[-1]]["x"] == p[tableau[-1]]["x"]


def test_golf_waste_lies_next_to_the_stock_above_the_tableau():
    p = piles("golf")
    assert p["waste"]["row"] == 0 and p["waste"]["y"] == p["stock"]["y"]
    assert p["stock"]["x"] < p["waste"]["x"] < p["tableau3"]["x"]


def test_canfield_waste_fans_its_three_cards_to_the_right_before_the_reserve():
    p = piles("canfield")
    assert p["waste"]["fan"] == "right" and p["waste"]["room"] == pytest.approx(CARD_WIDTH + 2 * 0.25)
    assert p["waste"]["x"] + p["waste"]["room"] < p["reserve"]["x"] < p["foundation1"]["x"]


def test_monte_carlo_lays_its_tableau_in_a_square_with_stock_and_foundation_beside_it():
    p = piles("monte_carlo")
    for n in range(1, 26):
        row, col = divmod(n - 1, 5)
        here = p[f"tableau{n}"]
        assert here["x"] == pytest.approx(p["tableau1"]["x"] + col * (CARD_WIDTH + GAP))
        assert here["y"] == pytest.approx(p["tableau1"]["y"] + row * (CARD_HEIGHT + 0.4))
        assert here["row"] == 1 + row
    assert p["stock"]["x"] < p["tableau1"]["x"] and p["stock"]["y"] == p["tableau1"]["y"]
    assert p["foundation"]["x"] > p["tableau5"]["x"] and p["foundation"]["y"] == p["tableau5"]["y"]


def test_osmosis_fans_each_foundation_right_beside_its_reserve_pile_so_every_rank_shows():
    p = piles("osmosis")
    for n in range(1, 5):
        reserve, foundation = p[f"reserve{n}"], p[f"foundation{n}"]
        assert foundation["fan"] == "right" and foundation["room"] == pytest.approx(CARD_WIDTH + 12 * 0.25)
        assert reserve["y"] == foundation["y"] and reserve["x"] < foundation["x"]
    assert [p[f"foundation{n}"]["y"] for n in range(1, 5)] == sorted(p[f"foundation{n}"]["y"] for n in range(1, 5))
    assert p["stock"]["x"] > p["foundation1"]["x"] + p["foundation1"]["room"] and p["waste"]["x"] > p["stock"]["x"]
