"""The live board in a real browser: the deal's starting position drawn before any Python, nothing
of the runtime fetched until the reader starts the board; then the engine running in Pyodide from
the built site (restored from the build's snapshot), moves made with the mouse as a player makes
them, refusals with the reason in the page's language, undo, and the same position as the Python
engine reaches; a second game page plays from the service worker's cache, even offline; no request
leaves 127.0.0.1, and from file:// the board shows the deal and asks for a server.

Builds the project's own rules/ and locales/ (German only) with the Pyodide runtime from the npm
package (``npm ci``, done by ``make test``), serves it with ``patiencebook serve``'s server on
127.0.0.1 and drives Debian's chromium through Playwright, headless.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.engine import Game, IllegalMove, Move
from patiencebook.engine.notation import position_to_dict
from patiencebook.engine.rulesdata import ruleset_from_data
from patiencebook.engine.wording import Wording
from patiencebook.generator.pages.board import board_files, find_pyodide
from patiencebook.generator.site.build import build_site
from tests.browser.conftest import serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GAME = "hamilton"
LANG = "de"
OTHER = "klondike"
PLAYABLE = "() => performance.getEntriesByName('pb-board-playable').length > 0"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    assert find_pyodide() is not None, "node_modules/pyodide not found: run `make test`, which runs `npm ci`"
    out = tmp_path_factory.mktemp("board") / "site"
    build_site(ROOT / "rules", ROOT / "locales", out, langs=[LANG], echo=False, report=False)
    # The build installs the runtime and places a board on every game page.
    files = board_files()
    assert (out / files.pyodide / "pyodide.asm.wasm").is_file() and (out / files.engine).is_file()
    assert files.snapshot and (out / files.snapshot).is_file(), "no Python snapshot: Node.js is needed at build time"
    assert (out / "pb-sw.js").is_file()
    assert "data-pb-board" in (out / LANG / f"{GAME}.html").read_text(encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def server(site):
    yield from serve(site)


def _context(browser, **options):
    # Tall enough for the whole board, so mouse coordinates of every pile are inside the viewport.
    return browser.new_context(viewport={"width": 1200, "height": 1600}, **options)


def _recorded(page):
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    return page


@pytest.fixture
def page(browser):
    context = _context(browser)
    yield _recorded(context.new_page())
    context.close()


@pytest.fixture
def routed_page(browser):
    """A page whose requests page.route() sees: no service worker in between."""
    context = _context(browser, service_workers="block")
    yield _recorded(context.new_page())
    context.close()


def _wait_playable(page) -> None:
    page.wait_for_function(PLAYABLE, timeout=60000)
    page.eval_on_selector(".pb-board-table", "table => table.scrollIntoView({block: 'start'})")


def _open(page, server: str, game: str = GAME) -> None:
    """Open the game page and start its board with the Play button."""
    page.goto(f"{server}/{LANG}/{game}.html")
    page.click(".pb-board-play")
    _wait_playable(page)


def _runtime(urls: list[str]) -> list[str]:
    return [url for url in urls if "/_pyodide/" in url or "/_engine/" in url]


def _board_data(page) -> dict:
    return page.eval_on_selector("div[data-pb-board] script.pb-board-data", "e => JSON.parse(e.textContent)")


def _card(page, pile: str, index: int):
    return page.locator(f'.pb-board-table .pb-card[data-pile="{pile}"][data-index="{index}"]')


def _pile(page, pile: str):
    return page.locator(f'.pb-board-table .pb-pile[data-pile="{pile}"]')


def _click_card(page, pile: str, index: int) -> None:
    # The top strip of a card shows even when cards lie on it in a fan.
    box = _card(page, pile, index).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + 4)


def _click_pile(page, pile: str) -> None:
    box = _pile(page, pile).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _drag(page, pile: str, index: int, target: str) -> None:
    start = _card(page, pile, index).bounding_box()
    end = _pile(page, target).bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + 4)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def _ui_move(page, game: Game, move: Move, how: str) -> None:
    """Make ``move`` on the board with the mouse: a stock click, or a drag (``how`` "drag") or a
    click on the card and then on the target pile (``how`` "click")."""
    if move.kind.value == "stock":
        _click_pile(page, "stock")
        return
    index = len(game.position.pile(move.source)) - move.count
    if how == "drag":
        _drag(page, move.source, index, move.target)
    else:
        _click_card(page, move.source, index)
        _click_pile(page, move.target)


def _board_state(page) -> dict:
    return page.evaluate("() => window.PatienceBookBoards[0].state()")


def _shown_piles(page) -> dict[str, list[str]]:
    """The cards the board draws, pile by pile, bottom to top, from the cards' data attributes."""
    return page.evaluate("""() => {
        const piles = {};
        document.querySelectorAll('.pb-board-table .pb-pile[data-pile]').forEach((pile) => {
            const cards = Array.from(pile.querySelectorAll('.pb-card'))
                .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
            piles[pile.dataset.pile] = cards.map((card) => card.dataset.card);
        });
        return piles;
    }""")


