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


def _printed(script: str, *args: float) -> list[str]:
    """What ``script`` printed, run in a process of its own with ``args``."""
    result = subprocess.run(
        [sys.executable, "-c", script, *map(str, args)], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def _freed(full_every: float, growth_mb: float, grown_mb: int) -> str:
    return " ".join(_printed(CYCLE, full_every, growth_mb, grown_mb))


def test_cyclic_garbage_is_freed_by_the_periodic_full_collection():
    assert _freed(full_every=0.1, growth_mb=10**6, grown_mb=0) == "True"
    # Neither the time nor the growth has come: nothing frees it (no automatic pass either).
    assert _freed(full_every=3600, growth_mb=10**6, grown_mb=100) == "False"


def test_a_process_that_grows_collects_before_its_time():
    assert _freed(full_every=3600, growth_mb=32, grown_mb=100) == "True"
    assert _freed(full_every=3600, growth_mb=32, grown_mb=4) == "False"


# A cycle alive at a periodic collection, let go of after it: frozen with the collection's other
# survivors, so only a thaw (a collection of everything, every ``thaw_every`` seconds) frees it.
FROZEN_CYCLE = (
    "import gc, sys, time, weakref\n"
    "from plumbing import gctune\n"
    "class Node: pass\n"
    "gctune.tune(full_every=0.2, growth_mb=10**6, thaw_every=float(sys.argv[1]))\n"
    "frozen = gc.get_freeze_count()  # start-up's\n"
    "a, b = Node(), Node(); a.b, b.a = b, a\n"
    "ref = weakref.ref(a)\n"
    "made = [[] for _ in range(5000)]  # survivors of the first periodic collection\n"
    "time.sleep(0.5)  # a periodic collection or two (no thaw yet): the cycle and `made` survive, frozen\n"
    "print(gc.get_freeze_count() - frozen >= 5000)\n"
    "del a, b\n"
    "time.sleep(2.0)\n"
    "print(ref() is None)\n"
)


def _frozen_cycle(thaw_every: float) -> list[str]:
    return _printed(FROZEN_CYCLE, thaw_every)


def test_a_periodic_collection_freezes_what_it_leaves_so_the_next_scans_only_what_came_after():
    # The survivors are frozen: the next periodic collection does not look at them, so a cycle among
    # them that dies later waits for the thaw.
    assert _frozen_cycle(thaw_every=3600) == ["True", "False"]


def test_the_thaw_collects_everything_again():
    assert _frozen_cycle(thaw_every=1.0) == ["True", "True"]
