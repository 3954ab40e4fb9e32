"""Languages: any gettext code CLDR knows, with its facts from CLDR.

A language is whatever a catalogs folder holds (``de``, ``pt_BR``, ``sr@latin``, ``zh_CN``). Its
facts come from CLDR through Babel: the BCP 47 tag (with the script where the language is written
in more than one, ``sr-Cyrl``, ``kk-Cyrl``, ``zh-Hans``), the script, its name in itself and in
English, the text direction, the gettext plural rule and the Snowball stemmer named for it; sorting
follows its collation through ICU (:func:`sort_key`). Only what CLDR cannot know is our data, in
``data/languages.json``: the language of the sources and the languages derived from another one
(``sr@latin`` from ``sr``). Our own interface strings per language live in ``data/ui/<code>.json``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Callable, Iterable, Mapping

from babel import Locale, UnknownLocaleError
from babel.core import get_global, parse_locale
from babel.messages.plurals import get_plural

from patiencebook.generator.errors import LanguageError

DATA_DIR = Path(__file__).resolve().parent / "data"
LANGUAGES_FILE = DATA_DIR / "languages.json"
UI_DIR = DATA_DIR / "ui"

#: A second script counts (and is named in the tag) when CLDR's territory data give it at least
#: this share of some territory's population (Serbian in Latin script, Kazakh in Arabic script in
#: Mongolia, Chinese in Traditional characters), not for a script kept alive by a few (English in
#: Shavian).
SCRIPT_SHARE_PERCENT = 1.0
#: The script a POSIX locale modifier stands for (``sr_RS@latin``).
_MODIFIER_SCRIPTS = {"latin": "Latn", "cyrillic": "Cyrl"}


@dataclass(frozen=True, slots=True)
class Language:
    """One language, with the facts of it the build and the checks use.

    Attributes:
        code: gettext code, as in catalog folder names (``"sr@latin"``, ``"en_GB"``, ``"zh_CN"``).
        bcp47: BCP 47 tag for HTML ``lang``/``hreflang`` (``"sr-Latn"``, ``"en-GB"``, ``"zh-Hans"``).
        babel: Babel/CLDR locale identifier (``"sr_Latn"``, ``"zh_Hans"``); also ICU's, for collation.
        sphinx: the value given to Sphinx's ``language`` setting (the gettext code).
        script: ISO 15924 script code (``"Cyrl"``, ``"Latn"``, ``"Grek"``, ``"Hans"``).
        native_name: the language's name in itself, from CLDR (``"srpski (latinica)"``).
        english_name: its name in English, from CLDR (``"Serbian (Latin)"``).
        direction: ``"ltr"`` or ``"rtl"``, from CLDR.
        plural_forms: the gettext ``Plural-Forms`` value, from CLDR's plural rules
            (``"nplurals=2; plural=(n != 1);"``).
        snowball: the Snowball stemming algorithm for the language (``"french"``), or ``None``
            when Snowball has none.
        derived_from: gettext code of the language this one is made from at build time, or ``None``.
        derive: how it is made (``"cyrillic-to-latin"``), or ``None``.
    """

    code: str
    bcp47: str
    babel: str
    sphinx: str
    script: str
    native_name: str
    english_name: str
    direction: str
    plural_forms: str
    snowball: str | None = None
    derived_from: str | None = None
    derive: str | None = None

    @property
    def is_derived(self) -> bool:
        """True when the catalog of this language is derived from another language's catalog."""
        return self.derived_from is not None

    @property
    def base(self) -> str:
        """The ISO 639 language subtag (``"sr"`` for ``sr@latin``, ``"zh"`` for ``zh_CN``)."""
        return self.babel.split("_")[0]

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
        """The language :meth:`as_dict` gave ``data`` for, taken as it is (CLDR is not read).

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
def _data() -> dict:
    try:
        raw = json.loads(LANGUAGES_FILE.read_text(encoding="utf-8"))
        if not isinstance(raw.get("source"), str) or not isinstance(raw.get("derived"), dict):
            raise ValueError("it needs \"source\" (a code) and \"derived\" (an object)")
    except (OSError, ValueError) as error:
        raise LanguageError(f"cannot read the language data: {error}", LANGUAGES_FILE) from error
    return raw


def _likely(lang: str, script: str | None, region: str | None) -> tuple[str | None, str | None]:
    """CLDR's likely script and region of ``lang`` (given the script or region already known)."""
    likely = get_global("likely_subtags")
    for key in ([f"{lang}_{script}_{region}"] if script and region else []) + \
               ([f"{lang}_{region}"] if region else []) + ([f"{lang}_{script}"] if script else []) + [lang]:
        if key in likely:
            parts = likely[key].split("_")
            found_script = next((p for p in parts[1:] if len(p) == 4), None)
            found_region = next((p for p in parts[1:] if len(p) in (2, 3) and p.isupper() or p.isdigit()), None)
            return script or found_script, region or found_region
    return script, region