def _legal_move(game: Game) -> Move:
    """The first legal drag, or the stock click when no card can be dragged."""
    return next((m for m in game.legal_moves if m.is_drag), Move.stock())


def _illegal_drag(game: Game) -> tuple[Move, IllegalMove]:
    """A one-card drag between piles whose top cards are face up that the rules refuse."""
    position = game.position
    ids = [pid for pid in position.pile_ids if position.pile(pid) and position.pile(pid)[-1][1]
           and position.role(pid).value == "tableau"]
    for source in ids:
        for target in ids:
            move = Move.drag(source, target)
            if source != target and not position.is_legal(move):
                try:
                    position.apply(move)
                except IllegalMove as err:
                    return move, err
    raise AssertionError("no refused drag between tableau piles in this position")


def test_the_deals_starting_position_is_drawn_before_python_and_nothing_of_the_runtime_is_fetched(page, server):
    page.goto(f"{server}/{LANG}/{GAME}.html", wait_until="load")
    page.wait_for_selector(".pb-board-table .pb-card")
    page.wait_for_timeout(2000)  # the page loaded and left alone: still no runtime
    assert _runtime(page.requests) == []
    assert page.evaluate("() => typeof window.loadPyodide") == "undefined"
    data = _board_data(page)
    game = Game.deal(ruleset_from_data(data["ruleset"]), data["deal"])
    dealt = {pile["id"]: pile["cards"] for pile in position_to_dict(game.position)["piles"]}
    assert _shown_piles(page) == dealt
    # The top card of each tableau pile of deal 1, as the engine deals it.
    tops = {pid: game.position.pile(pid)[-1] for pid in game.position.pile_ids
            if game.position.role(pid).value == "tableau"}
    assert data["deal"] == 1 and tops
    for pid, (card, up) in tops.items():
        top = _card(page, pid, len(game.position.pile(pid)) - 1)
        assert top.get_attribute("data-card") == ("" if up else "#") + str(card)
    play = page.locator(".pb-board-play")
    assert play.inner_text() == data["ui"]["board_play"] and play.is_visible() and play.is_enabled()
    assert page.inner_text(".pb-board-start-note") == data["ui"]["board_start"]
    assert page.locator(".pb-board-bar").is_hidden()
    assert page.evaluate("() => performance.getEntriesByName('pb-board-playable').length") == 0


def test_play_starts_the_board_from_the_snapshot(page, server):
    errors, warnings = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    page.goto(f"{server}/{LANG}/{GAME}.html", wait_until="load")
    page.locator(".pb-board-play").focus()
    page.keyboard.press("Enter")
    _wait_playable(page)
    assert page.locator(".pb-board-start").count() == 0 and page.locator(".pb-board-bar").is_visible()
    assert page.inner_text(".pb-board-message") == ""
    data = _board_data(page)
    assert _board_state(page)["piles"] == data["start"]["piles"]
    # Python came from the build's snapshot: no engine archive was needed, nothing fell back.
    requested = _runtime(page.requests)
    assert any(url.endswith(".snapshot.gz") for url in requested)
    assert not any(url.endswith(".zip") and "/_engine/" in url for url in requested)
    assert errors == [] and not [text for text in warnings if "pb-board" in text]
    # The keyboard player who started it is on the board.
    assert page.evaluate("() => document.activeElement.closest('.pb-board-table') !== null")


def test_a_click_on_the_cards_starts_the_board_too(page, server):
    page.goto(f"{server}/{LANG}/{GAME}.html", wait_until="load")
    page.eval_on_selector(".pb-board-table", "table => table.scrollIntoView({block: 'start'})")
    _click_pile(page, "stock")
    _wait_playable(page)
    assert _board_state(page)["moves"] == 0


