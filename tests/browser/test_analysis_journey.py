"""After a match against a bot, the match page shows its analysis with its progress (waiting for the
worker, polled), then the result; the replay shows a missed play with its rearrangement.  And at a
practice table the Hint opens over the board, which still fits the screen."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games import services
from games.analysis.models import AnalysisStatus, MatchAnalysis
from games.variants import spec_for
from plumbing import realtime
from tests.browser.conftest import login
from tests.browser.test_table_fits import PROBLEMS, SCREENS
from tests.games.analysis.support import DeclineOneMeldStepPerRound, play_with_mistakes
from tests.live import LiveAnalysisWorker

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_match_page_shows_the_analysis_then_the_replay_a_missed_play(
    page, live_daphne, artifacts, make_user, settings, monkeypatch
):
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    alice = make_user("alice")
    # A short match (two players, 30 points) in which alice ends her turn once a round where she could meld.
    match, mistakes = play_with_mistakes(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 30}
    )
    assert mistakes
    # Queued when it ended, after the commit; the live server's clock may have made the last move, in which
    # case its process queues the analysis a moment after the finished match is visible here.
    deadline = time.monotonic() + 10
    while not MatchAnalysis.objects.filter(match=match).exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert MatchAnalysis.objects.get(match=match).status == AnalysisStatus.QUEUED

    login(page, live_daphne.url, "alice")
    page.goto(f"{live_daphne.url}/matches/{match.pk}/")
    panel = page.locator("#match-analysis")
    expect(panel).to_have_attribute("data-state", "queued")
    expect(panel.get_by_role("status")).to_contain_text("waiting")
    expect(panel.locator("progress")).to_be_visible()
    page.screenshot(path=str(artifacts / "analysis-queued.png"), full_page=True)

    # The worker starts (as `make run` starts it beside the server): the page, polling, shows the result.
    with LiveAnalysisWorker({"RUMMYHUB_ANALYSIS_POLL": 0.2}):
        expect(panel).to_have_attribute("data-state", "done", timeout=60_000)
    expect(panel.locator(".analysis-summary tbody tr")).to_have_count(2)
    expect(panel.get_by_text("Best-play rate")).to_be_visible()
    row = MatchAnalysis.objects.get(match=match)
    missed = sorted(s["step"] for s in row.steps if s["missed"] and s["seat"] == 0)
    assert missed
    page.screenshot(path=str(artifacts / "analysis-done.png"), full_page=True)

    # The replay at alice's first missed play: what was laid, the best, and how to reach it.
    panel.locator(f'tr[data-missed-step="{missed[0]}"] a').click()
    expect(page).to_have_url(f"{live_daphne.url}/matches/{match.pk}/replay/?step={missed[0]}")
    step = page.locator("#analysis-step")
    expect(step).to_contain_text("A better play was possible")
    expect(step.locator(".analysis-moves li").first).to_contain_text("from the hand")
    expect(step.locator(".analysis-table").last.locator(".card").first).to_be_visible()
    page.screenshot(path=str(artifacts / "analysis-replay-missed.png"), full_page=True)
    # "Next missed play" steps on to the next one
    later = [s for s in sorted(x["step"] for x in row.steps if x["missed"]) if s > missed[0]]
    if later:
        step.get_by_role("link", name="Next missed play").click()
        expect(page.locator("#replay-step")).to_have_attribute("data-step", str(later[0]))


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_hint_at_a_practice_table_opens_over_a_board_that_still_fits(
    browser, live_daphne, artifacts, make_user, settings, monkeypatch, screen
):
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    settings.RUMMYHUB_FIXED_SEED = "8"
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=2, practice=True)
    services.match_start(match_id=match.pk, user=alice)
    for _ in range(200):  # the live server's clock plays the bots
        match.refresh_from_db()
        state = spec_for("manipulation").load(match.state["round"])
        if state.seat_to_act == 0:
            break
        time.sleep(0.05)
    if state.phase == "start":
        services.turn_submit(match_id=match.pk, user=alice, action={"type": "draw"}, expected_version=match.version)
    context = browser.new_context(**SCREENS[screen])
    page = context.new_page()
    login(page, live_daphne.url, "alice")
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    page.locator('[data-action="hint"]').click()
    box = page.locator("#hint-box .hint-panel")
    expect(box).to_be_visible()
    expect(box.get_by_role("heading", name="Hint")).to_be_visible()
    shown = page.evaluate(PROBLEMS, {"hand": "#hand", "buttons": "#actions button"})
    page.screenshot(path=str(artifacts / f"hint-{screen}.png"))
    assert shown["problems"] == [], shown
    box.get_by_role("button", name="Close the hint").click()
    expect(page.locator("#hint-box .hint-panel")).to_have_count(0)
    context.close()
