"""Websocket load benchmark of the online tables, next to a trivial relay on the same stack.

N tables of 4 scripted clients over real websockets against one daphne process (or two, on
PostgreSQL + Redis, each table's seats 0,1 on process A and 2,3 on process B; with ``--route table``
all four of a table's sockets on one process, every other table on the other, as a proxy that hashes
the table's number routes them).  Every
``--interval`` seconds each table makes one move: the seat whose board says
``data-my-turn="true"`` sends it (action=draw while the board offers Draw, else end_turn) with
the version it last received — as the page does while its socket is open, a command frame on
its socket (``--via socket``, the default; the mover's board comes back on the socket), or as the
form POST to ``/tables/<id>/act/`` of a page without a socket (``--via post``).  Latency of a move
= from sending it to the moment ALL 4 sockets of that table have received a board frame with
``data-version`` ≥ the new version (the mover's own HTTP response does not count).

The relay baseline (bench/relay_asgi.py: join a group per table, relay every received frame to
it) runs in the same invocation with the same sockets, tables and interval; its mover sends the
"move" over its own socket.  Printed per mode: tables, sockets, moves, moves/s, p50/p90/p99/max
latency, errors, timeouts, the daphne processes' CPU (utime+stime from /proc over the measured
window, % of one core, summed over processes), this client's CPU, the daphne processes' CPU per
move (ms), and the app/relay ratios of p50, p99 and CPU per move; below, each window's steal (the
share of the machine's CPU time a virtual machine's host gave to others: a run with steal was not
on a quiet machine).  ``--noise 0.5`` runs a process
burning half a core beside the servers for the whole invocation.  On PostgreSQL each mode's window
also times the database's own commit (``CommitProbe``: a one-row UPDATE committed every 50 ms on a
connection of its own), so a tail made by the disk's flush shows beside the app's.

Databases: by default a throwaway SQLite file in /tmp (migrated here, deleted at the end);
``--postgres`` creates and drops the database ``rummyhub_bench`` on 127.0.0.1:5432;
``--redis`` uses redis://127.0.0.1:6379/13 (FLUSHDB first, a per-run channel prefix: Redis
pub/sub channels are not per-db) and implies ``--postgres``; ``--procs 2`` implies ``--redis``.
Users, sessions and started 4-human Manipulation matches are written directly in that database
before daphne starts.

Bounded: loopback only, a fixed number of tables, ``--seconds`` of measurement per mode, a hard
``--max-total`` for the whole invocation; it kills the daphne processes it started.

Run:  .venv/bin/python bench/ws_load.py --tables 10 --seconds 20
      .venv/bin/python bench/ws_load.py                        # 250 tables, 1 process, SQLite
      .venv/bin/python bench/ws_load.py --postgres             # 1 process, PostgreSQL
      .venv/bin/python bench/ws_load.py --procs 2              # 2 processes, PostgreSQL + Redis
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
PG_URL = "postgres://postgres@127.0.0.1:5432/rummyhub_bench"
REDIS_URL = "redis://127.0.0.1:6379/13"
CLK_TCK = os.sysconf("SC_CLK_TCK")
PREMADE = "benchpre"  # the token prefix of the presence rows made before the app starts (mark_present)

VERSION_RE = re.compile(r'data-version="(\d+)"')
MY_TURN_RE = re.compile(r'data-my-turn="(true|false)"')
ACTION_RE = re.compile(r'data-action="(\w+)"')


def percentile(samples: list[float], p: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def cpu_ticks(pid: int) -> int:
    """utime + stime of a process (all its threads), in clock ticks."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # fields 14 and 15 of stat(5)


def machine_ticks() -> tuple[int, int]:
    """(all, stolen) clock ticks of this machine's CPUs (/proc/stat's first line; steal is the time a
    virtual machine's CPUs were ready to run and the host ran something else)."""
    with open("/proc/stat") as fh:
        fields = [int(x) for x in fh.readline().split()[1:]]
    return sum(fields[:8]), fields[7]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ database setup


@dataclass
class Player:
    seat: int
    session: str


@dataclass
class TableSpec:
    match_id: int
    players: list[Player]


