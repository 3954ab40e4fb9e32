"""The live board's payload and files: the JSON a game page embeds (ruleset data, layout, names,
the board's interface strings, the deal's starting position, relative URLs of versioned files) and
the one shared copy of the Pyodide runtime, the engine archive, the snapshot and the service worker
in a built site."""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from pathlib import Path

import pytest

from patiencebook.engine import Game
from patiencebook.engine.notation import position_to_dict
from patiencebook.engine.rulesdata import ruleset_from_data
from patiencebook.generator.pages import board
from patiencebook.generator.pages.board import (ENGINE_ZIP, PYODIDE_FILES, BoardFiles, board_files, board_payload,
                                                engine_zip_bytes, find_pyodide, install_board_assets,
                                                write_engine_zip)
from patiencebook.generator.languages import get_language, ui_strings
from patiencebook.generator.pages.layout import pile_layout
from patiencebook.generator.play import player_pile_names
from patiencebook.generator.docbook.sources import load_document

ROOT = Path(__file__).resolve().parents[3]


def pile_names(ruleset, lang: str) -> dict[str, str]:
    """The player's pile names in the language of gettext code ``lang``."""
    return player_pile_names(ruleset, get_language(lang))


FILES = BoardFiles(pyodide="_pyodide/0.29.5-0123456789ab/", engine="_engine/patiencebook-engine-abcdef012345.zip",
                   snapshot="_engine/python-fedcba987654.snapshot.gz")


def test_payload_holds_ruleset_layout_names_and_relative_urls(hamilton):
    names = pile_names(hamilton, "de")
    payload = board_payload(hamilton, get_language("de"), names, deal=12, files=FILES)
    assert payload["game"] == "hamilton" and payload["lang"] == "de" and payload["deal"] == 12
    assert ruleset_from_data(payload["ruleset"]) == hamilton
    assert payload["layout"] == pile_layout(hamilton)
    assert payload["names"]["chooser"] == "Auswahlstapel"
    assert payload["pyodide"] == "../_pyodide/0.29.5-0123456789ab/"
    assert payload["engine"] == "../_engine/patiencebook-engine-abcdef012345.zip"
    assert payload["snapshot"] == "../_engine/python-fedcba987654.snapshot.gz"
    assert payload["worker"] == "../pb-sw.js" and payload["root"] == "../"
    assert payload["available"] is True
    json.dumps(payload)  # plain data only


def test_payload_holds_the_deals_starting_position_as_the_engine_deals_it(hamilton):
    payload = board_payload(hamilton, get_language("de"), pile_names(hamilton, "de"), deal=12, files=FILES)
    start = payload["start"]
    dealt = position_to_dict(Game.deal(hamilton, 12).position)
    assert start["piles"] == dealt["piles"] and start["score"] == dealt["score"]
    assert start["deal"] == 12 and start["moves"] == 0 and start["status"] == "playing"
    assert start["can_undo"] is False and start["can_redo"] is False
    # The score in words, in the page's language, as the board says it once it plays.
    assert start["score_text"] == ui_strings("de")["play_score"].format(score=dealt["score"], max=start["max"])
    # Each pile's cards, bottom first, as the board draws them: deal 12's first tableau pile.
    first = next(pile for pile in start["piles"] if pile["role"] == "tableau")
    assert first["cards"] == [f"{'' if up else '#'}{card}" for card, up in
                              ((str(card), up) for card, up in Game.deal(hamilton, 12).position.pile(first["id"]))]


def test_payload_without_files_names_those_of_the_pyodide_found(hamilton):
    payload = board_payload(hamilton, get_language("de"), pile_names(hamilton, "de"))
    files = board_files()
    if files is None:
        assert payload["pyodide"] == "../_pyodide/" and payload["engine"] == "../_engine/patiencebook-engine.zip"
    else:
        assert payload["pyodide"] == f"../{files.pyodide}" and payload["engine"] == f"../{files.engine}"


