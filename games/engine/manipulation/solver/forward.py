"""The rank DP of :class:`.dp.Problem` run forward, rank by rank, with branch and bound (exact).

A layer holds the states reached after a rank (open runs and wildcards used) with, for every
reservation of high aces, the best gain from the hand so far.  A state whose gain plus an upper bound
on what the ranks still to come can add (every optional card and wildcard laid, :meth:`thresholds`)
cannot beat ``floor`` is dropped: what is left is exact for every play better than ``floor``.  The
same states and bounds are searched two ways: depth first (:meth:`Forward.dfs`: best gain first, the
floor raised to every play found, a cap on the states visited), which finds a play near the bound in a
few paths, and layer by layer (:meth:`Forward.run`), which merges equal states and drops dominated ones
and so proves best what the depth-first search could not in its cap; the floor of the second is the
best play of the first and of the joker cases searched before.  (``run`` can also keep only the ``width``
most promising states of each layer, :data:`BEAM`: a legal play, not proven best; the search no longer
uses it.)

States are kept in a canonical form (:meth:`Forward.canonical`) and, in big layers, dominated ones
are dropped (:meth:`Forward._dominance`): both rest on what an open run can still do, never on the
cards already laid, so every play better than the floor keeps a path of states to it.

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
BEAM = 24  # states kept per layer by a narrow pass (``run(floor, BEAM)``)
DOMINANCE_FROM = 32  # layers this big are cleared of dominated states
_COVERS: dict[int, bool] = {}  # (xa << 17 | xb << 1 | late) -> covers(xa, xb, late); a few thousand at most


def covers(xa: int, xb: int, late: bool) -> bool:
    """Whether one suit's open runs ``xa`` (n1, n2, n3, low in 4 bits each) can do all that ``xb`` can.

    A run of three or more cards may close at any rank, a run of two needs one more card and a run of
    one two more: so a long run can stand for a short one and a run of two for a run of one, and a long
    run with nothing to stand for closes at once.  ``xa`` covers ``xb`` when ``xb``'s runs can be matched
    to distinct runs of ``xa`` of the same or a longer kind, every short run of ``xa`` being matched.
    Runs started with a low ace (they never take a high ace) must be as many in both, and before rank 4
    (``late`` false), when they may still be short, everything else must be equal but the long runs.
    """
    k = xa << 17 | xb << 1 | late
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


_NO_LONG = ~sum(0xFF << (16 * s + 12) for s in range(4))


_PROFILE_GUARD = sum(1 << (12 * s + 5) | 1 << (12 * s + 11) for s in range(4))  # above each 5-bit field


def _long_profile(key: int) -> int:
    """Per suit the long runs and the long runs less those started low (plus 8: before rank 4 the low ones
    may be short ones), 5 bits each below a guard bit, for one subtraction to compare all eight."""
    out = 0
    for s in range(4):
        n3, low = key >> (16 * s + 12) & 15, key >> (16 * s + 16) & 15
        out |= n3 << (12 * s) | (n3 - low + 8) << (12 * s + 6)
    return out


_LOW_BITS = sum(0xF << (16 * s + 16) for s in range(4))  # the low fields of a layer key
_N3_FIELDS = sum(0xF << (16 * s) for s in range(4))  # (key >> 12): the long-run counts
_ONES4 = sum(1 << (16 * s) for s in range(4))
_GUARD4 = _ONES4 << 12  # a guard bit above each 16-bit suit field


class CapReached(Exception):
    """A depth-first search past its cap of states (:meth:`Forward.dfs`)."""


class _Done(Exception):
    """A play as good as the bound of the whole case: nothing to search further."""


class Forward:
    """One branch-and-bound search of a :class:`Problem` (see the module docstring)."""

    def __init__(self, p: Problem, plain: bool = False) -> None:
        """``plain``: no state merged or dropped but by the floor (the reference the tests compare with)."""
        self.p = p
        self.plain = plain
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
        self.target: float = float("inf")  # a bound on the case found otherwise (.lp): a play reaching it ends a search
        self._found: tuple[float, list] | None = None
        self._init_canonical()
        if plain:
            self.canonical = lambda _r, key: key  # type: ignore[method-assign]
        self.kids: list[dict[int, dict[int, int]]] = [{} for _ in range(15)]  # per rank: state -> its children
        self.kneed: list[dict[int, int]] = [{} for _ in range(15)]  # per rank: state -> the need they were for

    def _init_canonical(self) -> None:
        """The tables of :meth:`canonical`, per layer ``r`` (the ranks from ``r`` up to the king to come):
        ``holes[r][s]``, the ranks without a natural card of suit ``s`` (a wildcard must fill each for a run
        to reach the king), with ``99`` where no ace of the suit can be high; ``caps[r]``, the naturals of
        rank ``r`` per suit packed as :meth:`canonical` compares them."""
        p = self.p
        self.holes = [[0] * 4 for _ in range(16)]
        self.caps = [0] * 16
        for s in range(4):
            holes = 0
            no_high = not p.high or len(p.res_pairs[s]) == 1
            for r in range(15, 0, -1):
                if r <= 13 and not p.avail[r][s]:
                    holes += 1
                self.holes[r][s] = 99 if no_high else holes
                self.caps[r] |= min(p.avail[r][s], 15) << (16 * s)
        J = p.J
        self.room = [[self.caps[r] + (J - w) * _ONES4 | _GUARD4 for w in range(J + 1)] for r in range(15)]

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

    def children(self, r: int, key: int, need: int = 0) -> dict[int, int]:
        """The states after rank ``r`` from state ``key`` (``runs << 4 | w``, canonical) with the best gain
        to each, remembered for the next pass and for tracing the best path back.  ``need``: only those
        that lay at least that many optional naturals of rank ``r`` are asked for (the others cannot beat
        the floor); what is remembered is the list for the least ``need`` asked so far."""
        hit = self.kids[r].get(key)
        if hit is None or self.kneed[r][key] > need:
            canonical = self.canonical
            room = self.room[r + 1]  # per wildcards used: the long runs each suit can take on
            hit = self.kids[r][key] = {}
            self.kneed[r][key] = need
            for ck, gain in self.p.rank_children(r, key >> 4, key & 15, need).items():
                nk = ck >> 4
                longs = nk >> 12 & _N3_FIELDS
                if nk & _LOW_BITS or (longs and ((room[nk & 15] - longs) & _GUARD4) != _GUARD4):
                    nk = canonical(r + 1, nk)  # the quick test above: nothing to change
                if hit.get(nk, -1) < gain:
                    hit[nk] = gain
        return hit

    def need(self, r: int, v: int, t: int) -> int:
        """The optional naturals rank ``r`` must add to packed gains ``v`` for some live field to reach
        the packed least values ``t`` of the next layer (0 when any child will do)."""
        wr = self.p.weight[r]
        if self.p.L == 1:
            d = t - v
        else:
            W, field, BIG = self.W, self.field, self.BIG
            d = min((t >> (W * k) & field) - x for k in range(self.p.L) if (x := v >> (W * k) & field) >= BIG)
        return -(-d // wr) if d > 0 else 0

    def canonical(self, r: int, key: int) -> int:
        """A state of layer ``r`` as the search keeps it.  Runs started with a low ace (they never take a
        high ace) are counted as any other where no run of the suit can reach the king any more and take
        a high ace (no ace of the suit can be high, or its holes up to the king outnumber the wildcards
        left).  And in a suit without such runs, no more long runs than can go on at rank ``r`` (its
        naturals and the wildcards left): the others close, whichever they are."""
        left = self.p.J - (key & 15)
        if key & _LOW_BITS:
            holes = self.holes[r]
            for s in range(4):
                if key >> (16 * s + 16) & 15 and holes[s] > left:
                    key &= ~(0xF << (16 * s + 16))
        longs = key >> 12 & _N3_FIELDS
        if longs:
            d = (self.room[r][key & 15] - longs) & _GUARD4
            if d != _GUARD4:  # some suit has more long runs than can go on
                for s in range(4):
                    at = 16 * s + 12
                    n3, low = key >> at & 15, key >> at + 4 & 15
                    most = min(self.p.avail[r][s], 15) + left
                    if not low and n3 > most:
                        key -= (n3 - most) << at
        return key

    def run(self, floor: float, width: int | None) -> tuple[tuple[float, list] | None, bool]:
        """The best play better than ``floor`` as ``(value, path)``, or None; and whether that is proven
        (with ``width``, only the ``width`` most promising states of a layer are kept: when a layer had
        more, the play found is only a lower bound)."""
        T = self.thresholds(floor)
        layers: list[dict[int, int]] = [{} for _ in range(15)]
        start, layers[start] = self._first_layer(T)
        top = self.p.top
        complete = True
        late = layers[14]  # states with no card left and no open run go straight to rank 14
        for r in range(start, 14):
            layer = layers[r]
            if width is not None and len(layer) > width:
                layer = layers[r] = self._narrow(layer, width)
                complete = False
            if r > top:
                for key in [key for key in layer if key < 16]:
                    self._merge(late, key, layer[key])
            expand = self._expand_scalar if self.p.L == 1 else self._expand
            nxt = expand(r, layer, T[r + 1], r > top)
            if r + 1 == 14:
                for key, g in late.items():
                    self._merge(nxt, key, g)
            if len(nxt) >= DOMINANCE_FROM and not self.plain:
                nxt = self._dominance(nxt, r + 1 >= 4)
            self.states += len(nxt)
            if self.budget is not None and self.states > self.budget:
                raise SearchBudgetExceeded(f"more than {self.budget} search states")
            layers[r + 1] = nxt
        return self._best_end(layers, floor), complete

    def dfs(self, floor: float, cap: int | None = None) -> tuple[float, list] | None:
        """The best play better than ``floor`` as ``(value, path)``, or None: the same states and bounds
        as :meth:`run`, searched depth first (the best gain first), the floor raised to every play found
        (branch and bound).  A state reached again with gains no better, field by field, than when its
        whole subtree was searched is not searched again (the floor only rises, so what was found there
        still holds).  A play whose value is the bound of the whole case ends the search at once: the
        positions where most hand cards can be laid are found in a few paths instead of a layer by layer
        search with a low floor."""
        p = self.p
        self._floor = floor
        self._T = self.thresholds(floor)
        self._found: tuple[float, list] | None = None
        # no play does better: every optional card and wildcard laid, or what the cover programme allows
        self._stop = min(p.ubr[1] + self.jw, self.target)
        self._failed: list[dict[int, int]] = [{} for _ in range(15)]
        self._sorted: list[dict[int, list]] = [{} for _ in range(15)]
        self._ends: dict[int, list] = {}
        self._cap = None if cap is None else self.states + cap
        start, layer = self._first_layer(self._T)
        path: list[tuple[int, int, int]] = []
        if self.p.L == 1:
            order = sorted(layer.items(), key=lambda kv: -kv[1])
        else:
            W, field, BIG = self.W, self.field, self.BIG
            order = sorted(
                layer.items(),
                key=lambda kv: -max(((kv[1] >> (W * k) & field) - BIG + self.optace[k]) for k in range(p.L)),
            )
        try:
            for key, v in order:
                d = ((v | self.guard) - self._T[start]) & self.guard
                v &= d - (d >> (self.W - 1))
                if v & self.bigs:
                    path.append((start, key, 0))
                    self._dfs(start, key, v, path, v)
                    path.pop()
        except _Done:
            pass
        return self._found

    def best_found(self) -> tuple[float, list] | None:
        """The best play the last :meth:`dfs` found before it stopped (past its cap or the budget)."""
        return self._found

    def keep_found(self, found: tuple[float, list]) -> None:
        """A play found otherwise (by :meth:`run`), as the best found."""
        self._found = found

    def _dfs(self, r: int, key: int, v: int, path: list, v0: int) -> None:
        p = self.p
        if r == 14 or (r > p.top and key < 16):
            self._end(key, v, path, v0, r)
            return
        failed = self._failed[r].get(key)
        guard = self.guard
        if failed is not None and ((failed | guard) - v) & guard == guard:
            return  # searched before with gains as good in every field
        self.states += 1
        if self.budget is not None and self.states > self.budget:
            raise SearchBudgetExceeded(f"more than {self.budget} search states")
        if self._cap is not None and self.states > self._cap:
            raise CapReached
        t = self._T[r + 1]
        need = self.need(r, v, t)
        sk = self._sorted[r].get(key)
        if sk is None or sk[0] > need:
            sk = self._sorted[r][key] = (
                need,
                sorted(self.children(r, key, need).items(), key=lambda kv: (-kv[1], kv[0] & 15)),
            )
        ones, bigs, shift = self.ones, self.bigs, self.W - 1
        for nk, gain in sk[1]:
            nv = v + gain * ones if gain else v
            d = ((nv | guard) - t) & guard
            nv &= d - (d >> shift)
            if not nv & bigs:
                continue
            path.append((r + 1, nk, gain))
            self._dfs(r + 1, nk, nv, path, v0)
            path.pop()
        if failed is None:
            self._failed[r][key] = v
        else:
            d = ((v | guard) - failed) & guard
            m = d - (d >> shift)
            self._failed[r][key] = (v & m) | (failed & ~m)

    def _end(self, key: int, v: int, path: list, v0: int, r: int) -> None:
        """A state past the last card (rank 14, or no open run left past the top rank): the plays it ends."""
        p = self.p
        runs, w = key >> 4, key & 15
        best_val, best_k, best_tail = self._floor, -1, 0.0
        if p.high:
            vec = self._ends.get(key)
            if vec is None:
                vec = self._ends[key] = p.rank14_values(runs, w)
            for k in range(p.L):
                x = self.field_of(v, k)
                if x is not None and vec[k] != NEG and x + vec[k] > best_val:
                    best_val, best_k, best_tail = x + vec[k], k, vec[k]
        else:
            if runs & _SHORT_MASK:
                return
            e = p.end_value(w)
            x = self.field_of(v, 0)
            if x is not None and e != NEG and x + e > best_val:
                best_val, best_k, best_tail = x + e, 0, e
        if best_k < 0:
            return
        chain = list(path)
        if r != 14:
            chain.append((14, key, 0))
        g0 = self.field_of(v0, best_k)
        self._found = (best_val, [chain, best_k, g0, best_tail])
        self._floor = best_val
        if best_val >= self._stop:
            raise _Done
        self._T = self.thresholds(best_val)

    def _expand(self, r: int, layer: dict[int, int], t: int, skip_empty: bool) -> dict[int, int]:
        """The next layer: every child of every state, its fields below ``t`` dropped, the best kept."""
        guard, bigs, ones = self.guard, self.bigs, self.ones
        shift = self.W - 1
        nxt: dict[int, int] = {}
        get = nxt.get
        for key, g in layer.items():
            if skip_empty and key < 16:
                continue
            for nk, gain in self.children(r, key, self.need(r, g, t)).items():
                v = g + gain * ones if gain else g
                d = ((v | guard) - t) & guard
                v &= d - (d >> shift)
                if not v & bigs:
                    continue
                old = get(nk)
                if old is None:
                    nxt[nk] = v
                elif old != v:
                    d = ((v | guard) - old) & guard
                    m = d - (d >> shift)
                    nxt[nk] = (v & m) | (old & ~m)
        return nxt

    def _expand_scalar(self, r: int, layer: dict[int, int], t: int, skip_empty: bool) -> dict[int, int]:
        """:meth:`_expand` with one reservation only (no high ace): the packed int is the one field."""
        nxt: dict[int, int] = {}
        get = nxt.get
        for key, g in layer.items():
            if skip_empty and key < 16:
                continue
            need = t - g
            for nk, gain in self.children(r, key, -(-need // self.p.weight[r]) if need > 0 else 0).items():
                v = g + gain
                if v >= t and get(nk, 0) < v:
                    nxt[nk] = v
        return nxt

    def _dominance(self, layer: dict[int, int], late: bool) -> dict[int, int]:
        """A layer without what is dominated: of two states that differ in one suit's open runs only,
        where one's runs can do all that the other's can (:func:`covers`), the first is worth at least as
        much from here on, so its gains knock out the other's lower ones (field by field; a state with no
        live field left goes).  Chains of such steps are followed through the gains before knock-out.
        ``late``: after rank 3, when runs started with a low ace are all long ones."""
        guard, shift, bigs = self.guard, self.W - 1, self.bigs
        scalar = self.p.L == 1
        before = dict(layer)
        self._long_dominance(layer, before)
        for s in range(4):
            at = 16 * s + 4
            values = {key >> at & 0xFFFF for key in before}
            if len(values) < 2:
                continue
            # per value of this suit, the other values that cover it (a handful)
            ups = {xb: [xa for xa in values if xa != xb and covers(xa, xb, late)] for xb in values}
            rest = ~(0xFFFF << at)
            groups: dict[int, dict[int, int]] = {}
            for key in before:
                groups.setdefault(key & rest, {})[key >> at & 0xFFFF] = key
            for group in groups.values():
                if len(group) < 2:
                    continue
                for xb, kb in group.items():
                    vb = layer.get(kb)
                    if vb is None:
                        continue
                    for xa in ups[xb]:
                        ka = group.get(xa)
                        if ka is None:
                            continue
                        va = before[ka]
                        if scalar:
                            if va >= vb:
                                vb = 0
                                break
                            continue
                        d = ((va | guard) - vb) & guard
                        vb &= ~(d - (d >> shift))
                    if vb & bigs:
                        layer[kb] = vb
                    else:
                        del layer[kb]
        return layer

    def _long_dominance(self, layer: dict[int, int], before: dict[int, int]) -> None:
        """States equal but for their long runs, in any suits: one with no fewer long runs in every suit
        (and no fewer not started low) knocks out the other's lower gains, as in :meth:`_dominance`."""
        guard, shift, bigs = self.guard, self.W - 1, self.bigs
        groups: dict[int, list[int]] = {}
        for key in before:
            groups.setdefault(key & _NO_LONG, []).append(key)
        for group in groups.values():
            if len(group) < 2:
                continue
            keys = [(key, _long_profile(key)) for key in group]
            for kb, pb in keys:
                vb = layer.get(kb)
                if vb is None:
                    continue
                for ka, pa in keys:
                    if ka == kb or ((pa | _PROFILE_GUARD) - pb) & _PROFILE_GUARD != _PROFILE_GUARD:
                        continue
                    d = ((before[ka] | guard) - vb) & guard
                    vb &= ~(d - (d >> shift))
                if vb & bigs:
                    layer[kb] = vb
                else:
                    del layer[kb]

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
        for gain, st, w2, _combo, _j, k in p.rank_moves(1, 0, 0):
            vals = best.setdefault(self.canonical(2, (st << 4) | w2), [None] * p.L)
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

    def _best_end(self, layers: list[dict[int, int]], floor: float) -> tuple[float, list] | None:
        """The best final value over the last layer (rank 14, or past rank 13 without high aces) and its
        path."""
        p = self.p
        best_val, best_at = floor, None
        for key, g in layers[14].items():
            runs, w = key >> 4, key & 15
            if p.high:
                vec = p.rank14_values(runs, w)
                for k in range(p.L):
                    x = self.field_of(g, k)
                    if x is not None and vec[k] != NEG and x + vec[k] > best_val:
                        best_val, best_at = x + vec[k], (key, k, vec[k])
            else:
                if runs & _SHORT_MASK:
                    continue
                e = p.end_value(w)
                x = self.field_of(g, 0)
                if x is not None and e != NEG and x + e > best_val:
                    best_val, best_at = x + e, (key, 0, e)
        if best_at is None:
            return None
        key, k, tail = best_at
        return best_val, self._trace(key, k, tail, layers)

    def _trace(self, key: int, k: int, tail: float, layers: list[dict[int, int]]) -> list:
        """The best path for :meth:`.dp.Problem.path_of`: its states first to last as ``(rank, key, gain
        into it)``, the reservation ``k``, the gain at the first state and the value at rank 14."""
        r = 14
        target = self.field_of(layers[r][key], k)
        chain = []
        start = 2 if self.p.high else 1
        while r > start:
            step = None
            kids = self.kids[r - 1]
            for pkey, g in layers[r - 1].items():
                gain = kids[pkey].get(key) if pkey in kids else None
                if gain is not None and self.field_of(g, k) == target - gain:
                    step = (r - 1, pkey, gain)
                    break
            if step is None and r == 14 and key < 16:  # straight from a layer past the last card
                step = next(
                    (q, key, 0)
                    for q in range(13, max(start, self.p.top + 1) - 1, -1)
                    if self.field_of(layers[q].get(key, 0), k) == target
                )
            if step is None:  # pragma: no cover - every kept state has a parent reaching its value
                raise AssertionError("solver: no parent reaches the state's value")
            chain.append((r, key, step[2]))
            r, key, target = step[0], step[1], target - step[2]
        chain.append((r, key, 0))
        chain.reverse()
        return [chain, k, target, tail]
