"""Reports: made from a chat line, a shared match or a profile, with their evidence; staff handle them
in the admin's queue (warn, mute, bar, unfounded), each action in the audit log; the reporter sees it
was handled; hostile input is refused."""

from __future__ import annotations

import pytest
from django.test import Client

from fairplay import services
from fairplay.models import AuditAction, AuditEntry, Report, ReportStatus, Sanction, SanctionKind
from games import services as game_services
from games.models import ChatMessage

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, carol):
    match = game_services.match_create(host=carol, variant="manipulation", seats_count=3)
    game_services.seat_join(match_id=match.pk, user=alice)
    game_services.seat_join(match_id=match.pk, user=bob)
    for i in range(10):
        ChatMessage.objects.create(match=match, user=(alice, bob, carol)[i % 3], text=f"line {i}")
    return match


def test_a_chat_line_report_keeps_the_chat_around_it(alice, bob, table):
    line = ChatMessage.objects.get(match=table, text="line 4")  # bob's
    report = services.report_create(reporter=alice, reason="abuse", details="rude", message_id=line.pk)
    assert report.reported == bob and report.match_id == table.pk and report.chat_message == line
    texts = [entry["text"] for entry in report.evidence["chat"]]
    assert texts == [f"line {i}" for i in range(10)][: 4 + services.EVIDENCE_AROUND + 1]
    assert [e["text"] for e in report.evidence["chat"] if e["reported"]] == ["line 4"]
    assert report.evidence["match"] == table.pk
    assert AuditEntry.objects.get(report=report).action == AuditAction.REPORT


def test_the_admin_queue_mutes_the_player_and_tells_the_reporter(client, alice, bob, table, moderator):
    line = ChatMessage.objects.get(match=table, text="line 1")
    report = services.report_create(reporter=alice, reason="abuse", message_id=line.pk)
    client.force_login(moderator)
    queue = client.get("/admin/fairplay/report/").content.decode()
    assert f"/admin/fairplay/report/{report.pk}/change/" in queue
    page = client.get(f"/admin/fairplay/report/{report.pk}/change/").content.decode()
    assert "line 1" in page and "line 0" in page and "Act on this report" in page
    response = client.post(
        f"/admin/fairplay/report/{report.pk}/handle/", {"action": "mute", "hours": "24", "note": "Mind your words."}
    )
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.status == ReportStatus.ACTIONED
    mute = Sanction.objects.get(user=bob, kind=SanctionKind.CHAT_MUTE)
    assert (mute.ends_at - mute.starts_at).total_seconds() == 24 * 3600 and mute.created_by == moderator
    entry = AuditEntry.objects.get(report=report, action=AuditAction.MUTE)
    assert entry.actor == moderator and entry.subject == bob and entry.sanction == mute
    # The player cannot chat; the message says why and until when.
    with pytest.raises(game_services.ActionRefused) as refused:
        game_services.chat_post(match_id=table.pk, user=bob, text="hi")
    assert refused.value.code == "chat_muted"
    # Handled twice: refused, nothing more in the log.
    response = client.post(f"/admin/fairplay/report/{report.pk}/handle/", {"action": "warn"})
    assert AuditEntry.objects.filter(report=report).count() == 2
    # The reporter is told (their profile, then their fair-play page).
    client.force_login(alice)
    assert "1 of your reports was handled" in client.get(f"/players/{alice.username}/").content.decode()
    standing = client.get("/fair-play/").content.decode()
    assert 'data-report-status="actioned"' in standing
    assert "of your reports was handled" not in client.get(f"/players/{alice.username}/").content.decode()


@pytest.mark.parametrize(
    ("action", "kind", "status"),
    [
        ("warn", SanctionKind.WARNING, ReportStatus.ACTIONED),
        ("bar", SanctionKind.RATED_BAR, ReportStatus.ACTIONED),
        ("unfounded", None, ReportStatus.UNFOUNDED),
    ],
)
def test_each_moderation_action_is_logged(alice, bob, moderator, action, kind, status):
    report = services.report_create(reporter=alice, reported_id=bob.pk, reason="cheating")
    services.report_handle(report_id=report.pk, staff=moderator, action=action, hours=72)
    report.refresh_from_db()
    assert report.status == status
    sanctions = list(Sanction.objects.filter(user=bob))
    assert [s.kind for s in sanctions] == ([kind] if kind else [])
    assert [e.action for e in AuditEntry.objects.filter(report=report).order_by("pk")] == [
        AuditAction.REPORT,
        {"warn": AuditAction.WARN, "bar": AuditAction.BAR, "unfounded": AuditAction.UNFOUNDED}[action],
    ]


