"""Our translations of the Sphinx interface strings that our pages and search page use.

``locale/<lang>/LC_MESSAGES/sphinx.po`` holds them (sr@latin is derived from sr), compiled to
``sphinx.mo`` (Python, templates) and ``sphinx.js`` (the search page). At build time our catalog
comes first and Sphinx's bundled one is the fallback, except for derived languages, whose bundled
catalogs would fall back to another script.
"""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path

from babel.messages import mofile, pofile
from babel.messages.catalog import Catalog

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The Sphinx msgids our rendered pages and search page show, from ``data/ui/sphinx-strings.json``.
USED_STRINGS_FILE = Path(__file__).resolve().parent.parent / "data" / "ui" / "sphinx-strings.json"


def used_strings() -> dict[str, list]:
    """``{"python": [msgid...], "js": [msgid...], "js_plural": [[singular, plural]...]}``."""
    return json.loads(USED_STRINGS_FILE.read_text(encoding="utf-8"))


def catalog_path(language: str, suffix: str = "po", locale_dir: Path = LOCALE_DIR) -> Path:
    """``locale/<language>/LC_MESSAGES/sphinx.<suffix>``."""
    return locale_dir / language / "LC_MESSAGES" / f"sphinx.{suffix}"


def sphinx_catalog(language: str, suffix: str = "mo") -> Path | None:
    """Sphinx's own bundled ``sphinx.<suffix>`` for Sphinx language ``language``: its folder of that
    name, else the one folder of the same language with a region (Sphinx ships Ukrainian as
    ``uk_UA``), else ``None``."""
    bundled = _bundled()
    exact = catalog_path(language, suffix, bundled)
    if exact.is_file():
        return exact
    if "_" in language or "@" in language:
        return None
    regional = sorted(path for path in bundled.glob(f"{language}_*/LC_MESSAGES/sphinx.{suffix}")
                      if "@" not in path.parent.parent.name)
    return regional[0] if len(regional) == 1 else None


def translations_js(language: str) -> str | None:
    """The ``translations.js`` a site in Sphinx language ``language`` gets: ours (``sphinx.js``),
    else Sphinx's bundled catalog (:func:`sphinx_catalog`) written by :func:`js_catalog`, else
    ``None`` (English)."""
    ours = catalog_path(language, "js")
    if ours.is_file():
        return ours.read_text(encoding="utf-8")
    bundled = sphinx_catalog(language, "po")
    if bundled is None:
        return None
    with bundled.open("rb") as stream:
        catalog = pofile.read_po(stream)
    try:
        return js_catalog(catalog, language)
    except ValueError:
        return None


def sphinx_coverage(language: str, source: str = "en") -> tuple[int, int]:
    """``(translated, total)``: how many of the Sphinx strings our pages use (:func:`used_strings`)
    Sphinx language ``language`` shows translated, by our catalog or else Sphinx's own; the source
    language ``source`` (and its regional forms) has them all."""
    used = used_strings()
    msgids = used["python"] + used["js"] + [singular for singular, _ in used["js_plural"]]
    if language.split("_")[0].split("@")[0] == source:
        return len(msgids), len(msgids)
    catalogs = []
    for path in (catalog_path(language, "po"), sphinx_catalog(language, "po")):
        if path is not None and path.is_file():
            with path.open("rb") as stream:
                catalogs.append(pofile.read_po(stream))

    def translated(msgid: str) -> bool:
        # A msgstr may equal its msgid ("Index" in German): what counts is that it is there.
        return any((message := catalog.get(msgid)) is not None and not message.fuzzy
                   and all(message.string if isinstance(message.string, (list, tuple)) else [message.string])
                   for catalog in catalogs)
    return sum(1 for msgid in msgids if translated(msgid)), len(msgids)


