"""Manipulation Rummy engine benchmark (not part of the test run).

Run: ``.venv/bin/python bench/engine_manipulation.py [--rounds N] [--no-previous] [--no-rummikub] [--no-options]``
(rummikub-solver, for the comparison: ``.venv/bin/pip install -r requirements-bench.txt``)

Prints:
1. the time to validate a full two-deck meld step (106 cards on the table, two joker substitutions),
   against a naive validator (every joker identity tried by brute force) measured in the same run;
2. the exact solver's p50/p90/p99/max (CPU time) on the fixed set of 512 mid-game positions
   (``solver_positions.txt``, see ``solver_positions.py``), against the previous solver (the code at the
   start of issue 17's work, loaded from git: ``solver_previous.py``) in the same run, with an optimum
   cross-check; then on the positions rummikub-solver can express, against it (``solver_bench.py``);
   then under the other values of the rule options the solver reads;
3. the solver on 40 small positions against the brute-force exact cover of the tests;
4. bot-vs-bot rounds per second (basic, greedy, random-legal).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import solver_bench
import solver_previous

from games.engine import bots
from games.engine import manipulation as game
from games.engine.cards import Card, make_deck
from games.engine.manipulation import ManipulationRules, ManipulationState
from games.engine.melds import classify
from games.engine.solver import best_play

clock = time.process_time
ROOT = Path(__file__).resolve().parent.parent


def c(code: str) -> Card:
    return Card.from_code(code)


def run_of(suit: str, deck: int, ranks: str) -> list[Card]:
    return [c(f"{r}{suit}.{deck}") for r in ranks]


def full_table_step() -> tuple[ManipulationState, list[list[str]]]:
    """A 104-card table + 2 hand cards; the step substitutes both jokers and ends with all 106 cards."""
    ranks = "A23456789TJQK"
    before: list[list[Card]] = []
    for deck in (0, 1):
        for suit in "SD":
            before.append(run_of(suit, deck, ranks))
    before.append(run_of("H", 0, ranks))
    before.append(run_of("C", 0, ranks))
    before.append(run_of("H", 1, "A23456"))
    before.append([c("JK=7H.1")] + run_of("H", 1, "89TJQK"))
    before.append(run_of("C", 1, "A23456789TJQ") + [c("JK=KC.0")])
    hand = [c("KC.1"), c("7H.1")]
    rules = ManipulationRules(players=3)
    state = ManipulationState(
        rules=rules,
        players=3,
        dealer=2,
        hands=(tuple(hand), (), ()),
        stock=(),
        table=tuple(map(tuple, before)),
        seat_to_act=0,
        phase="drawn",
        draws=1,
        has_melded=(False,) * 3,
    )
    after = [list(m) for m in before]
    after[0] = after[0][:-1]  # K♠ (deck 0) leaves its run for the new group
    after[6] = run_of("H", 1, "A234567"[:6]) + [c("7H.1")]
    after[7] = run_of("H", 1, "89TJQK")
    after[8] = run_of("C", 1, "A23456789TJQK")
    after.append([c("KS.0"), c("JK=KH.0"), c("JK=KD.1")])
    table = [[f"{x.code}.{x.deck}" for x in m] for m in after]
    assert sum(map(len, table)) == 106
    return state, table


def naive_valid(meld: list[Card]) -> bool:
    """Baseline: try every identity for every joker (52^k) and test the meld with fixed identities."""
    jokers = [i for i, x in enumerate(meld) if x.is_joker]
    idents = [(r, s) for r in range(1, 14) for s in range(4)]

    def rec(k: int, cur: list[Card]) -> bool:
        if k == len(jokers):
            return classify(cur) is not None
        for ident in idents:
            nxt = list(cur)
            nxt[jokers[k]] = cur[jokers[k]].undeclared().declare(*ident)
            if rec(k + 1, nxt):
                return True
        return False

    return rec(0, list(meld))


def bench_validation(repeat: int = 30) -> None:
    state, table = full_table_step()
    report = game.check_table(state, 0, table)
    assert report["ok"], report
    t0 = clock()
    for _ in range(repeat):
        game.apply(state, 0, {"type": "meld", "table": table})
    engine = (clock() - t0) / repeat
    t0 = clock()
    for _ in range(max(1, repeat // 3)):
        assert naive_step_ok(state, table)
    naive = (clock() - t0) / max(1, repeat // 3)
    print(
        f"validate full two-deck meld step (106 cards, 2 substitutions): {engine * 1000:.2f} ms "
        f"(naive validator: joker identities by enumeration, lists scanned: {naive * 1000:.2f} ms, "
        f"ratio {naive / engine:.1f}x)"
    )


def naive_step_ok(state: ManipulationState, table: list[list[str]]) -> bool:
    """Baseline full-step check: the same M1–M4 decisions written the simple way."""
    new = [[Card.from_code(x) for x in m] for m in table]
    flat = [x for m in new for x in m]
    old = [x for m in state.table for x in m]
    hand = list(state.hands[0])
    same = lambda a, b: a.rank == b.rank and a.suit == b.suit and a.deck == b.deck  # noqa: E731
    if not all(any(same(o, x) for x in flat) for o in old):  # M2
        return False
    if not all(any(same(x, o) for o in old) or any(same(x, h) for h in hand) for x in flat):
        return False
    if not any(any(same(x, h) for h in hand) for x in flat):  # M1
        return False
    for m in new:  # M3: every joker identity tried
        if not naive_valid([x.undeclared() if x.is_joker else x for x in m]):
            return False
    for x in flat:  # M4: a changed identity needs an identical natural card
        if x.is_joker:
            before = next(o for o in old if same(o, x))
            if before.declared != x.declared and not any(not y.is_joker and y.key == before.declared for y in flat):
                return False
    return all(classify(m) is not None for m in new)


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))]


def timed(solve, positions) -> tuple[list[float], list[tuple[int, int]]]:
    """CPU milliseconds and (points, cards) of ``solve`` on every position."""
    ms, results = [], []
    for table, hand in positions:
        t0 = clock()
        play = solve(table, hand)
        ms.append((clock() - t0) * 1000)
        results.append((play.points, len(play.played)))
    return ms, results


def summary(ms: list[float]) -> str:
    return f"p50 {pct(ms, 0.5):.2f} ms  p90 {pct(ms, 0.9):.2f} ms  p99 {pct(ms, 0.99):.2f} ms  max {max(ms):.1f} ms"


def small_positions(solve) -> list[tuple[list[list[Card]], list[Card]]]:
    rng = random.Random(7)
    small: list[tuple[list[list[Card]], list[Card]]] = []
    while len(small) < 40:
        deck = [x for x in make_deck(2, 0) if x.rank <= 7 and x.suit < 3]
        rng.shuffle(deck)
        laid = solve([], deck[:9])
        if not laid.table_cards:
            continue
        used = {(x.rank, x.suit, x.deck) for m in laid.table_cards for x in m}
        rest = [x for x in deck if (x.rank, x.suit, x.deck) not in used]
        small.append((laid.table_cards, rest[:5] + [Card.joker(0)] * (len(small) % 2)))
    return small


def bench_small() -> None:
    """Small positions: the solver against the brute-force exact cover of the tests."""
    sys.path.insert(0, str(ROOT / "tests" / "engine"))
    from tests.engine.manipulation.oracle import brute_force

    small = small_positions(best_play)
    ms, res = timed(best_play, small)
    size = statistics.mean(sum(map(len, t)) + len(h) for t, h in small)
    bf_ms, bf_res = [], []
    for t, h in small:
        t0 = clock()
        v = brute_force(t, h, ManipulationRules())
        bf_ms.append((clock() - t0) * 1000)
        bf_res.append(divmod(v, 1 << 12))
    same = sum(1 for a, b in zip(res, bf_res, strict=True) if a == b)
    print(f"solver over 40 small positions ({size:.1f} cards, half with a joker in hand): {summary(ms)}")
    print(f"  brute-force exact cover: {summary(bf_ms)}; same optimum on {same}/40")


def bench_bots(rounds: int) -> None:
    for policy in ("basic", "greedy", "random-legal"):
        t0 = clock()
        steps = 0
        for seed in range(rounds):
            players = 2 + seed % 4
            state = game.new_round(None, players, random.Random(seed))
            rng = random.Random(seed)
            while not game.is_over(state):
                seat = state.seat_to_act
                state = game.apply(state, seat, bots.choose_action(state, seat, policy, rng))
                steps += 1
        dt = clock() - t0
        print(f"bot-vs-bot rounds ({policy}, 2–5 players): {rounds / dt:.1f} rounds/s, {steps / dt:.0f} actions/s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--no-previous", action="store_true", help="skip the previous solver")
    ap.add_argument("--no-rummikub", action="store_true", help="skip rummikub-solver")
    ap.add_argument("--no-options", action="store_true", help="skip the rule options")
    args = ap.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"(CPU time of this process; Python {sys.version.split()[0]}; {os.cpu_count()} CPUs, load average {load:.2f})"
    )
    bench_validation()
    previous = None if args.no_previous else solver_previous.load()
    solver_bench.bench_set(previous)
    if not args.no_rummikub:
        solver_bench.bench_rummikub()
    if not args.no_options:
        solver_bench.bench_options(previous)
    bench_small()
    bench_bots(args.rounds)


if __name__ == "__main__":
    main()
