"""One load of a board's data per version per process, shared by the socket pushes.

When a table changes, every socket of that table in this process renders its own
viewer's board.  Without sharing, each render loads the same match row, seats,
log and round scores and parses the same engine snapshot.  ``board_data_for``
hands every render of a burst the same :class:`~games.board.data.BoardData`:
the first caller loads it, callers arriving meanwhile wait for that load, later
ones reuse it while it is fresh.

The data is per match and version, never per viewer (each viewer's projection
is still made by ``board.table.table_context``), so sharing it shares no secret.
A few seat fields change without a version bump (the online dot, the player's
own hand order); entries therefore live only ``TTL`` seconds, a presence change
drops the match's entry (:func:`forget`), and a forced render (reconnect,
resync, the page itself) always loads afresh and refreshes the entry.

Memory: an entry holds a whole board (the match row with its state, seats, the log, the finished
rounds with their outcomes; about 65 KB for a four-seat Manipulation table).  The entry of a
match nobody here watches any more (a finished table, a socket gone) is dropped once it has not
been loaded or used for ``KEEP`` seconds, so a long-running process keeps the boards of its live
tables, not of every table it ever showed; ``MAX_ENTRIES`` caps them all.

Several processes (``REDIS_URL``): a version committed in one is handed to the others
(:func:`on_committed` puts what its write held, ``games.versions.committed.wire``, through
``plumbing.handoff``), and a process whose sockets hear that a table they watch moved takes it from
there (:func:`take_handed`) when it keeps the version before it: the version is then kept as in the
process that made it (:func:`successor`), drawn on the event loop, not read back from the database.
Anything else (a version not handed over or gone, an older base) is loaded as usual.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

from games import selectors, store
from games.board.data import LOG_LENGTH, BoardData, LogEvent
from games.models import Match
from games.versions import committed
from plumbing import handoff

log = logging.getLogger(__name__)

TTL = 2.0  # seconds an entry serves later pushes of the same version
KEEP = 120.0  # seconds an entry nobody loaded or used is kept (as the base of the next incremental load)
MAX_ENTRIES = 1024
HANDOFF_SECONDS = 10.0  # how long a version handed to the other processes stays there

_lock = threading.Lock()
# match id -> (when kept, the data, the match's count of stale() it was kept at: :func:`take_handed`)
_entries: OrderedDict[int, tuple[float, BoardData, int]] = OrderedDict()
_loading: dict[int, threading.Event] = {}
# match id -> how many times its kept seats went out of date without a version (:func:`stale`, :func:`forget`):
# a load that began before one of those may have read a seat's old dot, so it is kept as a base only.
_generations: dict[int, int] = {}
_counter = itertools.count(1)


def peek(match_id: int, *, min_version: int = -1, created_at=None) -> BoardData | None:
    """The kept data of this match at ``min_version`` or later, if fresh; never loads or waits."""
    with _lock:
        entry = _entries.get(match_id)
        if _usable(entry, min_version, created_at):
            _entries.move_to_end(match_id)
            return entry[1]
    return None


def _usable(entry, min_version: int, created_at) -> bool:
    return (
        entry is not None
        and entry[1].version >= min_version
        and (created_at is None or entry[1].match.created_at == created_at)
        and time.monotonic() - entry[0] < TTL
    )


def board_data_for(match_id: int, *, min_version: int = -1, fresh: bool = False, created_at=None) -> BoardData | None:
    """This match's board data at ``min_version`` or later (None if the match is gone).

    ``created_at`` (the match the caller knows) guards against a reused id: an entry of
    another match that had the same id (a reset database) never counts.
    """
    while True:
        with _lock:
            entry = _entries.get(match_id)
            if not fresh and _usable(entry, min_version, created_at):
                _entries.move_to_end(match_id)
                return entry[1]
            pending = _loading.get(match_id)
            if pending is None:
                pending = _loading[match_id] = threading.Event()
                break
        # Someone else is loading this match: wait for it, then look again.
        pending.wait(timeout=5)
        fresh = False
    try:
        with _lock:
            generation = _generations.get(match_id, 0)
        # A newer version of a match kept here (a move made in another process): its row, seats and new
        # log entries in one round trip, the rest as kept (``selectors.board_data_after``).
        previous = latest(match_id)
        data = selectors.board_data_after(previous) if previous is not None else None
        if data is not None:
            remember(data, generation=generation)
            return data
        with one_snapshot():
            match = store.match_row(match_id)
            if match is None:
                forget(match_id)
                return None
            return load(match, generation=generation)
    finally:
        with _lock:
            _loading.pop(match_id, None)
        pending.set()


@contextmanager
def one_snapshot() -> Iterator[None]:
    """The reads of one load see one committed state of the database: the match row, its seats and
    its log of one version (a move committing between two of them is not seen by the second).

    On PostgreSQL a read-only REPEATABLE READ transaction.  SQLite's transactions here take the
    write lock at once (``transaction_mode`` IMMEDIATE), so a load there reads outside one: its log
    still stops at the row's version (``selectors.log_events``), and a move commits seats and row
    together.  Inside a caller's transaction, that one's snapshot rules.
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def load(match: Match, *, generation: int | None = None) -> BoardData:
    """Load this match row's board data now and keep it for the pushes that follow.

    The newest kept entry of the match, however old, saves reading its log again (events are
    append-only; ``selectors.board_data`` checks it is the same match).  ``generation``: the match's
    count of :func:`stale` when the caller read the row (by default, now).
    """
    if generation is None:
        with _lock:
            generation = _generations.get(match.pk, 0)
    data = selectors.board_data(match, previous=latest(match.pk))
    remember(data, generation=generation)
    return data