def test_payload_keeps_only_the_boards_interface_strings(hamilton):
    payload = board_payload(hamilton, get_language("de"), pile_names(hamilton, "de"))
    ui = payload["ui"]
    german = ui_strings("de")
    assert ui["reason_no-undo"] == german["reason_no-undo"]
    assert ui["play_refused"] == german["play_refused"] and "board_needs_server" in ui
    assert "build_alternate-colour" in ui and "setup_face_down" in ui
    assert "coverage" not in ui and not any(key.startswith("example_") for key in ui)
    # What the engine needs to say moves in German: rank marks, the forms of pile names and of
    # cards, the plural rule.
    assert ui["card_ranks"] == "A 2 3 4 5 6 7 8 9 10 B D K"
    assert ui["pile_forms"]["Chooser"]["from"] == "vom Auswahlstapel" and ui["card_forms"] == german["card_forms"]
    assert ui["plural_rules"] == {"one": "i in 1 and v in 0"}


def test_payload_of_a_site_without_pyodide_says_unavailable(hamilton):
    payload = board_payload(hamilton, get_language("en"), pile_names(hamilton, "en"), available=False,
                            layout={"piles": []})
    assert payload["available"] is False and payload["layout"] == {"piles": []}


def test_file_names_carry_digests_of_their_content(fake_pyodide):
    files = board_files(fake_pyodide, snapshot=False)
    assert re.fullmatch(r"_pyodide/pyodide-[0-9a-f]{12}/", files.pyodide)  # the fake package has no version
    engine = hashlib.sha256(engine_zip_bytes()).hexdigest()[:12]
    assert files.engine == f"_engine/patiencebook-engine-{engine}.zip"
    assert files.snapshot is None and files.worker == "pb-sw.js"
    with_snapshot = board_files(fake_pyodide, snapshot=True)
    assert re.fullmatch(r"_engine/python-[0-9a-f]{12}\.snapshot\.gz", with_snapshot.snapshot)
    # Another runtime gets another folder and another snapshot; the engine keeps its name.
    (fake_pyodide / "package.json").write_text('{"version": "0.29.6"}', encoding="utf-8")
    other = board_files(fake_pyodide, snapshot=True)
    assert re.fullmatch(r"_pyodide/0\.29\.6-[0-9a-f]{12}/", other.pyodide)
    assert other.engine == files.engine and other.snapshot != with_snapshot.snapshot


def test_install_copies_the_runtime_once_and_writes_the_engine_archive_and_the_worker(tmp_path, fake_pyodide):
    site = tmp_path / "site"
    files = board_files(fake_pyodide, snapshot=False)
    assert install_board_assets(site, fake_pyodide, files=files) is True
    runtime = site / files.pyodide
    assert sorted(p.name for p in runtime.iterdir()) == sorted(PYODIDE_FILES + ("NOTICE.txt",))
    assert (runtime / "pyodide.js").read_text() == "contents of pyodide.js"
    assert "Mozilla Public License 2.0" in (runtime / "NOTICE.txt").read_text(encoding="utf-8")
    with zipfile.ZipFile(site / files.engine) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert "patiencebook/engine/frontend.py" in names and "patiencebook/engine/rulesdata.py" in names
        assert archive.read("patiencebook/engine/game.py") == (ROOT / "engine" / "game.py").read_bytes()
    assert {n.split("/")[-1] for n in names} == {p.name for p in (ROOT / "engine").glob("*.py")}
    assert (site / files.engine).read_bytes() == engine_zip_bytes()
    worker = (site / "pb-sw.js").read_text(encoding="utf-8")
    assert worker == (ROOT / "generator" / "pages" / "static" / "pb-sw.js").read_text(encoding="utf-8")
    assert sorted(p.name for p in site.iterdir()) == ["_engine", "_pyodide", "pb-sw.js"]


class _Job:
    """A snapshot job that is done: ``path`` made, or ``None`` with ``error``."""

    def __init__(self, path, error=None):
        self.path, self.error = path, error

    def wait(self):
        return self.path


