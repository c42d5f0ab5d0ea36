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


def _printed(script: str, *runs: tuple[float, ...]) -> list[list[str]]:
    """What ``script`` printed in each run, with that run's arguments: each run a process of its own, all at
    once (each mostly waits for its collector thread)."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", script, *map(str, args)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for args in runs
    ]
    outputs = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            outputs.append(out.split())
    finally:
        for proc in procs:  # one failed or hung: the others are not left running
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return outputs


def _freed(*runs: tuple[float, float, int]) -> list[str]:
    """For each run (full_every, growth_mb, grown_mb): whether the cycle was freed."""
    return [" ".join(out) for out in _printed(CYCLE, *runs)]


def test_cyclic_garbage_is_freed_by_the_periodic_full_collection():
    # The second run: neither the time nor the growth has come, so nothing frees it (no automatic pass either).
    assert _freed((0.1, 10**6, 0), (3600, 10**6, 100)) == ["True", "False"]


def test_a_process_that_grows_collects_before_its_time():
    assert _freed((3600, 32, 100), (3600, 32, 4)) == ["True", "False"]


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


def test_a_periodic_collection_freezes_what_it_leaves_so_the_next_scans_only_what_came_after_and_a_thaw_frees_it():
    # The survivors are frozen: the next periodic collection does not look at them, so a cycle among
    # them that dies later waits for the thaw (the first run's thaw never comes; the second's after 1 s).
    assert _printed(FROZEN_CYCLE, (3600,), (1.0,)) == [["True", "False"], ["True", "True"]]
