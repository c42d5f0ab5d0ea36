"""A new person signs up, lands on the home page signed in, sees who is online, logs out, logs in again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import login

pytestmark = pytest.mark.django_db(transaction=True)


def test_signup_presence_logout(page, live_daphne, artifacts):
    page.goto(live_daphne.url + "/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password", exact=True).fill("correct-horse-battery")
    page.get_by_label("Password confirmation").fill("correct-horse-battery")
    page.get_by_role("button", name="Sign up").click()

    expect(page.get_by_text("Welcome to RummyHub, alice!")).to_be_visible()
    expect(page.locator(".site-user .user-link")).to_have_text("alice")
    # The presence socket connects and reports this one user.
    expect(page.locator("#presence-count")).to_have_text("1 player online", timeout=10_000)
    page.screenshot(path=str(artifacts / "foundation-home-signed-in.png"), full_page=True)

    # A notice can be dismissed.
    page.get_by_role("button", name="Dismiss").click()
    expect(page.get_by_text("Welcome to RummyHub, alice!")).to_have_count(0)

    page.get_by_role("button", name="Log out").click()
    expect(page.locator(".site-user").get_by_role("link", name="Log in")).to_be_visible()
    expect(page.locator("#presence-count")).to_have_count(0)
    page.screenshot(path=str(artifacts / "foundation-logged-out.png"), full_page=True)

    # Back through the log-in form (the other browser tests log in with a session cookie).
    login(page, live_daphne.url, "alice", form=True)
    expect(page.locator(".site-user .user-link")).to_have_text("alice")
