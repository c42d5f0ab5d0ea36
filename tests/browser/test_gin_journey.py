"""Three-player Gin in the browser (RULES C): a human captain plays a whole hand against two bots, drawing
and discarding by drag and by click, and knocks or sees the hand end; lays out a knock in the layout
editor (a drag, then a keyboard move) and confirms it; and an advisor's suggestion reaches the captain
(two browser contexts).  Screenshots go to artifacts/."""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games import commands, services
from games.engine import bots as engine_bots
from games.engine import gin
from games.engine.gin import GinMatch
from games.models import Match, MatchStatus
from games.variants import spec_for
from tests.browser.conftest import ARTIFACTS
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def seed_for(captain: int, advisor: int | None = None) -> int:
    """A match seed whose role draw (C.2.1) puts the captain (and advisor) in the given seats."""
    for seed in range(1, 1000):
        t = GinMatch.start(gin.GinRules(variant="box3"), random.Random(seed))
        if t.captain == captain and (advisor is None or t.advisor == advisor):
            return seed
    raise AssertionError("no seed found")


def signed_in(browser, live_daphne, user):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.add_cookies([{"name": "sessionid", "value": session_cookie_for(user), "url": live_daphne.url}])
    return context, context.new_page()


def board_version(page) -> int:
    return int(page.locator("#table-board").get_attribute("data-version"))


def wait_past(page, version: int) -> None:
    """Wait for a board newer than ``version``; if none comes, keep a picture and say what the page shows."""
    try:
        page.wait_for_function(
            "v => { const b = document.getElementById('table-board'); return b && +b.dataset.version > v; }",
            arg=version,
            timeout=15000,
        )
    except PlaywrightTimeout:
        page.screenshot(path=str(ARTIFACTS / f"gin-stalled-after-version-{version}.png"), full_page=True)
        shown = page.evaluate("""() => [document.getElementById('table-board')?.dataset.version,
            document.getElementById('socket-error')?.textContent,
            document.querySelector('#table-board .board-error')?.textContent]""")
        raise AssertionError(
            f"no board after version {version}; the page shows (version, socket error, board error) {shown}"
        ) from None


def wait_played(page, match_id: int, seq: int) -> None:
    """Wait until the move just made is logged (the match's log past ``seq``) and the page shows its version.

    A newer board alone does not say the move landed: a version that only moved the deadline (the page's
    socket opening) can come first, and the move made on the version before it is still played after it.
    """
    for _ in range(300):
        match = Match.objects.get(pk=match_id)
        if match.event_seq > seq:
            page.wait_for_function(
                "v => +document.getElementById('table-board').dataset.version >= v", arg=match.version, timeout=15000
            )
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the move made after event {seq} was not logged in 15 s")


def drag(page, source, target) -> None:
    """A pointer drag in small steps (SortableJS runs in fallback mode)."""
    a, b = source.bounding_box(), target.bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    for i in range(1, 16):
        page.mouse.move(
            a["x"] + (b["x"] - a["x"]) * i / 15 + a["width"] / 2, a["y"] + (b["y"] - a["y"]) * i / 15 + a["height"] / 2
        )
        page.wait_for_timeout(15)
    page.mouse.up()


def open_knock_editor(page, card: str) -> None:
    """Open the knock layout editor on ``card``: its button, or, when the choices are many, chosen in
    their list and opened with the list's one button."""
    if page.locator("#gin-knock-select").count():
        page.locator("#gin-knock-select").select_option(json.dumps({"card": card}))
        page.locator("#gin-board [data-knock-open]").click()
    else:
        page.locator(f'[data-knock-card="{card}"]').click()


def current(match_id: int):
    match = Match.objects.get(pk=match_id)
    state = spec_for(match.variant).load(match.state["round"]) if match.state.get("round") else None
    return match, state


