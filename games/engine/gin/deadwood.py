"""Gin melds and deadwood (RULES C.1.2, C.5): the candidate melds of the pack precomputed at import,
the minimum deadwood of a hand (memo search, or a per-rank DP for big hands) and its best melds."""

from __future__ import annotations

from itertools import product
from typing import Any

from ..cards import Card
from ..errors import InvalidAction
from .masks import CODES, IDS, M13, SUIT_POINTS, card_items, hand_mask, mask_cards

# ---------------------------------------------------------------------------------------------
# Candidate melds, precomputed at import (RULES C.1.2: sets of 3-4, runs of 3+ with ace low only)
# ---------------------------------------------------------------------------------------------


def _runs13(p: int) -> tuple[tuple[int, int], ...]:
    """All runs (mask, value) of length >= 3 inside a 13-bit suit pattern (ace = bit 0, low only)."""
    out = []
    r = 0
    while r < 13:
        if not (p >> r) & 1:
            r += 1
            continue
        s = r
        while r < 13 and (p >> r) & 1:
            r += 1
        for a in range(s, r - 2):
            m = 0
            v = 0
            for b in range(a, r):
                m |= 1 << b
                v += min(b + 1, 10)
                if b - a >= 2:
                    out.append((m, v))
    return tuple(out)


_RUNS = tuple(_runs13(p) for p in range(1 << 13))


def _sets_for(rank0: int, suits: int) -> tuple[tuple[int, int], ...]:
    present = [s for s in range(4) if (suits >> s) & 1]
    v = min(rank0 + 1, 10)
    out = []
    if len(present) >= 3:
        bits = [1 << (s * 13 + rank0) for s in present]
        if len(bits) == 4:
            out.append((bits[0] | bits[1] | bits[2] | bits[3], 4 * v))
        for skip in range(len(bits)):
            if len(bits) == 3 and skip > 0:
                break
            m = 0
            for j, b in enumerate(bits):
                if len(bits) == 3 or j != skip:
                    m |= b
            out.append((m, 3 * v))
    return tuple(out)


_SETS = tuple(tuple(_sets_for(r, q) for q in range(16)) for r in range(13))

# every meld of the pack as a mask -> kind ("set" / "run"), for validation
ALL_MELDS: dict[int, str] = {}
for _s in range(4):
    for _m, _v in _RUNS[M13]:
        ALL_MELDS[_m << (13 * _s)] = "run"
for _r in range(13):
    for _m, _v in _SETS[_r][15]:
        ALL_MELDS[_m] = "set"


def _hand_melds(h: int) -> list[tuple[int, int]]:
    """All candidate melds (mask, value) contained in hand ``h``."""
    a = h & M13
    b = (h >> 13) & M13
    c = (h >> 26) & M13
    d = h >> 39
    melds: list[tuple[int, int]] = []
    ra = _RUNS[a]
    if ra:
        melds.extend(ra)
    for runs, sh in ((_RUNS[b], 13), (_RUNS[c], 26), (_RUNS[d], 39)):
        if runs:
            melds.extend([(m << sh, v) for m, v in runs])
    t3 = (a & b & (c | d)) | (c & d & (a | b))
    while t3:
        low = t3 & -t3
        r = low.bit_length() - 1
        melds.extend(_SETS[r][((a >> r) & 1) | ((b >> r) & 1) << 1 | ((c >> r) & 1) << 2 | ((d >> r) & 1) << 3])
        t3 ^= low
    return melds


def _max_melded(melds: list[tuple[int, int]]) -> int:
    """Maximum total value of pairwise-disjoint melds (exact): branch on the lowest card, memo on the rest."""
    by_low: dict[int, list[tuple[int, int]]] = {}
    union = 0
    for m, v in melds:
        union |= m
        low = m & -m
        lst = by_low.get(low)
        if lst is None:
            by_low[low] = [(m, v)]
        else:
            lst.append((m, v))
    memo: dict[int, int] = {}

    def rec(rem: int) -> int:
        # drop leading cards that start no meld (they are deadwood or belong to a meld already ruled out)
        while rem:
            low = rem & -rem
            opts = by_low.get(low)
            if opts is not None:
                break
            rem ^= low
        else:
            return 0
        got = memo.get(rem)
        if got is not None:
            return got
        best = rec(rem ^ low)
        for m, v in opts:
            if m & rem == m:
                x = v + rec(rem ^ m)
                if x > best:
                    best = x
        memo[rem] = best
        return best

    try:
        return rec(union)
    finally:
        rec = None  # rec refers to itself through its closure: a cycle only the collector would free


