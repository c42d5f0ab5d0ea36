"""The private write path every service shares: lock the match, check the version, apply the
engine, append events, save and bump the version (the one place that does), publish after commit
(:func:`writing` and :class:`Write`); and when the next automatic step is due (:func:`schedule_next_step`)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import store
from games.engine import shuffle
from games.models import (
    DISCONNECT_GRACE,
    READY_TIMEOUT,
    DealSeed,
    Event,
    Match,
    MatchStatus,
    Seat,
)
from games.services.refusals import ActionRefused, StaleVersion
from games.services.retry import MIN_LOCK_WAIT
from games.services.turnbased import TURN_FIELDS, plan_turn
from games.variants import spec_for
from games.versions import committed, gate
from plumbing import inputs, realtime


def _locked(match_id: int, *, seats_since=None) -> tuple[Match, list[Seat] | None]:
    """The match row, locked until the transaction ends (``SELECT ... FOR UPDATE``), and with
    ``seats_since`` its seats (``store.seats_of``), read in the same round trip.

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
    if seats_since is None:
        match, seats = store.locked_match(pk, lock_timeout=wait), None
    else:
        match, seats = store.locked_match_and_seats(pk, lock_timeout=wait, online_since=seats_since)
    if match is None:
        raise ActionRefused("no_table", _("There is no such table."))
    return match, seats


def _check_version(match: Match, expected_version: Any) -> None:
    """Every move names the version of the table it was made on: a second copy of it (a double
    click, a retry, a flood) finds a newer version and is refused, so a move is never played twice.

    The versions after ``match.play_version`` changed only the deadline as sockets came and went (the
    page of a player who moves before their socket opened was drawn before it): a move made on one of
    them is made on the same table, and is played."""
    try:
        expected = inputs.parse_int(expected_version, lo=0, hi=2**31 - 1)
    except inputs.BadInput:
        raise ActionRefused("bad_version", _("The request carried no valid table version.")) from None
    if not match.play_version <= expected <= match.version:
        raise StaleVersion(match.version)


def seats_in_order(match: Match) -> list[Seat]:
    """The match's seats in seat order, each with its user (one query)."""
    return list(Seat.objects.filter(match=match).select_related("user").order_by("index"))


def seat_of(match: Match, user) -> Seat | None:
    """The seat ``user`` holds at ``match``, or None (a spectator, or signed out)."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(match=match, user=user).first()


def own_seat(match: Match, user, seats: list[Seat] | None = None) -> Seat:
    """The user's seat at this match (from ``seats`` when the caller has read them); refused for anyone without one."""
    if seats is None:
        seat = seat_of(match, user)
    else:
        seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise ActionRefused("not_seated", _("You have no seat at this table."))
    return seat


def _bump(match: Match, *fields: str, presence: bool = False, events: list[Event] = ()) -> None:
    """Save a new version of the match (with the log's new ``events``); ``Write.save`` tells who needs
    to know once the transaction commits.

    ``presence``: the version only moves the deadline because a seat came or went; it makes no move
    made on the versions before it stale (``Match.play_version`` stays).
    """
    match.version += 1
    if not presence:
        match.play_version = match.version
        fields = (*fields, "play_version")
    store.update(match, ["version", "event_seq", *fields], inserting=events)


_UNREAD = object()
ANY_VERSION = object()  # ``writing(..., expected_version=ANY_VERSION)``: the caller's change is not a move