def test_captain_plays_a_whole_hand_against_two_bots(browser, live_daphne, artifacts, make_user):
    alice = make_user("alice")
    context, page = signed_in(browser, live_daphne, alice)

    # The lobby: choose three-player Gin; the form shows that variant's defaults (RULES E.2).
    page.goto(live_daphne.url + "/play/")
    page.locator("details.new-table > summary").click()
    page.get_by_label("Game", exact=True).select_option("gin_box")
    page.locator('details[data-family="gin"] > summary').click()
    expect(page.locator('[name="gin_game_target"]')).to_have_value("100")
    expect(page.locator('[name="gin_end_bonuses"]')).to_have_value("off")
    expect(page.locator('[data-field="gin_advisor_can_advise"]')).to_be_visible()
    expect(page.locator('[data-field="gin_dealer_2p"]')).to_be_hidden()
    expect(page.locator('[data-field="opt_jokers"]')).to_be_hidden()
    page.get_by_label("Game", exact=True).select_option("oklahoma")
    expect(page.locator('[name="gin_game_target"]')).to_have_value("150")
    expect(page.locator('[name="gin_end_bonuses"]')).to_have_value("on")
    page.screenshot(path=str(artifacts / "gin-lobby-oklahoma-defaults.png"), full_page=True)
    page.get_by_label("Game", exact=True).select_option("gin_box")
    page.get_by_label("Fill with bots").select_option("2")
    page.get_by_role("button", name="Create the table").click()
    expect(page.locator("#board-title")).to_contain_text("Three-player Gin")
    match_id = int(page.url.rstrip("/").split("/")[-1])
    Match.objects.filter(pk=match_id).update(seed=seed_for(captain=0))
    page.get_by_role("button", name="Start the game").click()

    # The role draw and the roles on every seat.
    expect(page.locator(".gin-role-draw")).to_contain_text("Drawing for roles")
    expect(page.locator("#seat-0")).to_contain_text("Captain")
    expect(page.locator("#seats")).to_contain_text("Box")
    expect(page.locator("#seats")).to_contain_text("Advisor")
    expect(page.locator("#gin-prompt")).to_have_text("Take the upcard or pass.")
    page.wait_for_timeout(1500)  # let the role-draw animation finish for the picture
    page.screenshot(path=str(artifacts / "gin-1-role-draw.png"), full_page=True)

    dragged_draw = dragged_discard = knocked = False
    shots = 0
    for _ in range(200):
        match, state = current(match_id)
        if match.status != MatchStatus.PLAYING:
            break
        if state.seat_to_act != 0:
            page.wait_for_timeout(100)
            continue
        version = match.version
        page.wait_for_function("v => +document.getElementById('table-board').dataset.version >= v", arg=version)
        action = engine_bots.choose_action(state, 0, policy="basic")
        kind = action["type"]
        if kind == "draw_stock" and not dragged_draw:
            drag(page, page.locator("#gin-stock .card"), page.locator("#gin-hand"))
            dragged_draw = True
        elif kind == "discard" and not dragged_discard:
            expect(page.locator("#gin-deadwood")).to_contain_text("Deadwood")
            if shots == 0:
                page.screenshot(path=str(artifacts / "gin-2-captain-discard.png"), full_page=True)
                shots += 1
            drag(page, page.locator(f'#gin-hand .card[data-id="{action["card"]}"]'), page.locator("#gin-discard"))
            dragged_discard = True
        elif kind == "discard":
            page.locator(f'#gin-hand .card[data-id="{action["card"]}"] .card-face').click()
            page.locator('#gin-discard-form [data-action="discard"]').click()
        elif kind == "knock":
            open_knock_editor(page, action["card"])
            expect(page.locator("#gin-knock-editor")).to_contain_text("This is the proposed layout")
            page.screenshot(path=str(artifacts / "gin-3-knock-layout.png"), full_page=True)
            page.locator('#gin-knock-confirm [data-action="knock"]').click()
            knocked = True
        elif kind == "draw_discard":
            page.locator("#gin-discard .card-face").click()  # a click on the pile takes its top card
        else:
            page.locator(f'#gin-board [data-action="{kind}"]').first.click()
        wait_played(page, match_id, match.event_seq)
    else:
        raise AssertionError("the hand did not end")

    assert dragged_draw and dragged_discard
    expect(page.locator(".gin-result")).to_be_visible(timeout=15000)
    expect(page.locator(".gin-rotation")).to_contain_text("Roles:")
    match, state = current(match_id)
    if state.result.kind != "dead":
        expect(page.locator(".gin-result")).to_contain_text("after lay-offs")
    assert knocked or state.result.knocker != 0
    page.screenshot(path=str(artifacts / "gin-4-hand-result.png"), full_page=True)
    context.close()


