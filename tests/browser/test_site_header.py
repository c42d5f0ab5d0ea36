"""The site header on a phone and a laptop, in a left-to-right and a right-to-left language: on a
390x844 phone it is at most 120 px tall, its navigation behind a menu button that opens by touch and
by keyboard (Escape closes it, the focus back on the button); on a laptop the navigation is shown."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games import services
from plumbing import realtime
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 720}}
LINKS = 6  # Home, Tournaments, History, Leaderboard, Puzzles, Play


def context_for(browser, live_daphne, user, screen, lang):
    context = browser.new_context(**screen)
    context.add_cookies(
        [
            {"name": "sessionid", "value": session_cookie_for(user), "url": live_daphne.url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_daphne.url},
        ]
    )
    return context


def header_height(page) -> float:
    return page.evaluate("document.querySelector('.site-header').getBoundingClientRect().height")


def within_the_screen(page, locator) -> None:
    box = locator.bounding_box()
    width = page.viewport_size["width"]
    assert box is not None and box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, box


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_phone_header_is_compact_and_its_menu_opens_by_touch_and_keyboard(
    browser, live_daphne, make_user, monkeypatch, artifacts, lang
):
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    alice = make_user("alice")
    table = services.match_create(host=alice, variant="manipulation", seats_count=2, bots=1)
    context = context_for(browser, live_daphne, alice, PHONE, lang)
    page = context.new_page()
    page.goto(live_daphne.url + "/")
    header = page.locator(".site-header")
    toggle = header.locator("[data-nav-toggle]")
    nav = page.get_by_role("navigation", name={"en": "Main", "fa": "اصلی"}.get(lang, "Main"))
    links = header.locator(".site-nav a")
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
    page.screenshot(path=str(artifacts / f"header-phone-{lang}-closed.png"))
    assert header_height(page) <= 120, header_height(page)
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(links.first).to_be_hidden()
    # The button sits at the line's end after the brand: right of it, or left of it on a right-to-left page.
    brand, button = header.locator(".brand").bounding_box(), toggle.bounding_box()
    assert (button["x"] < brand["x"]) if lang == "fa" else (button["x"] > brand["x"]), (brand, button)
    assert button["width"] >= 44 and button["height"] >= 44  # a touch target

    # By touch: the menu opens over the page, every link on screen; a tap outside closes it.
    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(nav).to_be_visible()
    expect(links).to_have_count(LINKS)
    for i in range(LINKS):
        expect(links.nth(i)).to_be_visible()
        within_the_screen(page, links.nth(i))
    assert header_height(page) <= 120  # the menu lies over the page: the header keeps its height
    page.screenshot(path=str(artifacts / f"header-phone-{lang}-open.png"))
    page.locator(".language-form label").tap()  # elsewhere on the page
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(links.first).to_be_hidden()

    # By keyboard: Enter opens, Tab goes into the menu, Escape closes it and the focus is back on the button.
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    expect(links.first).to_be_focused()
    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    page.keyboard.press(" ")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    links.nth(4).tap()  # Puzzles
    page.wait_for_url(live_daphne.url + "/puzzles/")
    assert header_height(page) <= 120

    # At a table (where the page does not scroll) the menu is there too.
    page.goto(f"{live_daphne.url}/tables/{table.pk}/")
    assert header_height(page) <= 70
    page.locator("[data-nav-toggle]").tap()
    expect(page.locator(".site-nav a").first).to_be_visible()
    page.screenshot(path=str(artifacts / f"header-phone-{lang}-table-open.png"))
    context.close()

    # On a laptop: no menu button, the navigation in the header's one line.
    context = context_for(browser, live_daphne, alice, LAPTOP, lang)
    page = context.new_page()
    page.goto(live_daphne.url + "/")
    expect(page.locator("[data-nav-toggle]")).to_be_hidden()
    for i in range(LINKS):
        expect(page.locator(".site-nav a").nth(i)).to_be_visible()
    assert header_height(page) <= 70, header_height(page)
    page.screenshot(path=str(artifacts / f"header-laptop-{lang}.png"))
    context.close()


@pytest.mark.parametrize(("width", "lang"), [(1024, "en"), (1280, "ta")])
def test_a_wider_screen_where_the_navigation_does_not_fit_one_line_has_the_menu_too(
    browser, live_daphne, make_user, artifacts, width, lang
):
    """Wider than a phone the header's one line may still be too short (a laptop of 1024 px, Tamil's
    long words): the navigation goes behind the menu button rather than making a second line."""
    alice = make_user("alice")
    context = context_for(browser, live_daphne, alice, {"viewport": {"width": width, "height": 768}}, lang)
    page = context.new_page()
    page.goto(live_daphne.url + "/")
    toggle = page.locator("[data-nav-toggle]")
    expect(toggle).to_be_visible()
    assert header_height(page) <= 70, header_height(page)
    toggle.click()
    links = page.locator(".site-nav a")
    for i in range(LINKS):
        expect(links.nth(i)).to_be_visible()
    page.screenshot(path=str(artifacts / f"header-{width}-{lang}-open.png"))
    # Made wide enough, the navigation is back in the line and the button gone.
    page.set_viewport_size({"width": 1900, "height": 768})
    expect(toggle).to_be_hidden()
    expect(links.first).to_be_visible()
    assert header_height(page) <= 70, header_height(page)
    context.close()
