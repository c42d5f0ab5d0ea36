"""Table presence through real sockets: rows opened and closed by the consumer, and a killed server's swept.

The live tests start real daphne processes (tests/live.py) with a short heartbeat
and presence timeout, SIGKILL one, and check that its player's seat goes offline
by itself once the heartbeat lapses: the sweep deletes the row nobody refreshes,
the match gets its disconnect-grace deadline and the table's other sockets are
told.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from websockets.sync.client import connect as ws_connect

from games import services, store
from games.live import consumers
from games.models import Match, Seat, TableConnection
from games.variants import spec_for
from plumbing import realtime
from rummyhub.asgi import application
from tests.live import LiveDaphne, session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

BEAT = 0.4  # seconds: RUMMYHUB_HEARTBEAT of the live servers
TIMEOUT = 2.0  # seconds: RUMMYHUB_PRESENCE_TIMEOUT


def setup_table(make_user, settings):
    """A started two-player table without a timer; (match, the player to act, the other one)."""
    settings.RUMMYHUB_FIXED_SEED = "11"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    spec = spec_for(match.variant)
    acting = spec.acting_seats(spec.load(match.state["round"]))[0]
    players = [alice, bob]
    return match, players[acting], players[1 - acting]


def communicator(match_id: int, cookie: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application,
        f"/ws/tables/{match_id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())],
    )


def wait_for(probe, timeout: float = 10.0, every: float = 0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = probe()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out waiting for {probe}")


def seat_online(match, user) -> bool:
    return store.is_connected(Seat.objects.get(match=match, user=user))


# ------------------------------------------------------------- in-process sockets


async def test_many_sockets_opening_and_closing_at_once_leave_no_row(make_user, settings):
    match, mover, other = await database_sync_to_async(setup_table)(make_user, settings)
    carol = await database_sync_to_async(make_user)("carol")  # a spectator
    cookies = [await database_sync_to_async(session_cookie_for)(u) for u in (mover, other, carol)]
    first = [communicator(match.pk, cookies[i % 3]) for i in range(12)]
    second = [communicator(match.pk, cookies[i % 3]) for i in range(12)]

    async def open_(c):
        assert (await c.connect(timeout=10))[0]
        await c.receive_output(timeout=10)  # its first frame: connect has run to its end

    await asyncio.gather(*(open_(c) for c in first))
    assert await database_sync_to_async(TableConnection.objects.filter(match=match).count)() == 12
    # The first dozen close while a second dozen opens, then those close as well.
    await asyncio.gather(*(c.disconnect() for c in first), *(open_(c) for c in second))
    assert await database_sync_to_async(TableConnection.objects.filter(match=match).count)() == 12
    await asyncio.gather(*(c.disconnect() for c in second))

    assert await database_sync_to_async(TableConnection.objects.count)() == 0
    assert not any(key == match.pk for key, _user in consumers.heartbeats.open.values())
    assert not await database_sync_to_async(seat_online)(match, mover)
    assert not await database_sync_to_async(seat_online)(match, other)
    # The player to act is gone: the table no longer waits for them.
    assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).deadline is not None


async def test_a_connect_failing_half_way_leaves_no_row(make_user, settings, monkeypatch):
    match, mover, _other = await database_sync_to_async(setup_table)(make_user, settings)

    async def broken_push(self, *args, **kwargs):
        raise RuntimeError("the board could not be rendered")

    monkeypatch.setattr(consumers.TableConsumer, "push_board", broken_push)
    c = communicator(match.pk, await database_sync_to_async(session_cookie_for)(mover))
    await c.connect(timeout=10)
    with pytest.raises(RuntimeError, match="could not be rendered"):
        await c.wait(timeout=10)  # the application ends with the error (no output waited for: 10 s of nothing)
    with pytest.raises(RuntimeError):  # the application has ended with that error; nothing is left to close
        await c.disconnect()

    assert await database_sync_to_async(TableConnection.objects.count)() == 0
    assert not any(key == match.pk for key, _user in consumers.heartbeats.open.values())
    assert not await database_sync_to_async(seat_online)(match, mover)


async def test_a_socket_closed_while_a_presence_push_is_sent_to_it_leaves_no_row(make_user, settings, monkeypatch):
    """Issue 25.12: A closes; B's page closes while A's offline dot is being pushed to it, so the send
    fails ("Attempt to send on a closed protocol") before B's disconnect is ever handled.  B's socket
    must still close its row: otherwise its heartbeat refreshes it for ever and B shows online."""
    match, host, guest = await database_sync_to_async(setup_table)(make_user, settings)
    a = communicator(match.pk, await database_sync_to_async(session_cookie_for)(host))
    b = communicator(match.pk, await database_sync_to_async(session_cookie_for)(guest))
    for c in (a, b):
        assert (await c.connect(timeout=10))[0]
        await c.receive_output(timeout=10)
    real_send = consumers.TableConsumer.send

    async def send(self, text_data=None, bytes_data=None, close=False):
        if self.user.pk == guest.pk and text_data and text_data.startswith('<span id="conn-'):
            raise RuntimeError("Attempt to send on a closed protocol")  # what daphne raises then
        await real_send(self, text_data=text_data, bytes_data=bytes_data, close=close)

    monkeypatch.setattr(consumers.TableConsumer, "send", send)
    await a.disconnect()
    with pytest.raises(RuntimeError, match="closed protocol"):
        await b.wait(timeout=10)  # B's application ends on the failed send (a board may come first)

    assert await database_sync_to_async(TableConnection.objects.count)() == 0
    assert not any(key == match.pk for key, _user in consumers.heartbeats.open.values())
    assert not await database_sync_to_async(seat_online)(match, guest)


async def test_a_swept_row_sends_the_offline_dot_to_the_tables_other_sockets(make_user, settings):
    settings.RUMMYHUB_PRESENCE_TIMEOUT = 5
    match, mover, other = await database_sync_to_async(setup_table)(make_user, settings)
    other_index = (await database_sync_to_async(Seat.objects.get)(match=match, user=other)).index
    # ``other``'s socket on a server that has since died: its row, no longer refreshed.
    await database_sync_to_async(services.table_connection_open)(match_id=match.pk, user=other, token="dead")
    watcher = communicator(match.pk, await database_sync_to_async(session_cookie_for)(mover))
    assert (await watcher.connect())[0]
    board = await watcher.receive_from(timeout=10)
    assert f'<span id="conn-{other_index}" class="conn conn-on"' in board
    await database_sync_to_async(TableConnection.objects.filter(token="dead").update)(
        last_seen=timezone.now() - timedelta(seconds=6)
    )

    assert await database_sync_to_async(services.presence_sweep)() == 1

    dot = await watcher.receive_from(timeout=5)
    assert dot.startswith(f'<span id="conn-{other_index}"') and "conn-off" in dot and 'hx-swap-oob="true"' in dot
    await watcher.disconnect()


async def test_a_socket_whose_row_was_swept_while_open_gets_it_back_at_its_next_heartbeat(make_user, settings):
    """A process that stalled past the timeout (or lost the database) but still holds the socket."""
    match, mover, _other = await database_sync_to_async(setup_table)(make_user, settings)
    c = communicator(match.pk, await database_sync_to_async(session_cookie_for)(mover))
    assert (await c.connect())[0]
    await c.receive_output(timeout=10)
    await database_sync_to_async(TableConnection.objects.all().delete)()
    assert not await database_sync_to_async(seat_online)(match, mover)

    await consumers.heartbeats.beat()

    assert await database_sync_to_async(seat_online)(match, mover)
    assert await database_sync_to_async(TableConnection.objects.count)() == 1
    await c.disconnect()
    assert await database_sync_to_async(TableConnection.objects.count)() == 0


# ------------------------------------------------------------ real daphne processes


@pytest.fixture
def sent(monkeypatch):
    """The channel-layer messages this (test) process sends; the live servers send their own."""
    messages: list[tuple[str, dict]] = []
    monkeypatch.setattr(realtime, "send_now", lambda group, message: messages.append((group, message)))
    return messages


def live_settings(settings, **extra):
    settings.RUMMYHUB_HEARTBEAT = BEAT
    settings.RUMMYHUB_PRESENCE_TIMEOUT = TIMEOUT
    return {"RUMMYHUB_HEARTBEAT": BEAT, "RUMMYHUB_PRESENCE_TIMEOUT": TIMEOUT, "RUMMYHUB_CLOCK": False, **extra}


def table_socket(server, match, user):
    """A sync websocket client on ``server``'s table socket (use it as a context manager)."""
    return ws_connect(
        f"{server.ws_url}/ws/tables/{match.pk}/",
        additional_headers={"Cookie": f"sessionid={session_cookie_for(user)}", "Origin": server.url},
        close_timeout=1,
    )