class Write:
    """One match being changed, locked until the transaction ends: what the change read and did.

    Every service that changes a match goes through one (:func:`writing`; the clock wraps the
    match it claimed).  The seats (with who is online) and the round's engine state are read at
    most once however many steps ask for them; events are appended with :meth:`event`; the
    engine state after a move is set with :meth:`set_state`.  :meth:`save` stores the new version
    (``_bump``) and publishes it after the commit with what it holds (``games.versions.committed``:
    the seats read under the lock and the state when it has them, the events it appended); what
    this process does with it is the live layer's business.  A seat row written directly goes through :meth:`update_seat`, or
    :meth:`seats_changed` when many are: what is held stays the truth of the new version.
    """

    __slots__ = ("match", "spec", "now", "events", "seats_in_order", "_state", "_seats_stale")

    def __init__(self, match: Match, *, now=None, seats: list[Seat] | None = None):
        self.match = match
        self.spec = spec_for(match.variant)
        self.now = now or timezone.now()
        self.events: list[Event] = []
        self.seats_in_order: list[Seat] | None = seats  # read with the match (``writing(seats=True)``), or when asked
        self._state: Any = _UNREAD
        self._seats_stale = False

    @property
    def seats(self) -> list[Seat]:
        """The match's seats in order, each with ``online`` (``store.seats_of``), read once."""
        if self.seats_in_order is None:
            self.seats_in_order = store.seats_of(self.match.pk, online_since=store.presence_cutoff(self.now))
        return self.seats_in_order

    def seat(self, index: int) -> Seat | None:
        """The seat at ``index`` (None if the match has none there)."""
        return next((s for s in self.seats if s.index == index), None)

    def update_seat(self, seat: Seat, **fields) -> None:
        """Write these fields of one seat row, and keep the held seat the same."""
        Seat.objects.filter(pk=seat.pk).update(**fields)
        for name, value in fields.items():
            setattr(seat, name, value)

    def seats_changed(self) -> None:
        """Seat rows were written directly: read them again when asked; no hand-off to the cache."""
        self.seats_in_order, self._seats_stale = None, True

    @property
    def state(self) -> Any:
        """The engine state of the round in play (``match.state["round"]``), parsed once; None if none."""
        if self._state is _UNREAD:
            stored = self.match.state.get("round")
            self._state = self.spec.load(stored) if stored else None
        return self._state

    def set_state(self, state: Any) -> None:
        """The round's engine state after a move or a deal (stored with the match at :meth:`save`)."""
        self._state = state
        self.match.state = {**self.match.state, "round": self.spec.dump(state)}

    def event(self, *, kind: str, seat: int | None, action: dict, summary: dict, by_bot=False) -> Event:
        """Append one entry to the match's log: written with the new version (:meth:`save`, in the
        same round trip on PostgreSQL); the row is locked, so its number is the next."""
        match = self.match
        match.event_seq += 1
        event = Event(
            match=match,
            seq=match.event_seq,
            round_number=match.round_number,
            seat=seat,
            kind=kind,
            action=action,
            summary=summary,
            by_bot=by_bot,
        )
        self.events.append(event)
        return event

    def save(self, *fields: str, presence: bool = False) -> None:
        """Store the new version (these fields with it); once the transaction commits, publish it
        (``games.versions.committed``, with the seats and the state when this write holds them), then
        tell the table's sockets.

        ``presence``: all that changed is the deadline, because a seat's sockets came or went (``_bump``).
        """
        match = self.match
        if match.move_time and "deadline" in fields:
            fields = (*fields, *TURN_FIELDS)  # a turn-based table's deadline comes with its turn
        events, self.events = self.events, []  # the next save (a second move in one step) has its own
        whole = self.seats_in_order is not None and not self._seats_stale and self._state not in (_UNREAD, None)
        news = committed.Committed(
            match=match,
            seats=list(self.seats_in_order) if whole else None,
            state=self._state if whole else None,
            events=events,
        )
        _bump(match, *fields, presence=presence, events=events)
        version = match.version
        # Published first, then the table's sockets told (commit hooks run in the order they are added):
        # a push of the version in this process then finds what this write holds kept already, rather
        # than racing it to a load of its own.  A later save of this match in the same transaction made
        # a newer version: this one is not its to publish.
        transaction.on_commit(lambda: match.version == version and committed.publish(news))
        realtime.broadcast_on_commit(
            realtime.table_group(match.pk), {"type": "table.changed", "id": match.pk, "version": version}
        )


@contextmanager
def writing(match_id: int, *, expected_version: Any = ANY_VERSION, now=None, seats: bool = False) -> Iterator[Write]:
    """Lock the match (``_locked``), check the version a move was made on, and yield its :class:`Write`.

    The whole block is one transaction: a refusal raised in it changes nothing and publishes nothing.
    ``seats``: the block reads the seats before it writes any (a move: whose seat it is), so they
    are read with the match, in its round trip.  A block that writes seat rows before it reads
    them leaves it False (``Write.seats`` then reads them when first asked).
    """
    with transaction.atomic():
        now = now or timezone.now()
        match, held = _locked(match_id, seats_since=store.presence_cutoff(now) if seats else None)
        write = Write(match, now=now, seats=held)
        if expected_version is not ANY_VERSION:
            _check_version(write.match, expected_version)
        yield write
        if write.events:
            raise RuntimeError("log entries appended without a save of the match")  # a bug: they would be lost


