"""Each page compared with AisleRiot is in rules/, and each of its variants has AisleRiot options.

conftest.GAMES maps page ids to AisleRiot games and variant ids to their options; a page missing
from rules/, or a variant the page has and GAMES does not (or the other way round), fails here
with its name, so no variant goes unchecked by the reference tests.
"""

from __future__ import annotations

import pytest

from .conftest import GAMES, ruleset_for


@pytest.mark.parametrize("page_id", sorted(GAMES))
def test_every_variant_of_a_compared_page_is_played_with_aisleriot_options(page_id, rules_document):
    ruleset_for(rules_document, page_id, None)
    page = rules_document.page(page_id)
    variants = set(getattr(page, "variants", None) or {})
    assert variants == set(GAMES[page_id].variants), (
        f"{page_id}: variants of the page {sorted(variants)}, in tests/aisleriot/conftest.py GAMES "
        f"{sorted(GAMES[page_id].variants)}")
