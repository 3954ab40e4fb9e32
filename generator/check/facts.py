"""Rule facts in a help message (numbers, ranks, piles, suit or colour, direction, ...) and the check
that a translation still states the same facts as its English msgid.

Word lists come from :mod:`.lexicon`; matching is by folded form, stem or prefix, so inflected,
accented and (for Serbian) Latin or Cyrillic words all count.
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from pathlib import Path
from functools import lru_cache

from .findings import Span
from .lexicon import Lexicon, Term, load_lexicon, tokens

#: The checks this module runs, in report order.
CHECKS = ("number", "rank", "pile", "suit-colour", "direction", "face", "redeal", "at-a-time",
          "side", "comparator")

UNLIMITED = math.inf

# When two terms cover the same words, the more specific kind wins (a "ten" that is a rank noun is
# not also a number; "one another" is not the number one).
_KIND_PRIORITY = {"ignore": 0, "at-a-time": 1, "redeal": 2, "pass": 2, "face": 3, "comparator": 4,
                  "rank": 5, "suit-colour": 6, "direction": 7, "pile": 8, "side": 9, "unlimited": 10,
                  "negation": 11, "number": 12}
_HOW_PRIORITY = {"exact": 0, "stem": 1, "prefix": 2}
_OPPOSITE = {"direction": {"up": "down", "down": "up"}, "face": {"up": "down", "down": "up"},
             "side": {"left": "right", "right": "left"}}
_WINDOW = 4


@dataclass(frozen=True, slots=True)
class Fact:
    """One rule fact in a message.

    Attributes:
        kind: the check name (see :data:`CHECKS`).
        value: ``int`` for number/rank (1 = Ace … 13 = King)/at-a-time; redeal count as ``int``,
            :data:`UNLIMITED` or ``None`` (a redeal is mentioned, count unknown); otherwise a str
            (``"foundation"``, ``"up"``, ``"suit"`` ...), or a tuple of str when the translated term
            is used for more than one thing.
        span: where it is in the text.
        ordinal: for a number, True when it is written as an ordinal ("third", "dritte"); such a
            number confirms a source number but is never taken as a contradicting one.
    """

    kind: str
    value: object
    span: Span
    ordinal: bool = False


@dataclass(frozen=True, slots=True)
class _Match:
    first: int
    last: int  # index of the last token, inclusive
    kind: str
    value: object
    how: str


def _match_terms(toks, lex: Lexicon) -> list[_Match]:
    found = []
    for i, (_, _, folded, stem) in enumerate(toks):
        if folded.isdigit():
            found.append(_Match(i, i, "digits", int(folded), "exact"))
            continue
        for term in lex.candidates(folded, stem):
            if _term_matches(term, toks, i):
                found.append(_Match(i, i + len(term.words) - 1, term.kind, term.value, term.words[0].how))
    found.sort(key=lambda m: (-(m.last - m.first), _KIND_PRIORITY.get(m.kind, 13),
                              _HOW_PRIORITY[m.how], m.first))
    taken: set[int] = set()
    chosen = []
    for m in found:
        idx = range(m.first, m.last + 1)
        if any(k in taken for k in idx):
            continue
        taken.update(idx)
        chosen.append(m)
    chosen.sort(key=lambda m: m.first)
    return chosen


def _term_matches(term: Term, toks, i: int) -> bool:
    if i + len(term.words) > len(toks):
        return False
    for k, pat in enumerate(term.words):
        _, _, folded, stem = toks[i + k]
        if pat.how == "stem" and stem != pat.text:
            return False
        if pat.how == "exact" and folded != pat.text:
            return False
        if pat.how == "prefix" and not folded.startswith(pat.text):
            return False
    return True


def _span(text: str, toks, m: _Match) -> Span:
    start, end = toks[m.first][0], toks[m.last][1]
    return Span(start, end, text[start:end])


def extract_facts(text: str, lang: str) -> list[Fact]:
    """All rule facts in ``text`` (a msgid when ``lang`` is ``"en"``, else a msgstr), in text order.

    Markup (tags, their attributes, entities) is skipped; four-digit years are not numbers.
    A redeal fact's value is the number of redeals: "through the deck three times" is 2.

    Raises:
        LanguageError: no lexicon for ``lang``.
    """
    return list(_facts_of(text, lang))


def _read(text: str, lang: str) -> tuple[Lexicon, list, list[_Match]]:
    """The lexicon, tokens and chosen term matches of ``text`` (matches cached per text)."""
    lex = load_lexicon(lang)
    toks = tokens(text, lang, lex)
    return lex, toks, list(_matches_of(text, lang))


@lru_cache(maxsize=16_384)
def _matches_of(text: str, lang: str) -> tuple[_Match, ...]:
    # A msgid is read once per catalog, and a msgstr twice (facts, then the unlimited test).
    lex = load_lexicon(lang)
    return tuple(_match_terms(tokens(text, lang, lex), lex))


@lru_cache(maxsize=16_384)
def _facts_of(text: str, lang: str) -> tuple[Fact, ...]:
    lex, toks, matches = _read(text, lang)
    facts: list[Fact] = []
    matches = _join_compound_numbers(text, toks, matches)
    numbers = [m for m in matches if m.kind in ("number", "digits")]
    stops = [i for i, c in enumerate(text) if c in ".!?;:\u037e"]

    def sentence(tok: int) -> int:
        return bisect.bisect(stops, toks[tok][0])

    at_a_time = {id(m): (m.value if isinstance(m.value, int) else _near_number(numbers, m, sentence))
                 for m in matches if m.kind == "at-a-time"}
    # "τρία τρία", "ένα-ένα": a number said twice means that many at a time.
    for a, b in zip(numbers, numbers[1:]):
        if b.first == a.last + 1 and a.value == b.value and a.kind == b.kind == "number":
            pair = _Match(a.first, b.last, "at-a-time", a.value, "exact")
            matches = sorted([x for x in matches if x is not a and x is not b] + [pair],
                             key=lambda x: x.first)
            at_a_time[id(pair)] = a.value
    used = set(at_a_time.values())  # numbers read as "N at a time" are no redeal count
    for m in matches:
        span = _span(text, toks, m)
        if m.kind == "digits":
            if 1900 <= m.value <= 2100 and len(toks[m.first][2]) == 4:
                continue
            facts.append(Fact("number", m.value, span))
        elif m.kind == "number":
            if m.value:
                facts.append(Fact("number", m.value, span, ordinal=_is_ordinal(lex, toks, m)))
        elif m.kind in ("rank", "pile", "suit-colour", "direction", "face", "side", "comparator"):
            facts.append(Fact(m.kind, m.value, span))
        elif m.kind == "at-a-time":
            value = at_a_time[id(m)]
            if value is not None:
                facts.append(Fact("at-a-time", value, span))
        elif m.kind in ("redeal", "pass"):
            facts.append(Fact("redeal", _redeal_count(
                matches, [n for n in numbers if n.value not in used], m, sentence, lex), span))
    return tuple(facts)


def _is_ordinal(lex: Lexicon, toks, m: _Match) -> bool:
    folded = toks[m.first][2]
    return m.first == m.last and (folded in lex.ordinals or folded.startswith(lex.ordinal_prefixes))


def _join_compound_numbers(text: str, toks, matches: list[_Match]) -> list[_Match]:
    """Join a tens word and a units word into one number: "fifty-four", "πενήντα τέσσερις", "педесет четири"."""
    out: list[_Match] = []
    for m in matches:
        prev = out[-1] if out else None
        if (prev is not None and m.kind == "number" and prev.kind == "number" and m.first == prev.last + 1
                and isinstance(prev.value, int) and isinstance(m.value, int)
                and prev.value in range(20, 100, 10) and 1 <= m.value <= 9
                and text[toks[prev.last][1]:toks[m.first][0]] in ("-", " ")):
            out[-1] = _Match(prev.first, m.last, "number", prev.value + m.value, "exact")
            continue
        out.append(m)
    return out


def _near_number(numbers: list[_Match], m: _Match, sentence) -> int | None:
    best = None
    for n in numbers:
        if sentence(n.first) != sentence(m.first):
            continue
        gap = m.first - n.last if n.last < m.first else n.first - m.last
        if 0 < gap <= 3 and n.value and (best is None or gap < best[0]):
            best = (gap, n.value)
    return None if best is None else best[1]


def _redeal_count(matches: list[_Match], numbers: list[_Match], m: _Match, sentence,
                  lex: Lexicon) -> object:
    def near(x: _Match, before: int, after: int) -> bool:
        if sentence(x.first) != sentence(m.first):
            return False
        return m.first - before <= x.first <= m.last + after

    others = [x for x in matches if x is not m]
    if any(x.kind == "unlimited" and near(x, _WINDOW, _WINDOW) for x in others):
        return UNLIMITED
    # "no redeal", "kein Neugeben", "дељења нема": a negation right next to the word wins.
    before, after = lex.settings.get("negation_window", [4, 2])
    if m.kind == "redeal" and any(x.kind == "negation" and near(x, before, after) for x in others):
        return 0
    candidates = [n for n in numbers if n.value and n is not m and near(n, _WINDOW, _WINDOW)]
    if not candidates:
        return None
    count = min(candidates, key=lambda n: abs(n.first - m.first)).value
    return count - 1 if m.kind == "pass" else count


def _label(kind: str, value: object) -> str:
    if kind == "rank":
        return {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}.get(value, f"{value}")
    if kind == "redeal":
        if value == UNLIMITED:
            return "unlimited redeals"
        return f"{value} redeal" + ("" if value == 1 else "s")
    if kind == "at-a-time":
        return f"{value} at a time"
    if kind == "suit-colour":
        return {"alternate": "alternate colour"}.get(value, value)
    if kind == "comparator":
        return {"sum": "add up to", "more": "more than", "at-most": "at most",
                "at-least": "at least"}.get(value, value)
    if kind in ("direction", "face"):
        return f"{kind} {value}" if kind == "face" else str(value)
    if isinstance(value, tuple):
        return " or ".join(value)
    return str(value)


def _values(fact: Fact) -> tuple:
    return fact.value if isinstance(fact.value, tuple) else (fact.value,)


#: One result of :func:`check_facts`: (check, severity, message, source span, translation span).
FactFinding = tuple[str, str, str, "Span | None", "Span | None"]


def check_facts(msgid: str, msgstr: str, lang: str) -> list[FactFinding]:
    """Compare the facts of an English ``msgid`` with those of its translation ``msgstr``.

    Returns ``(check, severity, message, source span, translation span)`` tuples: ``"error"`` when the
    translation states a different value (7 vs 6, up vs down, suit vs colour, 2 vs 3 redeals),
    ``"warning"`` when a fact of the source is missing from the translation. An empty ``msgstr``
    gives no findings (that is another check's business).

    Raises:
        LanguageError: no lexicon for ``lang``.
    """
    if not msgstr.strip() or msgstr.strip() == msgid.strip():
        return []  # untranslated, or a name kept as it is: other checks' business
    key = (msgid, msgstr, lang)
    if _MEMO is not None:
        _USED.add(key)
        if key in _MEMO:
            return list(_MEMO[key])
    out = _compare_facts(msgid, msgstr, lang)
    if _MEMO is not None:
        _MEMO[key] = tuple(out)
    return out


def _compare_facts(msgid: str, msgstr: str, lang: str) -> list[FactFinding]:
    src = extract_facts(msgid, "en")
    dst = extract_facts(msgstr, lang)
    out: list[FactFinding] = []
    out += _check_numbers(src, dst, lang, msgstr)
    out += _check_one(src, dst, lang, msgstr)
    for kind in ("pile", "suit-colour", "direction", "face", "side", "comparator"):
        out += _check_terms(kind, src, dst)
    out += _check_valued("redeal", src, dst, _says_unlimited(msgstr, lang))
    out += _check_valued("at-a-time", src, dst)
    order = {c: i for i, c in enumerate(CHECKS)}
    out.sort(key=lambda f: (order.get(f[0], 99), f[3].start if f[3] else -1))
    return out


def _says_unlimited(text: str, lang: str) -> bool:
    return any(m.kind == "unlimited" for m in _matches_of(text, lang))


def _of(facts: list[Fact], kind: str) -> list[Fact]:
    return [f for f in facts if f.kind == kind]


def _first(facts: list[Fact], value) -> Fact:
    return next(f for f in facts if value in _values(f))


def _check_numbers(src, dst, lang, msgstr) -> list[FactFinding]:
    out: list[FactFinding] = []
    for kind, other in (("number", "rank"), ("rank", "number")):
        s_facts, d_facts = _of(src, kind), _of(dst, kind)
        s_vals = {f.value for f in s_facts}
        d_vals = {f.value for f in d_facts}
        # A rank may be written as a number word ("a ten" → "zehn"), but an article is no Ace.
        d_other = {f.value for f in _of(dst, other)} - ({1} if kind == "rank" else set())
        s_all = s_vals | {f.value for f in _of(src, other)}
        missing = [v for v in dict.fromkeys(f.value for f in s_facts)
                   if v not in d_vals and v not in d_other and (kind == "rank" or v != 1)]
        if kind == "number" and _of(dst, "at-a-time"):
            # "three at a time" vs "einzeln" is reported once, by the at-a-time check.
            missing = [v for v in missing if v not in {f.value for f in _of(src, "at-a-time")}]
        if kind == "number" and _of(src, "redeal") and _of(dst, "redeal"):
            # "three times through the deck" may be translated "two redeals" and back.
            missing = [v for v in missing if v - 1 not in d_vals and v + 1 not in d_vals]
        extra = [f for f in d_facts if f.value not in s_all and f.value != 1 and not f.ordinal]
        extra = list({f.value: f for f in reversed(extra)}.values())[::-1]
        for v in missing:
            sf = _first(s_facts, v)
            if extra:
                df = extra.pop(0)
                out.append((kind, "error",
                            f"{_label(kind, v)} in the source, {_label(kind, df.value)} in the translation",
                            sf.span, df.span))
            else:
                out.append((kind, "warning",
                            f"the source says {_label(kind, v)}; the translation has no such {kind}",
                            sf.span, None))
    return out


def _check_one(src, dst, lang: str, msgstr: str) -> list[FactFinding]:
    """A "one" in the source is mostly an article in translation ("a card" → "eine Karte"), so it
    counts as missing only when the translation has no number one, no article and no "single" word."""
    ones = [f for f in _of(src, "number") if f.value == 1 and not f.ordinal]
    if not ones or any(f.value == 1 for f in _of(dst, "number")):
        return []
    lex = load_lexicon(lang)
    if any(t[2] in lex.one_words for t in tokens(msgstr, lang, lex)):
        return []
    return [("number", "warning", "the source says 1; the translation has no such number",
             ones[0].span, None)]


def _check_terms(kind: str, src, dst) -> list[FactFinding]:
    s_facts, d_facts = _of(src, kind), _of(dst, kind)
    s_vals = list(dict.fromkeys(v for f in s_facts for v in _values(f)))
    d_cover = {v for f in d_facts for v in _values(f)}
    if kind == "suit-colour" and "alternate" in d_cover:
        d_cover.add("colour")
    extra = [f for f in d_facts if not set(_values(f)) & set(s_vals)]
    out: list[FactFinding] = []
    ranged = len({f.value for f in _of(dst, "rank")}) >= 2 and len({f.value for f in _of(src, "rank")}) >= 2
    for v in s_vals:
        if v in d_cover:
            continue
        sf = _first(s_facts, v)
        clash = _clash(kind, v, extra)
        if kind == "direction" and clash is None and ranged:
            continue  # "from Ace to King" states the direction by itself
        if clash is not None:
            out.append((kind, "error",
                        f"{_label(kind, v)} in the source, {_label(kind, clash.value)} in the translation",
                        sf.span, clash.span))
        elif kind == "suit-colour" and v == "alternate" and "colour" in d_cover:
            out.append((kind, "warning",
                        "the source says alternate colour; the translation only names a colour",
                        sf.span, _first(d_facts, "colour").span))
        elif kind == "suit-colour" and v == "colour" and "suit" in d_cover and "suit" not in s_vals:
            out.append((kind, "error", "colour in the source, suit in the translation",
                        sf.span, _first(d_facts, "suit").span))
        elif kind == "suit-colour" and v == "suit" and (d_cover & {"colour", "alternate"}) - set(s_vals):
            df = next(f for f in d_facts if (set(_values(f)) & {"colour", "alternate"}) - set(s_vals))
            out.append((kind, "error", f"suit in the source, {_label(kind, df.value)} in the translation",
                        sf.span, df.span))
        else:
            out.append((kind, "warning",
                        f"the source says {_label(kind, v)}; the translation does not", sf.span, None))
    return out


def _clash(kind: str, value, extra: list[Fact]) -> Fact | None:
    if kind in _OPPOSITE:
        want = _OPPOSITE[kind][value]
        return next((f for f in extra if want in _values(f)), None)
    if kind in ("pile", "comparator"):
        # A generic word ("pile", Serbian гомила) names no particular pile, so it contradicts nothing.
        return next((f for f in extra if "pile" not in _values(f)), None)
    return None


def _check_valued(kind: str, src, dst, dst_unlimited: bool = False) -> list[FactFinding]:
    s_facts, d_facts = _of(src, kind), _of(dst, kind)
    if dst_unlimited:
        s_facts = [f for f in s_facts if f.value != UNLIMITED]
    if not s_facts:
        return []
    out: list[FactFinding] = []
    d_known = [f for f in d_facts if f.value is not None]
    d_vals = {f.value for f in d_known}
    for v in dict.fromkeys(f.value for f in s_facts if f.value is not None):
        sf = _first(s_facts, v)
        if v in d_vals:
            continue
        other = [f for f in d_known if f.value not in {g.value for g in s_facts}]
        if other:
            out.append((kind, "error",
                        f"{_label(kind, v)} in the source, {_label(kind, other[0].value)} in the translation",
                        sf.span, other[0].span))
        elif not d_facts:
            out.append((kind, "warning",
                        f"the source says {_label(kind, v)}; the translation does not", sf.span, None))
    if not d_facts and all(f.value is None for f in s_facts):
        out.append((kind, "warning", f"the source mentions a {kind}; the translation does not",
                    s_facts[0].span, None))
    return out


# Results of check_facts kept across builds (see use_fact_memo); None: not kept.
_MEMO: dict[tuple[str, str, str], tuple[FactFinding, ...]] | None = None
_USED: set[tuple[str, str, str]] = set()


def use_fact_memo(path: "Path | None") -> None:
    """Keep :func:`check_facts` results in memory, starting from those saved at ``path`` (JSON
    written by :func:`save_fact_memo`; a missing or unreadable file starts empty). ``None`` stops
    keeping them. The results depend only on the texts, the language and this code, so whoever
    saves them must drop the file when the code changes (the site build keeps it in its cache)."""
    global _MEMO
    _USED.clear()
    if path is None:
        _MEMO = None
        return
    import json

    _MEMO = {}
    try:
        entries = json.loads(Path(path).read_text(encoding="utf-8"))
        for msgid, msgstr, lang, found in entries:
            _MEMO[(msgid, msgstr, lang)] = tuple(
                (check, severity, message, Span(*source) if source else None, Span(*target) if target else None)
                for check, severity, message, source, target in found)
    except (OSError, ValueError, TypeError):
        _MEMO = {}


def save_fact_memo(path: "Path") -> None:
    """Write the :func:`check_facts` results asked for since :func:`use_fact_memo` to ``path`` as
    JSON (nothing when none are kept). Raises ``OSError`` when it cannot be written."""
    if _MEMO is None:
        return
    import json

    def span(value):
        return [value.start, value.end, value.text] if value is not None else None

    entries = [[msgid, msgstr, lang, [[c, sev, msg, span(a), span(b)] for c, sev, msg, a, b in found]]
               for (msgid, msgstr, lang), found in _MEMO.items() if (msgid, msgstr, lang) in _USED]
    Path(path).write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
