"""A staff user creates a tournament in the admin, seats and publishes a round; a player finds and opens their table."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


def test_staff_runs_a_round_and_a_player_finds_their_table(page, browser, live_daphne, artifacts, make_user):
    make_user("staff", is_staff=True, is_superuser=True)
    for name in ("alice", "bob", "carol"):
        make_user(name)

    # Staff: create the tournament in the admin.
    page.goto(live_daphne.url + "/admin/login/?next=/admin/games/tournament/add/")
    page.get_by_label("Username").fill("staff")
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Log in").click()
    page.locator("#id_name").fill("Browser Cup")
    page.get_by_text("House rules: Manipulation Rummy").click()  # the lobby's fields, not JSON
    page.locator("#id_opt_game_target").fill("30")
    page.locator("#id_table_size").fill("2")
    page.locator("#id_rounds_count").fill("2")
    page.locator("#id_registration_open").check()
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist")).to_contain_text("Browser Cup")
    page.get_by_role("link", name="Run tournament").click()

    # Entrants, then "Seat next round": a preview with the reason for each table.
    page.get_by_label(re.compile("Add or import entrants")).fill("alice\nbob\ncarol")
    page.get_by_role("button", name="Add entrants").click()
    expect(page.locator(".messagelist")).to_contain_text("3 entrants added.")
    page.get_by_role("button", name="Seat next round").click()
    preview = page.locator("#preview")
    expect(preview).to_contain_text("seating preview")
    expect(preview).to_contain_text("score group 0")
    expect(preview).to_contain_text("table of 3 so that the numbers divide")
    page.screenshot(path=str(artifacts / "tournament-admin-preview.png"), full_page=True)
    page.get_by_role("button", name="Publish").click()
    expect(page.locator(".messagelist")).to_contain_text("Round 1 published")
    expect(page.locator("#playing")).to_contain_text("live table")
    page.screenshot(path=str(artifacts / "tournament-admin-published.png"), full_page=True)

    # A player logs in, sees the notice on /tournaments/ and opens their table.
    context = browser.new_context()
    player = context.new_page()
    player.goto(live_daphne.url + "/accounts/login/")
    player.get_by_label("Username").fill("alice")
    player.get_by_label("Password").fill("correct-horse-battery")
    player.get_by_role("button", name="Log in").click()
    player.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    notice = player.locator("#tournament-tables-notice")
    expect(notice).to_contain_text("Your tournament tables")
    player.screenshot(path=str(artifacts / "tournament-player-notice.png"), full_page=True)
    player.get_by_role("link", name="Browser Cup", exact=True).click()
    expect(player.locator("#standings")).to_contain_text("alice")
    expect(player.locator("#rounds")).to_contain_text("Table 1")
    player.screenshot(path=str(artifacts / "tournament-public-page.png"), full_page=True)
    table_href = player.locator("#tournament-tables-notice a").first.get_attribute("href")

    # Staff override the table; the player's standings update over the socket, without a reload.
    page.get_by_label("Placements in seat order").fill("2 1 3")
    page.locator("#playing").get_by_label("Reason").last.fill("browser test")
    page.get_by_role("button", name="Override table 1").click()
    expect(page.locator(".messagelist")).to_contain_text("Result of table 1 overridden.")
    expect(player.locator("#standings tbody tr").first).to_contain_text("bob")
    expect(player.locator("#standings tbody tr").first).to_contain_text("4")
    player.screenshot(path=str(artifacts / "tournament-public-live-update.png"), full_page=True)
    # The table is settled: "Your tournament tables" leaves the page over the socket too (issue 25).
    expect(player.locator("#tournament-tables-notice")).to_have_count(0)
    player.goto(live_daphne.url + table_href)
    expect(player).to_have_url(re.compile(r"/tables/\d+/$"))
    player.screenshot(path=str(artifacts / "tournament-player-table.png"), full_page=True)
    context.close()
