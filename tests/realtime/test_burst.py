"""A burst on one table must not starve the process (PostgreSQL: real row locks and a real pool).

Fifty identical moves arrive at one table at the same moment, half over the table's sockets and
half as the page's form posts, spread over two live daphne processes whose connection pools are
small.  Exactly one may apply; every other one must be refused, and every one of the fifty must be
answered within a few seconds.  Meanwhile a move at each of two other tables (one posted, one over
a socket) must be answered as fast, and no request of either process may wait out the pool
(``PoolTimeout``), answer 500, or make a clock tick fail.

The burst arrives while the row is held for half a second by a move elsewhere (here the test
process), as a move of the other server would.  Before the per-table gate (``games.versions.gate``) every
waiting command held a pooled connection while it queued on the row lock, and the page's 409
answers kept theirs until Django had logged them on the event loop's default executor, whose
threads (the sockets' moves and board loads) were themselves waiting for a connection: a deadlock
that only the pool's 20 s timeout broke.  Here, 3 runs out of 3: 32 of the 50 failed (17 HTTP 500,
13 socket ``server_error``, 2 unanswered), the slowest after 41 s, and 225 lines of pool timeouts
and failed clock steps in the servers' log.  With the gate: slowest answer 0.8 s, none failed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import threading
import time
from collections import Counter
from urllib.parse import urlencode

import pytest
import websockets
from django.conf import settings
from django.db import connection, transaction

from games import services
from games.models import Event, Match
from games.variants import spec_for
from tests.live import LiveDaphne, session_cookie_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (row locks and a connection pool per process); CI runs it there",
    ),
]

BURST = 50  # moves at one table at once: half over sockets, half posted
POOL_MAX = 4  # connections per daphne process: small, so a burst that queues on connections shows
HOLD = 0.5  # seconds the table's row is held by a move elsewhere when the burst arrives
ANSWER_WITHIN = 5.0  # seconds: what every command must be answered within
WAIT_AT_MOST = 45.0  # how long the test waits for an answer at all (longer than the pool's timeout)
STARVED = (
    "couldn't get a connection",
    "PoolTimeout",
    "Internal Server Error",
    "clock step failed",
    "clock tick failed",
    "presence sweep failed",
)

REPLY = re.compile(r'id="board-meta"[^>]*data-reply="true"')
ERROR_CODE = re.compile(r'data-error-code="([^"]*)"')
BOARD_ERROR = re.compile(r'class="board-error" role="alert" data-error-code="([^"]*)"')


class SmallPoolDaphne(LiveDaphne):
    """A live daphne as production runs it (no session-wide lock_timeout), with a small pool and
    its warnings written to a file the test reads."""

    def __init__(self, log_path: str, **kwargs):
        super().__init__(**kwargs)
        self.log_path = log_path

    def process_setup(self):
        super().process_setup()

        options = settings.DATABASES["default"]["OPTIONS"]
        options.pop("options", None)  # LiveDaphne's lock_timeout=400 for the test's flush: not production's
        options["pool"] = {**options["pool"], "max_size": POOL_MAX}
        handler = logging.FileHandler(self.log_path)
        handler.setLevel(logging.WARNING)
        handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(name)s %(levelname)s %(message)s"))
        logging.getLogger().addHandler(handler)


def started_table(host, other):
    match = services.match_create(host=host, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=other)
    services.match_start(match_id=match.pk, user=host)
    match.refresh_from_db()
    mover = spec_for("manipulation").load(match.state["round"]).seat_to_act
    return match, (host, other)[mover]


def action_events(match_id: int) -> int:
    return Event.objects.filter(match_id=match_id, kind="action").count()


async def post_act(base: str, match_id: int, version: int, session: str) -> tuple[str, float]:
    """The page's ``act`` form as htmx posts it (session and CSRF cookies); (outcome, seconds)."""
    host, port = base.removeprefix("http://").split(":")
    token = secrets.token_hex(16)
    body = urlencode({"action": "draw", "version": str(version)}).encode()
    head = (
        f"POST /tables/{match_id}/act/ HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: {base}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
        f"Cookie: sessionid={session}; csrftoken={token}\r\nX-CSRFToken: {token}\r\n"
        f"HX-Request: true\r\nConnection: close\r\n\r\n"
    ).encode()
    started = time.perf_counter()
    try:
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(head + body)
        data = await asyncio.wait_for(reader.read(), WAIT_AT_MOST)
        writer.close()
    except (TimeoutError, OSError):
        return "no answer", time.perf_counter() - started
    elapsed = time.perf_counter() - started
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
    if status == 200:
        return "applied", elapsed
    code = BOARD_ERROR.search(data.decode(errors="replace"))
    return f"{status} {code.group(1) if code else ''}".strip(), elapsed


async def open_socket(ws_url: str, match_id: int, session: str, origin: str):
    ws = await websockets.connect(
        f"{ws_url}/ws/tables/{match_id}/", additional_headers={"Cookie": f"sessionid={session}", "Origin": origin}
    )
    # The first board (or the online dots) and whatever the other sockets' arrival pushes.
    while True:
        try:
            await asyncio.wait_for(ws.recv(), 0.5)
        except TimeoutError:
            return ws


