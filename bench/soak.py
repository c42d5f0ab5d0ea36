"""Soak bench of the clock: N bot tables on one daphne process for many minutes.

Every seat of every table is a bot, so the load is the clock's alone: each table's next step
is due ``--bot-delay`` seconds after its last one, and a finished table is replaced by a new one
of the same kind (by this script, in the bench's database), so the load stays steady.  Each table
also has ``--watchers`` spectator sockets (one logged-in watcher), as a lobby of shown tables
would: every step renders and pushes its board, which is where per-match memory lives.

Printed every minute: the daphne process's RSS (VmRSS from /proc), the clock steps taken and the
moves applied (action events) that minute, the clock's lateness (when the step was taken minus
its deadline; every step writes a line to ``RUMMYHUB_CLOCK_TRACE``, read here) p50/p99/max,
the longest gap between two steps and when it ended (UTC, to set beside the database log), and the tables replaced.  At the end: the overall lateness,
the stalls (minutes without a move, gaps over 5 s), the RSS slope of the second half (MB/min,
least squares over 5-second samples) and the last minute against the first (the baseline).

``--tracemalloc`` runs daphne through ``bench.soak:traced_application`` (tracemalloc on, one
frame) and prints, per minute, the traced memory and the lines that grew most since minute 1,
after a ``gc.collect()`` (so what is shown is held, not garbage waiting for a full collection).
It slows the process down: use it to find growth, not to time the clock.

Databases: a fresh SQLite file in /tmp (deleted at the end), or ``--postgres`` (the database
``rummyhub_soak_<pid>`` on 127.0.0.1:5432, this run's own: created and dropped; two runs at
once never touch each other's).  ``--procs 2`` runs two daphne
processes on PostgreSQL and the Redis channel layer (redis://127.0.0.1:6379/5): the watchers are
spread over both, and the steps each process's clock took are printed (they share the due matches).
Bounded: loopback only, a fixed number of tables, ``--minutes`` of measurement; it kills the
daphne processes it started.

Run:  .venv/bin/python bench/soak.py --minutes 3                 # 100 tables, SQLite
      .venv/bin/python bench/soak.py --postgres --workers 4      # PostgreSQL, 4 clock workers
      .venv/bin/python bench/soak.py --minutes 3 --procs 2       # two processes share the clock
      .venv/bin/python bench/soak.py --minutes 3 --tracemalloc   # where does memory grow?
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import os
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
PG_NAME = f"rummyhub_soak_{os.getpid()}"  # this run's own database: another run's is never dropped
PG_URL = f"postgres://postgres@127.0.0.1:5432/{PG_NAME}"
REDIS_URL = "redis://127.0.0.1:6379/5"
GAP_STALL = 5.0  # seconds without any clock step that count as a stall


def percentile(samples: list[float], p: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))]


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (x, y) points."""
    if len(points) < 2:
        return float("nan")
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else float("nan")


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return float("nan")


