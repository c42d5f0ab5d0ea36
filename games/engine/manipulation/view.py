"""What each seat sees of a Manipulation round: own hand, the others' counts (STYLE.md "Secret state")."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidAction
from .rules import GAME
from .state import ManipulationState, card_ref
from .turn import can_knock, hand_value, legal_actions, outcome

# The last state's public part and the state (held, so its identity is not reused): a version's views are
# asked for one after the other (the spectators' and each seat's), and the public part is the same.  One
# entry, replaced whole (a tuple), so threads asking at once each find a consistent pair.
_LAST_PUBLIC: tuple[ManipulationState | None, dict[str, Any]] = (None, {})


def _public(state: ManipulationState) -> dict[str, Any]:
    """What everyone sees of ``state``: a new dict each time (each view adds its own keys to it); its
    values are shared between the views of one state, and nobody changes them."""
    global _LAST_PUBLIC
    kept_state, kept = _LAST_PUBLIC
    if kept_state is not state:
        kept = _public_of(state)
        _LAST_PUBLIC = (state, kept)
    return dict(kept)


def _public_of(state: ManipulationState) -> dict[str, Any]:
    last = None
    if state.last_action is not None:
        last = {"seat": state.last_action[0], "type": state.last_action[1]}
    return {
        "game": GAME,
        "players": state.players,
        "dealer": state.dealer,
        "seat_to_act": state.seat_to_act,
        "phase": state.phase,
        "turn": state.turn,
        "draws_this_turn": state.draws,
        "melded_this_turn": state.melded,
        "final_lap": state.final_lap,
        "last_drawer": state.last_drawer,
        "hand_counts": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "table": [[card_ref(c) for c in meld] for meld in state.table],
        "knocker": state.knocker,
        "went_out": state.went_out,
        "end_reason": state.end_reason,
        "last_action": last,
        "rules": state.rules.to_dict(),
        "outcome": outcome(state),
    }


def player_view(state: ManipulationState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see: own hand, others' counts, the table, counts of the stock."""
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise InvalidAction(f"Seat {seat!r} is not at this table.", code="bad_seat")
    v = _public(state)
    v.update(
        seat=seat,
        hand=[c.id for c in state.hands[seat]],
        hand_points=hand_value(state, seat),
        legal_actions=legal_actions(state, seat),
        can_knock=can_knock(state, seat),
    )
    return v


def spectator_view(state: ManipulationState) -> dict[str, Any]:
    v = _public(state)
    v.update(seat=None, hand=None, hand_points=None, legal_actions=[], can_knock=False)
    return v
