"""Gin's puzzles: "the discard" and "knock now or wait" (see the package docstring).

**The discard.**  The hand after the draw (the drawn card known), no knock possible.  Each legal
discard leaves a deadwood; discards leaving the same deadwood *and* the same meld chances (the set of
cards the player has not seen — not in their hand, not in the discard pile — that would lower the
kept hand's deadwood if drawn next) are one answer.  A puzzle when one answer has the least deadwood
and every other discard leaves at least ``DEADWOOD_MARGIN`` more.

**Knock now or wait.**  A knock is possible (not gin).  The opponent's hand is sampled
``SAMPLES`` times (a fixed seed from the position) from what the player could not see: the cards the
opponent took from the discard pile and still holds, then cards the player has not seen; each sample
settles the knock with the engine (lay-offs included).  "Knock" is clearly better when the knock is
undercut in at most ``KNOCK_MAX_UNDERCUT`` of the samples *and* waiting has no chance of gin (no unseen
card would make the kept hand gin); "wait" is clearly better when the knock is undercut in at least
``WAIT_MIN_UNDERCUT`` of them.  Between the two: no puzzle.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from ..gin import IDS, VALUES, GinState, card_index, deadwood_mask, hand_mask, legal_actions, settle_knock

DEADWOOD_MARGIN = 5
SAMPLES = 200
KNOCK_MAX_UNDERCUT = 0.05
WAIT_MIN_UNDERCUT = 0.5


def _mask_of(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def opponent_known(state: GinState, seat: int) -> int:
    """Cards the opponent took from the discard pile (everyone saw them) and has not discarded since."""
    known = 0
    for kind, who, card in state.log:
        if who is None or who == seat or card is None:
            continue
        if kind in ("draw_discard", "take_upcard"):
            known |= 1 << card
        elif kind == "discard":
            known &= ~(1 << card)
    return known


def unseen(state: GinState, seat: int) -> int:
    """Cards ``seat`` has not seen: not in their hand, not in the discard pile, not known in the opponent's."""
    return ((1 << 52) - 1) & ~hand_mask(state.hands[seat]) & ~_mask_of(state.discard) & ~opponent_known(state, seat)


def meld_chances(kept: int, unseen_mask: int) -> frozenset[int]:
    """The unseen cards that, drawn next, would lower the deadwood of the hand ``kept`` (after a discard)."""
    now = deadwood_mask(kept)
    out = set()
    for x in range(52):
        if unseen_mask >> x & 1:
            with_x = kept | (1 << x)
            if min(deadwood_mask(with_x & ~(1 << y)) for y in range(52) if with_x >> y & 1) < now:
                out.add(x)
    return frozenset(out)


def _discard_options(state: GinState, seat: int) -> tuple[dict[int, int], set[int], bool]:
    hm = hand_mask(state.hands[seat])
    options: dict[int, int] = {}
    knock: set[int] = set()
    big_gin = False
    for a in legal_actions(state, seat):
        if a["type"] in ("discard", "knock") and "card" in a:
            c = card_index(a["card"])
            options[c] = deadwood_mask(hm & ~(1 << c))
            if a["type"] == "knock":
                knock.add(c)
        elif a["type"] == "knock":
            big_gin = True
    return options, knock, big_gin


def _position(state: GinState, seat: int) -> dict[str, Any]:
    """What the player saw: their hand, the discard pile, the knock limit, the counts; nothing else."""
    other = state.other(seat) if seat in state.active_seats else None
    return {
        "variant": state.rules.variant,
        "rules": state.rules.to_dict(),
        "hand": [IDS[c] for c in sorted(state.hands[seat])],
        "discard": [IDS[c] for c in state.discard],
        "taken": IDS[state.taken] if state.taken is not None else None,
        "knock_limit": state.knock_limit,
        "stock_count": len(state.stock),
        "opponent_count": len(state.hands[other]) if other is not None else 10,
        "opponent_known": [IDS[c] for c in range(52) if opponent_known(state, seat) >> c & 1],
    }


def find_discard(state: GinState, seat: int) -> dict[str, Any] | None:
    """The "discard" puzzle of ``seat``'s discard decision in ``state``, or None."""
    if state.phase != "discard" or state.seat_to_act != seat:
        return None
    options, knock, big_gin = _discard_options(state, seat)
    if knock or big_gin or len(options) < 2:
        return None
    best_dw = min(options.values())
    best = sorted(c for c, dw in options.items() if dw == best_dw)
    rest = [dw for c, dw in options.items() if dw != best_dw]
    if not rest or min(rest) - best_dw < DEADWOOD_MARGIN:
        return None
    if len(best) > 1:
        hm = hand_mask(state.hands[seat])
        pool = unseen(state, seat)
        if len({meld_chances(hm & ~(1 << c), pool) for c in best}) > 1:
            return None  # two best discards that differ: no single answer
    hm = hand_mask(state.hands[seat])
    return {
        "family": "gin",
        "kind": "discard",
        "seat": seat,
        "position": _position(state, seat),
        "solution": {
            "cards": [IDS[c] for c in best],
            "deadwood": best_dw,
            "second": min(rest),
            "options": {IDS[c]: dw for c, dw in sorted(options.items())},
        },
        "themes": discard_themes(hm, best[0], best_dw),
    }


