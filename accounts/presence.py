"""Who is online: a count of distinct signed-in users with an open socket (selectors and writes)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from accounts.models import Presence

PRESENCE_HEARTBEAT = 30  # seconds between refreshes of an open socket's row
PRESENCE_TIMEOUT = 90  # a row not refreshed for this long no longer counts


def online_count() -> int:
    cutoff = timezone.now() - timedelta(seconds=PRESENCE_TIMEOUT)
    return Presence.objects.filter(seen__gte=cutoff).values("user").distinct().count()


def presence_open(*, user, channel_name: str) -> int:
    Presence.objects.update_or_create(channel_name=channel_name, defaults={"user": user, "seen": timezone.now()})
    return online_count()


def presence_touch(*, channel_name: str) -> None:
    Presence.objects.filter(channel_name=channel_name).update(seen=timezone.now())


def presence_close(*, channel_name: str) -> int:
    Presence.objects.filter(channel_name=channel_name).delete()
    # Rows of crashed servers are swept here as well.
    Presence.objects.filter(seen__lt=timezone.now() - timedelta(seconds=PRESENCE_TIMEOUT)).delete()
    return online_count()