@cache
def _scripts_in_use(lang: str) -> frozenset[str]:
    """Scripts other than the likely one that CLDR's territory data give ``lang`` a real share in."""
    found = set()
    for languages_there in get_global("territory_languages").values():
        for key, info in languages_there.items():
            parts = key.split("_")
            if parts[0] == lang and len(parts) > 1 and info.get("population_percent", 0) >= SCRIPT_SHARE_PERCENT:
                found.add(parts[1])
    return frozenset(found)


@cache
def _snowball_algorithms() -> frozenset[str]:
    import snowballstemmer

    return frozenset(snowballstemmer.algorithms())


def _parse_code(code: str) -> tuple[str, str | None, str | None, str | None]:
    """``(language, script, region, variant)`` of a gettext code, BCP 47 tag or CLDR identifier.

    Raises:
        LanguageError: the code is not of that form.
    """
    text = re.sub(r"\.[^@]*", "", code.strip())  # the encoding of a POSIX locale
    base, _, modifier = text.partition("@")
    try:
        lang, region, script, variant = parse_locale(base.replace("-", "_"))[:4]
    except ValueError:
        raise LanguageError(f"unknown language {code!r}: not a language code") from None
    if modifier:
        named = _MODIFIER_SCRIPTS.get(modifier.lower()) or (modifier.title() if len(modifier) == 4 else None)
        if named:
            script = named
        else:
            variant = modifier.upper()
    return lang.lower(), script, region, variant


@cache
def _from_cldr(code: str) -> Language:
    lang, script, region, variant = _parse_code(code)
    try:
        language_only = Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        raise LanguageError(f"unknown language {code!r}: CLDR has no data for {lang!r}") from None
    full_script, likely_region = _likely(lang, script, None)
    full_script = full_script or "Latn"
    scripted = bool(_scripts_in_use(lang)) or (script is not None and script != _likely(lang, None, None)[0])
    keep_region = region if region and (not scripted or region != likely_region) else None
    parts = [lang] + ([full_script] if scripted else []) + ([keep_region] if keep_region else [])
    babel_id = "_".join(parts + ([variant] if variant else []))
    try:
        locale = Locale.parse(babel_id)
    except (UnknownLocaleError, ValueError):
        locale = language_only  # a combination CLDR has no data for (``ca_ES_VALENCIA``): name it by the language
    tag = "-".join(parts + ([variant.lower()] if variant else []))
    derived = _data()["derived"].get(code) or {}
    snowball = (language_only.get_display_name("en") or "").lower()
    try:
        nplurals, expression = get_plural(locale)
        plural_forms = f"nplurals={nplurals}; plural={expression};"
    except Exception:  # pragma: no cover - Babel always answers, with a default for unknown locales
        plural_forms = "nplurals=2; plural=(n != 1);"
    return Language(
        code=code,
        bcp47=tag,
        babel=babel_id,
        sphinx=code,
        script=full_script,
        native_name=locale.get_display_name() or code,
        english_name=locale.get_display_name("en") or code,
        direction=locale.text_direction or "ltr",
        plural_forms=plural_forms,
        snowball=snowball if snowball in _snowball_algorithms() else None,
        derived_from=derived.get("from"),
        derive=derived.get("derive"),
    )


