"""Fair play in Chromium against a live daphne: a player reports a chat line from the table, a staff
user mutes the reported player from the admin's report queue, and that player sees the mute."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from fairplay import services as fairplay_services
from fairplay.models import AuditAction, AuditEntry, Report, ReportStatus
from games import services
from games.models import ChatMessage
from plumbing import realtime
from tests.browser.conftest import login, wait_live
from tests.fairplay.support import clear_rate_limits

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_reported_chat_line_muted_from_the_admin_is_seen_by_its_author(
    browser, live_daphne, make_user, monkeypatch, artifacts
):
    # Set up at service level; nobody listens to these broadcasts (the sync Playwright loop forbids them).
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    clear_rate_limits()  # the live server counts reports in the same cache (on Redis, across runs)
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    make_user("moderator", is_staff=True, is_superuser=True)
    table = services.match_create(host=carol, variant="manipulation", seats_count=3)
    services.seat_join(match_id=table.pk, user=alice)
    services.seat_join(match_id=table.pk, user=bob)
    services.chat_post(match_id=table.pk, user=carol, text="good luck all")
    line = services.chat_post(match_id=table.pk, user=bob, text="you all play like fools")
    base = live_daphne.url

    # Alice reports bob's line from the table.
    alice_context = browser.new_context(viewport={"width": 390, "height": 844})
    page = alice_context.new_page()
    login(page, base, "alice")
    page.goto(f"{base}/tables/{table.pk}/")
    page.locator("[data-toggle='show-chat']").click()  # a phone shows the chat on demand
    page.locator(f"[data-report-line='{line.pk}']").click()
    expect(page.locator(".reported-line blockquote")).to_have_text("you all play like fools")
    page.get_by_label("Abusive or hateful chat").check()
    page.get_by_label("What happened (optional)").fill("Insults at the table.")
    page.screenshot(path=str(artifacts / "fair-play-report.png"), full_page=True)
    page.get_by_role("button", name="Send the report").click()
    expect(page.locator("[data-report-status='open']")).to_be_visible()
    alice_context.close()
    report = Report.objects.get()
    assert report.reported == bob and report.chat_message_id == line.pk

    # A moderator works the queue: the evidence, then a 24-hour chat mute.
    staff_context = browser.new_context()
    staff = staff_context.new_page()
    login(staff, base, "moderator")
    staff.goto(f"{base}/admin/fairplay/report/")
    staff.get_by_role("link", name=str(report.pk), exact=True).click()
    expect(staff.locator(".evidence")).to_contain_text("you all play like fools")
    expect(staff.locator(".evidence")).to_contain_text("good luck all")
    staff.get_by_label("Mute the chat").check()
    staff.get_by_label("For how many hours (a mute or a bar; empty: until lifted)").fill("24")
    staff.get_by_label("Note shown to the player (never name the reporter)").fill("Keep it friendly.")
    staff.screenshot(path=str(artifacts / "fair-play-admin-report.png"), full_page=True)
    staff.get_by_role("button", name="Apply").click()
    expect(staff.locator(".messagelist")).to_contain_text("The report is handled")
    staff_context.close()
    report.refresh_from_db()
    assert report.status == ReportStatus.ACTIONED
    assert AuditEntry.objects.filter(report=report, action=AuditAction.MUTE).exists()

    # Bob sees the mute at the table, and his fair-play page says what and until when.
    bob_context = browser.new_context(viewport={"width": 390, "height": 844})
    mine = bob_context.new_page()
    login(mine, base, "bob")
    mine.goto(f"{base}/tables/{table.pk}/")
    mine.locator("[data-toggle='show-chat']").click()
    notice = mine.locator("[data-chat-refusal]")
    expect(notice).to_contain_text("Your chat is muted by the moderators (until")
    expect(mine.locator("#chat-form")).to_have_count(0)
    mine.screenshot(path=str(artifacts / "fair-play-muted.png"))
    mine.goto(f"{base}/fair-play/")
    expect(mine.locator("[data-chat-mute]")).to_contain_text("Your chat is muted (until")
    expect(mine.locator("body")).to_contain_text("Keep it friendly.")
    expect(mine.locator("body")).not_to_contain_text("alice")
    mine.screenshot(path=str(artifacts / "fair-play-standing.png"), full_page=True)
    bob_context.close()
    assert ChatMessage.objects.filter(user=bob).count() == 1


def test_a_mute_given_while_the_table_is_open_shows_at_the_next_chat_line_without_a_reload(
    browser, live_daphne, make_user, monkeypatch, artifacts
):
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    clear_rate_limits()
    bob, carol = make_user("bob"), make_user("carol")
    moderator = make_user("moderator", is_staff=True, is_superuser=True)
    table = services.match_create(host=carol, variant="manipulation", seats_count=3)
    services.seat_join(match_id=table.pk, user=bob)
    line = services.chat_post(match_id=table.pk, user=bob, text="you all play like fools")

    context = browser.new_context()
    page = context.new_page()
    login(page, live_daphne.url, "bob")
    page.goto(f"{live_daphne.url}/tables/{table.pk}/")
    chat = page.locator("#chat-text")
    expect(chat).to_be_visible()
    # Staff mute bob from the queue while his table is open.
    report = fairplay_services.report_create(reporter=carol, reason="abuse", message_id=line.pk)
    fairplay_services.report_handle(report_id=report.pk, staff=moderator, action="mute", hours=24)

    url = page.url
    chat.fill("still here")
    chat.press("Enter")
    notice = page.locator(".table-side [data-chat-refusal]")
    expect(notice).to_contain_text("Your chat is muted by the moderators (until")
    expect(page.locator("#chat-form")).to_have_count(0)
    assert page.url == url  # no reload, no navigation
    page.screenshot(path=str(artifacts / "fair-play-muted-live.png"))
    assert list(ChatMessage.objects.filter(user=bob).values_list("text", flat=True)) == ["you all play like fools"]
    context.close()


def test_a_mute_from_the_queue_shows_at_once_on_the_players_open_table(
    browser, live_daphne, make_user, monkeypatch, artifacts
):
    """Staff mute a player from the report queue while the player's table page is open: the page
    shows the mute at once (pushed over its socket), in the player's language, with no line sent."""
    monkeypatch.setattr(realtime, "send_now", lambda group, message: None)
    clear_rate_limits()
    bob, carol = make_user("bob"), make_user("carol")
    make_user("moderator", is_staff=True, is_superuser=True)
    table = services.match_create(host=carol, variant="manipulation", seats_count=3)
    services.seat_join(match_id=table.pk, user=bob)
    line = services.chat_post(match_id=table.pk, user=bob, text="you all play like fools")
    report = fairplay_services.report_create(reporter=carol, reason="abuse", message_id=line.pk)

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    login(page, live_daphne.url, "bob")
    page.goto(f"{live_daphne.url}/tables/{table.pk}/")
    wait_live(page)
    page.locator("[data-toggle='show-chat']").click()  # a phone shows the chat on demand
    expect(page.locator("#chat-text")).to_be_visible()

    staff_context = browser.new_context()
    staff = staff_context.new_page()
    login(staff, live_daphne.url, "moderator")
    staff.goto(f"{live_daphne.url}/admin/fairplay/report/{report.pk}/change/")
    staff.get_by_label("Mute the chat").check()
    staff.get_by_label("For how many hours (a mute or a bar; empty: until lifted)").fill("24")
    staff.get_by_role("button", name="Apply").click()
    expect(staff.locator(".messagelist")).to_contain_text("The report is handled")
    staff_context.close()

    notice = page.locator(".table-side [data-chat-refusal]")
    expect(notice).to_contain_text("Your chat is muted by the moderators (until")
    expect(page.locator("#chat-form")).to_have_count(0)
    page.screenshot(path=str(artifacts / "fair-play-muted-pushed.png"))

    # Staff lift the mute from the sanctions' list: the open page gets its chat form back at once.
    staff_context = browser.new_context()
    staff = staff_context.new_page()
    login(staff, live_daphne.url, "moderator")
    staff.goto(f"{live_daphne.url}/admin/fairplay/sanction/")
    staff.locator("input[name='_selected_action']").first.check()
    staff.locator("select[name='action']").select_option("lift")
    staff.get_by_role("button", name="Go").click()
    expect(staff.locator(".messagelist")).to_contain_text("1 sanction lifted.")
    staff_context.close()
    expect(page.locator(".table-side #chat-form")).to_have_count(1)
    expect(page.locator(".table-side [data-chat-refusal]")).to_have_count(0)
    page.locator("#chat-text").fill("sorry, all")
    page.locator("#chat-form button[type='submit'], #chat-form button").first.click()
    expect(page.locator(".table-side")).to_contain_text("sorry, all")
    page.screenshot(path=str(artifacts / "fair-play-unmuted-pushed.png"))
    context.close()