_DP_THRESHOLD = 22  # hands with more cards use the per-rank DP (bounded work) instead of the memo search


def _suit_options(status: int, present: int) -> tuple[tuple[int, int], ...]:
    """(new run status, role) for one suit at one rank; role 0 dead, 1 run, 2 set.  Status: 0 no run,
    1/2 a run of 1/2 cards that must continue, 3 a run of 3+ that may stop."""
    if present:
        if status == 0:
            return ((1, 1), (0, 2), (0, 0))
        if status in (1, 2):
            return ((status + 1, 1),)
        return ((3, 1), (0, 2), (0, 0))
    return ((0, -1),) if status in (0, 3) else ()


def dp_arrangement(h: int) -> tuple[int, list[int]]:
    """Exact max melded value by dynamic programming over ranks A..K with per-suit run status (any hand
    size, bounded work); returns (value, meld masks)."""
    layers: list[dict[tuple[int, ...], tuple[int, Any, tuple[int, ...]]]] = []
    states: dict[tuple[int, ...], tuple[int, Any, tuple[int, ...]]] = {(0, 0, 0, 0): (0, None, ())}
    for r in range(13):
        present = [(h >> (s * 13 + r)) & 1 for s in range(4)]
        v = min(r + 1, 10)
        new: dict[tuple[int, ...], tuple[int, Any, tuple[int, ...]]] = {}
        for st, (val, _, _) in states.items():
            per = [_suit_options(st[s], present[s]) for s in range(4)]
            if not all(per):
                continue
            for combo in product(*per):
                roles = tuple(role for _, role in combo)
                nset = roles.count(2)
                if 0 < nset < 3:
                    continue
                gain = v * (roles.count(1) + nset)
                nst = tuple(ns for ns, _ in combo)
                cur = new.get(nst)
                if cur is None or val + gain > cur[0]:
                    new[nst] = (val + gain, st, roles)
        layers.append(new)
        states = new
    best_val, best_state = -1, None
    for st, (val, _, _) in states.items():
        if all(x in (0, 3) for x in st) and val > best_val:
            best_val, best_state = val, st
    # backtrack the roles of every card
    roles_by_rank: list[tuple[int, ...]] = [()] * 13
    st = best_state
    for r in range(12, -1, -1):
        _, prev, roles = layers[r][st]
        roles_by_rank[r] = roles
        st = prev
    melds: list[int] = []
    for r in range(13):
        m = sum(1 << (s * 13 + r) for s in range(4) if roles_by_rank[r][s] == 2)
        if m:
            melds.append(m)
    for s in range(4):
        run = 0
        for r in range(14):
            if r < 13 and roles_by_rank[r][s] == 1:
                run |= 1 << (s * 13 + r)
            elif run:
                melds.append(run)
                run = 0
    return best_val, melds


def deadwood_mask(h: int) -> int:
    """Minimum deadwood of the hand bitmask ``h`` (the fast core of :func:`deadwood`)."""
    a = h & M13
    b = (h >> 13) & M13
    c = (h >> 26) & M13
    d = h >> 39
    total = SUIT_POINTS[a] + SUIT_POINTS[b] + SUIT_POINTS[c] + SUIT_POINTS[d]
    ra = _RUNS[a]
    rb = _RUNS[b]
    rc = _RUNS[c]
    rd = _RUNS[d]
    t3 = (a & b & (c | d)) | (c & d & (a | b))
    n = len(ra) + len(rb) + len(rc) + len(rd)
    if not t3:
        if n == 0:
            return total
        if n == 1:
            return total - (ra or rb or rc or rd)[0][1]
    elif n == 0 and not (t3 & (t3 - 1)):
        r = t3.bit_length() - 1
        sets = _SETS[r][((a >> r) & 1) | ((b >> r) & 1) << 1 | ((c >> r) & 1) << 2 | ((d >> r) & 1) << 3]
        return total - sets[0][1]  # the largest set of that rank comes first
    if h.bit_count() > _DP_THRESHOLD:
        return total - dp_arrangement(h)[0]
    return total - _max_melded(_hand_melds(h))