def test_advisor_suggests_and_the_captain_sees_it(browser, live_daphne, artifacts, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    ctx_a, captain = signed_in(browser, live_daphne, alice)
    ctx_b, advisor = signed_in(browser, live_daphne, bob)
    captain.goto(live_daphne.url + "/play/")
    captain.locator("details.new-table > summary").click()
    captain.get_by_label("Game", exact=True).select_option("gin_box")
    captain.get_by_label("Fill with bots").select_option("0")
    captain.get_by_role("button", name="Create the table").click()
    expect(captain.locator("#board-title")).to_contain_text("Three-player Gin")
    table_url = captain.url
    match_id = int(table_url.rstrip("/").split("/")[-1])
    advisor.goto(table_url)
    advisor.locator('.seat[data-seat="1"]').get_by_role("button", name="Sit here").click()
    expect(captain.locator('.seat[data-seat="1"]')).to_contain_text("bob")
    captain.locator('.seat[data-seat="2"]').get_by_role("button", name="Add a bot").click()
    Match.objects.filter(pk=match_id).update(seed=seed_for(captain=0, advisor=1))
    captain.get_by_role("button", name="Start the game").click()

    expect(advisor.locator("#seat-1")).to_contain_text("Advisor")
    expect(advisor.locator("#gin-captain-hand .card")).to_have_count(10)
    _, state = current(match_id)
    card = gin.IDS[state.hands[0][3]]
    advisor.locator(f'#gin-captain-hand .card[data-id="{card}"] .card-face').click()  # click = suggest discarding
    expect(advisor.locator(".gin-suggestion-latest")).to_contain_text("You suggested: discard")
    advisor.screenshot(path=str(artifacts / "gin-advisor-suggests.png"), full_page=True)

    expect(captain.locator(".gin-suggestion-latest")).to_contain_text("(advisor) suggests: discard")
    expect(captain.locator(f'#gin-hand .card.gin-suggested[data-id="{card}"]')).to_have_count(1)
    # A suggested move is highlighted on its button (here: take the upcard).
    advisor.get_by_role("button", name="Suggest: take the upcard").click()
    expect(captain.locator('[data-action="take_upcard"].gin-suggested-action')).to_have_count(1)
    expect(captain.locator(".gin-suggestion-latest")).to_contain_text("suggests: take the upcard")
    captain.screenshot(path=str(artifacts / "gin-captain-sees-suggestion.png"), full_page=True)
    # The captain decides: the upcard protocol goes on as the captain chooses.
    captain.get_by_role("button", name="Pass").click()
    expect(captain.locator("#gin-prompt")).not_to_have_text("Take the upcard or pass.")
    ctx_a.close()
    ctx_b.close()


class Pace:
    """The table socket refuses commands beyond ``commands.COMMAND_RATE`` a second once its burst is spent
    ("Too many moves at once"): this test's player, quicker than any person, keeps under that
    rate as a person would, instead of losing a move to the limit."""

    def __init__(self):
        self.last = 0.0

    def __call__(self, page) -> None:
        gap = 1.05 / commands.COMMAND_RATE - (time.monotonic() - self.last)
        if gap > 0:
            page.wait_for_timeout(gap * 1000)
        self.last = time.monotonic()


def click_move(page, action, pace: Pace) -> None:
    """Make the engine bot's choice for the human through the board's controls (clicks only)."""
    kind = action["type"]
    if kind in ("discard", "knock"):
        page.locator(f'#gin-hand .card[data-id="{action["card"]}"] .card-face').click()  # no command yet
        pace(page)
        if kind == "discard":
            page.locator('#gin-discard-form [data-action="discard"]').click()
        else:  # open the layout editor on that card, then confirm its proposed layout
            open_knock_editor(page, action["card"])
            pace(page)
            page.locator('#gin-knock-confirm [data-action="knock"]').click()
    else:
        pace(page)
        page.locator(f'#gin-board [data-action="{kind}"]').first.click()


def play_on_the_server(match_id: int, user, until, timeout: float = 120) -> None:
    """Seat 0's moves (the engine bot's choices) through ``services`` as its socket would make them, the other
    seat's by the live server's clock, until ``until(tally)`` holds between two hands (or the match ends)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        match, state = current(match_id)
        if match.status == MatchStatus.FINISHED or (
            match.status == MatchStatus.BETWEEN_ROUNDS and until(GinMatch.from_dict(match.state["tally"]))
        ):
            return
        try:
            if match.status == MatchStatus.BETWEEN_ROUNDS:
                if not match.seats.get(index=0).ready:
                    services.round_ready(match_id=match_id, user=user)
                    continue
            elif state is not None and state.seat_to_act == 0:
                action = engine_bots.choose_action(state, 0, policy="basic")
                services.turn_submit(match_id=match_id, user=user, action=action, expected_version=match.version)
                continue
        except (services.StaleVersion, services.TableBusy):
            continue  # the clock moved the table meanwhile: look again
        time.sleep(0.02)
    raise AssertionError(f"the server-side hands did not reach the end in {timeout} s")


@pytest.mark.parametrize(
    ("variant", "option", "value"),
    [("oklahoma", "gin_game_target", "10"), ("hollywood", "gin_hollywood_target", "100")],
)
def test_two_player_game_to_the_end_and_rematch(browser, live_daphne, artifacts, make_user, variant, option, value):
    alice = make_user("alice")
    context, page = signed_in(browser, live_daphne, alice)
    page.goto(live_daphne.url + "/play/")
    page.locator("details.new-table > summary").click()
    page.get_by_label("Game", exact=True).select_option(variant)
    page.locator('details[data-family="gin"] > summary').click()
    page.locator(f'[name="{option}"]').select_option(value) if option == "gin_hollywood_target" else page.locator(
        f'[name="{option}"]'
    ).fill(value)
    page.get_by_label("Fill with bots").select_option("1")
    page.get_by_role("button", name="Create the table").click()
    match_id = int(page.url.rstrip("/").split("/")[-1])
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#gin-board")).to_be_visible()
    if variant == "oklahoma":
        expect(page.locator(".gin-oklahoma")).to_contain_text("First upcard")
    if variant == "hollywood":
        # The hands until a game is within a hand's reach of its end are played on the server (this seat's
        # moves through the services, the bot's by the server's clock; ~12 s where the page took minutes): the
        # page then plays the hands that close the three games.
        play_on_the_server(match_id, alice, until=lambda t: any(max(g.scores) >= 75 for g in t.hollywood))
        assert current(match_id)[0].status == MatchStatus.BETWEEN_ROUNDS, "the page is to play the closing hands"
        page.reload()
    pace = Pace()
    for _ in range(3000):
        match, state = current(match_id)
        if match.status == MatchStatus.FINISHED:
            break
        if match.status == MatchStatus.BETWEEN_ROUNDS:
            ready = page.locator('#results [data-results-do="ready"]')  # the result dialog's
            if ready.is_visible():  # hidden once this seat is ready
                version = board_version(page)
                ready.click()
                wait_past(page, version)
            else:
                page.wait_for_timeout(100)
            continue
        if state is None or state.seat_to_act != 0:  # None: seen once in CI, a playing match with no round (noted)
            page.wait_for_timeout(50)
            continue
        page.wait_for_function("v => +document.getElementById('table-board').dataset.version >= v", arg=match.version)
        click_move(page, engine_bots.choose_action(state, 0, policy="basic"), pace)
        wait_played(page, match_id, match.event_seq)
    else:
        raise AssertionError("the game did not end")
    expect(page.locator(".gin-bonuses")).to_contain_text("End of the game")
    expect(page.locator(".match-end")).to_contain_text("Final totals")
    if variant == "hollywood":
        expect(page.locator(".gin-game")).to_have_count(3)
    page.screenshot(path=str(artifacts / f"gin-{variant}-game-end.png"), full_page=True)
    page.get_by_role("dialog").get_by_role("button", name="Rematch", exact=True).click()
    expect(page).not_to_have_url(re.compile(rf"/tables/{match_id}/$"))
    expect(page.locator("#board-title")).to_contain_text(str(match.get_variant_display()))
    context.close()


def test_captain_edits_the_knock_layout_by_drag_and_keyboard_and_confirms(browser, live_daphne, artifacts, make_user):
    """RULES C.6.2: the knocker's best layout is proposed and can be changed before confirming; every
    change is checked by the server (a group that is no meld is shown with the reason)."""
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    Match.objects.filter(pk=match.pk).update(seed=seed_for(captain=0))
    services.match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    state = spec_for(match.variant).load(match.state["round"])
    hands = [[], [], []]
    hands[0] = "5H 6H 7H 8H 5S 5D AS 2S 3S KD".split()
    hands[state.box] = "2H 3H 4C 5C 9D TD JS QS QH QD".split()
    dealt = gin.deal_from_cards(state.rules, hands, "KC", roles=(state.box, 0, state.advisor))
    match.state = {**match.state, "round": gin.to_dict(dealt)}
    match.save(update_fields=["state"])

    context, page = signed_in(browser, live_daphne, alice)
    page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    version = board_version(page)
    page.locator('#gin-board [data-action="take_upcard"]').click()
    wait_past(page, version)
    open_knock_editor(page, "KD.0")
    editor = page.locator("#gin-knock-editor")
    expect(editor).to_contain_text("Deadwood: 10 (knock limit 10)")
    expect(editor.locator("#gin-layout-status")).to_have_attribute("data-layout-ok", "true")
    page.screenshot(path=str(artifacts / "gin-knock-editor-1-proposed.png"), full_page=True)

    # Drag 5♥ from the set of fives onto the run: the run grows, the two fives left are no meld.
    run = editor.locator('.gin-layout-group[data-group="meld"]', has=page.locator('[data-id="6H.0"]'))
    run.scroll_into_view_if_needed()
    drag(page, editor.locator('.card[data-id="5H.0"]'), run)
    expect(editor).to_contain_text("Not a meld: a meld needs at least three cards.")
    expect(editor).to_contain_text("Deadwood: 20 (knock limit 10)")
    expect(editor.locator('[data-action="knock"]')).to_be_disabled()
    expect(editor.locator(".meld-invalid")).to_have_count(1)
    page.screenshot(path=str(artifacts / "gin-knock-editor-2-invalid-meld.png"), full_page=True)

    # With the keyboard: select 5♥, then "Move here" on the two fives.
    editor.locator('.card[data-id="5H.0"] .card-face').press("Enter")
    expect(editor.locator('.card[data-id="5H.0"] .card-face')).to_have_attribute("aria-pressed", "true")
    editor.locator(".meld-invalid [data-move-here]").press("Enter")
    expect(editor.locator(".meld-invalid")).to_have_count(0)
    expect(editor).to_contain_text("Deadwood: 10 (knock limit 10)")
    expect(editor.locator('.card[data-id="5H.0"] .card-face')).to_be_focused()
    expect(editor.locator('[data-action="knock"]')).to_be_enabled()
    page.screenshot(path=str(artifacts / "gin-knock-editor-3-fixed.png"), full_page=True)

    # The layout is kept on the server: a reload (here in Persian, right to left) shows it as edited.
    rtl, rtl_page = signed_in(browser, live_daphne, alice)
    rtl.add_cookies([{"name": "django_language", "value": "fa", "url": live_daphne.url}])
    rtl_page.goto(f"{live_daphne.url}/tables/{match.pk}/")
    expect(rtl_page.locator("html")).to_have_attribute("dir", "rtl")
    fives = rtl_page.locator('#gin-knock-editor .gin-layout-group:has([data-id="5S.0"])')
    expect(fives.locator('[data-id="5H.0"]')).to_have_count(1)
    expect(rtl_page.locator("#gin-knock-editor .meld-invalid")).to_have_count(0)
    rtl_page.screenshot(path=str(artifacts / "gin-knock-editor-3-rtl-reload.png"), full_page=True)
    rtl.close()

    version = board_version(page)
    editor.locator('[data-action="knock"]').click()
    wait_past(page, version)
    expect(page.locator(".gin-result")).to_contain_text("knocked with 10")
    expect(page.locator(".gin-result")).to_contain_text("after lay-offs")
    page.screenshot(path=str(artifacts / "gin-knock-editor-4-result.png"), full_page=True)
    match.refresh_from_db()
    result = spec_for(match.variant).load(match.state["round"]).result
    assert result.knocker == 0 and result.settlement.knocker_deadwood == 10
    assert sorted(
        result.settlement.knocker_melds[0] + result.settlement.knocker_melds[1] + result.settlement.knocker_melds[2]
    ) == sorted(["5H.0", "6H.0", "7H.0", "8H.0", "5S.0", "5D.0", "AS.0", "2S.0", "3S.0"])
    context.close()
