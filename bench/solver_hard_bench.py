"""The Manipulation solver on the hard positions of ``solver_hard.py`` beside rummikub-solver's ILP, in
one run (issue 28, point 3).

Run: ``.venv/bin/python bench/solver_hard_bench.py [--count 1200] [--repeat 1] [--no-rummikub]
[--no-options] [--previous]`` (rummikub-solver: ``.venv/bin/pip install -r requirements-bench.txt``).

Prints, CPU time of this process per call (``time.process_time``, all threads; the garbage collector
paused during each call, as ``timeit`` does; with ``--repeat N`` each call is made N times in a row and
the least time kept, against the noise of a shared machine):

1. the solver under the default rules (objective points) on every position;
2. the positions rummikub-solver can express (``kind == "free"``, 5 seeds in 6: ace low only, table jokers
   that are fixed or free), both solvers interleaved (each goes first on every other position) on the
   same game — ace low (option ``ace_in_sequences = low_only``), most cards laid — with p50/p90/p99/max,
   the ratios at each, and the positions where the optima differ (our play checked by the engine);
3. option ``freed_joker_reuse = new_meld_only`` on every position: p50/p90/p99/max and every position over
   500 ms;
4. with ``--previous``: the solver before issue 28 (git, ``solver_previous.BEFORE_28``) under the default
   rules on the first 200 positions, the optima compared (slow: some positions take it many seconds).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import solver_hard
import solver_previous
import solver_rummikub
from solver_bench import _state_for, pct, ratios

from games.engine import manipulation as game
from games.engine.manipulation import ManipulationRules
from games.engine.solver import best_play

clock = time.process_time
REPEAT = 1
BACKENDS = ("SCIPY", "HIGHS")


def summary(ms: list[float]) -> str:
    return (
        f"p50 {pct(ms, 0.5):7.2f}  p90 {pct(ms, 0.9):7.2f}  p99 {pct(ms, 0.99):7.2f}  max {max(ms):8.1f} ms"
        f"  (total {sum(ms) / 1000:.1f} s, {len(ms)} positions)"
    )


def timed(fn, *args):
    """Least CPU milliseconds of ``REPEAT`` calls, and the result."""
    best = float("inf")
    for _ in range(REPEAT):
        gc.collect()
        gc.disable()
        try:
            t0 = clock()
            res = fn(*args)
            best = min(best, (clock() - t0) * 1000)
        finally:
            gc.enable()
    return best, res


def bench_default(positions: list) -> None:
    ms = [timed(best_play, p.table, p.hand)[0] for p in positions]
    print("1. the solver, default rules, most points:")
    print(f"   this solver      {summary(ms)}")
    for kind in ("free", "hand"):
        sub = [x for x, p in zip(ms, positions, strict=True) if p.kind == kind]
        print(f"     kind {kind:4}      {summary(sub)}")
    for j in (2, 3, 4):
        sub = [x for x, p in zip(ms, positions, strict=True) if p.jokers == j]
        print(f"     {j} jokers       {summary(sub)}")


def bench_rummikub(positions: list) -> None:
    module = solver_rummikub.load()
    if module is None:
        print(f"2. rummikub-solver: not installed, comparison skipped ({solver_rummikub.INSTALL})")
        return
    # Both of its backends that can run here: SciPy's HiGHS (its default without highspy) and highspy's
    # (its default with it, as the app installs it); the targets are held against the faster at each point.
    baselines = {name: solver_rummikub.Baseline(module, name) for name in BACKENDS}
    rules = ManipulationRules(ace_in_sequences="low_only")
    chosen, left_out = [], 0
    for p in positions:
        got = solver_rummikub.expressible(p.table, p.hand)
        if isinstance(got, str):
            left_out += 1
        else:
            chosen.append((p, {name: b.prepare(*got) for name, b in baselines.items()}))
    ours_ms, ours = [], []
    theirs_ms: dict[str, list[float]] = {name: [] for name in baselines}
    theirs: dict[str, list[int]] = {name: [] for name in baselines}
    for i, (p, prepared) in enumerate(chosen):
        calls = [
            ("ours", lambda p=p: timed(lambda: len(best_play(p.table, p.hand, rules=rules, objective="cards").played)))
        ]
        for name, b in baselines.items():
            calls.append((name, lambda b=b, rs_st=prepared[name]: timed(b.cards, *rs_st)))
        if i % 2:
            calls.reverse()  # each goes first on every other position
        got = {name: call() for name, call in calls}
        ours_ms.append(got["ours"][0])
        ours.append(got["ours"][1])
        for name in baselines:
            theirs_ms[name].append(got[name][0])
            theirs[name].append(got[name][1])
    print(
        f"2. against rummikub-solver {module.__version__} on the {len(chosen)} positions it can express ({left_out} "
        "left out: a table joker only a hand card could free); ace low only, most cards:"
    )
    print(f"   this solver      {summary(ours_ms)}")
    for name in baselines:
        print(f"   rummikub {name:7} {summary(theirs_ms[name])}")
    for name in baselines:
        print(f"   rummikub {name} / this: {ratios(theirs_ms[name], ours_ms)}")
    best = [min(xs) for xs in zip(*theirs_ms.values(), strict=True)]
    print(f"   the faster backend on each position / this: {ratios(best, ours_ms)}")
    for name in baselines:
        differ = [(c[0], a, b) for c, a, b in zip(chosen, ours, theirs[name], strict=True) if a != b]
        more = sum(1 for _p, a, b in differ if a > b)
        print(
            f"   same optimum (cards laid) as {name} on {len(chosen) - len(differ)}/{len(chosen)}; this solver lays "
            f"more on {more}, fewer on {len(differ) - more}"
        )
        for p, a, b in differ[:12]:
            play = best_play(p.table, p.hand, rules=rules, objective="cards")
            ok = game.check_table(_state_for(p.table, p.hand, rules), 0, play.table_ids)["ok"]
            jokers = [m for m in play.table if any(x.startswith("JK") for x in m)]
            print(
                f"     seed {p.seed}: this solver {a} cards (engine check {'passed' if ok else 'FAILED'}), "
                f"rummikub-solver {b}; melds with jokers: {jokers}"
            )


def bench_new_meld_only(positions: list) -> None:
    rules = ManipulationRules(freed_joker_reuse="new_meld_only")
    ms = [timed(_best_play_args, p.table, p.hand, "points", rules)[0] for p in positions]
    slow = sorted(((x, p.seed) for x, p in zip(ms, positions, strict=True) if x > 500), reverse=True)
    print("3. option freed_joker_reuse=new_meld_only, most points:")
    print(f"   this solver      {summary(ms)}")
    print(f"   over 500 ms: {len(slow)} positions {[(s, round(x)) for x, s in slow[:20]]}")


def _best_play_args(table, hand, objective="points", rules=None):
    return best_play(table, hand, objective=objective, rules=rules)


def bench_previous(positions: list) -> None:
    before = solver_previous.load(solver_previous.BEFORE_28)
    if before is None:
        print("4. the solver before issue 28: git or its commit is not available")
        return
    ms, pms, differ = [], [], []
    for i, p in enumerate(positions):
        calls = [lambda p=p: timed(best_play, p.table, p.hand), lambda p=p: timed(before.best_play, p.table, p.hand)]
        got = {k: calls[k]() for k in ((0, 1) if i % 2 == 0 else (1, 0))}
        ms.append(got[0][0])
        pms.append(got[1][0])
        a, b = got[0][1], got[1][1]
        if (a.points, len(a.played)) != (b.points, len(b.played)):
            differ.append(p.seed)
    print(f"4. the solver before issue 28 ({solver_previous.BEFORE_28[:7]}), default rules, most points:")
    print(f"   this solver      {summary(ms)}")
    print(f"   before           {summary(pms)}")
    print(f"   before / this: {ratios(pms, ms)}; optimum differs on {differ or 'none'}")


def main() -> None:
    global REPEAT
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--repeat", type=int, default=1, help="calls per position, the least time kept")
    ap.add_argument("--no-rummikub", action="store_true")
    ap.add_argument("--no-options", action="store_true", help="skip new_meld_only")
    ap.add_argument("--previous", action="store_true", help="also the solver before issue 28 (slow)")
    args = ap.parse_args()
    REPEAT = args.repeat
    load = os.getloadavg()
    print(
        f"(CPU time of this process; Python {sys.version.split()[0]}; {os.cpu_count()} CPUs, load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; "
        f"repeat {REPEAT})"
    )
    t0 = time.perf_counter()
    positions = solver_hard.positions(args.count)
    hands = sorted(len(p.hand) for p in positions)
    melds = sorted(len(p.table) for p in positions)
    print(
        f"{len(positions)} hard positions (solver_hard.py, seeds 0-{args.count - 1}, made in "
        f"{time.perf_counter() - t0:.1f} s): hands {hands[0]}-{hands[-1]} cards, tables {melds[0]}-{melds[-1]} "
        f"melds, jokers {sorted({p.jokers for p in positions})}, "
        f"{sum(p.kind == 'hand' for p in positions)} with a table joker only a hand card can free"
    )
    bench_default(positions)
    if not args.no_rummikub:
        bench_rummikub(positions)
    if not args.no_options:
        bench_new_meld_only(positions)
    if args.previous:
        bench_previous(positions[:200])
    load = os.getloadavg()
    print(f"(load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")


if __name__ == "__main__":
    main()
