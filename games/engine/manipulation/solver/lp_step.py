"""Option ``freed_joker_reuse = new_meld_only``: the whole meld step as one integer programme (HiGHS).

Under this option a freed joker goes only into a new meld whose other cards are all from the hand
(B.3.4).  The search (:mod:`.search`) enumerates every set of such new melds, one joker case each:
thousands on a hand of twenty cards.  This programme has the option inside it instead, as a cover of
the cells (rank, suit; rank 14 the high ace, sharing the aces of rank 1) by two classes of melds:

- **class A**, the melds without a freed joker: runs of three, four or five cells (every longer run is a
  row of those) and groups of three or four; each cell holds a natural (of the table, a kept table
  joker, which stands for a natural of its identity, or of the hand) or a hand joker;
- **class B**, the melds holding the freed jokers: whole runs of any length and groups, each cell
  holding a hand natural or a wildcard (a freed joker or a hand joker), every such meld with a hand
  card in it;
- ``φ_v``, how many table jokers of identity ``v`` are freed, is a variable: the others are kept (forced
  into class A at ``v``); every freed one goes into class B; the jokers of ``v`` freed are at most the
  naturals of ``v`` that free them: those played from the hand, and the table's with option
  ``joker_substitute_from = hand_or_table`` (the engine's M4 check, :func:`.tablecheck._identity_errors`);
- the value is what the hand cards laid are worth (the objective's weights, :class:`.search._Step`).

Every legal play is an integer point (its melds without a freed joker cut into runs of three to five, the
others whole), so the optimum bounds every play.  Two conditions are not linear in the cells and are
checked when the play is built from the solution (:func:`solve`): every class-B meld holds a hand card
(the programme only counts them: no more class-B melds than hand cards in class B, nor than freed
jokers), and every freed joker takes an identity other than its old one.  Where they cannot both be met the programme's value is
still a bound (``Solved.built`` is None) and the search goes on case by case.

The model is built once per thread and ace mode; a step only changes bounds and costs.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import highspy
import numpy as np

from ...cards import Card
from .lp import Built, build, lay, solve_near

_local = threading.local()

INF = highspy.kHighsInf
Key = tuple[int, int]
VALUES = [(r, s) for r in range(1, 14) for s in range(4)]
ASSIGN_STEPS = 20_000  # the freed jokers' places tried at most (then: no play built, the search goes on)


class _Model:
    """The programme of one ace mode (see the module docstring); columns: class-A melds, class-B melds,
    per cell the naturals and wildcards of each class, then ``φ_v`` per value."""

    def __init__(self, ace_mode: str) -> None:
        high = ace_mode != "low_only"
        low = ace_mode != "high_only"
        ranks = range(1, 15 if high else 14)
        self.cells = cells = [(p, s) for p in ranks for s in range(4)]
        index = {c: i for i, c in enumerate(cells)}
        groups = []
        for r in range(1, 14):
            for leave in range(4):
                groups.append([index[(r, s)] for s in range(4) if s != leave])
            groups.append([index[(r, s)] for s in range(4)])
        first, last = (1 if low else 2), (14 if high else 13)

        def runs(longest: int) -> list[list[int]]:
            out = []
            for s in range(4):
                for lo in range(first, last - 1):
                    for hi in range(lo + 2, min(lo + longest - 1, last) + 1):
                        if not (lo == 1 and hi == 14):
                            out.append([index[(p, s)] for p in range(lo, hi + 1)])
            return out

        self.melds_a = runs(5) + groups
        self.melds_b = runs(14) + groups
        na, nb, nc = len(self.melds_a), len(self.melds_b), len(cells)
        self.a_columns = {tuple(sorted(cells)): m for m, cells in enumerate(self.melds_a)}
        self.b_columns = {tuple(sorted(cells)): na + m for m, cells in enumerate(self.melds_b)}
        self.b0 = na
        self.na0, self.wa0 = na + nb, na + nb + nc
        self.nb0, self.wb0 = na + nb + 2 * nc, na + nb + 3 * nc
        self.phi0 = na + nb + 4 * nc
        ncols = self.phi0 + len(VALUES)
        self.cell_rank = [1 if p == 14 else p for p, _s in cells]
        rows: list[tuple[list[int], list[float]]] = []
        for melds, m0, n0, w0 in ((self.melds_a, 0, self.na0, self.wa0), (self.melds_b, self.b0, self.nb0, self.wb0)):
            for i in range(nc):  # the cover of each cell, per class
                idx = [m0 + m for m, cover in enumerate(melds) if i in cover]
                rows.append((idx + [n0 + i, w0 + i], [1.0] * len(idx) + [-1.0, -1.0]))
        self.value_rows = len(rows)
        self.value_cells: list[list[int]] = []  # per value: its cells (an ace's two)
        for v, (r, s) in enumerate(VALUES):  # per value: kept and table cards in A; the hand's; the freeing
            places = [index[c] for c in (((1, s), (14, s)) if r == 1 else ((r, s),)) if c in index]
            self.value_cells.append(places)
            na_v = [self.na0 + i for i in places]
            nb_v = [self.nb0 + i for i in places]
            phi = self.phi0 + v
            rows.append((na_v + [phi], [1.0] * (len(na_v) + 1)))  # NA + φ >= table + jokers
            rows.append((na_v + nb_v + [phi], [1.0] * (2 * len(na_v) + 1)))  # NA + NB + φ <= table + jokers + hand
            rows.append((na_v + nb_v, [1.0] * (2 * len(na_v))))  # NA + NB >= jokers (+ table, hand_only)
        phis = list(range(self.phi0, ncols))
        wild_a = list(range(self.wa0, self.wa0 + nc))
        wild_b = list(range(self.wb0, self.wb0 + nc))
        nat_b = list(range(self.nb0, self.nb0 + nc))
        self.wild_row = len(rows)  # hand jokers laid: 0..J (the row after the values', set with them)
        assert self.wild_row == self.value_rows + 3 * len(VALUES)
        rows.append((wild_a + wild_b + phis, [1.0] * (2 * nc) + [-1.0] * len(phis)))
        self.freed_row = len(rows)  # every freed joker in class B
        rows.append((wild_b + phis, [1.0] * nc + [-1.0] * len(phis)))
        self.hand_row = len(rows)  # no more class-B melds than hand cards in them
        rows.append(
            (
                list(range(self.b0, self.b0 + nb)) + nat_b + wild_b + phis,
                [1.0] * nb + [-1.0] * (2 * nc) + [1.0] * len(phis),
            )
        )
        self.freed_melds_row = len(rows)  # no more class-B melds than freed jokers (each holds one)
        rows.append((list(range(self.b0, self.b0 + nb)) + phis, [1.0] * nb + [-1.0] * len(phis)))
        lower = [0.0] * len(rows)
        upper = [0.0] * len(rows)
        lower[self.freed_row], upper[self.freed_row] = 0.0, INF
        lower[self.hand_row], upper[self.hand_row] = -INF, 0.0
        lower[self.freed_melds_row], upper[self.freed_melds_row] = -INF, 0.0
        bounded = [(idx, coef, lo, hi) for (idx, coef), lo, hi in zip(rows, lower, upper, strict=True)]
        self.relaxed = build(ncols, bounded, integer=False)
        self.h = build(ncols, bounded, integer=True)
        self.ncols = ncols
        self.nc = nc
        # the rows a step sets: three per value, then the hand jokers' (the row after them)
        self.step_rows = np.arange(self.value_rows, self.value_rows + 3 * len(VALUES) + 1, dtype=np.int32)
        self.all_cols = np.arange(ncols, dtype=np.int32)
        self.cost_cols = np.arange(self.na0, ncols, dtype=np.int32)

    def point(self, step: StepCards, melds: list[list[Card]]) -> np.ndarray | None:
        """The programme's point of a play (its melds), or None if a meld is not one of its columns."""
        x = np.zeros(self.ncols)
        old = {(jk.rank, jk.suit, jk.deck): key for key, jks in step.by_ident.items() for jk in jks}
        index = {c: i for i, c in enumerate(self.cells)}
        for meld in melds:
            changed = [c for c in meld if c.is_joker and old.get((c.rank, c.suit, c.deck), c.declared) != c.declared]
            for c in changed:
                x[self.phi0 + VALUES.index(old[(c.rank, c.suit, c.deck)])] += 1
            idents = [c.effective for c in meld]
            suits = {s for _r, s in idents}
            if len(suits) == 1 and len(meld) >= 3 and 1 in {r for r, _s in idents} and 13 in {r for r, _s in idents}:
                idents = [(14, s) if r == 1 else (r, s) for r, s in idents]  # a run with its ace high
            if changed:
                pieces = [sorted(idents)]
                columns, base_n, base_w = self.b_columns, self.nb0, self.wb0
            else:
                pieces = _pieces(sorted(idents)) if len(suits) == 1 else [sorted(idents)]
                columns, base_n, base_w = self.a_columns, self.na0, self.wa0
            for piece in pieces:
                col = columns.get(tuple(index[c] for c in piece))
                if col is None:
                    return None
                x[col] += 1
            for c, ident in zip(meld, idents, strict=True):
                is_kept = c.is_joker and (c.rank, c.suit, c.deck) in old and not changed
                natural = not c.is_joker or is_kept
                x[(base_n if natural else base_w) + index[ident]] += 1
        return x

    def run(self, step: StepCards, start: np.ndarray | None = None) -> list[int] | None:
        """The step's integer solution (rounded), or None past the time limit (:data:`.lp.MILP_SECONDS`);
        the relaxation and the programmes around its solution first (:func:`.lp.solve_near`)."""
        lo_rows, hi_rows, up_cols = self._bounds(step)
        costs = np.array(self._costs(step))
        for h in (self.relaxed, self.h):
            h.changeRowsBounds(len(self.step_rows), self.step_rows, lo_rows, hi_rows)
            h.changeColsBounds(self.ncols, self.all_cols, np.zeros(self.ncols), up_cols)
            h.changeColsCost(len(self.cost_cols), self.cost_cols, costs)
        given = None if start is None else (start, float(costs @ start[self.na0 :]))
        got = solve_near(self.h, self.relaxed, up_cols, self.na0, given)
        return None if got is None else got[0]  # (None: the time limit; the empty play is a solution)

    def _bounds(self, step: StepCards) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The step's rows (per value, then the hand jokers) and its columns' upper bounds: a meld that
        needs more wildcards than there are is left out (HiGHS's presolve does not see it), and at most
        the table jokers of each identity are freed."""
        lo, hi = [], []
        for v in VALUES:
            table, jokers, hand = step.table[v], step.jokers[v], step.hand[v]
            lo += [table + jokers, -INF, (0 if step.from_table else table) + jokers]
            hi += [INF, table + jokers + hand, INF]
        lo.append(0.0)
        hi.append(float(len(step.hand_jokers)))
        freed = sum(step.jokers.values())
        wild = len(step.hand_jokers)
        have = [0] * self.nc  # per cell: naturals of any kind, hand naturals
        have_hand = [0] * self.nc
        for i, (p, s) in enumerate(self.cells):
            v = (1 if p == 14 else p, s)
            have[i] = step.table[v] + step.jokers[v] + step.hand[v]
            have_hand[i] = step.hand[v]
        up = np.full(self.ncols, INF)
        for m, cells in enumerate(self.melds_a):
            up[m] = INF if sum(1 for i in cells if not have[i]) <= wild else 0.0
        for m, cells in enumerate(self.melds_b):
            up[self.b0 + m] = INF if freed and sum(1 for i in cells if not have_hand[i]) <= wild + freed else 0.0
        up[self.phi0 :] = [float(step.jokers[v]) for v in VALUES]
        return np.array(lo, dtype=float), np.array(hi, dtype=float), up

    def _costs(self, step: StepCards) -> list[float]:
        """The costs of the naturals, the wildcards and the ``φ`` columns: what each adds to the value."""
        w, jw = step.weight, float(step.joker_weight)
        nat = [float(w[r]) for r in self.cell_rank]
        return nat + [jw] * self.nc + nat + [jw] * self.nc + [float(w[r]) - jw for r, _s in VALUES]


def _pieces(cells: list[Key]) -> list[list[Key]]:
    """A run cut into runs of three to five cells."""
    out = []
    while len(cells) > 5:
        take = 5 if len(cells) - 5 >= 3 else 3
        out.append(cells[:take])
        cells = cells[take:]
    return out + [cells]


def _model(ace_mode: str) -> _Model:
    models = getattr(_local, "models", None)
    if models is None:
        models = _local.models = {}
    model = models.get(ace_mode)
    if model is None:
        model = models[ace_mode] = _Model(ace_mode)
    return model


@dataclass
class StepCards:
    """A meld step's cards as the programme counts them (from :class:`.search._Step`)."""

    table_nat: dict[Key, list[Card]]
    by_ident: dict[Key, list[Card]]  # the table jokers by their declared identity
    hand_nat: dict[Key, list[Card]]
    hand_jokers: list[Card]
    from_table: bool  # option joker_substitute_from = hand_or_table
    ace_mode: str
    weight: Any
    joker_weight: int

    def __post_init__(self) -> None:
        self.table = {v: len(self.table_nat.get(v, ())) for v in VALUES}
        self.jokers = {v: len(self.by_ident.get(v, ())) for v in VALUES}
        self.hand = {v: len(self.hand_nat.get(v, ())) for v in VALUES}


@dataclass(frozen=True, slots=True)
class Solved:
    """The programme's best value (an upper bound on every play of the step, in its weights), and its
    play when one could be built from the solution (None: see the module docstring)."""

    value: int
    built: Built | None


def solve(step: StepCards, start: list[list[Card]] | None = None) -> Solved | None:
    """The step's best play under ``new_meld_only`` (exact when ``built`` is given), or None past the time
    limit.  ``start``: a play's melds, given to HiGHS as its first solution (it then proves more than it
    searches: a play as good as the relaxation's bound ends it at once)."""
    model = _model(step.ace_mode)
    x = model.run(step, None if start is None else model.point(step, start))
    if x is None:
        return None
    value = _value(model, step, x)
    return Solved(value, _build(model, step, x, value))


def _value(model: _Model, step: StepCards, x: list[int]) -> int:
    """What the hand cards laid in solution ``x`` are worth."""
    total = 0
    for v, (r, _s) in enumerate(VALUES):
        played = sum(x[model.na0 + i] + x[model.nb0 + i] for i in model.value_cells[v])
        played -= step.table[VALUES[v]] + step.jokers[VALUES[v]] - x[model.phi0 + v]
        total += played * step.weight[r]
    wild = sum(x[model.wa0 : model.wa0 + model.nc]) + sum(x[model.wb0 : model.wb0 + model.nc])
    return total + (wild - sum(x[model.phi0 :])) * step.joker_weight


def _build(model: _Model, step: StepCards, x: list[int], value: int) -> Built | None:
    """The play of solution ``x``: class-A melds as the cover programme builds them, class-B melds with a
    hand card in each and every freed joker declared anew; None when that cannot be done."""
    nc = model.nc
    freed: list[Card] = []
    pools_a: dict[int, list[Card]] = {}  # per cell: the naturals class A lays there
    pools_b: dict[int, list[Card]] = {}
    used: list[Card] = []
    for v, key in enumerate(VALUES):
        phi = x[model.phi0 + v]
        jokers = step.by_ident.get(key, [])
        freed += jokers[:phi]
        forced = list(step.table_nat.get(key, ())) + list(jokers[phi:])
        hand = list(step.hand_nat.get(key, ()))
        cells = model.value_cells[v]
        a_total = sum(x[model.na0 + i] for i in cells)
        b_total = sum(x[model.nb0 + i] for i in cells)
        cards = forced + hand
        if a_total < len(forced) or a_total + b_total > len(cards):
            return None  # (never: the programme's rows)
        taken = 0
        for i in cells:
            pools_a[i] = cards[taken : taken + x[model.na0 + i]]
            taken += x[model.na0 + i]
        for i in cells:
            pools_b[i] = cards[taken : taken + x[model.nb0 + i]]
            taken += x[model.nb0 + i]
        used += cards[len(forced) : taken]
    hand_jokers = list(step.hand_jokers)
    copies_a = [cells for m, cells in enumerate(model.melds_a) for _ in range(x[m])]
    out = lay(copies_a, pools_a, hand_jokers, model.cells)  # class A: as the cover programme lays them
    used += step.hand_jokers[: len(step.hand_jokers) - len(hand_jokers)]
    copies = [cells for m, cells in enumerate(model.melds_b) for _ in range(x[model.b0 + m])]
    counts = {i: x[model.nb0 + i] for i in range(nc)}
    melds_b = _class_b(model, copies, counts, pools_b, freed, hand_jokers, used)
    if melds_b is None:
        return None
    out += melds_b
    got = sum(step.joker_weight if c.is_joker else step.weight[c.rank] for c in used)
    if got != value:
        return None  # (never: the value is counted from the same solution)
    return Built(out, used)


def _class_b(
    model: _Model,
    copies: list[list[int]],
    naturals: dict[int, int],
    pools: dict[int, list[Card]],
    freed: list[Card],
    hand_jokers: list[Card],
    used: list[Card],
) -> list[list[Card]] | None:
    """The class-B melds (``copies``: each meld's cells) with ``naturals[i]`` hand naturals at cell ``i``
    and wildcards in the other places: as many melds as can get a natural do (a matching), the others a
    hand joker, and the freed jokers in the places left, each at an identity other than its old one."""
    at_cell: dict[int, list[int]] = {}
    for k, cells in enumerate(copies):
        for i in cells:
            at_cell.setdefault(i, []).append(k)
    # 1. a natural for as many melds as possible (augmenting paths; a cell gives at most its naturals)
    owner: dict[tuple[int, int], int] = {}  # (cell, unit) -> meld
    given: dict[int, tuple[int, int]] = {}

    def augment(k: int, seen: set) -> bool:
        for i in copies[k]:
            for u in range(naturals.get(i, 0)):
                if (i, u) in seen:
                    continue
                seen.add((i, u))
                if (i, u) not in owner or augment(owner[(i, u)], seen):
                    owner[(i, u)] = k
                    given[k] = (i, u)
                    return True
        return False

    for k in range(len(copies)):
        augment(k, set())
    # every natural placed: the matched ones, then the rest at each cell to melds without one there
    slot_natural: set[tuple[int, int]] = {(given[k][0], k) for k in given}  # (cell, meld)
    for i, melds in at_cell.items():
        left = naturals.get(i, 0) - sum(1 for k in melds if (i, k) in slot_natural)
        for k in melds:
            if left <= 0:
                break
            if (i, k) not in slot_natural:
                slot_natural.add((i, k))
                left -= 1
    wild_slots = [(i, k) for k, cells in enumerate(copies) for i in cells if (i, k) not in slot_natural]
    bare = [k for k in range(len(copies)) if k not in given]  # melds that need a hand joker
    n_hand = len(wild_slots) - len(freed)
    if n_hand < len(bare) or n_hand > len(hand_jokers):
        return None
    # 2. the freed jokers' places: at most all but one of a bare meld's places, each a new identity
    room = {k: len(copies[k]) - (1 if k in given else 0) for k in range(len(copies))}
    for k in bare:
        room[k] = len(copies[k]) - 1
    place: dict[int, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    steps = 0

    def old_cell(joker: Card, i: int) -> bool:
        rank, suit = model.cells[i]
        return joker.declared == (1 if rank == 14 else rank, suit)

    def assign(j: int) -> bool:
        nonlocal steps
        if j == len(freed):
            return True
        for slot in wild_slots:
            steps += 1
            if steps > ASSIGN_STEPS:
                return False
            i, k = slot
            if slot in taken or room[k] == 0 or old_cell(freed[j], i):
                continue
            taken.add(slot)
            room[k] -= 1
            place[j] = slot
            if assign(j + 1):
                return True
            taken.discard(slot)
            room[k] += 1
        return False

    if not assign(0):
        return None
    by_slot = {slot: freed[j] for j, slot in place.items()}
    out = []
    for k, cells in enumerate(copies):
        meld = []
        for i in cells:
            rank, suit = model.cells[i]
            ident = (1 if rank == 14 else rank, suit)
            if (i, k) in slot_natural:
                meld.append(pools[i].pop())
            elif (i, k) in by_slot:
                meld.append(by_slot[(i, k)].undeclared().declare(*ident))
            else:
                joker = hand_jokers.pop(0)
                used.append(joker)
                meld.append(joker.declare(*ident))
        out.append(meld)
    return out
