"""Finding catalogs: every layout users have, LINGUAS, another domain, and never a file left out silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from patiencebook.generator.site.build import build_site
from patiencebook.generator.catalogs import CatalogFolder, discover_catalogs, find_catalogs, read_linguas
from patiencebook.generator.check.run import run_checks
from patiencebook.generator.cli import main
from patiencebook.generator.errors import CatalogError
from tests.generator.test_cli import BOOK, PAGE  # the tiny book the command-line tests build


# What "Tiny" becomes in each language; a page shows it only when its catalog was found.
TITLES = {"de": "Winzig", "el": "Μικρό", "sr": "Сићушно", "en_GB": "Wee"}

LAYOUTS = ["{lang}/LC_MESSAGES/help.po", "{lang}/help.po", "{lang}/{lang}.po", "{lang}/LC_MESSAGES/{lang}.po",
           "{lang}.po"]


def catalog_text(lang: str) -> str:
    return (f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: {lang}\\n"\n\n'
            f'msgid "Tiny"\nmsgstr "{TITLES[lang]}"\n')


def put(folder: Path, layout: str, lang: str = "de") -> Path:
    path = folder / layout.format(lang=lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(catalog_text(lang), encoding="utf-8")
    return path


@pytest.fixture
def sources(tmp_path) -> Path:
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "index.docbook").write_text(BOOK, encoding="utf-8")
    (folder / "tiny.xml").write_text(PAGE, encoding="utf-8")
    return folder


def warnings_of(folder: CatalogFolder) -> list[str]:
    return [str(w) for w in folder.warnings]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_each_layout_is_found_without_a_warning(tmp_path, layout):
    path = put(tmp_path / "po", layout)
    found = discover_catalogs(tmp_path / "po")
    assert found.catalogs == {"de": path}
    assert found.warnings == ()
    assert find_catalogs(tmp_path / "po") == {"de": path}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_check_finds_the_catalog_in_each_layout(tmp_path, sources, layout, capsys):
    path = put(tmp_path / "po", layout)
    status = main(["check", "--sources", str(sources), "--catalogs", str(tmp_path / "po"), "--lang", "de",
                   "--format", "json", "--min-confidence", "0"])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert err == ""
    findings = json.loads(out)
    assert {f["lang"] for f in findings} == {"de"}
    assert "Tiny" not in {f["msgid"] for f in findings if f["check"] == "untranslated"}
    assert run_checks(sources, tmp_path / "po", langs=["de"])[1] == {"de": path}


def test_build_finds_the_catalogs_of_every_layout(tmp_path, sources):
    folder = tmp_path / "po"
    put(folder, "{lang}/help.po", "de")
    put(folder, "{lang}.po", "el")
    put(folder, "{lang}/LC_MESSAGES/{lang}.po", "sr")
    put(folder, "{lang}/{lang}.po", "en_GB")
    report = build_site(sources, folder, tmp_path / "out", jobs=2, echo=False, report=False, progress="none")
    assert [r.lang for r in report.languages] == ["en", "de", "el", "en_GB", "sr", "sr@latin"]
    assert report.warnings == ()
    for lang, title in TITLES.items():
        assert title in (tmp_path / "out" / lang / "tiny.html").read_text(encoding="utf-8"), lang
    assert "Sićušno" in (tmp_path / "out" / "sr@latin" / "tiny.html").read_text(encoding="utf-8")


def test_the_first_layout_wins_and_the_other_is_named_with_the_one_used(tmp_path):
    used = put(tmp_path, "{lang}/LC_MESSAGES/help.po")
    other = put(tmp_path, "{lang}.po")
    found = discover_catalogs(tmp_path)
    assert found.catalogs == {"de": used}
    assert warnings_of(found) == [f"{other}: not used: another catalog of 'de'; de/LC_MESSAGES/help.po is the "
                                  "one used"]


def test_every_other_layout_of_a_language_is_named(tmp_path):
    used = put(tmp_path, "{lang}/help.po")
    others = [put(tmp_path, layout) for layout in LAYOUTS[2:]]
    found = discover_catalogs(tmp_path)
    assert found.catalogs == {"de": used}
    assert sorted(w.path for w in found.warnings) == sorted(others)
    assert {w.reason for w in found.warnings} == {"not used: another catalog of 'de'; de/help.po is the one used"}


def test_a_catalog_of_another_domain_is_named_and_not_used(tmp_path):
    other = put(tmp_path, "de/LC_MESSAGES/aisleriot.po")
    found = discover_catalogs(tmp_path)
    assert found.catalogs == {}
    assert warnings_of(found)[0] == (f"{other}: not used: named neither for the domain 'help' nor for the "
                                     "language 'de' (for the domain 'aisleriot', give --domain aisleriot)")


def test_domain_picks_the_catalogs_of_another_domain(tmp_path):
    wanted = put(tmp_path, "de/LC_MESSAGES/aisleriot.po")
    shared = put(tmp_path, "el/el.po")  # named for its language: a catalog of any domain
    stray = put(tmp_path, "de/LC_MESSAGES/help.po")
    found = discover_catalogs(tmp_path, "aisleriot")
    assert (found.domain, found.catalogs) == ("aisleriot", {"de": wanted, "el": shared})
    assert [w.path for w in found.warnings] == [stray]
    assert discover_catalogs(found) is found and find_catalogs(found) == found.catalogs


def test_check_domain_option_checks_that_domain(tmp_path, sources, capsys):
    put(tmp_path / "po", "de/LC_MESSAGES/aisleriot.po")
    args = ["check", "--sources", str(sources), "--catalogs", str(tmp_path / "po"), "--lang", "de"]
    assert main(args) == 1
    assert "no catalog for language 'de'" in capsys.readouterr().err
    assert main(args + ["--domain", "aisleriot"]) == 0
    assert capsys.readouterr().err == ""


def test_a_domain_with_a_folder_in_it_is_an_error(tmp_path, capsys):
    put(tmp_path, "de/help.po")
    with pytest.raises(CatalogError, match="is not a gettext domain name"):
        discover_catalogs(tmp_path, "../help")
    assert main(["update", "--catalogs", str(tmp_path), "--domain", "a/b"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("patiencebook: error: ") and "'a/b' is not a gettext domain name" in err


def test_linguas_says_which_languages_are_used(tmp_path):
    (tmp_path / "LINGUAS").write_text("# languages of the help\nde   el\n\n", encoding="utf-8")
    de, el = put(tmp_path, "de.po", "de"), put(tmp_path, "el/el.po", "el")
    sr = put(tmp_path, "sr/LC_MESSAGES/help.po", "sr")
    found = discover_catalogs(tmp_path)
    assert found.catalogs == {"de": de, "el": el}
    assert found.linguas == tmp_path / "LINGUAS"
    assert warnings_of(found) == [f"{sr}: not used: 'sr' is not listed in {tmp_path / 'LINGUAS'}"]


def test_a_language_linguas_lists_without_a_catalog_is_a_warning_at_its_line(tmp_path):
    (tmp_path / "LINGUAS").write_text("de\nel # Greek\n", encoding="utf-8")
    put(tmp_path, "de/help.po")
    found = discover_catalogs(tmp_path)
    assert list(found.catalogs) == ["de"]
    (warning,) = found.warnings
    assert (warning.path, warning.line) == (tmp_path / "LINGUAS", 2)
    assert str(warning).startswith(f"{tmp_path / 'LINGUAS'}:2: 'el' is listed but has no catalog (none of "
                                   "el/LC_MESSAGES/help.po, el/help.po, el/el.po")


def test_a_derived_language_in_linguas_needs_no_catalog_of_its_own(tmp_path):
    (tmp_path / "LINGUAS").write_text("sr sr@latin\n", encoding="utf-8")
    put(tmp_path, "sr.po", "sr")
    assert discover_catalogs(tmp_path).warnings == ()


def test_linguas_is_whitespace_separated_with_comments(tmp_path):
    path = tmp_path / "LINGUAS"
    path.write_bytes(b"\xef\xbb\xbfde el\t# Greek too\n  sr@latin\n#pt_BR\n")
    assert read_linguas(path) == [("de", 1), ("el", 1), ("sr@latin", 2)]


def test_a_linguas_line_that_is_not_utf8_is_an_error_at_its_line(tmp_path):
    (tmp_path / "LINGUAS").write_bytes(b"de\n\xff\n")
    with pytest.raises(CatalogError) as caught:
        discover_catalogs(tmp_path)
    assert (caught.value.file, caught.value.line) == (str(tmp_path / "LINGUAS"), 2)


def test_a_folder_with_nothing_recognised_is_a_warning(tmp_path, sources, capsys):
    stray = tmp_path / "po" / "help.po"
    stray.parent.mkdir()
    stray.write_text(catalog_text("de"), encoding="utf-8")
    (tmp_path / "po" / "help.pot").write_text("", encoding="utf-8")
    found = discover_catalogs(tmp_path / "po")
    assert found.catalogs == {}
    assert [w.path for w in found.warnings] == [stray, tmp_path / "po"]
    assert found.warnings[1].reason == ("no catalog of domain 'help' recognised in the catalogs folder (looked for "
                                        "<lang>/LC_MESSAGES/help.po, <lang>/help.po, <lang>/<lang>.po, "
                                        "<lang>/LC_MESSAGES/<lang>.po, <lang>.po)")
    assert main(["check", "--sources", str(sources), "--catalogs", str(tmp_path / "po")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == (f"patiencebook: warning: {stray}: not used: 'help' is no language code, and a catalog "
                      "directly in the catalogs folder is named for its language (de.po)")
    assert err[1].startswith(f"patiencebook: warning: {tmp_path / 'po'}: no catalog of domain 'help' recognised")


def test_a_catalog_in_a_folder_that_is_no_language_is_named(tmp_path):
    put(tmp_path, "de/help.po")
    stray = put(tmp_path, "figures/help.po")
    (tmp_path / "C").mkdir()
    (tmp_path / "C" / "index.docbook").write_text("", encoding="utf-8")
    found = discover_catalogs(tmp_path)
    assert list(found.catalogs) == ["de"]
    assert warnings_of(found) == [f"{stray}: not used: the folder 'figures' is no language code"]


def test_a_missing_catalogs_folder_is_an_error_and_finds_nothing(tmp_path):
    with pytest.raises(CatalogError, match="no such catalogs folder"):
        discover_catalogs(tmp_path / "absent")
    assert find_catalogs(tmp_path / "absent") == {}


def test_the_folder_is_path_like(tmp_path):
    put(tmp_path, "de.po")
    found = discover_catalogs(tmp_path)
    assert Path(found) == tmp_path and str(found) == str(tmp_path)


def test_strict_check_makes_a_warning_an_error(tmp_path, sources, capsys):
    put(tmp_path / "po", "de/help.po")
    stray = put(tmp_path / "po", "de.po")
    args = ["check", "--sources", str(sources), "--catalogs", str(tmp_path / "po"), "--lang", "de",
            "--min-confidence", "0.99"]
    assert main(args) == 0
    assert capsys.readouterr().err.startswith(f"patiencebook: warning: {stray}: not used")
    assert main(args + ["--strict"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"patiencebook: error: {stray}: not used: another catalog of 'de'; de/help.po is "
                                "the one used"]


def test_strict_build_makes_a_warning_an_error_and_writes_nothing(tmp_path, sources, capsys):
    (tmp_path / "po").mkdir()
    (tmp_path / "po" / "LINGUAS").write_text("de el\n", encoding="utf-8")
    put(tmp_path / "po", "de/help.po")
    status = main(["build", "--sources", str(sources), "--catalogs", str(tmp_path / "po"), "--out",
                   str(tmp_path / "out"), "--strict", "--progress", "none"])
    assert status == 1
    assert capsys.readouterr().err.startswith(f"patiencebook: error: {tmp_path / 'po' / 'LINGUAS'}:1: 'el' is "
                                              "listed but has no catalog")
    assert not (tmp_path / "out").exists()


def test_build_reports_discovery_warnings_and_builds_the_domain_asked(tmp_path, sources, capsys):
    put(tmp_path / "po", "de/LC_MESSAGES/aisleriot.po")
    stray = put(tmp_path / "po", "de/LC_MESSAGES/help.po")
    stray.write_text(stray.read_text(encoding="utf-8").replace("Winzig", "Falsch"), encoding="utf-8")
    status = main(["build", "--sources", str(sources), "--catalogs", str(tmp_path / "po"), "--out",
                   str(tmp_path / "out"), "--domain", "aisleriot", "--progress", "none", "--jobs", "2"])
    assert status == 0
    err = capsys.readouterr().err
    assert (f"patiencebook: warning: {stray}: not used: named neither for the domain 'aisleriot' nor for the "
            "language 'de' (for the domain 'help', give --domain help)") in err.splitlines()
    page = (tmp_path / "out" / "de" / "tiny.html").read_text(encoding="utf-8")
    assert "Winzig" in page and "Falsch" not in page


def test_build_strict_refuses_a_catalog_of_a_language_cldr_lacks(tmp_path):
    import shutil

    from tests.generator.test_cli_engine import REPO, run

    folder = tmp_path / "cats" / "tlh" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "locales" / "de" / "LC_MESSAGES" / "help.po", folder / "help.po")
    result = run("build", "--catalogs", str(tmp_path / "cats"), "--strict", "--out", str(tmp_path / "site"))
    assert result.returncode == 1
    assert "catalog for language 'tlh' skipped: 'tlh' is not a language code CLDR knows" in result.stderr
    assert not (tmp_path / "site").exists()


def test_a_po_entry_that_is_no_file_and_a_linguas_that_is_no_file_are_warnings(tmp_path):
    from patiencebook.generator.catalogs import discover_catalogs

    (tmp_path / "de" / "LC_MESSAGES" / "help.po").mkdir(parents=True)
    (tmp_path / "fr.po").symlink_to(tmp_path / "nothing")
    (tmp_path / "LINGUAS").mkdir()
    folder = discover_catalogs(tmp_path)
    reasons = {Path(w.path).name: w.reason for w in folder.warnings}
    assert reasons["help.po"] == "not used: not a file"
    assert reasons["fr.po"] == "not used: a link to nothing"
    assert reasons["LINGUAS"].startswith("not read: not a file")


def test_obsolete_units_with_a_previous_msgid_are_read(tmp_path):
    from patiencebook.generator.catalogs import read_catalog

    path = tmp_path / "de.po"
    path.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                    'msgid "Stock"\nmsgstr "Talon"\n\n#~| msgid "Old"\n#~ msgid "Older"\n#~ msgstr "Alt"\n',
                    encoding="utf-8")
    catalog = read_catalog(path)
    assert catalog.get("Stock").lineno == 4 and "Older" in catalog.obsolete
