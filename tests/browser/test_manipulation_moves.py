"""Manipulation moves in Chromium (issue 15, points 1 and 2).

1. A table joker is reclaimed: the natural Q♥ takes its place, the freed joker goes into another
   meld and is declared again there (RULES B.3.3, B.3.4): a choice when more than one card fits, no
   question when one does; by drag and by keyboard.
2. A table card dropped on the hand snaps back to its meld with the reason (RULES B.5.2 M2), by drag
   and by keyboard; a draft that drops a table card anyway is refused by the server and the page
   shows the table again.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from games.engine import manipulation as manip
from games.models import Match
from tests.browser.conftest import drag as conftest_drag
from tests.browser.conftest import login, wait_live
from tests.games.services.positions import set_position

pytestmark = pytest.mark.django_db(transaction=True)

MUST_STAY = "must stay on the table"


def table_at(make_user, hand: str, table: list[str]):
    """A started two-player table in a known position; the name of the player to act."""
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    state = manip.from_dict(Match.objects.get(pk=match.pk).state["round"])
    match = set_position(match, hand, table)
    return match, ["alice", "bob"][state.seat_to_act]


def open_table(browser, live_daphne, match, name):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    login(page, live_daphne.url, name)
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    expect(page.locator(".seat .conn-on")).to_have_count(1)
    expect(page.locator("#melds .meld-new-box")).to_have_count(1)
    page.wait_for_timeout(200)
    return context, page


def drag(page, source, target) -> None:
    """These drops decide where a card lands: the pointer rests on the target first."""
    conftest_drag(page, source, target, rest=True)


def settled(page):
    page.wait_for_function("() => !document.querySelector('#table-board[aria-busy=true]')")
    page.wait_for_timeout(200)


def card(page, where: str, card_id: str):
    return page.locator(f'{where} .card[data-id="{card_id}"]')


def meld(page, index):
    return page.locator(f'#melds .meld[data-meld="{index}"]')


def box(page, index):
    return page.locator(f'#melds .meld-box[data-target-meld="{index}"]')


def table_in_db(match):
    return Match.objects.get(pk=match.pk).state["round"]["table"]


def expect_melded(page, match, joker_ref):
    page.locator('button[data-action="meld"]').click()
    expect(page.locator(".log-list")).to_contain_text(" laid ")
    assert any(joker_ref in m for m in table_in_db(match))


def test_a_reclaimed_joker_is_declared_again_by_drag(browser, live_daphne, make_user, artifacts):
    match, name = table_at(make_user, "QH.0 3C.0 3D.0 KS.0 9D.0", ["TH.0 JH.0 JK=QH.0", "5S.0 6S.0 7S.0"])
    context, page = open_table(browser, live_daphne, match, name)
    # Q♥ onto the run where the joker stands for Q♥: the joker is freed (it may be 9♥ or K♥ there)
    drag(page, card(page, "#hand", "QH.0"), meld(page, 0))
    expect(card(page, "#melds", "QH.0")).to_have_count(1)
    expect(box(page, 0).locator("[data-joker-option]")).to_have_count(2)
    # 3♣ 3♦ as a new meld, then the freed joker onto it
    drag(page, card(page, "#hand", "3C.0"), meld(page, "new"))
    expect(meld(page, 2).locator(".card")).to_have_count(1)
    drag(page, card(page, "#hand", "3D.0"), meld(page, 2))
    expect(meld(page, 2).locator(".card")).to_have_count(2)
    drag(page, card(page, "#melds", "JK.0"), meld(page, 2))
    expect(meld(page, 2).locator(".card")).to_have_count(3)
    choice = box(page, 2).locator("[data-joker-option]")
    expect(choice).to_have_count(2)
    expect(box(page, 2)).not_to_contain_text("does not fit")
    page.screenshot(path=str(artifacts / "manipulation-reclaim-1-choice.png"))
    box(page, 2).locator('[data-joker-option="3H"]').click()
    expect(card(page, "#melds", "JK.0")).to_have_attribute("data-ref", "JK=3H.0")
    expect(page.locator("#melds .meld-invalid")).to_have_count(0)
    expect_melded(page, match, "JK=3H.0")
    context.close()


def test_a_reclaimed_joker_whose_card_is_forced_is_declared_without_asking(browser, live_daphne, make_user):
    match, name = table_at(make_user, "QH.0 KS.0 9D.0 2C.0", ["TH.0 JH.0 JK=QH.0", "3C.0 3D.0 3S.0"])
    context, page = open_table(browser, live_daphne, match, name)
    drag(page, card(page, "#hand", "QH.0"), meld(page, 0))
    expect(card(page, "#melds", "QH.0")).to_have_count(1)
    drag(page, card(page, "#melds", "JK.0"), meld(page, 1))
    expect(card(page, "#melds", "JK.0")).to_have_attribute("data-ref", "JK=3H.0")
    expect(page.locator("#melds [data-joker-option]")).to_have_count(0)
    expect(page.locator("#melds .meld-invalid")).to_have_count(0)
    expect_melded(page, match, "JK=3H.0")
    context.close()


def test_a_reclaimed_joker_is_declared_again_by_keyboard(browser, live_daphne, make_user, artifacts):
    match, name = table_at(make_user, "QH.0 3C.0 3D.0 KS.0 9D.0", ["TH.0 JH.0 JK=QH.0", "5S.0 6S.0 7S.0"])
    context, page = open_table(browser, live_daphne, match, name)
    card(page, "#hand", "QH.0").locator(".card-face").press("Space")
    box(page, 0).press("Enter")
    expect(card(page, "#melds", "QH.0")).to_have_count(1)
    settled(page)  # the draft's answer is in (as a player sees the busy bar end) before the next move
    card(page, "#hand", "3C.0").locator(".card-face").press("Enter")
    card(page, "#hand", "3D.0").locator(".card-face").press("Space")
    box(page, "new").press("Enter")
    expect(meld(page, 2).locator(".card")).to_have_count(2)
    settled(page)
    joker = card(page, "#melds", "JK.0").locator(".card-face")
    joker.press("Space")
    expect(joker).to_have_attribute("aria-pressed", "true")
    box(page, 2).press("Enter")
    expect(meld(page, 2).locator(".card")).to_have_count(3)
    option = box(page, 2).locator('[data-joker-option="3S"]')
    expect(option).to_be_visible()
    option.press("Enter")
    expect(card(page, "#melds", "JK.0")).to_have_attribute("data-ref", "JK=3S.0")
    expect(page.locator("#melds .meld-invalid")).to_have_count(0)
    # The page sets the joker's ref as the key is pressed; the Meld button is enabled by the draft's
    # answer (the board then says the meld is valid): pressed before that, it does nothing.
    settled(page)
    meld_button = page.locator('button[data-action="meld"]')
    expect(meld_button).to_be_enabled()
    page.screenshot(path=str(artifacts / "manipulation-reclaim-2-keyboard.png"))
    meld_button.press("Enter")
    expect(page.locator(".log-list")).to_contain_text(" laid ")
    assert any("JK=3S.0" in m for m in table_in_db(match))
    context.close()


def test_a_table_card_dropped_on_the_hand_snaps_back_with_the_reason(browser, live_daphne, make_user, artifacts):
    match, name = table_at(make_user, "QH.0 3C.0 3D.0 KS.0", ["TH.0 JH.0 JK=QH.0", "5S.0 6S.0 7S.0 8S.0"])
    context, page = open_table(browser, live_daphne, match, name)
    drag(page, card(page, "#melds", "8S.0"), page.locator("#hand"))
    expect(page.locator("#melds-drop-reason")).to_contain_text(MUST_STAY)
    expect(page.locator("#melds-drop-reason")).to_contain_text("8♠")
    # The cards as the server writes them, isolated for a right-to-left sentence (FSI…PDI around them).
    assert "\u2068" in page.locator("#melds-drop-reason").text_content()
    expect(card(page, "#hand", "8S.0")).to_have_count(0)
    expect(meld(page, 1).locator('.card[data-id="8S.0"]')).to_have_count(1)
    page.screenshot(path=str(artifacts / "manipulation-snap-back.png"))
    page.reload()
    expect(meld(page, 1).locator('.card[data-id="8S.0"]')).to_have_count(1)
    expect(card(page, "#hand", "8S.0")).to_have_count(0)

    # A hand card laid in this step may go back to the hand.
    drag(page, card(page, "#hand", "KS.0"), meld(page, 1))
    expect(card(page, "#melds", "KS.0")).to_have_count(1)
    drag(page, card(page, "#melds", "KS.0"), page.locator("#hand"))
    expect(card(page, "#hand", "KS.0")).to_have_count(1)
    expect(page.locator("#melds-drop-reason")).to_be_hidden()

    # By keyboard: "Selected back to hand" leaves a table card where it is, with the reason.
    drag(page, card(page, "#hand", "3C.0"), meld(page, "new"))
    expect(card(page, "#melds", "3C.0")).to_have_count(1)
    card(page, "#melds", "8S.0").locator(".card-face").press("Space")
    card(page, "#melds", "3C.0").locator(".card-face").press("Space")
    page.locator('.kb-target[data-target-meld="hand"]').press("Enter")
    expect(card(page, "#hand", "3C.0")).to_have_count(1)  # the hand card went back
    expect(page.locator("#melds-drop-reason")).to_contain_text(MUST_STAY)
    expect(meld(page, 1).locator('.card[data-id="8S.0"]')).to_have_count(1)
    expect(card(page, "#hand", "8S.0")).to_have_count(0)
    context.close()


def test_a_draft_dropping_a_table_card_is_refused_and_the_table_shown_again(browser, live_daphne, make_user):
    match, name = table_at(make_user, "QH.0 3C.0 3D.0 KS.0", ["TH.0 JH.0 JK=QH.0", "5S.0 6S.0 7S.0 8S.0"])
    context, page = open_table(browser, live_daphne, match, name)
    drag(page, card(page, "#hand", "KS.0"), meld(page, "new"))
    expect(card(page, "#melds", "KS.0")).to_have_count(1)
    settled(page)
    version = Match.objects.get(pk=match.pk).version
    # A page that puts 8♠ in the hand anyway (an old page, a forged request): the server refuses it.
    page.evaluate("""() => {
        document.getElementById("hand").appendChild(document.querySelector('#melds .card[data-id="8S.0"]'));
        RummyCards.sendDraft([["TH.0", "JH.0", "JK=QH.0"], ["5S.0", "6S.0", "7S.0"], ["KS.0"]]);
    }""")
    expect(page.locator("#table-board .board-error")).to_contain_text(MUST_STAY)
    expect(meld(page, 1).locator('.card[data-id="8S.0"]')).to_have_count(1)  # shown where it is
    expect(card(page, "#hand", "8S.0")).to_have_count(0)
    expect(page.locator("#table-board .board-error")).to_contain_text(MUST_STAY)
    stored = Match.objects.get(pk=match.pk)
    assert stored.version == version
    assert ["5S.0", "6S.0", "7S.0", "8S.0"] in stored.draft["table"]
    context.close()


def test_a_card_moved_between_melds_slides_to_its_new_place_for_the_others(browser, live_daphne, make_user):
    """Issue 15: what another player rearranges is shown moving (a short slide from where the card
    was), not only highlighted; never with reduced motion."""
    match, name = table_at(make_user, "9S.0 KD.0 2C.0 4H.0", ["5S.0 6S.0 7S.0 8S.0", "TH.0 JH.0 QH.0"])
    make_user("carol"), make_user("dave")
    context, page = open_table(browser, live_daphne, match, name)
    watchers = []
    for who, motion in (("carol", "no-preference"), ("dave", "reduce")):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion=motion)
        watcher = ctx.new_page()
        login(watcher, live_daphne.url, who)
        watcher.goto(f"{live_daphne.url}/tables/{match.pk}/")
        watcher.wait_for_function("() => window.htmx && document.querySelector('#melds .card')")
        wait_live(watcher)  # the move must come as a frame after this (a socket opening late sends the board)
        # Which cards are moving right after each frame is put in.
        watcher.evaluate("""() => { window.slid = [];
            document.addEventListener('htmx:wsAfterMessage', () => document.querySelectorAll('#melds .card[data-id]')
              .forEach(c => { if (c.getAnimations().some(a => a.playState === 'running')) window.slid.push(c.dataset.id); })); }""")
        watchers.append((ctx, watcher))
    drag(page, card(page, "#melds", "8S.0"), box(page, "new"))
    for _ctx, watcher in watchers:
        # The third meld (a new one): ``:last-of-type`` also matched the first one before the frame came,
        # and the slide was then looked for too early.
        expect(watcher.locator('#melds .meld[data-meld="2"] .card[data-id="8S.0"]')).to_have_count(1)
    carol, dave = watchers[0][1], watchers[1][1]
    assert "8S.0" in carol.evaluate("() => window.slid")
    assert "5S.0" not in carol.evaluate("() => window.slid")  # what did not move stays still
    assert dave.evaluate("() => window.slid") == []
    for ctx, _watcher in watchers:
        ctx.close()
    context.close()
