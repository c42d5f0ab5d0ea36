"""A player finishes a match against bots, then finds it in the history, reads it and replays it."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.history.selectors import replay_index, replay_step
from games.history.services import rating_update_for_match
from games.models import MatchStatus
from plumbing import realtime
from tests.games.history.support import play_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_history_match_page_replay(page, live_daphne, artifacts, make_user, settings, monkeypatch):
    # The match is played here, at service level; nobody listens to its table broadcasts (and the sync
    # Playwright loop in this thread forbids async_to_sync).
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    alice = make_user("alice")
    match = play_match(alice, settings=settings, seed="10", seats=3, bots=2, game_target=60)
    assert match.status == MatchStatus.FINISHED and match.round_number == 4
    rating_update_for_match(match=match)

    page.goto(live_daphne.url + "/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".site-user .user-link")).to_have_text("alice")

    # The history, filtered to my matches with htmx: the URL follows the filter.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="History").click()
    expect(page.get_by_role("heading", name="Match history")).to_be_visible()
    # The filter sends itself once the page's scripts have run (a box ticked before they had, on a busy
    # machine, sent nothing): as a person, after the page has loaded.
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.htmx !== undefined")
    page.get_by_label("Only my matches").check()
    expect(page).to_have_url(f"{live_daphne.url}/history/?mine=on")
    expect(page.locator("#history-results tbody tr")).to_have_count(1)
    # The player field suggests user names as you type.
    page.get_by_label("Player").press_sequentially("ali")
    expect(page.locator("#player-options option[value='alice']")).to_have_count(1)
    page.get_by_label("Player").fill("")
    page.screenshot(path=str(artifacts / "history-list.png"), full_page=True)

    # The match page: the chart, the rounds, the bonuses.
    page.locator("#history-results tbody tr a").first.click()
    expect(page.get_by_role("heading", name=f"Match #{match.pk}", exact=False)).to_be_visible()
    expect(page.locator("svg.score-chart")).to_be_visible()
    expect(page.locator("svg.score-chart .direct-label")).to_have_count(3)
    expect(page.get_by_role("heading", name="End of the match")).to_be_visible()
    page.screenshot(path=str(artifacts / "history-match.png"), full_page=True)

    # The export is a JSON game record.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the game record (JSON)").click()
    record = json.loads(open(download.value.path()).read())
    assert record["format"] == "rummyhub-game-record" and record["match"]["id"] == match.pk

    # The replay: buttons, keyboard arrows and the scrubber.
    page.get_by_role("link", name="Watch the replay").click()
    expect(page.locator(".replay-text")).to_contain_text("Round 1 dealt.")
    page.get_by_role("link", name="Next", exact=True).click()
    expect(page).to_have_url(f"{live_daphne.url}/matches/{match.pk}/replay/?step=1")
    expect(page.locator(".replay-text")).not_to_contain_text("dealt")
    expect(page.locator("#replay-step")).to_have_attribute("data-step", "1")
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(f"{live_daphne.url}/matches/{match.pk}/replay/?step=2")
    expect(page.locator("#replay-step")).to_have_attribute("data-step", "2")  # swapped in before the next key
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(f"{live_daphne.url}/matches/{match.pk}/replay/?step=1")
    # Find a step where somebody melded, to show the highlighted cards.
    index = replay_index(match)
    total = sum(1 + n for _r, n in index)

    meld_step = next(s for s in range(total) if " laid " in replay_step(match=match, step=s)["text"])
    page.goto(f"{live_daphne.url}/matches/{match.pk}/replay/?step={meld_step}")
    expect(page.locator(".replay-table .card.added").first).to_be_visible()
    page.screenshot(path=str(artifacts / "history-replay-meld.png"), full_page=True)
    page.keyboard.press("End")
    expect(page).to_have_url(f"{live_daphne.url}/matches/{match.pk}/replay/?step={total - 1}")
    page.screenshot(path=str(artifacts / "history-replay-end.png"), full_page=True)

    # The player page: stats and rating.
    page.locator(".site-user .user-link").click()
    expect(page.get_by_role("heading", name="Statistics")).to_be_visible()
    expect(page.locator("#player-stats .rating")).to_have_count(1)
    page.screenshot(path=str(artifacts / "history-player.png"), full_page=True)


def test_replay_keys_pressed_faster_than_the_steps_arrive_are_all_taken(
    page, live_daphne, make_user, settings, monkeypatch
):
    """A keyboard player pressing → three times and ← once, faster than the server answers, ends two
    steps on, with the URL saying so: no key is lost on a step still on its way, none is taken from the
    step the page showed before."""
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    alice = make_user("alice")
    match = play_match(alice, settings=settings, seed="10", seats=3, bots=2, game_target=60)
    page.goto(live_daphne.url + "/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".site-user .user-link")).to_have_text("alice")

    # Each step answers 300 ms late, as on a slow line: the keys all come while the first is on its way.
    def late(route):
        page.wait_for_timeout(300)
        route.continue_()

    page.route("**/replay/?step=*", late)
    page.goto(f"{live_daphne.url}/matches/{match.pk}/replay/?step=3")
    page.wait_for_function("() => window.htmx !== undefined")
    expect(page.locator("#replay-step")).to_have_attribute("data-step", "3")
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    expect(page.locator("#replay-step")).to_have_attribute("data-step", "5", timeout=10_000)
    expect(page).to_have_url(f"{live_daphne.url}/matches/{match.pk}/replay/?step=5")
    page.wait_for_timeout(1000)  # and nothing more arrives after
    expect(page.locator("#replay-step")).to_have_attribute("data-step", "5")
    expect(page).to_have_url(f"{live_daphne.url}/matches/{match.pk}/replay/?step=5")
    # Back in history: the steps it went through, one at a time.
    page.go_back()
    expect(page.locator("#replay-step")).not_to_have_attribute("data-step", "5")
