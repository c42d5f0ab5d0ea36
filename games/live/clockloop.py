"""Each server process's clock: bots move, turn timers expire and next rounds start on time.

``ClockMiddleware`` wraps the ASGI application and starts one background loop per process on
the first request or socket.  Every ``RUMMYHUB_CLOCK_INTERVAL`` seconds the loop wakes the
process's :class:`Clock`, which runs ``services.clock_step`` (claim the most overdue match no
other transaction holds, do its step through the ordinary write path) on up to
``worker_count()`` threads of its own: while steps are due every free worker takes the next
one, so a slow step holds one worker and never the others, and the loop never waits for it.
Several processes run at once: on PostgreSQL a claim skips the matches another process (or a
player's move) holds (``FOR UPDATE SKIP LOCKED``), so the due steps spread over the processes
and none waits for another's.  One match's failure ends in ``clock_step`` (logged, put off),
never here.  Nothing is kept in memory, so a restart loses nothing.

With ``RUMMYHUB_CLOCK_TRACE`` set to a file name, every step appends one line to that file:
``<unix time> <match id> <lateness s> <duration s> <outcome>`` (``bench/soak.py`` reads it).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection

from games import services, store

log = logging.getLogger(__name__)

LATENESS_SAMPLES = 1000  # the most recent steps' lateness, kept for a look from a shell or a test


def worker_count() -> int:
    """Steps one process runs at once (``RUMMYHUB_CLOCK_WORKERS``).

    SQLite takes one writer at a time: more workers would only queue on its lock, so one.  On
    PostgreSQL at most half the process's pool (``DATABASE_POOL_MAX``), the rest kept for the
    requests and sockets.
    """
    wanted = max(1, int(getattr(settings, "RUMMYHUB_CLOCK_WORKERS", 1)))
    if connection.vendor != "postgresql":
        return 1
    pool = (settings.DATABASES["default"].get("OPTIONS") or {}).get("pool") or {}
    if isinstance(pool, dict) and pool.get("max_size"):
        wanted = min(wanted, max(1, int(pool["max_size"]) // 2))
    return wanted


class Clock:
    """Up to ``workers`` automatic steps at once, on a thread pool of that size.

    ``wake()`` starts one worker if a slot is free; a worker takes due steps one after another
    until none is left.  Each claim wakes another slot before its step runs, so a backlog fills
    every slot within milliseconds, a slow step never delays the next due one, and an idle clock
    asks the database once per tick.  A worker hands its steps to its thread in batches of up to
    ``BATCH_SECONDS`` (one ``database_sync_to_async`` call, one connection: with
    ``CONN_MAX_AGE = 0`` every call opens its own, a cost a step should not pay each time).
    """

    BATCH_SECONDS = 0.2

    def __init__(self, *, workers: int, interval: float, step=None, trace: str = "", pause: float = 0.0):
        self.workers = max(1, workers)
        self.interval = interval
        self.pause = pause
        self.executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="clock")
        self._one_step = step or services.clock_step
        self._batch = database_sync_to_async(self._steps, thread_sensitive=False, executor=self.executor)
        self.closing = False
        self.busy = 0
        self.tasks: set[asyncio.Task] = set()
        self.steps = 0
        self.failures = 0
        self.lateness: deque[float] = deque(maxlen=LATENESS_SAMPLES)
        self._trace = open(trace, "a", buffering=1 << 16) if trace else None  # closed by aclose
        self._flushed = time.monotonic()

    def wake(self) -> None:
        if self.closing or self.busy >= self.workers:
            return
        self.busy += 1
        task = asyncio.get_running_loop().create_task(self._work())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _steps(self, on_claim) -> tuple[list, bool]:
        """On a worker thread: due steps one after another for up to BATCH_SECONDS; (steps, nothing left)."""
        done = []
        end = time.monotonic() + self.BATCH_SECONDS
        while not self.closing:
            try:
                step = self._one_step(on_claim=on_claim)
            except Exception:  # the claim itself failed (the database is away): try at the next tick
                log.exception("clock step failed")
                return done, True
            if step is None:
                return done, True
            done.append(step)
            if time.monotonic() >= end:
                return done, False
        return done, True

    async def _work(self) -> None:
        loop = asyncio.get_running_loop()

        def claimed():  # on the worker's thread: a match was taken, another slot may take the next
            loop.call_soon_threadsafe(self.wake)

        try:
            idle = False
            while not idle:
                steps, idle = await self._batch(claimed)
                for step in steps:
                    self._record(step)
                if not idle and self.pause:
                    await asyncio.sleep(self.pause)
        finally:
            self.busy -= 1

    def _record(self, step) -> None:
        self.steps += 1
        self.failures += step.outcome in ("failed", "held")
        self.lateness.append(step.late)
        if self._trace is not None:
            self._trace.write(
                f"{step.started.timestamp():.3f} {step.match_id} {step.late:.4f} {step.seconds:.4f} {step.outcome}\n"
            )

    def flush(self) -> None:
        if self._trace is not None and time.monotonic() - self._flushed >= 1.0:
            self._trace.flush()
            self._flushed = time.monotonic()

    async def aclose(self) -> None:
        """Stop taking steps; wait for the ones running (a step is never cut in the middle)."""
        self.closing = True
        await asyncio.gather(*self.tasks, return_exceptions=True)
        self.executor.shutdown(wait=False)
        if self._trace is not None:
            self._trace.close()


# SQLite: a busy clock leaves the database's one write lock free this long after each batch.  Without
# it, a writer waiting elsewhere (a player's move, another process) probes the lock between the
# clock's back-to-back transactions (every 25-100 ms, SQLite's busy handler) and may never find it free.
SQLITE_PAUSE = 0.05


async def run_clock(interval: float) -> None:
    clock = Clock(
        workers=worker_count(),
        interval=interval,
        trace=getattr(settings, "RUMMYHUB_CLOCK_TRACE", ""),
        pause=SQLITE_PAUSE if connection.vendor == "sqlite" else 0.0,
    )
    # Besides the automatic steps, each on a task of its own (the loop never waits for them):
    # lapsed table-socket rows are swept about every RUMMYHUB_HEARTBEAT seconds, and on a
    # PostgreSQL whose autovacuum is off the rows every move rewrites are vacuumed.
    upkeep = [
        Periodic("presence sweep", services.presence_sweep, lambda: settings.RUMMYHUB_HEARTBEAT),
        Periodic("vacuum", vacuum_if_needed, lambda: settings.RUMMYHUB_VACUUM_EVERY),
    ]
    try:
        while True:
            clock.wake()
            clock.flush()
            for job in upkeep:
                job.start_if_due()
            await asyncio.sleep(interval)
    finally:
        await clock.aclose()


SLOW_JOB = 1.0  # seconds: a periodic job this slow is logged


class Periodic:
    """``job`` about every ``every()`` seconds, on a worker thread, never two at once.

    The presence sweep (``services.presence_sweep``) deletes the rows of table sockets that no
    heartbeat refreshes any more (their server died), so those players go offline and their
    disconnect grace starts although nothing closed their sockets.  Every process sweeps; the
    rows are re-read under each match's lock, so two processes never act on one row twice.
    A failure is logged; the next run tries again.
    """

    def __init__(self, name: str, job, every):
        self.name = name
        self.job = job
        self.every = every
        self.due = 0.0  # time.monotonic() of the next run: the first tick runs it
        self.task: asyncio.Task | None = None

    def start_if_due(self) -> None:
        now = time.monotonic()
        if now < self.due or (self.task is not None and not self.task.done()):
            return
        self.due = now + self.every()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        started = time.monotonic()
        try:
            await database_sync_to_async(self.job, thread_sensitive=False)()
        except Exception:  # the next one tries again
            log.exception("%s failed", self.name)
        took = time.monotonic() - started
        if took >= SLOW_JOB:
            log.warning("%s took %.1f s", self.name, took)


_autovacuum: dict[str, bool] = {}  # the server's answer, asked once per process


def vacuum_if_needed() -> bool:
    """Vacuum the rows every move rewrites if the server's autovacuum is off; True if it did.

    With autovacuum off (a setting some PostgreSQL servers ship with), the match table keeps every
    dead row version a move leaves: at 100 bot tables ~8,000 a minute, and each claim's index
    scan walks them all, so a process's steps per minute fell by a quarter in five minutes
    (bench/README.md, "Autovacuum off").  The migration 0008 asks autovacuum to vacuum these
    tables early; this covers a server where it never runs.
    """
    if "on" not in _autovacuum:
        _autovacuum["on"] = store.autovacuum_is_on()
        if not _autovacuum["on"]:
            log.warning(
                "PostgreSQL's autovacuum is off: this process vacuums %s every %g s",
                ", ".join(m._meta.db_table for m in store.HOT_TABLES),
                settings.RUMMYHUB_VACUUM_EVERY,
            )
    if _autovacuum["on"]:
        return False
    store.vacuum_hot_tables()
    return True


class ClockMiddleware:
    def __init__(self, app):
        self.app = app
        self.task: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        # A server's requests and sockets start its clock; a worker's channel messages do not.
        if self.task is None and scope["type"] != "channel" and getattr(settings, "RUMMYHUB_CLOCK", True):
            self.task = asyncio.get_running_loop().create_task(run_clock(settings.RUMMYHUB_CLOCK_INTERVAL))
        return await self.app(scope, receive, send)
