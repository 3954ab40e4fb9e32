"""The rules words added for Triple Peaks: piles that lie over others (``covered_by``), the stock's
discard pile, and a score added up move by move (``per_run_card``, ``per_stock_deal``, ``per_peak``,
``last_peak``), on the game's own ruleset and on small rulesets built in code.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from patiencebook.engine.deals import deal_order
from patiencebook.engine.errors import PositionError, RulesError
from patiencebook.engine.game import Game
from patiencebook.engine.position import Position
from patiencebook.engine.rules import (
    BuildPolicy, DealStep, Deck, EndConditions, MovePolicy, PileGroup, Ruleset, Scoring, StockPolicy,
)
from patiencebook.engine.rulesdata import ruleset_from_data, ruleset_to_data
from patiencebook.generator.docbook.sources import load_document

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@lru_cache(maxsize=None)
def peaks() -> Ruleset:
    return load_document(RULES_DIR).page("triple_peaks").rules


def cards(p: Position, pile: str) -> str:
    return " ".join(("" if up else "#") + str(c) for c, up in p.pile(pile))


def test_peaks_are_the_covered_piles_that_cover_nothing():
    tableau = peaks().pile("tableau")
    assert tableau.peaks == (1, 2, 3)
    assert tableau.covers(11) == (4, 5)  # the second card of row 3 lies over two of row 2
    assert tableau.covers(19) == (10,) and tableau.covers(1) == ()


def test_a_covered_card_is_turned_once_both_cards_over_it_have_gone():
    # Deal 2: tableau12 lies under tableau21 and tableau22.
    game = Game.deal(peaks(), 2)
    for move in ("tableau19>waste", "tableau21>waste"):
        game.push(move)
    assert cards(game.position, "tableau12") == "#6d"
    game.push("tableau22>waste")
    assert cards(game.position, "tableau12") == "6d"


def test_a_run_scores_one_more_per_card_and_a_stock_card_costs_five_down_to_zero():
    game = Game.deal(peaks(), 2)
    scores = []
    for move in ("tableau19>waste", "tableau21>waste", "tableau22>waste"):
        game.push(move)
        scores.append(game.score)
    assert scores == [1, 3, 6]
    game.push("stock")
    assert game.score == 1 and cards(game.position, "discard") == "#Qd #Jd #Td #9c"
    assert len(game.position.pile("waste")) == 1
    game.push("stock")
    assert game.score == 0  # never below 0
    game.undo()
    assert game.score == 1


def test_positions_alike_but_for_the_running_score_differ():
    start = Game.deal(peaks(), 2).position
    one = start.apply("tableau19>waste").apply("stock")
    other = Position.from_text(one.text().replace("score: 0", "score: 7"), peaks())
    assert one.score == 0 and other.score == 7 and one != other
    assert Position.from_text(other.text(), peaks()) == other


def test_the_last_peak_scores_its_own_bonus_and_wins():
    text = (RULES_DIR / "triple_peaks.xml").read_text(encoding="utf-8")
    start = text.index("game: triple_peaks", text.index("triple_peaks-example-peaks"))
    position = Position.from_text(text[start:text.index("</pb:position>", start)], peaks())
    for move in ("tableau7>waste", "tableau1>waste", "tableau3>waste"):
        before = position.score
        position = position.apply(move)
    assert position.score - before == 3 + 15
    for move in ("stock", "stock", "tableau6>waste", "stock", "tableau2>waste"):
        position = position.apply(move)
    assert position.is_won() and position.score == 44 + 1 + 30


def test_a_covered_card_face_up_or_an_uncovered_one_face_down_is_refused():
    position = Game.deal(peaks(), 2).position
    text = position.text()
    with pytest.raises(PositionError, match="still lie over it"):
        Position.from_text(text.replace("tableau1: #", "tableau1: "), peaks())
    emptied = position.apply("tableau19>waste").apply("tableau21>waste").apply("tableau22>waste")
    with pytest.raises(PositionError, match="no pile lies over it any more"):
        Position.from_text(emptied.text().replace("tableau12: 6d", "tableau12: #6d"), peaks())
    with pytest.raises(PositionError, match="discard pile always lie face down"):
        moved = emptied.apply("stock").text()
        Position.from_text(moved.replace("discard: #Qd", "discard: Qd"), peaks())


def test_the_solver_keeps_covering_piles_apart():
    from patiencebook.engine.solver import _Keys
    position = Position.initial(peaks(), deal_order(peaks(), 3))
    keys = _Keys(position)
    assert not keys.free and len(keys.fixed) == len(position.pile_ids)


def test_new_words_survive_the_json_form():
    assert ruleset_from_data(ruleset_to_data(peaks())) == peaks()


def _small(**changes) -> Ruleset:
    parts = dict(
        game="mini", deck=Deck(),
        piles=(PileGroup("stock", "stock", 1, "Stock", move=MovePolicy("none")),
               PileGroup("discard", "reserve", 1, "Discard pile", move=MovePolicy("none")),
               PileGroup("waste", "waste", 1, "Waste", build=BuildPolicy("up-or-down", wrap=True),
                         move=MovePolicy("none")),
               PileGroup("tableau", "tableau", 3, "Tableau", covered_by=((2, 3), (), ()))),
        deal=(DealStep("tableau", (1,), ("down", "up", "up")), DealStep("waste", (1,))),
        stock=StockPolicy("stock", "deal-to-waste", "waste", discard="discard"),
        scoring=Scoring(per_run_card=1, per_peak=2, maximum=10),
        end=EndConditions("tableau-empty"))
    parts.update(changes)
    return Ruleset(**parts)


def test_a_small_ruleset_with_every_new_word_loads():
    assert _small().pile("tableau").peaks == (1,)


@pytest.mark.parametrize("change, message", [
    (dict(piles=None), "lie over one another in a circle"),
    (dict(deal=(DealStep("tableau", (1,), "up"), DealStep("waste", (1,)))), "so it is dealt face down"),
    (dict(stock=StockPolicy("stock", "deal-to-waste", "waste")), "needs a discard pile"),
    (dict(stock=StockPolicy("stock", "deal-to-waste", "waste", discard="waste")), "of role 'waste'"),
])
def test_new_words_that_do_not_fit_are_refused(change, message):
    if change.get("piles", 1) is None:
        with pytest.raises(RulesError, match=message):
            PileGroup("tableau", "tableau", 2, "Tableau", covered_by=((2,), (1,)))
        return
    with pytest.raises(RulesError, match=message):
        _small(**change)


def test_a_running_score_takes_no_position_term():
    with pytest.raises(RulesError, match="takes no term worked out from the position"):
        Scoring(per_run_card=1, per_card=1, maximum=10)
    with pytest.raises(RulesError, match="only stock action 'deal-to-waste' with no redeal"):
        StockPolicy("stock", "deal-to-waste", "waste", redeals=1, discard="discard")
