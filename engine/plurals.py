"""CLDR plural rules: which plural category (``one``, ``few``, ``many``, ``other`` ...) a whole
number takes in a language, so a message can agree with the count it names.

The rules are data: a mapping from category to its condition in the syntax of Unicode TR35,
Part 3 ("Language Plural Rules"), as CLDR states them and as Babel gives them
(``babel.Locale.parse("ru").plural_form.rules``): ``{"one": "v = 0 and i % 10 = 1 and i % 100 != 11",
"few": "...", "many": "..."}``. ``other`` is what no condition matches and is never stated. The
front end's caller computes them (the generator, from CLDR) and passes them in, so the engine
needs no locale data. Standard library only.

Only whole numbers are counted here (cards, piles, redeals), so the operands are ``n = i`` (the
number), ``v = w = f = t = 0`` and the exponent ``c = e = 0``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Mapping

__all__ = ["CATEGORIES", "PluralRuleError", "plural_category", "compile_rules"]

#: The plural categories of CLDR, in CLDR's order; ``other`` is always one of a language's.
CATEGORIES = ("zero", "one", "two", "few", "many", "other")

_TOKEN = re.compile(r"\s*(?:(\d+)|(\.\.)|(!=|=|%|,)|([a-z]+))")
_OPERANDS = frozenset("nivwftce")


class PluralRuleError(ValueError):
    """A plural rule that is not in the TR35 syntax; the message names the rule and where it fails."""


def _tokens(text: str) -> list[str]:
    text = text.split("@", 1)[0].strip()  # CLDR's samples (@integer ..., @decimal ...) are no part of the rule
    out, pos = [], 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise PluralRuleError(f"cannot read the plural rule {text!r} at {text[pos:]!r}")
        out.append(next(g for g in m.groups() if g is not None))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return out


class _Parser:
    """condition = and_condition ('or' and_condition)*; and_condition = relation ('and' relation)*;
    relation = operand ('mod'|'%' number)? ('=' | '!=' | 'is' 'not'? | 'not'? ('in'|'within')) ranges."""

    def __init__(self, text: str):
        self.text = text
        self.tokens = _tokens(text)
        self.pos = 0

    def _peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _take(self, *wanted: str) -> str:
        token = self._peek()
        if token is None or (wanted and token not in wanted):
            expected = " or ".join(repr(w) for w in wanted) if wanted else "more"
            found = f"found {token!r}" if token is not None else "found the end of the rule"
            raise PluralRuleError(f"plural rule {self.text!r}: expected {expected}, {found}")
        self.pos += 1
        return token

    def _number(self) -> int:
        token = self._peek()
        if token is None or not token.isdigit():
            found = f"found {token!r}" if token is not None else "found the end of the rule"
            raise PluralRuleError(f"plural rule {self.text!r}: expected a number, {found}")
        self.pos += 1
        return int(token)

    def parse(self) -> Callable[[int], bool]:
        if not self.tokens:
            return lambda n: True  # an empty condition (CLDR's "other") holds for every number
        test = self._or()
        if self._peek() is not None:
            raise PluralRuleError(f"plural rule {self.text!r}: unexpected {self._peek()!r}")
        return test

    def _or(self) -> Callable[[int], bool]:
        parts = [self._and()]
        while self._peek() == "or":
            self._take()
            parts.append(self._and())
        return lambda n: any(p(n) for p in parts)

    def _and(self) -> Callable[[int], bool]:
        parts = [self._relation()]
        while self._peek() == "and":
            self._take()
            parts.append(self._relation())
        return lambda n: all(p(n) for p in parts)

    def _relation(self) -> Callable[[int], bool]:
        operand = self._take()
        if operand not in _OPERANDS:
            raise PluralRuleError(f"plural rule {self.text!r}: unknown operand {operand!r}")
        modulus = None
        if self._peek() in ("mod", "%"):
            self._take()
            modulus = self._number()
            if modulus == 0:
                raise PluralRuleError(f"plural rule {self.text!r}: modulo 0")
        negate = False
        op = self._take("=", "!=", "is", "not", "in", "within")
        if op == "!=":
            negate = True
        elif op == "is":
            if self._peek() == "not":
                self._take()
                negate = True
        elif op == "not":
            negate = True
            self._take("in", "within")
        ranges = self._ranges()

        def value(n: int) -> int:
            x = n if operand in ("n", "i") else 0
            return x % modulus if modulus else x

        def holds(n: int) -> bool:
            x = value(n)
            found = any(lo <= x <= hi for lo, hi in ranges)  # for a whole number "in" and "within" agree
            return found != negate

        return holds

    def _ranges(self) -> list[tuple[int, int]]:
        out = []
        while True:
            lo = self._number()
            hi = lo
            if self._peek() == "..":
                self._take()
                hi = self._number()
            out.append((lo, hi))
            if self._peek() != ",":
                return out
            self._take()


@lru_cache(maxsize=64)
def _compiled(items: tuple[tuple[str, str], ...]) -> tuple[tuple[str, Callable[[int], bool]], ...]:
    return tuple((category, _Parser(text).parse()) for category, text in items)


def compile_rules(rules: Mapping[str, str]) -> Callable[[int], str]:
    """A function giving the plural category of a whole number by ``rules`` (category -> TR35
    condition). Raises :class:`PluralRuleError` for a rule that cannot be read or a category that
    is not one of :data:`CATEGORIES`."""
    if not isinstance(rules, Mapping):
        raise PluralRuleError(f"plural rules are a mapping of category to condition, not {type(rules).__name__}")
    for category, text in rules.items():
        if category not in CATEGORIES or not isinstance(text, str):
            raise PluralRuleError(f"plural rules: {category!r} is not a plural category with a condition")
    # CLDR's order, so a language whose conditions overlap picks as CLDR means it to.
    ordered = tuple((c, rules[c]) for c in CATEGORIES if c in rules and c != "other")
    tests = _compiled(ordered)

    def category(n: int) -> str:
        n = abs(int(n))
        return next((c for c, test in tests if test(n)), "other")

    return category


def plural_category(rules: Mapping[str, str], n: int) -> str:
    """The plural category of the whole number ``n`` by ``rules`` (see :func:`compile_rules`):
    ``plural_category({"one": "i = 1 and v = 0"}, 1) == "one"``, ``... 2) == "other"``."""
    return compile_rules(rules)(n)
