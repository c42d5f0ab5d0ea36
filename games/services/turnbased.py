"""Turn-based tables (issue 27, docs/turn-based.md): a time per move of hours or days.

Below the write path (``write.schedule_next_step`` calls :func:`plan_turn`), above nothing but the
models.  Everything lives in the match row, so a restart loses nothing:

- ``Match.turn_seat`` / ``turn_deadline``: the human seat to act and its deadline (its turn's start +
  ``move_time``); ``turn_notices``: the NOTICE_* bits already sent for that turn.
- ``Match.deadline`` (what every process's clock claims) is the next of the turn's unsent reminders
  and its deadline.  At a reminder the clock calls :func:`remind` (no new version: the board has not
  changed); at the deadline it applies the real-time rule (``clock._step``: a missed turn, the
  compulsory moves, the autopilot after ``MISSED_TURNS_FOR_AUTOPILOT``).

The notices are Django signals sent once the transaction that made them true commits
(``games.signals.your_move`` / ``move_reminder``); the notifications app listens.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import signals
from games.models import (
    MOVE_TIME_CHOICES,
    NOTICE_HOUR,
    NOTICE_QUARTER,
    NOTICE_YOUR_MOVE,
    Match,
    MatchStatus,
    Seat,
)
from games.services.refusals import ActionRefused
from plumbing import inputs, realtime

log = logging.getLogger(__name__)

# The fields a turn-based table's write saves beside the deadline (``write.Write.save`` adds them).
TURN_FIELDS = ("turn_seat", "turn_deadline", "turn_notices")
HOUR = timedelta(hours=1)


def parse_move_time(value) -> int:
    """A time per move from a form or a caller: 0 (real time) or one of ``MOVE_TIME_CHOICES``, written
    in ASCII digits; anything else (``"²"``, Arabic-Indic digits, ``"86400.0"``, ``10**100``) refused."""
    try:
        seconds = inputs.parse_int(value, lo=0, hi=max(MOVE_TIME_CHOICES))
    except inputs.BadInput:
        seconds = -1
    if seconds != 0 and seconds not in MOVE_TIME_CHOICES:
        raise ActionRefused("bad_move_time", _("Choose a time per move of 1 hour, 12 hours, 1 day or 3 days."))
    return seconds


def reminder_times(match: Match) -> list[tuple[int, datetime]]:
    """The turn's reminders (NOTICE_* bit, when), earliest first: at a quarter of the time left, and an
    hour before the deadline; one that would fall at the turn's start or before it is none (at 1 h per
    move the hour's reminder is the turn itself)."""
    deadline = match.turn_deadline
    if deadline is None or not match.move_time:
        return []
    start = deadline - timedelta(seconds=match.move_time)
    times = [(NOTICE_QUARTER, deadline - timedelta(seconds=match.move_time / 4)), (NOTICE_HOUR, deadline - HOUR)]
    return sorted(((bit, at) for bit, at in times if at > start), key=lambda t: t[1])


def next_due(match: Match) -> datetime | None:
    """When the clock must next look at this turn: its first unsent reminder, else its deadline."""
    for bit, at in reminder_times(match):
        if not match.turn_notices & bit:
            return min(at, match.turn_deadline)
    return match.turn_deadline


def plan_turn(match: Match, seat: Seat | None, started: datetime) -> None:
    """Set a turn-based match's turn fields and its ``deadline`` for the seat to act now.

    ``seat``: the human (not on autopilot) to act, or None (a bot's move, between rounds, the end).
    A new turn (another seat, or another start) starts with no notice sent; ``your_move`` goes out
    once per turn, after the commit.  The lobby's "your move" lists hear of any change of turn.
    """
    before = (match.turn_seat, match.turn_deadline)
    if seat is None:
        match.turn_seat = match.turn_deadline = None
        match.turn_notices = 0
    else:
        deadline = started + timedelta(seconds=match.move_time)
        if before != (seat.index, deadline):
            match.turn_notices = 0
        match.turn_seat, match.turn_deadline = seat.index, deadline
        if not match.turn_notices & NOTICE_YOUR_MOVE:
            match.turn_notices |= NOTICE_YOUR_MOVE
            _on_commit_send_your_move(match.pk, seat.user_id, deadline)
        match.deadline = next_due(match)
    if before != (match.turn_seat, match.turn_deadline):
        realtime.broadcast_on_commit(realtime.LOBBY_GROUP, {"type": "lobby.changed", "id": match.pk})


def remind(match: Match, user_id: int, now: datetime) -> bool:
    """The clock at a reminder's time (before the turn's deadline): send the reminder due, mark every
    reminder whose time has passed as sent (after a long stop the latest one only goes out: one
    notice, not a burst), and set the next deadline.  True if a reminder was sent."""
    due = [(bit, at) for bit, at in reminder_times(match) if at <= now and not match.turn_notices & bit]
    for bit, _at in due:
        match.turn_notices |= bit
    match.deadline = next_due(match)
    if not due:
        return False
    deadline = match.turn_deadline
    _on_commit(
        signals.move_reminder,
        match.pk,
        user_id=user_id,
        deadline=deadline,
        left=max(deadline - now, timedelta(0)),
    )
    return True


def _on_commit_send_your_move(match_id: int, user_id: int, deadline: datetime) -> None:
    _on_commit(signals.your_move, match_id, user_id=user_id, deadline=deadline, turn_based=True)


def _on_commit(signal, match_id: int, **kwargs) -> None:
    """Send ``signal`` once the transaction commits (a rolled-back step sends nothing); a receiver's
    failure is logged, never raised into the move or the clock."""

    def send() -> None:
        for receiver, result in signal.send_robust(sender=Match, match_id=match_id, **kwargs):
            if isinstance(result, Exception):
                name = getattr(receiver, "__name__", receiver)
                log.error("%s failed for match %s", name, match_id, exc_info=result)

    transaction.on_commit(send)


# ----------------------------------------------------------------------- the cap

ACTIVE = (MatchStatus.OPEN, MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS)


def turn_based_games(user) -> int:
    """How many turn-based tables ``user`` sits at that are not over (open ones count: they will start)."""
    return Seat.objects.filter(user=user, match__move_time__gt=0, match__status__in=ACTIVE).count()


def check_cap(user, *, joining: int = 1) -> None:
    """Refuse (``too_many_turn_based``) a seat at one more turn-based table beyond
    ``RUMMYHUB_TURN_BASED_MAX`` (rummyhub/settings.py says why its default)."""
    cap = settings.RUMMYHUB_TURN_BASED_MAX
    if turn_based_games(user) + joining > cap:
        raise ActionRefused(
            "too_many_turn_based",
            ngettext(
                "You already play %(n)d turn-based game: finish it before you start another.",
                "You already play %(n)d turn-based games, the most one player may: finish one before you start "
                "another.",
                cap,
            )
            % {"n": cap},
        )
