"""Where the project's embedded rule sources and catalogs live, and its fixed names.

The defaults of every command: ``rules/`` for sources, ``locales/`` for catalogs (domain ``help``),
``site/`` for the built help, all relative to the project folder that holds ``generator/``.
"""

from __future__ import annotations

from pathlib import Path

#: The gettext domain of the help catalogs: ``locales/<lang>/LC_MESSAGES/help.po``.
DOMAIN = "help"
#: The file that marks a folder as a site ``patiencebook build`` wrote (and may replace).
SITE_MARKER = ".patiencebook-site"
#: The project folder: the parent of the folder that holds this package's sources.
PROJECT_DIR = Path(__file__).resolve().parent.parent


def default_sources() -> Path:
    """The embedded rule sources folder (``rules/``, holding ``index.docbook``)."""
    return PROJECT_DIR / "rules"


def default_catalogs() -> Path:
    """The embedded catalogs folder (``locales/``, holding ``help.pot`` and ``<lang>/LC_MESSAGES/help.po``)."""
    return PROJECT_DIR / "locales"


def default_pot(catalogs: Path | None = None) -> Path:
    """The POT file of the ``help`` domain inside ``catalogs`` (default: the embedded ``locales/``)."""
    return (catalogs or default_catalogs()) / f"{DOMAIN}.pot"


def default_site() -> Path:
    """Where ``patiencebook build`` writes the site unless told otherwise (``./site`` in the current folder)."""
    return Path.cwd() / "site"
