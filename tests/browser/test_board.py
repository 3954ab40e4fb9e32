"""The live board in a real browser: the deal's starting position drawn before any Python, nothing
of the runtime fetched until the reader starts the board; then the engine running in Pyodide from
the built site (restored from the build's snapshot), moves made with the mouse as a player makes
them, refusals with the reason in the page's language, undo, and the same position as the Python
engine reaches; a second game page plays from the service worker's cache, even offline; no request
leaves 127.0.0.1, and from file:// the board shows the deal and asks for a server.

Also the controls under the bar: a rule variant and deal number chosen, restart, the link that
opens a deal and variant, and the solver's winning moves played step by step to the won message.

Builds the project's own rules/ and locales/ (German only) with the Pyodide runtime from the npm
package (``npm ci``, done by ``make test``), serves it with ``patiencebook serve``'s server on
127.0.0.1 and drives Debian's chromium through Playwright, headless.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.engine import Game, IllegalMove, Move
from patiencebook.engine.moves import MoveKind
from patiencebook.engine.notation import position_to_dict
from patiencebook.engine.rulesdata import ruleset_from_data
from patiencebook.engine.solver import SOLVED, solve
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


def _play(page) -> None:
    """Start the page's board with its Play button (the board costs nothing until then)."""
    page.click(".pb-board-play")
    _wait_playable(page)


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


def test_cards_hints_and_moves_are_in_the_page_language(page, server):
    """German rank marks in the card corners and the cards' names (B D K, A), a hint in words, and
    what a move did as a whole sentence, all as the Python engine says them."""
    _open(page, server)
    data = _board_data(page)
    ruleset = ruleset_from_data(data["ruleset"])
    game = Game.deal(ruleset, data["deal"])
    wording = Wording(ruleset, data["ui"], data["names"])
    shown = page.evaluate("""() => Array.from(document.querySelectorAll('.pb-board-table .pb-card.pb-face'))
        .map((card) => [card.dataset.card, card.getAttribute('aria-label'),
                        card.querySelector('.pb-index').firstChild.textContent])""")
    assert shown and all(label == wording.card(text) for text, label, _ in shown)
    assert all(corner == wording.rank(text[0]) for text, _, corner in shown)
    assert {"B", "D", "K", "A"} & {corner for _, _, corner in shown}, "no court card or ace face up to look at"
    page.click(".pb-board-hint")
    hint = game.hints()[0]
    assert page.inner_text(".pb-board-message") == wording.describe(hint, game.position)
    move = _legal_move(game)
    before = game.position
    _ui_move(page, game, move, "click")
    game.push(move)
    page.wait_for_function("() => window.PatienceBookBoards[0].state().moves === 1")
    assert page.inner_text(".pb-board-message") == wording.report(move, before)


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


# -- the deal and variant controls, the link and the solution ----------------------------------------

def _state_after(page, deal: int, moves: int = 0) -> dict:
    page.wait_for_function("([deal, moves]) => { const s = window.PatienceBookBoards[0].state(); "
                           "return s.deal === deal && s.moves === moves; }", arg=[deal, moves])
    return _board_state(page)


def _variant_ruleset(data: dict, variant: str):
    return ruleset_from_data(next(v for v in data["variants"] if v["id"] == variant)["ruleset"])


