"""The table fits the screen (issue 15, "What it must show" 2): at 1280×720 with a mouse and at
390×844 on a touch phone, a whole Manipulation round against two bots and a whole three-player Gin
hand (the human the captain, bots in the other seats) are played through the page; at every step
the page has not scrolled and cannot scroll, and the hand and every action button are fully on
screen, not clipped by a scrolling region and not covered (by the results dialog or anything else).
A picture of each step goes to artifacts/ (fits-<game>-<screen>-<step>.png)."""

from __future__ import annotations

import dataclasses
import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from games import services
from games.engine import bots as engine_bots
from games.engine import gin
from games.models import Match, MatchStatus
from games.variants import spec_for
from tests.browser.conftest import meld_in_hand
from tests.browser.test_gin_journey import seed_for
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = {
    "laptop": {"viewport": {"width": 1280, "height": 720}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}

# What is wrong with the page as shown: the page scrolled or able to scroll, the hand or an
# action button not wholly on screen (outside the viewport, clipped by a region that scrolls,
# or under something else at its centre).
PROBLEMS = """({hand, buttons}) => {
  const se = document.scrollingElement, vw = innerWidth, vh = innerHeight, out = [];
  if (se.scrollTop !== 0) out.push("scrollTop " + se.scrollTop);
  if (se.scrollHeight > vh) out.push("page height " + se.scrollHeight + " > " + vh);
  if (se.scrollWidth > vw) out.push("page width " + se.scrollWidth + " > " + vw);
  const name = el => (el.id ? "#" + el.id : el.tagName.toLowerCase()) + " " + JSON.stringify((el.textContent || "").trim().slice(0, 30));
  function shown(el) {
    const r = el.getBoundingClientRect();
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > vh + 0.5 || r.right > vw + 0.5) return "outside the viewport " + [r.top, r.bottom];
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const c = a.getBoundingClientRect();
      if (r.top < c.top - 0.5 || r.bottom > c.bottom + 0.5 || r.left < c.left - 0.5 || r.right > c.right + 0.5)
        return "clipped by " + name(a);
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) return "covered by " + (hit ? name(hit) : "nothing");
    return null;
  }
  const h = document.querySelector(hand);
  if (h) { const p = shown(h); if (p) out.push("hand " + p); }
  let count = 0;
  document.querySelectorAll(buttons).forEach(b => {
    if (!b.getClientRects().length) return;  // not displayed (display: none)
    count++;
    const p = shown(b);
    if (p) out.push("button " + name(b) + " " + p);
  });
  return {problems: out, hand: !!h, buttons: count, height: se.scrollHeight,
          header: (document.querySelector(".site-header") || {}).offsetHeight || 0};
}"""


class Steps:
    """Checks the page at every step; keeps its picture at the first step of each kind and at a step that
    fails (a picture of every step was a third of the browser's work in these tests)."""

    def __init__(self, page, artifacts, name, hand, buttons):
        self.page, self.artifacts, self.name = page, artifacts, name
        self.hand, self.buttons = hand, buttons
        self.n = 0
        self.heights = set()
        self.pictured = set()

    def check(self, what: str, *, need_hand: bool = True) -> dict:
        self.n += 1
        self.page.wait_for_timeout(60)  # let a frame's swap settle
        shown = self.page.evaluate(PROBLEMS, {"hand": self.hand, "buttons": self.buttons})
        self.heights.add(shown["height"])
        problems = shown["problems"] + ([] if shown["hand"] or not need_hand else ["no hand shown"])
        if problems or what not in self.pictured:
            self.pictured.add(what)
            self.page.screenshot(path=str(self.artifacts / f"fits-{self.name}-{self.n:03d}-{what}.png"))
        assert not problems, f"step {self.n} ({what}) of {self.name}: {problems}"
        return shown


def version(page) -> int:
    return int(page.locator("#table-board").get_attribute("data-version") or 0)


def caught_up(page, v: int) -> None:
    page.wait_for_function("v => +document.getElementById('table-board').dataset.version >= v", arg=v, timeout=15000)


def past(page, v: int) -> None:
    page.wait_for_function(
        "v => { const b = document.getElementById('table-board');"
        " return +b.dataset.version > v && b.getAttribute('aria-busy') !== 'true'; }",
        arg=v,
        timeout=15000,
    )


def current(match_id: int):
    match = Match.objects.get(pk=match_id)
    state = spec_for(match.variant).load(match.state["round"]) if match.state.get("round") else None
    return match, state


def open_table(browser, live_daphne, user, screen: str, match_id: int, lang: str = "en"):
    context = browser.new_context(**SCREENS[screen])
    context.add_cookies(
        [
            {"name": "sessionid", "value": session_cookie_for(user), "url": live_daphne.url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_daphne.url},
        ]
    )
    page = context.new_page()
    page.goto(f"{live_daphne.url}/tables/{match_id}/")
    expect(page.locator("#table-board")).to_have_attribute("data-status", "playing")
    return context, page


def press(page, screen: str, locator) -> None:
    """A tap on the phone, a click with the mouse."""
    if screen == "phone":
        locator.tap()
    else:
        locator.click()


def my_turns(page, match_id: int, what: str, limit: float = 60):
    """Each moment the human (seat 0) is to act, once the page shows that version: (state, the page's
    version); ends with the round, and fails when ``what`` has not ended within ``limit`` seconds."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        match, state = current(match_id)
        if match.status != MatchStatus.PLAYING:
            return
        if state.seat_to_act != 0:
            page.wait_for_timeout(50)
            continue
        caught_up(page, match.version)
        yield state, version(page)
    raise AssertionError(f"{what} did not end within {limit:.0f} s")


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_manipulation_round_fits_the_screen(browser, live_daphne, artifacts, make_user, screen):
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=2)
    services.match_start(match_id=match.pk, user=alice)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    steps = Steps(page, artifacts, f"manipulation-{screen}", "#hand", "#actions button")
    steps.check("start")
    turn, melded = 0, -1  # the human's turns, and the last one in which they melded
    for state, v in my_turns(page, match.pk, "the round"):
        actions = page.locator("#actions .controls button[data-action]").evaluate_all(
            "els => els.map(e => e.dataset.action)"
        )
        steps.check("my-turn")
        can_meld = page.locator('#melds [data-target-meld="new"]').count() > 0
        meld = meld_in_hand(state, 0) if can_meld and "meld" not in actions and turn != melded else None
        if meld:
            # Pick the three cards (a tap or a click each), then the new-meld zone: a draft.
            for card_id in meld:
                press(page, screen, page.locator(f'#hand .card[data-id="{card_id}"] .card-face'))
            steps.check("picked")
            press(page, screen, page.locator('#melds .meld-box[data-target-meld="new"]'))
            past(page, v)
            expect(page.locator('#actions button[data-action="meld"]')).to_be_visible()
            steps.check("draft")
            v = version(page)
            press(page, screen, page.locator('#actions button[data-action="meld"]'))
            past(page, v)
            melded = turn
            continue
        if "draw" in actions:
            press(page, screen, page.locator('#actions button[data-action="draw"]'))
            past(page, v)
            continue
        choice = next(a for a in ("knock", "end_turn") if a in actions)
        turn += 1
        press(page, screen, page.locator(f'#actions button[data-action="{choice}"]'))
        past(page, v)
        steps.check(f"after-{choice}", need_hand=False)
    expect(page.locator("#results .round-end")).to_be_visible(timeout=15000)
    # The way on is the dialog's (it presses the action bar's, which steps aside meanwhile).
    expect(page.locator('#results :is([data-results-do="ready"], [data-results-do="rematch"])')).to_be_visible()
    steps.check("round-end", need_hand=False)
    # The results put aside show the table; the button to take them back is still at hand.
    press(page, screen, page.locator("#results .results-close"))
    expect(page.locator("#results .round-end")).to_be_hidden()
    expect(page.locator('#actions [data-action="ready"], #actions [data-action="rematch"]')).to_be_visible()
    steps.check("table-after-round", need_hand=False)
    print(f"manipulation {screen}: {steps.n} steps, page heights {sorted(steps.heights)}")
    context.close()


GIN_BUTTONS = (
    "#actions button, #gin-board button[data-action], #gin-board button[data-knock-card],"
    " #gin-board [data-knock-open], #gin-board select"
)


def open_knock(page, screen: str, card: str) -> None:
    """Open the knock layout editor on ``card`` (picked in the hand already): its button, or, when the
    choices are many, the list (the pick chose it there) and its one button."""
    if page.locator("#gin-knock-select").count():
        expect(page.locator(f'#gin-knock-select option[data-knock-card="{card}"]')).to_have_count(1)
        assert page.locator("#gin-knock-select").evaluate("s => s.selectedOptions[0].dataset.knockCard") == card
        press(page, screen, page.locator("#gin-board [data-knock-open]"))
    else:
        press(page, screen, page.locator(f'[data-knock-card="{card}"]'))


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_three_player_gin_hand_fits_the_screen(browser, live_daphne, artifacts, make_user, screen):
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    Match.objects.filter(pk=match.pk).update(seed=seed_for(captain=0))
    services.match_start(match_id=match.pk, user=alice)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    steps = Steps(page, artifacts, f"gin-{screen}", "#gin-hand", GIN_BUTTONS)
    steps.check("start")
    for state, v in my_turns(page, match.pk, "the hand"):
        steps.check("my-turn")
        action = engine_bots.choose_action(state, 0, policy="basic")
        kind = action["type"]
        if kind in ("discard", "knock"):
            press(page, screen, page.locator(f'#gin-hand .card[data-id="{action["card"]}"] .card-face'))
            if kind == "discard":
                press(page, screen, page.locator('#gin-discard-form [data-action="discard"]'))
            else:  # the layout editor on that card, then its proposed layout confirmed
                open_knock(page, screen, action["card"])
                expect(page.locator("#gin-knock-editor")).to_be_visible()
                steps.hand = "#gin-knock-editor .gin-layout-groups"  # the hand, laid out in groups
                steps.check("knock-layout")
                steps.hand = "#gin-hand"
                press(page, screen, page.locator('#gin-knock-confirm [data-action="knock"]'))
        elif kind == "draw_discard":
            press(page, screen, page.locator('#gin-board [data-action="draw_discard"]'))
        else:
            press(page, screen, page.locator(f'#gin-board [data-action="{kind}"]').first)
        past(page, v)
        steps.check(f"after-{kind}", need_hand=kind != "knock")  # a knock ends the hand: no hand to show
    expect(page.locator("#gin-end .gin-result")).to_be_visible(timeout=15000)
    expect(page.locator('#results :is([data-results-do="ready"], [data-results-do="rematch"])')).to_be_visible()
    steps.check("hand-end", need_hand=False)
    print(f"gin {screen}: {steps.n} steps, page heights {sorted(steps.heights)}")
    context.close()


# The captain (seat 0) to discard, holding three melds and two low cards: five discards leave a
# deadwood within the knock limit (A♦ 2, 2♥ 1, A♣ 8, 2♣ 7, 3♣ 6), so five knock choices are offered.
LONG_KNOCK_HAND = "7H 8H 9H KS KH KD AC 2C 3C AD 2H"


def set_gin_position(match_id: int, hand: str) -> None:
    """The captain holds ``hand`` (eleven cards) and is to discard; the box holds ten of the rest,
    the discard pile one, the stock the others (a new version: no cached board of the old one)."""
    match = Match.objects.get(pk=match_id)
    state = spec_for(match.variant).load(match.state["round"])
    mine = [gin.card_index(c) for c in hand.split()]
    rest = [c for c in range(52) if c not in mine]
    hands = [()] * state.n_seats
    hands[state.captain], hands[state.box] = tuple(mine), tuple(rest[:10])
    state = dataclasses.replace(
        state,
        hands=tuple(hands),
        discard=(rest[10],),
        stock=tuple(rest[11:]),
        phase="discard",
        seat_to_act=state.captain,
        taken=None,
        suggestions=(),
    )
    match.state = {**match.state, "round": spec_for(match.variant).dump(state)}
    match.draft = None
    match.version += 1
    match.save(update_fields=["state", "draft", "version"])


@pytest.mark.parametrize(("screen", "lang"), [("laptop", "en"), ("phone", "en"), ("phone", "fa")])
def test_a_long_list_of_knock_choices_fits_the_screen(browser, live_daphne, artifacts, make_user, screen, lang):
    """Five knock choices (and the discard) offered at once: every choice, and then the layout
    editor's confirmation, can be reached without scrolling the page or being clipped (on the phone
    right to left too)."""
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    Match.objects.filter(pk=match.pk).update(seed=seed_for(captain=0))
    services.match_start(match_id=match.pk, user=alice)
    set_gin_position(match.pk, LONG_KNOCK_HAND)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk, lang=lang)
    expect(page.locator("html")).to_have_attribute("dir", "rtl" if lang == "fa" else "ltr")
    expect(page.locator("#gin-knock-select option")).to_have_count(5)
    steps = Steps(page, artifacts, f"gin-knocks-{screen}-{lang}", "#gin-hand", GIN_BUTTONS)
    steps.check("five-knocks")
    # The choice leaving the least deadwood is offered first; a card picked in the hand is chosen instead.
    assert page.locator("#gin-knock-select").evaluate("s => s.selectedOptions[0].dataset.knockCard") == "2H.0"
    press(page, screen, page.locator('#gin-hand .card[data-id="3C.0"] .card-face'))
    open_knock(page, screen, "3C.0")
    expect(page.locator("#gin-knock-editor")).to_have_attribute("data-card", "3C.0")
    steps.hand = "#gin-knock-editor .gin-layout-groups"
    steps.check("knock-layout")
    v = version(page)
    press(page, screen, page.locator('#gin-knock-confirm [data-action="knock"]'))
    past(page, v)
    expect(page.locator("#gin-end .gin-result")).to_be_visible(timeout=15000)
    steps.check("hand-end", need_hand=False)
    context.close()