def sigkill(server) -> None:
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.join(5)
    assert server.process.exitcode == -signal.SIGKILL


def test_a_killed_servers_seat_goes_offline_once_its_heartbeat_lapses(make_user, settings, sent, django_db_blocker):
    match, mover, _other = setup_table(make_user, settings)
    overrides = live_settings(settings)
    with (
        django_db_blocker.unblock(),
        LiveDaphne(settings_overrides=overrides) as server,
        table_socket(server, match, mover) as ws,
    ):
        assert 'id="board-meta"' in ws.recv(timeout=10)
        row = wait_for(lambda: TableConnection.objects.filter(match=match, user=mover).first())
        # The server's batched heartbeat refreshes the row while the socket is open.
        wait_for(lambda: TableConnection.objects.get(pk=row.pk).last_seen > row.last_seen)
        assert seat_online(match, mover) and Match.objects.get(pk=match.pk).deadline is None

        sigkill(server)
        killed = time.monotonic()
        last_beat = TableConnection.objects.get(pk=row.pk).last_seen
        # Nothing closed the socket: its row stays, and counts, until the heartbeat lapses.
        assert services.presence_sweep() == 0
        assert seat_online(match, mover)

        wait_for(lambda: services.presence_sweep() == 1, timeout=TIMEOUT + 5, every=0.1)
        lapsed_after = time.monotonic() - killed

    assert TIMEOUT - BEAT - 0.5 < lapsed_after < TIMEOUT + 2
    assert not TableConnection.objects.exists()
    assert not seat_online(match, mover)
    seat = Seat.objects.get(match=match, user=mover)
    assert seat.last_seen == last_beat
    assert [m for _group, m in sent if m["type"] == "table.presence"] == [
        {"type": "table.presence", "id": match.pk, "seat": seat.index, "online": False}
    ]
    match.refresh_from_db()
    assert match.deadline == max(match.turn_started_at, last_beat) + timedelta(seconds=services.DISCONNECT_GRACE)
    assert services.pending_step(match) == "timeout"


