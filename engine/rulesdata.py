"""A :class:`~patiencebook.engine.rules.Ruleset` as plain JSON data and back.

The browser board runs the engine in Pyodide, where lxml (and so the rules-block loader) is not
available: the site build writes each game's ruleset with :func:`ruleset_to_data` and the page's
engine reads it with :func:`ruleset_from_data`. Standard library only.

Form: one JSON object per dataclass of :mod:`patiencebook.engine.rules`, keyed by field name
(``{"game": "hamilton", "deck": {"decks": 1, "suits": ["c", "d", "h", "s"], ...}, "piles": [...]}``);
enums as their rules-block words, suits and ranks as their letters (``"h"``, ``"T"``), tuples as
lists, ``null`` for ``None``. Source lines and file names are left out (they do not take part in
comparison, and a built site should not show the build machine's paths).
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from typing import Any

from .cards import Rank
from .errors import RulesError
from .rules import Ruleset

__all__ = ["FORMAT", "OMIT_DEFAULT", "ruleset_to_data", "ruleset_from_data"]

#: Version of the data form; :func:`ruleset_from_data` refuses any other.
FORMAT = 1

#: Key of a field's metadata that leaves the field out of the data while it holds its default: a
#: word added to the model after figures were recorded keeps the data, and so the digest of the
#: rules (generator/pages/figures.py), of every ruleset that does not use it as it was.
OMIT_DEFAULT = "omit-default"

# Fields that only say where a value came from: compare=False in the model, never written.
_SKIPPED = frozenset({"line", "file"})
_RANK_LETTERS = "A23456789TJQK"




def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name))
                for f in dataclasses.fields(value) if f.name not in _SKIPPED
                and not (f.metadata.get(OMIT_DEFAULT) and getattr(value, f.name) == f.default)}
    if isinstance(value, Rank):
        return value.letter
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_encode(item) for item in value]
    return value


def ruleset_to_data(ruleset: Ruleset) -> dict[str, Any]:
    """``ruleset`` as JSON-ready data (dicts, lists, strings, numbers, booleans, ``None``) with a
    ``"format"`` key (:data:`FORMAT`). ``ruleset_from_data(ruleset_to_data(r)) == r``."""
    data = _encode(ruleset)
    return {"format": FORMAT, **data}


class _Path:
    """Where in the data a value sits, for error messages (``piles[2].build.direction``)."""

    def __init__(self, parts: tuple[str, ...] = ()):
        self.parts = parts

    def __truediv__(self, part: str | int) -> "_Path":
        if isinstance(part, int):
            return _Path(self.parts[:-1] + (f"{self.parts[-1]}[{part}]",)) if self.parts else _Path((f"[{part}]",))
        return _Path(self.parts + (part,))

    def __str__(self) -> str:
        return ".".join(self.parts) or "the ruleset"


def _fail(path: _Path, message: str) -> RulesError:
    return RulesError(f"ruleset data: {path}: {message}")


def _decode(hint: Any, value: Any, path: _Path) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None:
            if type(None) in options:
                return None
            raise _fail(path, "must not be null")
        inner = [o for o in options if o is not type(None)]
        if len(inner) == 1:
            return _decode(inner[0], value, path)
        # A value that may take one of several forms (a number or a word; one word or a list):
        # the first form that reads it wins.
        errors = []
        for option in inner:
            try:
                return _decode(option, value, path)
            except RulesError as error:
                errors.append(error.message)
        raise _fail(path, f"{value!r:.40} is none of the allowed forms ({'; '.join(errors)})")
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list):
            raise _fail(path, f"must be a list, not {value!r:.40}")
        return tuple(_decode(args[0], item, path / n) for n, item in enumerate(value))
    if hint is Rank:
        if not (isinstance(value, str) and len(value) == 1 and value in _RANK_LETTERS):
            raise _fail(path, f"must be a rank letter ({' '.join(_RANK_LETTERS)}), not {value!r:.40}")
        return Rank(_RANK_LETTERS.index(value) + 1)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in hint)
            raise _fail(path, f"unknown value {value!r:.40}; allowed: {allowed}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _decode_dataclass(hint, value, path)
    if hint is bool:
        if not isinstance(value, bool):
            raise _fail(path, f"must be true or false, not {value!r:.40}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(path, f"must be a whole number, not {value!r:.40}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise _fail(path, f"must be a string, not {value!r:.40}")
        return value
    raise _fail(path, f"cannot read a value of type {hint}")


@functools.cache
def _fields(cls: type) -> tuple[dict[str, Any], dict[str, dataclasses.Field]]:
    """The type hints of dataclass ``cls`` (its annotations evaluated, which is slow) and its fields
    by name, read once per class."""
    return typing.get_type_hints(cls), {f.name: f for f in dataclasses.fields(cls) if f.name not in _SKIPPED}


def _decode_dataclass(cls: type, value: Any, path: _Path) -> Any:
    if not isinstance(value, dict):
        raise _fail(path, f"must be an object, not {value!r:.40}")
    hints, fields = _fields(cls)
    unknown = sorted(set(value) - set(fields))
    if unknown:
        raise _fail(path, f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(fields)}")
    kwargs = {}
    for name, f in fields.items():
        if name in value:
            kwargs[name] = _decode(hints[name], value[name], path / name)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise _fail(path, f"missing key {name!r}")
    try:
        return cls(**kwargs)
    except RulesError as error:
        raise _fail(path, error.message) from None


def ruleset_from_data(data: Any) -> Ruleset:
    """The :class:`Ruleset` written by :func:`ruleset_to_data`.

    Every value is checked as the rules model checks it on construction. Raises
    :class:`RulesError` naming the place in the data (``piles[2].build.direction``) and what is
    wrong: an unknown or missing key, a value of the wrong type or outside its list, a
    ``"format"`` other than :data:`FORMAT`, or a ruleset the model refuses.
    """
    if not isinstance(data, dict):
        raise RulesError("ruleset data must be an object")
    if data.get("format") != FORMAT:
        raise RulesError(f"ruleset data has format {data.get('format')!r}; this engine reads format {FORMAT}")
    body = {key: value for key, value in data.items() if key != "format"}
    return _decode_dataclass(Ruleset, body, _Path())

