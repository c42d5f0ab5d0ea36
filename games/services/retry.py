"""Transient database failures (serialization, deadlock, lock timeout) retried a bounded number of times."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import OperationalError, connection
from django.utils.translation import gettext as _

from games import store
from games.services.refusals import ActionRefused, StaleVersion, TableBusy
from games.versions import gate
from plumbing import inputs

log = logging.getLogger(__name__)

# A command that would have less time than this left for its row lock is refused instead.
MIN_LOCK_WAIT = 0.05


# PostgreSQL's "try again" failures: serialization_failure, deadlock_detected, lock_not_available.
TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
RETRY_ATTEMPTS = 3
RETRY_PAUSE = 0.02  # seconds before the second attempt; twice that before the third


def is_transient(exc: BaseException) -> bool:
    """A database failure that rolled the transaction back and may well pass if run again."""
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    if getattr(cause, "sqlstate", None) in TRANSIENT_SQLSTATES:
        return True
    return "database is locked" in str(exc)  # SQLite's busy timeout ran out


def is_pool_timeout(exc: BaseException) -> bool:
    """No pooled connection came within the pool's timeout (``DATABASE_POOL_TIMEOUT``): nothing was run."""
    if not isinstance(exc, OperationalError):
        return False
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # no psycopg_pool: no pool either
        return False
    return isinstance(exc.__cause__, PoolTimeout)


def with_retry(service, /, **kwargs):
    """Run one service; if a transient database failure (a deadlock, a lock wait cut short)
    rolled its transaction back, run it again, up to ``RETRY_ATTEMPTS`` times in all.

    Safe because every service is one transaction that checks the state (and the expected
    version) under the match lock: a failed attempt changed nothing.  Inside an outer
    transaction nothing is retried (the outer one is broken anyway).

    A person's command at a table (``match_id`` and ``user``: the page's forms and the table
    socket both come through here) is also bounded in time, so that it is answered quickly and a
    burst at one table cannot hold the process's connections:

    - it first takes the table's gate in this process (``games.versions.gate``; a socket's command has
      taken it on the event loop already): the commands behind it wait there, without a
      database connection, at most ``RUMMYHUB_LOCK_TIMEOUT`` seconds; one whose version is
      already stale is refused at once, without waiting;
    - its wait for the match row is bounded by what is left of ``RUMMYHUB_LOCK_BUDGET`` (at most
      ``RUMMYHUB_LOCK_TIMEOUT``; PostgreSQL's ``lock_timeout``, set in ``_locked``), and it is run
      again only while time is left;
    - a table still busy at the end is refused with ``table_busy``; a connection the pool could
      not give is refused with ``server_busy``.  Both are ``ActionRefused``: nothing changed.

    Anything else (the presence sweep, scripts) keeps the plain retries.
    """
    if "match_id" not in kwargs or "user" not in kwargs:
        return _attempts(service, kwargs, deadline=None)
    try:
        key = int(kwargs["match_id"])
    except (TypeError, ValueError):
        return service(**kwargs)  # no such table: the service refuses it

    def before_wait():
        # The gate is taken: a copy of a move already played needs no turn, and nobody waits
        # for the gate with a pooled connection in hand (a page's request has one by now).
        expected = kwargs.get("expected_version")
        if expected is not None:
            try:
                expected = inputs.parse_int(expected, lo=0, hi=2**31 - 1)
            except inputs.BadInput:
                expected = None  # the service refuses it
        current = store.match_version(key) if expected is not None and 0 < key < 2**63 else None
        if current is not None and expected < current:  # versions only grow: stale under the lock too
            raise StaleVersion(current)
        if not connection.in_atomic_block:
            connection.close()

    try:
        with gate.held(
            key, timeout=settings.RUMMYHUB_LOCK_TIMEOUT, budget=settings.RUMMYHUB_LOCK_BUDGET, before_wait=before_wait
        ):
            return _attempts(service, kwargs, deadline=gate.deadline())
    except gate.Busy:
        raise TableBusy() from None
    except OperationalError as exc:
        if is_pool_timeout(exc):
            raise ActionRefused("server_busy", _("The server is busy; try again in a moment.")) from exc
        raise


def _attempts(service, kwargs: dict, *, deadline: float | None):
    """``service(**kwargs)``, run again after a transient failure (``with_retry``); ``deadline``
    (a command's): no new attempt without ``MIN_LOCK_WAIT`` seconds left, refused as busy instead."""
    for attempt in range(1, RETRY_ATTEMPTS + 1):
        try:
            return service(**kwargs)
        except OperationalError as exc:
            if not is_transient(exc) or connection.in_atomic_block:
                raise
            pause = RETRY_PAUSE * attempt
            if deadline is not None and (
                attempt == RETRY_ATTEMPTS or time.monotonic() + pause + MIN_LOCK_WAIT > deadline
            ):
                raise TableBusy() from exc
            if attempt == RETRY_ATTEMPTS:
                raise
            log.warning(
                "%s failed (%s); trying again, attempt %d of %d",
                getattr(service, "__name__", service),
                exc,
                attempt + 1,
                RETRY_ATTEMPTS,
            )
            time.sleep(pause)