async def socket_act(ws, version: int) -> tuple[str, float]:
    """One ``act`` command over the socket; (outcome, seconds until this socket's answer)."""
    started = time.perf_counter()
    await ws.send(json.dumps({"type": "command", "kind": "act", "fields": {"action": "draw", "version": str(version)}}))
    deadline = started + WAIT_AT_MOST
    while True:
        try:
            frame = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.perf_counter()))
        except (TimeoutError, websockets.ConnectionClosed):
            return "no answer", time.perf_counter() - started
        if 'id="socket-error"' in frame:  # too_fast, server_error: an answer, and not a board
            code = ERROR_CODE.search(frame)
            return f"socket {code.group(1) if code else ''}", time.perf_counter() - started
        if REPLY.search(frame):
            code = BOARD_ERROR.search(frame)
            return (f"socket {code.group(1)}" if code else "applied"), time.perf_counter() - started


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def test_a_burst_at_one_table_is_answered_fast_and_starves_nobody(make_user, django_db_blocker, tmp_path):
    alice, bob, carol, dave, erin = (make_user(n) for n in ("alice", "bob", "carol", "dave", "erin"))
    busy, busy_mover = started_table(alice, bob)
    posted, posted_mover = started_table(carol, dave)
    socketed, socketed_mover = started_table(erin, alice if busy_mover != alice else bob)
    cookies = {u.pk: session_cookie_for(u) for u in (alice, bob, carol, dave, erin)}
    before = {m.pk: (Match.objects.get(pk=m.pk).version, action_events(m.pk)) for m in (busy, posted, socketed)}
    locked = threading.Event()

    def hold_the_table():
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=busy.pk)
                locked.set()
                time.sleep(HOLD)
        finally:
            connection.close()

    def settle_versions():
        try:
            for _ in range(100):
                if all(Match.objects.get(pk=pk).deadline is None for pk in before):
                    break
                time.sleep(0.05)
            before.update({pk: (Match.objects.get(pk=pk).version, action_events(pk)) for pk in before})
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_table)
    log_path = tmp_path / "daphne.log"
    log_path.touch()
    overrides = {"RUMMYHUB_CLOCK": True, "RUMMYHUB_CLOCK_INTERVAL": 0.25}
    with (
        django_db_blocker.unblock(),
        SmallPoolDaphne(str(log_path), settings_overrides=overrides) as one,
        SmallPoolDaphne(str(log_path), settings_overrides=overrides) as two,
    ):
        servers = (one, two)

        async def scenario():
            session = cookies[busy_mover.pk]
            # Half of the burst's sockets on each process; the movers of the other tables too (a
            # connected mover also keeps the clock's disconnect grace from playing their turn).
            other_socket = await open_socket(one.ws_url, socketed.pk, cookies[socketed_mover.pk], one.url)
            posted_socket = await open_socket(two.ws_url, posted.pk, cookies[posted_mover.pk], two.url)
            sockets = []
            for start in range(0, BURST // 2, 10):  # ten at a time: quicker than one by one
                sockets += await asyncio.gather(
                    *(
                        open_socket(servers[i % 2].ws_url, busy.pk, session, servers[i % 2].url)
                        for i in range(start, min(start + 10, BURST // 2))
                    )
                )
            # The movers are here: their disconnect grace ended (a new version each). The burst is
            # sent with the version after that.
            await asyncio.to_thread(settle_versions)
            # The burst arrives while a move elsewhere (another process) holds the table's row.
            holder.start()
            assert await asyncio.to_thread(locked.wait, 10)
            burst = [socket_act(ws, before[busy.pk][0]) for ws in sockets] + [
                post_act(servers[i % 2].url, busy.pk, before[busy.pk][0], session) for i in range(BURST - BURST // 2)
            ]
            others = [
                post_act(one.url, posted.pk, before[posted.pk][0], cookies[posted_mover.pk]),
                socket_act(other_socket, before[socketed.pk][0]),
            ]
            results = await asyncio.gather(*burst, *others)
            await asyncio.to_thread(holder.join)
            for ws in [*sockets, other_socket, posted_socket]:
                await ws.close()
            return results[:BURST], results[BURST:]

        burst, others = asyncio.run(scenario())
    log = log_path.read_text()
    times = [t for _outcome, t in burst]
    outcomes = Counter(outcome for outcome, _t in burst)
    figures = (
        f"burst of {BURST}: max {max(times):.2f} s, p99 {percentile(times, 99):.2f} s,"
        f" p50 {percentile(times, 50):.2f} s; outcomes {dict(outcomes)};"
        f" other tables {[(o, round(t, 2)) for o, t in others]};"
        f" starved lines in the servers' log {sum(log.count(s) for s in STARVED)}"
    )
    print(figures)
    after = {pk: (Match.objects.get(pk=pk).version, action_events(pk)) for pk in before}
    # Exactly one of the fifty applied: one move, one version.
    assert outcomes["applied"] == 1, figures
    assert after[busy.pk] == (before[busy.pk][0] + 1, before[busy.pk][1] + 1), figures
    # Every other one was refused, as a refusal (a board with its reason), never a fault.
    refusals = {"409 stale_version", "socket stale_version", "409 table_busy", "socket table_busy"}
    assert set(outcomes) - {"applied"} <= refusals, figures
    # Every one answered fast; so were the other tables' moves, and both applied.
    assert max(times) < ANSWER_WITHIN, figures
    assert [o for o, _t in others] == ["applied", "applied"], figures
    assert max(t for _o, t in others) < ANSWER_WITHIN, figures
    assert after[posted.pk][0] == before[posted.pk][0] + 1 and after[socketed.pk][0] == before[socketed.pk][0] + 1
    # Nobody waited out the pool, nothing answered 500, every clock tick ran.
    assert not [line for line in log.splitlines() if any(s in line for s in STARVED)], figures + "\n" + log[-3000:]
