"""What a new player meets first (issue 25, points 3-5), at 1280×720 with a mouse and at 390×844 on a
touch phone: a whole Manipulation round played through the page ends in a result dialog (who won, the
totals, a labelled countdown, Ready), a one-round match in the match's dialog (the winner, the final
totals, the rating change or where to find it, Rematch, the match page), each one a dialog the
keyboard can reach and Escape can close; the waiting table's "Copy the link" gives a link a second
browser joins the table by; a three-player Gin newcomer who is the advisor sees all three players,
what the advisor may do, and the hand's result.  Pictures go to artifacts/results-*.png."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.board.words import sentence_name
from games.engine import bots as engine_bots
from games.models import Match, MatchStatus, Seat
from games.variants import spec_for
from tests.browser.test_gin_journey import seed_for
from tests.browser.test_table_fits import SCREENS, current, my_turns, open_table, past, press
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

# The dialog and every one of its buttons wholly on screen and not covered (once scrolled to, inside
# the dialog); the player's own action bar (Ready, Rematch) and the page not covered by it either.
UNCOVERED = """(sel) => {
  const out = [];
  document.querySelectorAll(sel).forEach(el => {
    if (!el.getClientRects().length) return;
    if (el.closest('#results')) el.scrollIntoView({block: 'nearest'});  // the dialog scrolls inside itself
    const r = el.getBoundingClientRect();
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      out.push((el.textContent || el.id).trim().slice(0, 30) + " outside the screen"); return; }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) out.push((el.textContent || el.id).trim().slice(0, 30) + " covered");
  });
  return out;
}"""


# The dialog's buttons (what next) and the round's countdown (when) inside its visible box as it opens,
# before anything is scrolled: on a phone the dialog is taller than its room, and the way on must not
# wait below the fold, nor be said under the buttons that stay in view.
BELOW_THE_FOLD = """() => {
  const box = document.querySelector('#results').getBoundingClientRect();
  const group = document.querySelector('#results .results-buttons');
  const buttons = group.getBoundingClientRect();
  return [...document.querySelectorAll('#results :is(.results-buttons > :is(button, a), .results-countdown)')]
    .filter(el => el.getClientRects().length)
    .filter(el => {
      const r = el.getBoundingClientRect();
      const under = !group.contains(el) && r.bottom > buttons.top + 0.5 && r.top < buttons.bottom - 0.5;
      return under || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5;
    })
    .map(el => el.textContent.trim().slice(0, 30));
}"""


def shot(page, name: str, artifacts) -> None:
    page.wait_for_timeout(150)
    page.screenshot(path=str(artifacts / f"results-{name}.png"))


def play_round(page, screen: str, match_id: int) -> None:
    """The human (seat 0) plays the round through the page: draws, then knocks or ends the turn."""
    for _state, v in my_turns(page, match_id, "the round", limit=120):
        actions = page.locator("#actions .controls button[data-action]").evaluate_all(
            "els => els.map(e => e.dataset.action)"
        )
        kind = "draw" if "draw" in actions else next(a for a in ("knock", "end_turn") if a in actions)
        press(page, screen, page.locator(f'#actions button[data-action="{kind}"]'))
        past(page, v)


def check_dialog(page, artifacts, name: str) -> None:
    """The dialog has the focus on its title, its buttons and the action bar are on screen, uncovered."""
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#results-title")).to_be_focused()
    shot(page, name, artifacts)
    assert page.evaluate(BELOW_THE_FOLD) == []
    problems = page.evaluate(UNCOVERED, "#results-title, #actions button, #results .results-buttons > :is(button, a)")
    assert page.evaluate("document.scrollingElement.scrollTop") == 0
    assert not problems, problems


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_round_and_a_match_end_in_a_result_dialog(browser, live_daphne, artifacts, make_user, screen):
    alice = make_user("alice")
    match = services.match_create(
        host=alice, variant="manipulation", seats_count=3, bots=2, options={"game_target": 1000}
    )
    services.match_start(match_id=match.pk, user=alice)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    play_round(page, screen, match.pk)

    # The round's dialog: the winner is its title; the totals, the labelled countdown, Ready.
    rnd = Match.objects.get(pk=match.pk).rounds.get(number=1)
    winners = [s.display_name for s in Match.objects.get(pk=match.pk).seats.all() if s.index in rnd.winners]
    expect(page.locator("#results-title")).to_contain_text("round 1")
    for name in winners:
        expect(page.locator("#results-title")).to_contain_text(name)
    expect(page.locator("#results .results-why")).to_contain_text("Round 1 is over")
    expect(page.locator("#results .results-standings tbody tr")).to_have_count(3)
    expect(page.locator("#results .results-countdown")).to_contain_text("The next round starts in")
    expect(page.locator("#board-timer .timer-caption")).to_have_text("The next round is dealt in")
    check_dialog(page, artifacts, f"round-{screen}")
    # One Ready on the page while the dialog is open (its own, which presses the action bar's), and the
    # hand's line says no more how to knock: the round is over.
    expect(page.locator('#actions [data-action="ready"]')).to_be_hidden()
    expect(page.get_by_role("button", name="Ready")).to_have_count(1)
    expect(page.locator("#hand-info")).not_to_contain_text("knock")

    # Escape closes it; the focus goes to "Show the results", which opens it again (focus inside).
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_be_hidden()
    expect(page.locator('#actions [data-action="ready"]')).to_be_visible()  # the table's own way on
    # The focus is back where it was before the dialog took it (on the page, not lost).
    assert page.evaluate("document.activeElement !== document.body && !document.activeElement.closest('#results')")
    shot(page, f"round-closed-{screen}", artifacts)
    page.locator(".results-open").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog")).to_be_visible()
    expect(page.locator("#results-title")).to_be_focused()
    # Tab reaches the dialog's buttons: "Show the table", then Ready, which deals round 2.
    page.keyboard.press("Tab")
    expect(page.locator("#results .results-close")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator('#results [data-results-do="ready"]')).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#table-board")).to_have_attribute("data-status", "playing", timeout=15000)
    expect(page.get_by_role("dialog")).to_have_count(0)

    # Round 2 decides the match (its target is now 1 point): the match's dialog.
    m = Match.objects.get(pk=match.pk)
    Match.objects.filter(pk=match.pk).update(options={**m.options, "game_target": 1})
    play_round(page, screen, match.pk)
    m, _ = current(match.pk)
    if m.status != MatchStatus.FINISHED:
        pytest.fail(f"the match did not end after round 2: {m.status}")
    winner = next(sentence_name(s.display_name, s.is_bot) for s in m.seats.all() if s.is_winner)  # "Ada (bot)"
    expect(page.locator("#results-title")).to_contain_text(f"{winner} wins the match")
    expect(page.locator("#results .match-end caption")).to_have_text("Final totals")
    rating = page.locator("#results [data-rating-pending], #results .rating-change")
    expect(rating.first).to_be_visible()
    expect(page.get_by_role("link", name="The match page and its analysis")).to_have_attribute(
        "href", f"/matches/{match.pk}/"
    )
    check_dialog(page, artifacts, f"match-{screen}")
    expect(page.locator('#actions [data-action="rematch"]')).to_be_hidden()
    expect(page.get_by_role("button", name="Rematch")).to_have_count(1)
    # A reload (the rating worked out by now) shows each player's rating change.
    page.reload()
    expect(page.locator("#results .rating-change").first).to_have_text(__import__("re").compile(r"^[+-]\d+\.\d$"))
    shot(page, f"match-reloaded-{screen}", artifacts)
    # Rematch from the dialog: the new table, with the same seats.
    press(page, screen, page.locator('#results [data-results-do="rematch"]'))
    page.wait_for_url(lambda url: f"/tables/{match.pk}/" not in url, timeout=15000)
    expect(page.locator("#seats .seat")).to_have_count(3)
    assert Match.objects.filter(pk__gt=match.pk, variant="manipulation").exists()
    context.close()


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_friend_joins_by_the_copied_link(browser, live_daphne, artifacts, make_user, screen):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2, is_private=True)
    context = browser.new_context(**SCREENS[screen])
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_daphne.url)
    context.add_cookies([{"name": "sessionid", "value": session_cookie_for(alice), "url": live_daphne.url}])
    page = context.new_page()
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    link = page.locator("#invite-url")
    expect(link).to_be_visible()
    expect(link).to_have_value(f"{live_daphne.url}/tables/{match.pk}/?invite={match.invite_token}")
    press(page, screen, page.get_by_role("button", name="Copy the link"))
    expect(page.locator(".invite-status")).to_contain_text("Copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == link.input_value()
    shot(page, f"invite-{screen}", artifacts)

    # Bob opens the link he was sent and sits down; Alice's page shows him.
    other = browser.new_context(**SCREENS[screen])
    other.add_cookies([{"name": "sessionid", "value": session_cookie_for(bob), "url": live_daphne.url}])
    friend = other.new_page()
    friend.goto(copied)
    press(friend, screen, friend.get_by_role("button", name="Sit here"))
    expect(friend.locator("#seats .seat-me")).to_contain_text("bob")
    expect(page.locator("#seats")).to_contain_text("bob", timeout=15000)
    shot(friend, f"invite-joined-{screen}", artifacts)
    other.close()
    context.close()


def test_the_link_is_selected_when_the_clipboard_refuses(browser, live_daphne, make_user):
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    context = browser.new_context(**SCREENS["laptop"])
    context.add_cookies([{"name": "sessionid", "value": session_cookie_for(alice), "url": live_daphne.url}])
    page = context.new_page()
    page.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: () => Promise.reject(new Error('no'))}})"
    )
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    page.get_by_role("button", name="Copy the link").click()
    expect(page.locator(".invite-status")).to_contain_text("selected")
    expect(page.locator("#invite-url")).to_be_focused()
    selected = page.evaluate(
        "(() => { const i = document.getElementById('invite-url'); return i.value.slice(i.selectionStart, i.selectionEnd); })()"
    )
    assert selected == f"{live_daphne.url}/tables/{match.pk}/"
    context.close()


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_newcomer_advising_in_box_gin_sees_all_three_and_the_result(
    browser, live_daphne, artifacts, make_user, screen
):
    alice, bob = make_user("alice"), make_user("bob")
    # Bob is the captain (the hand waits for him while Alice looks), then his seat is played for him.
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=1)
    services.seat_join(match_id=match.pk, user=bob, index=2)
    Match.objects.filter(pk=match.pk).update(seed=seed_for(captain=2, advisor=0))
    services.match_start(match_id=match.pk, user=alice)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    expect(page.locator("#seats .seat-me")).to_have_attribute("data-role", "advisor")
    # Every player whole on screen: the box, the captain and the advisor, no name cut.
    expect(page.locator("#seats .seat")).to_have_count(3)
    page.wait_for_timeout(300)
    shot(page, f"gin-advisor-start-{screen}", artifacts)
    seats = page.evaluate("""() => [...document.querySelectorAll('#seats .seat')].map(li => {
      const r = li.getBoundingClientRect(), n = li.querySelector('.seat-name');
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {role: li.dataset.role, left: r.left, right: r.right, top: r.top, bottom: r.bottom,
              cut: n.scrollWidth > n.clientWidth + 1, covered: !(hit && li.contains(hit))};
    })""")
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    assert sorted(s["role"] for s in seats) == ["advisor", "box", "captain"]
    for s in seats:
        assert s["left"] >= 0 and s["right"] <= width and s["top"] >= 0 and s["bottom"] <= height, s
        assert not s["cut"] and not s["covered"], s
    # What the advisor may do, said to them.
    expect(page.locator("#gin-advisor-note")).to_contain_text("advisor")
    shot(page, f"gin-advisor-{screen}", artifacts)
    # The hand is played by the others (Bob's seat by the server now); its result is shown to the advisor too.
    Seat.objects.filter(match=match, user=bob).update(autopilot=True)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now())  # due now: the server's clock plays
    expect(page.locator("#gin-end .gin-result")).to_be_visible(timeout=60000)
    # The three seats still whole on screen with their new badges (autopilot, not ready).
    width = page.viewport_size["width"]
    rights = page.locator("#seats .seat").evaluate_all("els => els.map(e => e.getBoundingClientRect().right)")
    assert len(rights) == 3 and max(rights) <= width, rights
    expect(page.get_by_role("dialog")).to_be_visible()
    expect(page.locator("#results-title")).to_be_focused()
    shot(page, f"gin-advisor-result-{screen}", artifacts)
    context.close()


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_the_match_dialog_right_to_left(browser, live_daphne, artifacts, make_user, screen, settings):
    """Persian (right to left): the dialog reads from the right, its close button at the inline end,
    nothing off the screen; the waiting table's link stays a left-to-right address."""
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin", seats_count=2, bots=1, options={"game_target": 10})
    services.match_start(match_id=match.pk, user=alice)
    for _ in range(2000):
        services.run_until_human(match_id=match.pk)
        match.refresh_from_db()
        if match.status == MatchStatus.FINISHED:
            break
        if match.status == MatchStatus.BETWEEN_ROUNDS:
            services.round_ready(match_id=match.pk, user=alice)
            continue
        state = spec_for(match.variant).load(match.state["round"])
        if state.seat_to_act != 0:
            continue  # the live server's clock is moving the bot meanwhile
        action = engine_bots.choose_action(state, 0, policy="basic")
        try:
            services.turn_submit(match_id=match.pk, user=alice, action=action, expected_version=match.version)
        except services.ActionRefused:
            continue  # the clock moved first: this was a stale board
    assert match.status == MatchStatus.FINISHED
    waiting = services.match_create(host=alice, variant="manipulation", seats_count=3)
    context = browser.new_context(**SCREENS[screen])
    host = live_daphne.url.split("//", 1)[1].split(":")[0]
    context.add_cookies(
        [
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": "fa", "domain": host, "path": "/"},
            {"name": "sessionid", "value": session_cookie_for(alice), "url": live_daphne.url},
        ]
    )
    page = context.new_page()
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#results-title")).to_be_focused()
    title, close = page.locator("#results-title").bounding_box(), page.locator("#results .results-close").bounding_box()
    assert close["x"] + close["width"] <= title["x"] + 1  # the close button is left of the title: the inline end
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    shot(page, f"match-rtl-{screen}", artifacts)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    page.goto(f"{live_daphne.url}/tables/{waiting.pk}/")
    expect(page.locator("#invite-url")).to_have_attribute("dir", "ltr")
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    shot(page, f"invite-rtl-{screen}", artifacts)
    context.close()
