"""The automatic steps (bots, timers, next rounds): claimed one at a time, each isolated from the others."""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

import games.services.rounds as rounds
import games.services.turns as turns
from games import store
from games.engine.errors import RulesError
from games.models import (
    MISSED_TURNS_FOR_AUTOPILOT,
    Match,
    MatchStatus,
    Seat,
)
from games.services.retry import is_transient
from games.services.turnbased import TURN_FIELDS, remind
from games.services.write import Write, match_rules
from games.variants import spec_for

log = logging.getLogger(__name__)


# What the clock does with a step that fails (docs/architecture.md, "Bots, timers and the clock").
CLOCK_STATUSES = (MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS)
CLOCK_BACKOFF = 2.0  # seconds a failed step is put off the first time; doubled at every failure in a row
CLOCK_BACKOFF_MAX = 300.0
CLOCK_MAX_FAILURES = 8  # then the match is held (no deadline) until a step succeeds or staff end it


@dataclass(frozen=True, slots=True)
class ClockStep:
    """One step the clock took: the match, when it was due, when the clock took it, what came of it.

    ``outcome``: "done" (a move or a deal), "nothing" (no longer due, nobody to act), "deferred"
    (a transient database failure: the next tick tries again), "failed" (put off, see
    ``CLOCK_BACKOFF``) or "held" (no deadline any more).
    """

    match_id: int
    deadline: Any  # datetime
    started: Any  # datetime
    outcome: str
    seconds: float

    @property
    def late(self) -> float:
        """Seconds between the deadline and the moment the clock took the step."""
        return (self.started - self.deadline).total_seconds()


def match_tick(*, match_id: int, now=None) -> bool:
    """Do the automatic step of a match if it is due; True if something happened.

    A failure of the step is raised to the caller (tests, demos); the clock goes through
    :func:`clock_step`, which isolates it.
    """
    now = now or timezone.now()
    with transaction.atomic():
        match = store.locked_match(match_id)
        if match is None or match.deadline is None or match.deadline > now:
            return False
        return _step(Write(match, now=now), now)


def _step(write: Write, now) -> bool:
    """The automatic step of a locked, due match; True if something happened."""
    match, spec = write.match, write.spec
    cleared = "clock" in match.state  # an earlier failure: this attempt succeeds (record gone) or rolls back
    if cleared:
        match.state = {k: v for k, v in match.state.items() if k != "clock"}
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        rounds.deal_round(write, match_rules(match))
        return True
    state = write.state if match.status == MatchStatus.PLAYING else None
    acting = spec.acting_seats(state) if state is not None else ()
    if not acting:
        match.deadline = None
        match.save(update_fields=["deadline", "state"] if cleared else ["deadline"])
        return False
    seat = write.seat(acting[0])
    if seat.is_bot or seat.autopilot:
        rng = random.Random(f"{match.seed}:{match.version}")
        action, after = spec.bot_move(state, seat.index, seat.bot_policy or "basic", rng)
        turns.apply_action(write, seat.index, action, by_bot=True, after=after)
        return True
    if match.move_time and match.turn_deadline is not None and now < match.turn_deadline:
        # A turn-based table before the turn's deadline: a reminder is due.  Nothing on the board
        # changes (no new version); the notice is stored with the next deadline, so none is sent twice.
        sent = remind(match, seat.user_id, now)
        match.save(update_fields=["deadline", *TURN_FIELDS, *(["state"] if cleared else [])])
        return sent
    # A human's time ran out (timer, turn-based deadline, or gone without a timer): compulsory moves only, each its own
    # version; the missed turn is counted first, so the board of each shows it.
    match.draft = None
    missed = seat.missed_turns + 1
    write.update_seat(seat, missed_turns=missed, autopilot=missed >= MISSED_TURNS_FOR_AUTOPILOT)
    for action in spec.timeout_actions(state, seat.index):
        turns.apply_action(write, seat.index, action, by_bot=False)
        if match.status != MatchStatus.PLAYING:
            break
    return True


def _claim_due(now, exclude) -> Match | None:
    """The most overdue match that no other transaction holds, locked (``FOR UPDATE SKIP LOCKED``).

    A match locked by a player's move or by another clock (worker or process) is skipped, not
    waited for.  SQLite has no row locks: its transactions take the database's one write lock at
    their start (``transaction_mode=IMMEDIATE``), so a clock there runs one step at a time.
    """
    return store.claim_due(now, CLOCK_STATUSES, exclude)


