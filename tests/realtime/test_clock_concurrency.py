"""A clock that keeps up: up to K steps at once per process, claimed so no two processes take the same match.

``games.live.clockloop.Clock`` runs ``services.clock_step`` (claim the most overdue unlocked match, step it)
on its own small thread pool; a slow step holds one worker, never the others.  On PostgreSQL the
claim is ``SELECT ... FOR UPDATE SKIP LOCKED``: a second process (or worker) takes the next due
match instead of waiting for the locked one.
"""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

from games import services
from games.live import clockloop as clock
from games.models import Match, Seat
from games.services import clock as service_clock


class FakeSteps:
    """``services.clock_step`` stand-in: ``slow`` blocks its worker thread; counts concurrency."""

    def __init__(self, slow_id: int = 0, slow_for: float = 1.0, quick: int = 40):
        self.lock = threading.Lock()
        self.queue = [slow_id] + list(range(1, quick + 1)) if slow_id == 0 else list(range(1, quick + 1))
        self.slow_for = slow_for
        self.running = 0
        self.peak = 0
        self.finished: list[tuple[int, float]] = []
        self.threads: set[str] = set()

    def __call__(self, on_claim=None):
        with self.lock:
            if not self.queue:
                return None
            match_id = self.queue.pop(0)
            self.running += 1
        if on_claim is not None:
            on_claim()
        with self.lock:
            self.peak = max(self.peak, self.running)
            self.threads.add(threading.current_thread().name)
        start = timezone.now()
        time.sleep(self.slow_for if match_id == 0 else 0.01)
        with self.lock:
            self.running -= 1
            self.finished.append((match_id, time.monotonic()))
        return services.ClockStep(
            match_id=match_id,
            deadline=start,
            started=start,
            outcome="done",
            seconds=(timezone.now() - start).total_seconds(),
        )


async def test_a_slow_step_holds_one_worker_not_the_clock():
    steps = FakeSteps(slow_for=1.0, quick=40)
    ticker = clock.Clock(workers=4, interval=0.02, step=steps)
    try:
        ticker.wake()
        for _ in range(200):
            await asyncio.sleep(0.02)
            if len(steps.finished) == 41:
                break
    finally:
        await ticker.aclose()
    order = [m for m, _t in steps.finished]
    assert len(order) == 41
    # Every quick step ran while the slow one still held its worker.
    assert order[-1] == 0
    assert 2 <= steps.peak <= 4
    assert all(name.startswith("clock") for name in steps.threads)  # its own pool, not the sockets' executor
    assert ticker.steps == 41


async def test_one_worker_steps_one_at_a_time():
    steps = FakeSteps(slow_for=0.05, quick=5)
    ticker = clock.Clock(workers=1, interval=0.02, step=steps)
    try:
        ticker.wake()
        for _ in range(100):
            await asyncio.sleep(0.02)
            if len(steps.finished) == 6:
                break
    finally:
        await ticker.aclose()
    assert steps.peak == 1 and len(steps.finished) == 6


async def test_a_busy_clock_with_a_pause_leaves_gaps_between_batches(monkeypatch):
    """SQLite: other writers (a player's move) find the one write lock free between the clock's batches."""
    monkeypatch.setattr(clock.Clock, "BATCH_SECONDS", 0.03)
    steps = FakeSteps(slow_for=0.0, quick=60)
    ticker = clock.Clock(workers=1, interval=0.02, step=steps, pause=0.05)
    try:
        for _ in range(200):
            ticker.wake()
            await asyncio.sleep(0.02)
            if len(steps.finished) == 61:
                break
    finally:
        await ticker.aclose()
    times = [t for _m, t in steps.finished]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert len(times) == 61
    assert sum(g >= 0.04 for g in gaps) >= 3  # a pause after every batch of about 0.03 s


async def test_an_idle_clock_asks_the_database_once_per_tick():
    calls = []

    def nothing_due(on_claim=None):
        calls.append(1)
        return None

    ticker = clock.Clock(workers=4, interval=0.02, step=nothing_due)
    try:
        for _ in range(5):
            ticker.wake()
            await asyncio.sleep(0.03)
    finally:
        await ticker.aclose()
    assert len(calls) == 5


