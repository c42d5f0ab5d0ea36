"""One command at a time per table in each server process: the others wait here, not on the row.

A table's commands are serialised by its row lock (``SELECT ... FOR UPDATE``) anyway, but a
command waiting for that lock holds one of the process's pooled connections all the while: a
burst of fifty moves at one table held every connection of the process, and every other table,
socket and clock tick of the process waited for the pool.  ``services.with_retry`` (the one door
of the table commands, from the page's forms and from the table socket) passes each command
through this gate first, so at most one command per table and process holds a connection while
it waits for the row.  The others wait on a plain lock, holding no connection, until the
command's deadline at the latest (``Busy``: the table is busy, try again).

The table socket takes the gate on its event loop before it hands a command to a worker thread
(:func:`held_async`), so a queue of moves at one table never occupies the few threads every socket
of the process shares; the thread's ``with_retry`` then finds the gate already held for it (the
holder is the command's context, which the thread inherits) and keeps the deadline.

Entries exist only while a command holds or waits for them: memory is bounded by the commands in
flight.  A lock, not a queue: the order among the waiters is not first come, first served, which
is fine for commands that take milliseconds once they have the table.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable, Hashable, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar

POLL = 0.05  # seconds: an async waiter also looks again this often (a wake-up may be lost to a thread)


class Busy(Exception):
    """The table's gate stayed taken until the command's deadline."""


class _Entry:
    __slots__ = ("lock", "users", "sleepers")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0  # the holder and the waiters: the entry is dropped when none is left
        self.sleepers: list[tuple[asyncio.AbstractEventLoop, asyncio.Future]] = []  # async waiters


_entries: dict[Hashable, _Entry] = {}
_guard = threading.Lock()
_held: ContextVar[tuple] = ContextVar("gate_held", default=())  # the keys this command holds
_deadline: ContextVar[float | None] = ContextVar("gate_deadline", default=None)


def deadline() -> float | None:
    """The running command's deadline (``time.monotonic()``), set while it holds a gate."""
    return _deadline.get()


def open_gates() -> int:
    """How many tables have a command holding or waiting for their gate in this process now."""
    return len(_entries)


def _enter(key: Hashable) -> _Entry:
    with _guard:
        entry = _entries.get(key)
        if entry is None:
            entry = _entries[key] = _Entry()
        entry.users += 1
        return entry


def _leave(key: Hashable, entry: _Entry) -> None:
    with _guard:
        entry.users -= 1
        if entry.users == 0:
            del _entries[key]


def _release(entry: _Entry) -> None:
    entry.lock.release()
    with _guard:
        sleepers, entry.sleepers = entry.sleepers, []
    for loop, future in sleepers:
        try:
            loop.call_soon_threadsafe(_wake, future)
        except RuntimeError:  # that loop has closed: nobody is waiting there any more
            pass


def _wake(future: asyncio.Future) -> None:
    if not future.done():
        future.set_result(None)


@contextmanager
def _holding(key: Hashable, entry: _Entry, ends: float) -> Iterator[None]:
    held, until = _held.set((*_held.get(), key)), _deadline.set(ends)
    try:
        yield
    finally:
        _deadline.reset(until)
        _held.reset(held)
        _release(entry)


@contextmanager
def held(
    key: Hashable, *, timeout: float, budget: float, before_wait: Callable[[], None] | None = None
) -> Iterator[None]:
    """Hold the gate of ``key`` for the block (a worker thread's wait).

    The command's deadline is ``budget`` seconds from now; the gate is waited for at most
    ``timeout`` seconds and never past the deadline, else ``Busy``.  ``before_wait()`` runs only
    when the gate is taken, before waiting: a quick check that may refuse the command without a
    wait, and the moment to give back a pooled connection.  A gate this command holds already
    (its socket took it, or an outer call) passes, with its deadline.
    """
    if key in _held.get():
        yield
        return
    ends = time.monotonic() + budget
    entry = _enter(key)
    try:
        if not entry.lock.acquire(blocking=False):
            if before_wait is not None:
                before_wait()
            wait = min(timeout, ends - time.monotonic())
            if wait <= 0 or not entry.lock.acquire(timeout=wait):
                raise Busy(key)
        with _holding(key, entry, ends):
            yield
    finally:
        _leave(key, entry)


@asynccontextmanager
async def held_async(key: Hashable, *, timeout: float, budget: float) -> AsyncIterator[None]:
    """:func:`held` for an event loop: the wait is the loop's (no thread waits), and the code run
    from the block through ``sync_to_async`` (which inherits this context) holds the gate."""
    if key in _held.get():
        yield
        return
    started = time.monotonic()
    ends, give_up = started + budget, started + min(timeout, budget)
    entry = _enter(key)
    try:
        loop = asyncio.get_running_loop()
        while True:
            # Listed before trying, so that a release in between wakes this waiter.
            sleeper = (loop, loop.create_future())
            with _guard:
                entry.sleepers.append(sleeper)
            try:
                if entry.lock.acquire(blocking=False):
                    break
                left = give_up - time.monotonic()
                if left <= 0:
                    raise Busy(key)
                await asyncio.wait({sleeper[1]}, timeout=min(POLL, left))
            finally:
                with _guard:
                    if sleeper in entry.sleepers:
                        entry.sleepers.remove(sleeper)
        with _holding(key, entry, ends):
            yield
    finally:
        _leave(key, entry)