def test_a_second_game_page_plays_from_the_cache_even_offline(browser, server):
    context = _context(browser)
    try:
        first = _recorded(context.new_page())
        first.goto(f"{server}/{LANG}/{GAME}.html", wait_until="load")
        # The service worker is registered when the browser is idle after the load.
        first.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20000)
        first.click(".pb-board-play")
        _wait_playable(first)
        kept = first.evaluate("""async () => {
            const cache = await caches.open('patiencebook-runtime-1');
            return (await cache.keys()).map((request) => new URL(request.url).pathname);
        }""")
        files = board_files()
        assert sorted(kept) == sorted([f"/{files.pyodide}{name}" for name in
                                       ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                                        "pyodide-lock.json")] + [f"/{files.snapshot}"])
        second = context.new_page()
        responses = []
        second.on("response", lambda response: responses.append(response))
        second.goto(f"{server}/{LANG}/{OTHER}.html", wait_until="load")
        first.close()
        context.set_offline(True)
        second.click(".pb-board-play")
        _wait_playable(second)
        runtime = [r for r in responses if "/_pyodide/" in r.url or "/_engine/" in r.url]
        assert runtime and all(r.from_service_worker and r.status == 200 for r in runtime)
        data = _board_data(second)
        assert data["game"] == OTHER
        game = Game.deal(ruleset_from_data(data["ruleset"]), data["deal"])
        assert _board_state(second)["piles"] == position_to_dict(game.position)["piles"]
    finally:
        context.close()


def test_board_plays_with_the_mouse_refuses_in_german_and_matches_the_engine(page, server):
    _open(page, server)
    data = _board_data(page)
    ruleset = ruleset_from_data(data["ruleset"])
    game = Game.deal(ruleset, data["deal"])
    assert page.inner_text(".pb-board-deal") == data["ui"]["board_deal"].format(deal=data["deal"])

    # Three legal moves: a click on the stock, a drag, and a click on a card then on a pile.
    first = Move.stock() if Move.stock() in game.legal_moves else _legal_move(game)
    _ui_move(page, game, first, "click")
    game.push(first)
    page.wait_for_function("n => window.PatienceBookBoards[0].state().moves === n", arg=1)
    second = _legal_move(game)
    _ui_move(page, game, second, "drag")
    game.push(second)
    page.wait_for_function("n => window.PatienceBookBoards[0].state().moves === n", arg=2)
    third = _legal_move(game)
    _ui_move(page, game, third, "click")
    game.push(third)
    page.wait_for_function("n => window.PatienceBookBoards[0].state().moves === n", arg=3)
    assert position_to_dict(game.position)["piles"] == _board_state(page)["piles"]

    # An illegal move is refused, with the reason in German, and changes nothing.
    move, err = _illegal_drag(game)
    wording = Wording(ruleset, data["ui"], data["names"])
    reason = wording.reason(err.code, str(err), err.params)
    _ui_move(page, game, move, "click")
    message = page.locator(".pb-board-message")
    assert message.inner_text() == wording.msg("play_refused", reason=reason)
    assert "pb-board-refused" in message.get_attribute("class")
    assert message.get_attribute("aria-live") == "polite"
    assert _board_state(page)["moves"] == 3

    # Undo takes the third move back, as the engine does.
    page.click(".pb-board-undo")
    game.undo()
    state = _board_state(page)
    expected = position_to_dict(game.position)
    assert {key: state[key] for key in expected} == expected
    assert state["can_redo"] is True and state["moves"] == 2
    shown = _shown_piles(page)
    assert shown == {pile["id"]: pile["cards"] for pile in expected["piles"]}
    assert page.inner_text(".pb-board-score") == state["score_text"]

    # Everything came from the local server.
    outside = [url for url in page.requests
               if not url.startswith(server + "/") and not url.startswith(("data:", "blob:"))]
    assert outside == []
    assert any(url.endswith("/pyodide.asm.wasm") and "/_pyodide/" in url for url in page.requests)


