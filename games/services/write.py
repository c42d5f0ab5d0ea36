"""The private write path every service shares: lock the match, check the version, append events,
save and bump the version (the one place that does), publish after commit; and when the next
automatic step is due."""

from __future__ import annotations

import random
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import boardcache, gate, store
from games.models import (
    DISCONNECT_GRACE,
    READY_TIMEOUT,
    Event,
    Match,
    MatchStatus,
    Seat,
    new_seed,
)
from games.services.errors import ActionRefused, StaleVersion
from games.services.retry import MIN_LOCK_WAIT
from games.variants import spec_for
from rummyhub import inputs, realtime


def _locked(match_id: int) -> Match:
    """The match row, locked until the transaction ends (``SELECT ... FOR UPDATE``).

    The wait for it (and for any lock after it in the transaction) is bounded on PostgreSQL:
    ``RUMMYHUB_LOCK_TIMEOUT`` seconds, or what is left of the running command's budget.
    """
    try:
        pk = Match._meta.pk.get_prep_value(match_id)
    except (ValueError, TypeError):
        pk = None
    if not (isinstance(pk, int) and 0 < pk < 2**63):
        raise ActionRefused("no_table", _("There is no such table."))
    wait = settings.RUMMYHUB_LOCK_TIMEOUT
    deadline = gate.deadline()
    if deadline is not None:
        wait = max(MIN_LOCK_WAIT, min(wait, deadline - time.monotonic()))
    match = store.locked_match(pk, lock_timeout=wait)
    if match is None:
        raise ActionRefused("no_table", _("There is no such table."))
    return match


def _check_version(match: Match, expected_version: Any) -> None:
    """Every move names the version of the table it was made on: a second copy of it (a double
    click, a retry, a flood) finds a newer version and is refused, so a move is never played twice."""
    try:
        expected = inputs.parse_int(expected_version, lo=0, hi=2**31 - 1)
    except inputs.BadInput:
        raise ActionRefused("bad_version", _("The request carried no valid table version.")) from None
    if expected != match.version:
        raise StaleVersion(match.version)


def _seats(match: Match) -> list[Seat]:
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def _seat_of(match: Match, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(match=match, user=user).first()


def _own_seat(match: Match, user, seats: list[Seat] | None = None) -> Seat:
    """The user's seat at this match (from ``seats`` when the caller has read them); refused for anyone without one."""
    if seats is None:
        seat = _seat_of(match, user)
    else:
        seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise ActionRefused("not_seated", _("You have no seat at this table."))
    return seat


def _bump(match: Match, *fields: str, board: dict | None = None) -> None:
    """Save a new version of the match and tell its sockets once the transaction commits.

    ``board``: what the caller already holds of the new version (``seats`` read under the lock,
    the engine ``state``, the ``events`` it appended), handed to this process's board cache
    before the broadcast goes out, so the sockets here need not load that version again.
    """
    match.version += 1
    store.update(match, ["version", "event_seq", *fields])
    if board is not None:
        transaction.on_commit(lambda: boardcache.successor(match, **board))
    realtime.broadcast_on_commit(
        realtime.table_group(match.pk), {"type": "table.changed", "id": match.pk, "version": match.version}
    )


def _lobby_changed(match: Match) -> None:
    realtime.broadcast_on_commit(realtime.LOBBY_GROUP, {"type": "lobby.changed", "id": match.pk})


def _append_event(match: Match, *, kind: str, seat: int | None, action: dict, summary: dict, by_bot=False) -> Event:
    # The match row is locked, and every event is appended here and saved with the match (_bump).
    match.event_seq += 1
    return store.insert(Event(
        match=match,
        seq=match.event_seq,
        round_number=match.round_number,
        seat=seat,
        kind=kind,
        action=action,
        summary=summary,
        by_bot=by_bot,
    ))


def _rng_for_round(match: Match, number: int) -> tuple[int, random.Random]:
    fixed = getattr(settings, "RUMMYHUB_FIXED_SEED", "")
    seed = (int(fixed) * 1000 + number) if str(fixed).strip() else new_seed()
    return seed, random.Random(seed)


def _host_only(match: Match, user) -> None:
    if match.host_id != getattr(user, "pk", None):
        raise ActionRefused("not_host", _("Only the host of the table can do that."))


def _must_be_open(match: Match) -> None:
    if match.status != MatchStatus.OPEN:
        raise ActionRefused("already_started", _("This table has already started."))


def _rules(match: Match):
    return spec_for(match.variant).rules(match.options, match.seats_count)


def _presence_changed(match: Match, seat: Seat, online: bool) -> None:
    """Only the seat's online dot changes: a small ``table.presence``, no version bump, so a
    connecting crowd does not make every seat re-render its board."""
    realtime.broadcast_on_commit(
        realtime.table_group(match.pk),
        {"type": "table.presence", "id": match.pk, "seat": seat.index, "online": online},
    )


def _schedule(match: Match, spec, state=None, seats=None) -> None:
    """Set ``match.deadline``: when the next automatic step (bot, timer, next round) is due.

    ``state``: the engine state of ``match.state["round"]`` when the caller has it parsed already;
    ``seats``: the match's seats when the caller has read them in this transaction.
    """
    now = timezone.now()
    match.deadline = None
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        humans = Seat.objects.filter(match=match, user__isnull=False, autopilot=False).exists()
        match.deadline = now + timedelta(seconds=READY_TIMEOUT if humans else settings.RUMMYHUB_BOT_DELAY)
        return
    if match.status != MatchStatus.PLAYING or not match.state.get("round"):
        return
    if state is None:
        state = spec.load(match.state["round"])
    acting = spec.acting_seats(state)
    if not acting:
        return
    seat = next((s for s in seats or () if s.index == acting[0]), None) or Seat.objects.get(match=match, index=acting[0])
    started = match.turn_started_at or now
    if seat.is_bot or seat.autopilot:
        match.deadline = now + timedelta(seconds=settings.RUMMYHUB_BOT_DELAY)
    elif match.turn_timer:
        match.deadline = started + timedelta(seconds=match.turn_timer)
    elif not store.is_connected(seat, now):
        match.deadline = max(started, seat.last_seen or started) + timedelta(seconds=DISCONNECT_GRACE)
