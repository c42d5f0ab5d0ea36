"""An upper bound on one joker case from a linear programme (HiGHS): the melds as a cover of the cells.

The search's own bound (:class:`.dp.Problem`'s ``ubr``: every optional card to come, every wildcard)
cannot see that the suits compete for the wildcards and for each other's naturals in groups, so where
the best play leaves a card or two in hand the layer-by-layer search has to prove it from a floor,
thousands of states.  This programme sees every suit at once:

- a cell is a rank and a suit, rank 14 the high ace (the same physical aces as rank 1);
- a meld is a run of three, four or five cells of one suit (every longer run is a row of those) or a
  group of three or four cells of one rank, distinct suits; ``x_m`` how many of it are laid;
- each cell a meld covers holds a natural of that cell or a wildcard: ``Σ_{m ∋ c} x_m = n_c + w_c``;
- every forced natural is used and no more than the forced and optional ones:
  ``F_v ≤ Σ_{c of v} n_c ≤ F_v + O_v`` per value ``v`` (an ace's two cells share its cards);
- at most the wildcards there are: ``Σ w_c ≤ J``;
- maximise what the optional naturals add, ``Σ weight_v (n_v − F_v)``, plus every optional wildcard
  (as the search's bound counts them all).

Every play of the case is an integer point of it (the melds it lays, split into runs of three to
five), so its optimum is an upper bound on the case; a programme with no solution means the forced
cards cannot all be placed.  Its constraints dropped are only ever relaxations (a freed joker need not
be placed, a meld need not hold a natural), so the bound stays admissible.  Where the integer
programme of the same cover has no gap (nearly always here), the bound is the case's best value.

The model is built once per thread and ace mode; a case only changes the bounds of its rows and the
costs of the naturals, and HiGHS starts from the last basis (about a millisecond a case).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Any

import highspy
import numpy as np

from ...cards import Card

_local = threading.local()

INF = highspy.kHighsInf
BIG = 1 << 12  # the weights' first part is counted in units of BIG (search._Step)
TOLERANCE = 1e-4  # values are integers; HiGHS's errors are far smaller
MILP_SECONDS = 2.0  # the integer programme's limit: past it the search proves the case as before


class _Model:
    """The cover programme of one ace mode, ready to take a case's bounds and costs."""

    def __init__(self, ace_mode: str, integer: bool = False) -> None:
        """``integer``: the integer programme (:meth:`solve`), else its relaxation (:meth:`bound`)."""
        high = ace_mode != "low_only"
        low = ace_mode != "high_only"
        ranks = range(1, 15 if high else 14)
        cells = [(p, s) for p in ranks for s in range(4)]
        self.cells = cells
        self.cell_index = {c: i for i, c in enumerate(cells)}
        self.melds = melds = []
        for s in range(4):
            for lo in range(1 if low else 2, 13):
                for length in (3, 4, 5):
                    hi = lo + length - 1
                    if hi > (14 if high else 13):
                        continue
                    melds.append([self.cell_index[(p, s)] for p in range(lo, hi + 1)])
        for r in range(1, 14):
            for leave in range(4):
                melds.append([self.cell_index[(r, s)] for s in range(4) if s != leave])
            melds.append([self.cell_index[(r, s)] for s in range(4)])
        nc, nm = len(cells), len(melds)
        # columns: the melds, then a natural per cell, then a wildcard per cell
        self.n0 = nm
        self.w0 = nm + nc
        ncols = nm + 2 * nc
        rows: list[tuple[list[int], list[float], float, float]] = []
        for i in range(nc):  # the cover of each cell
            idx = [m for m, cover in enumerate(melds) if i in cover] + [self.n0 + i, self.w0 + i]
            rows.append((idx, [1.0] * (len(idx) - 2) + [-1.0, -1.0], 0.0, 0.0))
        self.value_row: dict[tuple[int, int], int] = {}
        for r in range(1, 14):  # what each value's naturals give (an ace's at rank 1 and at rank 14)
            for s in range(4):
                places = ((1, s), (14, s)) if r == 1 else ((r, s),)
                idx = [self.n0 + self.cell_index[c] for c in places if c in self.cell_index]
                self.value_row[(r, s)] = len(rows)
                rows.append((idx, [1.0] * len(idx), 0.0, 0.0))
        self.wild_row = len(rows)
        rows.append(([self.w0 + i for i in range(nc)], [1.0] * nc, 0.0, 0.0))
        # the second programme's floor on the first part of the value (its coefficients set with the weights)
        self.first_row = len(rows)
        rows.append(([self.n0 + i for i in range(nc)], [1.0] * nc, -INF, INF))
        self.cell_rank = [1 if p == 14 else p for p, _s in cells]
        h = build(ncols, rows, integer)
        self.h = h
        self.ncells = nc
        self.rows = np.array(
            [self.value_row[(r, s)] for r in range(1, 14) for s in range(4)] + [self.wild_row, self.first_row],
            dtype=np.int32,
        )
        self.n_cols = np.arange(self.n0, self.n0 + nc, dtype=np.int32)
        self.weights: tuple | None = None
        if integer:
            h.changeColsCost(nc, np.arange(self.w0, self.w0 + nc, dtype=np.int32), np.zeros(nc))

    def _weights(self, weight: Any) -> tuple[list[int], list[int]]:
        """The weights split into their two parts, ``weight = BIG * first + second`` (the objective's
        order: points then cards, or cards then points), set as the first programme's costs and the
        second's floor row."""
        w = tuple(weight[r] for r in range(14))
        first = [x // BIG for x in w]
        second = [x % BIG for x in w]
        if w != self.weights:
            h = self.h
            for i, r in enumerate(self.cell_rank):
                h.changeCoeff(self.first_row, self.n0 + i, float(first[r]))
            self.weights = w
        return first, second

    def _case(self, problem: Any, wild_least: int) -> None:
        """The case's rows: every forced natural used and at most the optional ones, per value; from
        ``wild_least`` to every wildcard placed; no floor on the first part of the value."""
        lo, hi = [], []
        for r in range(1, 14):
            for s in range(4):
                f = problem.F[r][s]
                lo.append(f)
                hi.append(f + problem.O[r][s])
        lo += [wild_least, -INF]
        hi += [problem.J, INF]
        self.h.changeRowsBounds(len(self.rows), self.rows, np.array(lo, dtype=float), np.array(hi, dtype=float))

    @staticmethod
    def _forced(problem: Any, parts: list[int]) -> int:
        """What the forced naturals are worth in ``parts`` (per rank)."""
        return sum(problem.F[r][s] * parts[r] for r in range(1, 14) for s in range(4))

    def bound(self, problem: Any) -> tuple[int, float] | None:
        """What the optional naturals add at most, in the two parts of the value: the first part's
        bound (an integer), and the second's among the plays that reach it; None when the forced
        cannot be placed (forced wildcards need not be: a relaxation).  Two programmes: the most of the
        first part, then the most of the second with the first at least the integer below that."""
        h = self.h
        first, second = self._weights(problem.weight)
        forced_first, forced_second = self._forced(problem, first), self._forced(problem, second)
        self._case(problem, 0)
        h.changeColsCost(self.ncells, self.n_cols, np.array([float(first[r]) for r in self.cell_rank]))
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return None
        if status != highspy.HighsModelStatus.kOptimal:
            return math.inf, math.inf  # no bound (never seen): the search runs as without one
        top = math.floor(h.getInfo().objective_function_value + TOLERANCE)
        h.changeRowBounds(self.first_row, float(top), INF)
        h.changeColsCost(self.ncells, self.n_cols, np.array([float(second[r]) for r in self.cell_rank]))
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return top - forced_first, math.inf  # (never seen)
        return top - forced_first, h.getInfo().objective_function_value - forced_second

    def solve(self, problem: Any) -> tuple[int, list[list[int]], list[int]] | None:
        """The integer programme of the case, exactly: every forced card and wildcard placed, the value
        of the optional naturals and wildcards laid at most.  ``(value, melds as cells with each cell's
        count of copies, naturals per cell)``, or None (no play, or past the limit)."""
        h = self.h
        weight, jw = problem.weight, problem.joker_weight
        w = tuple(weight[r] for r in range(14))
        if w != self.weights:
            h.changeColsCost(self.ncells, self.n_cols, np.array([float(w[r]) for r in self.cell_rank]))
            self.weights = w
        h.changeColsCost(
            self.ncells, np.arange(self.w0, self.w0 + self.ncells, dtype=np.int32), np.full(self.ncells, float(jw))
        )
        forced_value = self._forced(problem, list(w))
        self._case(problem, problem.Jf)
        # run as it is: solve_near's relaxation and programmes around it cost more here than they save
        # (the ILP game's p99 37 -> 44 ms: they rarely end a case the short searches did not)
        h.setOptionValue("time_limit", float(MILP_SECONDS))
        h.run()
        if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
            return None  # infeasible (no play places the forced cards), or the time limit
        x = [round(v) for v in h.getSolution().col_value]
        value = round(h.getInfo().objective_function_value) - forced_value - problem.Jf * jw
        melds = [cells for m, cells in enumerate(self.melds) for _ in range(x[m])]
        return value, melds, x[self.n0 : self.w0]


def build(ncols: int, rows: list[tuple[list[int], list[float], float, float]], integer: bool) -> highspy.Highs:
    """A HiGHS instance maximising over ``ncols`` non-negative columns and ``rows`` (indices, coefficients,
    lower, upper): the integer programme (presolve on: ten times slower without), or a linear one solved
    again and again from its last basis (presolve off)."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    h.addVars(ncols, np.zeros(ncols), np.full(ncols, INF))
    starts, index, value = [], [], []
    for idx, coef, _lo, _hi in rows:
        starts.append(len(index))
        index.extend(idx)
        value.extend(coef)
    h.addRows(
        len(rows),
        np.array([r[2] for r in rows], dtype=float),
        np.array([r[3] for r in rows], dtype=float),
        len(index),
        np.array(starts, dtype=np.int32),
        np.array(index, dtype=np.int32),
        np.array(value, dtype=float),
    )
    if integer:
        h.changeColsIntegrality(
            ncols, np.arange(ncols, dtype=np.int32), np.array([highspy.HighsVarType.kInteger] * ncols)
        )
        h.setOptionValue("presolve", "on")
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("mip_abs_gap", 0.5)  # values are integers: a gap below one proves the best
        h.setOptionValue("threads", 1)
    return h


def solve_near(
    h: highspy.Highs,
    relaxed: highspy.Highs,
    upper: np.ndarray,
    melds: int,
    start: tuple[np.ndarray, float] | None = None,
) -> tuple[list[int], float] | None:
    """The integer programme ``h`` solved (its columns between 0 and ``upper``; its first ``melds`` columns
    the melds), as ``(solution, objective)``; None when it has no solution or past :data:`MILP_SECONDS`.

    HiGHS's first node often has the best value as its bound already, and spends most of its time on cuts
    before a heuristic finds a solution that reaches it (tenfold, and by its random seed).  So its linear
    relaxation ``relaxed`` (the same rows and costs) comes first, then ``h`` restricted around its
    solution: each column between the integers next to its value, then only the melds it lays (any
    number of each).  A solution of those as good as the relaxation's bound is the best; else the better
    of them and ``start`` (a solution and its objective) starts the whole programme.
    """
    ncols = len(upper)
    cols = np.arange(ncols, dtype=np.int32)
    zeros = np.zeros(ncols)
    h.setOptionValue("time_limit", float(MILP_SECONDS))
    relaxed.run()
    status = relaxed.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return None
    if status == highspy.HighsModelStatus.kOptimal:
        x = np.array(relaxed.getSolution().col_value)
        top = math.floor(relaxed.getInfo().objective_function_value + TOLERANCE)
        support = upper.copy()
        support[:melds][x[:melds] < TOLERANCE] = 0.0
        try:
            for lo, hi in ((np.floor(x + TOLERANCE), np.ceil(x - TOLERANCE)), (zeros, support)):
                h.changeColsBounds(ncols, cols, lo, hi)
                h.run()
                if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                    continue
                objective = h.getInfo().objective_function_value
                near = np.array(h.getSolution().col_value)
                if objective >= top - TOLERANCE:
                    return [round(v) for v in near], objective
                if start is None or objective > start[1]:
                    start = near, objective
        finally:
            h.changeColsBounds(ncols, cols, zeros, upper)
    if start is not None:
        h.setSolution(ncols, cols, start[0])
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return [round(v) for v in h.getSolution().col_value], h.getInfo().objective_function_value


def _model(ace_mode: str, integer: bool = False) -> _Model:
    models = getattr(_local, "models", None)
    if models is None:
        models = _local.models = {}
    model = models.get((ace_mode, integer))
    if model is None:
        model = models[(ace_mode, integer)] = _Model(ace_mode, integer)
    return model


def _ace_mode(problem: Any) -> str:
    return "low_only" if not problem.high else ("high_only" if not problem.low else "high_or_low")


def cover_bound(problem: Any) -> float | None:
    """An upper bound on what ``problem``'s optional naturals and wildcards can add (in its weights), at
    most its plain bound; None when no play places its forced cards."""
    got = _model(_ace_mode(problem)).bound(problem)
    plain = problem.ubr[1] + problem.Jo * problem.joker_weight
    if got is None:
        return None
    first, second = got
    if first == math.inf:
        return plain
    jokers = problem.Jo * problem.joker_weight
    if second == math.inf:
        return min(plain, (first + 1) * BIG - 1 + jokers)
    return min(plain, first * BIG + math.floor(second + TOLERANCE) + jokers)


@dataclass(frozen=True, slots=True)
class Built:
    """A case's play from its integer programme: its melds and the optional cards it lays (what
    :meth:`.dp.Problem.rebuild` gives for a path of the search)."""

    melds: list[list[Card]]
    used: list[Card]


def solve(problem: Any) -> tuple[int, Built] | None:
    """The case's best play from the integer programme of the cover (HiGHS, exact: no gap), as
    ``(value, Built)`` in the problem's weights; None when it has no play or the programme ran past
    :data:`MILP_SECONDS` (the search then proves the case).  A long run is laid as the runs of three to
    five cells it was made of (each a meld), a wildcard declared as the cell it stands in."""
    model = _model(_ace_mode(problem), integer=True)
    got = model.solve(problem)
    if got is None:
        return None
    value, melds, naturals = got
    # the naturals each cell gets: per value the forced first, then the optional (an ace's two cells share them)
    pools: dict[int, list[Card]] = {}
    used: list[Card] = []
    for r in range(1, 14):
        for s in range(4):
            cards = list(problem.forced.get((r, s), ())) + list(problem.optional.get((r, s), ()))
            cells = [c for c in ((r, s), (14, s)) if c in model.cell_index] if r == 1 else [(r, s)]
            taken = 0
            for cell in cells:
                i = model.cell_index[cell]
                pools[i] = cards[taken : taken + naturals[i]]
                taken += naturals[i]
            used.extend(cards[len(problem.forced.get((r, s), ())) : taken])
    jokers = list(problem.wild_forced) + list(problem.wild_optional)
    out = lay(melds, pools, jokers, model.cells)
    used.extend(c for c in problem.wild_optional if not any(c is j for j in jokers))
    return value, Built(out, used)


def lay(melds: list[list[int]], pools: dict[int, list[Card]], jokers: list[Card], cells: list) -> list[list[Card]]:
    """The melds of a programme's solution (each a list of cell indices) with physical cards: a natural of
    the cell from ``pools`` (taken from it) where one is left, else the next of ``jokers`` (taken from the
    front of it) declared as the cell (rank 14: the ace)."""
    out = []
    for meld_cells in melds:
        meld = []
        for i in meld_cells:
            if pools[i]:
                meld.append(pools[i].pop())
            else:
                rank, suit = cells[i]
                meld.append(jokers.pop(0).declare(1 if rank == 14 else rank, suit))
        out.append(meld)
    return out
