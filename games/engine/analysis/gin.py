"""Gin's decisions weighed: at every discard (and knock) the deadwood the player kept against the least
they could have kept, and whether a knock or gin was there and not taken; under the 50th-card rule,
a pass when taking the last discard would have knocked.  Also the hint of a practice table (the best
discard or knock now, from the player's own hand only)."""

from __future__ import annotations

from typing import Any

from ..gin import IDS, VALUES, GinState, card_index, deadwood_mask, hand_mask, legal_actions

DECISION_PHASES = ("discard", "fiftieth")


def _options(state: GinState, seat: int) -> tuple[list[tuple[int, int]], set[int], bool]:
    """``([(card, deadwood after discarding it)], cards a knock may discard, big gin legal)`` in the
    discard phase, from the engine's legal actions."""
    hm = hand_mask(state.hands[seat])
    cards: set[int] = set()
    knock_cards: set[int] = set()
    big_gin = False
    for a in legal_actions(state, seat):
        if a["type"] in ("discard", "knock") and "card" in a:
            c = card_index(a["card"])
            cards.add(c)
            if a["type"] == "knock":
                knock_cards.add(c)
        elif a["type"] == "knock":
            big_gin = True
    return [(c, deadwood_mask(hm & ~(1 << c))) for c in sorted(cards)], knock_cards, big_gin


def _best(options: list[tuple[int, int]]) -> tuple[int, int]:
    """The least deadwood, ties to the highest card (the one that would count most if kept)."""
    return min(options, key=lambda o: (o[1], -VALUES[o[0]], o[0]))


def weigh_decision(before: GinState, seat: int, action: dict[str, Any]) -> dict[str, Any] | None:
    """One decision of ``seat`` in ``before`` (None when ``before`` is no decision: draws, the upcard)."""
    if before.phase == "discard":
        return _discard_decision(before, seat, action)
    if before.phase == "fiftieth" and action.get("type") == "pass":
        return _fiftieth_pass(before, seat)
    return None


def _record(
    seat: int,
    kind: str,
    card: int | None,
    reached: int,
    best: tuple[int | None, int],
    *,
    can_knock: bool,
    can_gin: bool,
    knocked: bool,
    limit: int,
) -> dict[str, Any]:
    best_card, best_dw = best
    gin = knocked and reached == 0
    missed_knock = can_knock and not knocked
    missed_gin = can_gin and not gin
    return {
        "seat": seat,
        "kind": kind,
        "card": IDS[card] if card is not None else None,
        "reached": reached,
        "best": best_dw,
        "best_card": IDS[best_card] if best_card is not None else None,
        "limit": limit,
        "can_knock": can_knock,
        "can_gin": can_gin,
        "knocked": knocked,
        "gin": gin,
        "missed_knock": missed_knock,
        "missed_gin": missed_gin,
        "missed": reached > best_dw or missed_knock or missed_gin,
    }


def _discard_decision(before: GinState, seat: int, action: dict[str, Any]) -> dict[str, Any]:
    options, knock_cards, big_gin = _options(before, seat)
    kind = action.get("type", "")
    card = card_index(action["card"]) if action.get("card") is not None else None
    hm = hand_mask(before.hands[seat])
    reached = deadwood_mask(hm & ~(1 << card)) if card is not None else deadwood_mask(hm)
    best: tuple[int | None, int] = _best(options) if options else (None, reached)
    if big_gin:
        best = (None, 0)
    knock_dw = [dw for c, dw in options if c in knock_cards]
    can_knock = bool(knock_dw) or big_gin
    can_gin = big_gin or 0 in knock_dw
    return _record(
        seat,
        kind,
        card,
        reached,
        best,
        can_knock=can_knock,
        can_gin=can_gin,
        knocked=kind == "knock",
        limit=before.knock_limit,
    )


def _fiftieth_pass(before: GinState, seat: int) -> dict[str, Any]:
    """A pass at the 50th card: had taking the last discard let the player knock?"""
    hm = hand_mask(before.hands[seat])
    reached = deadwood_mask(hm)
    can_take = any(a["type"] == "draw_discard" for a in legal_actions(before, seat))
    best: tuple[int | None, int] = (None, reached)
    can_gin = False
    if can_take:
        top = before.discard[-1]
        with_top = hm | (1 << top)
        options = [
            (c, deadwood_mask(with_top & ~(1 << c)))
            for c in range(52)
            if with_top >> c & 1 and not (c == top and before.rules.no_discard_of_taken_card)
        ]
        best = _best(options)
        can_gin = best[1] == 0 or (before.rules.big_gin != "off" and deadwood_mask(with_top) == 0)
    return _record(
        seat,
        "fiftieth",
        None,
        reached,
        best,
        can_knock=can_take,
        can_gin=can_gin,
        knocked=False,
        limit=before.knock_limit,
    )


def hint(state: GinState, seat: int) -> dict[str, Any] | None:
    """The best discard or knock for ``seat`` now: ``{"kind": "gin" | "knock" | "discard", "card" (None
    for a big gin), "deadwood"}``; None outside ``seat``'s discard phase.  Reads only ``seat``'s hand,
    the card it took and the knock limit (what the player sees)."""
    if state.phase != "discard" or state.seat_to_act != seat:
        return None
    options, knock_cards, big_gin = _options(state, seat)
    if big_gin:
        return {"kind": "gin", "card": None, "deadwood": 0}
    knocks = [(c, dw) for c, dw in options if c in knock_cards]
    if knocks:
        c, dw = _best(knocks)
        return {"kind": "gin" if dw == 0 else "knock", "card": IDS[c], "deadwood": dw}
    c, dw = _best(options)
    return {"kind": "discard", "card": IDS[c], "deadwood": dw}