def test_a_variant_and_deal_chosen_restart_and_the_link_that_opens_them(page, server, browser):
    page.goto(f"{server}/{LANG}/klondike.html")
    _play(page)
    data = _board_data(page)
    ui = data["ui"]
    assert page.eval_on_selector_all(".pb-board-variant option", "os => os.map(o => [o.value, o.textContent])") == [
        ["single-card-deals", "Eine Karte geben"], ["three-card-deals", "Drei Karten geben"],
        ["no-redeals", "Nicht neu auflegen"], ["unlimited-redeals", "Beliebig oft neu auflegen"]]
    page.select_option(".pb-board-variant", "three-card-deals")
    page.fill(".pb-board-deal-number", "7")
    page.click(".pb-board-go")
    state = _state_after(page, 7)
    three = _variant_ruleset(data, "three-card-deals")
    assert state["variant"] == "three-card-deals"
    assert state["piles"] == position_to_dict(Game.deal(three, 7).position)["piles"]
    assert page.inner_text(".pb-board-message") == "Neues Spiel: Drei Karten geben, Nr. 7."
    assert page.inner_text(".pb-board-deal") == ui["board_deal"].format(deal=7)
    # Three cards a click, fanned on the waste as the variant's table has it.
    _click_pile(page, "stock")
    _state_after(page, 7, 1)
    assert len(_shown_piles(page)["waste"]) == 3

    page.click(".pb-board-restart")
    state = _state_after(page, 7, 0)
    assert state["piles"] == position_to_dict(Game.deal(three, 7).position)["piles"]
    assert state["variant"] == "three-card-deals" and state["can_redo"] is False
    assert page.inner_text(".pb-board-message") == "Spiel Nr. 7 beginnt wieder von vorn."

    link = page.get_attribute(".pb-board-link", "href")
    assert page.inner_text(".pb-board-link") == ui["board_link"]
    assert link == f"{server}/{LANG}/klondike.html?deal=7&variant=three-card-deals#play"
    other = browser.new_context(viewport={"width": 1200, "height": 1600}).new_page()
    try:
        other.goto(link)
        _wait_playable(other)
        state = _state_after(other, 7)
        assert state["variant"] == "three-card-deals"
        assert state["piles"] == position_to_dict(Game.deal(three, 7).position)["piles"]
        assert other.eval_on_selector(".pb-board-variant", "s => s.value") == "three-card-deals"
        assert other.eval_on_selector(".pb-board-deal-number", "i => i.value") == "7"
        assert other.inner_text(".pb-board-message") == "Neues Spiel: Drei Karten geben, Nr. 7."
        # A link naming a variant the game does not have is refused, and says so.
        other.goto(f"{server}/{LANG}/klondike.html?deal=9&variant=four-suits")
        _wait_playable(other)
        assert other.inner_text(".pb-board-message") == (
            "Nicht erlaubt: dieses Spiel hat keine Variante four-suits; seine Varianten: single-card-deals, "
            "three-card-deals, no-redeals, unlimited-redeals.")
        assert _board_state(other)["deal"] == data["deal"]
    finally:
        other.context.close()


def test_show_a_solution_steps_through_the_solvers_moves_to_the_won_message(page, server):
    page.goto(f"{server}/{LANG}/freecell.html")
    _play(page)
    data = _board_data(page)
    ui = data["ui"]
    assert not page.locator(".pb-board-variant").count()  # FreeCell has no variants
    page.fill(".pb-board-deal-number", "5")
    page.press(".pb-board-deal-number", "Enter")
    _state_after(page, 5)
    assert page.get_attribute(".pb-board-link", "href") == f"{server}/{LANG}/freecell.html?deal=5#play"
    assert page.is_hidden(".pb-board-solution")
    page.click(".pb-board-solve")
    page.wait_for_selector(".pb-board-solution", state="visible", timeout=60000)
    message = page.locator(".pb-board-message")
    assert message.inner_text() == "Eine Lösung in 29 Zügen: Spielen Sie sie mit „Nächster Zug“ Zug für Zug nach."
    assert page.is_disabled(".pb-board-solution-previous") and page.is_enabled(".pb-board-solution-next")
    assert _board_state(page)["moves"] == 0  # showing the solution plays nothing

    page.click(".pb-board-solution-next")
    assert message.inner_text() == "Zug 1 von 29: Legen Sie das A♦ von Tableau 1 auf Zielstapel 1."
    assert _board_state(page)["moves"] == 1 and message.get_attribute("aria-live") == "polite"
    page.click(".pb-board-solution-previous")
    assert message.inner_text() == "Zug 1 von 29 zurückgenommen: Legen Sie das A♦ von Tableau 1 auf Zielstapel 1."
    assert _board_state(page)["moves"] == 0

    for _ in range(29):
        page.click(".pb-board-solution-next")
    assert message.inner_text() == ("Zug 29 von 29: Legen Sie die D♥ von Tableau 4 auf Zielstapel 4. " + ui["board_won"])
    assert "pb-board-won" in message.get_attribute("class")
    assert page.get_attribute("div[data-pb-board]", "data-status") == "won"
    assert page.is_disabled(".pb-board-solution-next") and page.is_disabled(".pb-board-solve")
    shown = _board_state(page)
    assert shown["moves"] == 29 and shown["status"] == "won"
    assert all(not pile["cards"] for pile in shown["piles"] if pile["role"] != "foundation")

    # A move of the player's own puts the solution away.
    page.click(".pb-board-undo")
    assert page.is_hidden(".pb-board-solution")
    assert _board_state(page)["moves"] == 28


