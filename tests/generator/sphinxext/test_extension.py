"""The Sphinx extension: DocBook parser, fallback nodes, search languages, interface catalogs.

Parser tests run Sphinx in this process on the small pages in tests/data/sphinxext/<lang>/.
"""

from __future__ import annotations

import gettext
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from docutils import nodes

from patiencebook.generator.languages import get_language
from patiencebook.generator.sphinxext import switcher_entries, uicatalog
from patiencebook.generator.sphinxext.nodes import fallback_block, fallback_inline
from patiencebook.generator.sphinxext.search import search_language, split_words

DATA = Path(__file__).resolve().parents[2] / "data" / "sphinxext"
LANGS = {"en": "en", "de": "de"}


def _build(lang: str, tmp_path: Path):
    """Build tests/data/sphinxext/<lang> with the extension; returns (app, warnings, outdir)."""
    import sphinx.locale
    from sphinx.application import Sphinx
    from sphinx.util.console import nocolor
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    src = tmp_path / f"src-{lang}"
    shutil.copytree(DATA / lang, src)
    (src / "conf.py").write_text(
        "extensions = ['patiencebook.generator.sphinxext']\n"
        f"language = {lang!r}\npatiencebook_language = {lang!r}\n"
        "patiencebook_languages = ['en', 'de']\nroot_doc = 'index'\nhtml_theme = 'alabaster'\n"
        "html_theme_options = {'github_button': False}\n", encoding="utf-8")
    warnings = io.StringIO()
    nocolor()
    out = tmp_path / f"out-{lang}"
    sphinx.locale.translators.clear()
    try:
        with patch_docutils(src), docutils_namespace():
            app = Sphinx(str(src), str(src), str(out), str(tmp_path / f"doctrees-{lang}"), "html",
                         status=None, warning=warnings, freshenv=True)
            app.build(force_all=True)
            doctree = app.env.get_and_resolve_doctree("klondike", app.builder, tags=app.tags)
    finally:
        sphinx.locale.translators.clear()
    return doctree, warnings.getvalue(), out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sphinxext")
    return {lang: _build(lang, tmp) for lang in LANGS}


def _section_ids(doctree) -> list[str]:
    return [section["ids"][0] for section in doctree.findall(nodes.section)]


def test_section_ids_come_from_english_anchors_not_translated_titles(built):
    en, de = built["en"][0], built["de"][0]
    assert _section_ids(en) == ["Klondike", "setup", "rules"]
    assert _section_ids(de) == _section_ids(en)
    titles = [section[0].astext() for section in de.findall(nodes.section)]
    assert titles == ["Klondike auf Deutsch", "Spielaufbau", "Regeln"]


def test_informaltable_becomes_a_two_column_table_with_label_and_description(built):
    table = next(built["en"][0].findall(nodes.table))
    assert next(table.findall(nodes.tgroup))["cols"] == 2
    rows = [[entry.astext() for entry in row.findall(nodes.entry)] for row in table.findall(nodes.row)]
    assert rows == [["Stock", "Top left."], ["Waste", "Next to the stock."]]
    assert "pb-table-2col" in table["classes"]


def test_xref_text_is_the_target_title_in_the_page_language(built):
    references = {ref.astext(): ref.get("refuri") for ref in built["de"][0].findall(nodes.reference)}
    assert references["Begriffe"] == "glossary.html#glossary"
    assert references["die Grundkarte"] == "glossary.html#basecard"
    english = {ref.astext() for ref in built["en"][0].findall(nodes.reference)}
    assert {"Definitions", "the base card"} <= english


def test_fallback_blocks_become_fallback_nodes_with_reason_and_label_in_page_language(built):
    doctree = built["de"][0]
    marks = list(doctree.findall(fallback_block))
    assert [(m["reason"], m.astext()) for m in marks] == [
        ("untranslated", "Next to the stock."), ("fuzzy", "Build down in alternate colours."),
        ("untranslated", "The tableau at the start.")]
    # an image whose alt text fell back to English is shown inside the mark, the alt text having no room for one
    assert [image["alt"] for image in marks[2].findall(nodes.image)] == ["The tableau at the start."]
    assert marks[0]["label"] == "nicht übersetzt"
    assert marks[1]["label"] == "Übersetzung veraltet"
    assert marks[0]["label_lang"] == "de"
    assert list(built["en"][0].findall(fallback_block)) == []


