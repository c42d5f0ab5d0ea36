"""The server process's garbage-collector tuning (plumbing/gctune.py)."""

from __future__ import annotations

import subprocess
import sys

from tests.rummyhub.support import ROOT, run_manage


def test_the_server_process_freezes_start_up_objects_and_collects_less_often():
    code = (
        "import gc; import rummyhub.asgi; from plumbing import gctune;"
        "print(gc.get_threshold() == gctune.THRESHOLDS, gc.get_freeze_count() > 10000)"
    )
    result = run_manage("shell", "--no-imports", "-c", code)
    assert result.stdout.split() == ["True", "True"], result.stderr


def test_cyclic_garbage_in_the_oldest_generation_is_freed_by_the_periodic_full_collection():
    # The automatic full pass is off (gctune.THRESHOLDS); a cycle that reached the oldest
    # generation is freed only by the collector thread.  Without it, it stays for hours.
    code = (
        "import gc, sys, time, weakref\n"
        "from plumbing import gctune\n"
        "class Node: pass\n"
        "def cycle():\n"
        "    a, b = Node(), Node(); a.b, b.a = b, a\n"
        "    ref = weakref.ref(a); gc.collect(1); return ref\n"  # survivors of gen 1 go to gen 2
        "gctune.tune(full_every=float(sys.argv[1]))\n"
        "ref = cycle(); time.sleep(0.8)\n"
        "print(ref() is None)\n"
    )
    freed = subprocess.run([sys.executable, "-c", code, "0.1"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    kept = subprocess.run([sys.executable, "-c", code, "3600"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert freed.stdout.split() == ["True"], freed.stderr
    assert kept.stdout.split() == ["False"], kept.stderr
