"""What a new player meets first (issue 25 points 1, 2 and 8), in Chromium at 1280×720 with a mouse and
at 390×844 on a touch phone, with twenty melds on the table:

1. The twenty melds are all shown and reachable (at 1280×720 without scrolling; on the phone each one
   brought into view is wholly shown, not under the new-meld zone); the new-meld zone is on screen in
   every state of a move (nothing picked, cards picked, a draft, a draft with a refused meld); a drop at
   each meld's edge lands in that meld; on the phone three drags to the same place build one meld.
2. An opponent's last move is marked (the cards laid from the hand, the cards moved, the melds changed
   with the mover's name) until the viewer's own next move, and the log says it in one sentence.
8. A 140-character name is cut with an ellipsis; the page is no wider than the screen.

Pictures go to artifacts/roomy-*.png.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import Match, Seat
from tests.browser.roomy_position import HANDS, TWENTY, opponents_move, place, three_players
from tests.browser.test_table_fits import PROBLEMS, SCREENS, open_table
from tests.browser.test_table_live import play_until_the_turn_passes

pytestmark = pytest.mark.django_db(transaction=True)

MELDS = "#melds .meld-box:not(.meld-new-box)"
NEW = '#melds .meld-box[data-target-meld="new"]'

# Each meld box: wholly inside the melds region and the viewport, and the one element at its centre
# and just inside each of its four edges (nothing over it: not the docked new-meld zone).
SHOWN = """(sel) => {
  const region = document.getElementById("melds").getBoundingClientRect();
  return [...document.querySelectorAll(sel)].map((box, i) => {
    const r = box.getBoundingClientRect();
    const inside = r.top >= region.top - .5 && r.bottom <= region.bottom + .5 && r.left >= region.left - .5
      && r.right <= region.right + .5 && r.bottom <= innerHeight && r.right <= innerWidth;
    const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 3, r.top + r.height / 2],
      [r.right - 3, r.top + r.height / 2], [r.left + r.width / 2, r.top + 3], [r.left + r.width / 2, r.bottom - 3]];
    const hits = points.every(([x, y]) => { const el = document.elementFromPoint(x, y); return el && box.contains(el); });
    return {i, inside, hits};
  }).filter(m => !m.inside || !m.hits);
}"""


def page_wait(seconds: float) -> None:
    time.sleep(seconds)


def seat_of(match, user) -> int:
    return Seat.objects.get(match=match, user=user).index


def visible_everywhere(page, selector: str) -> bool:
    return page.evaluate(
        """(sel) => { const el = document.querySelector(sel); if (!el) return false;
        const r = el.getBoundingClientRect();
        if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth || !r.width) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !!hit && el.contains(hit); }""",
        selector,
    )


def settled(page, version: int | None = None) -> None:
    if version is not None:
        page.wait_for_function("v => +document.getElementById('table-board').dataset.version > v", arg=version)
    page.wait_for_function("() => document.getElementById('table-board').getAttribute('aria-busy') !== 'true'")
    page.wait_for_timeout(120)


def version(page) -> int:
    return int(page.locator("#table-board").get_attribute("data-version") or 0)


def draft_table(match) -> list[list[str]]:
    draft = Match.objects.get(pk=match.pk).draft
    return [list(m) for m in (draft or {}).get("table", [])]


class Touch:
    """A finger on the page (Chromium's touch events through the DevTools protocol)."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def _send(self, kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def drag(self, source, x1: float, y1: float) -> None:
        a = source.bounding_box()
        x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
        self._send("touchStart", x0, y0)
        self.page.wait_for_timeout(200)  # SortableJS waits 80 ms before a touch drag starts
        for i in range(1, 13):
            self._send("touchMove", x0 + (x1 - x0) * i / 12, y0 + (y1 - y0) * i / 12)
            self.page.wait_for_timeout(20)
        for dx in (2, -2, 0):
            self._send("touchMove", x1 + dx, y1)
            self.page.wait_for_timeout(50)
        self._send("touchEnd", x1, y1)


def mouse_drag(page, source, x1: float, y1: float) -> None:
    a = source.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, 13):
        page.mouse.move(x0 + (x1 - x0) * i / 12, y0 + (y1 - y0) * i / 12)
        page.wait_for_timeout(15)
    for dx in (2, -2, 0):
        page.mouse.move(x1 + dx, y1)
        page.wait_for_timeout(50)
    page.mouse.up()


