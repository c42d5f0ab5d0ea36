"""Garbage-collector settings for the server process (applied by ``rummyhub.asgi``).

With 1,000 table sockets a process tracks about 280,000 container objects (each socket's
middleware and consumer coroutines, tasks, queues, the loaded boards).  CPython starts a young
pass when the containers allocated since the last one outnumber those freed by a threshold; a
socket server replaces most of what it allocates (each socket's pending receive, each table's
loaded version and views), and every object freed counts against that, wherever it lived.  So
passes come seldom and find a young generation of 40,000-75,000 objects, nearly all still in use:
``bench/command_trace.py`` at 250 tables (1,000 sockets, 50 moves/s) counted young passes of up
to 37-93 ms and middle passes of 28-145 ms, nearly all of it one thread's CPU, every few seconds,
each stopping every thread, and freeing 0-700 objects in 20 s.  Those stops were most of the socket
latency's tail (p99 140 and 261 ms with them, 66 and 84 ms without, in alternate runs of
``bench/ws_load.py``; bench/README.md, "Eleventh round").

So ``tune()`` freezes what start-up created (modules, templates, settings: never garbage) out of
every collection and turns the automatic passes off.  Hot paths leave no reference cycles behind
(the Gin meld search's recursive closures did; ``bench/soak.py --memstats`` counts what a
collection frees, by type), and what cyclic garbage there is waits for a collection of our
own on a daemon thread: every ``FULL_EVERY`` seconds, or sooner once the process's resident
memory has grown by ``GROWTH_MB`` since the last one, so a burst of cycles cannot grow
the process for minutes.  (Not by the count of containers allocated and not freed, which
``gc.get_count()`` keeps with the passes off: it cannot go below zero after a collection, so it
climbs in a process that only replaces objects; a trigger of 200,000 fired twice in a minute at
1,000 sockets.)  A collection of everything made since start-up scans everything a busy process
holds: at 1,000 sockets (370,000-510,000 objects) it stopped every thread for 160-420 ms (on the
machines of bench/README.md's rounds).  So each periodic collection freezes what it leaves, as
start-up's objects are, and the next one scans only what came after.  What came after is mostly
what the process replaces (each table's loaded version, its views), so the longer the wait, the
more there is: at 1,000 sockets a collection every 30 s stopped every thread 74-151 ms, every 60 s
143-183 ms, against 261-325 ms for a collection of everything (bench/gc_stops.py); at 100 bot
tables, every 5 minutes, the longest gap between two clock steps was 0.4 s against 0.5 s for the
first (everything).  Shorter waits were tried and not kept: every 30 s the soak's longest gaps
were 0.2 s, but its lateness p99 rose from 681 to 743 ms (0.2 s of every 30 is 0.7 % of the
time, inside the p99; 0.4 s of every 300 is 0.13 %, outside it): the stops stay rare.  A
cycle that was alive at a collection and dies after it waits, frozen, for the thaw: every
``THAW_EVERY`` seconds, or at once when the memory has grown by ``GROWTH_MB`` (so what waits
frozen is bounded too), a collection unfreezes everything and scans it all.  The growth that
brings a collection forward is more than the 130 MB such a process grows by opening its sockets.
"""

from __future__ import annotations

import gc
import logging
import os
import resource
import threading
import time

log = logging.getLogger(__name__)

FULL_EVERY = 300.0  # seconds between two periodic collections at most
THAW_EVERY = 3600.0  # seconds between two collections of everything (the thaw) at most
GROWTH_MB = 256  # growth of the resident memory since the last collection that brings a thaw forward
CHECK_EVERY = 1.0  # seconds between two looks at it
SLOW_FULL_MS = 200.0  # a collection (periodic or thaw) at least this long is logged as a warning

_collector: threading.Thread | None = None
_stop = threading.Event()


def tune(*, full_every: float = FULL_EVERY, growth_mb: float = GROWTH_MB, thaw_every: float = THAW_EVERY) -> None:
    """Freeze start-up's objects, turn the automatic passes off and start the collector thread (once)."""
    global _collector
    gc.collect()
    gc.freeze()
    gc.disable()
    if _collector is None or not _collector.is_alive():
        _stop.clear()
        _collector = threading.Thread(
            target=_collect, args=(full_every, growth_mb, thaw_every, _resident_mb()), name="gc-full", daemon=True
        )
        _collector.start()


def stop() -> None:
    """End the collector thread (tests)."""
    global _collector
    _stop.set()
    if _collector is not None:
        _collector.join(timeout=5)
    _collector = None


_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20


def _resident_mb() -> float:
    """The process's resident memory now (Linux); elsewhere its peak, which is as good a trigger
    for a server started from a small parent (on Linux the peak counts the parent's from before exec)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * _PAGE_MB
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _collect(every: float, growth_mb: float, thaw_every: float, resident: float) -> None:
    last = thawed = time.monotonic()
    while not _stop.wait(min(CHECK_EVERY, every)):
        grown = _resident_mb() - resident
        now = time.monotonic()
        if grown < growth_mb and now - last < every:
            continue
        thaw = grown >= growth_mb or now - thawed >= thaw_every
        started = time.perf_counter()
        if thaw:
            gc.unfreeze()  # start-up's objects too: they are frozen again below, with the rest
            thawed = now
        freed = gc.collect()
        gc.freeze()  # what is left is scanned again only at the next thaw
        last, resident = time.monotonic(), _resident_mb()
        ms = (time.perf_counter() - started) * 1000
        # Every thread of the process waited meanwhile: a long one is worth a line in the log.
        log.log(
            logging.WARNING if ms >= SLOW_FULL_MS else logging.INFO,
            "%s (resident memory %.0f MB higher): %d objects freed, every thread stopped %.0f ms",
            "collection of everything" if thaw else "collection since the last",
            grown,
            freed,
            ms,
        )
