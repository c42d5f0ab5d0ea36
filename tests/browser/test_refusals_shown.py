"""A request the server refuses is never dropped in silence (htmx 2 swaps no 4xx answer by itself):
an answer the server marks as a refusal to show (plumbing/answers.py) takes its target's place, with
its reason; any other refused or failed request is said in a notice (static/js/site.js)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.puzzles.models import PuzzleAttempt
from tests.browser.conftest import drag, login
from tests.games.puzzles import support

pytestmark = pytest.mark.django_db(transaction=True)


def settled(page):
    page.wait_for_function("() => !document.querySelector('#table-board[aria-busy=true], .htmx-request')")
    page.wait_for_timeout(250)


def test_a_refused_puzzle_answer_shows_its_reason_and_a_failed_request_says_so(
    browser, live_daphne, make_user, artifacts
):
    alice = make_user("alice")
    puzzle = support.manipulation_puzzle(alice, step=1)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    login(page, live_daphne.url, "alice")
    page.goto(f"{live_daphne.url}/puzzles/{puzzle.pk}/")
    expect(page.locator("#melds .meld-new-box")).to_have_count(1)
    page.wait_for_timeout(300)
    # 4♥ out of the run into a meld of its own: the arrangement is not valid ...
    drag(page, page.locator('.card[data-id="4H.0"]'), page.locator('#melds .meld[data-meld="new"]'), rest=True)
    settled(page)
    expect(page.locator("#melds .meld-invalid")).not_to_have_count(0)
    # ... and submitted all the same: the server refuses it (400) with its reason, which the page shows.
    page.locator('[data-action="submit-puzzle"]').click()
    expect(page.locator("#table-board .board-error")).to_be_visible()
    expect(page.locator("[data-verdict]")).to_have_count(0)
    assert not PuzzleAttempt.objects.exists()
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
