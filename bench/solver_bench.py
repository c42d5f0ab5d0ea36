"""The Manipulation solver's figures for ``bench/engine_manipulation.py`` (issue 17, section 3).

Every comparison runs the solvers one after the other on the same position, in turn first (so that a
cache one of them warms, or a burst of load on the shared machine, does not favour one side), and times
each call in CPU time of this process (``time.process_time``, all threads), with the garbage collector
paused during the call as ``timeit`` does (a collection of what another solver left, rummikub-solver's
cvxpy objects above all, would otherwise land in whichever call comes next).

* ``bench_set``: the fixed set of ``solver_positions.txt`` under the default rules, objective points:
  this solver against the previous one (:mod:`solver_previous`, the code at the start of the work),
  with the number of positions where their optima differ (an independent cross-check);
* ``bench_rummikub``: the positions rummikub-solver can express (:mod:`solver_rummikub`), both solvers
  on the same game (ace low only, most cards laid), the ratios at p50/p90/p99, and every position where
  the optima differ, our play checked by the engine's own M1–M4 test;
* ``bench_options``: the same set under each other value of an option of RULES E.1 that the solver
  reads, against the previous solver (time and optimum).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

import solver_positions
import solver_rummikub

from games.engine import manipulation as game
from games.engine.manipulation import ManipulationRules, ManipulationState
from games.engine.solver import best_play

clock = time.process_time


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))]


def summary(ms: list[float]) -> str:
    return (
        f"p50 {pct(ms, 0.5):6.2f}  p90 {pct(ms, 0.9):6.2f}  p99 {pct(ms, 0.99):6.2f}  max {max(ms):6.1f} ms"
        f"  (total {sum(ms):.0f} ms)"
    )


def ratios(slow: list[float], fast: list[float]) -> str:
    parts = [f"{name} {pct(slow, q) / pct(fast, q):.1f}x" for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))]
    return ", ".join(parts) + f", max {max(slow) / max(fast):.1f}x, total {sum(slow) / sum(fast):.1f}x"


def interleaved(solvers: list[Callable[[Any, Any], Any]], positions: list) -> list[tuple[list[float], list]]:
    """CPU milliseconds and results of every solver on every position, in turn first."""
    out: list[tuple[list[float], list]] = [([], []) for _ in solvers]
    for i, pos in enumerate(positions):
        order = list(range(len(solvers)))
        order = order[i % len(order) :] + order[: i % len(order)]
        for k in order:
            gc.collect()
            gc.disable()
            try:
                t0 = clock()
                res = solvers[k](*pos)
                out[k][0].append((clock() - t0) * 1000)
            finally:
                gc.enable()
            out[k][1].append(res)
    return out


def _score(play: Any) -> tuple[int, int]:
    return play.points, len(play.played)


def bench_set(previous: Any | None) -> None:
    positions = solver_positions.load()
    pos = [(t, h) for _kind, t, h in positions]
    kinds = [k for k, _t, _h in positions]
    ours = lambda t, h: _score(best_play(t, h))  # noqa: E731
    solvers = [ours] + ([lambda t, h: _score(previous.best_play(t, h))] if previous else [])
    runs = interleaved(solvers, pos)
    ms, res = runs[0]
    jokered = sum(1 for k in kinds if k != "plain")
    print(
        f"solver over the {len(pos)} fixed mid-game positions ({solver_positions.FILE.name}; {jokered} with jokers; "
        f"{statistics.mean(len(t) for t, _ in pos):.1f} melds and {statistics.mean(len(h) for _, h in pos):.1f} "
        f"hand cards on average), default rules, most points:"
    )
    print(f"  this solver      {summary(ms)}")
    for kind in ("plain", "table", "hand", "both"):
        sub = [x for x, k in zip(ms, kinds, strict=True) if k == kind]
        print(f"    jokers: {kind:5}  {summary(sub)}  ({len(sub)} positions)")
    big = [x for x, (t, h), k in zip(ms, pos, kinds, strict=True) if len(h) >= 14 and k != "plain"]
    print(f"    14-20 hand cards and jokers  {summary(big)}  ({len(big)} positions)")
    if previous is None:
        print("  (no previous solver: git or its commit is not available)")
        return
    pms, pres = runs[1]
    same = sum(1 for a, b in zip(res, pres, strict=True) if a == b)
    print(f"  previous solver  {summary(pms)}")
    print(f"  previous / this: {ratios(pms, ms)}; same optimum on {same}/{len(pos)}")
    if same != len(pos):
        print(f"  !! optimum differs on {[i for i, (a, b) in enumerate(zip(res, pres, strict=True)) if a != b]}")


def _state_for(table: list, hand: list, rules: ManipulationRules) -> ManipulationState:
    return ManipulationState(
        rules=rules.replace(players=3, jokers=4),
        players=3,
        dealer=2,
        hands=(tuple(hand), (), ()),
        stock=(),
        table=tuple(map(tuple, table)),
        seat_to_act=0,
        phase="drawn",
        draws=1,
        has_melded=(False,) * 3,
    )


def bench_rummikub() -> None:
    module = solver_rummikub.load()
    if module is None:
        print(f"rummikub-solver: not installed, comparison skipped ({solver_rummikub.INSTALL})")
        return
    baseline = solver_rummikub.Baseline(module)
    rules = ManipulationRules(ace_in_sequences="low_only")
    chosen, why = [], {}
    for i, (_kind, table, hand) in enumerate(solver_positions.load()):
        got = solver_rummikub.expressible(table, hand)
        if isinstance(got, str):
            why[got] = why.get(got, 0) + 1
        else:
            chosen.append((i, table, hand, *baseline.prepare(*got)))
    ours = lambda t, h, _rs, _st: len(best_play(t, h, rules=rules, objective="cards").played)  # noqa: E731
    theirs = lambda _t, _h, rs, st: baseline.cards(rs, st)  # noqa: E731
    (ms, res), (rms, rres) = interleaved([ours, theirs], [c[1:] for c in chosen])
    left_out = ", ".join(f"{n} {reason}" for reason, n in sorted(why.items()))
    print(
        f"against rummikub-solver {module.__version__} (backend {baseline.ruleset(2).backend}) on the {len(chosen)} "
        f"positions it can express (left out: {left_out}); ace low only, most cards:"
    )
    print(f"  this solver      {summary(ms)}")
    print(f"  rummikub-solver  {summary(rms)}")
    print(f"  rummikub-solver / this: {ratios(rms, ms)}")
    differ = [(c[0], a, b) for c, a, b in zip(chosen, res, rres, strict=True) if a != b]
    print(f"  same optimum (cards laid) on {len(chosen) - len(differ)}/{len(chosen)}")
    for i, a, b in differ:
        table, hand = chosen[[c[0] for c in chosen].index(i)][1:3]
        play = best_play(table, hand, rules=rules, objective="cards")
        ok = game.check_table(_state_for(table, hand, rules), 0, play.table_ids)["ok"]
        jokers = [m for m in play.table if any(x.startswith("JK") for x in m)]
        print(
            f"    position {i}: this solver {a} cards (engine check {'passed' if ok else 'FAILED'}), rummikub-solver "
            f"{b}; melds with jokers: {jokers}"
        )


OPTIONS = [
    {"freed_joker_reuse": "new_meld_only"},
    {"joker_substitute_from": "hand_only"},
    {"ace_in_sequences": "low_only"},
    {"ace_in_sequences": "high_only"},
]


def bench_options(previous: Any | None) -> None:
    pos = [(t, h) for _k, t, h in solver_positions.load()]
    print("the same positions under the other values of the options of RULES E.1 the solver reads:")
    for opts in OPTIONS:
        rules = ManipulationRules(**opts)
        solvers = [lambda t, h, r=rules: _score(best_play(t, h, rules=r))]
        if previous is not None:
            solvers.append(lambda t, h, r=rules: _score(previous.best_play(t, h, rules=r)))
        runs = interleaved(solvers, pos)
        name = ", ".join(f"{k}={v}" for k, v in opts.items())
        line = f"  {name:34} this {summary(runs[0][0])}"
        if previous is not None:
            same = sum(1 for a, b in zip(runs[0][1], runs[1][1], strict=True) if a == b)
            line += f"; previous p99 {pct(runs[1][0], 0.99):.1f} max {max(runs[1][0]):.1f} ms, same optimum {same}/{len(pos)}"
        print(line)