def rss_parts(pid: int) -> str:
    """Where the RSS is: anonymous memory (the heap), file pages, shared memory (SQLite's -shm)."""
    return ", ".join(f"{name} {rss_mb(pid, 'Rss' + name):.0f}" for name in ("Anon", "File", "Shmem"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------ inside daphne (--tracemalloc)


def __getattr__(name: str):
    """``bench.soak:traced_application``: the site's application with tracemalloc reports;
    ``bench.soak:memstats_application``: with a line of allocator figures a minute (both built
    lazily, so that importing this module as a script imports no Django)."""
    if name == "traced_application":
        import tracemalloc

        tracemalloc.start(1)
        from rummyhub.asgi import application

        threading.Thread(target=_tracemalloc_reports, args=(os.environ["SOAK_TRACEMALLOC"],), daemon=True).start()
        return application
    if name == "memstats_application":
        from rummyhub.asgi import application

        threading.Thread(target=_memstats_reports, args=(os.environ["SOAK_TRACEMALLOC"],), daemon=True).start()
        return application
    raise AttributeError(name)


def _where(obj) -> str:
    """An object's type, and for a function or a frame where its code is."""
    code = getattr(obj, "__code__", None) or getattr(obj, "f_code", None)
    if code is not None:
        return f"{type(obj).__qualname__} {code.co_filename.rsplit('/', 2)[-1]}:{code.co_firstlineno}"
    return type(obj).__qualname__


def _memstats_reports(path: str, every: float = 60.0) -> None:
    """Per minute: objects the gc tracks (and how many a full collection frees: cyclic garbage
    waiting for one, see plumbing/gctune.py), pymalloc's small-object blocks, and glibc's heap
    (in use, free but kept: fragmentation, mmapped): which allocator holds the growth."""
    import ctypes
    import gc
    import tempfile

    class MallInfo2(ctypes.Structure):
        _fields_ = [
            (n, ctypes.c_size_t)
            for n in (
                "arena",
                "ordblks",
                "smblks",
                "hblks",
                "hblkhd",
                "usmblks",
                "fsmblks",
                "uordblks",
                "fordblks",
                "keepcost",
            )
        ]

    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = MallInfo2
    minute = 0
    census = None
    while True:
        time.sleep(every)
        minute += 1
        tracked = len(gc.get_objects())
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collection frees, kept aside to be counted by type
        freed = gc.collect()
        gc.set_debug(0)
        garbage = Counter(_where(o) for o in gc.garbage).most_common(6)
        gc.garbage.clear()
        with tempfile.TemporaryFile(mode="w+") as tf:  # sys._debugmallocstats() writes to the C stderr
            saved = os.dup(2)
            os.dup2(tf.fileno(), 2)
            try:
                sys._debugmallocstats()
            finally:
                os.dup2(saved, 2)
                os.close(saved)
            tf.seek(0)
            stats = {
                " ".join(line.split("=")[0].split()): line.split("=")[1].strip().replace(",", "")
                for line in tf.read().splitlines()
                if line.startswith("# ") and "=" in line
            }
        now = Counter(type(o).__qualname__ for o in gc.get_objects())
        grew = ", ".join(f"{k} {v:+d}" for k, v in (now - census).most_common(8)) if census is not None else ""
        census = now
        info = libc.mallinfo2()
        mb = 2**20
        line = (
            f"minute {minute}: {tracked} gc objects, {freed} freed by a full collection; after it pymalloc "
            f"{int(stats.get('# bytes in allocated blocks', 0)) / mb:.1f} MB in blocks, "
            f"{int(stats.get('# arenas allocated current', 0))} arenas; glibc heap {info.uordblks / mb:.1f} MB "
            f"in use, {info.fordblks / mb:.1f} MB free, {info.hblkhd / mb:.1f} MB mmapped"
            + (f"; held objects grown since the last: {grew}" if grew else "")
            + ("; freed: " + ", ".join(f"{k} {v}" for k, v in garbage) if garbage else "")
        )
        with open(path, "a") as fh:
            fh.write(line + "\n")


def _tracemalloc_reports(path: str, every: float = 60.0, top: int = 15) -> None:
    import gc
    import tracemalloc

    base = None
    census = None
    minute = 0
    while True:
        time.sleep(every)
        minute += 1
        before = tracemalloc.get_traced_memory()[0]
        gc.collect()
        now = Counter(type(o).__qualname__ for o in gc.get_objects())
        grew = ", ".join(f"{k} {v:+d}" for k, v in (now - census).most_common(8)) if census is not None else ""
        census = now
        snap = tracemalloc.take_snapshot().filter_traces(
            [
                tracemalloc.Filter(False, tracemalloc.__file__),
                tracemalloc.Filter(False, "<frozen importlib._bootstrap>"),
            ]
        )
        held = sum(s.size for s in snap.statistics("filename"))
        lines = [
            f"minute {minute}: traced {before / 2**20:.1f} MB before gc.collect(), {held / 2**20:.1f} MB held after"
            f"; {len(gc.get_objects())} objects tracked by gc" + (f", grown since the last: {grew}" if grew else "")
        ]
        if base is None:
            base = snap
        else:
            for stat in snap.compare_to(base, "lineno")[:top]:
                frame = stat.traceback[0]
                lines.append(
                    f"  {stat.size_diff / 1024:+9.0f} KiB {stat.count_diff:+8d} blocks  "
                    f"{os.path.relpath(frame.filename, ROOT)}:{frame.lineno}"
                )
        with open(path, "a") as fh:
            fh.write("\n".join(lines) + "\n")


# ------------------------------------------------------------------ the bench's database


@dataclass
class Slot:
    """One steady table: the match now playing in it (replaced when it ends)."""

    variant: str
    seats: int
    match_id: int
    replaced: int = 0


def server_env(args, db_url: str, secret: str, trace: Path) -> dict[str, str]:
    from bench.ws_load import server_env as bench_server_env  # the bench servers' common settings

    env = bench_server_env(argparse.Namespace(redis=False), db_url, secret)
    env.update(RUMMYHUB_BOT_DELAY=str(args.bot_delay), RUMMYHUB_CLOCK_TRACE=str(trace))
    if args.workers:
        env["RUMMYHUB_CLOCK_WORKERS"] = str(args.workers)
    for item in args.server_env:
        key, _, value = item.partition("=")
        env[key] = value
    if args.tracemalloc or args.memstats:
        env["SOAK_TRACEMALLOC"] = str(trace) + ".tracemalloc"
    if args.procs > 1:  # the broadcasts of one process's steps reach the watchers of the other
        env["REDIS_URL"] = REDIS_URL
        env["REDIS_PREFIX"] = f"soak{os.getpid()}"
    return env


def prepare_database(args, env: dict[str, str]) -> tuple[list[Slot], str]:
    """Migrate, then the watcher's session and the bot tables (in this process)."""
    subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    os.environ.update({k: v for k, v in env.items() if k.startswith(("DJANGO_", "DATABASE_URL", "RUMMYHUB_BOT"))})
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import connections
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    User = get_user_model()
    tag = secrets.token_hex(3)
    host = User.objects.create(username=f"soak{tag}-host", password="!unusable")
    watcher = User.objects.create(username=f"soak{tag}-watcher", password="!unusable")
    key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
    Session.objects.create(
        session_key=key,
        session_data=SessionStore().encode(
            {
                SESSION_KEY: str(watcher.pk),
                BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                HASH_SESSION_KEY: watcher.get_session_auth_hash(),
            }
        ),
        expire_date=timezone.now() + datetime.timedelta(days=1),
    )
    kinds = [(v, int(n)) for v, n in (part.split(":") for part in args.variants.split(","))]
    slots = []
    for i in range(args.tables):
        variant, seats = kinds[i % len(kinds)]
        slots.append(Slot(variant, seats, new_table(host, variant, seats)))
    args.host_id = host.pk
    connections.close_all()
    return slots, key


def new_table(host, variant: str, seats: int) -> int:
    """A started table with a bot in every seat (the host is not seated: seat 0 is a bot too)."""
    from games import services
    from games.models import Seat

    match = services.match_create(host=host, variant=variant, seats_count=seats, bots=seats - 1)
    Seat.objects.filter(match=match, index=0).update(user=None, bot_policy="basic", bot_name="Zuse")
    services.match_start(match_id=match.pk, user=host)
    return match.pk


def replace_finished(slots: list[Slot], host_id: int) -> int:
    """Start a new table in every slot whose match is over; how many were replaced."""
    from django.contrib.auth import get_user_model
    from django.db import connections

    from games.models import Match, MatchStatus

    try:
        over = set(
            Match.objects.filter(
                pk__in=[s.match_id for s in slots], status__in=[MatchStatus.FINISHED, MatchStatus.ABANDONED]
            ).values_list("pk", flat=True)
        )
        if over:
            host = get_user_model().objects.get(pk=host_id)
            for slot in slots:
                if slot.match_id in over:
                    slot.match_id = new_table(host, slot.variant, slot.seats)
                    slot.replaced += 1
        return len(over)
    finally:
        connections.close_all()  # this thread's, also after a failure: never handed out broken


def moves_after(event_id: int) -> tuple[int, int]:
    """(action events after ``event_id``, the newest event id)."""
    from django.db import connections
    from django.db.models import Max

    from games.models import Event

    try:
        newest = Event.objects.aggregate(m=Max("pk"))["m"] or 0
        return Event.objects.filter(pk__gt=event_id, pk__lte=newest, kind="action").count(), newest
    finally:
        connections.close_all()


# ------------------------------------------------------------------ measuring


@dataclass
class Minute:
    steps: int = 0
    late: list[float] = field(default_factory=list)
    outcomes: Counter = field(default_factory=Counter)
    max_gap: float = 0.0
    max_gap_at: float = 0.0  # unix time of the step that ended the longest gap


class Trace:
    """The clock's trace file, read as it grows: one line per step (time, match, lateness, duration, outcome)."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = 0
        self.partial = ""
        self.last_step: float | None = None
        self.gaps: list[float] = []  # every gap over GAP_STALL

    def read(self, minute: Minute) -> None:
        try:
            with open(self.path) as fh:
                fh.seek(self.offset)
                data = fh.read()
                self.offset = fh.tell()
        except FileNotFoundError:
            return
        data = self.partial + data
        lines = data.split("\n")
        self.partial = lines.pop()
        for line in lines:
            parts = line.split()
            if len(parts) != 5:
                continue
            at, late, outcome = float(parts[0]), float(parts[2]), parts[4]
            minute.steps += 1
            minute.late.append(late)
            minute.outcomes[outcome] += 1
            if self.last_step is not None:
                gap = at - self.last_step
                if gap > minute.max_gap:
                    minute.max_gap, minute.max_gap_at = gap, at
                if gap > GAP_STALL:
                    self.gaps.append(gap)
            self.last_step = at if self.last_step is None else max(self.last_step, at)


async def watch(slot: Slot, port: int, session: str, frames: Counter, stopping: asyncio.Event) -> None:
    """A spectator socket on the slot's table, moved to the new table when the slot's match is replaced."""
    from websockets.asyncio.client import connect as ws_connect

    while not stopping.is_set():
        match_id = slot.match_id
        try:
            async with ws_connect(
                f"ws://{HOST}:{port}/ws/tables/{match_id}/",
                additional_headers=[("Cookie", f"sessionid={session}")],
                origin=f"http://{HOST}:{port}",
                open_timeout=30,
                ping_interval=None,
                close_timeout=1,
                max_size=2**23,
                max_queue=None,
            ) as ws:
                while not stopping.is_set() and slot.match_id == match_id:
                    try:
                        await asyncio.wait_for(ws.recv(), timeout=1.0)
                        frames["frames"] += 1
                    except TimeoutError:
                        continue
        except Exception as exc:  # counted; the watcher tries again
            frames[f"socket: {type(exc).__name__}"] += 1
            await asyncio.sleep(1)


def start_clock(port: int) -> None:
    """The clock starts with the process's first request or socket: ask for the home page."""
    import urllib.request

    urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=30).read()


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:8.0f}" if seconds == seconds else "       -"