def deadwood(hand: Any) -> int:
    """Minimum deadwood (RULES C.1.3) of ``hand``: codes, ids, Card objects, a string or an int mask.

    Every card counts; any hand size; ace low only; a card is in at most one meld.
    """
    return deadwood_mask(hand_mask(hand))


def best_arrangements(h: int, all_optimal: bool = False) -> tuple[int, list[tuple[int, ...]]]:
    """(max melded value, arrangements); an arrangement is a tuple of meld masks."""
    melds = _hand_melds(h)
    by_low: dict[int, list[tuple[int, int]]] = {}
    union = 0
    for m, v in melds:
        union |= m
        by_low.setdefault(m & -m, []).append((m, v))
    memo: dict[int, tuple[int, list[tuple[int, ...]]]] = {}

    def rec(rem: int) -> tuple[int, list[tuple[int, ...]]]:
        while rem:
            low = rem & -rem
            if low in by_low:
                break
            rem ^= low
        else:
            return 0, [()]
        if rem in memo:
            return memo[rem]
        best, arrs = rec(rem ^ low)
        arrs = list(arrs)
        for m, v in by_low[low]:
            if m & rem == m:
                x, sub = rec(rem ^ m)
                x += v
                if x > best:
                    best, arrs = x, [(m,) + s for s in sub]
                elif x == best:
                    arrs.extend((m,) + s for s in sub)
            if not all_optimal:
                arrs = arrs[:1]
        memo[rem] = (best, arrs)
        return best, arrs

    try:
        return rec(union)
    finally:
        rec = None  # as in _max_melded: no reference cycle left behind


def best_melds_mask(h: int) -> tuple[list[int], int]:
    """(meld masks, deadwood mask) of one minimum-deadwood arrangement of the hand bitmask."""
    if h.bit_count() > _DP_THRESHOLD:
        melds = sorted(dp_arrangement(h)[1])
    else:
        melds = sorted(best_arrangements(h)[1][0])
    used = 0
    for m in melds:
        used |= m
    return melds, h & ~used


def _out_like(hand: Any, mask_items: list[int]) -> list:
    items = card_items(hand) if not isinstance(hand, int) else []
    if items and all(isinstance(x, Card) for x in items):
        return [Card(i % 13 + 1, i // 13, 0) for i in mask_items]
    if items and all(isinstance(x, str) and "." in x for x in items):
        return [IDS[i] for i in mask_items]
    return [CODES[i] for i in mask_items]


def best_melds(hand: Any) -> tuple[list[list], list]:
    """One minimum-deadwood arrangement: ``(melds, deadwood_cards)``.

    Cards come back in the form they were given (Card objects for Cards, ids for ids, codes
    otherwise); melds are sorted lists, runs in rank order.
    """
    if not isinstance(hand, (int, str, list, tuple)):
        hand = list(hand)
    melds, dw = best_melds_mask(hand_mask(hand))
    return [_out_like(hand, meld_order(m)) for m in melds], _out_like(hand, mask_cards(dw))


def meld_order(m: int) -> list[int]:
    cards = mask_cards(m)
    return sorted(cards, key=lambda i: (i % 13, i // 13)) if ALL_MELDS.get(m) == "set" else cards


def meld_kind(cards: Any) -> str | None:
    """``"set"`` or ``"run"`` for a valid Gin meld (C.1.2), else None."""
    try:
        m = hand_mask(cards)
    except InvalidAction:
        return None
    return ALL_MELDS.get(m)
