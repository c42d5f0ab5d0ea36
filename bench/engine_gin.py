"""Gin engine benchmark: deadwood calls per second (fast engine vs a naive exact baseline, measured in
the same run) on fixed random 10- and 11-card hands, and bot-vs-bot hands per second.

Run: .venv/bin/python bench/engine_gin.py [--quick]
There is no cache across calls in gin.deadwood: every call is a cold computation.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import gin
from games.engine.gin import GinRules, apply, new_round
from games.engine.gin import bots as gin_bots


def naive_deadwood(codes: list[str]) -> int:
    """A straightforward exact baseline (the usual Python approach): list every set and run of the
    hand, then try every combination of non-overlapping melds recursively (no bitmasks, no memo)."""
    cards = [("A23456789TJQK".index(c[0]) + 1, c[1]) for c in codes]
    melds: list[frozenset] = []
    by_rank: dict[int, list] = {}
    by_suit: dict[str, list] = {}
    for c in cards:
        by_rank.setdefault(c[0], []).append(c)
        by_suit.setdefault(c[1], []).append(c)
    for group in by_rank.values():
        if len(group) >= 3:
            melds.append(frozenset(group))
            if len(group) == 4:
                for skip in group:
                    melds.append(frozenset(x for x in group if x != skip))
    for suit_cards in by_suit.values():
        ranks = sorted(r for r, _ in suit_cards)
        for i in range(len(ranks)):
            j = i
            while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
                j += 1
                if j - i >= 2:
                    melds.append(frozenset((r, suit_cards[0][1]) for r in ranks[i : j + 1]))
    value = {c: min(c[0], 10) for c in cards}
    total = sum(value.values())

    def best(i: int, used: frozenset) -> int:
        if i == len(melds):
            return 0
        b = best(i + 1, used)
        m = melds[i]
        if not (m & used):
            b = max(b, sum(value[c] for c in m) + best(i + 1, used | m))
        return b

    return total - best(0, frozenset())


def rate(fn, items, min_time: float) -> float:
    n = 0
    start = time.perf_counter()
    while True:
        for x in items:
            fn(x)
        n += len(items)
        el = time.perf_counter() - start
        if el >= min_time:
            return n / el


def main() -> None:
    quick = "--quick" in sys.argv
    t = 0.3 if quick else 1.5
    rng = random.Random(2024)
    print(f"Python {sys.version.split()[0]}; no cross-call cache (every call is cold)")
    for size in (10, 11):
        hands = [rng.sample(gin.IDS, size) for _ in range(2000)]
        codes = [[c[:2] for c in h] for h in hands]
        masks = [gin.hand_mask(h) for h in hands]
        assert all(gin.deadwood(h) == naive_deadwood(c) for h, c in zip(hands, codes, strict=True))
        fast_ids = rate(gin.deadwood, hands, t)
        fast_mask = rate(gin.deadwood_mask, masks, t)
        naive = rate(naive_deadwood, codes, t)
        print(
            f"{size}-card random hands: gin.deadwood(ids) {fast_ids:,.0f}/s ({1e6 / fast_ids:.2f} us/call); "
            f"deadwood_mask {fast_mask:,.0f}/s ({1e6 / fast_mask:.2f} us); naive exact {naive:,.0f}/s "
            f"({1e6 / naive:.2f} us); ratio ids/naive {fast_ids / naive:.1f}x"
        )
    # meld-rich hands: only ranks A-6, so sets and runs overlap a lot
    dense = [c for c in gin.IDS if c[0] in "A23456"]
    hands = [rng.sample(dense, 11) for _ in range(500)]
    codes = [[c[:2] for c in h] for h in hands]
    fast = rate(gin.deadwood, hands, t)
    naive = rate(naive_deadwood, codes, t)
    print(
        f"11-card meld-rich hands (ranks A-6): gin.deadwood {1e6 / fast:.2f} us/call; naive {1e6 / naive:.2f} us; "
        f"ratio {fast / naive:.1f}x"
    )
    for rules in (GinRules.two_player(), GinRules.box3()):
        n = 0
        steps = 0
        start = time.perf_counter()
        seed = 0
        while time.perf_counter() - start < (0.5 if quick else 3):
            r = random.Random(seed)
            seed += 1
            s = new_round(rules, rules.players, r)
            while s.phase != "over":
                seat = s.seat_to_act
                s = apply(s, seat, gin_bots.choose_action(s, seat, "basic", r))
                steps += 1
            n += 1
        el = time.perf_counter() - start
        print(f"bot-vs-bot ({rules.variant}, basic vs basic): {n / el:,.0f} hands/s, {steps / el:,.0f} actions/s")


if __name__ == "__main__":
    main()
