"""The app of bench/ws_load.py with each command's time inside the server taken apart.

``ws_load.py --postgres --app bench.command_trace:traced_application`` runs the app as usual; this module
wraps ``games.commands.carry_out`` (what a move runs on a worker thread) and, every ``TRACE_EVERY``
seconds, appends to ``TRACE_FILE`` (default /tmp/command_trace.txt):

* the command's wall time and its thread's CPU time (p50, p90, p99);
* each SQL statement's wall time, by its first word (``SELECT ... FOR UPDATE`` apart), and the
  commit's: from the call to the answer, so a statement's time is its round trip to the database,
  the database's work and this thread's wait for the GIL once the answer is in;
* the gaps between two statements of a command: this process's Python between them;
* the garbage collector's passes by generation (``gc.callbacks``: each one stops every thread), with
  their thread's CPU, the objects in the generation and how many it freed;
* the event loop's lag: how late a 10-ms sleep on the loop wakes (the loop held by a long callback,
  or by another thread holding the GIL).

``TRACE_GC_TYPES=file`` adds, for each pass over more than 30,000 objects, what they are (by type,
and by the references the collector visits: slow, it stops the process meanwhile);
``TRACE_FULL_AT=seconds`` runs one full collection that long after start-up.

It changes nothing a command does (but for those two).  The figures in bench/README.md ("Tenth
round", "Eleventh round") come from it.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import os
import threading
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")
django.setup()

from django.db import connection  # noqa: E402
from django.db.backends.base import base  # noqa: E402

from games import commands  # noqa: E402
from rummyhub.asgi import application  # noqa: E402  (the app this module serves, its commands wrapped below)

__all__ = ["application", "traced_application"]

TRACE_FILE = os.environ.get("TRACE_FILE", "/tmp/command_trace.txt")
TRACE_EVERY = float(os.environ.get("TRACE_EVERY", "20"))

_lock = threading.Lock()
_local = threading.local()
_statements: dict[str, list[float]] = collections.defaultdict(list)
_gaps: list[float] = []
_walls: list[float] = []
_cpus: list[float] = []
# generation -> each pass's (wall s, its thread's CPU s, objects in the generation, objects freed)
_gc: dict[int, list[tuple[float, float, int, int]]] = collections.defaultdict(list)
_gc_started: list = []  # the pass under way: wall and CPU clocks at its start, objects in its generation
_lags: list[float] = []


def _timed_statement(execute, sql, params, many, context):
    started = time.perf_counter()
    last = getattr(_local, "last", None)
    try:
        return execute(sql, params, many, context)
    finally:
        ended = time.perf_counter()
        _local.last = ended
        kind = sql.split(None, 1)[0].upper() + (" FOR UPDATE" if "FOR UPDATE" in sql else "")
        with _lock:
            if last is not None:
                _gaps.append(started - last)
            _statements[kind].append(ended - started)


_carry_out = commands.carry_out


def _traced_carry_out(*args, **kwargs):
    _local.last = wall = time.perf_counter()
    cpu = time.thread_time()
    try:
        with connection.execute_wrapper(_timed_statement):
            return _carry_out(*args, **kwargs)
    finally:
        with _lock:
            _walls.append(time.perf_counter() - wall)
            _cpus.append(time.thread_time() - cpu)
        _local.last = None


TYPES_FILE = os.environ.get("TRACE_GC_TYPES")  # where to write what a large generation holds


def _gc_pass(phase: str, info: dict) -> None:
    if phase == "start":
        # A full pass collects every generation (with the automatic passes off, most objects are in the youngest).
        young = gc.get_objects() if info["generation"] == 2 else gc.get_objects(info["generation"])
        if TYPES_FILE and len(young) > 30000:
            _dump_types(young)
        _gc_started[:] = [time.perf_counter(), time.thread_time(), len(young)]
    elif _gc_started:
        wall, cpu, young = _gc_started
        _gc[info["generation"]].append((time.perf_counter() - wall, time.thread_time() - cpu, young, info["collected"]))


def _dump_types(objects: list) -> None:
    kinds = collections.Counter()
    reach = collections.Counter()  # what the collector visits: each object's referents, by kind
    largest = []
    for obj in objects:
        name = type(obj).__qualname__
        if isinstance(obj, dict) and obj:
            name += "{" + ",".join(sorted(map(str, list(obj)[:4]))) + "}"
        elif isinstance(obj, (list, tuple)) and obj:
            name += "[" + type(obj[0]).__qualname__ + "]"
        kinds[name] += 1
        referents = len(gc.get_referents(obj))
        reach[name] += referents
        if referents > 1000:
            largest.append((referents, name))
    with open(TYPES_FILE, "a") as out:
        out.write(f"--- {len(objects)} objects, {sum(reach.values())} referents\n")
        out.writelines(f"{n:7d} {k[:160]}\n" for k, n in kinds.most_common(25))
        out.write("by referents:\n")
        out.writelines(f"{n:7d} {k[:160]}\n" for k, n in reach.most_common(15))
        out.write("largest:\n")
        out.writelines(f"{n:7d} {k[:160]}\n" for n, k in sorted(largest, reverse=True)[:15])


LAG_SLEEP = 0.010


async def _lag_probe() -> None:
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(LAG_SLEEP)
        _lags.append(max(0.0, loop.time() - started - LAG_SLEEP))


_probing = False


async def traced_application(scope, receive, send):
    """The app, with the loop's lag probe started in the server's own loop on the first connection."""
    global _probing
    if not _probing:
        _probing = True
        asyncio.get_running_loop().create_task(_lag_probe())
    return await application(scope, receive, send)


_commit = base.BaseDatabaseWrapper._commit


def _timed_commit(self):
    started = time.perf_counter()
    try:
        return _commit(self)
    finally:
        if getattr(_local, "last", None) is not None:  # inside a command
            with _lock:
                _statements["COMMIT"].append(time.perf_counter() - started)


def _pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000


def _line(name: str, values: list[float], per: int) -> str:
    return (
        f"  {name:<18} n={len(values):5d} p50 {_pct(values, 0.5):6.2f} p90 {_pct(values, 0.9):6.2f}"
        f" p99 {_pct(values, 0.99):6.2f} ms, {sum(values) * 1000 / max(1, per):5.2f} ms a command"
    )


def _report() -> None:
    while True:
        time.sleep(TRACE_EVERY)
        with _lock:
            walls, cpus, gaps = _walls[:], _cpus[:], _gaps[:]
            statements = {k: v[:] for k, v in _statements.items()}
            _walls.clear(), _cpus.clear(), _gaps.clear(), _statements.clear()
            passes = {k: v[:] for k, v in _gc.items()}
            _gc.clear()
            lags = _lags[:]
            _lags.clear()
        if not walls:
            continue
        n = len(walls)
        lines = [f"{time.strftime('%H:%M:%S')} {n} commands", _line("command wall", walls, n)]
        lines += [_line("command CPU", cpus, n), _line("between statements", gaps, n)]
        lines += [_line(kind, values, n) for kind, values in sorted(statements.items())]
        for generation, values in sorted(passes.items()):
            wall, cpu, objects, freed = zip(*values, strict=True)
            lines.append(
                f"  gc generation {generation}: {len(values)} passes, {sum(wall) * 1000:.0f} ms in all"
                f" ({sum(cpu) * 1000:.0f} ms of its thread's CPU), max {max(wall) * 1000:.2f} ms;"
                f" objects in the generation {min(objects)}-{max(objects)}, freed {sum(freed)}"
            )
        if lags:
            lines.append(
                f"  loop lag (a {LAG_SLEEP * 1000:.0f}-ms sleep woken late): p50 {_pct(lags, 0.5):.2f}"
                f" p90 {_pct(lags, 0.9):.2f} p99 {_pct(lags, 0.99):.2f} max {max(lags) * 1000:.2f} ms"
            )
        with open(TRACE_FILE, "a") as out:
            out.write("\n".join(lines) + "\n")


commands.carry_out = _traced_carry_out
base.BaseDatabaseWrapper._commit = _timed_commit
gc.callbacks.append(_gc_pass)
threading.Thread(target=_report, name="command-trace", daemon=True).start()

if os.environ.get("TRACE_FULL_AT"):  # one full collection this many seconds in, to see what it scans
    threading.Timer(float(os.environ["TRACE_FULL_AT"]), gc.collect).start()
