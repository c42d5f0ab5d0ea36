"""The tournament-page fixes of issue 18 (point 5), in Chromium against a live daphne: a player registers and
is listed among the entrants at once; staff settle a table by override and close the round, and the
player's page (over its socket) offers the match page, not play; the Run page has one #standings; a seat
reads "name place 1 · 4 points"."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.tournaments import services
from games.tournaments.models import Tournament
from plumbing import realtime
from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_register_override_and_close_as_a_player_sees_them(
    page, browser, live_daphne, artifacts, make_user, monkeypatch
):
    # Set up in this process (nobody listens yet; the sync Playwright loop here forbids async_to_sync).
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    staff = make_user("staff", is_staff=True, is_superuser=True)
    for name in ("alice", "bob", "carol", "dave"):
        make_user(name)
    t = services.tournament_save(
        tournament=Tournament(
            name="Fixes Cup",
            variant="manipulation",
            options={"game_target": 30},
            format="swiss",
            table_size=4,
            rounds_count=2,
            registration_open=True,
        ),
        by=staff,
        created=True,
    )
    here = f"{live_daphne.url}/tournaments/{t.pk}/"

    # Alice registers: her form, the entrants and the standings change without a reload.
    context = browser.new_context()
    player = context.new_page()
    login(player, live_daphne.url, "alice")
    player.goto(here)
    entrants = player.get_by_role("region", name="Entrants").get_by_role("listitem")
    expect(entrants).to_have_text(["No entrants yet."])
    player.get_by_role("button", name="Register").click()
    expect(player.locator("#registration")).to_contain_text("You are registered.")
    expect(player.locator("#standings")).to_contain_text("alice")
    expect(entrants).to_have_text(["alice"])
    player.screenshot(path=str(artifacts / "tournament-fixes-registered.png"), full_page=True)

    # Staff, in the admin: one #standings on the Run page; entrants, seat, publish.
    page.goto(f"{live_daphne.url}/admin/login/?next=/admin/games/tournament/{t.pk}/run/")
    page.get_by_label("Username").fill("staff")
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator('[id="standings"]')).to_have_count(1)
    page.get_by_label(re.compile("Add or import entrants")).fill("bob\ncarol\ndave")
    page.get_by_role("button", name="Add entrants").click()
    expect(page.locator(".messagelist")).to_contain_text("3 entrants added.")
    expect(entrants).to_have_text(["alice", "bob", "carol", "dave"])  # pushed to alice's page
    page.get_by_role("button", name="Seat next round").click()
    page.get_by_role("button", name="Publish").click()
    expect(page.locator(".messagelist")).to_contain_text("Round 1 published")
    rounds = player.locator("#rounds")
    expect(rounds.get_by_role("link", name="Watch or play")).to_have_count(1)

    # Staff settle the table and close the round.
    page.get_by_label("Placements in seat order").fill("1 2 3 4")
    page.locator("#playing").get_by_label("Reason").last.fill("the players agreed")
    page.get_by_role("button", name="Override table 1").click()
    expect(page.locator(".messagelist")).to_contain_text("Result of table 1 overridden.")
    page.get_by_role("button", name="Close round").click()
    expect(page.locator(".messagelist")).to_contain_text("Round 1 closed.")
    expect(page.locator('[id="standings"]')).to_have_count(1)
    page.screenshot(path=str(artifacts / "tournament-fixes-run-page.png"), full_page=True)

    # Alice's page, over its socket: the closed round's table is over (match page, no play).
    expect(rounds).to_contain_text("Round 1 · Closed")
    expect(rounds.get_by_role("link", name="Watch or play")).to_have_count(0)
    expect(rounds.get_by_role("link", name="Match page")).to_have_count(1)
    seats = rounds.locator(".table-seats li")
    expect(seats).to_have_text(
        [
            re.compile(r"^\w+ place 1 · 4 points$"),
            re.compile(r"^\w+ place 2 · 2 points$"),
            re.compile(r"^\w+ place 3 · 1 point$"),
            re.compile(r"^\w+ place 4 · 0 points$"),
        ]
    )
    assert seats.first.evaluate("li => getComputedStyle(li).listStyleType") == "none"
    player.screenshot(path=str(artifacts / "tournament-fixes-closed-round.png"), full_page=True)

    # The same after a reload; the notice of her tables is gone (the table is over).
    player.reload()
    expect(rounds.get_by_role("link", name="Watch or play")).to_have_count(0)
    expect(player.locator("#tournament-tables-notice")).to_have_count(0)
    expect(entrants).to_have_text(["alice", "bob", "carol", "dave"])
    context.close()