async def test_a_failing_claim_is_logged_and_the_clock_goes_on(caplog):
    calls = []

    def broken(on_claim=None):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("database gone")
        return None

    ticker = clock.Clock(workers=2, interval=0.02, step=broken)
    try:
        ticker.wake()
        await asyncio.sleep(0.05)
        ticker.wake()
        await asyncio.sleep(0.05)
    finally:
        await ticker.aclose()
    assert len(calls) == 2
    assert any("clock step failed" in r.getMessage() for r in caplog.records)


def test_worker_count_leaves_the_pool_room_for_requests(settings):
    settings.RUMMYHUB_CLOCK_WORKERS = 50
    if connection.vendor == "postgresql":
        pool = settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
        assert clock.worker_count() == max(1, pool // 2)
    else:
        assert clock.worker_count() == 1  # SQLite serialises writers
    settings.RUMMYHUB_CLOCK_WORKERS = 0
    assert clock.worker_count() == 1


# ----------------------------------------------------------------- with the database


def bot_table(host, *, late: float) -> Match:
    match = services.match_create(host=host, variant="manipulation", seats_count=2, bots=1)
    services.match_start(match_id=match.pk, user=host)
    Seat.objects.filter(match=match, index=0).update(user=None, bot_policy="basic", bot_name="Host bot")
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=late))
    return Match.objects.get(pk=match.pk)


@pytest.mark.django_db(transaction=True)
async def test_the_clock_plays_every_bot_table(make_user, settings):

    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_FIXED_SEED = "7"

    def setup():
        return [bot_table(make_user(name), late=1) for name in ("alice", "bob", "carol")]

    tables = await database_sync_to_async(setup)()
    ticker = clock.Clock(workers=clock.worker_count(), interval=0.02)
    try:
        for _ in range(100):
            ticker.wake()
            await asyncio.sleep(0.02)
            if ticker.steps >= 15:
                break
    finally:
        await ticker.aclose()

    def versions():
        return {m.pk: m.version for m in Match.objects.filter(pk__in=[t.pk for t in tables])}

    now = await database_sync_to_async(versions)()
    assert all(now[t.pk] >= t.version + 2 for t in tables), (now, [t.version for t in tables])
    assert ticker.steps >= 15 and ticker.failures == 0
    assert ticker.lateness and min(ticker.lateness) >= 0


@pytest.mark.django_db(transaction=True)
def test_two_clocks_never_take_the_same_match_nor_wait_for_each_other(make_user, settings, monkeypatch):
    """PostgreSQL: while one clock holds a match (a slow step), another takes the next due match at once."""
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED is PostgreSQL's; SQLite runs one writer (one clock worker) at a time")
    settings.RUMMYHUB_BOT_DELAY = 5  # each table is stepped once here
    settings.RUMMYHUB_FIXED_SEED = "7"
    first = bot_table(make_user("alice"), late=10)
    second = bot_table(make_user("bob"), late=5)
    holding, release = threading.Event(), threading.Event()
    real_step = service_clock._step

    def step(write, now):
        if write.match.pk == first.pk:
            holding.set()
            release.wait(10)
        return real_step(write, now)

    monkeypatch.setattr(service_clock, "_step", step)
    results: dict[str, services.ClockStep | None] = {}

    def run(name):
        try:
            results[name] = services.clock_step()
        finally:
            connection.close()

    one = threading.Thread(target=run, args=("one",))
    one.start()
    assert holding.wait(10)
    t0 = time.monotonic()
    two = threading.Thread(target=run, args=("two",))
    two.start()
    two.join(5)
    waited = time.monotonic() - t0
    release.set()
    one.join(10)
    assert results["one"].match_id == first.pk and results["one"].outcome == "done"
    assert results["two"].match_id == second.pk and results["two"].outcome == "done"
    assert waited < 2  # it did not wait for the first one's lock
    assert Match.objects.get(pk=first.pk).version == first.version + 1
    assert Match.objects.get(pk=second.pk).version == second.version + 1
