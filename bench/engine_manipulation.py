"""Manipulation Rummy engine benchmark (not part of the test run).

Run: ``.venv/bin/python bench/engine_manipulation.py [--positions N] [--rounds N] [--no-baseline]``

Prints:
1. the time to validate a full two-deck meld step (106 cards on the table, two joker substitutions),
   against a naive validator (every joker identity tried by brute force) measured in the same run;
2. the exact solver's p50/p90/p99/max (CPU time) over two fixed position sets:
   * generated mid-game two-deck positions (fixed seed: table of 2–14 melds, hand of 5–20 cards, jokers),
   * 40 small positions, where the brute-force exact cover of the tests is feasible;
   each against a baseline measured in the same run: the previous solver (``BASELINE_COMMIT``, read with
   ``git show``; its optimum must be the same on every position — an independent cross-check) and, on the
   small set, the brute force.  The position sets are generated with the baseline solver, so they are the
   same sets as before the solver changed (without git: the current solver, and no baseline);
3. bot-vs-bot rounds per second (basic, greedy, random-legal).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import bots
from games.engine import manipulation as game
from games.engine.cards import Card, make_deck
from games.engine.manipulation import ManipulationRules, ManipulationState
from games.engine.melds import classify
from games.engine.solver import best_play

clock = time.process_time
ROOT = Path(__file__).resolve().parent.parent
# the solver before issue #3's work (aspiration passes, high-ace reservations in the state)
BASELINE_COMMIT = "5bcf90dd2c40450898f4320a3093fbad00a3c4a3"


def load_baseline() -> ModuleType | None:
    """The solver module as it was at ``BASELINE_COMMIT`` (None without git or the commit)."""
    try:
        src = subprocess.run(
            ["git", "show", f"{BASELINE_COMMIT}:games/engine/solver.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = "games.engine._solver_baseline"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "games.engine"
    sys.modules[name] = mod
    exec(compile(src, f"<solver at {BASELINE_COMMIT[:7]}>", "exec"), mod.__dict__)
    return mod


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


def generate_positions(n: int, seed: int = 20261130, solve=best_play) -> list[tuple[list[list[Card]], list[Card]]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        deck = make_deck(2, 2)
        rng.shuffle(deck)
        k = rng.randint(6, 50)
        laid = solve([], deck[:k])
        table = laid.table_cards
        if not 2 <= len(table) <= 14:
            continue
        used = {(x.rank, x.suit, x.deck) for m in table for x in m}
        rest = [x.undeclared() for x in deck if (x.rank, x.suit, x.deck) not in used]
        hand = rest[: rng.randint(5, 20)]
        out.append((table, hand))
    return out


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


def compare(name: str, ms: list[float], res: list, base_ms: list[float], base_res: list) -> None:
    same = sum(1 for a, b in zip(res, base_res, strict=True) if a == b)
    print(
        f"  {name}: {summary(base_ms)}  (total {sum(base_ms):.0f} ms; current solver "
        f"{sum(base_ms) / sum(ms):.1f}x faster in total, p99 {pct(base_ms, 0.99) / pct(ms, 0.99):.1f}x, "
        f"max {max(base_ms) / max(ms):.1f}x); same optimum on {same}/{len(res)}"
    )
    if same != len(res):
        bad = [i for i, (a, b) in enumerate(zip(res, base_res, strict=True)) if a != b]
        print(f"  !! optimum differs from the baseline on positions {bad[:20]}")


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


def bench_solver(n: int, baseline: ModuleType | None) -> None:
    gen = baseline.best_play if baseline is not None else best_play
    positions = generate_positions(n, solve=gen)
    jokered = sum(1 for t, h in positions if any(x.is_joker for m in t for x in m) or any(x.is_joker for x in h))
    ms, res = timed(best_play, positions)
    print(
        f"solver over {n} mid-game positions (seed fixed; {jokered} with jokers; "
        f"avg {statistics.mean(len(t) for t, _ in positions):.1f} melds, "
        f"{statistics.mean(len(h) for _, h in positions):.1f} hand cards): {summary(ms)}  (total {sum(ms):.0f} ms)"
    )
    if baseline is not None:
        compare(f"previous solver ({BASELINE_COMMIT[:7]})", ms, res, *timed(baseline.best_play, positions))
    else:
        print("  (no baseline: git or the baseline commit is not available; sets made with the current solver)")

    # small positions: against the brute-force exact cover of the tests (and the previous solver)
    sys.path.insert(0, str(ROOT / "tests" / "engine"))
    from tests.engine.manipulation.oracle import brute_force

    small = small_positions(gen)
    ms, res = timed(best_play, small)
    size = statistics.mean(sum(map(len, t)) + len(h) for t, h in small)
    print(f"solver over 40 small positions ({size:.1f} cards, half with a joker in hand): {summary(ms)}")
    if baseline is not None:
        compare(f"previous solver ({BASELINE_COMMIT[:7]})", ms, res, *timed(baseline.best_play, small))
    bf_ms, bf_res = [], []
    for t, h in small:
        t0 = clock()
        v = brute_force(t, h, ManipulationRules())
        bf_ms.append((clock() - t0) * 1000)
        bf_res.append(divmod(v, 1 << 12))
    compare("brute-force exact cover", ms, res, bf_ms, bf_res)


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
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--no-baseline", action="store_true", help="skip the previous solver")
    args = ap.parse_args()
    print(f"(CPU time of this process; Python {sys.version.split()[0]})")
    bench_validation()
    bench_solver(args.positions, None if args.no_baseline else load_baseline())
    bench_bots(args.rounds)


if __name__ == "__main__":
    main()
