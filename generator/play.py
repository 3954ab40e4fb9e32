"""Playing a game of the rules engine in a terminal: the board as text, commands read line by line.

Two faces share one game: :func:`run_jsonl` (one move in, one JSON state out, for programs) and
:func:`run_interactive` (numbered piles, localized messages, for a person). Pile names come from
the help catalogs' Setup-table labels; every message is a ``play_*``/``reason_*`` key of data/ui.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, TextIO

from patiencebook.engine import Game, IllegalMove, Move, NotationError, Position, parse_saved_game
from patiencebook.engine.cards import Card
from patiencebook.engine.deals import SEED_MAX
from patiencebook.engine.errors import EngineError
from patiencebook.engine.rules import Role, Ruleset
from patiencebook.engine.wording import Wording
from patiencebook.generator import project
from patiencebook.generator.errors import PatienceBookError
from patiencebook.generator.languages import Language

__all__ = [
    "PlayableGame", "find_game", "game_table", "known_games", "play_languages", "translated_titles", "position_dict",
    "state_dict", "player_pile_names", "random_deal", "check_deal", "Session", "run_jsonl", "run_interactive",
    "use_colour",
]


@dataclass(frozen=True, slots=True)
class PlayableGame:
    """A game that can be played: its page slug, English title and ruleset (the rules the page
    states), and its rule variants (variant id -> ruleset; empty for a game without variants)."""

    slug: str
    title: str
    ruleset: Ruleset
    variants: tuple = ()

    def variant(self, name: str | None) -> Ruleset:
        """The ruleset of variant ``name`` (``None``: the page's own rules). Raises
        :class:`PatienceBookError` naming the variants when there is none of that name."""
        if name is None:
            return self.ruleset
        for vid, ruleset in self.variants:
            if vid == name:
                return ruleset
        if not self.variants:
            raise PatienceBookError(f"{self.slug} has no rule variants, so it takes no --variant "
                                    f"(not {name!r}); its page states one set of rules")
        known = ", ".join(f"{vid} (the default)" if vid == self.ruleset.variant else vid for vid, _ in self.variants)
        raise PatienceBookError(f"{self.slug} has no variant {name!r}; its variants: {known}")


def known_games(sources: Path | None = None) -> dict[str, PlayableGame]:
    """The games with a rules block in the rule sources (default: the embedded ``rules/``), by page slug.

    Raises :class:`~patiencebook.generator.errors.SourceError` when the sources cannot be read.
    """
    from patiencebook.generator.docbook.sources import load_document

    document = load_document(sources or project.default_sources())
    return {page.id: PlayableGame(page.id, page.title, page.rules, tuple(page.variants.items()))
            for page in document.pages if page.rules is not None}


def translated_titles(games: dict[str, PlayableGame], catalogs: Path | None = None) -> dict[str, dict[str, str]]:
    """Each game's title in each catalog that translates it, and in the languages derived from
    those (``sr@latin``): slug -> {gettext code: title}.

    ``catalogs`` defaults to the embedded ``locales/``; fuzzy and empty translations are left out,
    and so is a catalog that cannot be read (its language then names no game)."""
    from patiencebook.generator.catalogs import find_catalogs, read_catalog
    from patiencebook.generator.catalogs.transliterate import derive_text
    from patiencebook.generator.errors import CatalogError
    from patiencebook.generator.languages import languages

    table = languages().values()
    out: dict[str, dict[str, str]] = {slug: {} for slug in games}
    for lang, path in find_catalogs(catalogs or project.default_catalogs(), project.DOMAIN).items():
        try:
            catalog = read_catalog(path)
        except CatalogError:
            continue
        derived = [language for language in table if language.derived_from == lang]
        for slug, game in games.items():
            message = catalog.get(game.title)
            if message is not None and isinstance(message.string, str) and message.string and not message.fuzzy:
                out[slug][lang] = message.string
                for language in derived:  # sr@latin's title, as its pages show it
                    out[slug][language.code] = derive_text(message.string, language.derive or "cyrillic-to-latin")
    return out


def play_languages() -> list[str]:
    """The gettext codes ``play`` speaks: each language with interface strings of its own
    (``data/ui/<code>.json``), the regional ones of those (``en_GB``) and the languages derived
    from them (``sr@latin``)."""
    from patiencebook.generator.languages import UI_DIR, derived_languages, languages

    own = [code for code in languages() if (UI_DIR / f"{code}.json").is_file()]
    regional = [code for code in languages() if "_" in code and code.split("_")[0] in own]
    return own + regional + derived_languages(own)


def game_table(sources: Path | None = None, language: Language | None = None) -> list[dict[str, Any]]:
    """One row per game with a rules block in ``sources`` (default: the embedded rules), in page order.

    Each row: ``{"id": slug, "name": title in ``language`` (default English; English where the
    embedded catalog of ``language`` lacks it; only the embedded rules have catalogs), "english_name", "aisleriot": the
    ruleset's game name, "variants": [{"id", "solver_figure"}], "solver_figure": {"first", "last",
    "budget", "deals", "solved", "unsolvable", "unknown"} or ``None``}``, the solver figure being the
    one recorded in ``solved.json`` beside the sources for these very rules.

    Raises:
        SourceError: the sources or their solver figures cannot be read.
    """
    from patiencebook.engine.solver import SOLVED, UNKNOWN, UNSOLVABLE
    from patiencebook.generator.pages.figures import FILE_NAME, figure_for, load_figures

    games = known_games(sources)
    translated = language is not None and language.code != "en"
    titles = translated_titles(games) if sources is None and translated else {}
    figures = load_figures((sources or project.default_sources()) / FILE_NAME)

    def figure(ruleset: Ruleset) -> dict[str, int] | None:
        found = figure_for(figures, ruleset)
        if found is None:
            return None
        return {"first": found.first, "last": found.last, "budget": found.budget, "deals": len(found.results),
                "solved": found.count(SOLVED), "unsolvable": found.count(UNSOLVABLE), "unknown": found.count(UNKNOWN)}

    rows = []
    for slug, game in games.items():
        by_lang = titles.get(slug, {})
        name = None
        if translated:
            name = by_lang.get(language.derived_from or language.code) or by_lang.get(language.code.split("_")[0])
        if name and language.derived_from:
            from patiencebook.generator.catalogs.transliterate import derive_text
            name = derive_text(name, language.derive or "cyrillic-to-latin")
        rows.append({"id": slug, "name": name or game.title, "english_name": game.title,
                     "aisleriot": game.ruleset.game,
                     "variants": [{"id": vid, "solver_figure": figure(ruleset)} for vid, ruleset in game.variants],
                     "solver_figure": figure(game.ruleset)})
    return rows


def find_game(name: str, sources: Path | None = None) -> PlayableGame:
    """The game called ``name``, by the rule of :mod:`patiencebook.generator.gamenames`: its page
    slug (``eagle_wing``), AisleRiot's file name (``eagle-wing``), its English title (``Eagle Wing``)
    or, for the embedded rules, its title in one of the embedded catalogs (``Adlerschwinge``); case,
    spaces, ``-``, ``_`` and apostrophes do not count.

    Raises :class:`PatienceBookError` naming the closest known games when there is none of that name.
    """
    from patiencebook.generator.gamenames import closest_names, game_key

    games = known_games(sources)
    wanted = game_key(name)
    for slug, game in games.items():
        if wanted in {game_key(slug), game_key(game.ruleset.game), game_key(game.title)}:
            return game
    if not games:
        raise PatienceBookError(f"unknown game {name!r}: no page of these sources has a rules block, so "
                                "none can be played", sources)
    titles = translated_titles(games) if sources is None else {}
    for slug, by_lang in titles.items():
        if any(game_key(title) == wanted for title in by_lang.values()):
            return games[slug]
    # Each name a game goes by, and the game it names: a suggestion is a game, named by its slug.
    owner = {game_key(n): slug for slug, game in games.items() for n in (slug, game.ruleset.game, game.title)}
    owner.update({game_key(t): slug for slug, by in titles.items() for t in by.values()})
    near = list(dict.fromkeys(owner[game_key(n)] for n in closest_names(name, owner, count=5)))[:3]
    hint = f"; did you mean {' or '.join(near)}?" if near else "."
    raise PatienceBookError(f"unknown game {name!r}{hint} Known games: {', '.join(sorted(games))} "
                            "(`patiencebook games` lists them with their names)")


def random_deal() -> int:
    """A random deal number, ``1 .. SEED_MAX`` (AisleRiot's seeds are ``guint32``)."""
    return random.SystemRandom().randint(1, SEED_MAX)


def check_deal(deal: int) -> int:
    """``deal`` when it is an AisleRiot deal number (``0 .. 2**32 - 1``); :class:`PatienceBookError` otherwise."""
    if not 0 <= deal <= SEED_MAX:
        raise PatienceBookError(f"a deal number is a whole number from 0 to {SEED_MAX}, not {deal}")
    return deal


# -- machine form ---------------------------------------------------------------------------------

def _card_text(card: Card, face_up: bool) -> str:
    return str(card) if face_up else f"#{card}"


def position_dict(position: Position, deal: int | None) -> dict[str, Any]:
    """``{"game", "deal", "piles": [{"id", "role", "cards"}, ...]}`` for ``position``.

    Piles are in AisleRiot's slot order (:meth:`Ruleset.slot_order`), cards bottom to top as
    ``"7h"``, or ``"#7h"`` when face down.
    """
    return {
        "game": position.game,
        "deal": deal,
        "piles": [{"id": pid, "role": position.role(pid).value,
                   "cards": [_card_text(c, up) for c, up in position.pile(pid)]}
                  for pid in position.ruleset.slot_order()],
    }


def state_dict(game: Game, deal: int | None) -> dict[str, Any]:
    """:func:`position_dict` of the current position plus ``score``, ``won``, ``lost`` and ``legal``
    (the legal moves in notation, double-clicks left out)."""
    position = game.position
    state = position_dict(position, deal)
    state.update(score=position.score, won=position.is_won(), lost=position.is_lost(),
                 legal=[str(m) for m in position.legal_moves])
    return state


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def run_jsonl(ruleset: Ruleset, deal: int, lines: Iterable[str], out: TextIO) -> int:
    """Play deal ``deal`` of ``ruleset`` reading one move in notation per line of ``lines``.

    Writes one JSON line to ``out`` first (the dealt position, see :func:`state_dict`) and one after
    each move. A refused or unreadable move writes the unchanged state with ``"error"`` (the reason)
    and ``"code"`` (the :class:`~patiencebook.engine.errors.IllegalMove` code, or ``"bad-move"``).
    Blank lines are skipped. Returns 0 at the end of input.
    """
    game = Game.deal(ruleset, deal)
    out.write(_dumps(state_dict(game, deal)) + "\n")
    out.flush()
    for raw in lines:
        text = raw.strip()
        if not text:
            continue
        state: dict[str, Any]
        try:
            game.push(Move.parse(text))
            state = state_dict(game, deal)
        except NotationError as err:
            state = {"error": str(err), "code": "bad-move", **state_dict(game, deal)}
        except IllegalMove as err:
            state = {"error": str(err), "code": err.code, **state_dict(game, deal)}
        out.write(_dumps(state) + "\n")
        out.flush()
    return 0


# -- names in the player's language -----------------------------------------------------------------

def _catalog_labels(language: Language, labels: set[str]) -> dict[str, str]:
    """The help catalog's msgstr for each English Setup-table label, in ``language``."""
    from patiencebook.generator.catalogs import find_catalogs, read_catalog

    code = language.derived_from or language.code
    catalogs = find_catalogs(project.default_catalogs(), project.DOMAIN)
    path = catalogs.get(code) or catalogs.get(code.split("_")[0])
    if path is None:
        return {}
    catalog = read_catalog(path)
    found: dict[str, str] = {}
    for label in labels:
        message = catalog.get(label)
        if message is not None and message.string and not message.fuzzy:
            text = message.string
            if language.derived_from:
                from patiencebook.generator.catalogs.transliterate import derive_text
                text = derive_text(text, language.derive or "cyrillic-to-latin")
            found[label] = text
    return found


def player_pile_names(ruleset: Ruleset, language: Language | None = None) -> dict[str, str]:
    """Each pile id's name for the player (:func:`~patiencebook.generator.pages.widgets.pile_names`)
    with the groups' Setup-table labels in ``language`` (default English) from the help catalog;
    a label the catalog lacks (or a language without a catalog) is named as the language's
    interface strings name it (``pile_forms``, :mod:`patiencebook.engine.wording`), else in
    English: ``{"foundation2": "Zielstapel 2"}``. Raises :class:`CatalogError` when the language's
    catalog cannot be read."""
    from patiencebook.engine.rules import pile_id
    from patiencebook.generator.languages import ui_strings
    from patiencebook.generator.pages.widgets import pile_names

    english = language is None or language.code == "en"
    translated = _catalog_labels(language, {g.label for g in ruleset.piles}) if not english else {}
    names = pile_names(ruleset, {g.id: translated.get(g.label, g.label) for g in ruleset.piles})
    if english:
        return names
    table = ui_strings(language).get("pile_forms")
    table = table if isinstance(table, dict) else {}
    for g in ruleset.piles:
        entry = table.get(f"{g.label} {{n}}" if g.count > 1 else g.label)
        if g.label not in translated and isinstance(entry, dict) and isinstance(entry.get("name"), str):
            for n in range(1, g.count + 1):
                names[pile_id(g, n)] = entry["name"].replace("{n}", str(n))
    return names


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def use_colour(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal and the ``NO_COLOR`` convention does not ask for plain text."""
    if os.environ.get("NO_COLOR"):
        return False
    return _isatty(stream)


# -- the session -----------------------------------------------------------------------------------

class Session(Wording):
    """One person playing in a terminal: the game, its deal number, names and messages.

    ``ui`` is the language's interface strings (:func:`patiencebook.generator.languages.ui_strings`),
    ``names`` the pile names (:func:`player_pile_names`), ``colour`` whether red suits get ANSI colour.
    Piles are written with the number typed for them (AisleRiot's slot order, from 1).
    ``ruleset`` is the rule variant played (default: the page's own rules, ``game.ruleset``); the
    title names it when it is another variant than the page's own.
    :meth:`handle` runs one command line and returns the text to show and whether to go on.
    """

    def __init__(self, game: PlayableGame, deal: int, ui: dict[str, Any], names: dict[str, str],
                 colour: bool = False, game_title: str | None = None, ruleset: Ruleset | None = None):
        ruleset = ruleset or game.ruleset
        self.order = ruleset.slot_order()
        super().__init__(ruleset, ui, names, numbers={pid: n for n, pid in enumerate(self.order, 1)},
                         colour=colour)
        self.info = game
        self.deal = deal
        self.title = game_title or game.title
        if ruleset.variant is not None and ruleset.variant != game.ruleset.variant:
            self.title = f"{self.title} ({self.variant(ruleset.variant)})"
        self.game = Game.deal(self.ruleset, deal)

    def describe(self, move: Move, position: Position | None = None) -> str:
        """What to do to play ``move`` from ``position`` (the current one by default), a sentence."""
        return super().describe(move, self.game.position if position is None else position)

    def board(self) -> str:
        """The board: a title line, one numbered line per pile in AisleRiot's slot order, the score."""
        position = self.game.position
        width = max(len(self.names[pid]) for pid in self.order)
        lines = [self.msg("play_title", game=self.title, deal=self.deal)]
        for n, pid in enumerate(self.order, 1):
            cards = position.pile(pid)
            if not cards:
                shown = self.msg("play_empty")
            elif position.role(pid) is Role.STOCK:
                top, up = cards[-1]
                shown = f"{self.card(top, up)}  ({self.msg('play_stock_count', count=len(cards))})"
            else:
                shown = " ".join(self.card(c, up) for c, up in cards)
            lines.append(f"{n:>2}  {self.names[pid]:<{width}}  {shown}")
        lines.append(self.msg("play_score", score=position.score, max=position.max_score))
        return "\n".join(lines)

    def _after_change(self) -> str:
        out = [self.board()]
        position = self.game.position
        if position.is_won():
            out.append(self.msg("play_won"))
        elif position.is_lost():
            out.append(self.msg("play_lost"))
        return "\n".join(out)

    # commands

    def _number(self, text: str) -> str:
        n = int(text) if text.isascii() and len(text) <= 6 else 0
        if not 1 <= n <= len(self.order):
            raise _CommandError(self.msg("play_no_pile_number", number=n, last=len(self.order)))
        return self.order[n - 1]

    def parse(self, text: str) -> Move:
        """The move a command line stands for: ``3 5``, ``3:2 5``, ``s``, ``d 3``, ``f 3`` or notation.

        Raises :class:`_CommandError` with a message for the player when it is none of these.
        """
        words = text.split()
        if words == ["s"]:
            return Move.stock()
        if len(words) == 2 and words[0] in ("d", "f") and _is_number(words[1]):
            pid = self._number(words[1])
            return Move.double_click(pid) if words[0] == "d" else Move.flip(pid)
        if len(words) == 2 and _is_number(words[1]):
            source, _, count = words[0].partition(":")
            if _is_number(source) and (not count or _is_number(count)):
                n = int(count) if count else 1
                if n < 1:
                    raise _CommandError(self.msg("play_refused", reason=self.reason("no-cards", "", {})))
                return Move.drag(self._number(source), self._number(words[1]), n)
        try:
            return Move.parse(text)
        except NotationError:
            raise _CommandError(self.msg("play_unknown_command", text=text)) from None

    def handle(self, line: str) -> tuple[str, bool]:
        """Run one command line; returns ``(text to show, go on)``. Never raises for player input."""
        text = line.strip()
        if not text:
            return "", True
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        if text == "q":
            return self.msg("play_bye"), False
        if text == "?":
            return self.msg("play_help"), True
        if text == "u":
            try:
                move = self.game.undo()
            except IllegalMove as err:
                return self.refused(err), True
            return self.taken_back(move, self.game.position) + "\n" + self._after_change(), True
        if text == "r":
            before = self.game.position
            try:
                move = self.game.redo()
            except IllegalMove as err:
                return self.refused(err), True
            said = self.join(self.msg("play_redone"), self.report(move, before))
            return said + "\n" + self._after_change(), True
        if text == "h":
            hints = self.game.hints()
            if not hints:
                return self.msg("play_no_hint"), True
            return self.describe(hints[0]), True
        if text == "n":
            self.deal = self.deal + 1 if self.deal < SEED_MAX else 0
            self.game = Game.deal(self.ruleset, self.deal)
            return self.msg("play_new_deal", deal=self.deal) + "\n" + self._after_change(), True
        if word in ("save", "load"):
            if not rest:
                return self.msg("play_file_missing"), True
            return (self._save(rest) if word == "save" else self._load(rest)), True
        try:
            move = self.parse(text)
        except _CommandError as err:
            return str(err), True
        before = self.game.position
        try:
            self.game.push(move)
        except IllegalMove as err:
            return self.refused(err), True
        return self.report(move, before) + "\n" + self._after_change(), True

    def _save(self, name: str) -> str:
        path = Path(name)
        try:
            path.write_text(self.game.saved().to_text(), encoding="utf-8")
        except OSError as err:
            return self.msg("play_file_error", file=name, error=err.strerror or err)
        return self.msg("play_saved", file=name)

    def _load(self, name: str) -> str:
        path = Path(name)
        try:
            saved = parse_saved_game(path.read_text(encoding="utf-8"))
            game = saved.replay(self.ruleset)
        except OSError as err:
            return self.msg("play_file_error", file=name, error=err.strerror or err)
        except (EngineError, UnicodeDecodeError) as err:
            return self.msg("play_file_error", file=name, error=err)
        self.game = game
        if saved.seed is not None:
            self.deal = saved.seed
        return self.msg("play_loaded", file=name) + "\n" + self._after_change()


class _CommandError(Exception):
    """A command line that is not a command or a move; ``str()`` is the message for the player."""


def run_interactive(game: PlayableGame, deal: int | None, language: Language, lines: Iterable[str] | None = None,
                    out: TextIO | None = None, colour: bool | None = None, variant: str | None = None) -> int:
    """Play ``game`` in a terminal, in ``language``; returns the exit status (0).

    ``variant`` is the id of one of the game's rule variants (``three-card-deals``; default: the
    page's own rules; :meth:`PlayableGame.variant` raises :class:`PatienceBookError` listing them
    for an id the game does not have). ``deal`` ``None`` picks a random deal number and says which. Commands are read from ``lines``
    (default: standard input, one line at a time, no readline needed), text goes to ``out``
    (default: standard output). ``colour`` defaults to :func:`use_colour` of ``out``. End of input
    or ``q`` ends the game. Raises :class:`CatalogError` when the language's catalog cannot be read.
    """
    import sys

    from patiencebook.generator.languages import ui_strings

    ruleset = game.variant(variant)
    out = out or sys.stdout
    ui = ui_strings(language)
    names = player_pile_names(ruleset, language)
    title = _catalog_labels(language, {game.title}).get(game.title) if language.code != "en" else None
    picked = deal is None
    session = Session(game, random_deal() if deal is None else check_deal(deal), ui, names,
                      use_colour(out) if colour is None else colour, title, ruleset)
    if picked:
        out.write(session.msg("play_random_deal", deal=session.deal) + "\n")
    out.write(session.board() + "\n")
    source = iter(lines) if lines is not None else None
    # Input that is not typed on a terminal is echoed after the prompt, so a transcript reads
    # like a typed session.
    echo = source is not None or not _isatty(sys.stdin)
    while True:
        out.write(session.msg("play_prompt"))
        out.flush()
        if source is not None:
            line = next(source, None)
        else:
            line = sys.stdin.readline() or None
        if line is None:
            out.write("\n")
            return 0
        if echo:
            out.write(line.rstrip("\r\n") + "\n")
        text, go_on = session.handle(line)
        if text:
            out.write(text + "\n")
        if not go_on:
            return 0


def _is_number(text: str) -> bool:
    """A pile number or card count as a player types it: ASCII digits, at most six."""
    return text.isascii() and text.isdigit() and len(text) <= 6