def on_committed(news: committed.Committed) -> None:
    """A version committed in this process (``games.versions.committed``): keep its board data when the
    write held the whole of it (:func:`successor`), and hand it to the other processes
    (:func:`take_handed`); anything else is loaded by the next push."""
    if news.events and news.seats is not None and news.state is not None:
        successor(news.match, seats=news.seats, state=news.state, events=news.events)
        if handoff.enabled():
            handoff.put(_handoff_key(news.match.pk, news.match.version), committed.wire(news), HANDOFF_SECONDS)


def _handoff_key(match_id: int, version: int) -> str:
    return f"version:{match_id}:{version}"


# (match id, version) -> the take of it under way in this process: its table's other sockets wait for it.
_taking: dict[tuple[int, int], asyncio.Future] = {}


async def take_handed(match_id: int, version: int) -> None:
    """Version ``version`` of a match, committed in another process: keep it from what that process
    handed over (:func:`on_committed`), when the version kept here is the one before it; one read per
    process, however many of its sockets watch the table.  Without it (no such base, nothing handed
    over, another match under that id) nothing is kept, and the push loads the version as usual."""
    with _lock:
        entry = _entries.get(match_id)
    if entry is None or entry[1].version != version - 1 or not handoff.enabled():
        return
    # The move read its seats' dots before it committed; a dot that changed since this process kept the
    # version before (``stale``: heard here, maybe before the move's table.changed) may be newer than
    # theirs.  Then what is taken is kept as a base only (``remember``), and the push loads the version.
    generation = entry[2]
    key = (match_id, version)
    pending = _taking.get(key)
    if pending is not None:
        await asyncio.shield(pending)
        return
    pending = _taking[key] = asyncio.get_running_loop().create_future()
    try:
        packed = await handoff.get(_handoff_key(match_id, version))
        if packed is not None:
            news = committed.unwire(packed)
            # successor checks it follows the version kept here (the same match, round and status, the same people)
            successor(
                news.match,
                seats=news.seats,
                state=selectors.round_state(news.match),
                events=news.events,
                generation=generation,
            )
    except Exception:  # the push loads it instead
        log.exception("table %s: version %s handed over could not be taken", match_id, version)
    finally:
        _taking.pop(key, None)
        pending.set_result(None)


