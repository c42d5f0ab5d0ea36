"""The clock's steps (games/services/clock.py): a turn timer's expiry, and each match isolated: one failing
step never stops the other tables (docs/architecture.md).

A step that raises is logged with its match id and put off (exponential back-off recorded in the
match's ``state["clock"]``, then held with no deadline after ``CLOCK_MAX_FAILURES``); a transient
database failure only waits for the next tick; the other due matches run.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.db import DataError, OperationalError
from django.utils import timezone

from games import services
from games.engine.errors import InvalidAction
from games.models import Match, MatchStatus, Seat
from games.services import turns, write
from tests.games.services.support import current_state, started_match

pytestmark = pytest.mark.django_db


def bot_table(host, *, seats: int = 2, late: float = 0.0) -> Match:
    """A started Manipulation table with a bot in every seat, due ``late`` seconds ago."""
    match = services.match_create(host=host, variant="manipulation", seats_count=seats, bots=seats - 1)
    services.match_start(match_id=match.pk, user=host)
    Seat.objects.filter(match=match, index=0).update(user=None, bot_policy="basic", bot_name="Host bot")
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=late))
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def tables(make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "7"
    settings.RUMMYHUB_BOT_DELAY = 0
    # The poisoned table is the most overdue: it comes first in deadline order.
    return bot_table(make_user("alice"), late=10), bot_table(make_user("bob"), late=5)


def poison(monkeypatch, match: Match, error: BaseException) -> list[int]:
    """Every step of ``match`` raises ``error`` (as a close overflowing a score column did); returns the attempts."""
    attempts: list[int] = []
    real_apply = turns.apply_action

    def apply(w, *args, **kwargs):
        if w.match.pk == match.pk:
            attempts.append(w.match.pk)
            raise error
        return real_apply(w, *args, **kwargs)

    monkeypatch.setattr(turns, "apply_action", apply)
    return attempts


@pytest.mark.parametrize(
    "error",
    [
        DataError("integer out of range"),
        ValueError("bad score"),
        OverflowError("Python int too large to convert to SQLite INTEGER"),
    ],
    ids=["DataError", "ValueError", "OverflowError"],
)
def test_a_failing_match_does_not_stop_the_other_tables(tables, monkeypatch, caplog, error):
    poisoned, healthy = tables
    attempts = poison(monkeypatch, poisoned, error)
    versions = [healthy.version]
    with caplog.at_level(logging.ERROR, logger="games.services"):
        for _tick in range(4):
            services.tick_due(now=timezone.now(), limit=1)  # one step per tick: the first due match only
            versions.append(Match.objects.get(pk=healthy.pk).version)
    # The first tick met the poisoned match; each later one moved the healthy table's bot.
    assert versions[1] == versions[0]
    assert versions[1] < versions[2] < versions[3] < versions[4]
    assert attempts == [poisoned.pk]  # put off: it no longer comes first every tick
    after = Match.objects.get(pk=poisoned.pk)
    assert after.version == poisoned.version and after.status == MatchStatus.PLAYING
    assert after.deadline > timezone.now()
    assert after.state["clock"]["failures"] == 1
    assert type(error).__name__ in after.state["clock"]["error"]
    assert any(f"match {poisoned.pk}" in r.getMessage() and r.exc_info for r in caplog.records)


def test_a_score_that_overflows_its_column_in_the_database_is_isolated(tables, monkeypatch):
    """A real write the database refuses (PostgreSQL: integer out of range, which aborts the
    transaction; SQLite: too large for an INTEGER) inside the step, then the other table moves."""
    poisoned, healthy = tables
    real_apply = turns.apply_action

    def apply(w, *args, **kwargs):
        if w.match.pk == poisoned.pk:  # as a close writing a final total from a huge game_bonus did
            Seat.objects.filter(match=w.match).update(final_total=2**70)
        return real_apply(w, *args, **kwargs)

    monkeypatch.setattr(turns, "apply_action", apply)
    assert services.tick_due(now=timezone.now()) == 1
    after = Match.objects.get(pk=poisoned.pk)
    assert after.state["clock"]["failures"] == 1 and after.deadline > timezone.now()
    assert not Seat.objects.filter(match=poisoned, final_total__isnull=False).exists()  # rolled back
    assert Match.objects.get(pk=healthy.pk).version == healthy.version + 1


def test_every_due_match_runs_in_one_tick_despite_a_failure(tables, monkeypatch):
    poisoned, healthy = tables
    poison(monkeypatch, poisoned, DataError("integer out of range"))
    assert services.tick_due(now=timezone.now()) == 1  # the healthy one's step; the failure does not count
    assert Match.objects.get(pk=healthy.pk).version == healthy.version + 1


def test_repeated_failures_back_off_exponentially_then_hold_the_match(tables, monkeypatch):
    poisoned, _healthy = tables
    attempts = poison(monkeypatch, poisoned, DataError("integer out of range"))
    delays = []
    for failures in range(1, services.CLOCK_MAX_FAILURES + 1):
        now = Match.objects.get(pk=poisoned.pk).deadline + timedelta(milliseconds=1)
        services.tick_due(now=now)
        after = Match.objects.get(pk=poisoned.pk)
        assert after.state["clock"]["failures"] == failures
        if after.deadline is not None:
            delays.append((after.deadline - now).total_seconds())
    assert len(attempts) == services.CLOCK_MAX_FAILURES
    assert delays[0] == services.CLOCK_BACKOFF
    assert all(b == min(2 * a, services.CLOCK_BACKOFF_MAX) for a, b in zip(delays, delays[1:], strict=False))
    # Held: no deadline, so no clock picks it again; staff see it in the admin and end it.
    held = Match.objects.get(pk=poisoned.pk)
    assert held.deadline is None and held.status == MatchStatus.PLAYING
    assert held.state["clock"]["held"] is True
    assert services.tick_due(now=timezone.now() + timedelta(days=1)) >= 0
    assert len(attempts) == services.CLOCK_MAX_FAILURES


def test_a_good_step_clears_the_failure_record(tables, monkeypatch):
    poisoned, _healthy = tables
    poison(monkeypatch, poisoned, ValueError("bad score"))
    services.tick_due(now=timezone.now())
    assert Match.objects.get(pk=poisoned.pk).state["clock"]["failures"] == 1
    monkeypatch.undo()
    due = Match.objects.get(pk=poisoned.pk).deadline
    assert services.tick_due(now=due) >= 1
    after = Match.objects.get(pk=poisoned.pk)
    assert after.version == poisoned.version + 1
    assert "clock" not in after.state


def test_a_transient_database_failure_waits_only_for_the_next_tick(tables, monkeypatch, settings, caplog):
    poisoned, healthy = tables
    poison(monkeypatch, poisoned, OperationalError("database is locked"))
    now = timezone.now()
    with caplog.at_level(logging.WARNING, logger="games.services"):
        assert services.tick_due(now=now) == 1
    after = Match.objects.get(pk=poisoned.pk)
    assert "clock" not in after.state  # not counted as a failure
    assert now < after.deadline <= now + timedelta(seconds=settings.RUMMYHUB_CLOCK_INTERVAL)
    assert any(f"match {poisoned.pk}" in r.getMessage() for r in caplog.records)
    assert Match.objects.get(pk=healthy.pk).version == healthy.version + 1


def test_a_refused_bot_move_holds_the_match_at_once(tables, monkeypatch):
    """A RulesError is deterministic (the bot's move is seeded by the version): no point in retrying."""
    poisoned, healthy = tables
    poison(monkeypatch, poisoned, InvalidAction("no such card", code="bad_card"))
    assert services.tick_due(now=timezone.now()) == 1
    held = Match.objects.get(pk=poisoned.pk)
    assert held.deadline is None and held.state["clock"]["held"] is True
    assert "bad_card" in held.state["clock"]["error"] or "no such card" in held.state["clock"]["error"]
    assert Match.objects.get(pk=healthy.pk).version == healthy.version + 1


def test_match_tick_still_raises_for_its_direct_callers(tables, monkeypatch):
    """Tests and demos call ``match_tick`` directly and want to see the error."""
    poisoned, _healthy = tables
    poison(monkeypatch, poisoned, DataError("integer out of range"))
    with pytest.raises(DataError):
        services.match_tick(match_id=poisoned.pk)


def test_timer_expiry_plays_compulsory_draws_and_autopilot_after_three(alice, bob, settings):
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    Match.objects.filter(pk=match.pk).update(turn_timer=30)
    for missed in range(1, 4):
        match.refresh_from_db()
        write.schedule_next_step(write.Write(match))
        match.save(update_fields=["deadline"])
        state = current_state(match)
        mover = state.seat_to_act
        hand_before = len(state.hands[mover])
        assert services.match_tick(match_id=match.pk, now=timezone.now() + timedelta(seconds=31))
        after = current_state(match)
        assert after.seat_to_act != mover or after.phase == "over"
        assert len(after.hands[mover]) == hand_before + 3  # three compulsory draws, no meld (B.5)
        seat = Seat.objects.get(match=match, index=mover)
        if missed < 3 and mover == 0:
            assert not seat.autopilot