def test_fallback_html_carries_lang_en_class_title_and_visible_mark(built):
    html = (built["de"][2] / "klondike.html").read_text(encoding="utf-8")
    assert re.search(r'<div class="pb-fallback pb-untranslated" lang="en" title="[^"]+">'
                     r'<span class="pb-fallback-mark" lang="de">nicht übersetzt</span>', html)
    assert 'class="pb-fallback pb-fuzzy" lang="en"' in html


def test_unknown_element_keeps_its_text_and_warns_with_source_line(built):
    doctree, warnings, _ = built["de"]
    assert "Unbekannter Text" in doctree.astext()
    assert "rules/klondike.xml:17" in warnings
    assert "unknown DocBook element <frobnicate>" in warnings


def test_html_lang_is_bcp47_and_switcher_links_the_same_page(built):
    html = (built["de"][2] / "klondike.html").read_text(encoding="utf-8")
    assert '<html lang="de"' in html
    assert '<a href="../en/klondike.html" hreflang="en" lang="en" rel="alternate">English</a>' in html
    assert 'aria-current="page">Deutsch</span>' in html


def test_index_page_lists_groups_with_translated_captions_and_gives_next_link(built):
    out = built["de"][2]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "Eine kurze Einleitung." in index
    assert '<span class="caption-text">Spiele</span>' in index
    assert 'href="klondike.html">Klondike auf Deutsch</a>' in index
    page = (out / "klondike.html").read_text(encoding="utf-8")
    assert 'rel="next"' in page and "glossary.html" in page


def test_sphinx_interface_strings_use_our_catalog(built):
    html = (built["de"][2] / "klondike.html").read_text(encoding="utf-8")
    assert 'title="Verweis auf diese Überschrift"' in html
    translations = (built["de"][2] / "_static" / "translations.js").read_text(encoding="utf-8")
    assert '"Search Results": "Suchergebnisse"' in translations


def test_switcher_links_same_page_in_every_language_with_native_names():
    entries = switcher_entries(get_language("sr"), [get_language(c) for c in ("en", "sr", "sr@latin")], "hamilton")
    # Sorted in Serbian (Cyrillic) collation: Cyrillic names first, then Latin ones.
    assert [(e["code"], e["bcp47"], e["url"], e["current"]) for e in entries] == [
        ("sr", "sr-Cyrl", "../sr/hamilton.html", True),
        ("en", "en", "../en/hamilton.html", False),
        ("sr@latin", "sr-Latn", "../sr@latin/hamilton.html", False)]
    assert entries[2]["name"] == "Srpski (latinica)"
    german = switcher_entries(get_language("de"), [get_language(c) for c in ("el", "en", "de", "sv", "cs")], "x")
    assert [e["name"] for e in german] == ["Čeština", "Deutsch", "English", "Svenska", "Ελληνικά"]


# -- search -----------------------------------------------------------------------------------

SearchGreek = search_language(get_language("el"))
SearchSerbian = search_language(get_language("sr"))
SearchSerbianLatin = search_language(get_language("sr@latin"))


def test_greek_words_match_without_accents_or_capitals():
    greek = SearchGreek({})
    assert greek.stem("Θεμέλια") == greek.stem("θεμελια") == greek.stem("ΘΕΜΕΛΙΑ")
    assert greek.stem("σουλτάνος") == greek.stem("σουλτανος")


def test_serbian_words_match_in_either_script_with_or_without_diacritics():
    serbian = SearchSerbian({})
    assert serbian.stem("шпил") == serbian.stem("špil") == serbian.stem("spil") == "spil"
    assert serbian.stem("Ђорђе") == serbian.stem("Đorđe") == serbian.stem("djordje")
    assert SearchSerbianLatin({}).stem("čaša") == serbian.stem("чаша")
    assert SearchSerbianLatin.lang == "sr@latin"


