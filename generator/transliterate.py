"""Derived catalogs: Serbian in Latin script (``sr@latin``) made from the Cyrillic ``sr`` catalog.

Only text is converted; inline markup in msgstrs (tags, attribute names and values, entity and
character references) is left exactly as it is. The conversion is cyrtranslit's Serbian table.
"""

from __future__ import annotations

import copy
import re

import cyrtranslit
from babel.messages.catalog import Catalog

from patiencebook.generator.errors import LanguageError

#: Methods a language row in ``data/languages.json`` may name in ``derive``.
METHODS = ("cyrillic-to-latin",)

# A tag (with quoted attribute values that may hold ">"), a comment, a CDATA section, or an
# entity/character reference: everything in a msgstr that is markup rather than text.
_MARKUP = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>|&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_][\w.-]*);",
    re.DOTALL,
)


def derive_text(text: str, method: str = "cyrillic-to-latin") -> str:
    """Plain ``text`` converted by ``method`` (``"cyrillic-to-latin"``: Serbian Cyrillic to Latin).

    Raises :class:`LanguageError` for an unknown method.
    """
    if method != "cyrillic-to-latin":
        raise LanguageError(f"unknown derivation {method!r}; known: {', '.join(METHODS)}")
    return cyrtranslit.to_latin(text, "sr")


def derive_markup(msgstr: str, method: str = "cyrillic-to-latin") -> str:
    """``msgstr`` with only its text nodes converted; tags, attributes and references untouched.

    ``derive_markup('Види <link linkend="x">правила</link>')`` is ``'Vidi <link linkend="x">pravila</link>'``.
    """
    out: list[str] = []
    position = 0
    for match in _MARKUP.finditer(msgstr):
        out.append(derive_text(msgstr[position:match.start()], method))
        out.append(match.group(0))
        position = match.end()
    out.append(derive_text(msgstr[position:], method))
    return "".join(out)


def derive_catalog(base: Catalog, locale: str = "sr_Latn", method: str = "cyrillic-to-latin") -> Catalog:
    """A new catalog for ``locale`` whose msgstrs are ``base``'s converted by :func:`derive_markup`.

    msgids, contexts, comments, locations and flags (``fuzzy`` included) are kept; obsolete
    messages are dropped. ``base`` is not changed.
    """
    derived = Catalog(
        locale=locale,
        domain=base.domain,
        project=base.project,
        version=base.version,
        copyright_holder=base.copyright_holder,
        msgid_bugs_address=base.msgid_bugs_address,
        creation_date=base.creation_date,
        revision_date=base.revision_date,
        last_translator=base.last_translator,
        language_team=base.language_team,
        charset="utf-8",
        fuzzy=base.fuzzy,
    )
    for message in base:
        if not message.id:
            continue  # the header, rebuilt from the fields above
        new = copy.copy(message)
        new.flags = set(message.flags)
        if isinstance(message.string, (list, tuple)):
            new.string = tuple(derive_markup(s, method) if s else s for s in message.string)
        elif message.string:
            new.string = derive_markup(message.string, method)
        derived[message.id] = new  # keyed by (id, context): __setitem__ reads new.context
    return derived


def derive_catalog_for(code: str, base: Catalog) -> Catalog:
    """The catalog of derived language ``code`` (e.g. ``"sr@latin"``) made from its base catalog.

    Raises :class:`LanguageError` when ``code`` is not a derived language in the table.
    """
    from patiencebook.generator.languages import get_language

    language = get_language(code)
    if not language.derive:
        raise LanguageError(f"language {code!r} is not derived from another language")
    return derive_catalog(base, language.babel, language.derive)
