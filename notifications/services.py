"""Every write of the notifications: notices made (from the game's signals), delivered (by the
worker), read; subscriptions stored and deleted; a player's settings; the mail's unsubscribe.

A notice is a row first: the signal's receiver stores it (and wakes the worker), nothing else, so a
move never waits for a push service or a mail server.  The worker (``runworker notifications``,
notifications.consumers) delivers what is due with :func:`deliver_due`.

Quiet hours **defer**: a notice made inside them is due at their end, and is then sent only if it is
still true (the match still on, its deadline not passed, the player not back at the table since);
otherwise it is dropped.  It is in the bell from the start either way.
"""

from __future__ import annotations

import datetime as dt
import logging
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core import signing
from django.core.exceptions import ObjectDoesNotExist
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from games import store
from games.models import Match, MatchStatus, Seat
from notifications import push, selectors, words
from notifications.models import Delivery, Notice, NoticeKind, NotificationSettings, PushSubscription
from plumbing import realtime

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe-mail"
SESSION_DEVICE = "notifications.device"  # the push subscription stored from this session
BELL_PARTIAL = "notifications/bell.html#notice-bell"
LIVE_STATUSES = (MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS)
# A worker's claim on a notice older than this is taken again (the worker died while sending): far
# longer than one delivery (a push service answers within push.TIMEOUT per device).
CLAIM_STALE = dt.timedelta(minutes=10)


# ------------------------------------------------------------------ settings and quiet hours


def settings_for(user_id: int) -> NotificationSettings:
    """The player's choices (the defaults, unsaved, while they have chosen nothing)."""
    found = NotificationSettings.objects.filter(user_id=user_id).first()
    return found or NotificationSettings(user_id=user_id)