def test_only_staff_handle_reports(alice, bob, carol):
    report = services.report_create(reporter=alice, reported_id=bob.pk, reason="spam")
    with pytest.raises(services.Refused):
        services.report_handle(report_id=report.pk, staff=carol, action="warn")


@pytest.mark.parametrize(
    "fields",
    [
        {"message": "\u0661\u0662"},  # Arabic-Indic digits
        {"message": "²"},
        {"player": "9" * 40},
        {"player": "-1"},
        {"match": "1e3", "player": "1"},
    ],
)
def test_forged_ids_are_refused(client, alice, fields):
    client.force_login(alice)
    response = client.post("/fair-play/report/", {"reason": "spam", **fields})
    assert response.status_code == 400
    assert Report.objects.count() == 0


def test_a_nul_byte_is_refused_before_any_view(client, alice, bob):
    client.force_login(alice)
    response = client.post("/fair-play/report/", {"reason": "spam", "player": str(bob.pk), "details": "a\x00b"})
    assert response.status_code == 400
    assert Report.objects.count() == 0


def test_a_huge_reason_or_an_unknown_one_is_refused(client, alice, bob):
    client.force_login(alice)
    response = client.post("/fair-play/report/", {"reason": "spam", "player": str(bob.pk), "details": "x" * 100_000})
    assert response.status_code == 400
    response = client.post("/fair-play/report/", {"reason": "x" * 5000, "player": str(bob.pk)})
    assert response.status_code == 400
    with pytest.raises(services.Refused):
        services.report_create(reporter=alice, reported_id=bob.pk, reason="spam", details="x" * 1001)
    assert Report.objects.count() == 0


def test_a_line_of_a_table_one_did_not_sit_at_or_a_match_not_shared_is_refused(alice, bob, carol, dave, table):
    line = ChatMessage.objects.filter(match=table).first()
    with pytest.raises(services.Refused):
        services.report_create(reporter=dave, reason="abuse", message_id=line.pk)
    with pytest.raises(services.Refused):
        services.report_create(reporter=dave, reason="abuse", match_id=table.pk, reported_id=bob.pk)
    with pytest.raises(services.Refused):
        services.report_create(reporter=alice, reason="abuse", reported_id=alice.pk)
    assert Report.objects.count() == 0


def test_reports_are_rate_limited(alice, bob, settings):
    settings.RUMMYHUB_REPORT_LIMIT = "2/d"
    services.report_create(reporter=alice, reported_id=bob.pk, reason="spam")
    services.report_create(reporter=alice, reported_id=bob.pk, reason="spam")
    with pytest.raises(services.Refused) as refused:
        services.report_create(reporter=alice, reported_id=bob.pk, reason="spam")
    assert refused.value.code == "rate_limited"


def test_the_admin_handle_refuses_forged_hours(client, alice, bob, moderator):
    report = services.report_create(reporter=alice, reported_id=bob.pk, reason="spam")
    client.force_login(moderator)
    for hours in ("²", "99999999", "-3", "\u0663"):
        client.post(f"/admin/fairplay/report/{report.pk}/handle/", {"action": "bar", "hours": hours})
    report.refresh_from_db()
    assert report.status == ReportStatus.OPEN and not Sanction.objects.exists()


