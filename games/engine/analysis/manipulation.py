"""Manipulation Rummy's meld steps weighed by the exact solver: the most cards and points a player
could have laid at a meld step, against what they laid, with one rearrangement that reaches it; and
the hint (the best play now) of a practice table.

A *meld step* is the moment of a turn at which the player melded, or the last moment of the turn at
which they could have (they drew again, ended the turn or knocked instead): the table as it stood
then and their hand.  Later in a turn the hand only grows, so that last moment is the turn's best
chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Card, hand_points
from ..manipulation import ManipulationState, check_table, legal_actions
from ..manipulation.diff import table_diff
from ..solver import SearchBudgetExceeded, best_play

# Every step's record has these keys; ``status`` "ok" is weighed, the others are not counted:
# "first_meld" (the solver knows nothing of the first meld's minimum), "too_big" (the search budget
# ran out), "unchecked" (the table check refused the solver's play: never seen; logged by the caller).
STATUSES = ("ok", "first_meld", "too_big", "unchecked")


def can_meld(state: ManipulationState, seat: int) -> bool:
    return any(a["type"] == "meld" for a in legal_actions(state, seat))


def is_meld_step(before: ManipulationState, seat: int, action: dict[str, Any], after: ManipulationState) -> bool:
    """Was ``seat``'s ``action`` in ``before`` the turn's meld step (see the module's docstring)?"""
    if not can_meld(before, seat):
        return False
    if action.get("type") == "meld":
        return True
    # a draw after which the same turn may still meld: the step comes later
    return not (after.seat_to_act == seat and can_meld(after, seat))


def laid_cards(before: ManipulationState, after: ManipulationState, seat: int) -> list[Card]:
    """The hand cards ``seat`` laid between the two states (none unless a meld happened)."""
    kept = {c.id for c in after.hands[seat]}
    return (
        [c for c in before.hands[seat] if c.id not in kept] if len(after.hands[seat]) < len(before.hands[seat]) else []
    )


def weigh_step(
    before: ManipulationState, seat: int, laid: Sequence[Card], *, max_states: int | None = None
) -> dict[str, Any]:
    """One meld step: what was laid against the most that could have been (one solver call, a second
    for the most cards when the best play by points leaves some hand card unplayed)."""
    rules = before.rules
    hand = list(before.hands[seat])
    out: dict[str, Any] = {
        "seat": seat,
        "laid": [c.id for c in laid],
        "laid_cards": len(laid),
        "laid_points": hand_points(laid, rules.joker_value),
        "best_cards": 0,
        "best_points": 0,
        "most_cards": 0,
        "missed": False,
        "best": None,
        "status": "ok",
    }
    if rules.first_meld_min_points > 0 and not before.has_melded[seat]:
        out["status"] = "first_meld"
        return out
    try:
        best = best_play(before.table, hand, objective="points", rules=rules, max_states=max_states)
        most = best.cards
        if 0 < best.cards < len(hand):
            most = best_play(before.table, hand, objective="cards", rules=rules, max_states=max_states).cards
    except SearchBudgetExceeded:
        out["status"] = "too_big"
        return out
    out.update(best_cards=best.cards, best_points=best.points, most_cards=max(most, out["laid_cards"]))
    if (best.points, best.cards) > (out["laid_points"], out["laid_cards"]):
        if not check_table(before, seat, best.table_ids)["ok"]:
            out["status"] = "unchecked"
            return out
        out["missed"] = True
        out["best"] = table_diff(before.table, best.table_cards).to_dict()
    return out


def hint(state: ManipulationState, seat: int, *, max_states: int | None) -> dict[str, Any] | None:
    """The best play for ``seat`` now, from their hand and the table only: ``{"cards", "points",
    "diff", "proven"}`` (``diff`` None when no card can be laid), or None when this is no meld step (or
    the first meld's minimum applies, which the solver does not know).  Past ``max_states`` the search
    stops with the best play found by then: ``proven`` is False (it may not be the best there is)."""
    if not can_meld(state, seat):
        return None
    rules = state.rules
    if rules.first_meld_min_points > 0 and not state.has_melded[seat]:
        return None
    best = best_play(
        state.table, state.hands[seat], objective="points", rules=rules, max_states=max_states, best_effort=True
    )
    diff = table_diff(state.table, best.table_cards).to_dict() if best.cards else None
    return {"cards": best.cards, "points": best.points, "diff": diff, "proven": best.proven}
