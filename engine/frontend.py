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
from .wording import Wording

__all__ = ["BoardGame", "COMMANDS"]

#: The methods :meth:`BoardGame.call` may run, the commands a front end sends.
COMMANDS = frozenset({"state", "play", "undo", "redo", "hint", "new_deal", "targets"})


class BoardGame:
    """One deal of one game as a board shows it: the position, undo and redo, hints, and every
    answer as plain data (dicts, lists, strings, numbers) ready for JSON.

    Args:
        ruleset: the game.
        deal: AisleRiot's deal number, ``0 .. 2**32 - 1`` (``ValueError`` otherwise).
        ui: interface strings of the page's language by key: ``play_*`` (moves, hints, score),
            ``reason_*`` and ``build_*`` (refusal reasons), ``board_*`` (board messages).
        names: each pile id's name in that language (``{"tableau3": "Tableau 3"}``).

    Commands return an *answer* dict, always with ``"state"`` (see :meth:`state`) and
    ``"message"`` (what to tell the player, in the page's language), plus ``"accepted"``
    (``True``/``False``) for commands that may be refused, and ``"reason"``/``"code"`` when refused.
    """

    def __init__(self, ruleset: Ruleset, deal: int, ui: Mapping[str, str], names: Mapping[str, str]):
        self.ruleset = ruleset
        self.wording = Wording(ruleset, ui, names)
        self.deal = deal
        self.game = Game.deal(ruleset, deal)

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
        return cls(ruleset_from_data(data.get("ruleset")), deal, data.get("ui") or {}, data.get("names") or {})

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
        ``moves`` (how many moves were played) and ``score_text`` (the score in words)."""
        position = self.game.position
        data = position_to_dict(position)
        data.update(
            max=position.max_score, status=self.status(), can_undo=self.game.can_undo,
            can_redo=self.game.can_redo, deal=self.deal, moves=len(self.game.moves),
            score_text=self.wording.msg("play_score", score=position.score, max=position.max_score),
        )
        return data

    def _answer(self, message: str, **extra: Any) -> dict[str, Any]:
        status = self.status()
        if status == "won":
            message = f"{message} {self.wording.msg('board_won')}"
        elif status == "lost":
            message = f"{message} {self.wording.msg('board_lost')}"
        return {"message": message, **extra, "state": self.state()}

    def _refused(self, err: IllegalMove, move: str | None) -> dict[str, Any]:
        reason = self.wording.reason(err.code, str(err), err.params)
        return {"accepted": False, "move": move, "code": err.code, "reason": reason,
                "message": self.wording.msg("play_refused", reason=reason), "state": self.state()}

    # -- commands --------------------------------------------------------------------------------

    def play(self, text: str) -> dict[str, Any]:
        """Play the move ``text`` (notation: ``stock``, ``dbl:PILE``, ``flip:PILE``,
        ``PILE[:COUNT]>PILE``).

        Accepted: ``{"accepted": True, "move", "words" (the move in words), "message", "state"}``;
        a double-click adds ``"drags"``, the moves it stood for (:meth:`Position.double_click_drags`)
        as ``[{"source", "target", "count", "card"}]`` (``card``: the notation of the lowest card
        moved, as it lay before), and its message says where the cards went (ui ``board_sent``,
        ``board_sent_run``) rather than which pile was double-clicked.
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
            return self._answer(self._sent(drags), accepted=True, move=str(move), words=words, drags=drags)
        return self._answer(self.wording.msg("board_moved", move=words), accepted=True, move=str(move),
                            words=words)

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

    def _sent(self, drags: list[dict[str, Any]]) -> str:
        """Where a double-click sent its cards, one sentence per drag (ui ``board_sent`` for one
        card, ``board_sent_run`` for several)."""
        return " ".join(
            self.wording.msg("board_sent" if d["count"] == 1 else "board_sent_run", card=self.wording.card(d["card"]),
                             count=d["count"], source=self.wording.pile(d["source"]),
                             target=self.wording.pile(d["target"]))
            for d in drags)

    def undo(self) -> dict[str, Any]:
        """Take back the last move: ``{"accepted", "move", "message", "state"}`` (refused when no
        move was played, with ``code`` ``"no-undo"``)."""
        try:
            move = self.game.undo()
        except IllegalMove as err:
            return self._refused(err, None)
        words = self.wording.describe(move, self.game.position)
        return self._answer(self.wording.msg("play_undone", move=words), accepted=True, move=str(move),
                            words=words)

    def redo(self) -> dict[str, Any]:
        """Play again the last move undone: ``{"accepted", "move", "message", "state"}`` (refused
        with ``code`` ``"no-redo"`` when there is none)."""
        before = self.game.position
        try:
            move = self.game.redo()
        except IllegalMove as err:
            return self._refused(err, None)
        words = self.wording.describe(move, before)
        return self._answer(self.wording.msg("play_redone", move=words), accepted=True, move=str(move),
                            words=words)

    def hint(self) -> dict[str, Any]:
        """The best move found (:meth:`Position.hints`), not played: ``{"move", "source", "target",
        "count", "words", "message", "state"}``; ``source`` is the pile to highlight (the stock for a
        stock click), ``target`` the pile it goes to or ``None``. ``move`` is ``None`` when no move
        is possible."""
        hints = self.game.hints()
        if not hints:
            return {"move": None, "source": None, "target": None, "count": None, "words": None,
                    "message": self.wording.msg("play_no_hint"), "state": self.state()}
        move = hints[0]
        words = self.wording.describe(move, self.game.position)
        source = self._stock_id if move.kind is MoveKind.STOCK else move.source
        return {"move": str(move), "source": source, "target": move.target,
                "count": move.count if move.is_drag else None, "words": words,
                "message": self.wording.msg("play_hint", move=str(move), words=words), "state": self.state()}

    def new_deal(self, deal: int | None = None) -> dict[str, Any]:
        """Start deal ``deal`` (default: the next number, after ``2**32 - 1`` comes ``0``), as
        ``{"accepted": True, "deal", "message", "state"}``; a number outside ``0 .. 2**32 - 1`` is
        refused with ``code`` ``"bad-deal"``."""
        if deal is None:
            deal = self.deal + 1 if self.deal < SEED_MAX else 0
        if isinstance(deal, bool) or not isinstance(deal, int) or not 0 <= deal <= SEED_MAX:
            reason = f"a deal number is a whole number from 0 to {SEED_MAX}, not {deal!r}"
            return {"accepted": False, "deal": self.deal, "code": "bad-deal", "reason": reason,
                    "message": self.wording.msg("play_refused", reason=reason), "state": self.state()}
        self.game = Game.deal(self.ruleset, deal)
        self.deal = deal
        return self._answer(self.wording.msg("play_new_deal", deal=deal), accepted=True, deal=deal)

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
