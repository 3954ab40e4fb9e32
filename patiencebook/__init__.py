"""Patience Book: localized help and a reference rules engine for patience (solitaire) card games.

The code is in two subpackages: :mod:`patiencebook.engine` (cards, rules, deals, games, solver;
standard library only) and :mod:`patiencebook.generator` (sources, catalogs, site, checks, command
line). An installed package also holds the embedded rule sources (``rules/``), catalogs
(``locales/``) and, when it was built with them, the live board's Pyodide runtime.
"""

from __future__ import annotations

from importlib import metadata

try:
    __version__ = metadata.version("patiencebook")
except metadata.PackageNotFoundError:  # run from a checkout that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