def drop(page, screen: str, source, x: float, y: float) -> None:
    if screen == "phone":
        Touch(page).drag(source, x, y)
    else:
        mouse_drag(page, source, x, y)


def press(page, screen: str, locator) -> None:
    if screen == "phone":
        locator.tap()
    else:
        locator.click()


def alice_to_meld(make_user):
    """Twenty melds on the table, Alice to play (she has drawn)."""
    match, (first, second, third) = three_players(make_user)
    return place(match, to_act=0), first


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_twenty_melds_are_shown_and_reachable_and_the_new_meld_zone_is_always_in_view(
    browser, live_daphne, artifacts, make_user, screen
):
    match, alice = alice_to_meld(make_user)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    expect(page.locator(MELDS)).to_have_count(20)
    expect(page.locator(NEW)).to_have_count(1)
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / f"roomy-{screen}-1-twenty.png"))
    fits = page.evaluate(
        "() => { const m = document.getElementById('melds'); return [m.scrollHeight, m.clientHeight, m.dataset.fit || '0']; }"
    )
    print(f"{screen}: melds region {fits[1]} px high, content {fits[0]} px, fit level {fits[2]}")
    if screen == "laptop":
        assert fits[0] <= fits[1] + 1, f"the twenty melds need scrolling: {fits}"
        assert page.evaluate(SHOWN, MELDS) == []
    else:
        # Each meld, brought into view in the melds region, is wholly shown and nothing lies over it.
        for i in range(20):
            page.locator(MELDS).nth(i).evaluate("el => el.scrollIntoView({block: 'nearest'})")
            bad = [m for m in page.evaluate(SHOWN, MELDS) if m["i"] == i]
            assert bad == [], f"meld {i} brought into view is not wholly shown: {bad}"
        page.locator("#melds").evaluate("el => el.scrollTop = 0")
    assert page.evaluate(PROBLEMS, {"hand": "#hand", "buttons": "#actions button"})["problems"] == []
    assert visible_everywhere(page, NEW), "the new-meld zone is not in view"

    # Cards picked: the zone is still there.
    for card in ("2D.1", "3D.1"):
        press(page, screen, page.locator(f'#hand .card[data-id="{card}"] .card-face'))
    assert visible_everywhere(page, NEW)
    # A draft (the two cards as a meld being built, refused as too short): the zone is still in view,
    # and so is the meld being built beside it.
    v = version(page)
    press(page, screen, page.locator(NEW))
    settled(page, v)
    expect(page.locator("#melds .meld-building .card")).to_have_count(2)
    expect(page.locator('#actions button[data-action="meld"]')).to_be_disabled()
    page.screenshot(path=str(artifacts / f"roomy-{screen}-2-draft.png"))
    assert visible_everywhere(page, NEW)
    assert visible_everywhere(page, "#melds .meld-building")
    # Scrolled to the top of the melds, the zone stays in view (it is docked).
    page.locator("#melds").evaluate("el => el.scrollTop = 0")
    assert visible_everywhere(page, NEW)
    assert page.evaluate(PROBLEMS, {"hand": "#hand", "buttons": "#actions button"})["problems"] == []
    context.close()


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_drop_at_each_melds_edge_lands_in_that_meld(browser, live_daphne, artifacts, make_user, screen):
    match, alice = alice_to_meld(make_user)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    expect(page.locator(MELDS)).to_have_count(20)
    page.wait_for_timeout(300)
    hand = HANDS[0].split()
    edges = ("end", "start", "top", "bottom")
    # The first row, the middle and the last row (scrolled to), each edge at least twice: 10 of the 20 melds,
    # each drop a round trip and its Reset another (all 20 took a minute on a phone).
    for i in (0, 1, 2, 3, 9, 10, 16, 17, 18, 19):
        card = hand[i % len(hand)]
        box = page.locator(MELDS).nth(i)
        box.evaluate("el => el.scrollIntoView({block: 'nearest'})")
        page.wait_for_timeout(80)
        r = box.bounding_box()
        edge = edges[i % 4]
        x = {"end": r["x"] + r["width"] - 3, "start": r["x"] + 3}.get(edge, r["x"] + r["width"] / 2)
        y = {"top": r["y"] + 3, "bottom": r["y"] + r["height"] - 3}.get(edge, r["y"] + r["height"] / 2)
        v = version(page)
        drop(page, screen, page.locator(f'#hand .card[data-id="{card}"]'), x, y)
        settled(page, v)
        table = draft_table(match)
        where = [k for k, m in enumerate(table) if card in m]
        assert i < len(table) and card in table[i], f"{card} dropped at the {edge} edge of meld {i} went to {where}"
        if i == 0:
            page.screenshot(path=str(artifacts / f"roomy-{screen}-3-edge-drop.png"))
        # Back to the table as it was (Reset), for the next drop.
        v = version(page)
        press(page, screen, page.locator('#actions button[data-action="reset"]'))
        settled(page, v)
        assert draft_table(match) == []
    context.close()


