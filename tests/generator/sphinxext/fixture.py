"""Builds the example pages of tests/data/sphinxext/examples/<lang>/ with our Sphinx extension.

Those pages are written as the site build writes its Sphinx sources: an ``example`` with a hand-made
trace, a setup picture and a live board element. Used by the parser tests and the browser tests.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Callable

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "sphinxext" / "examples"
LANGS = ("de", "el")


def build_examples(out: Path, doctrees: Path, langs: tuple[str, ...] = LANGS,
                   edit: Callable[[str], str] | None = None) -> dict[str, tuple]:
    """Build each language into ``out/<lang>/``; returns ``{lang: (doctree of "demo", warnings text)}``.

    ``edit``, when given, changes the text of each demo.xml before the build (to make a broken page).
    """
    import sphinx.locale
    from sphinx.application import Sphinx
    from sphinx.util.console import nocolor
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    nocolor()
    result = {}
    for lang in langs:
        src = doctrees / f"src-{lang}"
        shutil.copytree(EXAMPLES / lang, src)
        if edit is not None:
            page = src / "demo.xml"
            page.write_text(edit(page.read_text(encoding="utf-8")), encoding="utf-8")
        (src / "conf.py").write_text(
            "extensions = ['patiencebook.generator.sphinxext']\n"
            f"language = {lang!r}\npatiencebook_language = {lang!r}\n"
            f"patiencebook_languages = {list(langs)!r}\nroot_doc = 'index'\nhtml_theme = 'alabaster'\n"
            "html_theme_options = {'github_button': False}\n", encoding="utf-8")
        warnings = io.StringIO()
        sphinx.locale.translators.clear()
        try:
            with patch_docutils(src), docutils_namespace():
                app = Sphinx(str(src), str(src), str(out / lang), str(doctrees / f"doctrees-{lang}"), "html",
                             status=None, warning=warnings, freshenv=True)
                app.build(force_all=True)
                doctree = app.env.get_and_resolve_doctree("demo", app.builder, tags=app.tags)
        finally:
            sphinx.locale.translators.clear()
        result[lang] = (doctree, warnings.getvalue())
    return result
