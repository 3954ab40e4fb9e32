"""Which sentences of a translation say what each sentence of its msgid says.

:func:`align_sentences` pairs the sentences of the two texts in order, in blocks, as Gale and
Church (1993) align sentences of parallel texts, scored by the facts the sentences share and by how
close their lengths are; :func:`sentence_bounds` gives where each sentence of a text lies.
"""

from __future__ import annotations

from functools import lru_cache

from .facts import sentence_starts
from .findings import Span

#: Kinds whose values align sentences: what a sentence is about.
ANCHORS = ("number", "rank", "pile", "suit-colour", "suit-name", "direction", "step", "face", "redeal",
            "at-a-time", "side", "comparator", "in-play")


def align_sentences(src_text: str, src, dst_text: str, dst) -> list[tuple[frozenset[int], frozenset[int]]]:
    """Pair the sentences of a msgid with those of its translation, in order.

    A dynamic programme in the manner of Gale and Church (1993) over blocks of one source sentence
    with none, one, two or three translated sentences and of two or three with one, scored by the
    facts the two sides share (their kinds and values) and by how close their lengths are. Returns
    ``(source sentence indices, translated sentence indices)`` per block, in text order; a block
    with an empty side is a sentence the other text does not have.
    """
    s_bounds = sentence_bounds(src_text)
    d_bounds = sentence_bounds(dst_text)
    n, m = len(s_bounds), len(d_bounds)
    if n == m == 1:
        return [(frozenset({0}), frozenset({0}))]
    s_sig = _signatures(src, n)
    d_sig = _signatures(dst, m)
    s_sum = [0]
    for a, b in s_bounds:
        s_sum.append(s_sum[-1] + max(1, b - a))
    d_sum = [0]
    for a, b in d_bounds:
        d_sum.append(d_sum[-1] + max(1, b - a))
    ratio = d_sum[-1] / s_sum[-1]
    # The facts of each run of up to three sentences (the longest block side there is), as asked for.
    s_union: dict = {}
    d_union: dict = {}

    def union(cache: dict, sig: list, i: int, k: int):
        found = cache.get((i, k))
        if found is None:
            found = cache[i, k] = sig[i] if k == i + 1 else sig[i].union(*sig[i + 1:k])
        return found

    def score(i0, i1, j0, j1) -> float:
        if i0 == i1 or j0 == j1:
            return -0.45  # a sentence left without a counterpart
        a, b = union(s_union, s_sig, i0, i1), union(d_union, d_sig, j0, j1)
        if a or b:
            both = len(a & b)
            shared = both / (len(a) + len(b) - both)
        else:
            shared = 0.5
        la, lb = (s_sum[i1] - s_sum[i0]) * ratio, d_sum[j1] - d_sum[j0]
        closeness = la / lb if la < lb else lb / la
        return shared + closeness - 0.35 * (i1 - i0 + j1 - j0 - 2)

    if n == m and all(score(i, i + 1, i, i + 1) >= 0.7 for i in range(n)):
        # As many sentences, each pair alike in facts and length: the usual case needs no search.
        return [(frozenset({i}), frozenset({i})) for i in range(n)]
    best = {(0, 0): (0.0, None)}
    # Blocks stay near the diagonal: no alignment strays more than a few sentences from it.
    band = 3 + abs(n - m)
    for i in range(n + 1):
        for j in range(max(0, i * m // max(n, 1) - band), min(m, i * m // max(n, 1) + band) + 1):
            if (i, j) not in best:
                continue
            here = best[(i, j)][0]
            for di, dj in ((1, 1), (1, 0), (0, 1), (1, 2), (2, 1), (1, 3), (3, 1)):
                ni, nj = i + di, j + dj
                if ni > n or nj > m:
                    continue
                value = here + score(i, ni, j, nj)
                if (ni, nj) not in best or value > best[(ni, nj)][0]:
                    best[(ni, nj)] = (value, (i, j))
    blocks = []
    at = (n, m)
    if at not in best:  # outside the band (cannot happen with the band above): one block
        return [(frozenset(range(n)), frozenset(range(m)))]
    while at != (0, 0):
        prev = best[at][1]
        blocks.append((frozenset(range(prev[0], at[0])), frozenset(range(prev[1], at[1]))))
        at = prev
    return blocks[::-1]


def _signatures(facts, count: int) -> list[set]:
    """The ``(kind, value)`` pairs of the anchoring facts of each of ``count`` sentences."""
    sigs = [set() for _ in range(count)]
    for f in facts:
        if f.kind in _ANCHOR_KINDS and f.sentence < count:
            sig, kind, value = sigs[f.sentence], f.kind, f.value
            if isinstance(value, tuple):  # a term used for several things (see facts.values_of)
                sig.update([(kind, v) for v in value])
            else:
                sig.add((kind, value))
    return sigs


_ANCHOR_KINDS = frozenset(ANCHORS)


@lru_cache(maxsize=65_536)
def sentence_bounds(text: str) -> tuple[tuple[int, int], ...]:
    """``(start, end)`` of each sentence of ``text`` (kept: every check of a unit asks again)."""
    starts = [0, *sentence_starts(text)]
    ends = [*starts[1:], len(text)]
    return tuple(zip(starts, ends))


def sentence_left_out(text: str, n: int) -> tuple:
    """The raw finding that sentence ``n`` of the source ``text`` has no counterpart."""
    start, end = sentence_bounds(text)[n]
    sentence = text[start:end].strip()
    start = text.index(sentence, start)
    return ("sentence", "omission", "the translation has no sentence for this one of the source",
            Span(start, start + len(sentence), sentence), None, 0.5, None)


__all__ = ["ANCHORS", "align_sentences", "sentence_bounds", "sentence_left_out"]