#: For each language of the AisleRiot help: words as a page writes them and as a reader may type
#: them (without accents, in another case); each pair must give the same index key.
TYPED = {
    "ca": ("Cartes col·locades", "CARTES col·locades"), "cs": ("Hromádky", "hromadky"),
    "de": ("Grundstapel Zählung", "grundstapel zahlung"), "el": ("Θεμέλια", "θεμελια"),
    "en": ("Foundations", "foundations"), "en_GB": ("Colours", "colours"), "es": ("Montón", "monton"),
    "eu": ("Oinarrizko", "OINARRIZKO"), "fr": ("Écarté", "ecarte"), "gl": ("Montón", "monton"),
    "hu": ("Kártyák", "kartyak"), "id": ("Kartu", "KARTU"), "kk": ("Қарта", "қарта"),
    "oc": ("Cartas", "CARTAS"), "pt_BR": ("Fundação", "fundacao"), "ru": ("Карты", "карты"),
    "sl": ("Kupček", "kupcek"), "sr": ("Шпил", "spil"), "sr@latin": ("Špil", "spil"),
    "sv": ("Högar", "hogar"), "uk": ("Колода", "КОЛОДА"), "zh_CN": ("纸牌游戏", "纸牌游戏"),
}


@pytest.mark.parametrize("code", sorted(TYPED))
def test_a_word_typed_without_accents_or_in_another_case_has_the_same_key(code):
    language = search_language(get_language(code))({})
    written, typed = TYPED[code]
    assert [language.stem(w) for w in language.split(written)] == [language.stem(w) for w in language.split(typed)]


def test_stemming_where_snowball_has_the_language_and_folding_everywhere():
    french = search_language(get_language("fr"))({})
    assert french.stem("Cartes") == french.stem("carte")
    assert search_language(get_language("fr")).snowball == "french"
    slovenian = search_language(get_language("sl"))
    assert slovenian.snowball is None and slovenian({}).stem("Kupček") == "kupcek"


def test_chinese_is_indexed_as_characters_and_pairs():
    assert split_words("纸牌游戏 Klondike") == ["纸", "牌", "游", "戏", "纸牌", "牌游", "游戏", "Klondike"]


def test_the_javascript_query_splitter_gives_pairs_the_index_holds():
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed; the JavaScript splitter cannot be run")
    cls = search_language(get_language("zh_CN"))
    script = cls.js_splitter_code + "\nconsole.log(JSON.stringify(splitQuery('纸牌游戏 规则, Klondike 牌')));"
    result = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True, timeout=60)
    terms = json.loads(result.stdout)
    assert terms == ["纸牌", "牌游", "游戏", "规则", "Klondike", "牌"]
    indexed = set(split_words("纸牌游戏的规则 Klondike 牌"))
    assert set(terms) <= indexed


WORDS = {SearchGreek: ["Παιχνίδια", "ΚΑΡΤΕΣ", "κάρτες", "θεμέλιο", "Θεμελίων", "ΐσως", "Σωρός"],
         SearchSerbian: ["Ђорђе", "Đorđe", "карташке", "kartaške", "КАРТЕ", "Темељ", "ŠPIL", "џеп", "Љубав"],
         search_language(get_language("fr")): ["Écarté", "CARTES", "fondations", "Pioche"],
         search_language(get_language("hu")): ["Kártyák", "ALAPOK", "tőrölt"],
         search_language(get_language("sv")): ["Högar", "KORTEN", "grundhögarna"]}


@pytest.mark.parametrize("language", list(WORDS), ids=lambda cls: cls.lang)
def test_javascript_stemmer_gives_the_python_index_keys(language):
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed; the JavaScript stemmer cannot be run")
    words = WORDS[language]
    script = (language.js_stemmer_code + "\nconst s = new Stemmer();\nconsole.log(JSON.stringify("
              + json.dumps(words, ensure_ascii=False) + ".map((w) => s.stemWord(w.toLowerCase()))));")
    result = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(result.stdout) == [language({}).stem(w).lower() for w in words]


