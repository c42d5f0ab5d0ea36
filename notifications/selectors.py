"""The notifications' reads: the bell's count and list, a player's devices."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from notifications import words
from notifications.models import Notice, PushSubscription

BELL_LIST = 30  # notices the list shows


def unread_count(user_id: int) -> int:
    return Notice.objects.filter(user_id=user_id, read_at__isnull=True).count()


@dataclass(frozen=True, slots=True)
class NoticeLine:
    id: int
    headline: str
    text: str
    url: str
    created: datetime
    unread: bool


def notice_lines(user_id: int) -> list[NoticeLine]:
    """The player's newest notices, worded in the active language."""
    notices = Notice.objects.filter(user_id=user_id).select_related("match")[:BELL_LIST]
    return [
        NoticeLine(
            id=n.pk,
            headline=words.headline(n.kind),
            text=words.line(n.kind, n.match),
            url=words.table_url(n.match_id),
            created=n.created,
            unread=n.read_at is None,
        )
        for n in notices
    ]


def devices(user_id: int) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user_id=user_id).order_by("created"))


def notice_url(user_id: int, notice_id: int) -> str | None:
    """Where one of this player's notices leads (its table); None if it is not theirs."""
    match_id = Notice.objects.filter(user_id=user_id, pk=notice_id).values_list("match_id", flat=True).first()
    return words.table_url(match_id) if match_id is not None else None
