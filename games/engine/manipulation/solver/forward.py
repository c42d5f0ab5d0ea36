"""The rank DP of :class:`.dp.Problem` run forward, rank by rank, with branch and bound (exact).

A layer holds the states reached after a rank (open runs and wildcards used) with, for every
reservation of high aces, the best gain from the hand so far.  A state whose gain plus an upper bound
on what the ranks still to come can add (every optional card and wildcard laid, :meth:`Forward.bound`)
cannot beat ``floor`` is dropped: what is left is exact for every play better than ``floor``.  The
floor is the best play of the joker cases searched before, raised by a first narrow pass (a beam: the
most promising states of each layer) whose play is exact and legal, only not proven best; when it
reaches the upper bound of the whole case the search ends there.

The per-reservation gains of a state are packed in one int, a field of ``W`` bits each, so that the
gain of a transition is added to all of them at once and the best of two states is taken field by
field with a few integer operations (SWAR).  A live field holds ``BIG + gain``; a field below ``BIG``
is dead (that reservation cannot reach the state, or was pruned).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .dp import NEG, SearchBudgetExceeded

if TYPE_CHECKING:  # pragma: no cover
    from .dp import Problem

_SHORT_MASK = sum(0xFF << (16 * s) for s in range(4))
BEAM = 24  # states kept per layer by the first, narrow pass
DOMINANCE_FROM = 32  # layers this big are cleared of dominated states
_COVERS: dict[tuple[int, int, bool], bool] = {}


def covers(xa: int, xb: int, late: bool) -> bool:
    """Whether one suit's open runs ``xa`` (n1, n2, n3, low in 4 bits each) can do all that ``xb`` can.

    A run of three or more cards may close at any rank, a run of two needs one more card and a run of
    one two more: so a long run can stand for a short one and a run of two for a run of one, and a long
    run with nothing to stand for closes at once.  ``xa`` covers ``xb`` when ``xb``'s runs can be matched
    to distinct runs of ``xa`` of the same or a longer kind, every short run of ``xa`` being matched.
    Runs started with a low ace (they never take a high ace) must be as many in both, and before rank 4
    (``late`` false), when they may still be short, everything else must be equal but the long runs.
    """
    k = (xa, xb, late)
    hit = _COVERS.get(k)
    if hit is None:
        a1, a2, a3, al = xa & 15, xa >> 4 & 15, xa >> 8 & 15, xa >> 12 & 15
        b1, b2, b3, bl = xb & 15, xb >> 4 & 15, xb >> 8 & 15, xb >> 12 & 15
        if al != bl:
            hit = False
        elif not late and al:
            hit = a1 == b1 and a2 == b2 and a3 >= b3
        else:  # Hall's condition for the chain one < two < long
            hit = a1 <= b1 and a1 + a2 <= b1 + b2 and b3 <= a3 and b2 + b3 <= a2 + a3 and b1 + b2 + b3 <= a1 + a2 + a3
        if len(_COVERS) < 50_000:
            _COVERS[k] = hit
    return hit


class Forward:
    """One branch-and-bound search of a :class:`Problem` (see the module docstring)."""

    def __init__(self, p: Problem) -> None:
        self.p = p
        L = p.L
        w1 = p.weight[1]
        self.optace = [sum(p.res_of[k][2 * s + 1] for s in range(4)) * w1 for k in range(L)] if p.high else [0]
        self.jw = p.Jo * p.joker_weight
        vmax = p.ubr[1] + max(self.optace) + self.jw + 1
        b = vmax.bit_length()
        self.BIG = 1 << b
        self.W = W = b + 2
        self.ones = sum(1 << (W * i) for i in range(L))
        self.guard = self.ones << (W - 1)
        self.bigs = self.ones << b
        self.field = (1 << W) - 1
        self.states = 0
        self.budget: int | None = None
        self.canon = self._canon()

    def _canon(self) -> list[int]:
        """Per layer, the mask its keys take: a suit's runs started with a low ace are told apart only
        while a run could still end in a high ace there (the suit has an ace that could stay high, and
        the ranks from the layer's up to the king have no more holes than there are wildcards)."""
        p = self.p
        out = [-1] * 16
        for s in range(4):
            clear = ~(0xF << (16 * s + 16))
            holes = 0
            for r in range(15, 0, -1):
                if r <= 13 and not p.avail[r][s]:
                    holes += 1
                if not p.high or len(p.res_pairs[s]) == 1 or holes > p.J:
                    out[r] &= clear
        return out

    # ------------------------------------------------------------------ packed vectors

    def pack(self, values: list[int | None]) -> int:
        out = 0
        for i, v in enumerate(values):
            if v is not None:
                out |= (self.BIG + v) << (self.W * i)
        return out

    def field_of(self, v: int, k: int) -> int | None:
        x = v >> (self.W * k) & self.field
        return x - self.BIG if x >= self.BIG else None

    def thresholds(self, floor: float) -> list[int]:
        """Per layer (rank 2…14), the packed least value a field needs to stay alive (to beat ``floor``)."""
        out = [self.bigs] * 15
        if floor == NEG:
            return out
        two_big = 2 * self.BIG - 1
        W, BIG, ubr, low = self.W, self.BIG, self.p.ubr, min(self.optace) + self.jw
        for r in range(2, 15):
            base = floor + 1 - (ubr[r] if r <= 13 else 0)
            if base - low <= 0:
                continue  # every field alive is good enough
            t = 0
            for k, extra in enumerate(self.optace):
                need = int(base - extra - self.jw)
                t |= (BIG if need <= 0 else min(two_big, BIG + need)) << (W * k)
            out[r] = t
        return out

    # ------------------------------------------------------------------ the search

    def run(self, floor: float, width: int | None) -> tuple[tuple[float, list] | None, bool]:
        """The best play better than ``floor`` as ``(value, path)``, or None; and whether that is proven
        (with ``width``, only the ``width`` most promising states of a layer are kept: when a layer had
        more, the play found is only a lower bound)."""
        p = self.p
        W, guard, bigs = self.W, self.guard, self.bigs
        shift = W - 1
        T = self.thresholds(floor)
        layers: dict[int, dict[int, int]] = {}
        parents: dict[tuple[int, int], list] = {}
        start, layer = self._first_layer(T)
        layers[start] = layer
        late: dict[int, int] = {}  # states that jump to rank 14 (no card left, no open run)
        jumps: dict[int, list] = {}  # their parents
        top = p.top
        complete = True
        for r in range(start, 14):
            if width is not None and len(layer) > width:
                layer = self._narrow(layer, width)
                layers[r] = layer
                complete = False
            nxt: dict[int, int] = {}
            Tn = T[r + 1]
            canon = self.canon[r + 1]
            for key, g in layer.items():
                runs, w = key >> 4, key & 15
                if r > top and not runs:
                    self._merge(late, key, g)
                    jumps.setdefault(key, []).append((r, key, 0))
                    continue
                for ck, gain in p._children(r, runs, w).items():
                    v = g + gain * self.ones if gain else g
                    d = ((v | guard) - Tn) & guard
                    v &= d - (d >> shift)
                    if not v & bigs:
                        continue
                    nk = ck >> 4 & canon
                    old = nxt.get(nk)
                    if old is None:
                        nxt[nk] = v
                        parents[(r + 1, nk)] = [(r, key, gain)]
                    else:
                        d = ((v | guard) - old) & guard
                        m = d - (d >> shift)
                        nxt[nk] = (v & m) | (old & ~m)
                        parents[(r + 1, nk)].append((r, key, gain))
            if len(nxt) >= DOMINANCE_FROM:
                nxt = self._dominance(nxt, r + 1 >= 4)
            self.states += len(nxt)
            if self.budget is not None and self.states > self.budget:
                raise SearchBudgetExceeded(f"more than {self.budget} search states")
            layer = nxt
            layers[r + 1] = nxt
        end = 14  # past rank 13 without high aces, rank 14 with them
        for key, g in late.items():
            self._merge(layers.setdefault(end, {}), key, g)
            parents.setdefault((end, key), []).extend(jumps[key])
        return self._best_end(layers.get(end, {}), floor, layers, parents), complete

    def _dominance(self, layer: dict[int, int], late: bool) -> dict[int, int]:
        """A layer without what is dominated: of two states that differ in one suit's open runs only,
        where one's runs can do all that the other's can (:func:`covers`), the first is worth at least as
        much from here on, so its gains knock out the other's lower ones (field by field; a state with no
        live field left goes).  Chains of such steps are followed through the gains before knock-out.
        ``late``: after rank 3, when runs started with a low ace are all long ones."""
        guard, shift, bigs = self.guard, self.W - 1, self.bigs
        before = dict(layer)
        for s in range(4):
            at = 16 * s + 4
            rest = ~(0xFFFF << at)
            groups: dict[int, list[int]] = {}
            for key in before:
                groups.setdefault(key & rest, []).append(key)
            for keys in groups.values():
                if len(keys) < 2:
                    continue
                for kb in keys:
                    vb = layer.get(kb)
                    if vb is None:
                        continue
                    xb = kb >> at & 0xFFFF
                    for ka in keys:
                        if ka != kb and covers(ka >> at & 0xFFFF, xb, late):
                            d = ((before[ka] | guard) - vb) & guard
                            vb &= ~(d - (d >> shift))
                    if vb & bigs:
                        layer[kb] = vb
                    else:
                        del layer[kb]
        return layer

    def _merge(self, into: dict[int, int], key: int, g: int) -> None:
        old = into.get(key)
        if old is None:
            into[key] = g
        else:
            d = ((g | self.guard) - old) & self.guard
            m = d - (d >> (self.W - 1))
            into[key] = (g & m) | (old & ~m)

    def _first_layer(self, T: list[int]) -> tuple[int, dict[int, int]]:
        """The states after rank 1 (high aces possible: the reservation is chosen there), or before it."""
        p = self.p
        if not p.high:
            return 1, {0: self.BIG}
        best: dict[int, list] = {}
        c2 = self.canon[2]
        for gain, st, w2, _combo, _j, k in p._moves(1, 0, 0):
            vals = best.setdefault(((st << 4) | w2) & c2, [None] * p.L)
            if vals[k] is None or vals[k] < gain:
                vals[k] = gain
        layer = {}
        t2 = T[2]
        for key, vals in best.items():
            v = self.pack(vals)
            d = ((v | self.guard) - t2) & self.guard
            v &= d - (d >> (self.W - 1))
            if v & self.bigs:
                layer[key] = v
        self.states += len(layer)
        return 2, layer

    def _narrow(self, layer: dict[int, int], width: int) -> dict[int, int]:
        """The ``width`` states of a layer with the best field (gain plus the reservation's own bound)."""
        L, W, field, BIG = self.p.L, self.W, self.field, self.BIG
        if L == 1:
            ranked = sorted(layer.items(), key=lambda kv: -kv[1])
        else:
            def best(v: int) -> int:
                return max(((v >> (W * k) & field) - BIG + self.optace[k]) for k in range(L))
            ranked = sorted(layer.items(), key=lambda kv: -best(kv[1]))
        return dict(ranked[:width])

    def _best_end(self, end: dict[int, int], floor: float, layers: dict, parents: dict) -> tuple[float, list] | None:
        """The best final value over the last layer (rank 14 or past rank 13), and its path."""
        p = self.p
        best_val, best_at = floor, None
        for key, g in end.items():
            runs, w = key >> 4, key & 15
            if p.high:
                vec = p._rank14(runs, w)
                for k in range(p.L):
                    x = self.field_of(g, k)
                    if x is not None and vec[k] != NEG and x + vec[k] > best_val:
                        best_val, best_at = x + vec[k], (key, k, vec[k])
            else:
                if runs & _SHORT_MASK:
                    continue
                e = p._end_value(w)
                x = self.field_of(g, 0)
                if x is not None and e != NEG and x + e > best_val:
                    best_val, best_at = x + e, (key, 0, e)
        if best_at is None:
            return None
        key, k, tail = best_at
        return best_val, self._trace(key, k, tail, layers, parents)

    def _trace(self, key: int, k: int, tail: float, layers: dict, parents: dict) -> list:
        """The best path for :meth:`.dp.Problem.path_of`: its states first to last as ``(rank, key, gain
        into it)``, the reservation ``k``, the gain at the first state and the value at rank 14."""
        p = self.p
        r = 14
        target = self.field_of(layers[r][key], k)
        chain = []
        start = 2 if p.high else 1
        while r > start:
            for pr, pkey, gain in parents[(r, key)]:
                x = self.field_of(layers[pr][pkey], k)
                if x is not None and x + gain == target:
                    chain.append((r, key, gain))
                    r, key, target = pr, pkey, target - gain
                    break
            else:  # pragma: no cover - every kept state has a parent reaching its value
                raise AssertionError("solver: no parent reaches the state's value")
        chain.append((r, key, 0))
        chain.reverse()
        return [chain, k, target, tail]