def gettext_code(code: str) -> str:
    """The gettext code for a code as users write it: ``sr-Latn`` → ``sr@latin``, ``en-GB`` →
    ``en_GB``, ``zh-Hans-CN`` → ``zh_CN``, ``de`` → ``de``; an encoding is dropped.

    Raises:
        LanguageError: the code is not a language code.
    """
    lang, script, region, variant = _parse_code(code)
    likely_script = _likely(lang, None, region)[0]
    modifier = ""
    if script and script != likely_script:
        modifier = next((f"@{name}" for name, value in _MODIFIER_SCRIPTS.items() if value == script), f"@{script}")
    if variant and not modifier:
        modifier = f"@{variant.lower()}"
    return f"{lang}{'_' + region if region else ''}{modifier}"
def source_language() -> str:
    """The gettext code of the language the sources are written in (``"en"``)."""
    return _data()["source"]


def languages() -> dict[str, Language]:
    """The languages the project itself has something for, keyed by gettext code: the source
    language, each language with interface strings of its own (``data/ui/<code>.json``) or an
    embedded catalog (``locales/<code>``), and the languages derived from those. Any other language CLDR knows is still one :func:`get_language`
    gives; it then has the source language's interface strings."""
    from patiencebook.generator.project import default_catalogs

    own = {p.stem for p in UI_DIR.glob("*.json")} - {source_language(), "sphinx-strings"}
    embedded = {p.name for p in default_catalogs().iterdir() if (p / "LC_MESSAGES").is_dir()}
    codes = [source_language()] + sorted(own | embedded)
    codes += [code for code in derived_languages(codes) if code not in codes]
    return {code: get_language(code) for code in codes}


def get_language(code: str) -> Language:
    """The language of gettext ``code`` (``"de"``, ``"pt_BR"``, ``"sr@latin"``), its facts from CLDR.

    Also accepts a BCP 47 tag or CLDR identifier (``"sr-Latn"``, ``"sr_Latn"``, ``"en-GB"``),
    case-insensitively: it is read as the gettext code it stands for (:func:`gettext_code`).

    Raises:
        LanguageError: the code is not a language code, or CLDR does not know the language; the
            message names the code.
    """
    return _from_cldr(gettext_code(code))


def resolve_language(code: str, available: Iterable[str] | None = None) -> Language:
    """The language a code as users write it means: a gettext code (``sr@latin``), a POSIX locale
    (``de_DE``, ``el_GR.UTF-8``, ``sr_RS@latin``, ``sr_RS.UTF-8@latin``), a BCP 47 tag (``de-DE``,
    ``sr-Latn``, ``zh-Hans``) or a CLDR identifier (``sr_Latn_RS``); ``C`` and ``POSIX`` are the
    source language.

    The answer is one of ``available`` (gettext codes, for instance the catalogs there are;
    default: :func:`languages`): the one the code names, by gettext code, tag or CLDR identifier
    (``zh-Hans`` is ``zh_CN``), else, when the code's region is the one CLDR gives the language by
    default, the language without it (``de_DE`` is ``de``, ``uk_UA`` is ``uk``). Another region is a
    language of its own and nothing stands in for it (``en_GB`` is not ``en``), nor for a script
    (``sr@latin`` is not ``sr``).

    Raises:
        LanguageError: no available language matches, naming the code and the choices.
    """
    text = re.sub(r"\.[^@]*", "", code.strip())  # the encoding of a POSIX locale
    if text.upper() in ("C", "POSIX"):
        text = source_language()
    pool = list(dict.fromkeys(available)) if available is not None else list(languages())
    index: dict[str, Language] = {}
    for candidate in pool:
        try:
            found = get_language(candidate)
        except LanguageError:
            continue
        for key in (found.code, found.babel, found.bcp47):
            index.setdefault(_key(key), found)
    choices = ", ".join(sorted({language.code for language in index.values()}))
    refused = LanguageError(f"unknown language {code!r}; known languages: {choices}")
    if _key(text) in index:
        return index[_key(text)]
    try:
        wanted = get_language(text)
        lang, script, region, _ = _parse_code(wanted.code)
    except LanguageError:
        raise refused from None
    keys = [wanted.code, wanted.babel, wanted.bcp47]
    if region and region == _likely(lang, script, None)[1]:
        plain = get_language(wanted.code.replace(f"_{region}", "", 1))
        keys += [plain.code, plain.babel, plain.bcp47]
    for key in keys:
        if _key(key) in index:
            return index[_key(key)]
    raise refused