def install(app, language: str | None, derived: bool = False) -> bool:
    """Put our ``sphinx.mo`` for Sphinx language ``language`` in front of Sphinx's interface translations.

    Returns ``False`` when we ship none for ``language``. Sphinx's own catalog stays the fallback,
    except for a ``derived`` language (``sr@latin``, made from another language's catalog), where
    gettext's fallback would be the Cyrillic ``sr`` catalog: there English is the fallback. Where
    Sphinx has its catalog only under a region (``uk_UA`` for ``uk``), that one is installed.
    """
    import sphinx.locale

    if not language:
        return False
    path = catalog_path(language, "mo")
    key = ("general", "sphinx")
    if not path.is_file():
        bundled = sphinx_catalog(language)
        if bundled is not None and bundled != catalog_path(language, "mo", _bundled()):
            with bundled.open("rb") as stream:
                found = gettext.GNUTranslations(stream)
            sphinx.locale.translators[key] = found
            app.translator = found
        return False
    with path.open("rb") as stream:
        ours = gettext.GNUTranslations(stream)
    current = sphinx.locale.translators.get(key)
    if not derived and current is not None and current is not ours:
        ours.add_fallback(current)
    sphinx.locale.translators[key] = ours
    app.translator = ours
    return True


def _bundled() -> Path:
    from sphinx import package_dir

    return Path(package_dir) / "locale"


def js_catalog(catalog: Catalog, locale: str) -> str:
    """The ``sphinx.js`` text for ``catalog``: what Sphinx's ``Documentation.addTranslations({...})``
    does, with only translated, non-fuzzy messages (plural messages as lists), written out as
    statements: doctools.js builds the plural function with ``new Function``, which the served
    site's Content-Security-Policy (no ``unsafe-eval``) refuses, so the function is written here as
    code. Raises ``ValueError`` when the Plural-Forms expression holds anything but ``n``, numbers,
    operators and parentheses."""
    messages: dict[str, object] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, (list, tuple)):
            if all(message.string):
                messages[message.id[0]] = list(message.string)
        elif message.string:
            messages[message.id] = message.string
    expression = catalog.plural_expr
    if not re.fullmatch(r"[n0-9\s()?:<>=!&|%+*/-]+", expression):
        raise ValueError(f"{locale}: a Plural-Forms expression of n, numbers and operators only, not {expression!r}")
    body = json.dumps(dict(sorted(messages.items())), ensure_ascii=False, indent=4)
    # doctools.js indexes the plural forms with this expression's value: make a boolean a number.
    return (f"Object.assign(Documentation.TRANSLATIONS, {body});\n"
            f"Documentation.PLURAL_EXPR = (n) => +({expression});\n"
            f"Documentation.LOCALE = {json.dumps(locale)};\n")


def compile_catalogs(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Derive the sr@latin ``sphinx.po`` from sr's, then write ``sphinx.mo`` and ``sphinx.js`` beside
    every ``sphinx.po`` under ``locale_dir``. Returns the files written. Run after editing a PO file:
    ``python -m patiencebook.generator.sphinxext.uicatalog``."""
    from patiencebook.generator.languages import languages
    from patiencebook.generator.catalogs.transliterate import derive_catalog

    written: list[Path] = []
    table = languages().values()
    for language in table:
        base = catalog_path(language.derived_from, locale_dir=locale_dir) if language.derived_from else None
        if base is not None and base.is_file():
            with base.open("rb") as stream:
                catalog = pofile.read_po(stream, locale=language.derived_from.replace("@", "_"))
            derived = derive_catalog(catalog, language.babel, language.derive)
            derived.header_comment = ("# Sphinx interface strings for Patience Book, Serbian in Latin script.\n"
                                      "# Derived from ../../sr/LC_MESSAGES/sphinx.po; do not edit by hand.")
            target = catalog_path(language.sphinx, locale_dir=locale_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as stream:
                pofile.write_po(stream, derived, width=0, omit_header=False)
            written.append(target)
    # Folders are named by Sphinx language; a folder the table lacks reads as its language's locale.
    babel_locales = {language.sphinx: language.babel for language in table}
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/sphinx.po")):
        language = po.parent.parent.name
        with po.open("rb") as stream:
            catalog = pofile.read_po(stream, locale=babel_locales.get(language, language.split("@")[0]))
        with po.with_suffix(".mo").open("wb") as stream:
            mofile.write_mo(stream, catalog)
        po.with_suffix(".js").write_text(js_catalog(catalog, language), encoding="utf-8")
        written += [po.with_suffix(".mo"), po.with_suffix(".js")]
    return written


if __name__ == "__main__":  # pragma: no cover
    for written_path in compile_catalogs():
        print(f"wrote {written_path}")