def test_three_drags_to_the_same_place_on_the_phone_build_one_meld(browser, live_daphne, artifacts, make_user):
    match, (first, _b, _c) = three_players(make_user)
    hands = {**HANDS, 0: "4S.1 5S.1 6S.1 2D.1 3D.1 KD.1 QS.1 8S.1 JH.1 AC.0"}
    hands[1] = "2S.1 9D.1 KH.1 QH.1 JD.1 3S.1 8D.1 TS.1 5D.1 AD.1"
    match = place(match, to_act=0, hands=hands)
    context, page = open_table(browser, live_daphne, first, "phone", match.pk)
    expect(page.locator(MELDS)).to_have_count(20)
    page.wait_for_timeout(300)
    for card in ("4S.1", "5S.1", "6S.1"):
        # The start of the dock: the new-meld zone, then the meld being built, which takes its place.
        r = page.locator("#melds .meld-dock > .meld-box").first.bounding_box()
        x, y = r["x"] + r["width"] / 2, r["y"] + r["height"] / 2
        v = version(page)
        Touch(page).drag(page.locator(f'#hand .card[data-id="{card}"]'), x, y)
        settled(page, v)
        page.screenshot(path=str(artifacts / f"roomy-phone-4-three-drags-{card}.png"))
    page.screenshot(path=str(artifacts / "roomy-phone-4-three-drags.png"))
    new = [sorted(m) for m in draft_table(match) if any(c.endswith(".1") and c[1] == "S" for c in m)]
    assert new == [["4S.1", "5S.1", "6S.1"]], draft_table(match)[-3:]  # one meld (in the order dropped)
    expect(page.locator('#actions button[data-action="meld"]')).to_be_enabled()
    context.close()


