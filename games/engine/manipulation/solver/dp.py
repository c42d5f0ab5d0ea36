"""The solver's dynamic programme over ranks for one joker configuration (see the package docstring)."""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

from ...cards import Card
from .suits import GROUP_JOKERS, NO_GROUP, groups_feasible, suit_options


class SearchBudgetExceeded(RuntimeError):
    """Raised by :func:`best_play` when ``max_states`` is given and the search needs more states."""


NEG = float("-inf")

# ---------------------------------------------------------------------------- the DP for one configuration

_SUIT_BITS = 16  # one suit's run state (n1, n2, n3, low) packed in 4 bits each
_SUIT_MASK = (1 << _SUIT_BITS) - 1
_HALF_MASK = (1 << (2 * _SUIT_BITS)) - 1
_SHORT_MASK = sum(0xFF << (_SUIT_BITS * s) for s in range(4))  # the n1 and n2 fields of every suit


@lru_cache(maxsize=20_000)
def suit_entries(
    r: int, s: int, sc: int, wild: int, min_rank: int, f: int, o: int, next1: int, next2: int, last: bool,
    reserve: tuple | None,
) -> tuple[tuple, ...]:  # fmt: skip
    """:func:`.suits.suit_options` for suit ``s`` in run state ``sc`` as the DP uses them:
    ``(wild_needed, uo, g, y, code, kpart, raw)`` with the new run state packed at the suit's place
    (``code``) and, at rank 1 with high aces (``reserve``: the suit's cap, stride and reservation pairs),
    the index part of the aces kept high.  Pure, so shared by every problem and step (tuples only: the
    garbage collector stops tracking them).  The 20,000 kept weigh about 20 MB."""
    raw = suit_options.__wrapped__(
        r, min_rank, sc & 15, sc >> 4 & 15, sc >> 8 & 15, sc >> 12 & 15, f, o, wild, reserve is not None, next1,
        next2, last,
    )  # fmt: skip
    shift = _SUIT_BITS * s
    out = []
    for op in raw:
        if op[14] > wild:
            continue
        kpart = 0
        if reserve is not None:
            cap, stride, pairs = reserve
            f_res = f - op[6]
            if f_res > cap:
                continue  # forced aces kept for a high end that cannot exist
            kpart = stride * pairs.index((f_res, min(o - op[7], cap - f_res)))
        code = (op[0] | op[1] << 4 | op[2] << 8 | op[3] << 12) << shift
        out.append((op[14], op[7], op[5], op[4], code, kpart, op))
    return tuple(out)


