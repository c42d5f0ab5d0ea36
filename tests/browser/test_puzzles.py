"""Puzzles in Chromium (issue 28, "What it must show" 3): a player solves a Manipulation puzzle by
drags on the game's own board (a run split to make two groups), and a Gin puzzle by keyboard alone
(the discard list, then the Discard button); each time the verdict shows at once with the rating
change.  A refused answer shows its reason, and a request refused or failed otherwise is said."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.puzzles.models import PuzzleAttempt
from tests.browser.conftest import drag as conftest_drag
from tests.browser.conftest import login
from tests.games.puzzles import support

pytestmark = pytest.mark.django_db(transaction=True)


def settled(page):
    page.wait_for_function("() => !document.querySelector('#table-board[aria-busy=true], .htmx-request')")
    page.wait_for_timeout(250)


def open_puzzle(browser, live_daphne, puzzle, **context_options):
    """alice's page of ``puzzle`` in a new browser context, its Manipulation board set up for moves."""
    context = browser.new_context(**context_options)
    page = context.new_page()
    login(page, live_daphne.url, "alice")
    page.goto(f"{live_daphne.url}/puzzles/{puzzle.pk}/")
    expect(page.locator("#melds .meld-new-box")).to_have_count(1)
    page.wait_for_timeout(300)
    return context, page


def move(page, card_id: str, target) -> None:
    conftest_drag(page, page.locator(f'.card[data-id="{card_id}"]'), target, rest=True)
    settled(page)


def test_a_manipulation_puzzle_solved_by_drags_and_a_gin_puzzle_by_keyboard(browser, live_daphne, make_user, artifacts):
    alice = make_user("alice")
    manipulation = support.manipulation_puzzle(alice, step=1)
    gin = support.gin_puzzle(alice, step=2)
    # Manipulation: 4♥ and 9♥ out of the run into new melds, the hand's 4s and 9s onto them.
    context, page = open_puzzle(browser, live_daphne, manipulation, viewport={"width": 1280, "height": 900})
    move(page, "4H.0", page.locator('#melds .meld[data-meld="new"]'))
    expect(page.locator('#melds .meld[data-meld="1"] .card[data-id="4H.0"]')).to_have_count(1)
    for card in ("4S.0", "4D.0"):
        move(page, card, page.locator('#melds .meld[data-meld="1"]'))
    move(page, "9H.0", page.locator('#melds .meld[data-meld="new"]'))
    for card in ("9S.0", "9D.0"):
        move(page, card, page.locator('#melds .meld[data-meld="2"]'))
    expect(page.locator("#melds .meld-invalid")).to_have_count(0)
    expect(page.locator("#hand .card")).to_have_count(1)  # K♣ stays
    page.locator('[data-action="submit-puzzle"]').click()
    expect(page.locator('[data-verdict="solved"]')).to_be_visible()
    expect(page.locator("[data-rating-change]")).to_contain_text(re.compile(r"1000 → 10[0-9]{2}"))
    # the board keeps the arrangement submitted, no longer movable
    expect(page.locator('#melds .meld .card[data-id="9S.0"]')).to_have_count(1)
    expect(page.locator("#melds .meld-new-box")).to_have_count(0)
    page.screenshot(path=str(artifacts / "puzzle-manipulation-solved.png"))
    assert PuzzleAttempt.objects.get(puzzle=manipulation).solved

    # Gin by keyboard: the discard list (K♣ is the answer), then the Discard button.
    page.goto(f"{live_daphne.url}/puzzles/{gin.pk}/")
    select = page.locator("#gin-discard-select")
    expect(select).to_be_visible()
    select.focus()
    options = select.locator("option").evaluate_all("os => os.map(o => o.value)")
    current = select.evaluate("s => s.selectedIndex")
    for _ in range(options.index("KC.0") - current):
        page.keyboard.press("ArrowDown")
    assert select.input_value() == "KC.0"
    page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement.dataset.action")
    assert focused == "discard"
    page.keyboard.press("Enter")
    expect(page.locator('[data-verdict="solved"]')).to_be_visible()
    expect(page.locator("[data-rating-change]")).to_be_visible()
    before, after = (
        int(x) for x in re.findall(r"\d+", page.locator("[data-rating-change]").inner_text().split(":")[-1])
    )
    assert after > before > 1000  # the second solve in a row raises it again
    expect(page.locator("[data-side-rating]")).to_contain_text(str(after))  # the side panel too
    expect(page.locator("#puzzle-side")).to_contain_text("Streak: 2 puzzles solved in a row")
    page.screenshot(path=str(artifacts / "puzzle-gin-solved.png"))
    assert PuzzleAttempt.objects.get(puzzle=gin).solved
    context.close()


def test_a_puzzle_on_a_phone_in_persian_fits_and_plays_by_taps(browser, live_daphne, make_user, artifacts):
    """390×844, right to left: no sideways scrolling, every card of the hand in view, and a tap on a
    card then a tap on the new-meld zone moves it (the touch path of cards.js without a drag)."""
    alice = make_user("alice")
    puzzle = support.manipulation_puzzle(alice)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    login(page, live_daphne.url, "alice")
    context.add_cookies([{"name": "django_language", "value": "fa", "url": live_daphne.url}])
    page.goto(f"{live_daphne.url}/puzzles/{puzzle.pk}/")
    assert page.evaluate("() => document.documentElement.dir") == "rtl"
    expect(page.locator("#melds .meld-new-box")).to_have_count(1)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    for card in page.locator("#hand .card").all():
        box = card.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.locator('#hand .card[data-id="4S.0"] .card-face').tap()
    page.locator('#melds .meld-box[data-target-meld="new"]').tap(position={"x": 5, "y": 5})
    expect(page.locator('#melds .meld .card[data-id="4S.0"]')).to_have_count(1)
    page.screenshot(path=str(artifacts / "puzzle-phone-fa.png"), full_page=True)
    context.close()