MARKS = """() => [...document.querySelectorAll('#melds .card[data-mark]')].map(c => ({
  id: c.dataset.id, kind: c.dataset.mark, shown: !c.classList.contains('mark-seen'),
  ring: getComputedStyle(c.querySelector('.card-face')).boxShadow !== 'none'
    || getComputedStyle(c.querySelector('.card-face')).outlineStyle !== 'none'}))"""


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_the_last_move_of_each_opponent_is_marked_until_the_viewers_next_move(
    browser, live_daphne, artifacts, make_user, screen
):
    match, (alice, bob, carol) = three_players(make_user)
    place(match, to_act=1)
    opponents_move(match, bob, carol)  # Bob lays 4♠ 5♠ 6♠ and moves 7♣; Carol lays 9♣
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    page.wait_for_timeout(1500)  # a while later (a player looking away): the marks are still there
    marks = {m["id"]: m for m in page.evaluate(MARKS)}
    page.screenshot(path=str(artifacts / f"roomy-{screen}-5-marks.png"))
    assert {k: (m["kind"], m["shown"], m["ring"]) for k, m in marks.items()} == {
        "4S.1": ("laid", True, True),
        "5S.1": ("laid", True, True),
        "6S.1": ("laid", True, True),
        "7C.1": ("moved", True, True),
        "9C.1": ("laid", True, True),
    }
    tags = page.locator("#melds .meld-box:not(.mark-seen) .meld-mark-by")
    expect(tags).to_have_count(4)  # the 7s, the run 4♣-6♣ that lost 7♣, 4♠ 5♠ 6♠, the 9s
    assert sorted(tags.all_inner_texts()) == ["bob", "bob", "bob", "carol"]
    if screen == "phone":
        page.get_by_role("button", name="What happened").tap()
    log = page.locator("#log-list")
    expect(log).to_contain_text("bob laid 4♠ 5♠ 6♠ and moved 7♣, changing 3 melds:")
    expect(log).to_contain_text("carol laid 9♣ in 1 meld: 9♠ 9♥ 9♦ 9♣.")
    if screen == "phone":
        page.get_by_role("button", name="What happened").tap()
    # Alice's own move: the marks are gone, and stay gone after a reload.
    v = version(page)
    press(page, screen, page.locator('#actions button[data-action="draw"]'))
    settled(page, v)
    assert all(not m["shown"] for m in page.evaluate(MARKS))
    expect(page.locator("#melds .meld-box:not(.mark-seen) .meld-mark-by")).to_have_count(0)
    page.screenshot(path=str(artifacts / f"roomy-{screen}-6-marks-seen.png"))
    page.reload()
    expect(page.locator(MELDS)).to_have_count(21)  # Bob's new meld among them
    page.wait_for_timeout(300)
    assert all(not m["shown"] for m in page.evaluate(MARKS))
    context.close()
    # Bob sees Carol's move marked, not his own.
    context, page = open_table(browser, live_daphne, bob, screen, match.pk)
    page.wait_for_timeout(300)
    shown = {m["id"] for m in page.evaluate(MARKS) if m["shown"]}
    assert shown == {"9C.1"}
    context.close()


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_long_name_is_cut_with_an_ellipsis(browser, live_daphne, artifacts, make_user, screen):
    long_name = "Bartholomew" * 12 + "Zed" + "x" * 5  # 140 characters, no space
    assert len(long_name) == 140
    alice, bob, carol = make_user(long_name), make_user("bob"), make_user("carol")
    from games import services

    match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    services.seat_join(match_id=match.pk, user=bob)
    services.seat_join(match_id=match.pk, user=carol)
    services.match_start(match_id=match.pk, user=alice)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifacts / f"roomy-{screen}-7-long-name.png"))
    width = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert width <= SCREENS[screen]["viewport"]["width"], f"the page is {width} px wide"
    for selector in (".seat-me .seat-name .name-cut", ".site-header .user-link"):
        name = page.locator(selector)
        if not name.is_visible():
            continue
        cut = name.evaluate(
            "el => ({title: el.title, cut: el.scrollWidth > el.clientWidth, "
            "ellipsis: getComputedStyle(el).textOverflow, right: el.getBoundingClientRect().right})"
        )
        assert cut["title"] == long_name and cut["cut"] and cut["ellipsis"] == "ellipsis", (selector, cut)
        assert cut["right"] <= SCREENS[screen]["viewport"]["width"], (selector, cut)
    # The other players and the menu stay on the page.
    for other in ("bob", "carol"):
        box = page.locator(".seat", has_text=other).bounding_box()
        assert box["x"] + box["width"] <= SCREENS[screen]["viewport"]["width"] + 0.5
    if screen == "laptop":
        expect(page.get_by_role("button", name="Log out")).to_be_in_viewport()
        # On hover the players bar shows the whole name (and the title says it).
        page.locator(".seat-me").hover()
        assert page.locator(".seat-me .name-cut").evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    assert page.evaluate(PROBLEMS, {"hand": "#hand", "buttons": "#actions button"})["problems"] == []
    context.close()