def quiet_until(prefs: NotificationSettings, now: dt.datetime) -> dt.datetime | None:
    """The end of the quiet hours ``now`` falls in (aware, UTC), or None outside them."""
    start, end = prefs.quiet_start, prefs.quiet_end
    if start is None or end is None or start == end:
        return None
    try:
        zone = ZoneInfo(prefs.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        zone = dt.UTC
    local = now.astimezone(zone)
    moment = local.time().replace(tzinfo=None)
    inside = start <= moment < end if start < end else (moment >= start or moment < end)
    if not inside:
        return None
    day = local.date() if moment < end else local.date() + dt.timedelta(days=1)
    return dt.datetime.combine(day, end, tzinfo=zone).astimezone(dt.UTC)


# ------------------------------------------------------------------ notices made


def notice_create(
    *, user_id: int, match_id: int, kind: str, deadline: dt.datetime | None = None, now: dt.datetime | None = None
) -> Notice | None:
    """Store a notice for the worker and the bell; the bell and the worker hear of it on commit.
    Only a player seated at the match is told (None otherwise)."""
    if not Seat.objects.filter(match_id=match_id, user_id=user_id).exists():
        return None
    now = now or timezone.now()
    quiet = quiet_until(settings_for(user_id), now)
    notice = Notice.objects.create(
        user_id=user_id, match_id=match_id, kind=kind, created=now, deadline=deadline, deliver_after=quiet or now
    )
    transaction.on_commit(lambda: bell_changed(user_id=user_id))
    transaction.on_commit(realtime.wake_notifications)
    return notice


def notices_for_finished(*, match: Match, now: dt.datetime | None = None) -> list[Notice]:
    """ "The match ended" for each human player who was not at the table when it did (once: a second
    call for the same match adds nothing)."""
    made = []
    told = set(Notice.objects.filter(match_id=match.pk, kind=NoticeKind.MATCH_ENDED).values_list("user_id", flat=True))
    for seat in Seat.objects.filter(match_id=match.pk, user__isnull=False, bot_policy=""):
        if seat.user_id not in told and not store.user_here(match.pk, seat.user_id, now):
            made.append(notice_create(user_id=seat.user_id, match_id=match.pk, kind=NoticeKind.MATCH_ENDED, now=now))
    return made


# ------------------------------------------------------------------ the bell


def bell_changed(*, user_id: int) -> None:
    """Every page the player has open redraws its bell (over its presence socket)."""
    realtime.send_now(
        realtime.user_group(user_id),
        {"type": "user.fragment", "template": BELL_PARTIAL, "context": {"unread": selectors.unread_count(user_id)}},
    )


def notices_mark_read(*, user_id: int, notice_id: int | None = None, now: dt.datetime | None = None) -> int:
    """Mark one notice (or all) of this player read; how many were unread."""
    unread = Notice.objects.filter(user_id=user_id, read_at__isnull=True)
    if notice_id is not None:
        unread = unread.filter(pk=notice_id)
    changed = unread.update(read_at=now or timezone.now())
    if changed:
        transaction.on_commit(lambda: bell_changed(user_id=user_id))
    return changed


# ------------------------------------------------------------------ delivery (the worker)


def deliver_due(*, now: dt.datetime | None = None, limit: int = 200) -> int:
    """Deliver the notices that are due; how many were looked at.  Each is claimed first (one
    worker per notice, however many run)."""
    now = now or timezone.now()
    # A claim's time is kept in deliver_after; a claim older than CLAIM_STALE is a worker that died
    # while sending (a restart): the notice is taken again, so none is lost.
    stale = now - CLAIM_STALE
    waiting = Q(delivery=Delivery.PENDING, deliver_after__lte=now) | Q(
        delivery=Delivery.SENDING, deliver_after__lte=stale
    )
    due = list(Notice.objects.filter(waiting).order_by("deliver_after", "pk").values_list("pk", flat=True)[:limit])
    for pk in due:
        claim = Notice.objects.filter(Q(pk=pk) & waiting).update(delivery=Delivery.SENDING, deliver_after=now)
        if claim:
            notice = Notice.objects.select_related("match", "user").get(pk=pk)
            try:
                _deliver(notice, now)
            except Exception:
                logger.exception("notice %s could not be delivered", pk)
                Notice.objects.filter(pk=pk).update(delivery=Delivery.BELL)
    return len(due)


def _is_stale(notice: Notice, now: dt.datetime) -> bool:
    """A move's notice no longer true: the match is over, the deadline passed, or the player has been
    at the table since (they saw it there; a hidden tab tells them itself, static/js/notify.js)."""
    if notice.kind == NoticeKind.MATCH_ENDED:
        return False
    if notice.match.status not in LIVE_STATUSES:
        return True
    if notice.deadline is not None and notice.deadline <= now:
        return True
    seat = Seat.objects.filter(match_id=notice.match_id, user_id=notice.user_id).first()
    if seat is None or (seat.last_seen is not None and seat.last_seen > notice.created):
        return True
    return store.user_here(notice.match_id, notice.user_id, now)


def _language_of(user) -> str:
    """The player's language (their profile's), else the site's."""
    try:
        language = user.profile.language
    except ObjectDoesNotExist:
        language = ""
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _deliver(notice: Notice, now: dt.datetime) -> None:
    prefs = settings_for(notice.user_id)
    quiet = quiet_until(prefs, now)
    if quiet is not None:  # quiet hours chosen since the notice was made: wait for their end
        Notice.objects.filter(pk=notice.pk).update(delivery=Delivery.PENDING, deliver_after=quiet)
        return
    if _is_stale(notice, now):
        Notice.objects.filter(pk=notice.pk).update(delivery=Delivery.DROPPED)
        return
    with translation.override(_language_of(notice.user)):
        pushed = _push_all(notice, prefs, now)
        mailed = False
        if not pushed and _mail_allowed(notice, prefs, now):
            mailed = _mail(notice, now)
    Notice.objects.filter(pk=notice.pk).update(
        delivery=Delivery.SENT if pushed or mailed else Delivery.BELL,
        pushed=pushed,
        mailed_at=now if mailed else None,
    )


def push_payload(notice: Notice) -> dict:
    """What the service worker shows (static in templates/notifications/sw.js): the table named."""
    return {
        "title": words.headline(notice.kind),
        "body": words.line(notice.kind, notice.match),
        "url": words.table_url(notice.match_id),
        "tag": f"table-{notice.match_id}",
        "table": notice.match_id,
        "kind": notice.kind,
    }


def _push_all(notice: Notice, prefs: NotificationSettings, now: dt.datetime) -> int:
    """Push to every device of the player; a subscription the push service calls gone is deleted."""
    if not prefs.push or not push.enabled():
        return 0
    payload = push_payload(notice)
    pushed = 0
    for sub in PushSubscription.objects.filter(user_id=notice.user_id):
        status = push.send(endpoint=sub.endpoint, p256dh=sub.p256dh, auth=sub.auth, payload=payload)
        if 200 <= status < 300:
            pushed += 1
            PushSubscription.objects.filter(pk=sub.pk).update(last_push=now)
        elif status in push.GONE:
            logger.info("push subscription %s is gone (%s): deleted", sub.pk, status)
            sub.delete()
    return pushed


def _mail_allowed(notice: Notice, prefs: NotificationSettings, now: dt.datetime) -> bool:
    """ "Your move" mail goes to a player with no push (no device, or push turned off) who allows
    mail, at most once per game per RUMMYHUB_NOTIFY_MAIL_HOURS."""
    if notice.kind != NoticeKind.YOUR_MOVE or not prefs.mail or not notice.user.email:
        return False
    if prefs.push and push.enabled() and PushSubscription.objects.filter(user_id=notice.user_id).exists():
        return False
    since = now - dt.timedelta(hours=settings.RUMMYHUB_NOTIFY_MAIL_HOURS)
    return not Notice.objects.filter(user_id=notice.user_id, match_id=notice.match_id, mailed_at__gt=since).exists()


def unsubscribe_token(user_id: int) -> str:
    return signing.dumps({"u": user_id}, salt=UNSUBSCRIBE_SALT)


def unsubscribe_url(user_id: int) -> str:
    return settings.RUMMYHUB_SITE_URL.rstrip("/") + reverse(
        "notifications:unsubscribe", args=[unsubscribe_token(user_id)]
    )


def _mail(notice: Notice, now: dt.datetime) -> bool:
    site = settings.RUMMYHUB_SITE_URL.rstrip("/")
    unsubscribe = unsubscribe_url(notice.user_id)
    context = {
        "user": notice.user,
        "line": words.line(notice.kind, notice.match),
        "table_url": site + words.table_url(notice.match_id),
        "settings_url": site + reverse("notifications:settings"),
        "unsubscribe_url": unsubscribe,
        "deadline": notice.deadline,
        "time_zone": settings_for(notice.user_id).time_zone,
    }
    subject = " ".join(render_to_string("notifications/mail/your_move_subject.txt", context).split())
    body = render_to_string("notifications/mail/your_move.txt", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=body,
        to=[notice.user.email],
        headers={
            # RFC 2369 and RFC 8058: a mail client's own "unsubscribe" posts to the link, one click.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    try:
        message.send()
    except Exception:
        logger.exception("the 'your move' mail to user %s failed", notice.user_id)
        return False
    return True


# ------------------------------------------------------------------ the player's choices


def _token_user(token: str) -> int | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    user_id = data.get("u") if isinstance(data, dict) else None
    if not isinstance(user_id, int) or isinstance(user_id, bool):
        return None
    return user_id


def mail_unsubscribe_check(*, token: str) -> bool:
    """Whether an unsubscribe link is one this site signed (nothing changes)."""
    return _token_user(token) is not None


def mail_unsubscribe(*, token: str) -> int | None:
    """Turn off a player's mail from a signed link; their id, or None for a forged or altered token."""
    user_id = _token_user(token)
    if user_id is None:
        return None
    prefs, _created = NotificationSettings.objects.get_or_create(user_id=user_id)
    if prefs.mail:
        prefs.mail = False
        prefs.save(update_fields=["mail"])
    return user_id


def subscription_save(
    *, user_id: int, endpoint: str, p256dh: str, auth: str, label: str = "", now: dt.datetime | None = None
) -> PushSubscription:
    """Store (or move to this player) a device's subscription; past RUMMYHUB_PUSH_DEVICES the
    player's oldest goes."""
    now = now or timezone.now()
    with transaction.atomic():
        sub, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user_id": user_id, "p256dh": p256dh, "auth": auth, "label": label[:80], "created": now},
        )
        keep = PushSubscription.objects.filter(user_id=user_id).order_by("-created", "-pk")
        extra = list(keep.values_list("pk", flat=True)[settings.RUMMYHUB_PUSH_DEVICES :])
        if extra:
            PushSubscription.objects.filter(pk__in=extra).delete()
    return sub


def subscription_delete(*, user_id: int, subscription_id: int | None = None, endpoint: str | None = None) -> int:
    """Forget one of the player's devices (by id or endpoint); how many rows went (0: not theirs)."""
    mine = PushSubscription.objects.filter(user_id=user_id)
    if subscription_id is not None:
        mine = mine.filter(pk=subscription_id)
    elif endpoint is not None:
        mine = mine.filter(endpoint=endpoint)
    else:
        return 0
    return mine.delete()[0]