class Problem:
    """One joker configuration: forced/optional naturals, forced/optional wildcards.

    The DP state after rank ``r`` is ``(runs, w)``: the open runs of every suit packed in one int and the
    wildcards used so far.  The aces kept at rank 1 for the high end (``res``) only matter at rank 14, so
    they are not part of the state: the value of a state is a *vector* over every possible reservation
    (``res_of[k]``), computed once for all of them.  Reservations are capped by how many runs can end in
    a high ace in that suit (a Q and a K, natural or wildcard, per run): a forced ace beyond the cap makes
    the choice infeasible, optional aces beyond it are worth nothing (so capping keeps the value exact).
    """

    def __init__(
        self,
        forced: dict[tuple[int, int], list[Card]],
        optional: dict[tuple[int, int], list[Card]],
        wild_forced: list[Card],
        wild_optional: list[Card],
        ace_mode: str,
        weight: Any,
        joker_weight: int,
    ) -> None:
        self.forced = forced
        self.optional = optional
        self.wild_forced = wild_forced
        self.wild_optional = wild_optional
        self.J = len(wild_forced) + len(wild_optional)
        self.Jf = len(wild_forced)
        self.high = ace_mode != "low_only"
        self.low = ace_mode != "high_only"
        self.min_rank = 1 if self.low else 2
        self.last = 14 if self.high else 13
        self.weight = weight
        self.joker_weight = joker_weight
        self.F = [[len(forced.get((r, s), ())) for s in range(4)] for r in range(15)]
        self.O = [[len(optional.get((r, s), ())) for s in range(4)] for r in range(15)]
        self.opt_cache: dict[tuple, tuple] = {}
        self.half_cache: dict[tuple, list] = {}
        # pairs of option lists, and the second half's completions, shared by the problems of one meld
        # step (its joker cases)
        self.shared_half: dict[tuple, tuple] = {}
        self.shared_comps: dict[tuple, tuple] = {}
        self.Jo = len(wild_optional)
        self._init_bounds()
        self._init_reservations()
        self.negv = [NEG] * self.L

    def _init_bounds(self) -> None:
        """The optimistic bound per rank, the cards available per rank and suit (look-ahead), the top rank."""
        # ubr[r]: total weight of the optional cards of ranks r..13 (an optimistic bound)
        self.ubr = [0] * 17
        for r in range(13, 0, -1):
            self.ubr[r] = self.ubr[r + 1] + sum(self.O[r]) * self.weight[r]
        # avail[r][s]: naturals that could stand at rank r of suit s (rank 14: the aces), for look-ahead
        avail = [[0] * 4 for _ in range(17)]
        for r in range(1, 14):
            for s in range(4):
                avail[r][s] = self.F[r][s] + self.O[r][s]
        if self.high:
            avail[14] = list(avail[1])
        self.avail = avail
        # the last rank with any card: runs beyond it can only be wildcard tails
        self.top = max([r for r in range(1, 14) for s in range(4) if self.F[r][s] or self.O[r][s]] or [0])

    def _init_reservations(self) -> None:
        """The reservations of aces for the high end, indexed: ``res_of[k]``, ``L`` of them."""
        # per suit (forced, optional) pairs, capped
        self.cap = [min(self.avail[12][s], self.avail[13][s]) + self.J for s in range(4)]
        self.res_pairs: list[list[tuple[int, int]]] = []
        for s in range(4):
            if self.high:
                cap = self.cap[s]
                pairs = [
                    (f, o) for f in range(min(self.F[1][s], cap) + 1) for o in range(min(self.O[1][s], cap - f) + 1)
                ]
            else:
                pairs = [(0, 0)]
            self.res_pairs.append(pairs)
        self.res_stride = [1, 0, 0, 0]
        for s in range(1, 4):
            self.res_stride[s] = self.res_stride[s - 1] * len(self.res_pairs[s - 1])
        # res_of[k]: (f0, o0, f1, o1, f2, o2, f3, o3) with k = sum(index of suit s's pair * res_stride[s])
        self.res_of = [
            tuple(x for pair in reversed(combo) for x in pair) for combo in itertools.product(*reversed(self.res_pairs))
        ]
        self.L = len(self.res_of)

    # ------------------------------------------------------------------ helpers

    def end_value(self, w: int) -> float:
        """The jokers' share of the value after the last rank, ``w`` of them used as wildcards (``NEG``: fewer
        placed than must be)."""
        left = self.J - w
        used = self.J if left >= 3 else w
        if used < self.Jf:
            return NEG
        return (used - self.Jf) * self.joker_weight

    def _opts(self, r: int, s: int, sc: int, wild: int) -> tuple[tuple, ...]:
        """Suit ``s``'s options at rank ``r`` (run state ``sc``), as ``(wild_needed, uo, g, y, code, kpart, raw)``."""
        key = (r, s, sc, wild)
        hit = self.opt_cache.get(key)
        if hit is None:
            reserve = (self.cap[s], self.res_stride[s], tuple(self.res_pairs[s])) if r == 1 and self.high else None
            hit = self.opt_cache[key] = suit_entries(
                r, s, sc, wild, self.min_rank, self.F[r][s], self.O[r][s], self.avail[r + 1][s],
                self.avail[r + 2][s], r == self.last, reserve,
            )  # fmt: skip
        return hit

    def _half(self, r: int, h: int, hs: int, wild: int) -> list:
        """Suits ``2h`` and ``2h + 1`` together at rank ``r``: ``(d, uo, g, maxg, y, code, kpart, (opt, opt))``.

        For the second half (``h == 1``) the entries come in buckets ``(g, maxg, min y, entries)`` so that
        the group feasibility is tested once per bucket.
        """
        key = (r, h, hs, wild)
        hit = self.half_cache.get(key)
        if hit is not None:
            return hit
        oa = self._opts(r, 2 * h, hs & _SUIT_MASK, wild)
        ob = self._opts(r, 2 * h + 1, hs >> _SUIT_BITS, wild)
        gkey = (id(oa), id(ob), h, wild)  # the entry keeps oa and ob alive, so the ids stay theirs
        ghit = self.shared_half.get(gkey)
        if ghit is not None:
            self.half_cache[key] = ghit[2]
            return ghit[2]
        out = []
        for ca in oa:
            for cb in ob:
                d = ca[0] + cb[0]
                if d > wild:
                    continue
                ga, gb = ca[2], cb[2]
                out.append(
                    (
                        d,
                        ca[1] + cb[1],
                        ga + gb,
                        ga if ga > gb else gb,
                        ca[3] + cb[3],
                        ca[4] | cb[4],
                        ca[5] + cb[5],
                        (ca, cb),
                    )
                )
        if h:
            buckets: dict[tuple[int, int], list] = {}
            for e in out:
                buckets.setdefault((e[2], e[3]), []).append(e)
            out = [(g, x, min(e[4] for e in lst), lst) for (g, x), lst in buckets.items()]
        self.shared_half[gkey] = (oa, ob, out)
        self.half_cache[key] = out
        return out

    def rank_moves(self, r: int, runs: int, w: int) -> list[tuple]:
        """Every choice at rank ``r`` (1…13): ``(gain, runs', w', per-suit options, group wildcards, kpart)``."""
        wild = self.J - w
        A = self._half(r, 0, runs & _HALF_MASK, wild)
        if not A:
            return []
        B = self._half(r, 1, runs >> (2 * _SUIT_BITS), wild)
        wr = self.weight[r]
        out = []
        append = out.append
        for a in A:
            da, ua, ga, xa, ya, sta, kpa, pa = a
            left = wild - da
            for gb, xb, minyb, lst in B:
                gsum = ga + gb
                if gsum:
                    js = GROUP_JOKERS[gsum][xa if xa > xb else xb]
                    if not js or js[0] > wild - ya - minyb:
                        continue
                else:
                    js = NO_GROUP
                j0 = js[0]
                for b in lst:
                    if b[0] > left:
                        continue
                    y = ya + b[4]
                    if j0 > wild - y:
                        continue
                    gain = (ua + b[1]) * wr
                    st = sta | b[5]
                    kp = kpa + b[6]
                    w1 = w + y
                    for j in js:
                        if j > wild - y:
                            break
                        append((gain, st, w1 + j, pa + b[7], j, kp))
        return out

    def rank_children(self, r: int, runs: int, w: int, need: int = 0) -> dict[int, float]:
        """The states after rank ``r`` (1…13, as keys ``runs << 8 | w << 4 | r + 1``) and the best gain to
        reach each.

        The same choices as ``rank_moves``, enumerated the fast way because this is the solver's hot loop: it
        builds no move tuples, and pairs each entry of the first half (suits 0 and 1) with what the second
        half can add to it (:meth:`_completions`: its run states, wildcards and gains after the groups of
        the rank are made feasible).  ``need``: only the children that use at least that many optional
        naturals of the rank (the completions come most naturals first, so the rest is skipped).  Keep the
        two in step; ``path_of`` retraces every play through
        ``rank_moves`` against the gains computed here and fails loudly when they disagree (the brute-force
        property tests would catch it).
        """
        wild = self.J - w
        A = self._half(r, 0, runs & _HALF_MASK, wild)
        if not A:
            return {}
        B = self._half(r, 1, runs >> (2 * _SUIT_BITS), wild)
        if not B:
            return {}
        wr = self.weight[r]
        base_w = (w << 4) | (r + 1)
        out: dict[int, float] = {}
        get = out.get
        comps = self.shared_comps
        bid = id(B)
        for da, ua, ga, xa, ya, sta, _kpa, _pa in A:
            ck = (bid, ga, xa, wild - da, wild - ya)
            tail = comps.get(ck)
            if tail is None:
                tail = comps[ck] = self._completions(B, ga, xa, wild - da, wild - ya)
            if not tail or ua + tail[0][2] < need:
                continue
            hi = sta << 8 | base_w + (ya << 4)
            for code, yt, ub in tail:
                if ua + ub < need:
                    break
                key = (hi | code) + yt
                gain = (ua + ub) * wr
                if get(key, NEG) < gain:
                    out[key] = gain
        return out

    @staticmethod
    def _completions(B: list, ga: int, xa: int, left_d: int, left_y: int) -> tuple:
        """What the second half adds to a first-half entry with ``ga`` naturals to groups (at most ``xa`` in
        one suit) and ``left_d`` / ``left_y`` wildcards left for needs / use: ``(code << 8, (y + j) << 4,
        optional naturals)`` per distinct outcome, the most naturals kept; most naturals first."""
        best: dict[tuple[int, int], int] = {}
        for gb, xb, minyb, lst in B:
            gsum = ga + gb
            if gsum:
                js = GROUP_JOKERS[gsum][xa if xa > xb else xb]
                if not js or js[0] > left_y - minyb:
                    continue
            else:
                js = NO_GROUP
            for b in lst:
                if b[0] > left_d:
                    continue
                yb = b[4]
                for j in js:
                    if yb + j > left_y:
                        break
                    k = (b[5], yb + j)
                    if best.get(k, -1) < b[1]:
                        best[k] = b[1]
        return tuple(sorted(((code << 8, y << 4, u) for (code, y), u in best.items()), key=lambda e: -e[2]))

    def rank14_values(self, runs: int, w: int) -> list:
        """The values at rank 14 for every reservation, suit by suit (wildcards the only coupling)."""
        wild = self.J - w
        cur: dict[tuple[int, int], float] = {(0, 0): 0}
        w1 = self.weight[1]
        for s in range(4):
            sc = runs >> (_SUIT_BITS * s) & _SUIT_MASK
            stride = self.res_stride[s]
            per_pair = []
            for p, (f, o) in enumerate(self.res_pairs[s]):
                raw = suit_options(
                    14, self.min_rank, sc & 15, sc >> 4 & 15, sc >> 8 & 15, sc >> 12 & 15, f, o, wild, False, 0, 0, True
                )
                best_y: dict[int, int] = {}
                for op in raw:
                    if op[14] <= wild and best_y.get(op[4], -1) < op[7]:
                        best_y[op[4]] = op[7]
                if best_y:
                    per_pair.append((p * stride, best_y))
            nxt: dict[tuple[int, int], float] = {}
            for (kp, y), g in cur.items():
                for kq, best_y in per_pair:
                    for ys, uo in best_y.items():
                        y2 = y + ys
                        if y2 > wild:
                            continue
                        key = (kp + kq, y2)
                        v = g + uo * w1
                        if nxt.get(key, NEG) < v:
                            nxt[key] = v
            cur = nxt
            if not cur:
                return self.negv
        vec = [NEG] * self.L
        for (k, y), g in cur.items():
            end = self.end_value(w + y)
            if end != NEG and g + end > vec[k]:
                vec[k] = g + end
        return vec

    def _rank14_moves(self, runs: int, w: int, k: int) -> list[tuple]:
        """Choices at rank 14 (the high aces kept by reservation ``k``): ``(value to the end, options)``."""
        res = self.res_of[k]
        wild = self.J - w
        per = []
        for s in range(4):
            sc = runs >> (_SUIT_BITS * s) & _SUIT_MASK
            raw = suit_options(
                14, self.min_rank, sc & 15, sc >> 4 & 15, sc >> 8 & 15, sc >> 12 & 15,
                res[2 * s], res[2 * s + 1], wild, False, 0, 0, True,
            )  # fmt: skip
            ops = [op for op in raw if op[14] <= wild]
            if not ops:
                return []
            per.append(ops)
        out = []
        w1 = self.weight[1]
        for combo in itertools.product(*per):
            y = combo[0][4] + combo[1][4] + combo[2][4] + combo[3][4]
            if y > wild:
                continue
            end = self.end_value(w + y)
            if end == NEG:
                continue
            out.append(((combo[0][7] + combo[1][7] + combo[2][7] + combo[3][7]) * w1 + end, combo))
        return out

    # ------------------------------------------------------------------ the path of a play

    def path_of(self, trace: list, canonical: Any) -> list[tuple[int, tuple, int]]:
        """The choices ``(rank, per-suit options, group wildcards)`` along a path of states found by
        :mod:`.forward` (``[[(rank, key, gain into it), ...], k, gain at the first state, value at rank
        14]``, keys ``runs << 4 | w`` in the form ``canonical(rank, key)`` of the search)."""
        chain, k, g0, tail = trace
        steps: list[tuple[int, tuple, int]] = []
        key0 = chain[0][1]
        if self.high:  # the first state follows rank 1, where the reservation k was chosen
            root = next(
                m
                for m in self.rank_moves(1, 0, 0)
                if canonical(2, m[1] << 4 | m[2]) == key0 and m[5] == k and m[0] == g0
            )
            steps.append((1, tuple(c[6] for c in root[3]), root[4]))
        for (r, key, _g), (r2, key2, gain) in zip(chain, chain[1:], strict=False):
            if r2 != r + 1:
                continue  # no card left and no open run: straight to rank 14
            move = next(
                m
                for m in self.rank_moves(r, key >> 4, key & 15)
                if canonical(r2, m[1] << 4 | m[2]) == key2 and m[0] == gain
            )
            steps.append((r, tuple(c[6] for c in move[3]), move[4]))
        if self.high:
            key = chain[-1][1]
            moves = self._rank14_moves(key >> 4, key & 15, k)
            steps.append((14, next(m[1] for m in moves if m[0] == tail), 0))
        return steps

    # ------------------------------------------------------------------ rebuild the melds
    def rebuild(self, steps: list[tuple[int, tuple, int]]) -> tuple[list[list[Card]], list[Card]]:
        """The melds of a path (:meth:`path_of`) and the optional cards it uses."""
        forced = self.forced
        optional = self.optional
        wilds = list(self.wild_forced) + list(self.wild_optional)
        used_optional: list[Card] = []
        melds: list[list[Card]] = []
        open_runs: list[list[list[Card]]] = [[] for _ in range(4)]  # per suit: runs (lists of cards)
        reserved: dict[int, list[Card]] = {s: [] for s in range(4)}
        low_runs: set[int] = set()  # id() of runs that started with a low ace
        w = 0

        def take_wild(rank: int, suit: int) -> Card:
            card = wilds.pop(0)
            return card.declare(1 if rank == 14 else rank, suit)

        for r, combo, j in steps:
            group_cards: list[list[Card]] = [[] for _ in range(4)]
            for s in range(4):
                (_n1, _n2, _n3, _low, y, g, uf, uo, e3, a, b, c, extra, xe, _need, _st) = combo[s]
                if r == 14:
                    nat = reserved[s][: uf + uo]
                    used_optional.extend(nat[uf:])
                else:
                    fl = forced.get((r, s), [])
                    ol = optional.get((r, s), [])
                    nat = fl[:uf] + ol[:uo]
                    used_optional.extend(ol[:uo])
                    if r == 1 and self.high:
                        reserved[s] = fl[uf:] + ol[uo:]
                t = a + b + c
                group_cards[s] = nat[t + xe :]
                runs = open_runs[s]
                long = sorted((run for run in runs if len(run) >= 3), key=lambda run: id(run) in low_runs)
                melds.extend(long[e3:])  # the long runs not extended close here
                extended = [run for run in runs if len(run) < 3] + long[:e3]
                ext_nat = nat[t : t + xe]
                for idx, run in enumerate(extended):
                    run.append(ext_nat[idx] if idx < len(ext_nat) else take_wild(r, s))
                fresh = self._start_runs(r, s, nat[:t], (a, b, c), extra, take_wild)
                if r == 1:
                    low_runs.update(id(run) for run in fresh)
                open_runs[s] = extended + fresh
                w += y
            if r <= 13:
                melds.extend(self._build_groups(group_cards, j, wilds, r))
            w += j
        for s in range(4):
            melds.extend(open_runs[s])
        left = self.J - w
        if left >= 3:
            melds.append([wilds.pop(0).declare(rank, 0) for rank in range(2, 2 + left)])
        used_optional.extend(x for x in self.wild_optional if x not in wilds)
        return melds, used_optional

    def _start_runs(
        self, r: int, s: int, new_nat: list[Card], abc: tuple[int, int, int], extra: int, take_wild: Any
    ) -> list[list[Card]]:
        """The runs started at rank ``r`` of suit ``s``: ``a`` / ``b`` / ``c`` of them with a prefix of 0 / 1 /
        2 wildcards, the ``extra`` prefix wildcards going to the runs with 2."""
        a, b, c = abc
        fresh: list[list[Card]] = []
        for k, p in enumerate([0] * a + [1] * b + [2] * c):
            if p == 2 and extra:
                add = min(r - 2 - self.min_rank, extra)
                p += add
                extra -= add
            run = [take_wild(r - q, s) for q in range(p, 0, -1)]
            run.append(new_nat[k])
            fresh.append(run)
        return fresh

    @staticmethod
    def _build_groups(group_cards: list[list[Card]], j: int, wilds: list[Card], r: int) -> list[list[Card]]:
        gs = tuple(len(x) for x in group_cards)
        m = groups_feasible(gs, j)
        if m <= 0:
            return []
        groups: list[list[Card]] = [[] for _ in range(m)]
        p = 0
        for s in range(4):
            for card in group_cards[s]:
                groups[p % m].append(card)
                p += 1
        for target in (3, 4):
            for grp in groups:
                while j and len(grp) < target:
                    suits = {c.effective[1] for c in grp}
                    free = next(x for x in range(4) if x not in suits)
                    grp.append(wilds.pop(0).declare(r, free))
                    j -= 1
        return groups