def successor(match: Match, *, seats: list, state, events: list, generation: int | None = None) -> None:
    """A move just committed: keep its version's board data, built from what the service holds.

    ``match`` is the saved row, ``seats`` were read under its lock, ``state`` is the
    engine state stored, ``events`` the log rows the move appended.  Only a move within a round
    that follows the kept version directly qualifies (same round, same status, version + 1): the
    finished rounds and the rematch are then the kept ones, and the log is the kept one plus
    ``events``.  Anything else is left to the next push, which loads the version as usual.
    ``generation``: as :func:`remember`'s (a version taken from another process: :func:`take_handed`).
    """
    previous = latest(match.pk)
    if (
        previous is None
        or previous.match.created_at != match.created_at
        or previous.version != match.version - 1
        or previous.match.status != match.status
        or previous.match.round_number != match.round_number
    ):
        return
    # The seats' users (their names) are the kept ones: the same people sit there within a round.
    if not selectors.seat_people_from(seats, previous):
        return
    new = [LogEvent(e.seq, e.seat, e.summary, e.by_bot) for e in events]
    known = previous.events
    if known and new and [e.seq for e in new] == list(range(known[-1].seq + 1, known[-1].seq + 1 + len(new))):
        log = (list(known) + new)[-LOG_LENGTH:]
    else:
        log = selectors.log_events(match, previous)
    remember(
        BoardData(
            match=match, seats=list(seats), state=state, events=log, rounds=previous.rounds, rematch=previous.rematch
        ),
        generation=generation,
    )


def remember(data: BoardData, *, generation: int | None = None) -> None:
    """Keep a fresh load for the pushes that follow.

    A load that began before a seat's dot changed (``generation`` is no longer the match's) may show
    the old dot: it never replaces an entry of its version or newer, and is kept as a base only (it
    serves no push).
    """
    with _lock:
        pk = data.match.pk
        current = _entries.get(pk)
        outdated = generation is not None and _generations.get(pk, 0) != generation
        same_match = current is not None and current[1].match.created_at == data.match.created_at
        if outdated and same_match and current[1].version >= data.version:
            return
        if not same_match or current[1].version <= data.version:
            now = time.monotonic()
            _entries[pk] = (now - TTL if outdated else now, data, generation if outdated else _generations.get(pk, 0))
            _entries.move_to_end(data.match.pk)
            while len(_entries) > MAX_ENTRIES:
                _entries.popitem(last=False)
            _drop_idle(now)


def _drop_idle(now: float) -> None:
    """Drop the least recently used entries while they are older than KEEP (the caller holds the lock).

    Entries are in order of last use (a load or a hit moves an entry to the end), so the first
    one that is younger than KEEP ends the sweep: usually it stops at once.
    """
    while _entries:
        loaded = next(iter(_entries.values()))[0]
        if now - loaded <= KEEP:
            return
        _entries.popitem(last=False)


def latest(match_id: int) -> BoardData | None:
    """The newest data kept for this match, however old (a base for an incremental load)."""
    with _lock:
        entry = _entries.get(match_id)
    return entry[1] if entry is not None else None


def _next_generation(match_id: int) -> None:
    """The caller holds the lock.  Clearing them all (a long-running process) only makes the loads in
    flight bases, as if a dot had changed."""
    if len(_generations) > 4 * MAX_ENTRIES:
        _generations.clear()
    _generations[match_id] = next(_counter)  # never a value an earlier load read, even after a clear


def stale(match_id: int) -> None:
    """Seat fields changed without a new version (an online dot): the kept entry no longer serves a
    push, but stays the base of the next load (which then reads only what can have changed)."""
    with _lock:
        _next_generation(match_id)
        entry = _entries.get(match_id)
        if entry is not None:
            _entries[match_id] = (entry[0] - TTL, *entry[1:])


def forget(match_id: int) -> None:
    with _lock:
        _next_generation(match_id)
        _entries.pop(match_id, None)


committed.listen(on_committed)
