"""What each seat sees of a Manipulation round: own hand, the others' counts (STYLE.md "Secret state")."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidAction
from .rules import GAME
from .state import ManipulationState, card_ref
from .turn import can_knock, hand_value, legal_actions, outcome


def _public(state: ManipulationState) -> dict[str, Any]:
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
