"""What a build reports: per language and for the whole site, and the root index page listing the languages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Sequence

from patiencebook.generator.languages import Language, ui_strings
from patiencebook.generator.site.sphinxsources import FAVICON


@dataclass(frozen=True, slots=True)
class LanguageReport:
    """What one language's build produced.

    Attributes:
        lang: gettext code; ``bcp47``: its HTML tag.
        total: translatable blocks in the book; ``translated``: shown in the language;
            ``fuzzy``/``untranslated``: shown in English, and why.
        warnings: Sphinx and parser warnings of this language, one line each.
        seconds: wall time of this language's build (in its worker process).
        findings: translator-check findings shown on the language's report page (for ``en``, those
            of the sources against the rules model), rendered-page findings included.
        rendered: the rendered-page findings (check ``rendered``), one line each, also in ``warnings``.
        check_seconds: of ``seconds``, the time spent in the checks and the report page.
        pages: HTML pages of the language (the index and report pages included).
        reused: the pages were taken unchanged from the last build (nothing they are made from
            changed); ``seconds`` is then that build's time.
    """

    lang: str
    bcp47: str
    total: int
    translated: int
    fuzzy: int
    untranslated: int
    warnings: tuple[str, ...] = ()
    seconds: float = 0.0
    findings: int = 0
    rendered: tuple[str, ...] = ()
    check_seconds: float = 0.0
    pages: int = 0
    reused: bool = False

    @property
    def coverage(self) -> float:
        """``translated / total``, 0.0 to 1.0 (1.0 for an empty book)."""
        return 1.0 if self.total == 0 else self.translated / self.total

    def summary(self) -> str:
        """One line: ``de: 1234/1500 blocks translated (82.3 %), 10 fuzzy, 256 untranslated``."""
        return (f"{self.lang}: {self.translated}/{self.total} blocks translated ({self.coverage * 100:.1f} %), "
                f"{self.fuzzy} fuzzy, {self.untranslated} untranslated")


@dataclass(frozen=True, slots=True)
class BuildReport:
    """The result of :func:`build_site`: the output folder, one report per language (in build
    order), wall time in seconds, site-level warnings, and which game pages have an engine model."""

    out: Path
    languages: tuple[LanguageReport, ...]
    seconds: float
    warnings: tuple[str, ...] = field(default=())
    #: what the build chose and why (which catalog a derived language was built from)
    notes: tuple[str, ...] = field(default=())
    #: slugs of the game pages with no engine model (no rules block, none in the embedded rules)
    without_model: tuple[str, ...] = ()
    #: slugs of the game pages that took their engine model from the embedded rules
    models: tuple[str, ...] = ()

    def language(self, lang: str) -> LanguageReport:
        """The report of gettext code ``lang``; raises ``KeyError`` when it was not built."""
        for report in self.languages:
            if report.lang == lang:
                return report
        raise KeyError(lang)

    @property
    def all_warnings(self) -> tuple[str, ...]:
        """Site-level warnings followed by every language's warnings."""
        return self.warnings + tuple(w for report in self.languages for w in report.warnings)


def report_from_state(state: dict, lang: str) -> LanguageReport | None:
    """The report a cache state holds for ``lang``, marked reused; ``None`` when it is not a whole,
    well-typed report (the language is then built again)."""
    data = state.get("report")
    if not isinstance(data, dict) or data.get("lang") != lang:
        return None
    fields = LanguageReport.__dataclass_fields__
    try:
        values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k in fields}
        report = LanguageReport(**{**values, "reused": True})
    except (TypeError, ValueError):
        return None
    numbers = (report.total, report.translated, report.fuzzy, report.untranslated, report.findings, report.pages)
    texts = (report.warnings, report.rendered)
    if not all(isinstance(n, int) and n >= 0 for n in numbers) or not isinstance(report.bcp47, str) \
            or not all(isinstance(t, tuple) and all(isinstance(w, str) for w in t) for t in texts) \
            or not isinstance(report.seconds, (int, float)) or not isinstance(report.check_seconds, (int, float)):
        return None
    return report


def root_index_html(title: str, reports: Sequence[LanguageReport], languages: Sequence[Language],
                    source: Language) -> str:
    """The site's root page, in the ``source`` language: every language, named in itself, with its
    coverage, linking to ``<lang>/``. ``languages`` are those of ``reports``, in the same order.
    Raises ``ValueError`` when the two do not name the same languages."""
    from babel.numbers import format_percent

    if [report.lang for report in reports] != [language.code for language in languages]:
        raise ValueError("root_index_html: the reports and the languages differ")
    from patiencebook.generator.languages import sort_key, ui_string_tag

    items = []
    collate = sort_key(source)
    # The source language first, then the others by name in the source language's collation.
    pairs = sorted(zip(reports, languages), key=lambda pair: (pair[1].code != source.code,
                                                               collate(pair[1].display_name)))
    for report, language in pairs:
        ui = ui_strings(language)
        said_in = ui_string_tag(language, "coverage")
        # Rounded down to a tenth of a per cent, so an incomplete translation never reads 100 %.
        share = (report.translated * 1000 // report.total) / 1000 if report.total else 1.0
        percent = format_percent(share, locale=language.babel, decimal_quantization=False)
        coverage = escape(ui["coverage"].format(percent=percent))
        items.append(f'    <li><a href="{escape(language.code)}/index.html" hreflang="{language.bcp47}" '
                     f'lang="{language.bcp47}">{escape(language.display_name)}</a> '
                     f'<span class="coverage" lang="{said_in}">{coverage}</span></li>')
    ui_en = ui_strings(source)
    return f"""<!DOCTYPE html>
<html lang="{source.bcp47}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)}</title>
  <link rel="icon" type="image/svg+xml" href="{escape(reports[0].lang)}/_static/{FAVICON.name}">
  <style>
    body {{ font-family: Georgia, serif; max-width: 40em; margin: 2em auto; padding: 0 1em; color: #333; }}
    li {{ margin: 0.4em 0; font-size: 1.2em; }}
    .coverage {{ color: #777; font-size: 0.75em; margin-left: 0.5em; }}
  </style>
</head>
<body>
  <h1>{escape(title)}</h1>
  <nav aria-label="{escape(ui_en['languages'])}">
  <ul>
{chr(10).join(items)}
  </ul>
  </nav>
</body>
</html>
"""