def discard_themes(hand: int, card: int, deadwood: int) -> list[str]:
    """``break_meld`` (the best discard breaks a meld of the hand's best arrangement before it),
    ``high_card`` (it is worth 10), ``knock_soon`` (the deadwood left is at most 10)."""
    out = []
    if deadwood_mask(hand & ~(1 << card)) + VALUES[card] > deadwood_mask(hand):
        out.append("break_meld")
    if VALUES[card] >= 10:
        out.append("high_card")
    if deadwood <= 10:
        out.append("knock_soon")
    return out


def _seed(state: GinState, seat: int) -> int:
    text = f"{sorted(state.hands[seat])}|{list(state.discard)}|{seat}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def undercut_rate(state: GinState, seat: int, card: int, *, samples: int = SAMPLES) -> float:
    """The share of sampled opponent hands that undercut (or beat) ``seat``'s knock discarding ``card``."""
    kept = hand_mask(state.hands[seat]) & ~(1 << card)
    known = opponent_known(state, seat)
    pool = [c for c in range(52) if unseen(state, seat) >> c & 1]
    need = 10 - bin(known).count("1")
    if need < 0 or len(pool) < need:
        return 0.0
    rng = random.Random(_seed(state, seat))
    lost = 0
    for _ in range(samples):
        opp = known | _mask_of(rng.sample(pool, need))
        s = settle_knock(kept, opp, rules=state.rules, knock_limit=state.knock_limit)
        if s.outcome != "knock":
            lost += 1
    return lost / samples


def gin_outs(kept: int, unseen_mask: int) -> int:
    """How many unseen cards would make the kept hand gin when drawn."""
    n = 0
    for x in range(52):
        if unseen_mask >> x & 1:
            with_x = kept | (1 << x)
            if any(deadwood_mask(with_x & ~(1 << y)) == 0 for y in range(52) if with_x >> y & 1):
                n += 1
    return n


def find_knock(state: GinState, seat: int) -> dict[str, Any] | None:
    """The "knock now or wait" puzzle of ``seat``'s discard decision in ``state``, or None."""
    if state.phase != "discard" or state.seat_to_act != seat or state.must_knock:
        return None
    options, knock, big_gin = _discard_options(state, seat)
    if big_gin or not knock:
        return None
    card = min(knock, key=lambda c: (options[c], -VALUES[c], c))
    if options[card] == 0:
        return None  # gin: always knock, no puzzle
    wait_card = min(options, key=lambda c: (options[c], -VALUES[c], c))
    rate = undercut_rate(state, seat, card)
    hm = hand_mask(state.hands[seat])
    outs = gin_outs(hm & ~(1 << wait_card), unseen(state, seat))
    if rate <= KNOCK_MAX_UNDERCUT and outs == 0:
        answer, themes = "knock", ["knock"]
    elif rate >= WAIT_MIN_UNDERCUT:
        answer, themes = "wait", ["undercut_avoided"]
    else:
        return None
    return {
        "family": "gin",
        "kind": "knock_or_wait",
        "seat": seat,
        "position": _position(state, seat),
        "solution": {
            "answer": answer,
            "knock_card": IDS[card],
            "wait_card": IDS[wait_card],
            "deadwood": options[card],
            "undercut": round(rate, 3),
            "gin_outs": outs,
        },
        "themes": themes,
    }


def find(state: GinState, seat: int) -> dict[str, Any] | None:
    """A Gin puzzle at ``seat``'s discard decision in ``state`` (the discard first), or None."""
    return find_discard(state, seat) or find_knock(state, seat)


def check_answer(kind: str, solution: dict[str, Any], answer: dict[str, Any]) -> bool:
    """``answer``: ``{"action": "discard", "card": id}`` for a discard puzzle; ``{"action": "knock" |
    "wait"}`` for knock-or-wait (a discard of any card answers "wait", a knock "knock")."""
    action = answer.get("action")
    if kind == "discard":
        return action == "discard" and answer.get("card") in solution["cards"]
    if kind == "knock_or_wait":
        said = "knock" if action == "knock" else "wait" if action in ("wait", "discard") else None
        return said == solution["answer"]
    return False