@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_a_practice_hint_leaves_the_players_bar_in_view_and_marks_the_cards_it_names(
    browser, live_daphne, artifacts, make_user, monkeypatch, screen
):
    """Issue 25 point 10."""
    from games import services

    alice = make_user("alice")
    match = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=2, practice=True)
    services.match_start(match_id=match.pk, user=alice)
    me = seat_of(match, alice)
    for _ in range(200):  # the live server's clock plays the bots up to Alice's turn
        if Match.objects.get(pk=match.pk).state["round"]["seat_to_act"] == me:
            break
        page_wait(0.05)
    hands = dict(HANDS)
    hands[me], hands[1] = HANDS[1], HANDS[me]  # the hint's player holds 4♠ 5♠ 6♠
    place(match, to_act=me, table=["2S.0 2H.0 2D.0", "KS.0 KH.0 KD.0", "8H.1 9H.1 TH.1"], hands=hands)
    context, page = open_table(browser, live_daphne, alice, screen, match.pk)
    page.locator('[data-action="hint"]').click()
    panel = page.locator("#hint-box .hint-panel")
    expect(panel).to_be_visible(timeout=20000)
    page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts / f"roomy-{screen}-8-hint.png"))
    named = panel.get_attribute("data-hint-cards").split()
    assert named, "the hint names no card"
    for card_id in named:
        card = page.locator(f'#hand .card[data-id="{card_id}"], #melds .card[data-id="{card_id}"]').first
        expect(card).to_have_class(re.compile(r"\bhint-named\b"))
        assert card.locator(".card-face").evaluate("el => getComputedStyle(el).outlineStyle") == "solid"
    seats = page.locator("#seats").bounding_box()
    box = panel.bounding_box()
    assert box["y"] >= seats["y"] + seats["height"] - 0.5, (box, seats)
    assert page.evaluate(PROBLEMS, {"hand": "#hand", "buttons": "#actions button"})["problems"] == []
    panel.get_by_role("button", name="Close the hint").click()
    expect(page.locator("#hint-box .hint-panel")).to_have_count(0)
    context.close()


# The cards and buttons the "Your turn" banner lies over (their boxes meet the banner's), by id or text.
UNDER_BANNER = """() => {
  const b = document.getElementById("turn-banner").getBoundingClientRect();
  const meets = r => r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top;
  return [...document.querySelectorAll("#melds .card, #hand .card, .seat, .table-main a, .table-main button")]
    .filter(el => meets(el.getBoundingClientRect())).map(el => el.dataset.id || el.id || el.textContent.trim());
}"""


@pytest.mark.parametrize("lang", ["en", "fa"])
@pytest.mark.parametrize("screen", ["laptop", "phone"])
def test_the_your_turn_banner_covers_no_card_and_no_button(browser, live_daphne, artifacts, make_user, screen, lang):
    """The banner says "Your turn" for four seconds: the moment the player looks at the melds to plan
    their move.  With eight melds on the table (three rows of them on a phone) it lies over none of
    them, nor over the hand, a button or link of the table or the seats, left to right and right to left."""
    match, players = three_players(make_user)
    place(match, to_act=2, table=TWENTY[:8])
    context, page = open_table(browser, live_daphne, players[0], screen, match.pk, lang)
    settled(page)
    # The seat before this player's ends its turn, in its own browser (through the server).
    mover_context, mover_page = open_table(browser, live_daphne, players[2], "laptop", match.pk)
    settled(mover_page)
    play_until_the_turn_passes(mover_page)
    mover_context.close()
    banner = page.locator("#turn-banner")
    expect(banner).to_be_visible()
    if lang == "en":
        expect(banner).to_have_text("Your turn")
    page.screenshot(path=str(artifacts / f"roomy-{screen}-7-your-turn-{lang}.png"))
    assert page.evaluate(UNDER_BANNER) == []
    context.close()