# -- the keyboard ---------------------------------------------------------------------------------

#: A FreeCell deal that patiencebook's solver wins in few moves (29, a run among them), played with
#: the keyboard alone; the solver finds the line when the test runs.
SHORT_FREECELL_DEAL = 5
ORDER = "() => window.PatienceBookBoards[0].order().map((pile) => pile.id)"
PLACE = """() => { const e = document.activeElement;
  return [e.dataset.pile || null, e.dataset.index === undefined ? null : Number(e.dataset.index)]; }"""


def _open_game(page, server: str, game: str, deal: int | None = None) -> tuple[dict, Game]:
    """Open ``game``'s German page, on ``deal`` (the page's own deal when None); the board's data and
    the engine's game of that deal."""
    page.goto(f"{server}/{LANG}/{game}.html")
    _play(page)
    data = _board_data(page)
    if deal is not None:
        page.evaluate("n => window.PatienceBookBoards[0].newDeal(n)", deal)
        data["deal"] = deal
    return data, Game.deal(ruleset_from_data(data["ruleset"]), data["deal"])


def _place(page) -> tuple[str | None, int | None]:
    """The pile and card (None: the pile itself) that has the keyboard focus."""
    return tuple(page.evaluate(PLACE))


def _enter_table(page) -> None:
    # From the last control above it (the link to this deal), Tab reaches the table: it is one tab stop.
    page.focus(".pb-board-link")
    page.keyboard.press("Tab")
    assert _place(page)[0] is not None


def _key_to(page, order: list[str], pile: str, index: int | None) -> None:
    """Arrow keys to card ``index`` of ``pile`` (None: wherever entering the pile lands)."""
    for _ in range(120):
        here, at = _place(page)
        if here != pile:
            page.keyboard.press("ArrowRight" if order.index(pile) > order.index(here) else "ArrowLeft")
        elif index is not None and at != index:
            page.keyboard.press("ArrowUp" if at > index else "ArrowDown")
        else:
            return
    raise AssertionError(f"the arrow keys did not reach {pile} card {index}; focus is on {_place(page)}")


def _key_move(page, order: list[str], game: Game, move: Move) -> None:
    """Play ``move`` on the board with keys only, and in ``game``."""
    position = game.position
    if move.kind is MoveKind.STOCK:
        stock = next(pid for pid in position.pile_ids if position.role(pid).value == "stock")
        _key_to(page, order, stock, None)
        page.keyboard.press("Enter")
    elif move.kind is MoveKind.DOUBLE_CLICK:
        _key_to(page, order, move.source, None)
        page.keyboard.press("f")
    elif move.kind is MoveKind.FLIP:
        _key_to(page, order, move.source, len(position.pile(move.source)) - 1)
        page.keyboard.press("Enter")
    else:
        _key_to(page, order, move.source, len(position.pile(move.source)) - move.count)
        page.keyboard.press("Enter")
        _key_to(page, order, move.target, None)
        page.keyboard.press("Enter")
    game.push(move)
    page.wait_for_function("n => window.PatienceBookBoards[0].state().moves === n", arg=len(game.moves))


def _message(page) -> str:
    return page.inner_text(".pb-board-message")


def test_a_whole_freecell_deal_is_won_with_the_keyboard_alone(page, server):
    data, game = _open_game(page, server, "freecell", SHORT_FREECELL_DEAL)
    line = solve(game.position, budget=30000)
    assert line.status == SOLVED and len(line.moves) <= 40
    assert any(move.is_drag and move.count > 1 for move in line.moves)
    order = page.evaluate(ORDER)
    _enter_table(page)
    for move in line.moves:
        _key_move(page, order, game, move)
    state = _board_state(page)
    assert game.is_won() and state["status"] == "won"
    assert state["piles"] == position_to_dict(game.position)["piles"]
    assert _message(page).endswith(" " + data["ui"]["board_won"])
    assert page.get_attribute("div[data-pb-board]", "data-status") == "won"


