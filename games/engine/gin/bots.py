"""Gin bots: ``basic`` and ``random-legal`` (RULES Part C/D).

``basic`` takes the upcard / top discard when that lowers its deadwood (after its best discard),
otherwise passes / draws from the stock; discards the card that leaves the least deadwood (the highest
card on ties); knocks — or goes gin — as soon as it may.  The captain's bot plays the team hand; the
advisor's bot only suggests to the captain what ``basic`` would play (or does nothing).

``choose_action`` returns a legal action dict, or None when the seat has nothing to do.  ``advice`` is
what a bot advisor tells a human captain, in the form a human advisor's suggestion takes.
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import InvalidAction
from .deadwood import deadwood_mask
from .hand import legal_actions
from .masks import IDS, VALUES, card_index, hand_mask, mask_cards
from .state import GinState

POLICIES = ("basic", "greedy", "random-legal")  # "greedy" = "basic" (already cheap), for parity


def _best_discard(state: GinState, hm: int, taken: int | None) -> tuple[int, int]:
    """(card, deadwood after discarding it) minimising deadwood, highest card on ties."""
    best: tuple[int, int] | None = None
    forbid = taken if state.rules.no_discard_of_taken_card else None
    for c in mask_cards(hm):
        if c == forbid:
            continue
        dw = deadwood_mask(hm & ~(1 << c))
        if best is None or (dw, -VALUES[c], -c) < (best[1], -VALUES[best[0]], -best[0]):
            best = (c, dw)
    assert best is not None
    return best


def _take_helps(state: GinState, seat: int) -> bool:
    hm = hand_mask(state.hands[seat])
    top = state.discard[-1]
    _, after = _best_discard(state, hm | (1 << top), top)
    return after < deadwood_mask(hm)


def _basic(state: GinState, seat: int) -> dict[str, Any] | None:
    acts = legal_actions(state, seat)
    if not acts:
        return None
    ph = state.phase
    if ph in ("upcard", "upcard_dealer"):
        return {"type": "take_upcard"} if _take_helps(state, seat) else {"type": "pass_upcard"}
    if ph == "draw":
        if not state.stock_only and _take_helps(state, seat):
            return {"type": "draw_discard"}
        return {"type": "draw_stock"}
    if ph == "fiftieth":
        return acts[0]  # draw_discard when it allows a knock, else pass
    if {"type": "knock"} in acts:  # big gin
        return {"type": "knock"}
    hm = hand_mask(state.hands[seat])
    card, dw = _best_discard(state, hm, state.taken)
    if dw <= state.knock_limit:
        return {"type": "knock", "card": IDS[card]}
    return {"type": "discard", "card": IDS[card]}


def choose_action(
    state: GinState, seat: int, policy: str = "basic", rng: random.Random | None = None
) -> dict[str, Any] | None:
    """A legal action for ``seat`` under ``policy`` ("basic" or "random-legal"), or None if the seat has
    nothing to do.  The advisor (three players) suggests the basic play to the captain when advice is
    allowed and it is the captain's turn; the suggestion changes no cards."""
    if policy not in POLICIES:
        raise InvalidAction(f"Unknown Gin bot policy {policy!r}.", code="bad_policy")
    if state.phase == "over":
        return None
    if seat == state.advisor:
        suggestion = advice(state)
        return None if suggestion is None else {"type": "suggest", "suggestion": suggestion}
    if policy == "random-legal":
        acts = legal_actions(state, seat)
        if not acts:
            return None
        return (rng or random.Random(0)).choice(acts)
    return _basic(state, seat)


def advice(state: GinState) -> dict[str, Any] | None:
    """What a bot advisor suggests to the captain now (RULES C.2.4): the ``basic`` play, in the form of a
    human advisor's suggestion — ``{"action": "take_upcard"}``, ``{"action": "discard", "card": "8S.0"}``,
    ``{"action": "knock", "card": "KD.0", "gin": true}``.  None when advice is off at the table, the hand
    is over, it is not the captain's turn, or the captain has only one thing he can do."""
    if state.advisor is None or state.phase == "over" or not state.rules.advisor_can_advise:
        return None
    captain = state.nondealer
    if state.seat_to_act != captain or len(legal_actions(state, captain)) < 2:
        return None
    play = _basic(state, captain)
    if play is None:  # pragma: no cover - the captain to act always has a play
        return None
    out: dict[str, Any] = {"action": play["type"]}
    if play.get("card"):
        out["card"] = play["card"]
    if play["type"] == "knock":
        hm = hand_mask(state.hands[captain])
        if play.get("card"):
            hm &= ~(1 << card_index(play["card"]))
        if deadwood_mask(hm) == 0:
            out["gin"] = True
    return out