def test_staff_lift_a_sanction_from_the_admin_list_and_it_is_logged(client, alice, bob, moderator):
    report = services.report_create(reporter=alice, reported_id=bob.pk, reason="spam")
    services.report_handle(report_id=report.pk, staff=moderator, action="bar", hours=48)
    bar = Sanction.objects.get(user=bob)
    client.force_login(moderator)
    response = client.post(
        "/admin/fairplay/sanction/", {"action": "lift", "_selected_action": [str(bar.pk)]}, follow=True
    )
    assert response.status_code == 200
    bar.refresh_from_db()
    assert bar.lifted_at is not None
    assert AuditEntry.objects.get(action=AuditAction.LIFT).actor == moderator
    # The audit log is read only: no add, no change, no delete.
    assert client.get("/admin/fairplay/auditentry/add/").status_code == 403
    entry = AuditEntry.objects.first()
    assert client.post(f"/admin/fairplay/auditentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


@pytest.mark.parametrize("report_id", ["9" * 30, "²", "\u0661"])
def test_forged_report_ids_in_the_admin_are_refused_without_a_server_error(client, moderator, report_id):
    client.force_login(moderator)
    assert client.get(f"/admin/fairplay/report/{report_id}/change/").status_code in (302, 404)
    assert client.post(f"/admin/fairplay/report/{report_id}/handle/", {"action": "warn"}).status_code in (302, 404)
    assert not Sanction.objects.exists() and not AuditEntry.objects.exists()


def test_a_mute_is_pushed_to_the_players_table_pages_at_once(
    alice, bob, table, moderator, monkeypatch, django_capture_on_commit_callbacks
):
    """A moderators' mute is told at once to every table page the muted player has open (over their
    user's group, which a table socket joins; the presence socket of other pages skips it): the
    chat's slot becomes the mute's notice, in the page's own language, with the time it ends."""
    from django.utils import translation
    from django.utils.translation import override

    from plumbing import realtime

    sent = []
    monkeypatch.setattr(realtime, "send_now", lambda group, message: sent.append((group, message)))
    line = ChatMessage.objects.get(match=table, text="line 1")
    report = services.report_create(reporter=alice, reason="abuse", message_id=line.pk)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.report_handle(report_id=report.pk, staff=moderator, action="mute", hours=24)
    mute = Sanction.objects.get(user=bob, kind=SanctionKind.CHAT_MUTE)
    pushed = [m for g, m in sent if g == realtime.user_group(bob.pk)]
    assert len(pushed) == 1 and pushed[0]["type"] == "user.fragment" and pushed[0]["pages"] == "table"
    for lang in ("en", "ro"):
        with override(lang):
            told = policy_text(bob)
        html = realtime.render_user_fragment({"cookies": {"django_language": lang}}, pushed[0])
        assert html.startswith('<div id="chat-slot" hx-swap-oob="true">') and "data-chat-refusal" in html
        assert told in html, (told, html)
    assert translation.get_language() == "en" and mute.ends_at is not None
    # Handled without a mute (a warning): nothing pushed.
    sent.clear()
    other = services.report_create(reporter=alice, reported_id=bob.pk, reason="spam")
    with django_capture_on_commit_callbacks(execute=True):
        services.report_handle(report_id=other.pk, staff=moderator, action="warn")
    assert not [m for _g, m in sent if m.get("type") == "user.fragment"]


def policy_text(user) -> str:
    from fairplay.policy import FairPlayGuards

    return FairPlayGuards().chat_refusal(user=user)


def test_lifting_the_last_mute_is_pushed_and_the_page_fetches_its_chat_again(
    alice, bob, table, moderator, monkeypatch, django_capture_on_commit_callbacks
):
    """Staff lift a mute while the player has a table open: the page says so at once and fetches its
    side panel again (the chat form is that table's); a mute still in force after the lift keeps the page
    as it is, and lifting again pushes nothing."""
    from plumbing import realtime

    sent = []
    monkeypatch.setattr(realtime, "send_now", lambda group, message: sent.append((group, message)))
    with django_capture_on_commit_callbacks(execute=True):
        for hours in (24, 48):
            report = services.report_create(reporter=alice, reported_id=bob.pk, reason="abuse")
            services.report_handle(report_id=report.pk, staff=moderator, action="mute", hours=hours)
    first, second = Sanction.objects.filter(user=bob, kind=SanctionKind.CHAT_MUTE).order_by("pk")

    def told():
        return [m for g, m in sent if g == realtime.user_group(bob.pk) and m.get("type") == "user.fragment"]

    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.sanction_lift(sanction_id=first.pk, staff=moderator)
    assert told() == [] and policy_text(bob)  # the other mute is still in force
    with django_capture_on_commit_callbacks(execute=True):
        services.sanction_lift(sanction_id=second.pk, staff=moderator)
        services.sanction_lift(sanction_id=second.pk, staff=moderator)
    pushed = told()
    assert len(pushed) == 1 and pushed[0]["pages"] == "table" and policy_text(bob) is None
    html = realtime.render_user_fragment({"cookies": {"django_language": "ro"}}, pushed[0])
    assert html.startswith('<div id="chat-slot" hx-swap-oob="true"') and "data-chat-unmuted" in html
    assert 'hx-get="?part=side"' in html and 'hx-trigger="load"' in html
    client = Client()
    client.force_login(bob)
    side = client.get(f"/tables/{table.pk}/?part=side", headers={"HX-Request": "true"})
    assert side.status_code == 200 and 'id="chat-form"' in side.content.decode()
