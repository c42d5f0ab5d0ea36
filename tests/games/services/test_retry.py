"""Transient database failures are retried (games/services/retry.py): a failed attempt rolled back and
changed nothing."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, transaction

from games import services
from games.models import Event, Match
from tests.games.services.support import current_state, started_match

pytestmark = pytest.mark.django_db


class _LockNotAvailable(Exception):
    sqlstate = "55P03"


def _db_error(message: str, cause: Exception | None = None):
    error = OperationalError(message)
    error.__cause__ = cause
    return error


def test_with_retry_runs_a_service_again_after_a_transient_failure_only(transactional_db):
    calls: list[int] = []

    def flaky(*, fail: int, error):
        calls.append(1)
        if len(calls) <= fail:
            raise error
        return "done"

    transient = _db_error("canceling statement due to lock timeout", _LockNotAvailable())
    assert services.with_retry(flaky, fail=2, error=transient) == "done"
    assert len(calls) == 3
    calls.clear()
    with pytest.raises(type(transient)):  # three failures in a row: the third one is raised
        services.with_retry(flaky, fail=3, error=transient)
    assert len(calls) == services.RETRY_ATTEMPTS
    calls.clear()
    with pytest.raises(type(transient)):  # not transient (the server is gone): raised at once
        services.with_retry(flaky, fail=1, error=_db_error("server closed the connection unexpectedly"))
    assert len(calls) == 1
    calls.clear()
    assert services.with_retry(flaky, fail=1, error=_db_error("database is locked")) == "done"  # SQLite
    assert len(calls) == 2
    calls.clear()
    with pytest.raises(type(transient)), transaction.atomic():  # inside an outer transaction: never
        services.with_retry(flaky, fail=1, error=transient)
    assert len(calls) == 1
    with pytest.raises(services.ActionRefused):  # a refusal is an answer, not a failure
        services.with_retry(services.seat_leave, match_id=10**9, user=None)


def test_a_move_that_waited_too_long_for_the_table_lock_is_run_again(alice, bob, settings, transactional_db):
    """A real lock wait cut short (PostgreSQL's lock_timeout) rolls back; the retry applies the move once."""
    if connection.vendor != "postgresql":
        pytest.skip("lock_timeout is PostgreSQL's; SQLite's busy timeout is covered above")
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    mover = current_state(match).seat_to_act
    user = alice if mover == 0 else bob
    locked, release = threading.Event(), threading.Event()

    def hold_the_table():
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_table)
    holder.start()
    assert locked.wait(10)
    attempts: list[str] = []

    def submit(**kwargs):
        if attempts:  # the second attempt: the other transaction has ended meanwhile
            release.set()
            holder.join()
        attempts.append("try")
        return services.turn_submit(**kwargs)

    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '100ms'")
    try:
        services.with_retry(
            submit, match_id=match.pk, user=user, action={"type": "draw"}, expected_version=match.version
        )
    finally:
        release.set()
        holder.join()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert attempts == ["try", "try"]
    assert Event.objects.filter(match=match, kind="action").count() == 1
    assert Match.objects.get(pk=match.pk).version == match.version + 1
