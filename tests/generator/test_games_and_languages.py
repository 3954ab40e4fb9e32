"""The command line as users write it: ``--version``, ``python -m patiencebook``, ``games``, game
names in any of their forms, and language codes as locales (``de_DE``, ``sr-Latn``) or from the
environment."""

from __future__ import annotations

import json

import pytest

from patiencebook.generator.gamenames import closest_names, game_key
from patiencebook.generator.errors import LanguageError
from patiencebook.generator.languages import environment_language, resolve_language
from tests.embedded import EMBEDDED_GAMES
from tests.generator.test_cli_engine import run


def test_version_and_module_entry_point():
    from patiencebook import __version__

    result = run("--version")
    assert (result.returncode, result.stdout) == (0, f"patiencebook {__version__}\n")
    import subprocess
    import sys

    module = subprocess.run([sys.executable, "-m", "patiencebook", "--version"], capture_output=True, text=True)
    assert module.stdout == result.stdout and module.returncode == 0


def test_the_version_is_read_only_when_asked_for():
    import subprocess
    import sys

    # Reading it imports importlib.metadata, which a command that does not print it need not wait for.
    script = ("import contextlib, io, sys\n"
              "from patiencebook.generator import cli\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              "    status = cli.main(['deal', 'klondike', '--deal', '1'])\n"
              "print(status, 'importlib.metadata' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout == "0 False\n", done.stderr


def test_games_lists_every_embedded_game_with_its_name_variants_and_figure():
    rows = json.loads(run("games", "--format", "json", "--lang", "de_DE").stdout)
    ids = [row["id"] for row in rows]
    assert ids == EMBEDDED_GAMES
    eagle = rows[ids.index("eagle_wing")]
    assert (eagle["name"], eagle["english_name"], eagle["aisleriot"]) == ("Adlerschwinge", "Eagle Wing", "eagle_wing")
    klondike = rows[ids.index("klondike")]
    assert [v["id"] for v in klondike["variants"]] == ["single-card-deals", "three-card-deals", "no-redeals",
                                                       "unlimited-redeals"]
    figure = klondike["solver_figure"]
    assert figure["deals"] == figure["solved"] + figure["unsolvable"] + figure["unknown"] == 1000
    text = run("games").stdout.splitlines()
    eagle_line = text[ids.index("eagle_wing")]
    assert len(text) == len(ids) and eagle_line.startswith("eagle_wing") and "Eagle Wing" in eagle_line


def test_games_in_serbian_latin_are_transliterated():
    rows = json.loads(run("games", "--format", "json", "--lang", "sr-Latn").stdout)
    names = {row["id"]: row["name"] for row in rows}
    assert names["klondike"] == "Klondajk"


@pytest.mark.parametrize("name", ["Eagle Wing", "EagleWing", "eagle-wing", "Adlerschwinge"])
def test_deal_takes_any_name_of_a_game(name):
    result = run("deal", name, "--deal", "1", "--json")
    assert result.returncode == 0 and json.loads(result.stdout)["game"] == "eagle_wing"


def test_game_keys_and_closest_names():
    assert game_key("Baker’s Dozen") == game_key("bakers_dozen") == game_key("BAKERS-DOZEN") == "bakersdozen"
    assert closest_names("klondyke", ["klondike", "spider", "Klondike"]) == ["klondike"]
    assert closest_names("qqqq", ["klondike"]) == []


@pytest.mark.parametrize("code,expected", [
    ("de_DE", "de"), ("de-DE", "de"), ("el_GR.UTF-8", "el"), ("sr-Latn", "sr@latin"), ("sr_RS@latin", "sr@latin"),
    ("sr_RS.UTF-8@latin", "sr@latin"), ("sr_Latn_RS", "sr@latin"), ("sr-Cyrl", "sr"), ("sr_RS", "sr"),
    ("en_US", "en"), ("C", "en"), ("POSIX", "en"),
])
def test_language_codes_as_users_write_them(code, expected):
    assert resolve_language(code).code == expected


def test_an_unknown_or_unavailable_language_names_the_choices():
    with pytest.raises(LanguageError, match=r"unknown language 'oc_FR'; known languages: ca, cs, de, el, en"):
        resolve_language("oc_FR")
    with pytest.raises(LanguageError, match=r"unknown language 'sr'; known languages: de, el$"):
        resolve_language("sr", ["de", "el"])


def test_the_environment_is_read_as_gettext_reads_it():
    assert environment_language(environ={"LANG": "de_DE.UTF-8"}).code == "de"
    assert environment_language(environ={"LC_ALL": "el_GR.UTF-8", "LANG": "de_DE.UTF-8"}).code == "el"
    assert environment_language(environ={"LANGUAGE": "oc:sr_RS@latin", "LANG": "de_DE.UTF-8"}).code == "sr@latin"
    # LANGUAGE is not used when the locale is C, as gettext does.
    assert environment_language(environ={"LANGUAGE": "de", "LANG": "C.UTF-8"}) is None
    assert environment_language(environ={}) is None
    assert environment_language(["de"], environ={"LANG": "el_GR"}) is None


def test_play_takes_the_locale_and_a_locale_code():
    german = run("play", "klondike", "--deal", "1", env={"LANG": "de_DE.UTF-8"}, stdin="q\n").stdout
    assert german.startswith("Klondike, Spiel Nr. 1")
    latin = run("play", "klondike", "--deal", "1", "--lang", "sr_RS@latin", stdin="q\n").stdout
    assert latin.startswith("Klondajk, deljenje br. 1")
    english = run("play", "klondike", "--deal", "1", env={"LANG": "C.UTF-8", "LANGUAGE": "de"}, stdin="q\n").stdout
    assert english.startswith("Klondike, deal 1")
    french = run("play", "klondike", "--deal", "1", "--lang", "fr_FR.UTF-8", stdin="q\n").stdout
    assert french.startswith("Klondike, donne n")  # our French interface strings; the game name is English
    refused = run("play", "klondike", "--lang", "oc")
    assert refused.returncode == 1 and "unknown language 'oc'" in refused.stderr


def test_check_takes_the_locale_and_locale_codes():
    german = run("check", "--format", "json", env={"LANG": "de_DE.UTF-8"})
    assert german.returncode == 0
    assert "checking the de catalog" in german.stderr
    everything = run("check", env={"LANG": "C.UTF-8"})
    assert (everything.returncode, everything.stderr) == (0, "")
    assert run("check", "--lang", "el_GR.UTF-8").returncode == 0
    derived = run("check", "--lang", "sr-Latn")
    assert derived.returncode == 1 and "'sr@latin' has no catalog of its own" in derived.stderr


def test_build_takes_locale_codes(tmp_path):
    from patiencebook.generator.site.build import plan_languages

    found = {"de": tmp_path / "de.po", "sr": tmp_path / "sr.po"}
    plan = plan_languages(["en", "de_DE", "de", "sr_RS@latin"], found, "en", tmp_path)
    assert [(language.code, derive) for language, _, derive in plan] == [("en", False), ("de", False),
                                                                          ("sr@latin", True)]


def test_a_region_cldr_does_not_give_by_default_is_not_stood_in_for():
    assert resolve_language("en_GB", ["en", "en_GB"]).code == "en_GB"
    assert resolve_language("en-GB", ["en_GB"]).code == "en_GB"
    assert resolve_language("zh-Hans", ["zh_CN", "de"]).code == "zh_CN"
    assert resolve_language("uk_UA.UTF-8", ["uk", "ru"]).code == "uk"
    assert resolve_language("pt-BR", ["pt_BR"]).code == "pt_BR"
    assert resolve_language("en_US", ["en", "de"]).code == "en"
    with pytest.raises(LanguageError, match="unknown language 'en_GB'"):
        resolve_language("en_GB", ["en", "de"])


def test_a_script_as_a_locale_modifier():
    assert resolve_language("sr@Latn").code == resolve_language("sr@latin").code == "sr@latin"


def test_check_page_takes_a_translated_title():
    result = run("check", "--lang", "de", "--page", "Adlerschwinge", "--min-confidence", "0")
    assert result.returncode == 0, result.stderr
    near = run("check", "--page", "Adlerschwing")
    assert near.returncode == 1 and "the closest: Adlerschwinge" in near.stderr


def test_play_takes_the_title_of_a_derived_language():
    result = run("play", "Orlovo krilo", "--deal", "1", "--lang", "sr@latin", stdin="q\n")
    assert result.stdout.startswith("Orlovo krilo, deljenje br. 1"), result.stderr


def test_extract_refuses_a_missing_catalogs_folder(tmp_path):
    result = run("extract", "--catalogs", str(tmp_path / "nowhere"))
    assert result.returncode == 1 and "no such catalogs folder" in result.stderr
    assert not (tmp_path / "nowhere").exists()


def test_solve_refuses_an_empty_deal_range():
    result = run("solve", "klondike", "--deals", "")
    assert result.returncode == 1 and "--deals is empty" in result.stderr
