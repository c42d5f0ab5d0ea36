"""A table's commands wait their turn per process, without a connection, and never for long.

``games.versions.gate`` (one command per table and process at the row lock), ``services.with_retry`` (the
wait bounded by the command's budget: refused ``table_busy``; no pooled connection: refused
``server_busy``), ``services.write._locked`` (PostgreSQL's lock_timeout per transaction), and how the
page's forms and the table socket answer those refusals.  The burst itself, on PostgreSQL with
two live servers: tests/realtime/test_burst.py.
"""

from __future__ import annotations

import asyncio
import threading
import time
from contextlib import contextmanager

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError, connection, transaction
from django.urls import reverse

from games import services
from games.models import Event, Match
from games.services import write
from games.variants import spec_for
from games.versions import gate
from tests.realtime.frames import receive_board
from tests.realtime.test_table_commands import command, current, open_table, seat_to_act

HX = {"HTTP_HX_REQUEST": "true"}


@contextmanager
def gate_held_elsewhere(key):
    """The table's gate held by another thread (a command of this process in progress) for the block."""
    inside, release = threading.Event(), threading.Event()

    def hold():
        with gate.held(key, timeout=1, budget=30):
            inside.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    assert inside.wait(5)
    try:
        yield
    finally:
        release.set()
        holder.join()


def pool_timeout() -> OperationalError:
    from psycopg_pool import PoolTimeout

    error = OperationalError("couldn't get a connection after 5.00 sec")
    error.__cause__ = PoolTimeout("couldn't get a connection after 5.00 sec")
    return error


