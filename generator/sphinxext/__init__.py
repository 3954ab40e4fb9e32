"""Sphinx extension: renders translated DocBook pages with a language switcher and search.

Enable it as ``extensions = ["patiencebook.generator.sphinxext"]``. It registers the DocBook source
parser (``.xml`` files), the fallback nodes, a search language for the page's language, our translations of
Sphinx's interface strings, a language switcher on every page and ``<html lang>`` as BCP 47, and the
scripts of the step-through examples and the live board (``static/pb-*.js``, classic scripts, linked
as the bundles of :data:`BUNDLES`).

Settings (:mod:`.settings`): ``patiencebook_language`` (gettext code of this build, default:
``language``), ``patiencebook_languages`` (gettext codes of every language of the site, for the
switcher; each language lives in a sibling folder named by its code) and
``patiencebook_language_table`` (those languages' facts as the site build resolved them; a project
that sets only ``language`` can leave it out).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Sequence

from sphinx.application import Sphinx
from sphinx.config import Config

from patiencebook.generator.languages import Language
from patiencebook.generator.sphinxext import nodes as pb_nodes
from patiencebook.generator.sphinxext import settings, uicatalog
from patiencebook.generator.sphinxext.parser import DocBookParser
from patiencebook.generator.sphinxext import search

HERE = Path(__file__).resolve().parent
TEMPLATES_DIR = HERE / "templates"
STATIC_DIR = HERE / "static"
CSS_FILE = "patiencebook.css"
#: Scripts and styles of the examples and the live board, in load order (the card renderer first).
#: A file missing from static/ is skipped, so a build without the live board still works.
SCRIPT_FILES = ("pb-cards.js", "pb-example.js", "pb-board.js", "pb-board-start.js")
STYLE_FILES = ("pb-cards.css", "pb-example.css", "pb-board.css")
#: What a page links: each bundle is its sources of static/ one after the other, written into the
#: build's _static (the sources are copied there too), so a page makes three requests, not eight.
#: Every script is deferred (the page is parsed without waiting for any), the renderer and the
#: examples fetched with high priority and run first of all, as soon as the page is parsed, so the
#: examples are drawn before Sphinx's scripts and the board's run.
BUNDLES = {
    "pb-style.css": (CSS_FILE,) + STYLE_FILES,
    "pb-examples.js": SCRIPT_FILES[:2],
    "pb-boards.js": SCRIPT_FILES[2:],
}
SCRIPT_LOADING = {
    "pb-examples.js": {"loading_method": "defer", "fetchpriority": "high", "priority": 100},
    "pb-boards.js": {"loading_method": "defer"},
}
__version__ = "0.1.0"


def _on_config_inited(app: Sphinx, config: Config) -> None:
    if str(TEMPLATES_DIR) not in map(str, config.templates_path):
        config.templates_path.append(str(TEMPLATES_DIR))
    if str(STATIC_DIR) not in map(str, config.html_static_path):
        config.html_static_path.append(str(STATIC_DIR))
    settings.resolve_languages(config)
    language = settings.page_language(config)
    if language is not None:
        # Every language searches with folding (and Snowball stemming where there is an algorithm).
        config.html_search_language = search.register(language)
    uicatalog.install(app, config.language, derived=language is not None and language.is_derived)


def switcher_entries(current: Language, languages: Sequence[Language], pagename: str) -> list[dict[str, Any]]:
    """The language switcher of page ``pagename`` in language ``current``, one dict per site
    language of ``languages``: ``code``, ``bcp47``, ``name`` (native, from CLDR), ``url``
    (relative, to the same page in that language) and ``current``, sorted by name in ``current``'s
    collation (its own script first where CLDR orders so, as in Greek, Russian or Serbian)."""
    from patiencebook.generator.languages import sort_key

    up = "../" * (pagename.count("/") + 1)
    collate = sort_key(current)
    languages = sorted(languages, key=lambda language: collate(language.display_name))
    return [{"code": language.code, "bcp47": language.bcp47, "name": language.display_name,
             "url": f"{up}{language.code}/{pagename}.html", "current": language.code == current.code}
            for language in languages]


def _on_html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                          doctree) -> None:
    from patiencebook.generator.languages import ui_string_tag, ui_strings

    _cache_stemmer(app)
    _install_translations_js(app)
    _write_bundles(app)
    _drop_marks_from_titles(context)
    if pagename != "search" and isinstance(context.get("script_files"), list):
        context["script_files"][:] = [_deferred(script) for script in context["script_files"]]
    language = settings.page_language(app.config)
    if language is None:
        return
    # Sphinx writes <html lang="{{ language }}"> from its own setting ("sr@latin"); HTML wants BCP 47.
    context["language"] = language.bcp47
    context["pb_ui"] = ui_strings(language)
    # Our strings still in English here (no wording of them in this language yet) are marked so.
    context["pb_ui_lang"] = {key: ui_string_tag(language, key) for key in ("languages",)}
    context["pb_languages"] = switcher_entries(language, settings.site_languages(app.config), pagename)


def _deferred(script: Any) -> Any:
    """``script`` (a Sphinx script asset) loaded with ``defer`` when it would block the parser: a
    file of the site without ``async`` or ``defer``. Deferred scripts still run in their order,
    after the page is parsed and before DOMContentLoaded, where Sphinx's own start their work; the
    parser then no longer waits for them and the style sheets before it reads the page, and the
    examples' bundle, first of them, runs as soon as the page is parsed. The search page keeps
    them as they are: its ``searchtools.js``, written by the template after them without ``defer``,
    needs them first."""
    attributes = getattr(script, "attributes", None)
    filename = str(getattr(script, "filename", "") or "")
    if (not isinstance(attributes, dict) or not filename or "://" in filename or "body" in attributes
            or "async" in attributes or "defer" in attributes):
        return script
    return type(script)(script.filename, priority=script.priority, **{**attributes, "defer": "defer"})


_MARK = re.compile(r'<span class="pb-fallback-mark"[^>]*>[^<]*</span>')


def _drop_marks_from_titles(context: dict[str, Any]) -> None:
    """Leave the fallback mark out of the titles Sphinx shows as plain text (the ``<title>``, the
    ``rel="next"``/``"prev"`` links, the breadcrumbs): there it would run into the title's words
    ("Klondikenot translated"). The page's heading keeps it."""
    if isinstance(context.get("title"), str):
        context["title"] = _MARK.sub("", context["title"])
    for key in ("next", "prev"):
        if isinstance(context.get(key), dict) and isinstance(context[key].get("title"), str):
            context[key] = {**context[key], "title": _MARK.sub("", context[key]["title"])}
    if isinstance(context.get("parents"), list):
        context["parents"] = [{**parent, "title": _MARK.sub("", parent.get("title", ""))}
                              if isinstance(parent, dict) else parent for parent in context["parents"]]