def server_env(args, db_url: str, secret: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="rummyhub.settings",
        DATABASE_URL=db_url,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secret,
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_STATIC_MANIFEST="0",
        WHITENOISE_USE_FINDERS="1",
        DJANGO_LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    if args.redis:
        env["REDIS_URL"] = REDIS_URL
        env["REDIS_PREFIX"] = f"wsbench{os.getpid()}"
    return env


def prepare_database(args, env: dict[str, str]) -> list[TableSpec]:
    """Migrate, then create users, sessions and started 4-human matches (in this process)."""
    subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    # This process writes with the same settings, minus the channel layer (no one listens yet).
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL"))})
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import connections
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from games import services

    User = get_user_model()
    tag = secrets.token_hex(3)
    users = User.objects.bulk_create(
        [User(username=f"wsb{tag}-{i}", password="!unusable") for i in range(args.tables * 4)]
    )
    users = list(User.objects.filter(username__startswith=f"wsb{tag}-").order_by("pk"))
    store = SessionStore()
    expire = timezone.now() + datetime.timedelta(days=1)
    keys = [get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789") for _ in users]
    Session.objects.bulk_create(
        [
            Session(
                session_key=key,
                session_data=store.encode(
                    {
                        SESSION_KEY: str(u.pk),
                        BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                        HASH_SESSION_KEY: u.get_session_auth_hash(),
                    }
                ),
                expire_date=expire,
            )
            for u, key in zip(users, keys, strict=True)
        ]
    )
    tables = []
    for t in range(args.tables):
        seat_users = users[4 * t : 4 * t + 4]
        match = services.match_create(host=seat_users[0], variant="manipulation", seats_count=4)
        for i, u in enumerate(seat_users[1:], start=1):
            services.seat_join(match_id=match.pk, user=u, index=i)
        services.match_start(match_id=match.pk, user=seat_users[0])
        tables.append(TableSpec(match.pk, [Player(i, keys[4 * t + i]) for i in range(4)]))
    connections.close_all()
    return tables


def mark_present(env: dict[str, str]) -> None:
    """Just before the app's daphne starts: every seat counts as connected, no match has a deadline.

    Without this the clock plays for the players whose sockets are still queuing (their turn waits
    only ``DISCONNECT_GRACE`` = 30 s, then three missed turns put the seat on autopilot at one bot
    move per second), which is not the load this benchmark is about.  Bench data only, in the
    bench's own database: one table-socket row per seated player, seen now (it lapses after
    ``RUMMYHUB_PRESENCE_TIMEOUT``, by which time the real sockets have rows of their own); each
    socket's connect then goes through ``services.table_connection_open``.
    """
    from django.db import connections
    from django.utils import timezone

    from games.models import Match, Seat, TableConnection

    now = timezone.now()
    TableConnection.objects.all().delete()  # the rows a killed earlier run left
    Seat.objects.update(last_seen=now, missed_turns=0, autopilot=False)
    TableConnection.objects.bulk_create(
        TableConnection(match_id=match_id, user_id=user_id, opened_at=now, last_seen=now, token=f"{PREMADE}{n:024d}")
        for n, (match_id, user_id) in enumerate(
            Seat.objects.filter(user__isnull=False).values_list("match_id", "user_id")
        )
    )
    Match.objects.update(deadline=None)
    connections.close_all()


def drop_premade() -> int:
    """Once every socket is open, the rows :func:`mark_present` made are dropped (the sockets have their own).

    Left in place they lapse during the window (``RUMMYHUB_PRESENCE_TIMEOUT`` after they were made),
    and the presence sweep then takes every table's lock to delete them: a burst of work a server
    meets only when one of its processes died, not the load this benchmark is about.
    """
    from django.db import connections

    from games.models import TableConnection

    deleted, _rows = TableConnection.objects.filter(token__startswith=PREMADE).delete()
    connections.close_all()
    return deleted


def render_cost(specs: list[TableSpec], n: int = 100) -> str:
    """What one socket push costs on the server, measured in this process on the bench's database.

    The consumer's ``_render`` (Match row, ``selectors.board_data``, ``board.table.table_context``, the board partial) for one
    seat, timed warm and, as ``database_sync_to_async`` runs it with ``CONN_MAX_AGE = 0``,
    with the connection closed after every call; plus its query count.
    """
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.db import connection, connections
    from django.test.utils import CaptureQueriesContext

    from games import selectors
    from games.board import fragments
    from games.models import Match

    spec = specs[0]
    user = get_user_model().objects.get(pk=SessionStore(spec.players[1].session).load()["_auth_user_id"])

    def render():
        match = Match.objects.filter(pk=spec.match_id).first()
        return fragments.board_for(selectors.board_data(match), user).html()

    render()
    with CaptureQueriesContext(connection) as queries:
        html = render()
    t0 = time.perf_counter()
    for _ in range(n):
        render()
    warm = (time.perf_counter() - t0) / n * 1000
    t0 = time.perf_counter()
    for _ in range(n):
        render()
        connections.close_all()
    cold = (time.perf_counter() - t0) / n * 1000
    t0 = time.perf_counter()
    for _ in range(n):
        Match.objects.filter(pk=spec.match_id).exists()
        connections.close_all()
    connect = (time.perf_counter() - t0) / n * 1000
    return (
        f"render cost (this process): one board push = {len(queries)} queries, {len(html) / 1024:.1f} KiB, "
        f"{warm:.1f} ms warm, {cold:.1f} ms with a new connection per call (CONN_MAX_AGE=0); "
        f"a one-query call with its own connection {connect:.1f} ms"
    )


# ------------------------------------------------------------------ daphne processes


class Servers:
    """The daphne processes of one mode; always killed on exit."""

    def __init__(self, app: str, procs: int, env: dict[str, str], label: str):
        self.ports = [free_port() for _ in range(procs)]
        self.logs = [f"/tmp/ws_load-{os.getpid()}-{label}-{i}.log" for i in range(procs)]
        self.procs: list[subprocess.Popen] = []
        for port, log in zip(self.ports, self.logs, strict=True):
            with open(log, "w") as fh:
                self.procs.append(
                    subprocess.Popen(
                        [str(VENV_BIN / "daphne"), "-b", HOST, "-p", str(port), app],
                        cwd=ROOT,
                        env=env,
                        stdout=fh,
                        stderr=subprocess.STDOUT,
                    )
                )
        LIVE.extend(self.procs)

    async def wait_ready(self, timeout: float = 40) -> None:
        end = time.monotonic() + timeout
        for proc, port in zip(self.procs, self.ports, strict=True):
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"daphne on port {port} exited with {proc.returncode}; see {self.logs}")
                try:
                    _r, w = await asyncio.open_connection(HOST, port)
                    w.close()
                    break
                except OSError:
                    if time.monotonic() > end:
                        raise RuntimeError(f"daphne on port {port} did not start; see {self.logs}") from None
                    await asyncio.sleep(0.2)

    def cpu(self) -> int:
        return sum(cpu_ticks(p.pid) for p in self.procs if p.poll() is None)

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            if p in LIVE:
                LIVE.remove(p)


LIVE: list[subprocess.Popen] = []
CLEANUP: list[Path] = []
DROP_DB: list[str] = []


def progress(text: str) -> None:
    print(f"  [{time.strftime('%H:%M:%S')}] {text}", flush=True)


def kill_live(*_a) -> None:
    for p in list(LIVE):
        if p.poll() is None:
            p.kill()
    for path in CLEANUP:
        path.unlink(missing_ok=True)
    for name in DROP_DB:
        subprocess.run(["dropdb", "-h", HOST, "-U", "postgres", "--if-exists", "--force", name])
    DROP_DB.clear()


def abort(code: int, why: str) -> None:
    print(f"ws_load: aborted ({why}); results so far above", flush=True)
    kill_live()
    os._exit(code)


# ------------------------------------------------------------------ clients


@dataclass
class Pending:
    target: int
    t0: float
    got: dict[int, float] = field(default_factory=dict)
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Sock:
    seat: int
    port: int
    ws: object = None
    version: int = -1
    my_turn: bool = False
    actions: tuple[str, ...] = ()
    stale_seen: int = 0


@dataclass
class Table:
    spec: TableSpec
    socks: list[Sock]
    pending: Pending | None = None
    relay_version: int = 0


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    samples: list[tuple[float, list[float]]] = field(default_factory=list)  # (sent at, each socket's delay)
    posts: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    timeouts: int = 0
    stale: int = 0
    late: int = 0
    no_move: int = 0
    frames: int = 0
    frame_bytes: int = 0
    last_frame: float = 0.0


async def http_post(port: int, path: str, fields: dict[str, str], session: str, timeout: float) -> tuple[int, bytes]:
    """One form POST with the session and CSRF cookies, as htmx sends it (raw HTTP/1.1, Connection: close)."""
    token = secrets.token_hex(16)  # 32 chars: a valid unmasked CSRF secret
    body = urlencode(fields).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nOrigin: http://{HOST}:{port}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
        f"Cookie: sessionid={session}; csrftoken={token}\r\nX-CSRFToken: {token}\r\n"
        f"HX-Request: true\r\nConnection: close\r\n\r\n"
    ).encode()

    async def go():
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write(head + body)
            data = await reader.read()
        finally:
            writer.close()
        status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/") else 0
        return status, data

    return await asyncio.wait_for(go(), timeout)


