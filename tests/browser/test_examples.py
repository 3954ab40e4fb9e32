"""Step-through examples in a real browser, opened from disk (file://) with no server and no network.

The pages are tests/data/sphinxext/examples/<lang>/demo.xml (a hand-made trace) built with the Sphinx
extension, and the project's own rules/ built as `make site` builds them. Drives Debian's chromium through
Playwright, headless, as tests/browser/test_site.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from patiencebook.generator.site.build import build_site
from tests.generator.sphinxext.fixture import build_examples

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "figure#demo-example-start"


@pytest.fixture(scope="module")
def examples_site(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("examples")
    build_examples(tmp / "out", tmp / "work")
    return tmp / "out"


@pytest.fixture
def page(browser):
    """A page that records every request and every script error; after the test, both must be clean:
    nothing but file:// is asked for, and no script fails."""
    context = browser.new_context()
    requests: list[str] = []
    errors: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert requests and all(url.startswith("file://") for url in requests), requests
    assert not errors, errors


def _open(page, path: Path, example: str):
    page.goto(path.as_uri())
    page.wait_for_selector(f"{example} .pb-example-widget:not([hidden]) .pb-card")
    return page.evaluate(f"JSON.parse(document.querySelector('{example} script.pb-trace').textContent)")


def _drawn(page, example: str) -> dict[str, list[str]]:
    """Pile id -> data-card of each drawn card, bottom first, as the widget shows it now."""
    return page.evaluate("""(sel) => {
        const piles = {};
        for (const pile of document.querySelectorAll(sel + ' .pb-example-board .pb-pile')) {
            const cards = [...pile.querySelectorAll('.pb-card')];
            cards.sort((a, b) => a.dataset.index - b.dataset.index);
            piles[pile.dataset.pile] = cards.map((c) => c.dataset.card);
        }
        return piles;
    }""", example)


def _state(page, example: str) -> dict:
    return page.evaluate("""(sel) => {
        const root = document.querySelector(sel);
        const button = (go) => root.querySelector(`button[data-pb-go="${go}"]`).getAttribute('aria-disabled');
        return {
            status: root.querySelector('.pb-example-status').textContent,
            current: [...root.querySelectorAll('li[aria-current="step"]')].map((li) => li.dataset.pbStep),
            disabled: ['first', 'previous', 'next', 'last'].filter((go) => button(go) === 'true'),
        };
    }""", example)


def _assert_step(page, example: str, trace: dict, n: int) -> None:
    """The widget shows step ``n`` of ``trace``: announce, every pile's cards, list mark, buttons."""
    step = trace["steps"][n]
    last = len(trace["steps"]) - 1
    state = _state(page, example)
    assert state["status"] == step["announce"]
    assert _drawn(page, example) == {pile["id"]: pile["cards"] for pile in step["position"]["piles"]}
    assert state["current"] == ([] if n == 0 else [str(n)])
    assert state["disabled"] == (["first", "previous"] if n == 0 else []) + (["next", "last"] if n == last else [])


def test_german_example_steps_through_with_buttons(page, examples_site):
    trace = _open(page, examples_site / "de" / "demo.html", EXAMPLE)
    _assert_step(page, EXAMPLE, trace, 0)
    assert trace["steps"][0]["announce"] == "Schritt 0 von 4: Ausgangsstellung von Spiel Nr. 7."
    page.click(f"{EXAMPLE} button[data-pb-go=next]")
    _assert_step(page, EXAMPLE, trace, 1)
    page.click(f"{EXAMPLE} button[data-pb-go=next]")
    _assert_step(page, EXAMPLE, trace, 2)
    page.click(f"{EXAMPLE} button[data-pb-go=last]")
    _assert_step(page, EXAMPLE, trace, 4)
    page.click(f"{EXAMPLE} button[data-pb-go=next]", force=True)  # aria-disabled: does nothing
    _assert_step(page, EXAMPLE, trace, 4)
    page.click(f"{EXAMPLE} button[data-pb-go=previous]")
    _assert_step(page, EXAMPLE, trace, 3)
    assert "Abgelehnt: Kreuz-Drei passt nicht" in _state(page, EXAMPLE)["status"]
    page.click(f"{EXAMPLE} button[data-pb-go=first]")
    _assert_step(page, EXAMPLE, trace, 0)


