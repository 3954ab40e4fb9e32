"""Source against model: the English prose of a rules page must state what its rules block says.

Reads pile counts ("Seven piles"), the maximum score, the number of redeals and how piles are
built ("built down in alternate colour") from each block of a page that has a rules block, and
reports every statement that disagrees with the :class:`~patiencebook.engine.rules.Ruleset`.
The words it knows are in ``generator/data/check/english.json``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from patiencebook.generator.check.findings import Span
from patiencebook.generator.check.health import Problem, english_words
from patiencebook.generator.docbook.document import Page, Segment
from patiencebook.generator.docbook.sources import local_name, plain_text

#: Words before "N piles" that make it a part of the piles rather than their number.
_PART_WORDS = frozenset({"first", "last", "next", "other", "remaining", "leftmost", "rightmost", "top", "bottom",
                         "outer", "inner", "middle", "these", "those"})


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern]:
    words = english_words()
    number = rf"(?:\d+|{_alternation(w for w in words['numbers'] if w not in ('no', 'once', 'twice', 'thrice'))})"
    role = _alternation(words["roles"])
    flags = re.I
    return {
        "piles": re.compile(rf"\b({number})\s+(?:({role})\s+)?(piles?)\b", flags),
        "score": re.compile(r"\bmaximum\s+(?:possible\s+)?score\s*(?::|is|of)?\s*(\d+)", flags),
        "no-redeal": re.compile(r"\bno\s+redeals?\b", flags),
        "redeals": re.compile(rf"\b({number})\s+redeals\b", flags),
        "redeal-times": re.compile(rf"\bredeal\s+(?:the\s+stock\s+)?(once|twice|thrice|(?:{number})\s+times)\b", flags),
        "unlimited": re.compile(r"\b(?:unlimited|any\s+number\s+of)\s+redeals\b|\bredeal\s+as\s+(?:often|many\s+times)\b",
                                flags),
        "built": re.compile(rf"\bbuilt\s+({_alternation(words['directions'])})\b"
                            rf"(?:\s+({_alternation(words['matches'])})\b)?", flags),
        "role": re.compile(rf"\b({role})\b", flags),
    }


#: The word each statement of :func:`_patterns` holds, searched for first.
_HINTS = {word: re.compile(word, re.I) for word in ("pile", "score", "redeal", "built")}


def _number(word: str) -> int:
    word = word.lower().removesuffix(" times").strip()
    return int(word) if word.isdigit() else english_words()["numbers"][word]


def _row_group(segment: Segment, rules):
    """The pile group of the Setup table row holding ``segment``'s block, by its label, or ``None``."""
    element = segment.element
    if element is None or local_name(element) != "entry":
        return None
    row = element.getparent()
    if row is None or local_name(row) != "row":
        return None
    entries = [e for e in row if local_name(e) == "entry"]
    if not entries or entries[0] is element:
        return None
    label = plain_text(entries[0]).lower()
    for group in rules.piles:
        if group.label.lower() == label or group.id.lower() == label or group.role.value == label:
            return group
    return None


def _groups_of_role(rules, word: str):
    role = english_words()["roles"][word.lower()]
    return [g for g in rules.piles if g.role.value == role]


def _subject(text: str, start: int, rules, row_group):
    """The pile groups a statement at ``text[start:]`` is about: the row's group, or the last
    pile role named earlier in the same sentence."""
    sentence_start = max(text.rfind(". ", 0, start), text.rfind(": ", 0, start), -1)
    roles = list(_patterns()["role"].finditer(text, sentence_start + 1, start))
    if roles:
        return _groups_of_role(rules, roles[-1].group(1)), roles[-1].group(1).lower()
    if row_group is not None:
        return [row_group], row_group.label.lower()
    return [], ""


def _problem(segment: Segment, check: str, message: str, match: re.Match, group: int = 0) -> Problem:
    return Problem(segment.msgid, check, "error", message,
                   source=Span(match.start(group), match.end(group), match.group(group)))