async def start_servers(args, env: dict[str, str], trace_path: Path) -> list[Server]:
    app = (
        "bench.soak:traced_application"
        if args.tracemalloc
        else "bench.soak:memstats_application"
        if args.memstats
        else "rummyhub.asgi:application"
    )
    servers = []
    for i in range(args.procs):
        server = Server(
            port=free_port(),
            log=Path(f"/tmp/soak-{os.getpid()}-daphne-{i}.log"),
            trace=trace_path if args.procs == 1 else Path(f"{trace_path}.{i}"),
        )
        CLEANUP.append(server.trace)
        with open(server.log, "w") as fh:
            server.proc = subprocess.Popen(
                [str(VENV_BIN / "daphne"), "-b", HOST, "-p", str(server.port), app],
                cwd=ROOT,
                env={**env, "PYTHONPATH": str(ROOT), "RUMMYHUB_CLOCK_TRACE": str(server.trace)},
                stdout=fh,
                stderr=subprocess.STDOUT,
            )
        LIVE.append(server.proc)
        servers.append(server)
    for server in servers:
        end = time.monotonic() + 40
        while True:
            server.check()
            try:
                _r, w = await asyncio.open_connection(HOST, server.port)
                w.close()
                break
            except OSError:
                if time.monotonic() > end:
                    raise RuntimeError(f"daphne did not start; see {server.log}") from None
                await asyncio.sleep(0.2)
        await asyncio.to_thread(start_clock, server.port)
        server.reader = Trace(server.trace)
        server.samples.append((0.0, rss_mb(server.proc.pid)))
        server.parts_at_start = rss_parts(server.proc.pid)
    return servers