def lobby_changed(match: Match) -> None:
    """Tell the lobby's sockets, after commit, that this table's line changed."""
    realtime.broadcast_on_commit(realtime.LOBBY_GROUP, {"type": "lobby.changed", "id": match.pk})


def new_round_seed(number: int) -> str:
    """A new round's seed (``shuffle.CURRENT``): 256 fresh random bits, or, with
    ``RUMMYHUB_FIXED_SEED`` (tests and demos only), :func:`fixed_seed`."""
    fixed = str(getattr(settings, "RUMMYHUB_FIXED_SEED", "")).strip()
    return fixed_seed(fixed, number) if fixed else shuffle.new_seed()


def shared_seed(deal_set_id: int, number: int) -> str:
    """Deal ``number`` of a duplicate round (``Match.deal_set``): the one seed every table of the set
    deals it from, written by the first table to deal it (two tables dealing at once get one row)."""
    fixed = str(getattr(settings, "RUMMYHUB_FIXED_SEED", "")).strip()
    fresh = fixed_seed(f"{fixed}|deals {deal_set_id}", number) if fixed else shuffle.new_seed()
    row, _created = DealSeed.objects.get_or_create(deal_set_id=deal_set_id, number=number, defaults={"seed": fresh})
    return row.seed


def fixed_seed(fixed: str, number: int) -> str:
    """Round ``number``'s seed under ``RUMMYHUB_FIXED_SEED = fixed``: a hash of both (not secret)."""
    return hashlib.sha256(f"rummyhub-fixed-seed|{fixed}|{number}".encode()).hexdigest()


def host_only(match: Match, user) -> None:
    """Refuse (``not_host``) unless ``user`` is the table's host."""
    if match.host_id != getattr(user, "pk", None):
        raise ActionRefused("not_host", _("Only the host of the table can do that."))


def must_be_open(match: Match) -> None:
    """Refuse (``already_started``) unless the table still waits for players."""
    if match.status != MatchStatus.OPEN:
        raise ActionRefused("already_started", _("This table has already started."))


def match_rules(match: Match):
    """The engine's rules for this match: its variant, options and number of seats."""
    return spec_for(match.variant).rules(match.options, match.seats_count)


def presence_changed(match: Match, seat: Seat, online: bool) -> None:
    """Only the seat's online dot changes: a small ``table.presence``, no version bump, so a
    connecting crowd does not make every seat re-render its board."""
    realtime.broadcast_on_commit(
        realtime.table_group(match.pk),
        {"type": "table.presence", "id": match.pk, "seat": seat.index, "online": online},
    )


def schedule_next_step(write: Write) -> None:
    """Set ``match.deadline``: when the next automatic step (bot, timer, next round; at a turn-based
    table also a reminder, ``turnbased.plan_turn``) is due."""
    match = write.match
    now = timezone.now()
    match.deadline = None
    human = _schedule(write, now)
    if match.move_time:
        plan_turn(match, human, match.turn_started_at or now)


def _schedule(write: Write, now) -> Seat | None:
    """``schedule_next_step`` but a turn-based table's turn; the human seat to act, if any."""
    match = write.match
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        humans = Seat.objects.filter(match=match, user__isnull=False, autopilot=False).exists()
        match.deadline = now + timedelta(seconds=READY_TIMEOUT if humans else settings.RUMMYHUB_BOT_DELAY)
        return None
    if match.status != MatchStatus.PLAYING or write.state is None:
        return None
    acting = write.spec.acting_seats(write.state)
    if not acting:
        return None
    seat = write.seat(acting[0])
    if seat is None:
        return None
    started = match.turn_started_at or now
    if seat.is_bot or seat.autopilot:
        # Bots play at once at a turn-based table: nobody there watches their moves go by.
        match.deadline = now + timedelta(seconds=0 if match.move_time else settings.RUMMYHUB_BOT_DELAY)
    elif match.move_time:
        return seat  # its deadline and reminders: turnbased.plan_turn; being away is normal there
    elif match.turn_timer:
        match.deadline = started + timedelta(seconds=match.turn_timer)
    elif not store.is_connected(seat, now):
        match.deadline = max(started, seat.last_seen or started) + timedelta(seconds=DISCONNECT_GRACE)
    return None
