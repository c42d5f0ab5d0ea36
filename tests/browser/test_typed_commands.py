"""Play by typed commands (issue 30, "What it must show" 1): a Manipulation round and a box Gin hand
played through the command line only (keyboard, no mouse), in English and in Romanian (short forms
and the English command words, which every language accepts; the page itself in Romanian), with
axe-core finding nothing on the page."""

from __future__ import annotations

import json
import random

import pytest
from playwright.sync_api import expect

from games import services
from games.engine import bots as engine_bots
from games.models import Match, MatchStatus
from games.variants import spec_for
from tests.browser.test_gin_journey import seed_for
from tests.browser.test_table_a11y import AXE, RUN
from tests.games.services.positions import set_position
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["en", "ro"]


def open_table(browser, live_daphne, user, match_id, language):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_cookies(
        [
            {"name": "sessionid", "value": session_cookie_for(user), "url": live_daphne.url},
            {"name": "django_language", "value": language, "url": live_daphne.url},
        ]
    )
    page = context.new_page()
    page.goto(f"{live_daphne.url}/tables/{match_id}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#typed")).to_be_hidden()  # the profile's setting is off: the link opens it
    page.wait_for_timeout(300)  # the socket's first frames
    # Keyboard only: the site's skip link, then the table's, which opens the command line.
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator("[data-typed-open]")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#typed-input")).to_be_focused()
    expect(page.locator("#typed")).to_be_visible()
    return context, page


def typed(page, text: str) -> str:
    """Type one command and Enter; the answer read into the live region."""
    page.evaluate("() => document.querySelectorAll('#typed-log .typed-answer').forEach(e => e.dataset.seen = '1')")
    expect(page.locator("#typed-input")).to_be_focused()  # no frame took the focus away
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    answer = page.locator("#typed-log .typed-answer:not([data-seen])")
    expect(answer).to_have_count(1, timeout=10000)
    expect(page.locator("#typed-input")).to_have_value("")
    return answer.inner_text()