@dataclass
class Server:
    """One daphne process: its port, log, clock trace and RSS samples."""

    port: int
    log: Path
    trace: Path
    proc: subprocess.Popen | None = None
    reader: Trace | None = None
    samples: list[tuple[float, float]] = field(default_factory=list)
    parts_at_start: str = ""
    parts_at_end: str = ""

    def check(self) -> None:
        if self.proc.poll() is not None:
            raise RuntimeError(f"daphne exited with {self.proc.returncode}; see {self.log}")

    def stop(self) -> None:
        LIVE.remove(self.proc)
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        text = self.log.read_text(errors="replace")
        # A push racing a watcher's close at the end of the run is no error of the clock.
        errors = text.count("Traceback") - text.count("Attempt to send on a closed protocol")
        if errors > 0 or "ERROR" in text:
            print(f"daphne log: {errors} tracebacks (see {self.log})")
        else:
            self.log.unlink(missing_ok=True)


async def run(args, slots: list[Slot], session: str, env: dict[str, str], trace_path: Path) -> int:
    servers = await start_servers(args, env, trace_path)
    stopping = asyncio.Event()
    frames: Counter = Counter()
    watchers = [
        asyncio.create_task(watch(slot, servers[i % len(servers)].port, session, frames, stopping))
        for i, slot in enumerate(slots)
        for _ in range(args.watchers)
    ]
    _moves, event_id = await asyncio.to_thread(moves_after, 0)
    t0 = time.monotonic()
    rows = []
    print(
        f"soak: {len(slots)} tables ({args.variants}), {args.watchers} watcher socket(s) each, bot delay "
        f"{args.bot_delay:g} s, clock workers {args.workers or 'default'}, {args.db_label}, "
        f"{' '.join(args.server_env) + ', ' if args.server_env else ''}{len(servers)} daphne process(es) "
        f"{', '.join(str(s.proc.pid) for s in servers)}, RSS at start "
        f"{' + '.join(f'{s.samples[0][1]:.0f}' for s in servers)} MB, load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    print(
        f"{'min':>3} {'RSS MB':>7} {'steps':>6} {'moves':>6} {'late p50':>8} {'p99 ms':>8} {'max ms':>8} "
        f"{'max gap s':>9} {'gap ended':>9} {'failed':>6} {'new tables':>10} {'frames':>7}"
        + ("  steps by process, RSS by process" if len(servers) > 1 else ""),
        flush=True,
    )
    minutes = []
    tm_offset = 0
    for m in range(1, args.minutes + 1):
        minute = Minute()
        by_proc = [0] * len(servers)
        replaced = 0
        frames0 = frames["frames"]
        minute_end = t0 + 60 * m
        while (now := time.monotonic()) < minute_end:
            await asyncio.sleep(min(5.0, minute_end - now))
            for i, server in enumerate(servers):
                server.check()
                server.samples.append((time.monotonic() - t0, rss_mb(server.proc.pid)))
                before = minute.steps
                server.reader.read(minute)
                by_proc[i] += minute.steps - before
            try:
                replaced += await asyncio.to_thread(replace_finished, slots, args.host_id)
            except Exception as exc:  # SQLite busy (the server holds the write lock): the next round replaces them
                print(f"    (replacing finished tables failed: {exc}; trying again)", flush=True)
        try:
            moves, event_id = await asyncio.to_thread(moves_after, event_id)
        except Exception as exc:  # counted in the next minute instead
            print(f"    (counting the moves failed: {exc}; counted with the next minute)", flush=True)
            moves = -1  # unknown: not a stall
        minutes.append(minute)
        rss = sum(s.samples[-1][1] for s in servers)
        row = (
            m,
            rss,
            minute.steps,
            moves,
            percentile(minute.late, 50),
            percentile(minute.late, 99),
            max(minute.late, default=float("nan")),
            minute.max_gap,
            minute.outcomes["failed"] + minute.outcomes["held"],
            replaced,
            frames["frames"] - frames0,
        )
        rows.append(row)
        gap_ended = (
            datetime.datetime.fromtimestamp(minute.max_gap_at, datetime.UTC).strftime("%H:%M:%S")
            if minute.max_gap_at
            else "-"
        )  # UTC, to set beside the database's log
        extra = (
            f"  {' / '.join(str(n) for n in by_proc)}, {' / '.join(f'{s.samples[-1][1]:.0f}' for s in servers)}"
            if len(servers) > 1
            else ""
        )
        print(
            f"{m:>3} {row[1]:>7.1f} {row[2]:>6} {row[3]:>6} {fmt(row[4])} {fmt(row[5])} {fmt(row[6])} "
            f"{row[7]:>9.1f} {gap_ended:>9} {row[8]:>6} {row[9]:>10} {row[10]:>7}{extra}",
            flush=True,
        )
        if args.tracemalloc or args.memstats:
            tm_offset = print_tracemalloc(Path(env["SOAK_TRACEMALLOC"]), tm_offset)
    for server in servers:
        server.parts_at_end = rss_parts(server.proc.pid)
    stopping.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    for server in servers:
        server.stop()
    summarise(args, rows, minutes, servers, frames)
    return 0


