"""A version committed: the write path says so once its transaction has committed, with what it holds.

The services know nothing of what this process does with a new version (``services`` imports nothing
from ``games.live``).  ``games.services.write.Write.save`` calls :func:`publish` after the commit with
the saved match row and, when the move held the whole of the version (the seats read under the
row's lock, the engine state it stored, the log rows it appended), those too; each listener decides
what to keep.  The live layer's board cache listens (``games.live.boardcache``): the table's sockets
in this process then need not load that version again.

Listeners run in the committing thread, in order; one that fails is logged and the others still run
(the move is committed whatever they do).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Committed:
    """Version ``match.version`` of a match, as the move that made it holds it."""

    match: Any  # the saved games.models.Match row
    seats: list | None  # the seats in order (with ``online``), read under the row's lock; None if not held
    state: Any  # the round's engine state stored with it; None if not held
    events: list  # the games.models.Event rows the move appended, in order


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