# -- interface catalogs --------------------------------------------------------------------------

#: Every language we ship Sphinx interface strings for (locale/<lang>/LC_MESSAGES/sphinx.po).
SHIPPED = sorted(path.name for path in uicatalog.LOCALE_DIR.iterdir() if (path / "LC_MESSAGES" / "sphinx.po").is_file())


def _po(lang: str):
    from babel.messages.pofile import read_po

    with uicatalog.catalog_path(lang).open("rb") as stream:
        return read_po(stream)


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_sphinx_string_our_pages_use_is_translated(lang):
    used = uicatalog.used_strings()
    catalog = _po(lang)
    for msgid in used["python"] + used["js"]:
        message = catalog.get(msgid)
        assert message is not None and message.string and not message.fuzzy, (lang, msgid)
    for singular, plural in used["js_plural"]:
        message = catalog.get(singular)
        assert message is not None and all(message.string), (lang, singular)


@pytest.mark.parametrize("lang", SHIPPED)
def test_compiled_mo_and_js_agree_with_the_po_file(lang):
    catalog = _po(lang)
    with uicatalog.catalog_path(lang, "mo").open("rb") as stream:
        mo = gettext.GNUTranslations(stream)
    js = uicatalog.catalog_path(lang, "js").read_text(encoding="utf-8")
    for message in catalog:
        if message.id and isinstance(message.id, str):
            assert mo.gettext(message.id) == message.string
    assert js == uicatalog.js_catalog(catalog, lang)


def test_sr_latin_interface_catalog_is_sr_in_latin_script():
    from patiencebook.generator.catalogs.transliterate import derive_markup

    cyrillic, latin = _po("sr"), _po("sr@latin")
    for message in cyrillic:
        if message.id and isinstance(message.id, str):
            assert latin.get(message.id).string == derive_markup(message.string)
    assert not re.search("[\u0400-\u04ff]", uicatalog.catalog_path("sr@latin", "js").read_text(encoding="utf-8"))


def test_docbook_inline_list_figure_admonition_and_verbatim_elements_render(built):
    _, warnings, out = built["en"]
    html = (out / "elements.html").read_text(encoding="utf-8")
    body = html[html.index('<div class="body"'):html.index('<div class="sphinxsidebar"')]
    assert '<span class="pb-application">Patience Book</span>' in body
    assert '<span class="guilabel">Deal</span>' in body
    assert re.search(r'<code class="docutils literal notranslate">.*sol.*--seed.*7.*</code>', body)
    assert "<strong>carefully</strong>" in body and "<em>slowly</em>" in body
    assert '<a class="reference external" href="https://example.org/rules">the rules site</a>' in body
    assert "\N{LEFT DOUBLE QUOTATION MARK}patience\N{RIGHT DOUBLE QUOTATION MARK}" in body
    assert 'class="footnote-reference' in body and "Also called solitaire." in body
    assert re.search(r"<ul[^>]*>\s*<li><p>First point</p></li>\s*<li><p>Second point</p></li>", body)
    assert re.search(r'<ol class="arabic[^"]*">\s*<li><p>Deal</p></li>', body)
    assert '<img alt="One black dot." src="_images/dot.png" />' in body
    assert (out / "_images" / "dot.png").is_file()
    assert '<span class="caption-text">A single dot</span>' in body
    for kind in ("note", "tip", "warning"):
        assert f'class="admonition {kind}"' in body
    assert "$ patiencebook build\ndone" in body and "deal 7\nmove w f" in body
    assert "elements" not in warnings