def started(make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "3"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    return match, [alice, bob][spec_for("manipulation").load(match.state["round"]).seat_to_act]


# ------------------------------------------------------------------------- the gate


def test_one_command_per_table_holds_the_gate_and_the_next_waits_bounded():
    with gate_held_elsewhere(1):
        started_at = time.monotonic()
        with pytest.raises(gate.Busy), gate.held(1, timeout=0.2, budget=5):
            pass
        assert 0.15 < time.monotonic() - started_at < 1.5
        with gate.held(2, timeout=0, budget=5):  # another table is not held up at all
            assert gate.open_gates() == 2
    with gate.held(1, timeout=0, budget=5):  # free again once the holder is done
        pass
    assert gate.open_gates() == 0  # nobody holds or waits: nothing is kept


def test_the_wait_for_the_gate_never_passes_the_commands_deadline():
    with gate_held_elsewhere(1):
        started_at = time.monotonic()
        with pytest.raises(gate.Busy), gate.held(1, timeout=5, budget=0.2):
            pass
        assert time.monotonic() - started_at < 1.5


def test_the_next_command_gets_the_gate_when_the_holder_is_done():
    order: list[str] = []
    first_in, release = threading.Event(), threading.Event()

    def first():
        with gate.held(7, timeout=1, budget=5):
            first_in.set()
            release.wait(5)
            order.append("first")

    thread = threading.Thread(target=first)
    thread.start()
    assert first_in.wait(5)
    threading.Timer(0.1, release.set).start()
    with gate.held(7, timeout=5, budget=5):
        order.append("second")
    thread.join()
    assert order == ["first", "second"]


def test_a_gate_this_command_holds_passes_with_its_deadline():
    with gate.held(3, timeout=0, budget=5):
        deadline = gate.deadline()
        assert deadline is not None and deadline - time.monotonic() <= 5
        with gate.held(3, timeout=0, budget=60):  # nested: no wait, no new deadline
            assert gate.deadline() == deadline
    assert gate.deadline() is None and gate.open_gates() == 0


def test_before_wait_runs_only_when_the_gate_is_taken_and_may_refuse_without_waiting():
    calls: list[int] = []
    with gate.held(4, timeout=0, budget=5, before_wait=lambda: calls.append(1)):
        pass
    assert calls == []

    def refuse():
        raise services.ActionRefused("stale_version", "stale")

    with gate_held_elsewhere(4):
        started_at = time.monotonic()
        with pytest.raises(services.ActionRefused), gate.held(4, timeout=5, budget=5, before_wait=refuse):
            pass
        assert time.monotonic() - started_at < 0.5
    assert gate.open_gates() == 0


async def test_a_socket_waits_for_the_gate_on_its_loop_and_hands_it_to_its_thread():
    ticks = 0

    async def tick():
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    def in_thread():
        with gate.held(5, timeout=0, budget=60):  # held for it already: no wait, the socket's deadline
            return gate.deadline()

    ticker = asyncio.get_running_loop().create_task(tick())
    inside, release = threading.Event(), threading.Event()

    def hold():
        with gate.held(5, timeout=1, budget=30):
            inside.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    assert await asyncio.to_thread(inside.wait, 5)
    threading.Timer(0.3, release.set).start()
    started_at = time.monotonic()
    async with gate.held_async(5, timeout=2, budget=4):
        waited = time.monotonic() - started_at
        deadline = await sync_to_async(in_thread, thread_sensitive=False)()
        assert deadline == gate.deadline()
    ticker.cancel()
    await asyncio.to_thread(holder.join)
    assert 0.2 < waited < 1.5
    assert ticks >= 10  # the loop went on with its other work meanwhile
    assert gate.deadline() is None and gate.open_gates() == 0


async def test_a_socket_waiting_for_a_busy_table_gives_up_at_its_timeout():
    inside, release = threading.Event(), threading.Event()

    def hold():
        with gate.held(6, timeout=1, budget=30):
            inside.set()
            release.wait(5)

    holder = threading.Thread(target=hold)
    holder.start()
    assert await asyncio.to_thread(inside.wait, 5)
    started_at = time.monotonic()
    with pytest.raises(gate.Busy):
        async with gate.held_async(6, timeout=0.2, budget=4):
            pass
    assert 0.15 < time.monotonic() - started_at < 1.5
    release.set()
    await asyncio.to_thread(holder.join)
    assert gate.open_gates() == 0


# ----------------------------------------------------------------- services.with_retry


@pytest.mark.django_db
def test_a_command_behind_a_busy_table_is_refused_table_busy_and_changes_nothing(make_user, settings):
    match, mover = started(make_user, settings)
    settings.RUMMYHUB_LOCK_TIMEOUT = 0.2
    with gate_held_elsewhere(match.pk):
        started_at = time.monotonic()
        with pytest.raises(services.TableBusy) as refused:
            services.with_retry(
                services.turn_submit,
                match_id=match.pk,
                user=mover,
                action={"type": "draw"},
                expected_version=match.version,
            )
        assert time.monotonic() - started_at < 1.5
    assert refused.value.code == "table_busy" and "busy" in refused.value.message
    assert Match.objects.get(pk=match.pk).version == match.version
    services.with_retry(
        services.turn_submit, match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=match.version
    )  # the table free again: it applies
    assert Match.objects.get(pk=match.pk).version == match.version + 1


@pytest.mark.django_db
def test_a_stale_command_behind_a_busy_table_is_refused_at_once(make_user, settings):
    match, mover = started(make_user, settings)
    assert match.version > 0
    with gate_held_elsewhere(match.pk):
        started_at = time.monotonic()
        with pytest.raises(services.StaleVersion) as refused:
            services.with_retry(
                services.turn_submit,
                match_id=match.pk,
                user=mover,
                action={"type": "draw"},
                expected_version=match.version - 1,
            )
        assert time.monotonic() - started_at < 0.5  # no wait for the gate (2 s)
    assert refused.value.current == match.version


@pytest.mark.django_db(transaction=True)
def test_a_command_that_keeps_failing_transiently_ends_as_table_busy_within_its_budget(settings):
    settings.RUMMYHUB_LOCK_BUDGET = 0.3
    calls: list[int] = []

    def locked_out(*, match_id, user):
        calls.append(1)
        time.sleep(0.12)  # a lock wait cut short
        error = OperationalError("canceling statement due to lock timeout")
        error.__cause__ = type("LockNotAvailable", (Exception,), {"sqlstate": "55P03"})()
        raise error

    started_at = time.monotonic()
    with pytest.raises(services.TableBusy):
        services.with_retry(locked_out, match_id=1, user=None)
    assert time.monotonic() - started_at < 0.6
    assert len(calls) == 2  # the third attempt would not have fitted in the budget
    calls.clear()
    settings.RUMMYHUB_LOCK_BUDGET = 30
    with pytest.raises(services.TableBusy):  # three attempts in all, then a refusal, not a fault
        services.with_retry(locked_out, match_id=1, user=None)
    assert len(calls) == services.RETRY_ATTEMPTS


@pytest.mark.django_db(transaction=True)
def test_no_pooled_connection_is_refused_as_server_busy():
    def starved(*, match_id, user):
        raise pool_timeout()

    with pytest.raises(services.ActionRefused) as refused:
        services.with_retry(starved, match_id=1, user=None)
    assert refused.value.code == "server_busy"
    assert services.is_pool_timeout(pool_timeout()) and not services.is_transient(pool_timeout())


# ------------------------------------------------------------------------- the page


@pytest.mark.django_db
def test_the_page_answers_a_busy_table_with_409_and_the_board_and_no_connection_with_503(
    client, make_user, settings, monkeypatch
):
    match, mover = started(make_user, settings)
    client.force_login(mover)
    url = reverse("games:act", args=[match.pk])
    settings.RUMMYHUB_LOCK_TIMEOUT = 0.1
    with gate_held_elsewhere(match.pk):
        busy = client.post(url, {"action": "draw", "version": match.version}, **HX)
    assert busy.status_code == 409
    assert b'data-error-code="table_busy"' in busy.content and b'id="table-board"' in busy.content

    def starved(**kwargs):
        raise pool_timeout()

    monkeypatch.setattr(services, "turn_submit", starved)
    refused = client.post(url, {"action": "draw", "version": match.version}, **HX)
    assert refused.status_code == 503 and refused["Retry-After"] == "1"
    assert b"busy" in refused.content
    assert Match.objects.get(pk=match.pk).version == match.version


@pytest.mark.django_db(transaction=True)
def test_a_command_gives_its_connection_back_as_soon_as_it_is_answered(client, make_user, settings):
    match, mover = started(make_user, settings)
    client.force_login(mover)
    response = client.post(reverse("games:act", args=[match.pk]), {"action": "draw", "version": match.version}, **HX)
    assert response.status_code == 200
    assert connection.connection is None  # not held until the response has been sent and logged


# ------------------------------------------------------------------------- the socket


@pytest.mark.django_db(transaction=True)
async def test_the_socket_answers_a_busy_table_on_the_board_and_no_connection_with_an_error(
    make_user, settings, monkeypatch
):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    version = (await current(match.pk)).version
    settings.RUMMYHUB_LOCK_TIMEOUT = 0.2
    inside, release = threading.Event(), threading.Event()

    def hold():
        with gate.held(match.pk, timeout=1, budget=30):
            inside.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert await asyncio.to_thread(inside.wait, 5)
    try:
        await sockets[mover].send_to(text_data=command("act", action="draw", version=str(version)))
        frame = await receive_board(sockets[mover])
    finally:
        release.set()
        await asyncio.to_thread(holder.join)
    assert 'data-reply="true"' in frame and 'data-error-code="table_busy"' in frame

    def starved(**kwargs):
        raise pool_timeout()

    monkeypatch.setattr(services, "turn_submit", starved)
    await sockets[mover].send_to(text_data=command("act", action="draw", version=str(version)))
    error = await sockets[mover].receive_from(timeout=5)
    assert 'id="socket-error"' in error and 'data-error-code="server_busy"' in error
    assert (await current(match.pk)).version == version
    for c in sockets:
        await c.disconnect()


# ------------------------------------------------------------------ the row lock's wait


@pytest.mark.django_db(transaction=True)
def test_the_row_lock_bounds_the_transactions_lock_waits(make_user, settings):
    match, _mover = started(make_user, settings)
    if connection.vendor != "postgresql":
        timeout = settings.DATABASES["default"]["OPTIONS"]["timeout"]
        assert timeout == settings.RUMMYHUB_LOCK_TIMEOUT  # SQLite's busy timeout
        return
    settings.RUMMYHUB_LOCK_TIMEOUT = 1.5
    with transaction.atomic():
        write._locked(match.pk)
        with connection.cursor() as cursor:
            cursor.execute("SHOW lock_timeout")
            assert cursor.fetchone()[0] == "1500ms"
    with connection.cursor() as cursor:
        cursor.execute("SHOW lock_timeout")
        assert cursor.fetchone()[0] == "0"  # SET LOCAL: only for that transaction


@pytest.mark.django_db(transaction=True)
def test_a_row_held_by_another_process_is_waited_for_within_the_budget_only(make_user, settings):
    """A real lock wait on PostgreSQL: the move waits at most its budget, then is refused; nothing applied."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks and lock_timeout are PostgreSQL's; SQLite's busy timeout is checked above")
    match, mover = started(make_user, settings)
    settings.RUMMYHUB_LOCK_TIMEOUT, settings.RUMMYHUB_LOCK_BUDGET = 0.4, 1.0
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
    started_at = time.monotonic()
    try:
        with pytest.raises(services.TableBusy):
            services.with_retry(
                services.turn_submit,
                match_id=match.pk,
                user=mover,
                action={"type": "draw"},
                expected_version=match.version,
            )
        waited = time.monotonic() - started_at
    finally:
        release.set()
        holder.join()
    assert 0.7 < waited < 1.6  # two waits of 0.4 s and what was left of the 1 s
    assert Event.objects.filter(match=match, kind="action").count() == 0
    assert Match.objects.get(pk=match.pk).version == match.version


@pytest.mark.django_db(transaction=True)
def test_every_answer_gives_its_connection_back_not_only_a_commands(client, make_user, settings):
    """The pool/worker-thread deadlock came from any answer >= 400 holding its connection while it
    was logged: a refused seat, a 404, a malformed chat post all hand it back before that."""
    match, mover = started(make_user, settings)
    client.force_login(mover)
    for url, data in (
        (reverse("games:remove_bot", args=[match.pk]), {"seat": "²"}),
        (reverse("games:chat", args=[match.pk]), {"text": ""}),
        (reverse("games:act", args=[match.pk + 1000]), {"action": "draw", "version": "1"}),
    ):
        response = client.post(url, data, **HX)
        assert response.status_code >= 400
        assert connection.connection is None, url
