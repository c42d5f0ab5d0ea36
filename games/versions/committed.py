"""A version committed: the write path says so once its transaction has committed, with what it holds.

The services know nothing of what this process does with a new version (``services`` imports nothing
from ``games.live``).  ``games.services.write.Write.save`` calls :func:`publish` after the commit with
the saved match row and, when the move held the whole of the version (the seats read under the
row's lock, the engine state it stored, the log rows it appended), those too; each listener decides
what to keep.  The live layer's board cache listens (``games.live.boardcache``): the table's sockets
in this process then need not load that version again.

Listeners run in the committing thread, in order; one that fails is logged and the others still run
(the move is committed whatever they do).

Other processes hear of a version through the table's "table changed" message, which carries no
cards.  :func:`wire` packs what a move held of its version (the match row, its seats, its new log
entries) for them and :func:`unwire` unpacks it there; the live layer hands it over through Redis
(``games.live.boardcache`` with ``plumbing.handoff``), so a process whose sockets watch a table another
process moved draws the version without reading it back from the database.  It goes between the
server's processes only (Redis: the same trust as Django's Redis cache, whose entries are pickled as
these are); no socket ever sees it, and it holds what the database row holds, hands and the round's
seed with it.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS

from games.models import Match, Seat

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Committed:
    """Version ``match.version`` of a match, as the move that made it holds it."""

    match: Any  # the saved games.models.Match row
    seats: list | None  # the seats in order (with ``online``), read under the row's lock; None if not held
    state: Any  # the round's engine state stored with it; None if not held
    events: list  # the games.models.Event rows the move appended, in order (:class:`Entry` when unwired)


@dataclass(frozen=True, slots=True)
class Entry:
    """A log row as a board shows it (what :func:`wire` carries of a ``games.models.Event``)."""

    seq: int
    seat: int | None
    summary: dict
    by_bot: bool


_listeners: list[Callable[[Committed], None]] = []


def listen(listener: Callable[[Committed], None]) -> None:
    """Call ``listener`` with every version committed in this process from now on (once per listener)."""
    if listener not in _listeners:
        _listeners.append(listener)


def publish(committed: Committed) -> None:
    for listener in list(_listeners):
        try:
            listener(committed)
        except Exception:
            log.exception("a listener of committed versions failed (match %s)", committed.match.pk)


@cache
def _layout() -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """The match's and a seat's columns (attribute names, in the model's order) and a mark of both: a
    process running other code (a deploy under way) unwires nothing of this one's."""
    match = tuple(f.attname for f in Match._meta.concrete_fields)
    seat = tuple(f.attname for f in Seat._meta.concrete_fields)
    return match, seat, hashlib.blake2b(repr((match, seat)).encode(), digest_size=8).hexdigest()


def wire(news: Committed) -> bytes:
    """``news``, holding the whole version (its seats, its state and its events), packed for another
    process (:func:`unwire`)."""
    match_fields, seat_fields, mark = _layout()
    match = tuple(getattr(news.match, name) for name in match_fields)
    seats = [(*(getattr(seat, name) for name in seat_fields), bool(seat.online)) for seat in news.seats]
    entries = [(e.seq, e.seat, e.summary, e.by_bot) for e in news.events]
    return pickle.dumps((mark, match, seats, entries), protocol=pickle.HIGHEST_PROTOCOL)


def unwire(data: bytes) -> Committed:
    """What :func:`wire` packed: the match row and its seats as the ORM builds them from a read (the
    seats' users not fetched: the caller knows who sits where), the log entries as :class:`Entry`,
    no state (the caller derives it from the row).  ValueError if another version of the code packed it."""
    mark, match_values, seat_rows, entries = pickle.loads(data)  # the server's own processes put it there
    match_fields, seat_fields, expected = _layout()
    if mark != expected:
        raise ValueError("a version packed by other code")
    match = Match.from_db(DEFAULT_DB_ALIAS, match_fields, match_values)
    seats = []
    for row in seat_rows:
        seat = Seat.from_db(DEFAULT_DB_ALIAS, seat_fields, row[:-1])
        seat.online = row[-1]
        seats.append(seat)
    return Committed(match=match, seats=seats, state=None, events=[Entry(*e) for e in entries])