def frame_received(table: Table, sock: Sock, version: int, stats: Stats) -> None:
    now = time.perf_counter()
    stats.last_frame = now
    pending = table.pending
    if pending is not None and version >= pending.target and sock.seat not in pending.got:
        pending.got[sock.seat] = now
        if len(pending.got) == len(table.socks):
            pending.done.set()


async def reader(mode: str, table: Table, sock: Sock, stats: Stats, stopping: asyncio.Event) -> None:
    try:
        async for frame in sock.ws:
            if isinstance(frame, bytes):
                frame = frame.decode()
            stats.frames += 1
            stats.frame_bytes += len(frame)
            if mode == "relay":
                version = json.loads(frame)["v"]
            else:
                m = VERSION_RE.search(frame)
                if m is None:
                    stats.errors["non-board frame"] += 1
                    continue
                version = int(m.group(1))
                if version < sock.version:
                    continue  # an older render overtaken by a newer one
                if STALE_RE.search(frame):
                    sock.stale_seen += 1
                turn = MY_TURN_RE.search(frame)
                sock.my_turn = bool(turn and turn.group(1) == "true")
                # A frame holds the fragments that changed: the buttons are kept until their fragment comes.
                if any(f'id="{part}"' in frame for part in ("actions", "controls", "gin-board", "table-board")):
                    sock.actions = tuple(ACTION_RE.findall(frame))
            sock.version = max(sock.version, version)
            frame_received(table, sock, version, stats)
    except Exception as exc:  # counted, the run goes on
        if not stopping.is_set():
            stats.errors[f"socket: {type(exc).__name__}"] += 1
        return
    if not stopping.is_set():
        stats.errors["socket closed by server"] += 1


