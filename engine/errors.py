"""The engine's exception family: one base class so callers can catch every engine error at once;
and :func:`describe`, which their messages use to quote a value that came from outside.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EngineError", "RulesError", "Reason", "IllegalMove", "NotationError", "PositionError", "describe",
           "MAX_DIGITS"]

#: Most digits a number in a position or saved game may have: more is refused before it is read
#: (Python refuses to read integers of over 4300 digits, and no counter comes near 18), and
#: :func:`describe` gives a longer number by its size.
MAX_DIGITS = 18


def describe(value: Any, width: int = 40) -> str:
    """A short, safe description of any value for a message, never huge and never raising:
    ``repr`` of a bool, ``None``, a float or a number of at most :data:`MAX_DIGITS` digits
    (``"a number of 70 bits"`` when longer), a string's ``repr`` cut at ``width`` characters (with
    ``...``), ``"an object of 2 keys"`` for a dict, ``"a list of 3 items"`` for a list or tuple,
    ``"a bytes"`` (the type's name) for anything else."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if abs(value) < 10 ** MAX_DIGITS else f"a number of {value.bit_length()} bits"
    if isinstance(value, str):
        return repr(value[:width]) + ("..." if len(value) > width else "")
    if isinstance(value, dict):
        return f"an object of {len(value)} key{'s' if len(value) != 1 else ''}"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
    return f"a {type(value).__name__}"


class EngineError(Exception):
    """Base of every error raised by :mod:`patiencebook.engine`."""


class RulesError(EngineError):
    """A rules model is invalid: an unknown parameter or value, or an inconsistent combination.

    Attributes:
        file: the rules source the value came from, or ``None`` when built in code.
        line: 1-based line of the offending element in ``file``, or ``None``.
        message: what is wrong.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.message = message
        self.file = file
        self.line = line
        where = f"{file}:{line}: " if file and line else (f"{file}: " if file else "")
        super().__init__(f"{where}{message}")


class Reason(str):
    """A refusal reason: the English sentence (the ``str`` value) plus a machine-readable ``code``
    and ``params``, so that a front end can say it in another language.

    ``code`` is a short name (``"face-down"``, ``"does-not-fit"``); ``params`` maps names to plain
    values: pile ids (``pile``, ``target``), card texts (``card``, ``onto``, ``"7h"``), numbers.
    """

    code: str
    params: dict

    def __new__(cls, code: str, text: str, **params: object) -> "Reason":
        self = super().__new__(cls, text)
        self.code = code
        self.params = params
        return self


class IllegalMove(EngineError):
    """A move was refused by the rules; ``str()`` of the error is the reason, for the player.

    ``code`` and ``params`` describe the reason for translation (see :class:`Reason`); they are
    taken from ``message`` when it is a :class:`Reason`, else ``code`` is ``"refused"`` (no
    translation known beyond the English sentence) and ``params`` is empty.
    """

    def __init__(self, message: str, code: str | None = None, params: dict | None = None):
        super().__init__(message)
        self.code = code or getattr(message, "code", "refused")
        self.params = dict(params if params is not None else getattr(message, "params", {}))


class NotationError(EngineError, ValueError):
    """A text or JSON form of a card, move, position or saved game could not be read.

    ``str()`` says what is wrong and, where known, where: ``line`` is the 1-based line of the text
    at fault (``None`` for one-line input or JSON).
    """

    def __init__(self, message: str, line: int | None = None):
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message)


class PositionError(NotationError):
    """A position that the rules of its game cannot produce (see :meth:`Position.validate
    <patiencebook.engine.position.Position.validate>`): a face-down card where no rule leaves one, a
    foundation out of sequence, more cards in a pile than the rules let it hold, a counter out of range.

    A :class:`NotationError`, since it is raised while reading a position. ``where`` names what is at
    fault: a pile id (``"tableau3"``), a state key (``"base"``, ``"redeals"``, ``"offers"``), or
    ``None`` when the fault lies across several piles; readers of text turn it into ``line``.
    """

    def __init__(self, message: str, where: str | None = None, line: int | None = None):
        self.where = where
        super().__init__(message, line)
