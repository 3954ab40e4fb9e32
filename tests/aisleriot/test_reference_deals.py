"""Deal N of our engine is the layout AisleRiot deals from seed N (Hamilton, Agnes, Eagle Wing, seeds 1-100).

AisleRiot's compiled rules run under guile-3.0 through shim.scm, with the system GLib's g_rand;
our side is ``deal_order`` plus ``Position.initial``. Piles are matched by role, in layout order.
"""

from __future__ import annotations

import pytest

from patiencebook.engine.deals import deal_order
from patiencebook.engine.position import Position

from .conftest import GAMES
from .harness import AisleRiotGame

pytestmark = [pytest.mark.aisleriot, pytest.mark.slow]

SEEDS = range(1, 101)


def engine_layout(ruleset, seed: int) -> dict[str, list[list[tuple]]]:
    """Our opening deal of ``seed``: role -> piles in layout order, each bottom to top as (card, face_up)."""
    position = Position.initial(ruleset, deal_order(ruleset, seed))
    out: dict[str, list[list[tuple]]] = {}
    for pile_id in position.pile_ids:
        out.setdefault(position.role(pile_id).value, []).append(list(position.pile(pile_id)))
    return out


def aisleriot_layout(game: AisleRiotGame) -> dict[str, list[list[tuple]]]:
    """AisleRiot's slots: slot type -> slots in id order, each bottom to top as (card, face_up)."""
    out: dict[str, list[list[tuple]]] = {}
    for _, kind, cards in game.typed_slots():
        out.setdefault(kind, []).append(cards)
    return out


@pytest.mark.parametrize("page_id", sorted(GAMES))
def test_deal_n_lays_out_every_pile_as_aisleriot_seed_n(page_id, aisleriot_dir, rules_document):
    ruleset = rules_document.page(page_id).rules
    mismatches = []
    with AisleRiotGame(GAMES[page_id], SEEDS[0]) as game:
        for seed in SEEDS:
            game.new_game(seed)
            theirs = aisleriot_layout(game)
            ours = engine_layout(ruleset, seed)
            if ours != theirs:
                mismatches.append(seed)
    assert mismatches == [], f"{page_id}: deals differing from AisleRiot: {mismatches}"


@pytest.mark.parametrize("page_id", sorted(GAMES))
def test_new_aisleriot_game_starts_with_aisleriot_opening_score(page_id, aisleriot_dir):
    # Agnes and Eagle Wing count the base card dealt to a foundation; Hamilton starts at 0.
    expected = {"hamilton": 0, "agnes": 1, "eagle_wing": 1}[page_id]
    with AisleRiotGame(GAMES[page_id], 7) as game:
        assert game.score() == expected
        assert game.state() == "begin"
