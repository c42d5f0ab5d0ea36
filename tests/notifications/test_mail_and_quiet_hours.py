"""The mail fallback over a simulated week (the clock moved with time-machine, never slept): one
"your move" mail per game per RUMMYHUB_NOTIFY_MAIL_HOURS, none to a player with push; quiet hours
defer, and what is no longer true at their end is dropped; the unsubscribe link works and a forged
one is refused."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail, signing
from django.utils import timezone

from games import signals
from games.models import Match, MatchStatus, Seat, Variant
from notifications import services
from notifications.models import Delivery, Notice, NotificationSettings
from tests.notifications.conftest import BrowserKeys

pytestmark = pytest.mark.django_db

MONDAY = dt.datetime(2026, 11, 2, 9, 0, tzinfo=dt.UTC)


def your_move(match, user, *, deadline_hours=24):
    signals.your_move.send(
        Match,
        match_id=match.pk,
        user_id=user.pk,
        deadline=timezone.now() + dt.timedelta(hours=deadline_hours),
        turn_based=True,
    )


@pytest.fixture
def two_games(alice, bob, carol):
    alice.email = "alice@example.com"
    alice.save()
    games = []
    for opponent in (bob, carol):
        match = Match.objects.create(variant=Variant.GIN, seats_count=2, status=MatchStatus.PLAYING)
        Seat.objects.create(match=match, index=0, user=alice)
        Seat.objects.create(match=match, index=1, user=opponent)
        games.append(match)
    return games


def test_a_week_of_moves_mails_once_per_game_per_12_hours(settings, two_games, alice):
    settings.RUMMYHUB_NOTIFY_MAIL_HOURS = 12
    first, second = two_games
    with time_machine.travel(MONDAY, tick=False) as clock:
        # A week: alice's move comes back every 3 hours in the first game, every 5 in the second.
        for hour in range(7 * 24):
            if hour % 3 == 0:
                your_move(first, alice)
            if hour % 5 == 0:
                your_move(second, alice)
            services.deliver_due()
            clock.shift(dt.timedelta(hours=1))

    sent = {first.pk: [], second.pk: []}
    for notice in Notice.objects.filter(mailed_at__isnull=False).order_by("mailed_at"):
        sent[notice.match_id].append(notice.mailed_at)
    # Hours 0, 12, ..., 156 in both games (168 h / 12 h), each a mail of its own.
    assert [(t - MONDAY) / dt.timedelta(hours=1) for t in sent[first.pk]] == [12 * k for k in range(14)]
    assert [(t - MONDAY) / dt.timedelta(hours=1) for t in sent[second.pk]] == [
        0,
        15,
        30,
        45,
        60,
        75,
        90,
        105,
        120,
        135,
        150,
        165,
    ]
    assert len(mail.outbox) == 26
    for message in mail.outbox:
        assert message.to == ["alice@example.com"]
        assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert message.extra_headers["List-Unsubscribe"].startswith("<http")
    # Every notice is in the bell, mailed or not.
    assert Notice.objects.filter(user=alice).count() == 56 + 34
    assert Notice.objects.filter(delivery=Delivery.BELL).count() == 56 + 34 - 26


def test_no_mail_for_a_player_with_push(vapid_key, push_service, two_games, alice):
    keys = BrowserKeys()
    services.subscription_save(
        user_id=alice.pk, endpoint=push_service.endpoint("/a"), p256dh=keys.p256dh, auth=keys.auth
    )
    your_move(two_games[0], alice)
    services.deliver_due()
    assert len(push_service.received) == 1
    assert mail.outbox == []


def test_mail_when_the_only_subscription_is_gone(vapid_key, push_service, two_games, alice):
    keys = BrowserKeys()
    push_service.status["/old"] = 410
    services.subscription_save(
        user_id=alice.pk, endpoint=push_service.endpoint("/old"), p256dh=keys.p256dh, auth=keys.auth
    )
    your_move(two_games[0], alice)
    services.deliver_due()
    assert len(mail.outbox) == 1


def test_no_mail_when_the_player_turned_it_off_or_has_no_address(two_games, alice, bob):
    NotificationSettings.objects.create(user=alice, mail=False)
    your_move(two_games[0], alice)
    your_move(two_games[0], bob)  # bob has no e-mail address
    services.deliver_due()
    assert mail.outbox == []
    assert set(Notice.objects.values_list("delivery", flat=True)) == {Delivery.BELL}


def test_real_time_tables_are_not_mailed(two_games, alice):
    signals.your_move.send(Match, match_id=two_games[0].pk, user_id=alice.pk, deadline=None, turn_based=False)
    services.deliver_due()
    assert Notice.objects.count() == 0 and mail.outbox == []


def quiet_alice(alice):
    return NotificationSettings.objects.create(
        user=alice, quiet_start=dt.time(22, 0), quiet_end=dt.time(7, 0), time_zone="Europe/Bucharest"
    )


BUCHAREST = ZoneInfo("Europe/Bucharest")


def test_quiet_hours_defer_to_their_end(two_games, alice):
    quiet_alice(alice)
    late = dt.datetime(2026, 11, 2, 23, 0, tzinfo=BUCHAREST)
    with time_machine.travel(late, tick=False) as clock:
        your_move(two_games[0], alice, deadline_hours=48)
        notice = Notice.objects.get()
        assert notice.deliver_after == dt.datetime(2026, 11, 3, 7, 0, tzinfo=BUCHAREST)
        for _hour in range(7):  # 23:00 .. 05:00 local: nothing goes
            services.deliver_due()
            clock.shift(dt.timedelta(hours=1))
        assert mail.outbox == []
        clock.move_to(dt.datetime(2026, 11, 3, 6, 59, tzinfo=BUCHAREST))
        services.deliver_due()
        assert mail.outbox == []
        clock.move_to(dt.datetime(2026, 11, 3, 7, 0, tzinfo=BUCHAREST))
        services.deliver_due()
    assert len(mail.outbox) == 1
    notice.refresh_from_db()
    assert notice.delivery == Delivery.SENT


def test_a_deferred_notice_no_longer_true_is_dropped(two_games, alice):
    quiet_alice(alice)
    first, second = two_games
    with time_machine.travel(dt.datetime(2026, 11, 2, 23, 0, tzinfo=BUCHAREST), tick=False) as clock:
        your_move(first, alice, deadline_hours=3)  # its deadline passes at 02:00, inside the quiet hours
        your_move(second, alice, deadline_hours=48)
        clock.shift(dt.timedelta(hours=1))
        # alice opens the second table at midnight: she has seen it.
        Seat.objects.filter(match=second, user=alice).update(last_seen=timezone.now())
        clock.move_to(dt.datetime(2026, 11, 3, 7, 0, tzinfo=BUCHAREST))
        services.deliver_due()
    assert mail.outbox == []
    assert set(Notice.objects.values_list("delivery", flat=True)) == {Delivery.DROPPED}


def test_a_finished_match_drops_its_pending_move_notice(two_games, alice):
    your_move(two_games[0], alice)
    Match.objects.filter(pk=two_games[0].pk).update(status=MatchStatus.FINISHED)
    services.deliver_due()
    assert Notice.objects.get().delivery == Delivery.DROPPED and mail.outbox == []


@pytest.mark.parametrize(
    ("start", "end", "local", "until"),
    [
        (dt.time(22), dt.time(7), dt.datetime(2026, 11, 2, 21, 59), None),
        (dt.time(22), dt.time(7), dt.datetime(2026, 11, 2, 22, 0), dt.datetime(2026, 11, 3, 7, 0)),
        (dt.time(22), dt.time(7), dt.datetime(2026, 11, 3, 3, 0), dt.datetime(2026, 11, 3, 7, 0)),
        (dt.time(22), dt.time(7), dt.datetime(2026, 11, 3, 7, 0), None),
        (dt.time(13), dt.time(15), dt.datetime(2026, 11, 3, 14, 0), dt.datetime(2026, 11, 3, 15, 0)),
        (dt.time(13), dt.time(15), dt.datetime(2026, 11, 3, 15, 30), None),
        (dt.time(9), dt.time(9), dt.datetime(2026, 11, 3, 9, 0), None),  # same ends: no quiet hours
        # The night summer time ends in Bucharest (25 October 2026): 07:00 is still EET's.
        (dt.time(22), dt.time(7), dt.datetime(2026, 10, 24, 23, 0), dt.datetime(2026, 10, 25, 7, 0)),
    ],
)
def test_quiet_until(start, end, local, until):
    prefs = NotificationSettings(quiet_start=start, quiet_end=end, time_zone="Europe/Bucharest")
    got = services.quiet_until(prefs, local.replace(tzinfo=BUCHAREST).astimezone(dt.UTC))
    assert got == (until.replace(tzinfo=BUCHAREST) if until else None)


# ------------------------------------------------------------------ unsubscribe


def mailed_link(two_games, alice):
    your_move(two_games[0], alice)
    services.deliver_due()
    header = mail.outbox[-1].extra_headers["List-Unsubscribe"]
    url = header.strip("<>")
    assert url in mail.outbox[-1].body
    return url.split("://", 1)[1].split("/", 1)[1]


def test_unsubscribe_link_turns_mail_off(client, two_games, alice):
    path = "/" + mailed_link(two_games, alice)
    page = client.get(path)
    assert page.status_code == 200
    assert not NotificationSettings.objects.filter(user=alice, mail=False).exists()  # a GET changes nothing
    done = client.post(path)  # the page's one button, or the mail client's own one-click POST (no CSRF token)
    assert done.status_code == 200
    assert NotificationSettings.objects.get(user=alice).mail is False
    your_move(two_games[1], alice)
    services.deliver_due()
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),  # the signature altered
        lambda token: signing.dumps({"u": 1}, salt="another.salt"),  # signed for something else
        lambda token: signing.dumps({"u": 99}, key="not-the-secret", salt=services.UNSUBSCRIBE_SALT),
        lambda token: "x" * 300,
    ],
)
def test_a_forged_unsubscribe_link_is_refused(client, two_games, alice, forge):
    path = "/" + mailed_link(two_games, alice)
    token = path.rstrip("/").rsplit("/", 1)[1]
    bad = f"/notifications/unsubscribe/{forge(token)}/"
    assert client.get(bad).status_code == 400
    assert client.post(bad).status_code == 400
    assert NotificationSettings.objects.filter(user=alice, mail=False).count() == 0


def test_a_worker_that_died_while_sending_loses_no_notice(two_games, alice):
    """A restart: the notice claimed by the dead worker is taken again once its claim is stale."""
    with time_machine.travel(MONDAY, tick=False) as clock:
        your_move(two_games[0], alice)
        notice = Notice.objects.get()
        Notice.objects.filter(pk=notice.pk).update(delivery=Delivery.SENDING, deliver_after=timezone.now())
        clock.shift(services.CLAIM_STALE - dt.timedelta(seconds=1))
        services.deliver_due()
        assert mail.outbox == []  # still another worker's
        clock.shift(dt.timedelta(seconds=1))
        services.deliver_due()
    assert len(mail.outbox) == 1
    notice.refresh_from_db()
    assert notice.delivery == Delivery.SENT