def test_another_servers_clock_sweeps_a_killed_servers_socket_and_its_viewers_see_the_dot(
    make_user, settings, django_db_blocker
):
    match, mover, other = setup_table(make_user, settings)
    mover_index = Seat.objects.get(match=match, user=mover).index
    overrides = live_settings(settings)
    clocked = {**overrides, "RUMMYHUB_CLOCK": True, "RUMMYHUB_CLOCK_INTERVAL": 0.1}
    with (
        django_db_blocker.unblock(),
        LiveDaphne(settings_overrides=overrides) as one,
        LiveDaphne(settings_overrides=clocked) as two,
        table_socket(one, match, mover) as gone,
    ):
        assert 'id="board-meta"' in gone.recv(timeout=10)
        wait_for(lambda: TableConnection.objects.filter(match=match, user=mover).exists())
        with table_socket(two, match, other) as watcher:
            board = watcher.recv(timeout=10)
            assert f'<span id="conn-{mover_index}" class="conn conn-on"' in board

            sigkill(one)
            killed = time.monotonic()
            frame = watcher.recv(timeout=TIMEOUT + 5)
            seen_after = time.monotonic() - killed
            # The mover is the one to act: their grace starts, and the board (a new version) shows
            # its clock beside the offline dot.
            frames = [frame, watcher.recv(timeout=5)]

    assert f'<span id="conn-{mover_index}" class="conn conn-off"' in frame
    assert seen_after < TIMEOUT + BEAT + 2
    assert any("timer-away" in f for f in frames)
    assert not TableConnection.objects.filter(user=mover).exists()
    match.refresh_from_db()
    assert match.deadline is not None and services.pending_step(match) == "timeout"