def test_greek_example_steps_through_with_the_keyboard(page, examples_site):
    trace = _open(page, examples_site / "el" / "demo.html", EXAMPLE)
    page.focus(f"{EXAMPLE} .pb-example-board")
    page.keyboard.press("ArrowRight")
    _assert_step(page, EXAMPLE, trace, 1)
    assert _state(page, EXAMPLE)["status"].startswith("Βήμα 1 από 4: κλικ στην τράπουλα.")
    page.keyboard.press("ArrowDown")
    _assert_step(page, EXAMPLE, trace, 2)
    page.keyboard.press("End")
    _assert_step(page, EXAMPLE, trace, 4)
    page.keyboard.press("ArrowLeft")
    _assert_step(page, EXAMPLE, trace, 3)
    page.keyboard.press("Home")
    _assert_step(page, EXAMPLE, trace, 0)
    page.keyboard.press("ArrowUp")  # already at the start
    _assert_step(page, EXAMPLE, trace, 0)
    # The keys work from the buttons too, and a button that reaches the end keeps the focus.
    page.focus(f"{EXAMPLE} button[data-pb-go=next]")
    page.keyboard.press("End")
    _assert_step(page, EXAMPLE, trace, 4)
    assert page.evaluate("document.activeElement.dataset.pbGo") == "next"


def test_tab_order_reaches_board_then_buttons_and_enter_steps(page, examples_site):
    trace = _open(page, examples_site / "de" / "demo.html", EXAMPLE)
    page.focus(f"{EXAMPLE} .pb-example-board")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.pbGo") == "first"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.pbGo") == "next"
    page.keyboard.press("Enter")
    _assert_step(page, EXAMPLE, trace, 1)
    page.keyboard.press("Space")
    _assert_step(page, EXAMPLE, trace, 2)


def test_piles_and_cards_are_named_in_the_page_language(page, examples_site):
    trace = _open(page, examples_site / "el" / "demo.html", EXAMPLE)
    labels = page.eval_on_selector_all(f"{EXAMPLE} .pb-pile", "ps => ps.map((p) => [p.dataset.pile, p.getAttribute('aria-label'), p.title])")
    assert labels == [[pid, trace["names"][pid], trace["names"][pid]] for pid in
                      ("stock", "waste", "foundation1", "tableau1", "tableau2")]
    cards = page.eval_on_selector_all(f"{EXAMPLE} .pb-pile[data-pile=tableau2] .pb-card, {EXAMPLE} .pb-pile[data-pile=tableau1] .pb-card",
                                      "cs => cs.map((c) => [c.dataset.card, c.getAttribute('role'), c.getAttribute('aria-label')])")
    assert cards == [["#9s", "img", "κλειστό φύλλο"], ["Ah", "img", "A♥"], ["Td", "img", "10♦"], ["2h", "img", "2♥"]]
    empty = page.eval_on_selector(f"{EXAMPLE} .pb-pile[data-pile=waste]", "p => [p.className, p.textContent]")
    assert "pb-empty" in empty[0] and empty[1] == "(κενή)"


def test_red_suits_are_drawn_red_and_black_suits_black(page, examples_site):
    _open(page, examples_site / "de" / "demo.html", EXAMPLE)
    page.click(f"{EXAMPLE} button[data-pb-go=next]")
    colours = dict(page.eval_on_selector_all(f"{EXAMPLE} .pb-card.pb-face",
                                             "cs => cs.map((c) => [c.dataset.card, getComputedStyle(c).color])"))
    assert colours["Ah"] == colours["2h"] == colours["Td"] == "rgb(196, 0, 26)"
    assert colours["3c"] == "rgb(17, 17, 17)"