def _key(code: str) -> str:
    return code.replace("-", "_").lower()


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
    return [code for code, row in _data()["derived"].items() if row.get("from") in have and code not in have]


def derived_from(code: str) -> tuple[str, str] | None:
    """``(base code, conversion)`` when ``code`` is a derived language (``("sr", "cyrillic-to-latin")``
    for ``sr@latin``), else ``None``."""
    row = _data()["derived"].get(code)
    return (row["from"], row["derive"]) if row else None


@cache
def _collator(babel_id: str):
    import icu

    return icu.Collator.createInstance(icu.Locale(babel_id))


def sort_key(language: Language | None) -> Callable[[str], bytes]:
    """A key function sorting strings by ``language``'s collation (ICU's, from CLDR's collation
    data): ``sorted(names, key=sort_key(get_language("de")))`` puts "Adlerschwinge" before "Canfield"
    and, in Swedish, "Ängel" after "Zebra". ``None`` sorts by the source language's collation."""
    collator = _collator((language or get_language(source_language())).babel)
    return collator.getSortKey


def ui_strings(language: Language | str | None) -> dict[str, object]:
    """Our own interface strings in ``language`` (switcher heading, fallback marks, group names,
    the messages of play), plus ``plural_rules``.

    The library passes the :class:`Language` it resolved, or ``None`` for the source language's
    strings; a gettext code is looked up in the table first (a convenience for callers that hold
    only a code). Read from ``data/ui/<code>.json``;
    keys missing there come from the source language. A derived language without its own file
    gets its base language's strings converted
    (:func:`patiencebook.generator.catalogs.transliterate.derive_text`, every text of a plural
    template or a forms table too). Most values are texts; the message templates of play may be
    plural objects, and ``card_ranks``, ``pile_forms``, ``card_forms`` are data, all in the format
    of :mod:`patiencebook.engine.wording`. ``plural_rules`` is added: the CLDR plural rules
    (:func:`plural_rules`) of the language the messages are written in (the source language's when
    ``language`` has no interface file). The dict returned is shared: copy it before changing it.

    Raises:
        LanguageError: a code that is not in the table, or an interface file that cannot be read
            or breaks the message format (naming the file and the key).
    """
    return _ui_with_rules(get_language(language) if isinstance(language, str) else language)


@cache
def _ui_with_rules(language: Language | None) -> dict[str, object]:
    strings = dict(_ui_strings(language))
    code = _ui_code(language) or source_language()
    strings["plural_rules"] = plural_rules(get_language(code))
    return strings


def _ui_code(language: Language | None) -> str | None:
    """The code of the interface file whose words ``language`` gets (its own, the one it is
    derived from, its base language's), or ``None`` when it has none and speaks the source's."""
    if language is None:
        return None
    for code in (language.code, language.derived_from, language.code.split("_")[0]):
        if code and (UI_DIR / f"{code}.json").is_file():
            return language.code if code == language.derived_from else code
    return None