def _cache_stemmer(app: Sphinx) -> None:
    # Sphinx memoises stems per page only; the same words recur on every page, so keep one cache
    # for the whole build (the first page is indexed before the first page context, uncached).
    indexer = getattr(app.builder, "indexer", None)
    language = getattr(indexer, "lang", None)
    if language is not None and not getattr(language, "_pb_stem_cached", False):
        language.stem = functools.lru_cache(maxsize=None)(language.stem)
        language._pb_stem_cached = True


def _install_translations_js(app: Sphinx) -> None:
    # Sphinx copies its bundled translations.js before writing pages; ours replaces it before the
    # first page is rendered, so the pages' ?v= checksums are those of our file. Where we ship no
    # catalog, Sphinx's own is written out the same way (uicatalog.js_catalog): its bundled file
    # builds the plural function with `new Function`, which the served site's
    # Content-Security-Policy refuses, and it sits under the region only for some languages.
    if getattr(app, "_pb_translations_js", False) or app.builder.format != "html":
        return
    text = uicatalog.translations_js(app.config.language or "")
    if text is not None:
        target = Path(app.outdir) / "_static" / "translations.js"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    app._pb_translations_js = True


def _write_bundles(app: Sphinx) -> None:
    # Written, like translations.js, before the first page is rendered, so that the pages' ?v=
    # checksums are those of the bundles.
    if getattr(app, "_pb_bundles", False) or app.builder.format != "html":
        return
    folder = Path(app.outdir) / "_static"
    folder.mkdir(parents=True, exist_ok=True)
    for name, sources in BUNDLES.items():
        parts = [(STATIC_DIR / source).read_text(encoding="utf-8") for source in sources
                 if (STATIC_DIR / source).is_file()]
        if parts:
            text = "".join(part.rstrip("\n") + "\n" for part in parts)
            target = folder / name
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
    app._pb_bundles = True


def _on_builder_inited(app: Sphinx) -> None:
    language = app.config.language or ""
    if app.builder.format == "html" and (uicatalog.catalog_path(language, "js").is_file()
                                         or uicatalog.sphinx_catalog(language, "po") is not None):
        # Sphinx adds translations.js only when it has a bundled one; we ship ours for each language.
        app.builder.add_js_file("translations.js")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the parser, nodes, templates, CSS, scripts and event handlers."""
    settings.add_settings(app)
    app.add_source_suffix(".xml", "docbook")
    app.add_source_parser(DocBookParser)
    for node_class, visitors in {**pb_nodes.FALLBACK_NODES, **pb_nodes.EXAMPLE_NODES, **pb_nodes.LANG_NODES}.items():
        app.add_node(node_class, override=True, **visitors)
    for name, sources in BUNDLES.items():
        if any((STATIC_DIR / source).is_file() for source in sources):
            if name.endswith(".css"):
                app.add_css_file(name)
            else:
                app.add_js_file(name, **SCRIPT_LOADING.get(name, {}))
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("html-page-context", _on_html_page_context)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 2}
