"""Which pile a build statement is about: "foundations up, tableau down" against its translation.

A sentence may state a build direction or a match for two piles at once ("Build foundations up in
suit and tableau piles down in suit"). Counting the values of each side says nothing when the
translation gives the same values to the other piles ("foundations down, tableau up"): both say
up once and down once. Here each value is tied to the pile of its clause, and the two texts compare
pile by pile.

A clause is a stretch of one sentence between punctuation (``,`` ``;`` ``:`` and brackets) and the
words of the lexicon setting ``clause_joiners`` ("and", "und", "και", "и"); a language without the
setting is cut at punctuation only. A clause says something of a pile when it names exactly one pile
and one value of the kind.
"""

from __future__ import annotations

import bisect
import re

from .facts import Fact, lexicon_of
from .lexicon import fold, read_tokens

#: Kinds whose values this module ties to piles, with the values that exclude each other.
BUILD_KINDS = {"direction": frozenset({"up", "down"}),
               "suit-colour": frozenset({"suit", "alternate", "colour", "rank-only"})}

_PUNCTUATION = re.compile(r"[,;:()\[\]]")


def clause_bounds(text: str, lang: str) -> list[int]:
    """Offsets in ``text`` where a clause begins after the first one (sorted): after punctuation and
    at each word of the lexicon's ``clause_joiners`` (``lang`` is a lexicon key, see
    :func:`~.facts.lexicon_of`)."""
    lex = lexicon_of(lang)
    joiners = frozenset(fold(word, lex.lang) for word in lex.settings.get("clause_joiners", ()))
    bounds = {m.end() for m in _PUNCTUATION.finditer(text)}
    if joiners:
        bounds |= {start for start, _end, folded, *_ in read_tokens(text, lex.lang, lex) if folded in joiners}
    return sorted(bounds)


def by_pile(facts: list[Fact], text: str, lang: str, kind: str) -> dict[str, Fact]:
    """What the clauses of ``text`` say of each pile for ``kind`` (a key of :data:`BUILD_KINDS`):
    ``{pile: fact}``, e.g. the direction facts ``up`` of ``"foundation"`` and ``down`` of
    ``"tableau"``. A pile whose clauses give it different values is left out, and so is a term read
    as several piles or values."""
    bounds = clause_bounds(text, lang)

    def clause(fact: Fact) -> tuple[int, int]:
        return fact.sentence, bisect.bisect_right(bounds, fact.span.start)

    piles: dict[tuple[int, int], set] = {}
    values: dict[tuple[int, int], list[Fact]] = {}
    for fact in facts:
        if fact.kind == "pile" and isinstance(fact.value, str):
            piles.setdefault(clause(fact), set()).add(fact.value)
        elif fact.kind == kind and fact.value in BUILD_KINDS[kind]:
            values.setdefault(clause(fact), []).append(fact)
    said: dict[str, list[Fact]] = {}
    for where, named in piles.items():
        stated = values.get(where, [])
        if any(f.value == "alternate" for f in stated):
            stated = [f for f in stated if f.value != "colour"]  # "alternate colours" names a colour too
        if len(named) == 1 and len({f.value for f in stated}) == 1:
            said.setdefault(next(iter(named)), []).extend(stated)
    return {pile: stated[0] for pile, stated in said.items() if len({f.value for f in stated}) == 1}


def swapped(kind: str, src: list[Fact], src_text: str, dst: list[Fact], dst_text: str,
            dst_lang: str) -> list[tuple[tuple[str, Fact, Fact], tuple[str, Fact, Fact]]]:
    """Pairs of piles whose values of ``kind`` the translation gives the other way round: the
    source says ``a`` of one pile and ``b`` of the other, the translation ``b`` and ``a``
    ("foundations up, tableau down" as "foundations down, tableau up"). Each pair is
    ``((pile, source fact, translated fact), (other pile, source fact, translated fact))``, in the
    source's order; ``dst_lang`` is the translation's lexicon key."""
    if not (_two_of_each(src, kind) and _two_of_each(dst, kind)):
        return []  # no pair of piles with values of their own
    said = by_pile(src, src_text, "en", kind)
    told = by_pile(dst, dst_text, dst_lang, kind)
    common = sorted((p for p in said if p in told), key=lambda p: said[p].span.start)
    out = []
    for i, pile in enumerate(common):
        for other in common[i + 1:]:
            a, b = said[pile].value, said[other].value
            if a != b and told[pile].value == b and told[other].value == a:
                out.append(((pile, said[pile], told[pile]), (other, said[other], told[other])))
    return out


def _two_of_each(facts: list[Fact], kind: str) -> bool:
    """Whether ``facts`` name two piles and two values of ``kind`` or more."""
    piles = {f.value for f in facts if f.kind == "pile" and isinstance(f.value, str)}
    values = {f.value for f in facts if f.kind == kind and f.value in BUILD_KINDS[kind]}
    return len(piles) >= 2 and len(values) >= 2


__all__ = ["BUILD_KINDS", "by_pile", "clause_bounds", "swapped"]
