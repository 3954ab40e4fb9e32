"""GLib's GRand reproduction and AisleRiot's numbered deals.

Where the values come from:
- GRand numbers: printed by a C program linked against Debian bookworm's GLib 2.74.6
  (``g_rand_new_with_seed``, ``g_rand_int``, ``g_rand_int_range``, one call per statement);
  tests/aisleriot/test_glib_rand.py recompiles and compares on machines with libglib2.0-dev.
- Deal orders: read from GNOME AisleRiot 3.22.23 (Debian package, compiled rules under guile-3.0
  through tests/aisleriot/shim.scm, seeded with the system GLib): the tableau and stock of
  Hamilton deal 1 give the whole order; for the other seeds, the first eight cards dealt.
  tests/aisleriot/test_reference_deals.py checks seeds 1-100 of every game and option in full.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.engine.cards import Card, standard_deck
from patiencebook.engine.deals import SEED_MAX, aisleriot_shuffle, deal_order
from patiencebook.engine.glibrand import GRand

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@pytest.fixture(scope="module")
def document():
    from patiencebook.generator.docbook.sources import load_document
    return load_document(RULES_DIR)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


# -- GRand ------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed, first", [
    (0, [2357136044, 2546248239, 3071714933, 3626093760, 2588848963]),
    (1, [1791095845, 4282876139, 3093770124, 4005303368, 491263]),
    (42, [1608637542, 3421126067, 4083286876, 787846414, 3143890026]),
    (4294967295, [419326371, 479346978, 3918654476, 2416749639, 3388880820]),
])
def test_grand_int_gives_glib_numbers_for_seed(seed, first):
    rand = GRand(seed)
    assert [rand.int() for _ in first] == first


def test_grand_int_stays_equal_to_glib_past_the_first_state_refill():
    rand = GRand(5)
    for _ in range(700):
        rand.int()
    assert rand.int() == 1628104583


def test_grand_int_range_matches_glib_for_a_shuffle_of_52():
    rand = GRand(7)
    assert [rand.int_range(0, n) for n in range(52, 0, -1)] == [
        19, 22, 21, 15, 19, 20, 43, 14, 4, 0, 10, 2, 8, 3, 6, 34, 18, 17, 23, 6, 4, 27, 5, 11, 24, 2,
        25, 2, 18, 0, 9, 19, 16, 1, 1, 1, 8, 2, 13, 2, 7, 4, 4, 2, 0, 5, 4, 3, 0, 1, 1, 0]


def test_grand_int_range_matches_glib_for_wide_and_negative_ranges():
    rand = GRand(3)
    assert rand.int_range(0, 2**31 - 1) == 218175339
    assert rand.int_range(-2**31, 2**31 - 1) == -1843722600
    assert rand.int_range(-5, 3) == -4
    assert rand.int_range(0, 3) == 0


def test_grand_int_range_rejects_draws_above_the_last_whole_multiple_as_glib_does():
    # Seed 11's fourth draw, 2854952027, is above 2**31 and is skipped for a range of 2**31 + 1.
    rand = GRand(11)
    assert [rand.int_range(-2**31, 1) for _ in range(6)] == [
        -1373231207, -1854107969, -2063838128, -157975215, -1313763401, -342722911]
    assert rand.int() == 451723847


def test_grand_copy_continues_the_same_stream_independently():
    rand = GRand(9)
    rand.int()
    twin = rand.copy()
    assert [rand.int() for _ in range(3)] == [twin.int() for _ in range(3)]


@pytest.mark.parametrize("seed", [-1, 2**32, 1.0, True, "1"])
def test_grand_seed_outside_guint32_is_refused(seed):
    with pytest.raises(ValueError):
        GRand(seed)


def test_grand_int_range_with_empty_range_is_refused():
    with pytest.raises(ValueError):
        GRand(1).int_range(3, 3)


# -- shuffle and deal order ---------------------------------------------------------------------

HAMILTON_1 = cards(
    "9c Qh 8d 3c 6s Ac 4d Ks Td Ad 2s Js 3h 9d 3d 5s Jc 3s 7h 2d 6c Jh As 8h 4h Kd 9h 9s 4c 5d "
    "5c Qs Kh 6d Kc Tc 6h Jd Qd Qc 8c 4s 8s 7d Ts 2c 5h Th 7c Ah 2h 7s")


def test_hamilton_deal_1_is_aisleriot_seed_1_card_for_card(document):
    assert deal_order(document.page("hamilton").rules, 1) == HAMILTON_1


@pytest.mark.parametrize("seed, first_eight", [
    (0, "6c 7s 7d 5s 2h 6s Qd Td"),
    (2, "Qh 6c 7s 3c As 3d 9d 7h"),
    (100, "Js 3d Ts 7c 8h 4d 6d 3h"),
    (4294967295, "Kd 9d Td 3c 4h 6d 2h Kh"),
])
@pytest.mark.parametrize("page_id", ["hamilton", "agnes", "eagle_wing"])
def test_deal_starts_with_the_cards_aisleriot_deals_first(document, page_id, seed, first_eight):
    # One standard deck and the same shuffle: the three games share the order for a seed.
    assert deal_order(document.page(page_id).rules, seed)[:8] == cards(first_eight)


def test_deal_order_is_a_permutation_of_the_deck_and_repeats_for_a_seed(document):
    rules = document.page("agnes").rules
    order = deal_order(rules, 123456)
    assert sorted(map(str, order)) == sorted(map(str, standard_deck()))
    assert deal_order(rules, 123456) == order
    assert deal_order(rules, 123457) != order


def test_shuffle_draws_one_number_per_card_counting_down():
    rand, probe = GRand(77), GRand(77)
    aisleriot_shuffle(standard_deck(), rand)
    for n in range(52, 0, -1):
        probe.int_range(0, n)
    assert rand.int() == probe.int()


def test_shuffle_puts_the_first_picked_card_last():
    # With one card left to choose from, the walk picks in place; the first pick ends at the bottom.
    rand = GRand(7)
    first_pick = standard_deck()[GRand(7).int_range(0, 52)]
    assert aisleriot_shuffle(standard_deck(), rand)[-1] == first_pick


def test_refused_deal_is_followed_by_the_next_shuffle_of_the_same_generator(document):
    rules = document.page("hamilton").rules
    rand = GRand(1)
    first = aisleriot_shuffle(rules.cards(), rand)
    second = aisleriot_shuffle(rules.cards(), rand)
    seen = []

    def playable(order):
        seen.append(order)
        return len(seen) == 2

    assert deal_order(rules, 1, playable) == second
    assert seen == [first, second]


def test_deal_without_a_playable_order_raises(document):
    with pytest.raises(RuntimeError, match="no playable deal"):
        deal_order(document.page("hamilton").rules, 1, lambda order: False, max_attempts=3)


@pytest.mark.parametrize("seed", [-1, SEED_MAX + 1, 2.5, None])
def test_deal_number_outside_aisleriot_seeds_is_refused(document, seed):
    with pytest.raises(ValueError, match="deal number"):
        deal_order(document.page("hamilton").rules, seed)