def no_axe_violations(page) -> None:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN)
    assert not found, "axe-core: " + json.dumps(found, indent=1, ensure_ascii=False)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_manipulation_round_by_typed_commands(language, browser, live_daphne, artifacts, make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "11"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    state = spec_for("manipulation").load(Match.objects.get(pk=match.pk).state["round"])
    mover = [alice, bob][state.seat_to_act]
    # The mover has drawn; their five cards go out in one meld step (RULES B.5, B.6).
    set_position(match, "7H.0 JK.0 9H.0 5S.0 6S.0", ["2S.0 3S.0 4S.0"])
    context, page = open_table(browser, live_daphne, mover, match.pk, language)

    assert "5" in typed(page, "read hand")  # "Your hand, 5 cards: …" (its words in the page's language)
    if language == "en":
        assert typed(page, "read hand") == ("Your hand, 5 cards: five, six of spades; seven, nine of hearts; joker.")
        assert typed(page, "read table").startswith("Meld 1: two, three, four of spades.")
    refused = typed(page, "new KS")  # not in the hand: the engine's own reason, and nothing changes
    assert "K♠" in refused
    version = page.locator("#board-meta").get_attribute("data-version")
    typed(page, "new 7h JK 9♥")
    typed(page, "joker as 8H")
    said = typed(page, "add 5S 6S to 1")
    if language == "en":
        assert "two, three, four, five, six of spades" in said and "The table is valid" in said
        # The table as text, updated with the board while the focus stays in the command line.
        expect(page.locator("#typed-melds li").first).to_have_text("Meld 1: two, three, four, five, six of spades")
        expect(page.locator("#typed-melds li").nth(1)).to_have_text("Meld 2: seven, joker for eight, nine of hearts")
    else:
        expect(page.locator("#typed-melds li")).to_have_count(2)
    assert page.locator("#board-meta").get_attribute("data-version") != version
    typed(page, "move 6S from 1 to new")
    typed(page, "move 6S to 1")
    page.screenshot(path=str(artifacts / f"typed-manipulation-{language}.png"), full_page=True)
    no_axe_violations(page)
    typed(page, "meld")  # every card laid: the mover went out, the round is over
    expect(page.locator("#results")).to_have_attribute("role", "dialog")
    match.refresh_from_db()
    assert match.status != MatchStatus.PLAYING or match.round_number > 1 or match.state["round"]["went_out"] is not None
    context.close()


def _command_for(action: dict) -> str:
    kind = action["type"]
    card = action.get("card", "").split(".")[0].replace("T", "10")
    return {
        "take_upcard": "take",
        "pass_upcard": "pass",
        "draw_stock": "draw stock",
        "draw_discard": "draw discard",
        "pass": "pass",
        "discard": f"discard {card}",
        "knock": f"knock {card}".strip(),
    }[kind]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_box_gin_hand_by_typed_commands(language, browser, live_daphne, artifacts, make_user, settings):
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    Match.objects.filter(pk=match.pk).update(seed=seed_for(captain=0))
    services.match_start(match_id=match.pk, user=alice)
    context, page = open_table(browser, live_daphne, alice, match.pk, language)
    spec = spec_for("gin_box")

    hand = typed(page, "read hand")
    assert "10" in hand
    if language == "en":
        assert "Deadwood" in hand or "No deadwood" in hand
    followed = False
    for _turn in range(80):
        page.wait_for_function(
            "() => document.querySelector('#board-meta') && !document.querySelector('#table-board[aria-busy=true]')"
        )
        row = Match.objects.get(pk=match.pk)
        state = spec.load(row.state["round"]) if row.state.get("round") else None
        if state is None or state.phase == "over" or row.round_number > 1:
            break
        if state.seat_to_act != 0:
            page.wait_for_timeout(100)  # the bots' moves (RUMMYHUB_BOT_DELAY)
            continue
        advice = typed(page, "advice")
        view = spec.view(state, 0)
        if view.get("suggestions") and not followed:
            version = Match.objects.get(pk=match.pk).version
            said = typed(page, "follow")  # the captain's answer: the advisor's move, made
            assert language != "en" or said.startswith("You follow the advice: "), said
            assert Match.objects.get(pk=match.pk).version > version
            followed = True
            continue
        assert advice
        action = engine_bots.choose_action(state, 0, policy="basic", rng=random.Random(1))
        typed(page, _command_for(action))
    else:
        raise AssertionError("the hand did not end")
    assert followed, "the advisor never suggested a move"
    layout = typed(page, "layout")
    if language == "en":
        # Which way the hand ended follows the advisor's timing (a suggestion there or not when the
        # captain asks): a knock's layout counts deadwood, a stock run down to its last cards is a
        # dead hand (RULES C.8), and the layout says which.
        ended = match.rounds.get(number=1).result_kind
        assert ("dead hand" in layout) if ended == "dead" else ("deadwood" in layout), (ended, layout)
    # The others' moves were read into the live region from the board's own log lines.
    assert page.locator("#typed-log .typed-event").count() > 0
    page.screenshot(path=str(artifacts / f"typed-gin-{language}.png"), full_page=True)
    no_axe_violations(page)
    context.close()


def test_the_command_line_on_a_phone_right_to_left(browser, live_daphne, artifacts, make_user, settings):
    """Persian (right to left) on a 390×844 phone: the command line fits, answers, and keeps the focus."""
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2, bots=1)
    services.match_start(match_id=match.pk, user=alice)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    context.add_cookies(
        [
            {"name": "sessionid", "value": session_cookie_for(alice), "url": live_daphne.url},
            {"name": "django_language", "value": "fa", "url": live_daphne.url},
        ]
    )
    page = context.new_page()
    page.goto(f"{live_daphne.url}/tables/{match.pk}/#typed-input")  # the skip link's target opens it too
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("#typed-input")).to_be_focused()
    answer = typed(page, "read hand")
    assert answer  # in Persian where the catalogue has the words, the cards' short forms always read
    box = page.locator("#typed-input").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "typed-phone-fa.png"), full_page=False)
    no_axe_violations(page)
    context.close()