async def connect(mode: str, table: Table, sock: Sock, stats: Stats, sem: asyncio.Semaphore, timeout: float) -> bool:
    from websockets.asyncio.client import connect as ws_connect

    if mode == "relay":
        url, headers = f"ws://{HOST}:{sock.port}/ws/relay/{table.spec.match_id}/", []
    else:
        url = f"ws://{HOST}:{sock.port}/ws/tables/{table.spec.match_id}/"
        headers = [("Cookie", f"sessionid={table.spec.players[sock.seat].session}")]
    async with sem:
        try:
            sock.ws = await ws_connect(
                url,
                additional_headers=headers,
                origin=f"http://{HOST}:{sock.port}",
                open_timeout=timeout,
                ping_interval=None,
                close_timeout=1,
                max_size=2**23,
                max_queue=None,
            )
            return True
        except Exception as exc:  # counted
            stats.errors[f"connect: {type(exc).__name__}"] += 1
            return False


STALE_RE = re.compile(r'data-error-code="stale_version"')


async def socket_move(table: Table, sock: Sock, action: str, stats: Stats, args) -> None:
    """The move as the page sends it while its socket is open: a command frame; the answer is the mover's board."""
    version = max(s.version for s in table.socks)
    table.pending = pending = Pending(target=version + 1, t0=time.perf_counter())
    try:
        await sock.ws.send(
            json.dumps({"type": "command", "kind": "act", "fields": {"action": action, "version": str(version)}})
        )
    except Exception as exc:  # counted
        stats.errors[f"send: {type(exc).__name__}"] += 1
        table.pending = None
        return
    await finish(table, pending, stats, args)
    if sock.stale_seen:
        stats.stale += sock.stale_seen
        sock.stale_seen = 0


async def app_move(table: Table, stats: Stats, args) -> None:
    acting = [s for s in table.socks if s.my_turn]
    if len(acting) != 1:
        stats.no_move += 1
        return
    sock = acting[0]
    action = "draw" if "draw" in sock.actions else "end_turn" if "end_turn" in sock.actions else None
    if action is None:
        stats.no_move += 1
        return
    if args.via == "socket":
        await socket_move(table, sock, action, stats, args)
        return
    version = max(s.version for s in table.socks)
    for attempt in range(2):  # a 409 answers with the current board: retry once from its version, as htmx would
        table.pending = pending = Pending(target=version + 1, t0=time.perf_counter())
        try:
            status, data = await http_post(
                sock.port,
                f"/tables/{table.spec.match_id}/act/",
                {"action": action, "version": str(version)},
                table.spec.players[sock.seat].session,
                args.move_timeout,
            )
        except Exception as exc:  # counted
            stats.errors[f"post: {type(exc).__name__}"] += 1
            table.pending = None
            return
        stats.posts.append(time.perf_counter() - pending.t0)
        current = VERSION_RE.search(data.decode("utf-8", "replace"))
        if status == 409 and attempt == 0 and current is not None:
            stats.stale += 1
            version = int(current.group(1))
            continue
        break
    if status == 409:
        stats.stale += 1
        table.pending = None
        return
    if status != 200:
        stats.errors[f"post: HTTP {status}"] += 1
        table.pending = None
        return
    await finish(table, pending, stats, args)


async def relay_move(table: Table, stats: Stats, args) -> None:
    sock = table.socks[table.relay_version % len(table.socks)]
    table.relay_version += 1
    table.pending = pending = Pending(target=table.relay_version, t0=time.perf_counter())
    try:
        await sock.ws.send(json.dumps({"v": table.relay_version}))
    except Exception as exc:  # counted
        stats.errors[f"send: {type(exc).__name__}"] += 1
        table.pending = None
        return
    await finish(table, pending, stats, args)


