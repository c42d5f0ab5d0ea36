"""What each seat sees of a Gin hand: own hand only; the advisor also sees the captain's hand."""

from __future__ import annotations

import json
from typing import Any

from ..errors import InvalidAction
from .deadwood import deadwood_mask
from .hand import legal_actions, outcome, suggestible, well_formed_suggestion
from .masks import IDS, hand_mask
from .state import GinState


def _sees_hand_of(state: GinState, viewer: int | None, seat: int | None) -> bool:
    if viewer is None or seat is None:
        return False
    return viewer == seat or (viewer == state.advisor and seat == state.nondealer)


def _public(state: GinState, viewer: int | None) -> dict[str, Any]:
    """Public part of a view.  A card taken from the discard pile is named only to those who see that
    hand (it is identified in the log and ``taken`` for them; others see "took the discard"), so no view
    names a card of a hand it may not see — except Oklahoma's first upcard, which D.2.2 shows to all."""
    over = state.phase == "over"
    hidden = 0  # cards in hands this viewer may not see
    if not over:
        for seat, h in enumerate(state.hands):
            if not _sees_hand_of(state, viewer, seat):
                hidden |= hand_mask(h)
    log = []
    for t, s, c in state.log:
        # which card came from the stock stays private to that hand, even later
        show = c is not None and not (hidden >> c) & 1 and (t != "draw_stock" or _sees_hand_of(state, viewer, s))
        log.append({"type": t, "seat": s, "card": IDS[c] if show else None})
    taken_visible = state.taken is not None and not (hidden >> state.taken) & 1
    d: dict[str, Any] = {
        "game": "gin",
        "variant": state.variant,
        "oklahoma": state.rules.oklahoma,
        "rules": state.rules.to_dict(),
        "n_seats": state.n_seats,
        "phase": state.phase,
        "seat_to_act": state.seat_to_act,
        "dealer": state.dealer,
        "nondealer": state.nondealer,
        "roles": (
            {"box": state.dealer, "captain": state.nondealer, "advisor": state.advisor} if state.n_seats == 3 else None
        ),
        "hand_counts": [len(h) for h in state.hands],
        "stock_count": len(state.stock),
        "discard": [IDS[c] for c in state.discard],
        "discard_top": IDS[state.discard[-1]] if state.discard else None,
        "first_upcard": IDS[state.first_upcard] if (state.rules.oklahoma or over) else None,
        "knock_limit": state.knock_limit,
        "gin_only": state.knock_limit == 0,
        "multiplier": state.multiplier,
        "taken": IDS[state.taken] if taken_visible else None,
        "must_knock": state.must_knock,
        "turn": state.turn,
        "log": log,
        "result": outcome(state),
        "role_draw": state.role_draw.to_dict() if state.role_draw else None,
    }
    return d


def player_view(state: GinState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see: its own hand (the advisor: the captain's hand as ``captain_hand``), counts,
    the face-up discard pile, the first upcard, its legal actions; suggestions for captain and advisor."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.n_seats:
        raise InvalidAction(f"Seat {seat!r} is not at this table.", code="bad_seat")
    d = _public(state, seat)
    d["seat"] = seat
    d["role"] = (
        ("box" if seat == state.dealer else "captain" if seat == state.nondealer else "advisor")
        if state.n_seats == 3
        else ("dealer" if seat == state.dealer else "nondealer")
    )
    d["hand"] = [IDS[c] for c in state.hands[seat]]
    d["deadwood"] = deadwood_mask(hand_mask(state.hands[seat])) if state.hands[seat] else None
    d["legal_actions"] = legal_actions(state, seat)
    last = state.log[-1] if state.log else None
    d["drawn"] = (
        IDS[last[2]] if last and last[0] == "draw_stock" and last[1] == seat and state.phase == "discard" else None
    )
    d["can_suggest"] = seat == state.advisor and state.rules.advisor_can_advise and state.phase != "over"
    if state.n_seats == 3 and seat in (state.nondealer, state.advisor):
        # only this turn's suggestions (older ones are stale and could name cards that changed hands)
        d["suggestions"] = [
            {"seat": s, "turn": t, "suggestion": json.loads(j)}
            for s, t, j in state.suggestions
            if t == state.turn and well_formed_suggestion(j)
        ]
    if seat == state.advisor:
        cap = state.hands[state.nondealer]
        d["captain_hand"] = [IDS[c] for c in cap]
        d["captain_deadwood"] = deadwood_mask(hand_mask(cap))
        d["suggestible"] = suggestible(state)
    return d


def spectator_view(state: GinState) -> dict[str, Any]:
    """Public information only (hands as counts; the layout in ``result`` once the hand is over)."""
    return _public(state, None)
