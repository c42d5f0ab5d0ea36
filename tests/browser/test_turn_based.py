"""A turn-based table in Chromium (issue 27): created from the lobby with a time per move of a day,
a move played, the time left said in days and hours, and the other player's home page listing the
game under "Your move" as soon as the turn passes (live, over the lobby socket)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games import services
from games.models import Match
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_turn_based_move_shows_on_the_other_players_home_page(browser, live_daphne, artifacts, make_user):
    base = live_daphne.url
    alice, bob = make_user("alice"), make_user("bob")
    a_ctx, b_ctx = browser.new_context(), browser.new_context(viewport={"width": 390, "height": 844})
    a_page, b_page = a_ctx.new_page(), b_ctx.new_page()
    login(a_page, base, "alice")
    login(b_page, base, "bob")

    a_page.goto(base + "/play/")
    a_page.locator("summary", has_text="Create a table").click()
    a_page.get_by_label("Players").select_option("2")
    a_page.get_by_label("Fill with bots").select_option("0")
    expect(a_page.get_by_label("Turn timer")).to_be_visible()
    a_page.get_by_label("Time per move").select_option(label="1 day")
    expect(a_page.get_by_label("Turn timer")).to_be_hidden()  # no real-time timer at a turn-based table
    a_page.get_by_role("button", name="Create the table").click()
    a_page.wait_for_url(re.compile(r"/tables/\d+/$"))
    match = Match.objects.latest("pk")
    assert match.move_time == 86400 and match.turn_timer == 0
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    pages = {alice.pk: a_page, bob.pk: b_page}
    mover_seat = match.turn_seat
    mover_id = match.seats.get(index=mover_seat).user_id
    mover = pages[mover_id]
    other = pages[bob.pk if mover_id == alice.pk else alice.pk]

    other.goto(base + "/")
    expect(other.locator("#your-moves")).to_be_hidden()
    mover.goto(f"{base}/tables/{match.pk}/")
    timer = mover.locator("#board-timer .timer-text")
    expect(timer).to_have_text(re.compile(r"^(1 d 0 h|23 h \d+ min)$"))
    mover.screenshot(path=str(artifacts / "turn-based-1-time-left.png"), full_page=True)

    board = mover.locator("#table-board")
    for _ in range(50):
        if Match.objects.get(pk=match.pk).turn_seat != mover_seat:
            break
        names = board.locator(".controls button[data-action]").evaluate_all("els => els.map(e => e.dataset.action)")
        choice = next((a for a in ("end_turn", "draw") if a in names), None)
        if choice is None:
            mover.wait_for_timeout(100)
            continue
        version = board.get_attribute("data-version")
        try:
            board.locator(f'button[data-action="{choice}"]').click(timeout=3000)
            expect(board).not_to_have_attribute("data-version", version, timeout=5000)
        except PlaywrightTimeout:
            continue
    assert Match.objects.get(pk=match.pk).turn_seat == 1 - mover_seat

    # The other player's home page hears of it over the lobby socket: no reload.
    row = other.locator("#your-moves .your-move")
    expect(row).to_have_count(1, timeout=10_000)
    expect(row.get_by_role("link")).to_have_attribute("href", f"/tables/{match.pk}/")
    expect(row.locator(".time-left")).to_have_text(re.compile(r"^(1 d 0 h|23 h \d+ min) left$"))
    expect(row).to_contain_text("1 day per move")
    other.screenshot(path=str(artifacts / "turn-based-2-your-move-home.png"), full_page=True)
    # The mover's table now counts down the other player's day.
    expect(mover.locator("#board-timer .timer-text")).to_have_text(re.compile(r"^(1 d 0 h|23 h \d+ min)$"))
    # The lobby lists it too, for the player whose move it is.
    other.goto(base + "/play/")
    expect(other.locator("#your-moves .your-move")).to_have_count(1)
    # Right to left, on a phone: the list keeps its row, in Persian.
    other.context.add_cookies([{"name": "django_language", "value": "fa", "url": base}])
    other.set_viewport_size({"width": 390, "height": 844})
    other.goto(base + "/")
    expect(other.locator("html")).to_have_attribute("dir", "rtl")
    row = other.locator("#your-moves .your-move")
    expect(row).to_have_count(1)
    box = row.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    expect(row.locator(".time-left")).not_to_contain_text("left")  # its time left is said in Persian too
    other.screenshot(path=str(artifacts / "turn-based-3-your-move-rtl-phone.png"), full_page=True)
    other.context.add_cookies([{"name": "django_language", "value": "en", "url": base}])
    # The list counts the time down by itself (the page's clock moved two hours, not waited for).
    later = other.context.new_page()
    later.clock.install()
    later.goto(base + "/")
    left = later.locator("#your-moves .time-left")
    expect(left).to_have_text(re.compile(r"^(1 d 0 h|23 h \d+ min) left$"))
    later.clock.fast_forward("02:00:00")
    expect(left).to_have_text(re.compile(r"^2[12] h \d+ min left$"))
