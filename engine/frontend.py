"""The engine for graphical front ends: one game driven by move texts, answered with JSON-ready data.

The browser board calls it inside Pyodide (through :meth:`BoardGame.call`, JSON text in and out,
so no Python object crosses into JavaScript); any other front end can use the methods directly.
Every message is in the page's language, filled by :class:`~patiencebook.engine.wording.Wording`
from interface strings and pile names the caller passes in. Standard library only.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from .deals import SEED_MAX
from .errors import IllegalMove, NotationError
from .game import Game
from .moves import Move, MoveKind
from .notation import position_to_dict
from .position import Position
from .rules import Role, Ruleset
from .rulesdata import ruleset_from_data
from .solver import SOLVED, UNSOLVABLE, solve
from .wording import Wording

__all__ = ["BoardGame", "COMMANDS", "SOLUTION_BUDGET"]

#: The methods :meth:`BoardGame.call` may run, the commands a front end sends.
COMMANDS = frozenset({"state", "play", "undo", "redo", "hint", "new_deal", "new_game", "restart", "solution",
                      "targets"})
#: Positions the solver searches for :meth:`BoardGame.solution` unless told otherwise: a few seconds
#: at most in the browser, where the search runs while the page waits (benchmarks/board_solution.py).
SOLUTION_BUDGET = 5_000


class BoardGame:
    """One deal of one game as a board shows it: the position, undo and redo, hints, and every
    answer as plain data (dicts, lists, strings, numbers) ready for JSON.

    Args:
        ruleset: the game.
        deal: AisleRiot's deal number, ``0 .. 2**32 - 1`` (``ValueError`` otherwise).
        ui: interface strings of the page's language by key, in the format of
            :mod:`~patiencebook.engine.wording`: ``play_*`` (moves, hints, score), ``reason_*`` and
            ``build_*`` (refusal reasons), ``board_*`` (board messages), ``card_ranks``,
            ``pile_forms``, ``card_forms`` and ``plural_rules``.
        names: each pile id's name in that language (``{"tableau3": "Tableau 3"}``).
        variants: the game's rule variants, variant id -> :class:`Ruleset` or its
            :func:`~patiencebook.engine.rulesdata.ruleset_to_data` form (read when first chosen);
            ``ruleset`` is the variant ``ruleset.variant``. Empty for a game without variants. The
            variants of a rules block share its piles, so ``names`` serves them all.

    Commands return an *answer* dict, always with ``"state"`` (see :meth:`state`) and
    ``"message"`` (what to tell the player, in the page's language), plus ``"accepted"``
    (``True``/``False``) for commands that may be refused, and ``"reason"``/``"code"`` when refused.
    """

    def __init__(self, ruleset: Ruleset, deal: int, ui: Mapping[str, str], names: Mapping[str, str],
                 variants: Mapping[str, Ruleset | Mapping[str, Any]] | None = None):
        self.ruleset = ruleset
        self.ui = ui
        self.names = names
        self.wording = Wording(ruleset, ui, names)
        self.deal = deal
        self.game = Game.deal(ruleset, deal)
        self.variants: dict[str, Ruleset | Mapping[str, Any]] = dict(variants or {})
        if ruleset.variant is not None:
            self.variants.setdefault(ruleset.variant, ruleset)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "BoardGame":
        """A game from board data: ``{"ruleset": <ruleset_to_data form>, "deal": N, "ui": {...},
        "names": {...}}`` (other keys are ignored, so the whole board JSON of a page can be passed).

        Raises :class:`~patiencebook.engine.errors.RulesError` for bad ruleset data and
        ``ValueError`` for a bad deal number.
        """
        deal = data.get("deal")
        if isinstance(deal, bool) or not isinstance(deal, int):
            raise ValueError(f"a deal number is a whole number from 0 to {SEED_MAX}, not {deal!r}")
        listed = data.get("variants") or []
        if not isinstance(listed, list) or not all(isinstance(v, Mapping) and isinstance(v.get("id"), str)
                                                   for v in listed):
            raise ValueError("board variants must be a list of objects with an \"id\" and a \"ruleset\"")
        return cls(ruleset_from_data(data.get("ruleset")), deal, data.get("ui") or {}, data.get("names") or {},
                   {v["id"]: v.get("ruleset") for v in listed})

    @classmethod
    def from_json(cls, text: str) -> "BoardGame":
        """:meth:`from_data` of a JSON text."""
        return cls.from_data(json.loads(text))

    # -- state -----------------------------------------------------------------------------------

    @property
    def _stock_id(self) -> str | None:
        return next((pid for pid in self.game.position.pile_ids
                     if self.game.position.role(pid) is Role.STOCK), None)

    def status(self) -> str:
        """``"won"``, ``"lost"`` or ``"playing"``."""
        position = self.game.position
        if position.is_won():
            return "won"
        if position.is_lost():
            return "lost"
        return "playing"

    def state(self) -> dict[str, Any]:
        """The board's state: :func:`~patiencebook.engine.notation.position_to_dict` of the current
        position (``game``, ``base``, ``redeals``, ``offers``, ``score``, ``piles``) plus ``max``
        (the maximum score), ``status`` (:meth:`status`), ``can_undo``, ``can_redo``, ``deal``,
        ``moves`` (how many moves were played), ``variant`` (the id of the rule variant played, or
        ``None``) and ``score_text`` (the score in words)."""
        position = self.game.position
        data = position_to_dict(position)
        data.update(
            max=position.max_score, status=self.status(), can_undo=self.game.can_undo,
            can_redo=self.game.can_redo, deal=self.deal, moves=len(self.game.moves), variant=self.ruleset.variant,
            score_text=self.wording.msg("play_score", score=position.score, max=position.max_score),
        )
        return data

    def _answer(self, message: str, **extra: Any) -> dict[str, Any]:
        # Each message is a whole sentence with its full stop; the end of the game is one more.
        status = self.status()
        if status in ("won", "lost"):
            message = self.wording.join(message, self.wording.msg(f"board_{status}"))
        return {"message": message, **extra, "state": self.state()}

    def _refused(self, err: IllegalMove, move: str | None) -> dict[str, Any]:
        reason = self.wording.reason(err.code, str(err), err.params)
        return {"accepted": False, "move": move, "code": err.code, "reason": reason,
                "message": self.wording.msg("play_refused", reason=reason), "state": self.state()}

    # -- commands --------------------------------------------------------------------------------

    def play(self, text: str) -> dict[str, Any]:
        """Play the move ``text`` (notation: ``stock``, ``dbl:PILE``, ``flip:PILE``,
        ``PILE[:COUNT]>PILE``).

        Accepted: ``{"accepted": True, "move", "words" (the move as an instruction, ``play_do_*``),
        "message" (what it did, ``play_done_*``, and the end of the game when it came), "state"}``;
        a double-click adds ``"drags"``, the moves it stood for (:meth:`Position.double_click_drags`)
        as ``[{"source", "target", "count", "card"}]`` (``card``: the notation of the lowest card
        moved, as it lay before), and its message says where the cards went rather than which pile
        was double-clicked.
        Refused, or not a move: ``{"accepted": False, "move", "code", "reason", "message", "state"}``
        with the position unchanged; ``code`` is the :class:`IllegalMove` code, or ``"bad-move"``.
        Never raises for player input.
        """
        try:
            move = Move.parse(str(text))
        except NotationError as err:
            return self._refused(IllegalMove(str(err), "bad-move", {"text": str(text)}), str(text))
        before = self.game.position
        try:
            self.game.push(move)
        except IllegalMove as err:
            return self._refused(err, str(move))
        words = self.wording.describe(move, before)
        if move.kind is MoveKind.DOUBLE_CLICK:
            drags = self._drags(before.double_click_drags(move.source or ""), before)
            return self._answer(self.wording.report(move, before), accepted=True, move=str(move), words=words,
                                drags=drags)
        return self._answer(self.wording.report(move, before), accepted=True, move=str(move), words=words)

    @staticmethod
    def _drags(moves: list[Move], position: Position) -> list[dict[str, Any]]:
        """The drags of a double-click as data, each with the lowest card it moves, played in turn
        from ``position``."""
        drags = []
        for drag in moves:
            cards = position.pile(drag.source or "")
            card, _ = cards[-drag.count]
            drags.append({"source": drag.source, "target": drag.target, "count": drag.count, "card": str(card)})
            position = position.apply(drag)
        return drags

    def undo(self) -> dict[str, Any]:
        """Take back the last move: ``{"accepted", "move", "words", "message" (what taking it back
        did, ``play_undone_*``), "state"}`` (refused when no move was played, with ``code``
        ``"no-undo"``)."""
        try:
            move = self.game.undo()
        except IllegalMove as err:
            return self._refused(err, None)
        position = self.game.position
        return self._answer(self.wording.taken_back(move, position), accepted=True, move=str(move),
                            words=self.wording.describe(move, position))

    def redo(self) -> dict[str, Any]:
        """Play again the last move undone: ``{"accepted", "move", "words", "message"
        (``play_redone`` and what the move did), "state"}`` (refused with ``code`` ``"no-redo"``
        when there is none)."""
        before = self.game.position
        try:
            move = self.game.redo()
        except IllegalMove as err:
            return self._refused(err, None)
        message = self.wording.join(self.wording.msg("play_redone"), self.wording.report(move, before))
        return self._answer(message, accepted=True, move=str(move), words=self.wording.describe(move, before))

    def hint(self) -> dict[str, Any]:
        """The best move found (:meth:`Position.hints`), not played: ``{"move", "source", "target",
        "count", "words", "message", "state"}``; ``source`` is the pile to highlight (the stock for a
        stock click), ``target`` the pile it goes to (for a double-click that moves one card or run,
        where it goes) or ``None``; ``message`` is ``words``, the move as an instruction
        (``play_do_*``). ``move`` is ``None`` when no move is possible."""
        hints = self.game.hints()
        if not hints:
            return {"move": None, "source": None, "target": None, "count": None, "words": None,
                    "message": self.wording.msg("play_no_hint"), "state": self.state()}
        move = hints[0]
        words = self.wording.describe(move, self.game.position)
        source = self._stock_id if move.kind is MoveKind.STOCK else move.source
        target = move.target
        if move.kind is MoveKind.DOUBLE_CLICK:
            drags = self.game.position.double_click_drags(move.source)
            target = drags[0].target if len(drags) == 1 else None
        return {"move": str(move), "source": source, "target": target,
                "count": move.count if move.is_drag else None, "words": words,
                "message": words, "state": self.state()}

    def new_deal(self, deal: int | None = None) -> dict[str, Any]:
        """Start deal ``deal`` (default: the next number, after ``2**32 - 1`` comes ``0``), as
        ``{"accepted": True, "deal", "message", "state"}``; a number outside ``0 .. 2**32 - 1`` is
        refused with ``code`` ``"bad-deal"``."""
        if deal is None:
            deal = self.deal + 1 if self.deal < SEED_MAX else 0
        if not _is_deal(deal):
            return self._bad_deal(deal)
        self.game = Game.deal(self.ruleset, deal)
        self.deal = deal
        return self._answer(self.wording.msg("play_new_deal", deal=deal), accepted=True, deal=deal)

    def _bad_deal(self, deal: Any) -> dict[str, Any]:
        reason = self.wording.reason("bad-deal", f"a deal number is a whole number from 0 to {SEED_MAX}, "
                                     f"not {deal!r}", {"deal": str(deal), "last": SEED_MAX})
        return {"accepted": False, "deal": self.deal, "variant": self.ruleset.variant, "code": "bad-deal",
                "reason": reason, "message": self.wording.msg("play_refused", reason=reason), "state": self.state()}

    def variant_ruleset(self, variant: str) -> Ruleset | None:
        """The ruleset of rule variant ``variant`` (read from its data the first time), or ``None``
        when the game has no variant of that id. Raises :class:`~patiencebook.engine.errors.RulesError`
        for variant data that is no ruleset."""
        found = self.variants.get(variant) if isinstance(variant, str) else None
        if found is None or isinstance(found, Ruleset):
            return found
        ruleset = ruleset_from_data(found)
        self.variants[variant] = ruleset
        return ruleset

    def new_game(self, deal: int, variant: str | None = None) -> dict[str, Any]:
        """Start deal ``deal`` (``0 .. 2**32 - 1``) of rule variant ``variant`` (an id of
        ``variants``; ``None``: the variant played now) as ``{"accepted": True, "deal", "variant",
        "message", "state"}``. A bad deal number is refused with ``code`` ``"bad-deal"``, a variant
        the game does not have with ``code`` ``"bad-variant"`` (its ``reason`` lists the variants);
        a refusal changes nothing."""
        if not _is_deal(deal):
            return self._bad_deal(deal)
        ruleset = self.ruleset if variant is None else self.variant_ruleset(variant)
        if ruleset is None:
            known = ", ".join(self.variants) or "-"
            english = f"{self.ruleset.game} has no variant {variant!r}; variants: {known}"
            reason = (self.wording.msg("board_bad_variant", variant=variant, variants=known)
                      if "board_bad_variant" in self.ui else english)
            return {"accepted": False, "deal": self.deal, "variant": self.ruleset.variant, "code": "bad-variant",
                    "reason": reason, "message": self.wording.msg("play_refused", reason=reason),
                    "state": self.state()}
        if ruleset is not self.ruleset:
            self.ruleset = ruleset
            self.wording = Wording(ruleset, self.ui, self.names)
        self.game = Game.deal(ruleset, deal)
        self.deal = deal
        if ruleset.variant is None:
            message = self.wording.msg("play_new_deal", deal=deal)
        else:
            message = self.wording.msg("board_new_game", deal=deal, variant=self.wording.variant(ruleset.variant))
        return self._answer(message, accepted=True, deal=deal, variant=ruleset.variant)

    def restart(self) -> dict[str, Any]:
        """Deal the same deal of the same variant again, from the start (the moves played and the
        undo history are dropped): ``{"accepted": True, "deal", "variant", "message", "state"}``."""
        self.game = Game.deal(self.ruleset, self.deal)
        return self._answer(self.wording.msg("board_restarted", deal=self.deal), accepted=True, deal=self.deal,
                            variant=self.ruleset.variant)

    def solution(self, budget: int = SOLUTION_BUDGET) -> dict[str, Any]:
        """Search for a win from the current position (:func:`~patiencebook.engine.solver.solve`, at
        most ``budget`` positions, all cards known) without playing it.

        Returns ``{"status" (``"solved"``, ``"unsolvable"`` or ``"unknown"``), "found" (``True`` when
        a win was found), "nodes" (positions searched), "budget", "moves": [{"move" (notation),
        "words"}, ...] (the winning moves from the current position, each worded as played from the
        position before it; ``[]`` when none was found), "message", "state"}``. ``message`` says how
        many moves the win takes, that none was found within the budget, or that the position cannot
        be won. A budget that is not a whole number of at least 1 is refused with ``code``
        ``"bad-budget"``.
        """
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            reason = f"the solver's budget is a whole number of positions, at least 1, not {budget!r}"
            return {"accepted": False, "code": "bad-budget", "reason": reason,
                    "message": self.wording.msg("play_refused", reason=reason), "state": self.state()}
        position = self.game.position
        result = solve(position, budget)
        steps = []
        for move in result.moves:
            steps.append({"move": str(move), "words": self.wording.describe(move, position)})
            position = position.apply(move)
        if result.status == SOLVED and not steps:
            message = self.wording.msg("board_won")
        elif result.status == SOLVED:
            message = self.wording.msg("board_solution_found", count=len(steps))
        elif result.status == UNSOLVABLE:
            message = self.wording.msg("board_solution_unsolvable")
        else:
            message = self.wording.msg("board_solution_none", budget=budget)
        return {"status": result.status, "found": result.status == SOLVED, "nodes": result.nodes, "budget": budget,
                "moves": steps, "message": message, "state": self.state()}

    def targets(self, pile: str, index: int) -> list[str]:
        """The piles the cards of ``pile`` from ``index`` (0 = bottom card) to the top may be
        dragged to now, in layout order; ``[]`` when those cards cannot move (or the pile or index
        does not exist)."""
        position = self.game.position
        if pile not in position.pile_ids or isinstance(index, bool) or not isinstance(index, int):
            return []
        count = len(position.pile(pile)) - index
        if count < 1 or index < 0:
            return []
        return [pid for pid in position.pile_ids
                if pid != pile and position.is_legal(Move.drag(pile, pid, count))]

    def call(self, command: str, arguments: str = "[]") -> str:
        """Run ``command`` (one of :data:`COMMANDS`) with the JSON list ``arguments``; returns the
        answer as JSON text. For front ends that exchange text only (the browser board).

        Raises ``ValueError`` for an unknown command or arguments that are not a JSON list.
        """
        if command not in COMMANDS:
            raise ValueError(f"unknown board command {command!r}; commands: {', '.join(sorted(COMMANDS))}")
        args = json.loads(arguments)
        if not isinstance(args, list):
            raise ValueError("board command arguments must be a JSON list")
        return json.dumps(getattr(self, command)(*args), ensure_ascii=False)


def _is_deal(deal: Any) -> bool:
    """True for an AisleRiot deal number: a whole number from 0 to ``2**32 - 1``."""
    return not isinstance(deal, bool) and isinstance(deal, int) and 0 <= deal <= SEED_MAX