def test_a_run_is_taken_and_moved_with_the_keyboard(page, server):
    data, game = _open_game(page, server, "hamilton", 1)
    line = solve(game.position, budget=30000).moves
    first_run = next(i for i, move in enumerate(line) if move.is_drag and move.count > 1)
    order = page.evaluate(ORDER)
    _enter_table(page)
    for move in line[:first_run]:
        _key_move(page, order, game, move)
    run = line[first_run]
    assert str(run) == "tableau3:2>tableau2"
    cards = game.position.pile(run.source)
    index = len(cards) - run.count
    _key_to(page, order, run.source, index)
    page.keyboard.press("Space")
    # Both cards of the run are picked up, in one frame, and the message says which and where to.
    selected = page.eval_on_selector_all(f'.pb-board-table .pb-card[data-pile="{run.source}"].pb-selected',
                                         "cs => cs.map((c) => Number(c.dataset.index))")
    assert selected == list(range(index, len(cards)))
    assert _pile(page, run.source).locator(".pb-frame-selected").count() == 1
    wording = Wording(game.ruleset, data["ui"], data["names"])
    before = game.position
    targets = [pid for pid in before.pile_ids if pid != run.source and before.is_legal(Move.drag(run.source, pid, 2))]
    assert targets == ["tableau2"]
    assert _message(page) == " ".join([
        data["ui"]["board_selected_run"].format(count=2, card=wording.card(cards[index][0])),
        data["ui"]["board_targets"].format(piles=data["names"]["tableau2"])])
    assert "pb-legal" in _pile(page, "tableau2").get_attribute("class")
    _key_to(page, order, run.target, None)
    page.keyboard.press("Enter")
    game.push(run)
    page.wait_for_function("n => window.PatienceBookBoards[0].state().moves === n", arg=len(game.moves))
    assert _board_state(page)["piles"] == position_to_dict(game.position)["piles"]
    assert _message(page) == wording.report(run, before)


def test_a_buried_face_up_card_of_yukon_is_taken_with_the_cards_on_it(page, server):
    data, game = _open_game(page, server, "yukon")
    position = game.position
    # Yukon moves any face-up card with all the cards on it, run or not.
    move = next(m for m in game.legal_moves if m.is_drag and m.count > 1 and position.pile(m.source)[-m.count][1])
    cards = position.pile(move.source)
    index = len(cards) - move.count
    order = page.evaluate(ORDER)
    _enter_table(page)
    _key_to(page, order, move.source, len(cards) - 1)
    # Up goes down the pile card by card, face-up cards only.
    for at in range(len(cards) - 2, index - 1, -1):
        page.keyboard.press("ArrowUp")
        assert _place(page) == (move.source, at)
    page.keyboard.press("Enter")
    selected = page.eval_on_selector_all(f'.pb-board-table .pb-card[data-pile="{move.source}"].pb-selected',
                                         "cs => cs.map((c) => Number(c.dataset.index))")
    assert selected == list(range(index, len(cards)))
    wording = Wording(game.ruleset, data["ui"], data["names"])
    assert _message(page).startswith(data["ui"]["board_selected_run"].format(
        count=move.count, card=wording.card(cards[index][0])) + " ")
    # Escape puts the cards back; Enter takes them again and Enter on the target puts them there.
    page.keyboard.press("Escape")
    assert not page.locator(".pb-board-table .pb-selected").count()
    assert _message(page) == data["ui"]["board_cancelled"]
    page.keyboard.press("Enter")
    _key_to(page, order, move.target, None)
    page.keyboard.press("Enter")
    game.push(move)
    page.wait_for_function("() => window.PatienceBookBoards[0].state().moves === 1")
    assert _board_state(page)["piles"] == position_to_dict(game.position)["piles"]
    # The keyboard stays on the target, on its new top card.
    assert _place(page) == (move.target, len(game.position.pile(move.target)) - 1)


def test_undo_and_redo_keys_take_back_and_replay_moves(page, server):
    data, game = _open_game(page, server, "yukon")
    wording = Wording(game.ruleset, data["ui"], data["names"])
    order = page.evaluate(ORDER)
    _enter_table(page)
    first = next(m for m in game.legal_moves if m.is_drag)
    _key_move(page, order, game, first)
    second = next(m for m in game.legal_moves if m.is_drag)
    _key_move(page, order, game, second)
    for key, moves in (("u", 1), ("Control+z", 0), ("r", 1), ("Control+y", 2), ("u", 1), ("Control+Shift+Z", 2)):
        page.keyboard.press(key)
        page.wait_for_function("n => window.PatienceBookBoards[0].state().moves === n", arg=moves)
    # The last undo and redo, in words, as the engine says them.
    assert _message(page) == wording.join(wording.msg("play_redone"), wording.report(second, Game.deal(
        game.ruleset, data["deal"]).position.apply(first)))
    assert _board_state(page)["piles"] == position_to_dict(game.position)["piles"]
    page.keyboard.press("u")
    page.keyboard.press("u")
    page.keyboard.press("u")
    assert _board_state(page)["moves"] == 0
    assert _message(page) == wording.msg("play_refused", reason=wording.reason("no-undo", "", {}))


