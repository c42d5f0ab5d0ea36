"""The table by keyboard alone (issue 15 point 4, "What it must show" 3): a whole meld turn in at most
40 key presses, and the focused control kept when another player's move arrives."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.browser.conftest import login, two_player_table, wait_live
from tests.games.services.positions import set_position

pytestmark = pytest.mark.django_db(transaction=True)

KEY_BUDGET = 40


class Keys:
    """The page's keyboard, counting every press."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)
            self.count += 1

    def tab_into(self, selector: str, *, back: bool = False, limit: int = 25) -> None:
        for _ in range(limit):
            if self.page.evaluate("s => !!document.activeElement.closest(s)", selector):
                return
            self.press("Shift+Tab" if back else "Tab")
        raise AssertionError(f"Tab never reached {selector}")


def settled(page, version=None):
    page.wait_for_function("() => !document.querySelector('#table-board[aria-busy=true]')")
    if version is not None:
        page.wait_for_function("v => +document.getElementById('table-board').dataset.version > v", arg=version)


def test_a_keyboard_only_meld_turn_new_meld_joker_and_a_card_added_to_a_table_meld(
    browser, live_daphne, artifacts, make_user, settings
):
    match, mover, _other = two_player_table(make_user, settings)
    set_position(match, "7S.0 7D.0 JK.0 KH.0 2C.0 5D.0 9S.0 4H.0 8C.0 3S.0", ["TH.0 JH.0 QH.0"])
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    login(page, live_daphne.url, mover.username)
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    expect(page.locator("#hand .card")).to_have_count(10)
    keys = Keys(page)

    keys.tab_into("#hand")  # the hand is one Tab stop; the rank keys go to a card
    for rank in ("7", "7", "*"):
        keys.press(rank)
        keys.press("Space")
    keys.tab_into("#melds", back=True)
    keys.press("n")  # the new-meld zone
    version = int(page.locator("#table-board").get_attribute("data-version"))
    keys.press("Enter")
    # Two natural 7s and a joker: the joker could be either missing 7, so the page asks which.
    expect(page.locator("[data-joker-option]")).to_have_count(2)
    keys.tab_into("[data-joker-option]", back=True)
    keys.press("Enter")
    expect(page.locator("[data-joker-option]")).to_have_count(0)
    settled(page)  # the draft's answer, as a player sees the busy bar end (a move names its version)

    keys.tab_into("#hand")
    keys.press("k")
    keys.press("Space")
    keys.tab_into("#melds", back=True)
    keys.press("Home")  # the first meld: 10 J Q of hearts
    keys.press("Enter")
    expect(page.locator('#melds .meld[data-meld="0"] .card')).to_have_count(4)
    settled(page)
    keys.tab_into('button[data-action="meld"]')
    keys.press("Enter")
    expect(page.locator("#log-list")).to_contain_text(re.compile(r" laid .+ in 2 melds: "))
    page.screenshot(path=str(artifacts / "table-keyboard-turn.png"))
    print(f"keyboard-only meld turn: {keys.count} key presses")
    assert keys.count <= KEY_BUDGET
    assert Match.objects.get(pk=match.pk).version > version
    context.close()


def test_the_focused_control_and_the_picked_cards_survive_another_players_move(
    browser, live_daphne, make_user, settings
):
    match, mover, waiting = two_player_table(make_user, settings)
    context = browser.new_context()
    page = context.new_page()
    login(page, live_daphne.url, waiting.username)
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    expect(page.locator(".seat .conn-on")).to_have_count(1)
    # The socket's opening done: a socket that opened only after the move would bring the whole board
    # (the page's version unknown to it) and the hand as new nodes, not the move's changes.
    wait_live(page)
    face = page.locator("#hand .card .card-face").nth(2)
    face.focus()
    face.press("Space")  # picked, for later
    page.evaluate("() => { window.focused = document.activeElement; }")
    version = int(page.locator("#table-board").get_attribute("data-version"))
    # The other player draws in their own browser (a move reaches the sockets through the server).
    mover_ctx = browser.new_context()
    mover_page = mover_ctx.new_page()
    login(mover_page, live_daphne.url, mover.username)
    mover_page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    wait_live(mover_page)
    mover_page.locator('#actions button[data-action="draw"]').click()
    expect(mover_page.locator("#hand .card")).to_have_count(11)
    # The draw's version: the one before it may be the mover's arrival (a seat coming online
    # reschedules the turn's deadline, a version of its own), which the page can show first.
    drawn = Match.objects.get(pk=match.pk).version
    assert drawn > version
    settled(page, drawn - 1)
    expect(page.locator("#log-list li").first).to_contain_text("drew a card")
    assert page.evaluate("() => document.activeElement === window.focused")
    assert face.get_attribute("aria-pressed") == "true"
    context.close()
    mover_ctx.close()
