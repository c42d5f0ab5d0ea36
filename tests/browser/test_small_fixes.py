"""Small fixes of issue 15, in Chromium against a live daphne: the replay's step buttons at its ends."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.history.selectors import replay_index
from games.models import MatchStatus
from plumbing import realtime
from tests.browser.conftest import login
from tests.games.history.support import play_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_replay_disables_previous_on_the_first_step_and_next_on_the_last(
    page, live_daphne, make_user, settings, monkeypatch
):
    # Played at service level; nobody listens to its table broadcasts (the sync Playwright loop in
    # this thread forbids async_to_sync).
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    alice = make_user("alice")
    match = play_match(alice, settings=settings, seed="1", seats=2, bots=1, game_target=30)
    assert match.status == MatchStatus.FINISHED
    last = sum(1 + n for _r, n in replay_index(match)) - 1
    here = f"{live_daphne.url}/matches/{match.pk}/replay/"
    login(page, live_daphne.url, "alice")

    step = page.locator("#replay-step")
    nav = page.get_by_role("navigation", name="Steps")
    # The arrows are drawn, not read (aria-hidden; mirrored on a right-to-left page).
    first, prev = (
        nav.get_by_role("link", name="First", exact=True),
        nav.get_by_role("link", name="Previous", exact=True),
    )
    nxt, end = nav.get_by_role("link", name="Next", exact=True), nav.get_by_role("link", name="Last", exact=True)

    # The first step: First and Previous are disabled, by mouse and by keyboard.
    page.goto(here + "?step=0")
    expect(step).to_have_attribute("data-step", "0")
    expect(first).to_be_disabled()
    expect(prev).to_be_disabled()
    expect(nxt).to_be_enabled()
    expect(end).to_be_enabled()
    prev.click(force=True)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Home")
    page.wait_for_timeout(300)
    expect(step).to_have_attribute("data-step", "0")
    expect(page).to_have_url(here + "?step=0")

    # One step on by keyboard: both ways are open again.
    page.keyboard.press("ArrowRight")
    expect(step).to_have_attribute("data-step", "1")
    expect(prev).to_be_enabled()
    expect(nxt).to_be_enabled()

    # The last step, reached with the mouse: Next and Last are disabled.
    end.click()
    expect(step).to_have_attribute("data-step", str(last))
    expect(nxt).to_be_disabled()
    expect(end).to_be_disabled()
    expect(prev).to_be_enabled()
    nxt.click(force=True)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    page.wait_for_timeout(300)
    expect(step).to_have_attribute("data-step", str(last))
    expect(page).to_have_url(here + f"?step={last}")

    # Back one with the keyboard, then forward with the mouse: Next is disabled again on arrival.
    page.keyboard.press("ArrowLeft")
    expect(step).to_have_attribute("data-step", str(last - 1))
    expect(nxt).to_be_enabled()
    nxt.click()
    expect(step).to_have_attribute("data-step", str(last))
    expect(nxt).to_be_disabled()
    # A disabled step link is out of the tab order: Tab from Previous goes past Next and Last.
    prev.focus()
    page.keyboard.press("Tab")
    expect(nxt).not_to_be_focused()
    expect(end).not_to_be_focused()
