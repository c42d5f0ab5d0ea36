"""The server process's garbage-collector tuning (plumbing/gctune.py)."""

from __future__ import annotations

import subprocess
import sys

from tests.rummyhub.support import ROOT, run_manage


def test_the_server_process_freezes_start_up_objects_and_runs_no_automatic_pass():
    code = "import gc; import rummyhub.asgi; print(gc.isenabled(), gc.get_freeze_count() > 10000)"
    result = run_manage("shell", "--no-imports", "-c", code)
    assert result.stdout.split() == ["False", "True"], result.stderr


# A reference cycle made after tune(): with the automatic passes off, only the collector thread frees it.
CYCLE = (
    "import gc, sys, time, weakref\n"
    "from plumbing import gctune\n"
    "class Node: pass\n"
    "def cycle():\n"
    "    a, b = Node(), Node(); a.b, b.a = b, a\n"
    "    return weakref.ref(a)\n"
    "gctune.tune(full_every=float(sys.argv[1]), growth_mb=float(sys.argv[2]))\n"
    "ref = cycle()\n"
    "junk = [[] for _ in range(20000)]  # containers enough for an automatic pass, were one on\n"
    'kept = b"x" * (int(sys.argv[3]) << 20)  # memory that stays (written): the process grows\n'
    "time.sleep(2.5)\n"
    "print(ref() is None)\n"
)


def _freed(full_every: float, growth_mb: float, grown_mb: int) -> str:
    args = [sys.executable, "-c", CYCLE, str(full_every), str(growth_mb), str(grown_mb)]
    result = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_cyclic_garbage_is_freed_by_the_periodic_full_collection():
    assert _freed(full_every=0.1, growth_mb=10**6, grown_mb=0) == "True"
    # Neither the time nor the growth has come: nothing frees it (no automatic pass either).
    assert _freed(full_every=3600, growth_mb=10**6, grown_mb=100) == "False"


def test_a_process_that_grows_collects_before_its_time():
    assert _freed(full_every=3600, growth_mb=32, grown_mb=100) == "True"
    assert _freed(full_every=3600, growth_mb=32, grown_mb=4) == "False"
