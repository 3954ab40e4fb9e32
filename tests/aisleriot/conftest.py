"""Fixtures for the AisleRiot reference tests: a missing reference fails, naming the setup command.

:data:`GAMES` says which AisleRiot game each page of rules/ is compared with, and which of its
options each variant of the page stands for; :data:`CASES` lists the (page, variant) pairs the
reference tests run on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import pytest

from .harness import HarnessMissing, guile_dir, pile_map, slot_pile_map

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"


@dataclass(frozen=True, slots=True)
class ReferenceGame:
    """The AisleRiot game a page of rules/ is compared with.

    Attributes:
        module: AisleRiot's game module (games/<module>.scm; ``"forty-thieves"``).
        variants: variant id of the page -> the names of the AisleRiot options that make it, as its
            Options menu shows them (every other option off); empty when the page has no variants
            and AisleRiot's defaults are played.
        removed: the id of our pile that holds the cards AisleRiot takes off the table, for which
            it has no slot (Monte Carlo's pairs: monte-carlo.scm ``button-released`` drops the
            dragged card and ``remove-card`` deletes the other), or ``None``. Its cards are
            compared as a set with those missing from AisleRiot's slots.
    """

    module: str
    variants: dict[str, tuple[str, ...]] = field(default_factory=dict)
    removed: str | None = None

    def options(self, variant: str | None) -> tuple[str, ...] | None:
        """The AisleRiot options for ``variant`` (``None``: the game's own defaults)."""
        return None if variant is None else self.variants[variant]


#: Page id of rules/ -> the AisleRiot game it is checked against. Option names are those of
#: AisleRiot's Options menu (games/klondike.scm and games/spider.scm, ``get-options``).
GAMES: dict[str, ReferenceGame] = {
    "hamilton": ReferenceGame("hamilton"),
    "agnes": ReferenceGame("agnes"),
    "eagle_wing": ReferenceGame("eagle-wing"),
    "klondike": ReferenceGame("klondike", {
        "single-card-deals": ("Single card deals",),
        "three-card-deals": ("Three card deals",),
        "no-redeals": ("No redeals",),
        "unlimited-redeals": ("Unlimited redeals",),
    }),
    "freecell": ReferenceGame("freecell"),
    "spider": ReferenceGame("spider", {
        "four-suits": ("Four Suits",),
        "two-suits": ("Two Suits",),
        "one-suit": ("One Suit",),
    }),
    "yukon": ReferenceGame("yukon"),
    "golf": ReferenceGame("golf"),
    "canfield": ReferenceGame("canfield"),
    "scorpion": ReferenceGame("scorpion"),
    "forty_thieves": ReferenceGame("forty-thieves"),
    "bakers_dozen": ReferenceGame("bakers-dozen"),
    "gypsy": ReferenceGame("gypsy"),
    "bakers_game": ReferenceGame("bakers-game"),
    "eight_off": ReferenceGame("eight-off"),
    "beleaguered_castle": ReferenceGame("beleaguered-castle"),
    "spiderette": ReferenceGame("spiderette"),
    "whitehead": ReferenceGame("whitehead"),
    "easthaven": ReferenceGame("easthaven"),
    "odessa": ReferenceGame("odessa"),
    "seahaven": ReferenceGame("seahaven"),
    "triple_peaks": ReferenceGame("triple-peaks"),
    "streets_and_alleys": ReferenceGame("streets-and-alleys"),
    "fortress": ReferenceGame("fortress"),
    "westhaven": ReferenceGame("westhaven"),
    "king_albert": ReferenceGame("king-albert"),
    "kansas": ReferenceGame("kansas"),
    "lady_jane": ReferenceGame("lady-jane"),
    "giant": ReferenceGame("giant", {
        "alternate-colours": ("Alternating colors",),
        "same-suit": ("Same suit",),
    }),
    "cruel": ReferenceGame("cruel"),
    "chessboard": ReferenceGame("chessboard"),
    "thumb_and_pouch": ReferenceGame("thumb-and-pouch"),
    "jumbo": ReferenceGame("jumbo"),
    "spider_three_decks": ReferenceGame("spider-three-decks"),
    "will_o_the_wisp": ReferenceGame("will-o-the-wisp"),
    "monte_carlo": ReferenceGame("monte-carlo", removed="foundation"),
    "osmosis": ReferenceGame("osmosis", {
        "single-card-deals": (),
        "three-card-deals": ("Three card deals",),
    }),
}

#: Every (page id, variant id) pair compared; the variant is ``None`` for a page without variants.
CASES: list[tuple[str, str | None]] = [
    (page_id, variant)
    for page_id in sorted(GAMES)
    for variant in (sorted(GAMES[page_id].variants) or [None])
]


def case_id(case: tuple[str, str | None]) -> str:
    """A test id for a case: ``klondike/three-card-deals``, or the page id alone."""
    page_id, variant = case
    return page_id if variant is None else f"{page_id}/{variant}"


#: Keyword arguments for ``pytest.mark.parametrize`` over :data:`CASES`.
CASE_PARAMS = {"argnames": ("page_id", "variant"), "argvalues": CASES, "ids": [case_id(c) for c in CASES]}


def ruleset_for(document, page_id: str, variant: str | None):
    """Our ruleset for ``page_id`` (and ``variant``) from the loaded rules document.

    A page or variant missing from rules/ fails the calling test with its name (not an error at
    collection, so the other games still run). Pages with variants give them as
    ``page.variants`` (variant id -> ruleset, the default one included).
    """
    try:
        page = document.page(page_id)
    except KeyError:
        page = None
    if page is None:
        pytest.fail(f"rules/ has no page {page_id!r}, which tests/aisleriot/conftest.py GAMES compares "
                    f"with AisleRiot's {GAMES[page_id].module!r}", pytrace=False)
    if variant is None:
        rules = page.rules
        if rules is None:
            pytest.fail(f"page {page_id!r} of rules/ gives no ruleset", pytrace=False)
        return rules
    variants = getattr(page, "variants", None) or {}
    if variant not in variants:
        pytest.fail(f"page {page_id!r} of rules/ has no variant {variant!r} (it has: "
                    f"{', '.join(sorted(variants)) or 'none'}); GAMES maps it to AisleRiot's options "
                    f"{GAMES[page_id].variants[variant]}", pytrace=False)
    return variants[variant]


def gives_slots(ruleset) -> bool:
    """Whether the ruleset numbers its piles by AisleRiot's slots (``slots=`` on its pile groups)."""
    return any(group.slots is not None for group in ruleset.piles)


def slot_piles(typed_slots: Iterable[tuple], ruleset, position, removed: str | None = None) -> dict[int, str]:
    """AisleRiot slot id -> our pile id for ``ruleset``: by the slot numbers of the page when it
    gives them (``Ruleset.slot_order()``, without the pile ``removed``: see
    :attr:`ReferenceGame.removed`), else by role in layout order (:func:`pile_map`).

    Raises ``ValueError`` when the two sides do not have the same piles.
    """
    if gives_slots(ruleset):
        return slot_pile_map(typed_slots, [p for p in ruleset.slot_order() if p != removed])
    return pile_map(typed_slots, position.pile_ids, (position.role(p).value for p in position.pile_ids))


@pytest.fixture(scope="session")
def aisleriot_dir() -> Path:
    """The unpacked AisleRiot rules; a missing setup is a failure, since the test setup installs it."""
    try:
        return guile_dir()
    except HarnessMissing as err:
        pytest.fail(f"AisleRiot reference not available: {err}", pytrace=False)


@pytest.fixture(scope="session")
def rules_document():
    """Our rules/ document, loaded once."""
    from patiencebook.generator.docbook.sources import load_document
    return load_document(RULES_DIR)