def test_f_and_shift_enter_double_click_and_the_message_names_where_the_card_went(page, server):
    data, game = _open_game(page, server, "freecell")
    wording = Wording(game.ruleset, data["ui"], data["names"])
    order = page.evaluate(ORDER)
    _enter_table(page)
    for pile, key in (("tableau1", "f"), ("tableau2", "Shift+Enter")):
        position = game.position
        drags = position.double_click_drags(pile)
        assert len(drags) == 1 and drags[0].target.startswith("freecell")
        card = position.pile(pile)[-1][0]
        _key_to(page, order, pile, None)
        page.keyboard.press(key)
        game.push(Move.double_click(pile))
        page.wait_for_function("n => window.PatienceBookBoards[0].state().moves === n", arg=len(game.moves))
        # "Die 9♠ wurde von Tableau 1 in die freie Zelle 1 gelegt.": the card and the free cell it went to.
        expected = wording.report(Move.double_click(pile), position)
        assert _message(page) == expected
        assert wording.card(card) in expected and "freie Zelle" in expected
    assert _board_state(page)["piles"] == position_to_dict(game.position)["piles"]


def test_hint_frames_the_card_that_moves_and_its_place_not_the_piles(page, server):
    data, game = _open_game(page, server, "yukon")
    hint = game.hints()[0]
    _enter_table(page)
    page.keyboard.press("h")
    assert _message(page) == Wording(game.ruleset, data["ui"], data["names"]).describe(hint, game.position)
    cards = game.position.pile(hint.source)
    onto = game.position.pile(hint.target)
    # One look at the drawn table (the page may still be scrolling to the focused pile).
    boxes = page.evaluate("""([source, first, last, target, top]) => {
        const box = (selector) => { const r = document.querySelector('.pb-board-table ' + selector).getBoundingClientRect();
                                    return [r.top, r.bottom, r.left, r.right]; };
        const card = (pile, i) => box(`.pb-card[data-pile="${pile}"][data-index="${i}"]`);
        return {frame: box(`.pb-pile[data-pile="${source}"] .pb-frame-source`), first: card(source, first),
                last: card(source, last), onto: box(`.pb-pile[data-pile="${target}"] .pb-frame-target`),
                place: top < 0 ? box(`.pb-pile[data-pile="${target}"]`) : card(target, top)};
    }""", [hint.source, len(cards) - hint.count, len(cards) - 1, hint.target, len(onto) - 1])
    # The source frame spans the moving cards, from the lowest one's top to the top card's bottom;
    # the target frame is the place they go, the top card there or the empty pile.
    assert boxes["frame"] == [boxes["first"][0], boxes["last"][1], boxes["first"][2], boxes["first"][3]]
    assert boxes["onto"] == boxes["place"]
    page.keyboard.press("Escape")
    assert not page.locator(".pb-board-table .pb-frame").count()