def test_board_scales_with_the_page_width(page, examples_site):
    trace = _open(page, examples_site / "de" / "demo.html", EXAMPLE)
    sizes = []
    for width in (1000, 420):
        page.set_viewport_size({"width": width, "height": 800})
        sizes.append(page.evaluate(f"""() => {{
            const board = document.querySelector('{EXAMPLE} .pb-cards').getBoundingClientRect();
            const card = document.querySelector('{EXAMPLE} .pb-card').getBoundingClientRect();
            const font = parseFloat(getComputedStyle(document.querySelector('{EXAMPLE} .pb-card')).fontSize);
            return [board.width, board.height, card.width, card.height, font];
        }}"""))
    (wide_w, wide_h, wide_card, wide_card_h, wide_font), (narrow_w, narrow_h, narrow_card, narrow_card_h, narrow_font) = sizes
    assert narrow_w < wide_w
    for board_w, board_h, card_w, card_h in ((wide_w, wide_h, wide_card, wide_card_h),
                                              (narrow_w, narrow_h, narrow_card, narrow_card_h)):
        assert card_w == pytest.approx(board_w / trace["layout"]["width"], abs=1)
        assert card_h == pytest.approx(card_w * 1.4, abs=1)
        assert board_h == pytest.approx(board_w * trace["layout"]["height"] / trace["layout"]["width"], abs=1)
    assert narrow_font / wide_font == pytest.approx(narrow_card / wide_card, rel=0.05)


def test_first_step_sets_the_performance_mark_once(page, examples_site):
    _open(page, examples_site / "de" / "demo.html", EXAMPLE)
    marks = page.evaluate("performance.getEntriesByName('pb-example-first-step').length")
    assert marks == 1


def test_without_javascript_the_caption_and_the_steps_show_and_the_widget_stays_hidden(browser, examples_site):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto((examples_site / "de" / "demo.html").as_uri())
        assert page.is_visible(f"{EXAMPLE} figcaption")
        assert page.inner_text(f"{EXAMPLE} figcaption") == "Beispiel Die ersten Züge"
        assert not page.is_visible(f"{EXAMPLE} .pb-example-widget")
        items = page.eval_on_selector_all(f"{EXAMPLE} ol.pb-example-steps > li", "lis => lis.map((li) => li.innerText)")
        assert len(items) == 4 and items[0] == "auf den Talon klicken"
    finally:
        context.close()


@pytest.fixture(scope="module")
def project_site(tmp_path_factory) -> Path:
    """The project's own rules/ and locales/ in German and Greek, as `make site` builds them."""
    out = tmp_path_factory.mktemp("project-examples") / "site"
    build_site(ROOT / "rules", ROOT / "locales", out, langs=["de", "el"], echo=False)
    return out


def _examples_of(path: Path) -> list[str]:
    html = path.read_text(encoding="utf-8")
    return [part.split('"', 1)[0] for part in html.split('data-pb-example="" id="')[1:]]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["de", "el"])
def test_project_examples_step_from_first_to_last_matching_their_traces(page, project_site, lang):
    pages = sorted(p for p in (project_site / lang).glob("*.html") if _examples_of(p))
    if not pages:
        pytest.skip("no page of rules/ has an example with a trace yet")
    for path in pages:
        for ident in _examples_of(path):
            example = f"figure#{ident}"
            trace = _open(page, path, example)
            assert trace["lang"] == lang
            last = len(trace["steps"]) - 1
            for n in range(last + 1):
                if n:
                    page.click(f"{example} button[data-pb-go=next]")
                _assert_step(page, example, trace, n)
            page.click(f"{example} button[data-pb-go=first]")
            _assert_step(page, example, trace, 0)


@pytest.mark.slow
def test_project_examples_write_the_ranks_of_the_page_language(page, project_site):
    """The cards of a German example carry German rank marks (B D K for Bube, Dame, König), as the
    trace's ranks say, in their corners and their names."""
    marks = dict(zip("A23456789TJQK", "A 2 3 4 5 6 7 8 9 10 B D K".split()))
    suits = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
    seen: set[str] = set()
    for path in sorted(p for p in (project_site / "de").glob("*.html") if _examples_of(p)):
        for ident in _examples_of(path):
            example = f"figure#{ident}"
            trace = _open(page, path, example)
            assert trace["ui"]["ranks"] == "A 2 3 4 5 6 7 8 9 10 B D K"
            cards = page.eval_on_selector_all(
                f"{example} .pb-card.pb-face",
                "cs => cs.map((c) => [c.dataset.card, c.getAttribute('aria-label'), "
                "c.querySelector('.pb-index').firstChild.textContent])")
            for text, label, corner in cards:
                assert (label, corner) == (marks[text[0]] + suits[text[1]], marks[text[0]]), text
                seen.add(corner)
    assert seen & {"B", "D", "K"}, "no court card face up in the German examples"
