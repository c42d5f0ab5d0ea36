"""A page without its socket plays over HTTP: a move the server refuses (the table moved on since the
page was drawn) answers 409 with the fresh board and the reason, and the page shows both.  htmx 2
swaps no 4xx answer by itself: before the fix, the page kept its stale board and said nothing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.engine import manipulation as manip
from games.models import Match
from plumbing import realtime
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stale_move_over_http_shows_the_fresh_board_and_why(browser, live_daphne, make_user, settings, monkeypatch):
    # The server-side move below is made in this thread, where the sync Playwright loop forbids async_to_sync.
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    settings.RUMMYHUB_FIXED_SEED = "11"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    now = Match.objects.get(pk=match.pk)
    mover = [alice, bob][manip.from_dict(now.state["round"]).seat_to_act]

    context = browser.new_context()
    page = context.new_page()
    # No socket: every connection to the table's socket is closed at once, so the page posts its moves.
    page.route_web_socket(re.compile(r".*/ws/.*"), lambda ws: ws.close())
    login(page, live_daphne.url, mover.username)
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    meta = page.locator("#board-meta")
    expect(meta).to_have_attribute("data-version", str(now.version))

    # The table moves on without this page knowing (the same player's other tab draws).
    moved = services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=now.version)
    assert moved.version > now.version

    with page.expect_response(lambda r: r.url.endswith(f"/tables/{match.pk}/act/")) as answer:
        page.locator('#actions button[data-action="draw"]').click()
    assert answer.value.status == 409
    expect(meta).to_have_attribute("data-version", str(moved.version))
    expect(page.locator("#board-error [role=alert]")).to_be_visible()
    context.close()
