"""Practice hints: the best play for the current step, on request but bounded.

Only at a practice table where every other seat is a bot (games.practice), never at a tournament's
table (a tournament's tables are never practice tables; checked again here); only for the player's
own step (Manipulation: a meld step; Gin: the discard or knock).  The engine is given the player's
own view only (their hand, the table; in Gin their hand, the card they took and the knock limit), so
a hint tells nothing the player may not see.  The exact search is cut at
``RUMMYHUB_HINT_MAX_STATES`` states instead of holding the server: the hint is then the best play found
by then, labelled "not proven best" (or "no hint for this position" when none was found); a position
beyond ``MAX_HAND`` / ``MAX_TABLE`` is not searched at all.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from games import practice
from games.analysis.selectors import card_in_text, diff_view
from games.engine import analysis as engine_analysis
from games.models import Match, MatchStatus, Seat
from games.variants import spec_for

# Beyond these a Manipulation position is not searched on a request at all.
MAX_HAND = 30
MAX_TABLE = 110
# Searches at once in this process: the threads they run on are shared with the sockets' database
# work, so a burst of hint requests gets "busy" at once instead of taking them all.
SEARCHES = threading.BoundedSemaphore(2)


@dataclass
class HintRefused(Exception):
    code: str
    message: str
    status: int


def _refuse_not_here() -> HintRefused:
    return HintRefused(
        "hints_not_here", _("Hints are only for practice tables at which every other player is a bot."), 403
    )


def hint_for(*, match_id: int, user) -> dict[str, Any]:
    """The hint for ``user`` at ``match_id`` now, as data for ``games/analysis/hint.html``; raises
    :class:`HintRefused` (403: not at this table; 409: not their step now)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise _refuse_not_here()
    seat = practice.hint_seat(match, Seat.objects.filter(match=match), user)
    if seat is None or Match.objects.filter(pk=match.pk, tournament_table__isnull=False).exists():
        raise _refuse_not_here()
    spec = spec_for(match.variant)
    round_state = (match.state or {}).get("round")
    if match.status != MatchStatus.PLAYING or not round_state:
        raise HintRefused("no_hint_now", _("There is no move to hint at now."), 409)
    state = spec.load(round_state)
    if spec.family == "gin":
        return _gin(state, seat.index, match.version)
    return _manipulation(state, seat.index, match.version)


def _manipulation(state, seat: int, version: int) -> dict[str, Any]:
    out: dict[str, Any] = {"family": "manipulation", "version": version}
    if not engine_analysis.manipulation.can_meld(state, seat):
        raise HintRefused("no_hint_now", _("A hint is for your meld step: draw first."), 409)
    if len(state.hands[seat]) > MAX_HAND or sum(len(m) for m in state.table) > MAX_TABLE:
        return {**out, "too_big": True}
    if not SEARCHES.acquire(blocking=False):
        raise HintRefused("hints_busy", _("Hints are busy just now: try again in a moment."), 429)
    try:
        found = engine_analysis.manipulation.hint(state, seat, max_states=settings.RUMMYHUB_HINT_MAX_STATES)
    finally:
        SEARCHES.release()
    if found is None:  # the first meld's minimum applies: the solver does not know it
        return {**out, "too_big": True}
    if not found["proven"] and not found["cards"]:  # the budget ran out before any play was found
        return {**out, "too_big": True}
    return {
        **out,
        "cards": found["cards"],
        "points": found["points"],
        "proven": found["proven"],
        "diff": diff_view(found["diff"]) if found["diff"] else None,
    }


def _gin(state, seat: int, version: int) -> dict[str, Any]:
    found = engine_analysis.gin.hint(state, seat)
    if found is None:
        raise HintRefused("no_hint_now", _("A hint is for your discard: draw first."), 409)
    return {
        "family": "gin",
        "version": version,
        "kind": found["kind"],
        "card": card_in_text(found["card"]),
        "deadwood": found["deadwood"],
    }
