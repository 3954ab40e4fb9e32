"""The project's language table: gettext codes mapped to HTML, CLDR and Sphinx names.

Read from ``data/languages.json`` (one row per language); native language names come from
Babel's CLDR data. Our own interface strings per language live in ``data/ui/<code>.json``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Iterable, Mapping

from babel import Locale
from babel.core import parse_locale

from patiencebook.generator.errors import LanguageError

DATA_DIR = Path(__file__).resolve().parent / "data"
LANGUAGES_FILE = DATA_DIR / "languages.json"
UI_DIR = DATA_DIR / "ui"


@dataclass(frozen=True, slots=True)
class Language:
    """One row of the language table.

    Attributes:
        code: gettext code, as in catalog folder names (``"sr@latin"``, ``"en_GB"``).
        bcp47: BCP 47 tag for HTML ``lang``/``hreflang`` (``"sr-Latn"``, ``"en-GB"``).
        babel: Babel/CLDR locale identifier (``"sr_Latn"``).
        sphinx: the value given to Sphinx's ``language`` setting.
        script: ISO 15924 script code (``"Cyrl"``, ``"Latn"``, ``"Grek"``).
        native_name: the language's name in itself, from CLDR (``"srpski (latinica)"``).
        derived_from: gettext code of the language this one is made from at build time, or ``None``.
        derive: how it is made (``"cyrillic-to-latin"``), or ``None``.
        search: key of the search language registered by our Sphinx extension, or ``None`` when
            Sphinx's own search language for ``sphinx`` is used.
    """

    code: str
    bcp47: str
    babel: str
    sphinx: str
    script: str
    native_name: str
    derived_from: str | None = None
    derive: str | None = None
    search: str | None = None

    @property
    def is_derived(self) -> bool:
        """True when the catalog of this language is derived from another language's catalog."""
        return self.derived_from is not None

    @property
    def display_name(self) -> str:
        """``native_name`` with its first letter capitalised, as shown in a list of languages."""
        return self.native_name[:1].upper() + self.native_name[1:]

    def as_dict(self) -> dict[str, str | None]:
        """Every attribute by name, as plain strings (or ``None``): the form in which a language is
        written into a file, such as a Sphinx ``conf.py``, and read back by :meth:`from_dict`."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> "Language":
        """The language :meth:`as_dict` gave ``data`` for, taken as it is (the table is not read).

        Raises:
            LanguageError: ``data`` is not a mapping of exactly the attributes, with a string for
                each required one and a string or ``None`` for each optional one.
        """
        fields = dataclasses.fields(cls)
        names = {field.name for field in fields}
        if not isinstance(data, Mapping) or set(data) != names:
            shown = sorted(data) if isinstance(data, Mapping) else type(data).__name__
            raise LanguageError(f"a language needs exactly the fields {', '.join(sorted(names))}, not {shown}")
        for field in fields:
            value = data[field.name]
            optional = field.default is None
            if not (isinstance(value, str) or (optional and value is None)):
                raise LanguageError(f"language field {field.name!r} is {value!r}, not a string")
        return cls(**{field.name: data[field.name] for field in fields})


@cache
def _table() -> dict[str, Language]:
    try:
        raw = json.loads(LANGUAGES_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LanguageError(f"cannot read the language table: {error}", LANGUAGES_FILE) from error
    table: dict[str, Language] = {}
    for code, row in raw["languages"].items():
        table[code] = Language(
            code=code,
            bcp47=row["bcp47"],
            babel=row["babel"],
            sphinx=row["sphinx"],
            script=row["script"],
            native_name=Locale.parse(row["babel"]).get_display_name() or code,
            derived_from=row.get("derived_from"),
            derive=row.get("derive"),
            search=row.get("search"),
        )
    return table


def source_language() -> str:
    """The gettext code of the language the sources are written in (``"en"``)."""
    return json.loads(LANGUAGES_FILE.read_text(encoding="utf-8"))["source"]


def languages() -> dict[str, Language]:
    """Every known language, keyed by gettext code, in table order."""
    return dict(_table())


def get_language(code: str) -> Language:
    """The table row for gettext ``code``.

    Also accepts a BCP 47 tag or CLDR identifier of a known language (``"sr-Latn"``, ``"sr_Latn"``),
    case-insensitively. Raises :class:`LanguageError` naming the code and the known codes.
    """
    table = _table()
    if code in table:
        return table[code]
    wanted = code.replace("-", "_").lower()
    for language in table.values():
        if wanted in (language.code.lower(), language.bcp47.replace("-", "_").lower(), language.babel.lower()):
            return language
    known = ", ".join(sorted(table))
    raise LanguageError(f"unknown language {code!r}; known languages: {known}")


#: The script a POSIX locale modifier stands for (``sr_RS@latin``).
_MODIFIER_SCRIPTS = {"latin": "Latn", "cyrillic": "Cyrl"}


def resolve_language(code: str, available: Iterable[str] | None = None) -> Language:
    """The language a code as users write it means: a gettext code (``sr@latin``), a POSIX locale
    (``de_DE``, ``el_GR.UTF-8``, ``sr_RS@latin``, ``sr_RS.UTF-8@latin``), a BCP 47 tag (``de-DE``,
    ``sr-Latn``) or a CLDR identifier (``sr_Latn_RS``). A region the table does not know falls back
    to its language (``de_DE`` → ``de``), but a language the table has is never stood in for by
    another (``en_GB`` is not ``en``); ``C`` and ``POSIX`` are the source language.

    ``available`` (gettext codes, for instance the catalogs there are) limits the answer to those;
    the most specific known code wins (``en_GB`` before ``en``).

    Raises:
        LanguageError: no known (or available) language matches, naming the code and the choices.
    """
    table = _table()
    allowed = set(available) if available is not None else None
    text = re.sub(r"\.[^@]*", "", code.strip())  # the encoding of a POSIX locale
    candidates: list[str] = []
    if text.upper() in ("C", "POSIX"):
        candidates.append(source_language())
    else:
        candidates.append(text)
        base, _, modifier = text.partition("@")
        try:
            lang, territory, script = parse_locale(base.replace("-", "_"))[:3]
        except ValueError:
            lang, territory, script = "", None, None
        script = script or _MODIFIER_SCRIPTS.get(modifier.lower()) or (
            modifier.title() if modifier.title() in {row.script for row in table.values()} else None)
        if lang:
            if modifier:
                candidates += [f"{lang}_{territory}@{modifier}"] if territory else []
                candidates.append(f"{lang}@{modifier}")
            if script:
                candidates += ([f"{lang}_{script}_{territory}"] if territory else []) + [f"{lang}_{script}"]
            if territory:
                candidates.append(f"{lang}_{territory}")
            if not (script and not modifier and _scripted(lang, script)):
                candidates.append(lang)
    for n, candidate in enumerate(candidates):
        try:
            language = get_language(candidate)
        except LanguageError:
            continue
        if allowed is None or language.code in allowed:
            return language
        if n == 0:
            break  # a language of the table asked for by its own code: no other stands in for it
    choices = sorted(allowed if allowed is not None else table)
    raise LanguageError(f"unknown language {code!r}; known languages: {', '.join(choices)}")


def _scripted(lang: str, script: str) -> bool:
    """Whether the table has ``lang`` in ``script`` as a language of its own (``sr`` in ``Latn``):
    then ``sr-Latn`` must not fall back to plain ``sr`` (which is Cyrillic)."""
    return any(row.babel.split("_")[0] == lang and row.script == script for row in _table().values())


def environment_language(available: Iterable[str] | None = None,
                         environ: Mapping[str, str] | None = None) -> Language | None:
    """The language the environment asks for, as gettext programs read it: ``LANGUAGE`` (a
    colon-separated list of preferences, used unless the locale is ``C`` or ``POSIX``), else the
    first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set. Each value is read by
    :func:`resolve_language`, limited to ``available``; ``None`` when nothing set resolves (or
    the locale is ``C``)."""
    env = os.environ if environ is None else environ
    locale = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    if re.sub(r"\.[^@]*", "", locale).upper() in ("C", "POSIX"):
        return None
    wanted = [part for part in env.get("LANGUAGE", "").split(":") if part] + ([locale] if locale else [])
    for value in wanted:
        try:
            return resolve_language(value, available)
        except LanguageError:
            continue
    return None


def derived_languages(available: list[str] | set[str] | tuple[str, ...]) -> list[str]:
    """Gettext codes of the languages derived from one in ``available`` and not in it already.

    ``derived_languages(["de", "sr"])`` is ``["sr@latin"]``.
    """
    have = set(available)
    return [lang.code for lang in _table().values()
            if lang.derived_from in have and lang.code not in have]


def ui_strings(language: Language | str | None) -> dict[str, str]:
    """Our own interface strings in ``language`` (switcher heading, fallback marks, group names).

    The library passes the :class:`Language` it resolved, or ``None`` for the source language's
    strings; a gettext code is looked up in the table first (a convenience for callers that hold
    only a code). Read from ``data/ui/<code>.json``;
    keys missing there come from the source language. A derived language without its own file
    gets its base language's strings converted
    (:func:`patiencebook.generator.catalogs.transliterate.derive_text`). The dict returned is
    shared: copy it before changing it.

    Raises:
        LanguageError: a code that is not in the table, or an interface file that cannot be read.
    """
    return _ui_strings(get_language(language) if isinstance(language, str) else language)


@cache
def _ui_strings(language: Language | None) -> dict[str, str]:
    strings = dict(_read_ui(source_language()))
    if language is None:
        return strings
    own = UI_DIR / f"{language.code}.json"
    if own.exists():
        strings.update(_read_ui(language.code))
    elif language.derived_from:
        from patiencebook.generator.catalogs.transliterate import derive_text

        base = _ui_strings(get_language(language.derived_from))
        strings.update({key: derive_text(value, language.derive) for key, value in base.items()})
    elif "_" in language.code and (UI_DIR / f"{language.code.split('_')[0]}.json").exists():
        strings.update(_read_ui(language.code.split("_")[0]))
    return strings


def _read_ui(code: str) -> dict[str, str]:
    path = UI_DIR / f"{code}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LanguageError(f"cannot read interface strings: {error}", path) from error
    return {key: value for key, value in data.items() if not key.startswith("_")}
