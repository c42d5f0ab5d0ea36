"""The app of bench/ws_load.py with each command's time inside the server taken apart.

``ws_load.py --postgres --app bench.command_trace:application`` runs the app as usual; this module
wraps ``games.commands.carry_out`` (what a move runs on a worker thread) and, every ``TRACE_EVERY``
seconds, appends to ``TRACE_FILE`` (default /tmp/command_trace.txt):

* the command's wall time and its thread's CPU time (p50, p90, p99);
* each SQL statement's wall time, by its first word (``SELECT ... FOR UPDATE`` apart), and the
  commit's: from the call to the answer, so a statement's time is its round trip to the database,
  the database's work and this thread's wait for the GIL once the answer is in;
* the gaps between two statements of a command: this process's Python between them.

It changes nothing a command does.  The figures in bench/README.md ("Tenth round") come from it.
"""

from __future__ import annotations

import collections
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

__all__ = ["application"]

TRACE_FILE = os.environ.get("TRACE_FILE", "/tmp/command_trace.txt")
TRACE_EVERY = float(os.environ.get("TRACE_EVERY", "20"))

_lock = threading.Lock()
_local = threading.local()
_statements: dict[str, list[float]] = collections.defaultdict(list)
_gaps: list[float] = []
_walls: list[float] = []
_cpus: list[float] = []


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
        if not walls:
            continue
        n = len(walls)
        lines = [f"{time.strftime('%H:%M:%S')} {n} commands", _line("command wall", walls, n)]
        lines += [_line("command CPU", cpus, n), _line("between statements", gaps, n)]
        lines += [_line(kind, values, n) for kind, values in sorted(statements.items())]
        with open(TRACE_FILE, "a") as out:
            out.write("\n".join(lines) + "\n")


commands.carry_out = _traced_carry_out
base.BaseDatabaseWrapper._commit = _timed_commit
threading.Thread(target=_report, name="command-trace", daemon=True).start()