def test_without_snowball_both_sides_fold_only_and_still_agree(monkeypatch):
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("node is not installed; the JavaScript stemmer cannot be run")
    from patiencebook.generator.sphinxext import search

    monkeypatch.setattr(search, "_has_snowball", lambda algorithm: False)
    words = WORDS[SearchSerbian]
    code = SearchSerbian.make_js_code()[0]
    assert "SerbianStemmer" not in code
    script = (code + "\nconst s = new Stemmer();\nconsole.log(JSON.stringify("
              + json.dumps(words, ensure_ascii=False) + ".map((w) => s.stemWord(w.toLowerCase()))));")
    result = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True, timeout=60)
    python = [SearchSerbian({}).stem(w) for w in words]
    assert json.loads(result.stdout) == python
    assert python[:2] == ["djordje", "djordje"]


def test_every_sphinx_string_requested_while_rendering_is_in_our_list(tmp_path, monkeypatch):
    """Renders tests/data/site with the build's own settings, recording Sphinx's msgid lookups
    from the builder's start (strings Sphinx looks up while reading its settings are never shown)."""
    import sphinx.locale
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    import patiencebook.generator.sphinxext as extension
    from patiencebook.generator.site.sphinxsources import source_document, write_sources
    from patiencebook.generator.docbook.sources import load_document

    requested: set[str] = set()
    recording = {"on": False}

    class Recording(gettext.NullTranslations):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def gettext(self, message):
            if recording["on"]:
                requested.add(message)
            return self.inner.gettext(message)

        def ngettext(self, singular, plural, n):
            if recording["on"]:
                requested.add(singular)
            return self.inner.ngettext(singular, plural, n)

    original_install, original_inited = uicatalog.install, extension._on_builder_inited

    def recording_install(app, language, derived=False):
        result = original_install(app, language, derived)
        key = ("general", "sphinx")
        app.translator = sphinx.locale.translators[key] = Recording(sphinx.locale.translators[key])
        return result

    def start_recording(app):
        recording["on"] = True
        original_inited(app)

    monkeypatch.setattr(uicatalog, "install", recording_install)
    monkeypatch.setattr(extension, "_on_builder_inited", start_recording)
    document = load_document(Path(__file__).resolve().parents[2] / "data" / "site" / "C")
    src = tmp_path / "src"
    src.mkdir()
    write_sources(source_document(document, "en"), src, get_language("en"), [get_language("en"), get_language("de")])
    sphinx.locale.translators.clear()
    try:
        with patch_docutils(src), docutils_namespace():
            Sphinx(str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
                   status=None, warning=io.StringIO(), freshenv=True).build(force_all=True)
    finally:
        sphinx.locale.translators.clear()
    used = uicatalog.used_strings()
    assert "Link to this heading" in requested
    # The Python module index's name goes only into objects.inv: the site has no such index
    # (html_domain_indices is off). Sphinx looks it up here when its module was imported with no
    # translation installed, as a site build imports it (site.language.preload_sphinx).
    inventory_only = {"Python Module Index"}
    assert requested - inventory_only <= set(used["python"]), requested - inventory_only - set(used["python"])


def test_every_string_in_sphinx_search_scripts_is_in_our_list():
    from sphinx import package_dir

    static = Path(package_dir) / "themes" / "basic" / "static"
    text = "".join((static / name).read_text(encoding="utf-8")
                   for name in ("searchtools.js", "sphinx_highlight.js", "doctools.js"))
    singles = set(re.findall(r'(?:\b_|Documentation\.gettext)\(\s*"((?:[^"\\]|\\.)*)"', text))
    plurals = set(re.findall(r'Documentation\.ngettext\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"', text))
    used = uicatalog.used_strings()
    assert singles <= set(used["js"]), singles - set(used["js"])
    assert plurals <= {tuple(pair) for pair in used["js_plural"]}


def test_search_page_loads_the_excerpt_script_after_searchtools(built):
    html = (built["de"][2] / "search.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="(_static/[^"?]+)', html)
    assert scripts.index("_static/pb-search.js") == scripts.index("_static/searchtools.js") + 2  # language_data.js between
    assert (built["de"][2] / "_static" / "pb-search.js").is_file()
    # Only the search page needs it.
    assert "pb-search.js" not in (built["de"][2] / "klondike.html").read_text(encoding="utf-8")
