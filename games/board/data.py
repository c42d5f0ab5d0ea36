"""What one version of a table's board is drawn from, loaded once (``games.selectors.board_data``)
and shared read-only by every viewer's projection (``games.board.table``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.models import Match, Round, Seat


@dataclass(frozen=True)
class BoardData:
    """Everything a table board is rendered from, loaded once for one version of one match.

    Shared read-only by every viewer's render of that version (the socket pushes of one
    process reuse it, see ``games.live.boardcache``); each viewer's own projection is made from it
    by :func:`table_context`, so sharing it shares no secret.
    """

    match: Match
    seats: list[Seat]
    state: Any  # the engine's round state, or None between matches
    events: list[LogEvent]  # the last LOG_LENGTH, oldest first
    rounds: list[Round]  # finished rounds, each with ``score_rows`` (see _finished_rounds)
    rematch: Match | None
    # What is drawn from this version once and shared by its viewers (``games.board.fragments``: the
    # public fragments by language).  Mutable inside the frozen data; never part of its identity.
    shared: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def version(self) -> int:
        return self.match.version


LOG_LENGTH = 40


@dataclass(frozen=True, slots=True)
class LogEvent:
    """The part of an :class:`~games.models.Event` the board's log shows."""

    seq: int
    seat: int | None
    summary: dict[str, Any]
    by_bot: bool
