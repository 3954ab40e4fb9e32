"""Patience Book: localized help and a reference rules engine for patience (solitaire) card games.

The code is in two subpackages: :mod:`patiencebook.engine` (cards, rules, deals, games, solver;
standard library only) and :mod:`patiencebook.generator` (sources, catalogs, site, checks, command
line). An installed package also holds the embedded rule sources (``rules/``), catalogs
(``locales/``) and, when it was built with them, the live board's Pyodide runtime.
"""

from __future__ import annotations

__all__ = ["__version__"]


def __getattr__(name: str) -> str:
    """``__version__``, read from the package metadata when first asked for (importing
    :mod:`importlib.metadata` takes a while that most uses of the package do not need)."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import metadata

    try:
        version = metadata.version("patiencebook")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        version = "0+unknown"
    globals()["__version__"] = version
    return version