def test_a_refused_puzzle_answer_shows_its_reason_and_a_failed_request_says_so(
    browser, live_daphne, make_user, artifacts
):
    """A request the server refuses is never dropped in silence (htmx 2 swaps no 4xx answer by itself):
    an answer the server marks as a refusal to show (plumbing/answers.py) takes its target's place, with
    its reason; any other refused or failed request is said in a notice (static/js/site.js)."""
    alice = make_user("alice")
    puzzle = support.manipulation_puzzle(alice, step=1)
    context, page = open_puzzle(browser, live_daphne, puzzle, viewport={"width": 390, "height": 844})
    # 4♥ out of the run into a meld of its own: the arrangement is not valid ...
    move(page, "4H.0", page.locator('#melds .meld[data-meld="new"]'))
    expect(page.locator("#melds .meld-invalid")).not_to_have_count(0)
    # ... and submitted all the same: the server refuses it (400) with its reason, which the page shows.
    page.locator('[data-action="submit-puzzle"]').click()
    expect(page.locator("#table-board .board-error")).to_be_visible()
    expect(page.locator("[data-verdict]")).to_have_count(0)
    assert not PuzzleAttempt.objects.exists()
    # The draft's reasons are shown whole on a puzzle's board (it has the room): no line cut or scrolled away.
    expect(page.locator("#draft-errors li")).not_to_have_count(0)
    cut = page.evaluate(
        """() => [...document.querySelectorAll('#draft-errors, #draft-errors li')].filter(
            (e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).length"""
    )
    assert cut == 0
    page.screenshot(path=str(artifacts / "refusal-shown-puzzle.png"))

    # A request refused without a fragment to show (here the CSRF check: the token the page holds is
    # no longer the session's) is said in a notice, in view at the bottom of the screen.
    page.evaluate(
        """() => {
            const stale = "x".repeat(64);
            document.body.setAttribute("hx-headers", JSON.stringify({"X-CSRFToken": stale}));
            document.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach((input) => { input.value = stale; });
        }"""
    )
    page.locator('[data-action="submit-puzzle"]').click()
    notice = page.locator("[data-request-error]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("the server answered 403")
    assert notice.get_attribute("role") == "alert"
    box, screen = notice.bounding_box(), page.viewport_size
    assert box["y"] + box["height"] <= screen["height"] and box["y"] >= 0
    page.screenshot(path=str(artifacts / "refusal-notice.png"))
    notice.locator("[data-dismiss]").click()
    expect(notice).to_have_count(0)

    # No answer at all (the connection is gone): said too.
    context.set_offline(True)
    page.locator('[data-action="submit-puzzle"]').click()
    expect(page.locator("[data-request-error]")).to_contain_text("could not be reached")
    context.set_offline(False)
    assert not PuzzleAttempt.objects.exists()
    context.close()


def test_the_focus_stays_on_the_board_when_a_puzzle_answers_by_keyboard(browser, live_daphne, make_user, artifacts):
    """Every move on a puzzle is answered over HTTP with a new board (no socket): the focus comes back to
    the control it was on (the meld a card was put on, Submit after a refusal), and once the puzzle is
    solved it goes to the next puzzle, so a player by keyboard alone never starts again from the page's top."""
    alice = make_user("alice")
    puzzle = support.manipulation_puzzle(alice, step=1)
    context, page = open_puzzle(browser, live_daphne, puzzle, viewport={"width": 1280, "height": 720})

    def focused(attribute: str) -> str | None:
        return page.evaluate(f"() => document.activeElement.getAttribute('{attribute}')")

    def kb_move(card_id: str, target: str) -> None:
        page.locator(f'.card[data-id="{card_id}"] .card-face').focus()
        page.keyboard.press("Space")
        page.locator(f'#melds .meld-box[data-target-meld="{target}"]').focus()
        page.keyboard.press("Enter")
        expect(page.locator(f'#melds .meld .card[data-id="{card_id}"]')).to_have_count(1)
        settled(page)
        assert focused("data-target-meld") == target  # the meld it was put on, not the page

    kb_move("4H.0", "new")
    # Submitted while 4♥ lies alone: refused, and the focus is on Submit again, beside its reason.
    page.locator('[data-action="submit-puzzle"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#table-board .board-error")).to_be_visible()
    settled(page)
    assert focused("data-action") == "submit-puzzle"
    for card in ("4S.0", "4D.0"):
        kb_move(card, "1")
    kb_move("9H.0", "new")
    for card in ("9S.0", "9D.0"):
        kb_move(card, "2")
    page.locator('[data-action="submit-puzzle"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator('[data-verdict="solved"]')).to_be_visible()
    settled(page)
    assert focused("data-action") == "next-puzzle"  # Submit is gone: its next step has the focus
    page.screenshot(path=str(artifacts / "puzzle-keyboard-solved.png"))
    assert PuzzleAttempt.objects.get(puzzle=puzzle).solved
    context.close()
