"""The extension's Sphinx settings and the languages they carry.

The site build writes each language's facts into ``conf.py`` (``patiencebook_language_table``), so
the extension reads them as values and never looks a code up in the language table. A project that
sets only ``language`` gets its languages from the table once, when the configuration is read
(:func:`resolve_languages`); everything after that reads :func:`page_language` and
:func:`site_languages`.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.config import Config

from patiencebook.generator.errors import LanguageError
from patiencebook.generator.languages import Language


def add_settings(app: Sphinx) -> None:
    """Register the settings:

    - ``patiencebook_language``: gettext code of this build (``"sr@latin"``; default: ``language``);
    - ``patiencebook_languages``: gettext codes of every language of the site, in the switcher's
      order, each living in a sibling folder named by its code;
    - ``patiencebook_language_table``: ``{code: Language.as_dict()}`` for those codes, as the site
      build resolved them; a code missing there is taken from the language table.
    """
    app.add_config_value("patiencebook_language", None, "env", types=(str, type(None)))
    app.add_config_value("patiencebook_languages", [], "html", types=(list, tuple))
    app.add_config_value("patiencebook_language_table", {}, "env", types=(dict,))


def resolve_languages(config: Config) -> None:
    """Make ``patiencebook_language_table`` hold a row for this build's language and every site
    language (run once, when the configuration is read).

    Rows the configuration gives are kept as they are; a code without one is looked up in the
    language table here, the one place the extension does so, and a code the table does not know
    gets no row (its pages then have no switcher entry and the source language's interface
    strings). Raises :class:`LanguageError` for a row that is not a language's fields.
    """
    given = dict(config.patiencebook_language_table or {})
    for code, row in given.items():
        if Language.from_dict(row).code != code:
            raise LanguageError(f"patiencebook_language_table: the row of {code!r} is that of {row.get('code')!r}")
    from patiencebook.generator.languages import get_language

    table = dict(given)
    for code in [page_code(config), *(config.patiencebook_languages or [])]:
        if code in table:
            continue
        try:
            table[code] = get_language(code).as_dict()
        except LanguageError:
            continue
    config.patiencebook_language_table = table


def page_code(config: Config) -> str:
    """The gettext code of this build: ``patiencebook_language``, else ``language``, else ``en``."""
    return config.patiencebook_language or config.language or "en"


def page_language(config: Config) -> Language | None:
    """This build's language as :func:`resolve_languages` left it in ``config``, or ``None`` when
    the language table does not know it."""
    row = config.patiencebook_language_table.get(page_code(config))
    return Language.from_dict(row) if row is not None else None


def site_languages(config: Config) -> list[Language]:
    """The site's languages (``patiencebook_languages``) in order, those without a row left out."""
    table = config.patiencebook_language_table
    return [Language.from_dict(table[code]) for code in config.patiencebook_languages or [] if code in table]