def test_install_puts_the_snapshot_in_place_or_says_why_there_is_none(tmp_path, fake_pyodide):
    files = board_files(fake_pyodide, snapshot=True)
    made = tmp_path / "cache" / "python.snapshot.gz"
    made.parent.mkdir()
    made.write_bytes(b"\x1f\x8bsnapshot")
    notes: list[str] = []
    assert install_board_assets(tmp_path / "site", fake_pyodide, files=files, snapshot=_Job(made), notes=notes)
    assert (tmp_path / "site" / files.snapshot).read_bytes() == b"\x1f\x8bsnapshot" and notes == []
    assert install_board_assets(tmp_path / "bare", fake_pyodide, files=files,
                                snapshot=_Job(None, "Node.js not found"), notes=notes)
    assert not (tmp_path / "bare" / files.snapshot).exists()
    assert notes == ["the live board has no Python snapshot (Node.js not found), so it starts Python in the page, "
                     "a few seconds slower; Node.js at build time makes one"]


def test_engine_archive_is_the_same_bytes_each_time(tmp_path):
    first = write_engine_zip(tmp_path / "a.zip").read_bytes()
    second = write_engine_zip(tmp_path / "b.zip").read_bytes()
    assert first == second == engine_zip_bytes()


def test_missing_runtime_installs_nothing_and_returns_false(tmp_path, monkeypatch):
    monkeypatch.setattr(board.project, "PROJECT_DIR", tmp_path / "nowhere")
    monkeypatch.delenv(board.PYODIDE_ENV, raising=False)
    monkeypatch.chdir(tmp_path)  # nor in ./node_modules
    site = tmp_path / "site"
    assert find_pyodide() is None
    assert install_board_assets(site) is False
    assert not site.exists()


def test_runtime_folder_may_come_from_the_environment(tmp_path, monkeypatch, fake_pyodide):
    monkeypatch.setattr(board.project, "PROJECT_DIR", tmp_path / "nowhere")
    monkeypatch.setenv(board.PYODIDE_ENV, str(fake_pyodide))
    assert find_pyodide() == fake_pyodide
    (fake_pyodide / "pyodide.asm.wasm").unlink()
    assert find_pyodide() is None  # an incomplete package does not count


def test_page_boards_gives_each_game_page_its_payload_from_the_pile_names(hamilton):
    from patiencebook.generator.docbook.sources import load_document

    make = board.page_boards(get_language("el"), available=False)
    names = pile_names(hamilton, "el")
    page = load_document(ROOT / "rules").page("hamilton")
    payload = make(page)(names)
    # "Play this deal" starts on the deal of the page's first example (deal 1 for Hamilton).
    assert payload == board_payload(hamilton, get_language("el"), names, deal=1, available=False)
    assert payload["start"]["deal"] == 1
    with_files = board.page_boards(get_language("el"), files=FILES)(page)(names)
    assert with_files["snapshot"] == "../_engine/python-fedcba987654.snapshot.gz"
    assert payload["ui"]["board_title"] == ui_strings("el")["board_title"]


def test_payload_carries_each_variant_with_its_name_ruleset_and_layout():
    page = load_document(ROOT / "rules").page("klondike")
    payload = board_payload(page.rules, get_language("el"), pile_names(page.rules, "el"), deal=3,
                            variants=page.variants)
    assert payload["variant"] == "single-card-deals" and payload["budget"] == 5_000
    assert [(v["id"], v["name"]) for v in payload["variants"]] == [
        ("single-card-deals", "Μοίρασμα ενός φύλλου"), ("three-card-deals", "Μοίρασμα τριών φύλλων"),
        ("no-redeals", "Χωρίς ξαναμοιράσματα"), ("unlimited-redeals", "Απεριόριστα ξαναμοιράσματα")]
    for variant in payload["variants"]:
        ruleset = page.variants[variant["id"]]
        assert ruleset_from_data(variant["ruleset"]) == ruleset and variant["layout"] == pile_layout(ruleset)
    # Three cards a click: the waste fans out to the right, so that variant's table differs.
    waste = {v["id"]: next(p for p in v["layout"]["piles"] if p["id"] == "waste") for v in payload["variants"]}
    assert waste["three-card-deals"]["fan"] == "right" and waste["single-card-deals"]["fan"] != "right"
    assert payload["ui"]["variant_one-suit"] == "Μία φυλή" and payload["ui"]["board_solve"] == "Εμφάνιση λύσης"
    json.dumps(payload)


def test_payload_of_a_game_without_variants_lists_none(hamilton):
    payload = board_payload(hamilton, get_language("de"), pile_names(hamilton, "de"))
    assert payload["variant"] is None and payload["variants"] == []
