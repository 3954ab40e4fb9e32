"""The live board in a real browser: the engine running in Pyodide from the built site, moves made
with the mouse as a player makes them, refusals with the reason in the page's language, undo, and
the same position as the Python engine reaches; no request leaves 127.0.0.1, and from file:// the
board only asks for a server.

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
from patiencebook.engine.notation import position_to_dict
from patiencebook.engine.rulesdata import ruleset_from_data
from patiencebook.engine.wording import Wording
from patiencebook.generator.pages.board import find_pyodide
from patiencebook.generator.site.build import build_site
from tests.browser.conftest import serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
GAME = "hamilton"
LANG = "de"
PLAYABLE = "() => performance.getEntriesByName('pb-board-playable').length > 0"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    assert find_pyodide() is not None, "node_modules/pyodide not found: run `make test`, which runs `npm ci`"
    out = tmp_path_factory.mktemp("board") / "site"
    build_site(ROOT / "rules", ROOT / "locales", out, langs=[LANG], echo=False, report=False)
    # The build installs the runtime and places a board on every game page.
    assert (out / "_pyodide" / "pyodide.asm.wasm").is_file() and (out / "_engine" / "patiencebook-engine.zip").is_file()
    assert "data-pb-board" in (out / LANG / f"{GAME}.html").read_text(encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def server(site):
    yield from serve(site)


@pytest.fixture
def page(browser):
    # Tall enough for the whole board, so mouse coordinates of every pile are inside the viewport.
    context = browser.new_context(viewport={"width": 1200, "height": 1600})
    page = context.new_page()
    page.requests = []
    page.on("request", lambda request: page.requests.append(request.url))
    yield page
    context.close()


def _wait_playable(page) -> None:
    page.wait_for_function(PLAYABLE, timeout=60000)
    page.eval_on_selector(".pb-board-table", "table => table.scrollIntoView({block: 'start'})")


def _open(page, server: str) -> None:
    page.goto(f"{server}/{LANG}/{GAME}.html")
    _wait_playable(page)


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
    assert any("/_pyodide/pyodide.asm.wasm" in url for url in page.requests)


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


def test_board_without_the_runtime_says_it_is_unavailable(page, server):
    page.route("**/_pyodide/**", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(f"{server}/{LANG}/{GAME}.html")
    ui = _board_data(page)["ui"]
    page.wait_for_function("t => document.querySelector('.pb-board-message').textContent === t",
                           arg=ui["board_unavailable"], timeout=20000)
    assert page.evaluate("() => performance.getEntriesByName('pb-board-playable').length") == 0


def test_board_whose_engine_cannot_be_fetched_says_why(page, server):
    page.route("**/_engine/**", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(f"{server}/{LANG}/{GAME}.html")
    ui = _board_data(page)["ui"]
    prefix = ui["board_failed"].split("{error}")[0]
    message = page.locator(".pb-board-message.pb-board-refused")
    message.wait_for(timeout=60000)
    assert message.inner_text().startswith(prefix) and "404" in message.inner_text()


def test_board_opened_from_a_file_asks_for_a_server_and_loads_no_runtime(page, site):
    page.goto((site / LANG / f"{GAME}.html").as_uri())
    ui = _board_data(page)["ui"]
    message = page.locator(".pb-board-message")
    message.wait_for()
    assert message.inner_text() == ui["board_needs_server"]
    assert not page.locator(".pb-board-table .pb-card").count()
    assert not [url for url in page.requests if "_pyodide" in url or "_engine" in url]


def test_served_german_page_runs_without_script_errors_under_the_security_policy(page, server):
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/{LANG}/freecell.html")
    _wait_playable(page)
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
    _wait_playable(page)
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
            "three-card-deals, no-redeals, unlimited-redeals")
        assert _board_state(other)["deal"] == data["deal"]
    finally:
        other.context.close()


def test_show_a_solution_steps_through_the_solvers_moves_to_the_won_message(page, server):
    page.goto(f"{server}/{LANG}/freecell.html")
    _wait_playable(page)
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
    assert message.inner_text() == "Zug 1 von 29: A♦ von Tableau 1 auf Zielstapel 1 legen"
    assert _board_state(page)["moves"] == 1 and message.get_attribute("aria-live") == "polite"
    page.click(".pb-board-solution-previous")
    assert message.inner_text() == "Zug 1 von 29 zurückgenommen: A♦ von Tableau 1 auf Zielstapel 1 legen"
    assert _board_state(page)["moves"] == 0

    for _ in range(29):
        page.click(".pb-board-solution-next")
    assert message.inner_text() == ("Zug 29 von 29: Q♥ von Tableau 4 auf Zielstapel 4 legen " + ui["board_won"])
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