def test_double_click_sends_a_card_to_a_foundation_and_hint_highlights(page, server):
    _open(page, server)
    data = _board_data(page)
    game = Game.deal(ruleset_from_data(data["ruleset"]), data["deal"])
    page.click(".pb-board-hint")
    hint = game.hints()[0]
    source = "stock" if hint.kind.value == "stock" else hint.source
    assert _pile(page, source).get_attribute("class").split().count("pb-source") == 1
    assert _board_state(page)["moves"] == 0
    if ruleset_from_data(data["ruleset"]).chooser is None:
        pytest.skip("the double-click check below uses the chooser")
    _click_pile(page, "stock")
    game.push(Move.stock())
    page.wait_for_function("() => window.PatienceBookBoards[0].state().moves === 1")
    page.dblclick('.pb-board-table .pb-card[data-pile="chooser"]')
    game.push(Move.double_click("chooser"))
    page.wait_for_function("() => window.PatienceBookBoards[0].state().moves === 2")
    assert _board_state(page)["piles"] == position_to_dict(game.position)["piles"]


def test_keyboard_picks_up_a_card_and_puts_it_on_a_pile(page, server):
    _open(page, server)
    data = _board_data(page)
    game = Game.deal(ruleset_from_data(data["ruleset"]), data["deal"])
    if Move.stock() in game.legal_moves:
        _pile(page, "stock").focus()
        page.keyboard.press("Enter")
        game.push(Move.stock())
        page.wait_for_function("() => window.PatienceBookBoards[0].state().moves === 1")
    move = next(m for m in game.legal_moves if m.is_drag and m.count == 1)
    _pile(page, move.source).focus()
    page.keyboard.press("Enter")
    top = len(game.position.pile(move.source)) - 1
    assert "pb-selected" in _card(page, move.source, top).get_attribute("class")
    assert "pb-legal" in _pile(page, move.target).get_attribute("class")
    page.keyboard.press("Escape")
    assert "pb-selected" not in _card(page, move.source, top).get_attribute("class")
    page.keyboard.press("Enter")
    _pile(page, move.target).focus()
    page.keyboard.press("Enter")
    game.push(move)
    page.wait_for_function("n => window.PatienceBookBoards[0].state().moves === n", arg=len(game.moves))
    assert _board_state(page)["piles"] == position_to_dict(game.position)["piles"]
    # The table was drawn again; the pile the player was on keeps the focus.
    assert page.evaluate("() => document.activeElement.dataset.pile") == move.target


def test_board_without_the_runtime_says_it_is_unavailable(routed_page, server):
    page = routed_page
    page.route("**/_pyodide/**", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(f"{server}/{LANG}/{GAME}.html")
    page.click(".pb-board-play")
    ui = _board_data(page)["ui"]
    page.wait_for_function("t => document.querySelector('.pb-board-message').textContent === t",
                           arg=ui["board_unavailable"], timeout=20000)
    assert page.evaluate("() => performance.getEntriesByName('pb-board-playable').length") == 0


def test_board_whose_engine_cannot_be_fetched_says_why(routed_page, server):
    # Neither the snapshot nor the engine archive: Python starts, but without the engine.
    page = routed_page
    page.route("**/_engine/**", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(f"{server}/{LANG}/{GAME}.html")
    page.click(".pb-board-play")
    ui = _board_data(page)["ui"]
    prefix = ui["board_failed"].split("{error}")[0]
    message = page.locator(".pb-board-message.pb-board-refused")
    message.wait_for(timeout=60000)
    assert message.inner_text().startswith(prefix) and "404" in message.inner_text()


def test_board_opened_from_a_file_shows_the_deal_asks_for_a_server_and_loads_no_runtime(page, site):
    page.goto((site / LANG / f"{GAME}.html").as_uri())
    data = _board_data(page)
    message = page.locator(".pb-board-message")
    message.wait_for()
    assert message.inner_text() == data["ui"]["board_needs_server"]
    page.wait_for_selector(".pb-board-table .pb-card")
    assert _shown_piles(page) == {pile["id"]: pile["cards"] for pile in data["start"]["piles"]}
    assert page.locator(".pb-board-play").count() == 0
    page.wait_for_timeout(1000)
    assert not _runtime(page.requests)


def test_served_german_page_runs_without_script_errors_under_the_security_policy(page, server):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    _open(page, server, "freecell")
    assert errors == []
    # Sphinx's translations, set up without eval: German has two plural forms.
    assert page.evaluate("() => [Documentation.LOCALE, Documentation.PLURAL_EXPR(1), Documentation.PLURAL_EXPR(2)]") \
        == ["de", 0, 1]
