"""Who is at a table: one row per open table socket, kept fresh by heartbeats, swept when it lapses."""

from __future__ import annotations

import logging
from typing import Any

from django.utils import timezone

from games import store
from games.models import (
    MatchStatus,
    Seat,
    TableConnection,
)
from games.services.refusals import ActionRefused
from games.services.retry import with_retry
from games.services.write import Write, presence_changed, schedule_next_step, seat_of, writing

log = logging.getLogger(__name__)


def _reschedule(write: Write) -> bool:
    """A seat came or went: the acting player's disconnect grace starts or ends.

    True when it did (the deadline moved): the boards show that clock, so the caller saves a new
    version.  Another seat's coming and going changes only its online dot (``table.presence``, no
    version), so a connecting crowd does not make every seat re-render its board.
    """
    if write.match.status != MatchStatus.PLAYING:
        return False
    before = write.match.deadline
    write.seats_changed()  # presence is what changed: read it again
    schedule_next_step(write)
    return write.match.deadline != before


def table_connection_open(*, match_id: int, user, token: str) -> None:
    """A table socket of ``user`` opened: its row, kept fresh by the socket's process
    (``consumers.Heartbeats``) until :func:`table_connection_close`.

    A spectator's socket has a row too: it counts as soon as they take a seat.  A player's
    first socket puts the seat online (``table.presence``); coming back ends the autopilot
    (a real change of the table: version bump).
    """
    if not user.is_authenticated:
        return
    now = timezone.now()
    with writing(match_id, now=now) as write:
        match = write.match
        seat = seat_of(match, user)
        was_online = seat is not None and store.user_here(match.pk, user.pk, now)
        TableConnection.objects.create(match=match, user=user, token=token, opened_at=now, last_seen=now)
        if seat is None:
            return
        Seat.objects.filter(pk=seat.pk).update(last_seen=now, autopilot=False, missed_turns=0)
        grace_ended = (not was_online or seat.autopilot) and _reschedule(write)
        if seat.autopilot or grace_ended:
            write.save("deadline", presence=True)
        if not was_online:
            presence_changed(match, seat, True)


def table_connection_close(*, token: str) -> None:
    """A table socket closed: its row goes.  Closing twice, or a row already swept, changes nothing.

    The seat's last socket closing starts the disconnect grace and turns its dot off.
    """
    row = TableConnection.objects.filter(token=token).values_list("match_id", "user_id").first()
    if row is None:
        return
    match_id, user_id = row
    now = timezone.now()
    with writing(match_id, now=now) as write:  # gone: its rows went with it (refused, like any request to it)
        match = write.match
        deleted, _rows = TableConnection.objects.filter(token=token).delete()
        seat = Seat.objects.filter(match=match, user_id=user_id).first() if deleted else None
        if seat is None:
            return
        Seat.objects.filter(pk=seat.pk).update(last_seen=now)
        if not store.user_here(match.pk, user_id, now):
            if _reschedule(write):
                write.save("deadline", presence=True)
            presence_changed(match, seat, False)


SEEN_BATCH = 500  # tokens per UPDATE (SQLite's limit on query parameters is 999 on old builds)


def table_connections_seen(tokens) -> set[str]:
    """Mark these table sockets' rows as seen now; returns the tokens that have no row.

    The open sockets of a process send their heartbeat together through this (see
    ``games.live.consumers.Heartbeats``): one UPDATE per SEEN_BATCH sockets, and a read only when
    some row was missing (the sweep took it while its process stalled: the caller opens it again).
    """
    tokens = sorted(set(tokens))
    now = timezone.now()
    missing: set[str] = set()
    for start in range(0, len(tokens), SEEN_BATCH):
        batch = tokens[start : start + SEEN_BATCH]
        if TableConnection.objects.filter(token__in=batch).update(last_seen=now) < len(batch):
            found = TableConnection.objects.filter(token__in=batch).values_list("token", flat=True)
            missing.update(set(batch) - set(found))
    return missing


def presence_sweep(*, now=None) -> int:
    """Delete the table sockets' rows nobody refreshed within the timeout; returns how many.

    Such a row belongs to a server that died (SIGKILL, a crash) with the socket open: no
    disconnect ever closes it.  A seat left with no fresh row has gone: its "gone since" is its
    last heartbeat, its match's deadline is recomputed (the disconnect grace) and the table gets
    a ``table.presence``.  Every process's clock runs this about every ``RUMMYHUB_HEARTBEAT``
    seconds; several at once are safe (each match's rows are re-read under its lock).
    With nothing lapsed it is one query.
    """
    cutoff = store.presence_cutoff(now)
    lapsed = TableConnection.objects.filter(last_seen__lt=cutoff).values_list("match_id", flat=True).distinct()
    swept = 0
    for match_id in sorted(set(lapsed)):
        try:
            swept += with_retry(_sweep_match, match_id=match_id, cutoff=cutoff)
        except ActionRefused:
            continue  # the match was deleted meanwhile: its rows went with it
        except Exception:  # one match's failure must not keep every other table's rows forever
            log.exception("presence sweep of match %s failed", match_id)
    return swept


def _sweep_match(*, match_id: int, cutoff) -> int:
    with writing(match_id) as write:
        match = write.match
        rows = list(
            TableConnection.objects.filter(match=match, last_seen__lt=cutoff).values_list("pk", "user_id", "last_seen")
        )
        if not rows:
            return 0  # another process swept them, or their heartbeat came back
        # A row refreshed since it was read (its process was only slow) stays.
        deleted, _rows = TableConnection.objects.filter(
            pk__in=[pk for pk, _u, _s in rows], last_seen__lt=cutoff
        ).delete()
        last_beat: dict[int, Any] = {}
        for _pk, user_id, seen in rows:
            last_beat[user_id] = max(seen, last_beat.get(user_id, seen))
        here = set(
            TableConnection.objects.filter(match=match, user_id__in=last_beat, last_seen__gte=cutoff).values_list(
                "user_id", flat=True
            )
        )
        gone = [s for s in Seat.objects.filter(match=match, user_id__in=last_beat) if s.user_id not in here]
        for seat in gone:
            since = max(seat.last_seen or last_beat[seat.user_id], last_beat[seat.user_id])
            Seat.objects.filter(pk=seat.pk).update(last_seen=since)
        if gone and _reschedule(write):
            write.save("deadline", presence=True)
        for seat in gone:
            presence_changed(match, seat, False)
        return deleted
