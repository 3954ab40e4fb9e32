"""The named hooks: rules that the data of a rules block cannot state, implemented once, by name.

Every name in :data:`patiencebook.engine.rules.HOOKS` has its implementation here; a rules block
names a hook (``lost="no-useful-move"``) and the engine looks it up with :func:`lost_check`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .errors import EngineError
from .moves import Move, MoveKind
from .rules import HOOKS, Role

if TYPE_CHECKING:  # pragma: no cover
    from .position import Position

__all__ = ["LOST_CHECKS", "lost_check", "no_useful_move", "no_move", "no_move_but_off_foundations",
           "no_clearing_move", "no_move_or_redeal_loop", "no_move_at_all"]


def _only_idle_moves(position: "Position", off_foundations_count: bool) -> bool:
    """True when the stock does nothing and every legal move is a drag that changes nothing but the
    place of a whole tableau pile (into an empty tableau pile), or, unless ``off_foundations_count``,
    takes a card off a foundation."""
    if position.is_legal(Move.stock()):
        return False
    for move in position.legal_moves:
        if move.kind is not MoveKind.DRAG:
            return False
        source, target = move.source or "", move.target or ""
        if not off_foundations_count and position.role(source) is Role.FOUNDATION:
            continue
        if (position.role(source) is Role.TABLEAU and position.role(target) is Role.TABLEAU
                and not position.pile(target) and move.count == len(position.pile(source))):
            continue
        return False
    return True


def no_useful_move(position: "Position") -> bool:
    """True when no useful move is left (hook ``no-useful-move``; Eagle Wing).

    Useful, as the Eagle Wing page states the lost condition: a click on the stock that deals or
    redeals; a move to a foundation; a move onto a tableau card; a move from the waste into an
    empty tableau pile. Moving a tableau card into an empty tableau pile does not count.
    """
    if position.is_legal(Move.stock()):
        return False
    for move in position.legal_moves:
        if move.kind is not MoveKind.DRAG:
            continue
        target_role = position.role(move.target or "")
        if target_role is Role.FOUNDATION:
            return False
        if target_role is Role.TABLEAU:
            if position.pile(move.target or ""):
                return False
            if position.role(move.source or "") is Role.WASTE:
                return False
    return True


def no_move(position: "Position") -> bool:
    """True when no move is left (hook ``no-move``; Golf, Scorpion, Yukon, Forty Thieves, Gypsy).

    A click on the stock that does something counts as a move; a move of a whole tableau pile into an
    empty tableau pile does not, since it changes nothing but the place of the pile (scorpion.scm and
    yukon.scm: a king already at the bottom of its pile is no hint).
    """
    return _only_idle_moves(position, off_foundations_count=True)


def no_move_but_off_foundations(position: "Position") -> bool:
    """True when no move is left but moves off a foundation (hook ``no-move-but-off-foundations``;
    Eight Off).

    As :func:`no_move`, and a move that takes a card off a foundation does not count either: the
    game can be lost while a foundation card could still go back to the tableau (eight-off.scm
    ``get-hint`` looks for moves to the foundations, to the tableau and into an empty free cell).
    """
    return _only_idle_moves(position, off_foundations_count=False)


def no_clearing_move(position: "Position") -> bool:
    """True when no clearing move is left (hook ``no-clearing-move``; Westhaven).

    Clearing, as westhaven.scm's ``get-hint`` looks for moves: a click on the stock that deals; a
    move to a foundation; a move of the waste card to the tableau; a tableau move that takes all the
    face-up cards of its pile, onto a tableau card, or into an empty tableau pile when face-down
    cards lie under them. Moving the top card alone off a longer face-up run, or a whole pile into
    an empty pile, does not count.
    """
    if position.is_legal(Move.stock()):
        return False
    for move in position.legal_moves:
        if move.kind is not MoveKind.DRAG:
            continue
        source, target = move.source or "", move.target or ""
        source_role, target_role = position.role(source), position.role(target)
        if target_role is Role.FOUNDATION:
            return False
        if target_role is not Role.TABLEAU:
            continue
        if source_role is Role.WASTE:
            return False
        if source_role is not Role.TABLEAU:
            continue
        pile = position.pile(source)
        face_up = 0
        for _, up in reversed(pile):
            if not up:
                break
            face_up += 1
        if move.count != face_up:
            continue
        if position.pile(target) or face_up < len(pile):
            return False
    return True


def no_move_or_redeal_loop(position: "Position") -> bool:
    """True when no move is left, or only a move that the next redeal undoes (hook
    ``no-move-or-redeal-loop``; Cruel).

    The game is lost as for ``no-move``; and also when the tableau lies as a redeal leaves it,
    more than one card is left in it and the last of them lies alone on the last pile that holds
    cards, and the only move left is that card onto the pile before it: the next redeal would
    bring the same layout back (cruel.scm ``headbanger?``).
    """
    if no_move(position):
        return True
    if not position.tableau_as_redealt():
        return False
    rules = position.compiled_rules
    piles = position.pile_codes
    held = [t for t in rules.stock_targets if piles[t]]
    if len(held) < 2 or len(piles[held[-1]]) != 1:
        return False
    drags = [m for m in position.legal_moves if m.kind is MoveKind.DRAG]
    ids = rules.ids
    return [(m.source, m.target) for m in drags] == [(ids[held[-1]], ids[held[-2]])]


def no_move_at_all(position: "Position") -> bool:
    """True when no move at all is left (hook ``no-move-at-all``; Chessboard): unlike ``no-move``,
    moving a whole pile into an empty pile counts (chessboard.scm ``get-hint`` suggests it)."""
    return not position.legal_moves  # the stock click, when legal, is one of the legal moves


#: Implementations of the hooks of kind ``"lost"``, by name: position -> True when the game is lost.
LOST_CHECKS: dict[str, Callable[["Position"], bool]] = {
    "no-useful-move": no_useful_move,
    "no-move": no_move,
    "no-move-but-off-foundations": no_move_but_off_foundations,
    "no-clearing-move": no_clearing_move,
    "no-move-or-redeal-loop": no_move_or_redeal_loop,
    "no-move-at-all": no_move_at_all,
}

_missing = [name for name, hook in HOOKS.items() if hook.kind == "lost" and name not in LOST_CHECKS]
if _missing:  # pragma: no cover - a hook named in rules.py must be implemented here
    raise EngineError(f"hooks named in rules.HOOKS without an implementation: {', '.join(_missing)}")


def lost_check(name: str) -> Callable[["Position"], bool]:
    """The implementation of the lost hook ``name``; raises :class:`EngineError` for an unknown name."""
    try:
        return LOST_CHECKS[name]
    except KeyError:
        raise EngineError(f"no lost condition named {name!r}; known: {', '.join(LOST_CHECKS)}") from None