def plural_rules(language: Language) -> dict[str, str]:
    """The CLDR plural rules of ``language`` as Babel states them: plural category -> condition in
    the syntax of Unicode TR35 (``{"one": "i in 1 and v in 0"}``; ``other`` is left out, Chinese
    has ``{}``). The engine picks a message's plural form by them
    (:mod:`patiencebook.engine.plurals`)."""
    return dict(_babel_locale(language.babel).plural_form.rules)


def plural_categories(language: Language) -> frozenset[str]:
    """The plural categories of ``language`` by CLDR, ``other`` included (``{"one", "other"}``)."""
    return frozenset(_babel_locale(language.babel).plural_form.tags) | {"other"}


@cache
def _babel_locale(babel_id: str) -> Locale:
    try:
        return Locale.parse(babel_id)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(babel_id.split("_")[0])


def _derive(value: object, how: str | None) -> object:
    from patiencebook.generator.catalogs.transliterate import derive_text

    if isinstance(value, str):
        return derive_text(value, how)
    if isinstance(value, Mapping):
        return {key: _derive(item, how) for key, item in value.items()}
    return value


@cache
def _ui_strings(language: Language | None) -> dict[str, object]:
    strings = dict(_read_ui(source_language()))
    if language is None:
        return strings
    own = UI_DIR / f"{language.code}.json"
    if own.exists():
        strings.update(_read_ui(language.code))
    elif language.derived_from:
        base = _ui_strings(get_language(language.derived_from))
        strings.update({key: _derive(value, language.derive) for key, value in base.items()})
    elif "_" in language.code and (UI_DIR / f"{language.code.split('_')[0]}.json").exists():
        strings.update(_read_ui(language.code.split("_")[0]))
    return strings


def ui_coverage(language: Language | None) -> tuple[int, int]:
    """``(in the language, total)``: how many of our interface strings :func:`ui_strings` gives
    ``language`` in that language (its own file, its base language's file, or derived), out of
    the source language's. The source language and its regional forms (``en_GB``) have them all.
    A string missing is shown in English."""
    english = _ui_strings(None)
    if language is None:
        return len(english), len(english)
    return sum(1 for key in english if ui_string_tag(language, key) == language.bcp47), len(english)


def ui_string_tag(language: Language, key: str) -> str:
    """The BCP 47 tag of the language :func:`ui_strings` gives ``language``'s string ``key`` in:
    ``language.bcp47`` when it has its own wording (its file, its base language's, or the one it is
    derived from), else the source language's tag, whose text stands in (to be marked so where it
    is shown). Reads no language data, only the interface files."""
    source = source_language()
    if language.base == source.split("_")[0] or _has_own(language, key):
        return language.bcp47
    return source.replace("_", "-")


def _has_own(language: Language, key: str) -> bool:
    """Whether ``language``'s own (or base) interface file states ``key``, even as the English text."""
    for code in (language.code, language.derived_from, language.code.split("_")[0]):
        if code and (UI_DIR / f"{code}.json").is_file():
            return key in _read_ui(code)
    return False


@cache
def _read_ui(code: str) -> dict[str, object]:
    """The strings of ``data/ui/<code>.json`` (read once; the dict is shared: do not change it),
    checked against the message format (:func:`patiencebook.engine.wording.check_interface`) with
    the plural categories of the language ``code``; keys starting with ``_`` are comments."""
    from patiencebook.engine.wording import check_interface

    path = UI_DIR / f"{code}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise LanguageError(f"cannot read interface strings: {error}", path) from error
    if not isinstance(data, dict):
        raise LanguageError("interface strings must be a JSON object of keys and texts", path)
    strings = {key: value for key, value in data.items() if not key.startswith("_")}
    problems = check_interface(strings, plural_categories(get_language(code)))
    if problems:
        raise LanguageError("interface strings break the message format: "
                            + "; ".join(f"{key}: {problem}" for key, problem in problems), path)
    return strings
