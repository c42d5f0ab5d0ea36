"""Garbage-collector settings for the server process (applied by ``rummyhub.asgi``).

With 1,000 table sockets a process tracks about 280,000 container objects (each socket's
middleware and consumer coroutines, tasks, queues, the loaded boards).  With CPython's default
thresholds (700, 10, 10) a ``bench/ws_load.py`` run (about 90 s of process life) made 3-4 full
collections, each stopping every thread for 80-220 ms of CPU; middle passes took up to 47 ms.  Those
pauses made most of the socket latency's tail (p99 260-370 ms against p50 25-35 ms).

``tune()`` freezes what start-up created (modules, templates, settings: never garbage) out of
every collection, and collects less often: a young pass after 5,000 new objects (a few ms), a
middle pass every 10 of those, a full pass only every 100 middle passes.  Cyclic garbage that
survives into the oldest generation is therefore freed later than with the defaults; memory,
not correctness, is what that trades.
"""

from __future__ import annotations

import gc

THRESHOLDS = (5000, 10, 100)


def tune() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