async def finish(table: Table, pending: Pending, stats: Stats, args) -> None:
    remaining = args.move_timeout - (time.perf_counter() - pending.t0)
    try:
        await asyncio.wait_for(pending.done.wait(), max(remaining, 0.01))
        stats.latencies.append(max(pending.got.values()) - pending.t0)
        stats.samples.append((pending.t0, sorted(t - pending.t0 for t in pending.got.values())))
    except TimeoutError:
        stats.timeouts += 1
    table.pending = None


async def mover(mode: str, table: Table, stats: Stats, args, start: float, end: float, phase: float) -> None:
    move = relay_move if mode == "relay" else app_move
    due = start + phase
    while due < end:
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        elif delay < -0.05:
            stats.late += 1  # the previous move was still waiting for its frames
        await move(table, stats, args)
        due += args.interval


async def settle(tables: list[Table], stats: Stats, quiet: float, cap: float) -> float:
    """Wait until every table's 4 sockets agree on a version and no frame came for ``quiet`` s."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < cap:
        agreed = all(
            len({s.version for s in t.socks}) == 1 and t.socks[0].version >= 0
            for t in tables
            if all(s.ws is not None for s in t.socks)
        )
        if agreed and time.perf_counter() - stats.last_frame > quiet:
            break
        await asyncio.sleep(0.2)
    return time.perf_counter() - t0


class CommitProbe:
    """The database's own commit time over a mode's window: on a connection of its own, a one-row
    UPDATE committed every ``every`` seconds (its row in a table of its own, so it waits on no table's
    lock).  A commit waits for the WAL to reach the disk: when the disk stalls, every move's commit
    waits as long, and that is this machine's share of the app's tail (the relay touches no database).
    PostgreSQL only; SQLite has no separate server to ask."""

    def __init__(self, url: str, every: float = 0.05):
        import psycopg  # the app's driver, in the venv

        self.conn = psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=False)
        with self.conn.cursor() as cur:
            cur.execute("CREATE TABLE IF NOT EXISTS bench_commit_probe (id int PRIMARY KEY, n int NOT NULL)")
            cur.execute("INSERT INTO bench_commit_probe VALUES (1, 0) ON CONFLICT (id) DO NOTHING")
        self.conn.commit()
        self.every = every
        self.times: list[float] = []
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name="commit-probe", daemon=True)

    def _run(self) -> None:
        while not self.stop_event.wait(self.every):
            with self.conn.cursor() as cur:
                cur.execute("UPDATE bench_commit_probe SET n = n + 1 WHERE id = 1")
            t0 = time.perf_counter()
            self.conn.commit()
            self.times.append(time.perf_counter() - t0)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> list[float]:
        self.stop_event.set()
        self.thread.join(timeout=5)
        self.conn.close()
        return self.times


def _process_of(route: str, table: int, seat: int) -> int:
    """Which process (of two) a socket goes to: by seat (each table's seats 0,1 on one and 2,3 on the
    other, so every version is loaded and drawn in both) or by table (all of a table's sockets on one,
    as a proxy hashing the table's number sends them: README "Production outline")."""
    return table if route == "table" else seat // 2


async def run_mode(mode: str, args, specs: list[TableSpec], servers: Servers) -> dict:
    stats = Stats()
    stopping = asyncio.Event()
    await servers.wait_ready()
    n_ports = len(servers.ports)
    tables = [
        Table(spec, [Sock(p.seat, servers.ports[_process_of(args.route, i, p.seat) % n_ports]) for p in spec.players])
        for i, spec in enumerate(specs)
    ]
    sem = asyncio.Semaphore(args.connect_concurrency)
    t_connect = time.perf_counter()
    tasks = [
        asyncio.create_task(connect(mode, t, s, stats, sem, args.connect_timeout)) for t in tables for s in t.socks
    ]
    _done, cut = await asyncio.wait(tasks, timeout=args.connect_phase)
    for task in cut:
        task.cancel()
    await asyncio.gather(*cut, return_exceptions=True)
    if cut:
        stats.errors["connect: cut by --connect-phase"] += len(cut)
    readers = [
        asyncio.create_task(reader(mode, t, s, stats, stopping)) for t in tables for s in t.socks if s.ws is not None
    ]
    connected = len(readers)
    progress(f"{mode}: {connected}/{4 * len(tables)} sockets open after {time.perf_counter() - t_connect:.1f} s")
    if mode == "app":
        settled = await settle(tables, stats, quiet=1.5, cap=args.settle_cap)
        await asyncio.to_thread(drop_premade)
    else:
        settled = 0.0
    t_connect = time.perf_counter() - t_connect
    live = [t for t in tables if all(s.ws is not None for s in t.socks)]
    progress(f"{mode}: settled after {t_connect:.1f} s; measuring {args.seconds:g} s")
    rng = random.Random(7)
    spy = None
    if mode == "app" and args.pyspy:
        spy = subprocess.Popen(
            [
                str(VENV_BIN / "py-spy"),
                "record",
                *(["--gil"] if args.pyspy_gil else []),
                "-r",
                str(args.pyspy_rate),
                "-d",
                str(int(args.seconds)),
                "-o",
                args.pyspy,
                "--pid",
                str(servers.procs[0].pid),
                "--nonblocking",
                "-f",
                "flamegraph" if args.pyspy.endswith(".svg") else "raw",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        LIVE.append(spy)
    probe = CommitProbe(DB_URL[0]) if DB_URL and DB_URL[0].startswith("postgres") else None
    if probe is not None:
        probe.start()
    cpu0, bench0, w0, machine0 = servers.cpu(), cpu_ticks(os.getpid()), time.perf_counter(), machine_ticks()
    start = time.perf_counter() + 0.1
    end = start + args.seconds
    await asyncio.gather(*[mover(mode, t, stats, args, start, end, rng.uniform(0, args.interval)) for t in live])
    wall = time.perf_counter() - w0
    cpu1, bench1, machine1 = servers.cpu(), cpu_ticks(os.getpid()), machine_ticks()
    commits = await asyncio.to_thread(probe.stop) if probe is not None else []
    stopping.set()
    if spy is not None:
        await asyncio.to_thread(spy.wait, 30)
        LIVE.remove(spy)
    if args.samples:
        t_start = min((t0 for t0, _ in stats.samples), default=0.0)
        wall_start = time.time() - (time.perf_counter() - t_start)
        Path(args.samples.replace(".json", f"-{mode}.json")).write_text(
            json.dumps(
                {
                    "start": wall_start,
                    "moves": [[round(t0 - t_start, 4), [round(d, 4) for d in delays]] for t0, delays in stats.samples],
                }
            )
        )
    servers.stop()  # first: the 1,000 disconnects would otherwise each bump a match
    for t in tables:
        for s in t.socks:
            if s.ws is not None:
                s.ws.transport.abort()
    for r in readers:
        r.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    return {
        "mode": mode,
        "procs": n_ports,
        "tables": len(live),
        "sockets": connected,
        "moves": len(stats.latencies),
        "mps": len(stats.latencies) / args.seconds,
        "p50": percentile(stats.latencies, 50) * 1000,
        "p90": percentile(stats.latencies, 90) * 1000,
        "p99": percentile(stats.latencies, 99) * 1000,
        "max": (max(stats.latencies) * 1000) if stats.latencies else float("nan"),
        "post50": percentile(stats.posts, 50) * 1000 if stats.posts else float("nan"),
        "errors": sum(stats.errors.values()),
        "error_kinds": dict(stats.errors),
        "timeouts": stats.timeouts,
        "stale": stats.stale,
        "late": stats.late,
        "no_move": stats.no_move,
        "cpu": 100 * (cpu1 - cpu0) / CLK_TCK / wall,
        # The servers' CPU per move: every move's frames to its table's four sockets, and the move itself.
        "cpu_move": 1000 * (cpu1 - cpu0) / CLK_TCK / len(stats.latencies) if stats.latencies else float("nan"),
        "bench_cpu": 100 * (bench1 - bench0) / CLK_TCK / wall,
        # The machine's CPU time the host took for others over the window (% of all its CPUs' time).
        "steal": 100 * (machine1[1] - machine0[1]) / max(1, machine1[0] - machine0[0]),
        "connect_s": t_connect,
        "settle_s": settled,
        "frames": stats.frames,
        "frame_kb": stats.frame_bytes / max(stats.frames, 1) / 1024,
        "commits": len(commits),
        "commit50": percentile(commits, 50) * 1000 if commits else float("nan"),
        "commit99": percentile(commits, 99) * 1000 if commits else float("nan"),
        "commit_max": max(commits) * 1000 if commits else float("nan"),
    }


def print_results(results: list[dict], args, db_label: str) -> None:
    relay = next((r for r in results if r["mode"] == "relay"), None)
    print(
        f"\nws_load: {db_label}, channel layer {'Redis' if args.redis else 'in-memory'}, "
        f"app moves sent {'over the socket' if args.via == 'socket' else 'as HTTP POSTs'}, "
        f"{'' if args.procs == 1 else 'sockets routed by ' + args.route + ', '}"
        f"a move per table every {args.interval:g} s, {args.seconds:g} s measured per mode, "
        f"{os.cpu_count()} CPUs, load average before {LOAD_BEFORE}"
    )
    head = (
        f"{'mode':<6} {'procs':>5} {'tables':>6} {'sockets':>7} {'moves':>6} {'moves/s':>7} {'p50 ms':>7} "
        f"{'p90 ms':>7} {'p99 ms':>7} {'max ms':>7} {'errors':>6} {'tmouts':>6} {'daphne CPU%':>11} "
        f"{'bench CPU%':>10} {'CPU ms/move':>11} {'p50 x':>6} {'p99 x':>6} {'CPU x':>6}"
    )
    print(head, flush=True)
    for r in results:
        ratio50 = r["p50"] / relay["p50"] if relay and relay["p50"] else float("nan")
        ratio99 = r["p99"] / relay["p99"] if relay and relay["p99"] else float("nan")
        ratio_cpu = r["cpu_move"] / relay["cpu_move"] if relay and relay["cpu_move"] else float("nan")
        print(
            f"{r['mode']:<6} {r['procs']:>5} {r['tables']:>6} {r['sockets']:>7} {r['moves']:>6} {r['mps']:>7.1f} "
            f"{r['p50']:>7.1f} {r['p90']:>7.1f} {r['p99']:>7.1f} {r['max']:>7.1f} {r['errors']:>6} "
            f"{r['timeouts']:>6} {r['cpu']:>11.0f} {r['bench_cpu']:>10.0f} {r['cpu_move']:>11.2f} "
            f"{ratio50:>6.1f} {ratio99:>6.1f} {ratio_cpu:>6.1f}"
        )
    for r in results:
        extra = (
            f"  {r['mode']}: {r['tables']}/{args.tables} tables with 4 open sockets moved, "
            f"connect+settle {r['connect_s']:.1f} s, frames {r['frames']} "
            f"(avg {r['frame_kb']:.1f} KiB), late ticks {r['late']}, stale {r['stale']}, "
            f"no move {r['no_move']}, the host's steal {r['steal']:.1f} % of the machine's CPU time"
        )
        if r["commits"]:
            extra += (
                f", the database's own commit ({r['commits']} probes) p50 {r['commit50']:.1f} "
                f"p99 {r['commit99']:.1f} max {r['commit_max']:.1f} ms"
            )
        if r["mode"] == "app" and args.via == "post":
            extra += f", POST→response p50 {r['post50']:.1f} ms"
        if r["error_kinds"]:
            extra += f", errors {r['error_kinds']}"
        print(extra)
    if args.noise:
        print(f"  noise: a process burning {args.noise:g} of a core beside the servers throughout")
    target = next((r for r in results if r["mode"] == "app"), None)
    if target and len(results) == len(args.modes):
        verdict = "met" if target["p99"] <= 100 and not target["errors"] and not target["timeouts"] else "MISSED"
        print(f"target p99 <= 100 ms with no errors/timeouts: {verdict}")
        if relay:
            cpu_ok = target["cpu_move"] <= 3 * relay["cpu_move"]
            p99_ok = target["p99"] <= max(50.0, 3 * relay["p99"])
            print(
                f"target CPU per move <= 3x the relay's: {'met' if cpu_ok else 'MISSED'}; "
                f"p99 <= max(50 ms, 3x the relay's p99): {'met' if p99_ok else 'MISSED'}"
            )


LOAD_BEFORE = ""
DB_URL: list[str] = []  # the bench's database (CommitProbe), set by main


NOISE = """
import time
busy, period = {fraction} * 0.01, 0.01
while True:
    t = time.perf_counter()
    while time.perf_counter() - t < busy:
        pass
    time.sleep(max(0.0, period - (time.perf_counter() - t)))
"""


def start_noise(fraction: float) -> None:
    """A process beside the servers that burns ``fraction`` of one core (busy 10 ms x fraction of every 10 ms)
    until the bench ends (killed with the servers, ``kill_live``)."""
    noise = subprocess.Popen([sys.executable, "-c", NOISE.format(fraction=fraction)])
    LIVE.append(noise)
    progress(f"noise: pid {noise.pid} burns {fraction:g} of a core")


async def main_async(args, specs, env, db_label: str) -> list[dict]:
    results = []
    for mode in args.modes:
        if mode == "relay":
            servers = Servers("bench.relay_asgi:application", args.procs, env, "relay")
        else:
            await asyncio.to_thread(mark_present, env)
            servers = Servers(args.app, args.procs, env, "app")
        try:
            results.append(await run_mode(mode, args, specs, servers))
        finally:
            servers.stop()
        if mode != args.modes[-1]:
            print_results(results, args, db_label)
    return results


def main() -> int:
    global LOAD_BEFORE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between two moves of a table")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured window per mode")
    parser.add_argument("--procs", type=int, default=1, choices=(1, 2))
    parser.add_argument(
        "--route",
        choices=("seat", "table"),
        default="seat",
        help="--procs 2: a table's sockets split by seat over the two processes, or all on one (by table)",
    )
    parser.add_argument("--postgres", action="store_true", help=f"use {PG_URL} (dropped and created)")
    parser.add_argument("--redis", action="store_true", help=f"channel layer on {REDIS_URL} (implies --postgres)")
    parser.add_argument("--modes", default="relay,app", help="comma-separated: relay, app")
    parser.add_argument("--move-timeout", type=float, default=10.0)
    parser.add_argument("--connect-timeout", type=float, default=60.0)
    parser.add_argument("--connect-concurrency", type=int, default=20)
    parser.add_argument(
        "--connect-phase",
        type=float,
        default=75.0,
        help="seconds allowed for opening the sockets; sockets still pending are cut",
    )
    parser.add_argument(
        "--settle-cap", type=float, default=20.0, help="max seconds to wait for the connect storm's re-renders to end"
    )
    parser.add_argument("--max-total", type=float, default=300.0, help="hard cap on the whole invocation")
    parser.add_argument(
        "--app",
        default="rummyhub.asgi:application",
        help="ASGI application of the app mode (e.g. an experiment wrapping it; PYTHONPATH is passed on)",
    )
    parser.add_argument(
        "--render-cost",
        action="store_true",
        help="first time one board push in this process (queries, ms warm / new connection)",
    )
    parser.add_argument(
        "--via",
        choices=("socket", "post"),
        default="socket",
        help="how a move is sent: over the table socket, as the page does while it is open "
        "(default), or as the form POST of a page without a socket",
    )
    parser.add_argument(
        "--samples", metavar="JSON", help="write every move's send time and per-socket delays (seconds) here"
    )
    parser.add_argument(
        "--noise",
        type=float,
        default=0.0,
        metavar="FRACTION",
        help="run a process burning this fraction of one core beside the servers (started and stopped here)",
    )
    parser.add_argument("--pyspy-gil", action="store_true", help="py-spy samples only the thread holding the GIL")
    parser.add_argument("--pyspy-rate", type=int, default=100, help="py-spy samples a second")
    parser.add_argument(
        "--pyspy",
        metavar="SVG",
        help="py-spy record the (first) app daphne over the window (.svg: flame graph, else collapsed stacks)",
    )
    args = parser.parse_args()
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if args.procs > 1:
        args.redis = True
    if args.redis:
        args.postgres = True

    signal.signal(signal.SIGALRM, lambda *_a: abort(3, f"--max-total {args.max_total:g} s reached"))
    signal.alarm(int(args.max_total))
    signal.signal(signal.SIGTERM, lambda *_a: abort(4, "SIGTERM"))
    LOAD_BEFORE = f"{os.getloadavg()[0]:.2f}"

    secret = secrets.token_urlsafe(40)
    sqlite_path = None
    if os.environ.get("DATABASE_URL") and not args.postgres:
        db_url, db_label = os.environ["DATABASE_URL"], "DATABASE_URL from the environment"
    elif args.postgres:
        db_url, db_label = PG_URL, "PostgreSQL"
        subprocess.run(["dropdb", "-h", HOST, "-U", "postgres", "--if-exists", "rummyhub_bench"], check=True)
        subprocess.run(["createdb", "-h", HOST, "-U", "postgres", "rummyhub_bench"], check=True)
        DROP_DB.append("rummyhub_bench")
    else:
        sqlite_path = Path(f"/tmp/ws_load-{os.getpid()}.sqlite3")
        db_url, db_label = f"sqlite:///{sqlite_path}", "SQLite"
        CLEANUP.extend(Path(f"{sqlite_path}{suffix}") for suffix in ("", "-wal", "-shm"))
    if args.redis:
        subprocess.run(
            ["redis-cli", "-n", REDIS_URL.rsplit("/", 1)[1], "FLUSHDB"], check=True, stdout=subprocess.DEVNULL
        )
    env = server_env(args, db_url, secret)
    DB_URL[:] = [db_url]
    if not 0.0 <= args.noise <= 1.0:
        parser.error("--noise is a fraction of one core, from 0 to 1")
    try:
        if args.noise:
            start_noise(args.noise)
        t0 = time.perf_counter()
        specs = (
            prepare_database(args, env)
            if "app" in args.modes
            else [TableSpec(i + 1, [Player(s, "") for s in range(4)]) for i in range(args.tables)]
        )
        print(
            f"setup: {len(specs)} tables, {4 * len(specs)} users/sessions in {time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        if args.render_cost and "app" in args.modes:
            print(render_cost(specs), flush=True)
        results = asyncio.run(main_async(args, specs, env, db_label))
        print_results(results, args, db_label)
    finally:
        from django.conf import settings

        if DROP_DB and settings.configured:  # a relay-only run never set Django up (no connection to close)
            from django.db import connections

            connections.close_all()
        kill_live()
    return 0


if __name__ == "__main__":
    sys.exit(main())
