"""How a game is named on the command line: one rule for ``deal``, ``play``, ``solve``, ``games``
and ``check --page``.

A name matches a game when it is the same as the game's page id (``eagle_wing``), AisleRiot's file
name (``eagle-wing``), its English title (``Eagle Wing``) or its title in a catalog (``Adlerschwinge``),
ignoring case, spaces, ``-``, ``_``, ``.`` and apostrophes (``"Eagle Wing"``, ``EagleWing`` and
``eagle-wing`` are one name). An unknown name is answered with the closest known names.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Iterable

__all__ = ["closest_names", "game_key"]

# Spaces, hyphens and dashes, underscores, full stops and apostrophes (straight, curly, modifier).
_IGNORED = re.compile(r"[\s\-_.\u2010-\u2015'\u2018\u2019\u02bc`]+")


def game_key(name: str) -> str:
    """The form a game name is compared in: Unicode NFKC, case folded, without spaces, ``-``,
    ``_``, ``.`` and apostrophes (``"Eagle-Wing"`` → ``"eaglewing"``, ``"Baker's Dozen"`` →
    ``"bakersdozen"``). Never raises."""
    return _IGNORED.sub("", unicodedata.normalize("NFKC", name).casefold())


def closest_names(name: str, names: Iterable[str], count: int = 3) -> list[str]:
    """Up to ``count`` of ``names`` closest to ``name`` (compared by :func:`game_key`, at least
    half alike; :func:`difflib.get_close_matches`), closest first, each once."""
    by_key: dict[str, str] = {}
    for known in names:
        by_key.setdefault(game_key(known), known)
    found = difflib.get_close_matches(game_key(name), list(by_key), n=count, cutoff=0.5)
    return list(dict.fromkeys(by_key[key] for key in found))
