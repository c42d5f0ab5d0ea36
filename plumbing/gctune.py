"""Garbage-collector settings for the server process (applied by ``rummyhub.asgi``).

With 1,000 table sockets a process tracks about 280,000 container objects (each socket's
middleware and consumer coroutines, tasks, queues, the loaded boards).  With CPython's default
thresholds (700, 10, 10) a ``bench/ws_load.py`` run (about 90 s of process life) made 3-4 full
collections, each stopping every thread for 80-220 ms of CPU; middle passes took up to 47 ms.  Those
pauses made most of the socket latency's tail (p99 260-370 ms against p50 25-35 ms).

``tune()`` freezes what start-up created (modules, templates, settings: never garbage) out of
every collection, and collects less often: a young pass after 5,000 new objects (a few ms), a
middle pass every 10 of those.  The automatic full pass is left out (its threshold would need about
5 million net container allocations: hours under steady load), so cyclic garbage that reached the
oldest generation (a board a process kept for a while: rows that point at each other) is freed by
a full collection of our own every ``FULL_EVERY`` seconds, on a daemon thread.  After the freeze a
full collection scans only what was made since start-up, but it still stops every thread for
~100 ms or more (``bench/soak.py``: 95-330 ms a minute in), so it runs only every few minutes: the
cycles that made most of the garbage (the Gin meld search's recursive closures, ~24,000 objects per
1,000 clock steps) are gone at their root, and what is left is small.
"""

from __future__ import annotations

import gc
import logging
import threading
import time

log = logging.getLogger(__name__)

THRESHOLDS = (5000, 10, 1_000_000)  # the third: never, in practice (FULL_EVERY does it)
FULL_EVERY = 300.0  # seconds
SLOW_FULL_MS = 200.0  # a full collection at least this long is logged as a warning

_collector: threading.Thread | None = None
_stop = threading.Event()


def tune(*, full_every: float = FULL_EVERY) -> None:
    """Freeze start-up's objects, set the thresholds and start the periodic full collection (once)."""
    global _collector
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    if _collector is None or not _collector.is_alive():
        _stop.clear()
        _collector = threading.Thread(target=_collect_every, args=(full_every,), name="gc-full", daemon=True)
        _collector.start()


def stop() -> None:
    """End the periodic collection (tests)."""
    global _collector
    _stop.set()
    if _collector is not None:
        _collector.join(timeout=5)
    _collector = None


def _collect_every(seconds: float) -> None:
    while not _stop.wait(seconds):
        started = time.perf_counter()
        freed = gc.collect()
        ms = (time.perf_counter() - started) * 1000
        # Every thread of the process waited meanwhile: a long one is worth a line in the log.
        log.log(
            logging.WARNING if ms >= SLOW_FULL_MS else logging.INFO,
            "full collection: %d objects freed, every thread stopped %.0f ms",
            freed,
            ms,
        )