def clock_step(*, now=None, exclude=(), on_claim=None) -> ClockStep | None:
    """Claim the most overdue match and do its automatic step; None when nothing is due.

    Each process's clock runs this on a few threads at once (``games.live.clockloop``).  The step runs in a
    savepoint of the claiming transaction: if it raises, only the step is rolled back, and the match,
    still locked (no other clock can take it meanwhile), is put off there (:func:`_put_off`).  Any
    failure of one match ends here, logged with its id; the caller's next call takes the next match.
    ``exclude``: ids to leave alone (``tick_due`` steps each match once per call); ``on_claim()``
    is called once a match is claimed, before its step (the clock starts another worker then).
    """
    now = now or timezone.now()
    claimed = None
    try:
        with transaction.atomic():
            match = _claim_due(now, exclude)
            if match is None:
                return None
            claimed = (match.pk, match.deadline, match.version, timezone.now())
            if on_claim is not None:
                on_claim()
            try:
                with transaction.atomic():
                    outcome = "done" if _step(Write(match, now=now), now) else "nothing"
            except Exception as exc:
                outcome = _put_off(match.pk, match.version, now, exc)
    except Exception as exc:
        if claimed is None:
            raise  # the claim itself failed (the database is away): no match to blame; the caller logs it
        # The commit, or the failure record itself, failed: try once more in a transaction of its own.
        try:
            with transaction.atomic():
                outcome = _put_off(claimed[0], claimed[2], now, exc)
        except Exception:
            log.exception("automatic step of match %s failed and could not be put off", claimed[0])
            outcome = "failed"
    match_id, deadline, _version, started = claimed
    return ClockStep(
        match_id=match_id,
        deadline=deadline,
        started=started,
        outcome=outcome,
        seconds=(timezone.now() - started).total_seconds(),
    )


def _put_off(match_id: int, version: int, now, exc: BaseException) -> str:
    """A step of this match raised ``exc`` (its changes rolled back): put its deadline off.

    A transient database failure waits for the next tick only.  Any other failure is counted in
    the match's ``state["clock"]`` (``failures``, ``error``, ``at``, ``held``; shown in the admin)
    and puts the step off ``CLOCK_BACKOFF`` seconds, doubled at each failure in a row, up to
    ``CLOCK_BACKOFF_MAX``; after ``CLOCK_MAX_FAILURES`` (at once for a move the engine refuses,
    which would be refused again) the match is held: no deadline.  A player's move sets a new
    deadline (one more try); a successful step drops the record.  No version bump: the players'
    table has not changed.
    """
    match = store.locked_match(match_id)
    if match is None or match.version != version:
        log.error("automatic step of match %s failed after it was saved", match_id, exc_info=exc)
        return "done"
    if is_transient(exc):
        log.warning("automatic step of match %s put off to the next tick: %s", match_id, exc)
        match.deadline = now + timedelta(seconds=settings.RUMMYHUB_CLOCK_INTERVAL)
        match.save(update_fields=["deadline"])
        return "deferred"
    record = match.state.get("clock") or {}
    failures = int(record.get("failures", 0)) + 1
    held = isinstance(exc, RulesError) or failures >= CLOCK_MAX_FAILURES
    delay = min(CLOCK_BACKOFF * 2 ** (failures - 1), CLOCK_BACKOFF_MAX)
    match.state = {
        **match.state,
        "clock": {
            "failures": failures,
            "error": f"{type(exc).__name__}: {exc}"[:500],
            "at": now.isoformat(),
            "held": held,
        },
    }
    match.deadline = None if held else now + timedelta(seconds=delay)
    match.save(update_fields=["state", "deadline"])
    log.error(
        "automatic step of match %s failed (%d in a row); %s",
        match_id,
        failures,
        "held without a deadline" if held else f"put off {delay:g} s",
        exc_info=exc,
    )
    return "held" if held else "failed"


def tick_due(*, now=None, limit: int = 50) -> int:
    """Run the due automatic steps, each match at most once, most overdue first; how many did something.

    One match's failure never stops the others (:func:`clock_step`).  The server's clock runs
    :func:`clock_step` on several threads instead (``games.live.clockloop``); this is the same work, one
    step after another, for scripts and tests.
    """
    now = now or timezone.now()
    seen: list[int] = []
    done = 0
    while len(seen) < limit:
        step = clock_step(now=now, exclude=seen)
        if step is None:
            break
        seen.append(step.match_id)
        done += step.outcome == "done"
    return done


def pending_step(match: Match) -> str | None:
    """What the clock will do at the deadline: "deal", "bot", "timeout" (a human's time ran out) or None."""
    if match.deadline is None:
        return None
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        return "deal"
    if match.status != MatchStatus.PLAYING or not match.state.get("round"):
        return None
    spec = spec_for(match.variant)
    acting = spec.acting_seats(spec.load(match.state["round"]))
    if not acting:
        return None
    seat = Seat.objects.get(match=match, index=acting[0])
    return "bot" if seat.is_bot or seat.autopilot else "timeout"


def run_until_human(*, match_id: int, max_steps: int = 10_000, deal: bool = True) -> int:
    """Play the due automatic steps at once (tests, demos): bots move until a human must act.

    Stops before a human's turn times out; with ``deal`` it also deals the next
    round instead of waiting for the ready clicks.
    """
    steps = 0
    while steps < max_steps:
        match = Match.objects.get(pk=match_id)
        step = pending_step(match)
        if step is None or step == "timeout" or (step == "deal" and not deal):
            break
        if not match_tick(match_id=match_id, now=max(match.deadline, timezone.now())):
            break
        steps += 1
    return steps