def check_segment(segment: Segment, rules, variants=()) -> list[Problem]:
    """Statements of one English block that disagree with ``rules`` (a Ruleset), checks ``model-*``.

    ``variants`` are the page's other rule variants (Klondike's options): a redeal count that one
    of them has is not a disagreement, since the page describes the options too.

    * ``model-pile``: "N piles" in a Setup row, or "N <role> piles", against the group's count;
    * ``model-score``: "Maximum possible score: N" against ``scoring.maximum``;
    * ``model-redeal``: "no redeal", "two redeals", "redeal twice", "unlimited redeals" against
      ``stock.redeals`` (0 without a stock policy);
    * ``model-build``: "built up|down [in suit|in the same colour|in alternate colour...]" against
      the build policy of the row's group or of the last pile role named in the sentence.

    Every finding is an ``error`` with the English span at fault.
    """
    text = segment.msgid
    patterns = _patterns()
    # Each statement names its word ("pile", "score", "redeal", "built"): a block without the word
    # is not searched for the statement (the same case-blind matching as the full patterns).
    said = {word for word, hint in _HINTS.items() if hint.search(text)}
    row_group = _row_group(segment, rules) if said & {"pile", "built"} else None
    out: list[Problem] = []
    for match in patterns["piles"].finditer(text) if "pile" in said else ():
        count = _number(match.group(1))
        # "the first four piles", "the remaining two piles" name some of the piles, not how many there are.
        before = text[:match.start()].split()
        if before and before[-1].lower() in _PART_WORDS:
            continue
        if match.group(3).lower() == "pile" and count != 1:
            continue
        if match.group(2):
            groups = _groups_of_role(rules, match.group(2))
            what = f"{match.group(2).lower()} piles"
        elif row_group is not None:
            if text[:match.start()].strip():
                continue  # a Setup row states its count first ("Ten piles. Four piles (1, 4, 7, 10) get ...")
            groups = [row_group]
            what = f"{row_group.label.lower()} piles"
        else:
            continue
        if not groups:
            out.append(_problem(segment, "model-pile", f"the English says '{match.group(0)}', but the rules "
                                f"block has no {what}", match))
            continue
        actual = sum(g.count for g in groups)
        if actual != count:
            out.append(_problem(segment, "model-pile", f"the English says '{match.group(0)}', but the rules "
                                f"block has {actual} {what}", match))
    for match in patterns["score"].finditer(text) if "score" in said else ():
        if int(match.group(1)) != rules.scoring.maximum:
            out.append(_problem(segment, "model-score", f"the English says the maximum score is {match.group(1)}, "
                                f"but the rules block has {rules.scoring.maximum}", match, 1))
    redeals = rules.stock.redeals if rules.stock is not None else 0
    allowed = {redeals} | {v.stock.redeals if v.stock is not None else 0 for v in variants}
    stated = []
    if "redeal" in said:
        for match in patterns["no-redeal"].finditer(text):
            stated.append((0, match))
        for match in patterns["redeals"].finditer(text):
            stated.append((_number(match.group(1)), match))
        for match in patterns["redeal-times"].finditer(text):
            stated.append((_number(match.group(1)), match))
        for match in patterns["unlimited"].finditer(text):
            stated.append((None, match))
    for value, match in stated:
        if value not in allowed:
            said = "no limit" if value is None else str(value)
            has = "no limit" if redeals is None else str(redeals)
            out.append(_problem(segment, "model-redeal", f"the English says '{match.group(0)}' ({said} redeals), "
                                f"but the rules block allows {has}", match))
    for match in patterns["built"].finditer(text) if "built" in said else ():
        groups, name = _subject(text, match.start(), rules, row_group)
        groups = [g for g in groups if g.build is not None]
        if not groups:
            continue
        direction = english_words()["directions"][match.group(1).lower()]
        wanted_match = english_words()["matches"][match.group(2).lower()] if match.group(2) else None
        if any(g.build.direction.value == direction and (wanted_match is None or g.build.match.value == wanted_match)
               for g in groups):
            continue
        build = groups[0].build
        out.append(_problem(segment, "model-build", f"the English says '{match.group(0)}' of the {name}, but the "
                            f"rules block has direction {build.direction.value} and match {build.match.value}",
                            match))
    return out


def check_page(page: Page) -> list[tuple[Segment, Problem]]:
    """Every disagreement between the blocks of ``page`` and its rules block; ``[]`` without one."""
    if page.rules is None:
        return []
    variants = tuple(page.variants.values())
    return [(segment, problem) for segment in page.segments
            for problem in check_segment(segment, page.rules, variants)]


__all__ = ["check_page", "check_segment", "english_words"]