def test_piles_are_labelled_in_german_and_the_help_says_only_what_the_game_allows(page, server):
    data, game = _open_game(page, server, "freecell")
    names = data["names"]
    ui = data["ui"]
    # What each pile's caption reads: its name, or its number under the name of its group written
    # once across the group where the names take more than a line by their piles.
    labels = page.evaluate("""() => {
        const groups = [...document.querySelectorAll('.pb-board-table .pb-group-label')].map((g) => {
            const r = g.getBoundingClientRect();
            return {text: g.textContent, left: r.left, right: r.right, below: g.classList.contains('pb-group-below')};
        });
        return [...document.querySelectorAll('.pb-board-table .pb-pile')].map((p) => {
            const r = p.getBoundingClientRect();
            const middle = (r.left + r.right) / 2;
            const below = p.classList.contains('pb-label-below');
            const group = groups.find((g) => g.below === below && g.left <= middle && middle <= g.right);
            return [p.dataset.pile, p.querySelector('.pb-label').textContent, group ? group.text : null,
                    p.getAttribute('aria-label')];
        });
    }""")
    shown = {pid: f"{group} {label}" if group else label for pid, label, group, _ in labels}
    assert shown == names
    assert shown["freecell1"] == "Freie Zelle 1" and shown["foundation4"] == "Zielstapel 4" \
        and shown["tableau8"] == "Tableau 8"
    # Each caption is set in at least 11 px.
    assert min(page.eval_on_selector_all(".pb-board-table .pb-label",
                                         "ls => ls.map((l) => parseFloat(getComputedStyle(l).fontSize))")) >= 11
    spoken = {pid: name for pid, _, _, name in labels}
    assert spoken["freecell1"] == "Freie Zelle 1 (leer)" and spoken["tableau1"] == "Tableau 1"
    assert page.inner_text(".pb-board-help-pointer") == f"{ui['board_help']} {ui['board_help_dbl_freecell']}"
    assert page.inner_text(".pb-board-help-keys") == f"{ui['board_keys']} {ui['board_keys_dbl']}"
    assert page.get_attribute(".pb-board-table", "aria-describedby") == page.get_attribute(".pb-board-help", "id")
    # Golf has a stock and a waste and no foundation: its help says so.
    _open_game(page, server, "golf")
    assert page.inner_text(".pb-board-help-pointer") == " ".join(
        [ui["board_help"], ui["board_help_stock"], ui["board_help_dbl_waste"]])
    assert "Zielstapel" not in page.inner_text(".pb-board-help")
    # Scorpion has no double-click at all: no key for it either.
    _open_game(page, server, "scorpion")
    assert page.inner_text(".pb-board-help-keys") == ui["board_keys"]


def test_on_a_390_pixel_phone_cards_and_labels_are_readable_and_search_comes_first(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{server}/{LANG}/freecell.html")
        _play(page)
        sizes = page.evaluate("""() => {
            const px = (el) => parseFloat(getComputedStyle(el).fontSize);
            const cards = [...document.querySelectorAll('.pb-board-table .pb-card')];
            const labels = [...document.querySelectorAll('.pb-board-table .pb-label')];
            const svg = document.querySelector('figure.pb-setup-picture svg');
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            const texts = [...svg.querySelectorAll('text')].map((t) => parseFloat(t.getAttribute('font-size')) * scale);
            const table = document.querySelector('.pb-board-table');
            return {card: Math.min(...cards.map((c) => c.getBoundingClientRect().width)),
                    index: Math.min(...cards.filter((c) => c.querySelector('.pb-index')).map((c) => px(c))),
                    label: Math.min(...labels.map(px)), picture: Math.min(...texts),
                    scrolls: table.scrollWidth > table.clientWidth};
        }""")
        assert sizes["card"] >= 44 and sizes["index"] >= 11
        assert sizes["label"] >= 11 and sizes["picture"] >= 11
        # FreeCell's eight tableau piles are wider than the phone: the table scrolls sideways.
        assert sizes["scrolls"] is True
        search = page.locator("#searchbox input[name=q]")
        assert search.is_visible()
        box = search.bounding_box()
        main = page.locator("div.body[role=main]").bounding_box()
        assert box["y"] + box["height"] <= main["y"] and box["y"] < 844
        # The list of keys is for keyboards: a touch screen does without it.
        assert not page.locator(".pb-board-help-keys").is_visible()
        assert page.locator(".pb-board-help-pointer").is_visible()
    finally:
        context.close()


def test_triple_peaks_names_only_the_piles_no_other_pile_lies_over(page, server):
    # The lower rows of the peaks lie half a card under the piles over them: a caption there would be
    # written across those cards, so only the three peaks (and the top row) show theirs; every pile
    # keeps its name for assistive technology and as a tooltip.
    _open_game(page, server, "triple_peaks")
    shown = page.evaluate("""() => [...document.querySelectorAll('.pb-board-table .pb-pile')]
        .filter((p) => p.querySelector('.pb-label')).map((p) => p.dataset.pile)""")
    assert shown == ["stock", "discard", "waste", "tableau1", "tableau2", "tableau3"]
    named = page.evaluate("""() => [...document.querySelectorAll('.pb-board-table .pb-pile')]
        .map((p) => p.getAttribute('aria-label'))""")
    assert len(named) == 31 and named[-1] == "Tableau 28 (1)" and all(named)
