"""Derived catalogs: Serbian in Latin script (``sr@latin``) made from the Cyrillic ``sr`` catalog.

Only text is converted; inline markup in msgstrs (tags, attribute names and values, entity and
character references) is left exactly as it is. The conversion is cyrtranslit's Serbian table,
with one correction: Џ, Љ, Њ in words written in capitals become DŽ, LJ, NJ (see
:func:`capital_digraphs`), where the table alone always gives Dž, Lj, Nj.
"""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING

import cyrtranslit
from babel.messages.catalog import Catalog

from patiencebook.generator.errors import LanguageError

if TYPE_CHECKING:
    from patiencebook.generator.languages import Language

#: Methods a language row in ``data/languages.json`` may name in ``derive``.
METHODS = ("cyrillic-to-latin",)

# A tag (with quoted attribute values that may hold ">"), a comment, a CDATA section, or an
# entity/character reference: everything in a msgstr that is markup rather than text.
_MARKUP = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<(?:[^>\"']|\"[^\"]*\"|'[^']*')*>|&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_][\w.-]*);",
    re.DOTALL,
)


# The Cyrillic letters written as two Latin letters, and a word: a run of letters of any script.
_DIGRAPHS = frozenset("ЏЉЊ")
_WORD = re.compile(r"[^\W\d_]+")


def _check_method(method: str) -> None:
    if method != "cyrillic-to-latin":
        raise LanguageError(f"unknown derivation {method!r}; known: {', '.join(METHODS)}")


def capital_digraphs(text: str) -> set[int]:
    """Positions in Cyrillic ``text`` of the letters Џ, Љ, Њ to write all-capitals (DŽ, LJ, NJ).

    Serbian writes them DŽ, LJ, NJ in capitals and Dž, Lj, Nj only before lower case. Decided
    letter by letter within a word (a run of letters): a capital digraph letter is all-capitals
    when the next letter is a capital (ЏЕП → DŽEP) and title case when it is lower case (Џеп →
    Džep). At the end of a word it takes the case of the letter before it (КОЊ → KONJ; ЉиЉ →
    LjiLj). A one-letter word takes the case of its neighbouring words: it is all-capitals when
    the nearest word on each side (where there is one; one-letter capitals are skipped, as they
    show no case of their own) is in capitals (ЉУТ Џ ЈЕ → LJUT DŽ JE), otherwise title case
    (слово Џ → slovo Dž; Џ alone → Dž). Lower-case џ, љ, њ are never in the set. Never raises.
    """
    words = list(_WORD.finditer(text))
    spelled = [w.group(0) for w in words]
    capitals: set[int] = set()
    for k, word in enumerate(words):
        start, end = word.span()
        for i in range(start, end):
            if text[i] not in _DIGRAPHS:
                continue
            if i + 1 < end:
                upper = text[i + 1].isupper()
            elif i > start:
                upper = text[i - 1].isupper()
            else:
                upper = _among_capitals(spelled, k)
            if upper:
                capitals.add(i)
    return capitals


def _among_capitals(words: list[str], k: int) -> bool:
    """Whether the one-letter word ``words[k]`` stands among words in capitals.

    See :func:`capital_digraphs` for which neighbours count.
    """

    def nearest(indices: range) -> str | None:
        for j in indices:
            if len(words[j]) > 1 or not words[j].isupper():
                return words[j]
        return None

    before, after = nearest(range(k - 1, -1, -1)), nearest(range(k + 1, len(words)))
    neighbours = [w for w in (before, after) if w is not None]
    return bool(neighbours) and all(w.isupper() for w in neighbours)


def _to_latin(text: str, start: int, end: int, capitals: set[int]) -> str:
    """``text[start:end]`` in Latin script, the digraph letters at ``capitals`` all-capitals."""
    # cyrtranslit converts letter by letter, so converting the pieces between those letters
    # separately gives the same text as converting the whole.
    out: list[str] = []
    position = start
    for i in sorted(i for i in capitals if start <= i < end):
        out.append(cyrtranslit.to_latin(text[position:i], "sr"))
        out.append(cyrtranslit.to_latin(text[i], "sr").upper())
        position = i + 1
    out.append(cyrtranslit.to_latin(text[position:end], "sr"))
    return "".join(out)


def derive_text(text: str, method: str = "cyrillic-to-latin") -> str:
    """Plain ``text`` converted by ``method`` (``"cyrillic-to-latin"``: Serbian Cyrillic to Latin).

    ``derive_text("Џеп, ЏЕП, КОЊ")`` is ``"Džep, DŽEP, KONJ"`` (see :func:`capital_digraphs`).
    Raises :class:`LanguageError` for an unknown method.
    """
    _check_method(method)
    return _to_latin(text, 0, len(text), capital_digraphs(text))


def derive_markup(msgstr: str, method: str = "cyrillic-to-latin") -> str:
    """``msgstr`` with only its text nodes converted; tags, attributes and references untouched.

    ``derive_markup('Види <link linkend="x">правила</link>')`` is ``'Vidi <link linkend="x">pravila</link>'``.
    The case of Џ, Љ, Њ is decided on the msgstr's text as read: tags and comments do not split
    words (``Џ<emphasis>ОКЕР</emphasis>`` → ``DŽ<emphasis>OKER</emphasis>``), references and
    CDATA sections do. Raises :class:`LanguageError` for an unknown method.
    """
    _check_method(method)
    # The text without markup, and for each of its characters its index in msgstr (-1: none).
    plain: list[str] = []
    origin: list[int] = []
    position = 0
    for match in _MARKUP.finditer(msgstr):
        plain.append(msgstr[position:match.start()])
        origin.extend(range(position, match.start()))
        if match.group(0).startswith(("&", "<![CDATA[")):
            plain.append(" ")
            origin.append(-1)
        position = match.end()
    plain.append(msgstr[position:])
    origin.extend(range(position, len(msgstr)))
    capitals = {origin[i] for i in capital_digraphs("".join(plain))}

    out: list[str] = []
    position = 0
    for match in _MARKUP.finditer(msgstr):
        out.append(_to_latin(msgstr, position, match.start(), capitals))
        out.append(match.group(0))
        position = match.end()
    out.append(_to_latin(msgstr, position, len(msgstr), capitals))
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


def derive_catalog_for(language: "Language", base: Catalog) -> Catalog:
    """The catalog of derived ``language`` (a row of the language table, such as ``sr@latin``)
    made from its base catalog.

    Raises :class:`LanguageError` when ``language`` is not derived from another.
    """
    if not language.derive:
        raise LanguageError(f"language {language.code!r} is not derived from another language")
    return derive_catalog(base, language.babel, language.derive)