async def test_a_socket_opened_while_its_table_is_busy_connects_and_its_row_comes_with_the_next_beat(
    make_user, settings, monkeypatch
):
    """Issue 13.5: the presence row's lock wait is bounded; when it runs out the socket still opens
    (no 1011) and shows the board, and the heartbeat puts the missing row back."""
    match, mover, _other = await database_sync_to_async(setup_table)(make_user, settings)
    real = services.table_connection_open
    calls = []

    def busy(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise services.TableBusy()
        return real(**kwargs)

    monkeypatch.setattr(services, "table_connection_open", busy)
    socket = communicator(match.pk, await database_sync_to_async(session_cookie_for)(mover))
    connected, _ = await socket.connect()
    assert connected
    assert 'id="board-meta"' in await socket.receive_from(timeout=5)
    assert not await database_sync_to_async(TableConnection.objects.filter(match=match).exists)()
    await consumers.heartbeats.beat()
    assert await database_sync_to_async(TableConnection.objects.filter(match=match, user=mover).count)() == 1
    await socket.disconnect()
    assert not await database_sync_to_async(TableConnection.objects.filter(match=match).exists)()


async def test_a_spectator_who_takes_a_seat_without_reloading_is_online_and_gets_no_disconnect_grace(
    make_user, settings
):
    """Issue 15 point 3: "Sit here" on a page whose socket opened before the seat was taken."""
    settings.RUMMYHUB_FIXED_SEED = "11"
    alice, bob = await database_sync_to_async(make_user)("alice"), await database_sync_to_async(make_user)("bob")
    match = await database_sync_to_async(services.match_create)(host=alice, variant="manipulation", seats_count=2)
    host = communicator(match.pk, await database_sync_to_async(session_cookie_for)(alice))
    guest = communicator(match.pk, await database_sync_to_async(session_cookie_for)(bob))
    for c in (host, guest):
        assert (await c.connect())[0]
    await database_sync_to_async(services.seat_join)(match_id=match.pk, user=bob, index=1)  # the "Sit here" form
    await database_sync_to_async(services.match_start)(match_id=match.pk, user=alice)

    async def last_frame_with(c, text: str) -> str:
        while True:
            frame = await c.receive_from(timeout=5)
            if text in frame:
                return frame

    # The host's board shows the guest online (not "away"), and so do a fresh load's seats.
    frame = await last_frame_with(host, 'data-status="playing"')
    assert 'id="conn-1" class="conn conn-on"' in frame
    seat = await database_sync_to_async(lambda: store.seats_of(match.pk, online_since=store.presence_cutoff())[1])()
    assert store.is_connected(seat)
    # The guest's own socket now counts as a player's: the guest sees their hand.
    assert 'id="hand"' in await last_frame_with(guest, 'data-status="playing"')
    # No disconnect grace runs for the guest: no timer, a connected player, so no deadline on their turn.
    now = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    spec = spec_for(now.variant)
    if spec.acting_seats(spec.load(now.state["round"]))[0] == 1:
        assert now.deadline is None
    for c in (host, guest):
        await c.disconnect()