def print_tracemalloc(path: Path, offset: int) -> int:
    try:
        with open(path) as fh:
            fh.seek(offset)
            text = fh.read()
            offset = fh.tell()
    except FileNotFoundError:
        return offset
    if text:
        print(text.rstrip(), flush=True)
    return offset


def summarise(args, rows, minutes: list[Minute], servers: list[Server], frames: Counter) -> None:
    every = [x for m in minutes for x in m.late]
    stalls = [r[0] for r in rows if r[3] == 0]
    gaps = [g for s in servers for g in s.reader.gaps]
    first, last = rows[0], rows[-1]
    print(
        f"\nsoak: {len(rows)} min, {sum(r[2] for r in rows)} clock steps, {sum(r[3] for r in rows)} moves, "
        f"{sum(r[9] for r in rows)} tables replaced, {frames['frames']} frames to the watchers"
    )
    print(
        f"lateness overall: p50 {percentile(every, 50) * 1000:.0f} ms, p99 {percentile(every, 99) * 1000:.0f} ms, "
        f"max {max(every, default=float('nan')) * 1000:.0f} ms; failed steps {sum(r[8] for r in rows)}"
    )
    longest = f" (longest {max(gaps):.1f} s)" if gaps else ""
    print(
        f"stalls: {len(stalls)} minute(s) without a move {stalls or ''}, {len(gaps)} gap(s) over "
        f"{GAP_STALL:g} s between a process's steps{longest}"
    )
    for i, server in enumerate(servers):
        samples = server.samples
        half = samples[len(samples) // 2 :]
        minute1 = next((mb for t, mb in samples if t >= 60), samples[-1][1])
        print(
            f"RSS{f' (process {i + 1})' if len(servers) > 1 else ''}: {samples[0][1]:.0f} MB at start, "
            f"{minute1:.0f} MB after minute 1, {samples[-1][1]:.0f} MB at the end; "
            f"second-half slope {slope([(t / 60, mb) for t, mb in half]):+.2f} MB/min "
            f"(MB at start: {server.parts_at_start}; at the end: {server.parts_at_end})"
        )

    def ratio(a: float, b: float) -> str:
        return f"{a / b:.2f}" if b and b == b and a == a else "-"

    print(
        f"last minute against the first (baseline): lateness p50 x{ratio(last[4], first[4])}, "
        f"p99 x{ratio(last[5], first[5])}, steps x{ratio(last[2], first[2])}"
    )
    errors = {k: v for k, v in frames.items() if k != "frames"}
    if errors:
        print(f"watcher socket errors: {errors}")


LIVE: list[subprocess.Popen] = []
CLEANUP: list[Path] = []
DROP_DB: list[str] = []


def kill_live(*_a) -> None:
    for p in list(LIVE):
        if p.poll() is None:
            p.kill()
    for path in CLEANUP:
        path.unlink(missing_ok=True)
    for name in DROP_DB:
        subprocess.run(["dropdb", "-h", HOST, "-U", "postgres", "--if-exists", "--force", name])
    DROP_DB.clear()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--minutes", type=int, default=30)
    parser.add_argument("--bot-delay", type=float, default=0.05, help="RUMMYHUB_BOT_DELAY of the server")
    parser.add_argument(
        "--variants",
        default="manipulation:4,gin:2",
        help="variant:seats, comma-separated; the tables take them in turn",
    )
    parser.add_argument("--watchers", type=int, default=1, help="spectator sockets per table")
    parser.add_argument("--workers", type=int, default=0, help="RUMMYHUB_CLOCK_WORKERS (default: the settings')")
    parser.add_argument("--postgres", action="store_true", help=f"use {PG_URL} (created and dropped)")
    parser.add_argument(
        "--procs",
        type=int,
        default=1,
        choices=(1, 2),
        help=f"daphne processes; 2 implies --postgres and the Redis channel layer on {REDIS_URL}",
    )
    parser.add_argument("--tracemalloc", action="store_true", help="per-minute tracemalloc growth report")
    parser.add_argument(
        "--memstats",
        action="store_true",
        help="per-minute allocator figures of daphne (gc objects, pymalloc, glibc heap); no slow-down",
    )
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an environment variable for daphne (repeatable), e.g. MALLOC_ARENA_MAX=2",
    )
    args = parser.parse_args()
    if args.procs > 1:
        args.postgres = True

    signal.signal(signal.SIGTERM, lambda *_a: (kill_live(), os._exit(4)))
    trace = Path(f"/tmp/soak-{os.getpid()}.trace")
    CLEANUP.extend([trace, Path(f"{trace}.tracemalloc")])
    if args.postgres:
        db_url, args.db_label = PG_URL, "PostgreSQL"
        subprocess.run(["createdb", "-h", HOST, "-U", "postgres", PG_NAME], check=True)
        DROP_DB.append(PG_NAME)
    else:
        sqlite_path = Path(f"/tmp/soak-{os.getpid()}.sqlite3")
        db_url, args.db_label = f"sqlite:///{sqlite_path}", "SQLite"
        CLEANUP.extend(Path(f"{sqlite_path}{suffix}") for suffix in ("", "-wal", "-shm"))
    env = server_env(args, db_url, secrets.token_urlsafe(40), trace)
    try:
        t0 = time.perf_counter()
        slots, session = prepare_database(args, env)
        print(f"setup: {len(slots)} tables in {time.perf_counter() - t0:.1f} s", flush=True)
        return asyncio.run(run(args, slots, session, env, trace))
    finally:
        if DROP_DB:
            from django.db import connections

            connections.close_all()
        kill_live()


if __name__ == "__main__":
    sys.exit(main())
