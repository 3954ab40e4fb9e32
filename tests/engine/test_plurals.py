"""CLDR plural rules as data: the category of a whole number by TR35 conditions, in the syntax
CLDR writes (=, !=, %, ranges and lists) and in the one Babel gives (in, not in, mod, within)."""

from __future__ import annotations

import pytest

from patiencebook.engine.plurals import PluralRuleError, compile_rules, plural_category

ENGLISH = {"one": "i = 1 and v = 0 @integer 1"}
FRENCH = {"one": "i = 0,1 @integer 0, 1", "many": "e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5"}
SERBIAN_BABEL = {"few": "v in 0 and i mod 10 in 2..4 and i mod 100 not in 12..14 or f mod 10 in 2..4 and f mod 100 "
                        "not in 12..14",
                 "one": "v in 0 and i mod 10 in 1 and i mod 100 not in 11 or f mod 10 in 1 and f mod 100 not in 11"}
CZECH = {"one": "i = 1 and v = 0", "few": "i = 2..4 and v = 0", "many": "v != 0"}
ARABIC = {"zero": "n = 0", "one": "n = 1", "two": "n = 2", "few": "n % 100 = 3..10", "many": "n % 100 = 11..99"}


@pytest.mark.parametrize("rules, numbers, categories", [
    (ENGLISH, (0, 1, 2, 11, 21), ("other", "one", "other", "other", "other")),
    (FRENCH, (0, 1, 2, 1000000, 2000000, 1000001), ("one", "one", "other", "many", "many", "other")),
    (SERBIAN_BABEL, (1, 2, 4, 5, 11, 12, 21, 22, 25, 111, 112, 101),
     ("one", "few", "few", "other", "other", "other", "one", "few", "other", "other", "other", "one")),
    (CZECH, (1, 2, 4, 5, 0), ("one", "few", "few", "other", "other")),
    (ARABIC, (0, 1, 2, 3, 10, 11, 99, 100, 102, 103), ("zero", "one", "two", "few", "few", "many", "many", "other",
                                                       "other", "few")),
    ({}, (0, 1, 5), ("other", "other", "other")),
])
def test_a_whole_number_takes_the_category_its_conditions_give(rules, numbers, categories):
    assert tuple(plural_category(rules, n) for n in numbers) == categories


def test_overlapping_conditions_are_tried_in_cldr_order():
    assert compile_rules({"few": "n = 1..5", "one": "n = 1"})(1) == "one"


@pytest.mark.parametrize("rules, message", [
    ({"one": "n = "}, "expected a number"),
    ({"one": "x = 1"}, "unknown operand 'x'"),
    ({"one": "n % 0 = 1"}, "modulo 0"),
    ({"one": "n = 1 or"}, "expected more"),
    ({"one": "n ! 1"}, "cannot read the plural rule"),
    ({"lots": "n = 1"}, "'lots' is not a plural category"),
])
def test_a_rule_not_in_the_syntax_is_refused_naming_it(rules, message):
    with pytest.raises(PluralRuleError, match=message):
        compile_rules(rules)
