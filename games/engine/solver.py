"""Exact best play for Manipulation Rummy: ``best_play(table, hand)`` (RULES B.2, B.3, B.5.2).

The whole table may be rearranged.  Table cards are *forced* (they must all
end in valid melds), hand cards are *optional*; the play maximises the points
laid from hand (``objective="points"``, then the number of cards) or the
number of cards (``objective="cards"``, then the points).

Jokers (B.3): a table joker keeps its declared identity — it behaves like one
more forced natural card of that identity — unless it is *freed* by a natural
card identical to its identity (from the hand, or from the table with option
``joker_substitute_from = hand_or_table``; each natural card frees at most one
joker).  A freed joker is a forced wildcard, a hand joker an optional
wildcard.  The search enumerates how many table jokers of each identity are
freed (freeing dominates keeping when no hand card is needed for it).  With
option ``freed_joker_reuse = new_meld_only`` the new melds holding the freed
jokers (hand cards only) are enumerated exactly, for any number of freed
jokers — as shapes over the multiset of hand values and the number of hand
jokers, declared so that every freed joker really changes identity — and the
rest is solved by the DP (one case per distinct set of hand cards used).

Core: a dynamic programme over ranks (after van Rijn, Takes & Vis, "The
complexity of Rummikub problems"): ranks 1…13 (and 14 for a high ace, each
physical ace used low or high once), state = per suit the number of open runs
of length 1, 2 and ≥3 (packed in one int) and the number of wildcards used so
far.  At each rank and suit it chooses how many cards are used, how many
extend or start runs and how many go to groups, whose feasibility at that rank
is a closed formula.  Wildcards extend open runs, start runs as a prefix
before a natural card, fill groups, or — three or more — form melds of their
own.  The aces kept at rank 1 for the high end only matter at rank 14, so they
are not part of the state: a state's value is a vector over every reservation
(capped by the Q-K-A runs the suit can hold), computed once for all of them.
Plain memoised DP, no pruning inside a case (a bound only orders the joker
cases and skips those that cannot beat the best found); the melds are rebuilt
by walking the memo along one optimal path.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .cards import Card, as_cards
from .errors import InvalidAction
from .melds import ace_mode_of, classify, sort_meld

__all__ = ["Play", "best_play", "SearchBudgetExceeded"]


class SearchBudgetExceeded(RuntimeError):
    """Raised by :func:`best_play` when ``max_states`` is given and the search needs more states."""


NEG = float("-inf")


@dataclass(frozen=True, slots=True)
class Play:
    """The result of :func:`best_play`.

    ``table``: the complete new arrangement as codes (jokers ``"JK=7S"``);
    ``played``: codes of the hand cards laid; ``points``: their value (jokers 25);
    ``table_cards`` / ``played_cards``: the same as :class:`Card` objects (deck indices kept).
    """

    table: list[list[str]]
    played: list[str]
    points: int
    table_cards: list[list[Card]] = field(default_factory=list)
    played_cards: list[Card] = field(default_factory=list)

    @property
    def cards(self) -> int:
        return len(self.played)

    @property
    def table_ids(self) -> list[list[str]]:
        return [[f"{c.code}.{c.deck}" for c in meld] for meld in self.table_cards]


def _opt(rules: Any, key: str, default: Any) -> Any:
    if rules is None:
        return default
    if isinstance(rules, dict):
        return rules.get(key, default)
    return getattr(rules, key, default)


def _parse_inputs(table: Iterable[Iterable[Any]], hand: Iterable[Any]) -> tuple[list[list[Card]], list[Card]]:
    melds = [list(m) for m in table]
    hand_items = list(hand)
    flat = [c for m in melds for c in m] + hand_items
    if all(isinstance(c, Card) for c in flat):
        cards = flat
    else:
        cards = as_cards(flat)
    out, pos = [], 0
    for m in melds:
        out.append(cards[pos : pos + len(m)])
        pos += len(m)
    hand_cards = [c.undeclared() if c.is_joker else c for c in cards[pos:]]
    for m in out:
        for c in m:
            if c.is_joker and c.declared is None:
                raise InvalidAction("A joker on the table must carry its declared card (JK=xx).", code="bad_table")
    return out, hand_cards


# ---------------------------------------------------------------------------- per-suit options


@lru_cache(maxsize=20_000)
def _suit_options(
    r: int,
    min_rank: int,
    n1: int,
    n2: int,
    n3: int,
    low: int,
    f: int,
    o: int,
    wild: int,
    reserve: bool,
    next1: int = 99,
    next2: int = 99,
    last: bool = False,
) -> tuple[tuple, ...]:
    """Every way to use the cards of one suit at rank ``r``.

    ``f`` forced and ``o`` optional naturals (at rank 14: the aces kept high),
    ``wild`` wildcards still available, ``reserve``: at rank 1 unused aces may be
    kept for rank 14.  Returns tuples
    ``(n1', n2', n3', low', y, g, uf, uo, e3, a, b, c, extra, xe)``: new run state
    (``low``: open runs that started with a low ace — they close first and never take a high ace),
    wildcards used in runs, naturals to groups, forced/optional naturals used,
    long runs extended, new runs with prefix 0 / 1 / ≥2 wildcards, extra
    prefix wildcards, naturals used to extend runs.
    """
    out: dict[tuple, tuple] = {}
    must_ext = n1 + n2
    groups_ok = r <= 13
    can_start = r >= min_rank
    max_e3 = n3 - low if r == 14 else n3
    uf_range = range(f + 1) if reserve else (f,)
    for uf in uf_range:
        for uo in range(o + 1):
            u = uf + uo
            for e3 in range(max_e3 + 1):
                slots = must_ext + e3
                for t in range(u + 1 if can_start else 1):
                    # xe naturals, ye wildcards fill the extension slots
                    for xe in range(min(slots, u - t) + 1):
                        ye = slots - xe
                        if ye > wild:
                            continue
                        g = u - t - xe
                        if g and not groups_ok:
                            continue
                        left = wild - ye
                        # split the t new runs by wildcard prefix: a (0), b (1), c (>=2)
                        for b in range(t + 1) if r - 1 >= min_rank else (0,):
                            if b > left:
                                break
                            for c in range(t - b + 1) if r - 2 >= min_rank else (0,):
                                wpre = b + 2 * c
                                if wpre > left:
                                    break
                                a = t - b - c
                                if a and e3 < n3 - low:
                                    continue  # dominated: extend a long run instead of starting anew
                                max_extra = min(left - wpre, c * (r - 2 - min_rank)) if c else 0
                                low2 = max(0, low - (n3 - e3)) + (a if r == 1 else 0)
                                # look-ahead: short runs need cards at the next ranks
                                short1, short2 = a, n1 + b
                                if last and (short1 or short2):
                                    continue
                                need = max(0, short1 + short2 - next1) + max(0, short1 - next2)
                                if need > left - wpre:
                                    continue
                                for extra in range(max_extra + 1):
                                    y = ye + wpre + extra
                                    if y + need > wild:
                                        continue
                                    key = (a, n1 + b, n2 + e3 + c, low2, y, g, uf, uo)
                                    if key not in out:
                                        out[key] = key + (e3, a, b, c, extra, xe, y + need, key[:4])
    return tuple(out.values())


def _group_jokers_table() -> list[list[tuple[int, ...]]]:
    """``[gsum][maxg]`` -> the wildcard counts j that make groups of gsum naturals (max maxg per suit) feasible."""
    table = []
    for gsum in range(0, 41):
        row = []
        for maxg in range(0, 11):
            js = []
            for j in range(0, 9):
                n = gsum + j
                if gsum and max(maxg, -(-n // 4)) <= min(gsum, n // 3):
                    js.append(j)
            row.append(tuple(js))
        table.append(row)
    return table


_GROUP_JOKERS = _group_jokers_table()
_NO_GROUP = (0,)


@lru_cache(maxsize=100_000)
def _groups_feasible(gs: tuple[int, ...], j: int) -> int:
    """Smallest number of groups m for naturals ``gs`` (per suit) plus ``j`` wildcards at one rank, or -1."""
    total = sum(gs)
    if total == 0:
        return 0 if j == 0 else -1
    n = total + j
    lo = max(max(gs), -(-n // 4))
    hi = min(total, n // 3)
    return lo if lo <= hi else -1


# ---------------------------------------------------------------------------- the DP for one configuration

_SUIT_BITS = 16  # one suit's run state (n1, n2, n3, low) packed in 4 bits each
_SUIT_MASK = (1 << _SUIT_BITS) - 1
_HALF_MASK = (1 << (2 * _SUIT_BITS)) - 1
_SHORT_MASK = sum(0xFF << (_SUIT_BITS * s) for s in range(4))  # the n1 and n2 fields of every suit


# option lists shared between problems (pure functions of their keys); cleared when they grow too big
_CACHE_LIMIT = 100_000
_OPTS_CACHE: dict[tuple, list] = {}
_HALF_CACHE: dict[tuple, tuple] = {}


class _Problem:
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
        self.memo: dict[int, list] = {}
        self.opt_cache: dict[tuple, list] = {}
        self.half_cache: dict[tuple, list] = {}
        self.shared = False  # use the module-level option caches (worth it when many cases share cards)
        self.budget: int | None = None
        self.Jo = len(wild_optional)
        # ubr[r]: total weight of the optional cards of ranks r..13 (an optimistic bound)
        self.ubr = [0] * 17
        for r in range(13, 0, -1):
            self.ubr[r] = self.ubr[r + 1] + sum(self.O[r]) * weight[r]
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
        # the reservations of aces for the high end: per suit (forced, optional) pairs, capped
        self.cap = [min(avail[12][s], avail[13][s]) + self.J for s in range(4)]
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
        self.negv = [NEG] * self.L
        self.root_choice: tuple | None = None

    # ------------------------------------------------------------------ helpers

    def bound(self) -> float:
        """An optimistic value: every optional card and wildcard laid."""
        return self.ubr[1] + self.Jo * self.joker_weight

    def _end_value(self, w: int) -> float:
        left = self.J - w
        used = self.J if left >= 3 else w
        if used < self.Jf:
            return NEG
        return (used - self.Jf) * self.joker_weight

    def _opts(self, r: int, s: int, sc: int, wild: int) -> list[tuple]:
        """Suit ``s``'s options at rank ``r`` (run state ``sc``), as ``(wild_needed, uo, g, y, code, kpart, raw)``."""
        key = (r, s, sc, wild)
        hit = self.opt_cache.get(key)
        if hit is not None:
            return hit
        reserve = r == 1 and self.high
        f, o = self.F[r][s], self.O[r][s]
        if not self.shared:
            out = self._make_opts(r, s, sc, wild, f, o, reserve)
            self.opt_cache[key] = out
            return out
        # shared by every problem with the same cards there (many cases under new_meld_only)
        gkey = (
            key,
            self.min_rank,
            f,
            o,
            self.avail[r + 1][s],
            self.avail[r + 2][s],
            r == self.last,
            (self.cap[s], self.res_stride[s], tuple(self.res_pairs[s])) if reserve else None,
        )
        hit = _OPTS_CACHE.get(gkey)
        if hit is not None:
            self.opt_cache[key] = hit
            return hit
        out = self._make_opts(r, s, sc, wild, f, o, reserve)
        if len(_OPTS_CACHE) > _CACHE_LIMIT:
            _OPTS_CACHE.clear()
            _HALF_CACHE.clear()
        _OPTS_CACHE[gkey] = out
        self.opt_cache[key] = out
        return out

    def _make_opts(self, r: int, s: int, sc: int, wild: int, f: int, o: int, reserve: bool) -> list[tuple]:
        """The entries of :meth:`_opts` from :func:`_suit_options` (rank 1: aces kept as a reservation index)."""
        raw = _suit_options(
            r,
            self.min_rank,
            sc & 15,
            sc >> 4 & 15,
            sc >> 8 & 15,
            sc >> 12 & 15,
            f,
            o,
            wild,
            reserve,
            self.avail[r + 1][s],
            self.avail[r + 2][s],
            r == self.last,
        )
        shift = _SUIT_BITS * s
        out = []
        for op in raw:
            if op[14] > wild:
                continue
            kpart = 0
            if reserve:
                f_res = f - op[6]
                cap = self.cap[s]
                if f_res > cap:
                    continue  # forced aces kept for a high end that cannot exist
                o_res = min(o - op[7], cap - f_res)
                kpart = self.res_stride[s] * self.res_pairs[s].index((f_res, o_res))
            code = (op[0] | op[1] << 4 | op[2] << 8 | op[3] << 12) << shift
            out.append((op[14], op[7], op[5], op[4], code, kpart, op))
        return out

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
        if self.shared:
            gkey = (id(oa), id(ob), h, wild)  # the entry keeps oa and ob alive, so the ids stay theirs
            ghit = _HALF_CACHE.get(gkey)
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
        if self.shared:
            if len(_HALF_CACHE) > _CACHE_LIMIT:
                _HALF_CACHE.clear()
            _HALF_CACHE[gkey] = (oa, ob, out)
        self.half_cache[key] = out
        return out

    def _moves(self, r: int, runs: int, w: int) -> list[tuple]:
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
                    js = _GROUP_JOKERS[gsum][xa if xa > xb else xb]
                    if not js or js[0] > wild - ya - minyb:
                        continue
                else:
                    js = _NO_GROUP
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

    def _children(self, r: int, runs: int, w: int) -> dict[int, float]:
        """The states after rank ``r`` (1…13, as memo keys) and the best gain to reach each.

        The same enumeration as ``_moves``, written out again because this is the solver's hot loop:
        it builds no move tuples, only the best gain per child.  Keep the two in step; ``_path``
        retraces every optimum through ``_moves`` against the values computed here and fails loudly
        when they disagree (the brute-force property tests would catch it).
        """
        wild = self.J - w
        A = self._half(r, 0, runs & _HALF_MASK, wild)
        if not A:
            return {}
        B = self._half(r, 1, runs >> (2 * _SUIT_BITS), wild)
        wr = self.weight[r]
        r1 = r + 1
        out: dict[int, float] = {}
        get = out.get
        for da, ua, ga, xa, ya, sta, _kpa, _pa in A:
            left = wild - da
            for gb, xb, minyb, lst in B:
                gsum = ga + gb
                if gsum:
                    js = _GROUP_JOKERS[gsum][xa if xa > xb else xb]
                    if not js or js[0] > wild - ya - minyb:
                        continue
                else:
                    js = _NO_GROUP
                j0 = js[0]
                for b in lst:
                    if b[0] > left:
                        continue
                    y = ya + b[4]
                    if j0 > wild - y:
                        continue
                    gain = (ua + b[1]) * wr
                    base = ((sta | b[5]) << 8) | r1
                    wy = w + y
                    for j in js:
                        if j > wild - y:
                            break
                        ck = base | ((wy + j) << 4)
                        if get(ck, NEG) < gain:
                            out[ck] = gain
        return out

    def _rank14(self, runs: int, w: int) -> list:
        """The values at rank 14 for every reservation, suit by suit (wildcards the only coupling)."""
        wild = self.J - w
        cur: dict[tuple[int, int], float] = {(0, 0): 0}
        w1 = self.weight[1]
        for s in range(4):
            sc = runs >> (_SUIT_BITS * s) & _SUIT_MASK
            stride = self.res_stride[s]
            per_pair = []
            for p, (f, o) in enumerate(self.res_pairs[s]):
                raw = _suit_options(
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
            end = self._end_value(w + y)
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
            raw = _suit_options(
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
            end = self._end_value(w + y)
            if end == NEG:
                continue
            out.append(((combo[0][7] + combo[1][7] + combo[2][7] + combo[3][7]) * w1 + end, combo))
        return out

    # ------------------------------------------------------------------ the DP

    def solve(self) -> float:
        """Exact optimum over every reservation of high aces (``NEG`` when no legal arrangement exists)."""
        if not self.high:
            val = self._f(1, 0, 0)[0]
            self.root_choice = None
            return val
        best: float = NEG
        memo = self.memo
        for gain, st, w2, combo, j, k in self._moves(1, 0, 0):
            child = memo.get((st << 8) | (w2 << 4) | 2)
            if child is None:
                child = self._f(2, st, w2)
            v = gain + child[k]
            if v > best:
                best = v
                self.root_choice = (st, w2, combo, j, k)
        return best

    def _f(self, r: int, runs: int, w: int) -> list:
        """Values from rank ``r`` on (vector over the reservations), given the open runs and wildcards used."""
        memo = self.memo
        key = (runs << 8) | (w << 4) | r
        hit = memo.get(key)
        if hit is not None:
            return hit
        if self.budget is not None and len(memo) > self.budget:
            raise SearchBudgetExceeded(f"more than {self.budget} search states")
        negv = self.negv
        if r > self.last:  # only without high aces (L == 1)
            vec = negv if runs & _SHORT_MASK else [self._end_value(w)]
        elif r == 14:
            vec = self._rank14(runs, w)
            if max(vec) == NEG:
                vec = negv
        elif r > self.top and not runs:
            # no natural card left: nothing happens until the high aces (a run of wildcards may end in one)
            if self.high:
                vec = self._f(14, 0, w)
            else:
                end = self._end_value(w)
                vec = negv if end == NEG else [end]
        else:
            r1 = r + 1
            best = None
            for ck, gain in self._children(r, runs, w).items():
                child = memo.get(ck)
                if child is None:
                    child = self._f(r1, ck >> 8, ck >> 4 & 15)
                if child is negv:
                    continue
                if best is None:
                    best = [x + gain for x in child] if gain else list(child)
                elif gain:
                    best = [a if a >= x + gain else x + gain for a, x in zip(best, child, strict=True)]
                else:
                    best = [a if a >= x else x for a, x in zip(best, child, strict=True)]
            vec = negv if best is None or max(best) == NEG else best
        memo[key] = vec
        return vec

    def _path(self) -> list[tuple[int, tuple, int]]:
        """The choices ``(rank, per-suit options, group wildcards)`` of an optimum, rank by rank."""
        steps: list[tuple[int, tuple, int]] = []
        if self.high:
            assert self.root_choice is not None
            runs, w, combo, j, k = self.root_choice
            steps.append((1, tuple(c[6] for c in combo), j))
            r = 2
        else:
            runs, w, k, r = 0, 0, 0, 1
        while r <= self.last:
            if r == 14:
                moves = self._rank14_moves(runs, w, k)
                target = self._f(14, runs, w)[k]
                combo14 = next(m[1] for m in moves if m[0] == target)
                steps.append((14, combo14, 0))
                break
            if r > self.top and not runs:
                if not self.high:
                    break
                r = 14
                continue
            target = self._f(r, runs, w)[k]
            for gain, st, w2, combo, j, _kp in self._moves(r, runs, w):
                if gain + self._f(r + 1, st, w2)[k] == target:
                    steps.append((r, tuple(c[6] for c in combo), j))
                    runs, w = st, w2
                    break
            else:  # pragma: no cover - the memo always holds a move reaching its value
                raise AssertionError("solver: no move reaches the memoised value")
            r += 1
        return steps

    # ------------------------------------------------------------------ rebuild the melds
    def rebuild(self) -> tuple[list[list[Card]], list[Card]]:
        """The melds of the optimum and the optional cards used."""
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

        for r, combo, j in self._path():
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
                new_nat, ext_nat, grp_nat = nat[:t], nat[t : t + xe], nat[t + xe :]
                group_cards[s] = grp_nat
                lens = open_runs[s]
                short = [run for run in lens if len(run) < 3]
                long = sorted((run for run in lens if len(run) >= 3), key=lambda run: id(run) in low_runs)
                keep_long, close_long = long[:e3], long[e3:]
                melds.extend(close_long)
                extended = short + keep_long
                for idx, run in enumerate(extended):
                    if idx < len(ext_nat):
                        run.append(ext_nat[idx])
                    else:
                        run.append(take_wild(r, s))
                fresh: list[list[Card]] = []
                prefixes = [0] * a + [1] * b + [2] * c
                extras = extra
                for k, p in enumerate(prefixes):
                    if p == 2 and extras:
                        add = min(r - 2 - self.min_rank, extras)
                        p += add
                        extras -= add
                    run = [take_wild(r - q, s) for q in range(p, 0, -1)]
                    run.append(new_nat[k])
                    fresh.append(run)
                    if r == 1:
                        low_runs.add(id(run))
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

    @staticmethod
    def _build_groups(group_cards: list[list[Card]], j: int, wilds: list[Card], r: int) -> list[list[Card]]:
        gs = tuple(len(x) for x in group_cards)
        m = _groups_feasible(gs, j)
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


# ---------------------------------------------------------------------------- public entry point


def best_play(
    table: Sequence[Sequence[Any]],
    hand: Sequence[Any],
    *,
    objective: str = "points",
    rules: Any = None,
    max_states: int | None = None,
) -> Play:
    """The best legal new table for a meld step (exact; see the module docstring).

    ``table``: melds of codes/ids/Cards (table jokers declared ``JK=7S``);
    ``hand``: codes/ids/Cards.  An empty play (``played == []``, the table
    unchanged) when nothing can be laid.  ``max_states`` bounds the search (the
    total over joker cases); beyond it :class:`SearchBudgetExceeded` is raised —
    for callers that prefer a quick answer (bots) to an exact one.
    """
    if objective not in ("points", "cards"):
        raise InvalidAction(f"Unknown objective {objective!r}.", code="bad_objective")
    melds, hand_cards = _parse_inputs(table, hand)
    if sum(c.is_joker for m in melds for c in m) + sum(c.is_joker for c in hand_cards) > 8:
        raise InvalidAction("At most 8 jokers can be searched.", code="bad_table")  # the DP packs counts in 4 bits
    ace_mode = ace_mode_of(rules)
    joker_value = _opt(rules, "joker_value", 25)
    substitute_from = _opt(rules, "joker_substitute_from", "hand_or_table")
    new_meld_only = _opt(rules, "freed_joker_reuse", "any_meld") == "new_meld_only"
    big = 1 << 12
    pts = [0] + [min(r, 10) for r in range(1, 14)]
    if objective == "points":
        weight = [0] + [pts[r] * big + 1 for r in range(1, 14)]
        joker_weight = joker_value * big + 1
    else:
        weight = [0] + [big + pts[r] for r in range(1, 14)]
        joker_weight = big + joker_value

    table_nat: dict[tuple[int, int], list[Card]] = {}
    table_jokers: list[Card] = []
    for m in melds:
        for c in m:
            if c.is_joker:
                table_jokers.append(c)
            else:
                table_nat.setdefault(c.key, []).append(c)
    hand_nat: dict[tuple[int, int], list[Card]] = {}
    hand_jokers: list[Card] = []
    for c in hand_cards:
        if c.is_joker:
            hand_jokers.append(c)
        else:
            hand_nat.setdefault(c.key, []).append(c)

    # hand cards that fit no meld whatever happens are left out of the search (exactness is kept)
    hand_nat = _drop_unplayable(hand_nat, table_nat, len(table_jokers) + len(hand_jokers), ace_mode)

    # which table jokers can be freed at all
    # Which table jokers are freed.  A freed joker is a wildcard, which may take its old identity again,
    # so freeing dominates keeping whenever the substitution needs no hand card (an identical natural
    # is on the table and the option allows it): those are always freed.  Jokers of one identity are
    # interchangeable, so only the number freed per identity is enumerated.
    by_ident: dict[tuple[int, int], list[Card]] = {}
    for jk in table_jokers:
        by_ident.setdefault(jk.declared, []).append(jk)  # type: ignore[arg-type]
    choices_per_ident = []
    for ident, jks in by_ident.items():
        on_table = len(table_nat.get(ident, ())) if substitute_from == "hand_or_table" else 0
        in_hand = len(hand_nat.get(ident, ()))
        hi = min(len(jks), on_table + in_hand)
        # under new_meld_only a freed joker is restricted, so freeing no longer dominates keeping
        lo = 0 if new_meld_only else min(len(jks), on_table)
        choices_per_ident.append([jks[:k] for k in range(lo, hi + 1)])

    best_val: float = 0.0
    spent = 0
    best: tuple[list[list[Card]], list[Card]] | None = None

    def prepare_case(
        freed_dp: list[Card],
        hand_avail: dict[tuple[int, int], list[Card]],
        jokers_avail: list[Card],
        required: dict[tuple[int, int], int],
        kept: list[Card],
        pre_melds: list[list[Card]],
        pre_played: list[Card],
    ) -> None:
        forced: dict[tuple[int, int], list[Card]] = {}
        optional: dict[tuple[int, int], list[Card]] = {}
        const = sum(joker_weight if c.is_joker else weight[c.rank] for c in pre_played)
        for key, cs in table_nat.items():
            forced.setdefault(key, []).extend(cs)
        for jk in kept:
            forced.setdefault(jk.declared, []).append(jk)  # type: ignore[arg-type]
        for key, cs in hand_avail.items():
            req = required.get(key, 0)
            if req:
                forced.setdefault(key, []).extend(cs[:req])
            if cs[req:]:
                optional[key] = list(cs[req:])
            const += req * weight[key[0]]
        # the same bound as _Problem.bound(); the problem itself is built only if the case is searched
        bound = const + sum(len(cs) * weight[key[0]] for key, cs in optional.items()) + len(jokers_avail) * joker_weight
        args = (forced, optional, list(freed_dp), jokers_avail, ace_mode, weight, joker_weight)
        req_cards = [c for key, cs in hand_avail.items() for c in cs[: required.get(key, 0)]]
        prepared.append((bound, len(prepared), args, const, pre_melds, req_cards + pre_played))

    def requirements(
        freed: list[Card], hand_avail: dict[tuple[int, int], list[Card]], used_naturals: list[Card]
    ) -> dict[tuple[int, int], int] | None:
        need: dict[tuple[int, int], int] = {}
        for jk in freed:
            need[jk.declared] = need.get(jk.declared, 0) + 1  # type: ignore[index]
        required: dict[tuple[int, int], int] = {}
        for ident, cnt in need.items():
            have_table = len(table_nat.get(ident, ())) if substitute_from == "hand_or_table" else 0
            have_used = sum(1 for c in used_naturals if c.key == ident)
            req = max(0, cnt - have_table - have_used)
            if req > len(hand_avail.get(ident, ())):
                return None
            if req:
                required[ident] = req
        return required

    prepared: list[tuple] = []
    cases = sorted(itertools.product(*choices_per_ident), key=lambda parts: -sum(map(len, parts)))
    for parts in cases:
        freed = [jk for part in parts for jk in part]
        kept = [jk for jk in table_jokers if jk not in freed]
        if not (new_meld_only and freed):
            required = requirements(freed, hand_nat, [])
            if required is None:
                continue
            hand_case = hand_nat
            if not new_meld_only:
                # A hand natural identical to a kept joker, played beyond the substitutes, could free that
                # joker instead (the joker taking the natural's place, same identity): the case with one
                # more joker freed holds that play, so here such naturals stay in hand.
                for ident, jks in by_ident.items():
                    req = required.get(ident, 0)
                    if sum(1 for jk in freed if jk.declared == ident) < len(jks) and len(hand_nat.get(ident, ())) > req:
                        if hand_case is hand_nat:
                            hand_case = dict(hand_nat)
                        hand_case[ident] = hand_nat[ident][:req]
            prepare_case(freed, hand_case, hand_jokers, required, kept, [], [])
            continue
        # option freed_joker_reuse = new_meld_only: the freed jokers go into new melds made of hand cards
        for pre_melds in _freed_meld_sets(freed, hand_nat, hand_jokers, ace_mode):
            used = [c for m in pre_melds for c in m if not (c.is_joker and any(c.same_physical(f) for f in freed))]
            used_ids = {(c.rank, c.suit, c.deck) for c in used}
            hand_rest = {k: [c for c in cs if (c.rank, c.suit, c.deck) not in used_ids] for k, cs in hand_nat.items()}
            jokers_rest = [c for c in hand_jokers if (c.rank, c.suit, c.deck) not in used_ids]
            required = requirements(freed, hand_rest, [c for c in used if not c.is_joker])
            if required is None:
                continue
            played = [c.undeclared() if c.is_joker else c for c in used]
            prepare_case([], hand_rest, jokers_rest, required, kept, pre_melds, played)
    # best bound first (ties: more freed jokers first); a case whose bound cannot beat the best so far is skipped
    prepared.sort(key=lambda item: (-item[0], item[1]))
    for bound, _i, args, const, pre_melds, extra_played in prepared:
        if bound <= best_val:
            break
        prob = _Problem(*args)
        prob.shared = len(prepared) > 8
        if max_states is not None:
            prob.budget = max_states - spent
        val = prob.solve()
        spent += len(prob.memo)
        if val == NEG:
            continue
        val += const
        if val > best_val:
            best_val = val
            melds_out, used_opt = prob.rebuild()
            best = (pre_melds + melds_out, used_opt + extra_played)
    if best is None:
        return Play(
            table=[[c.code for c in m] for m in melds],
            played=[],
            points=0,
            table_cards=[list(m) for m in melds],
            played_cards=[],
        )
    new_melds, played = best
    new_melds = [sort_meld(m, ace_mode) for m in new_melds]
    new_melds.sort(key=_meld_sort_key)
    for m in new_melds:  # defensive: the DP only builds valid melds
        if classify(m, ace_mode) is None:  # pragma: no cover
            raise AssertionError(f"solver built an invalid meld {[c.code for c in m]}")
    played_ids = {(c.rank, c.suit, c.deck) for c in played}
    played_sorted = [c for c in hand_cards if (c.rank, c.suit, c.deck) in played_ids]
    return Play(
        table=[[c.code for c in m] for m in new_melds],
        played=[c.code for c in played_sorted],
        points=sum(c.points(joker_value) for c in played_sorted),
        table_cards=new_melds,
        played_cards=played_sorted,
    )


def _freed_meld_sets(
    freed: list[Card], hand_nat: dict[tuple[int, int], list[Card]], hand_jokers: list[Card], mode: str
) -> list[list[list[Card]]]:
    """Every way to put all ``freed`` jokers into new melds made only of hand cards (and freed jokers).

    Used for option ``freed_joker_reuse = new_meld_only``.  Returns lists of melds (jokers declared).
    Exact for any number of freed jokers: a meld is a *shape* (the natural values it holds, how many
    freed and hand jokers, the identities they take); a set of shapes is feasible when the hand holds
    enough copies of every value and enough jokers.  Jokers are interchangeable, and so are identical
    naturals, so the physical cards are handed out at the end.  Sets that use the same hand cards leave
    the same problem for the rest of the step: only one of them is kept.
    """
    low_ok = mode != "high_only"
    high_ok = mode != "low_only"
    copies = {k: len(v) for k, v in hand_nat.items() if v}
    nf, nh = len(freed), len(hand_jokers)
    jmax = nf + nh
    # shapes: (natural values, freed jokers, hand jokers, joker identities)
    shapes: list[tuple[tuple[tuple[int, int], ...], int, int, list[tuple[int, int]] | None]] = []

    def add(naturals: list[tuple[int, int]], slots: list[tuple[int, int]]) -> None:
        k = len(slots)
        for f_count in range(1, min(nf, k) + 1):
            if k - f_count <= nh and (naturals or k > f_count):  # a hand card in every such meld
                shapes.append((tuple(naturals), f_count, k - f_count, slots))

    for r in range(1, 14):  # groups
        suits = [s for s in range(4) if (r, s) in copies]
        for size in range(1, len(suits) + 1):
            for sub in itertools.combinations(suits, size):
                free = [s for s in range(4) if s not in sub]
                for k in range(max(1, 3 - size), min(jmax, 4 - size) + 1):
                    for fs in itertools.combinations(free, k):  # which suits matters for the old identities
                        add([(r, s) for s in sub], [(r, s) for s in fs])
    for s in range(4):  # sequences
        for lo in range(1 if low_ok else 2, 15 if high_ok else 14):
            for hi in range(lo + 2, min(lo + 12, 14 if high_ok else 13) + 1):
                if lo == 1 and hi == 14:
                    continue
                present = [p for p in range(lo, hi + 1) if ((1 if p == 14 else p), s) in copies]
                length = hi - lo + 1
                for keep_n in range(max(1, length - jmax), len(present) + 1):
                    for keep in itertools.combinations(present, keep_n):
                        slots = [((1 if p == 14 else p), s) for p in range(lo, hi + 1) if p not in keep]
                        if slots:
                            add([((1 if p == 14 else p), s) for p in keep], slots)
    for k in range(3, min(jmax, 13) + 1):  # jokers only (at least one of them from the hand)
        for f_count in range(1, min(nf, k - 1) + 1):
            if k - f_count <= nh:
                shapes.append(((), f_count, k - f_count, None))

    found: dict[tuple, list[list[Card]]] = {}

    def rec(start: int, left_f: int, used: dict[tuple[int, int], int], used_h: int, chosen: list[int]) -> None:
        if left_f == 0:
            key = (tuple(sorted(used.items())), used_h)
            if key not in found:
                melds = _declare_freed([shapes[i] for i in chosen], freed, hand_nat, hand_jokers)
                if melds is not None:
                    found[key] = melds
            return
        for idx in range(start, len(shapes)):  # a multiset of shapes, in index order
            naturals, f_count, h_count, _slots = shapes[idx]
            if f_count > left_f or used_h + h_count > nh:
                continue
            if any(used.get(v, 0) >= copies[v] for v in naturals):
                continue
            for v in naturals:
                used[v] = used.get(v, 0) + 1
            chosen.append(idx)
            rec(idx, left_f - f_count, used, used_h + h_count, chosen)
            chosen.pop()
            for v in naturals:
                used[v] -= 1
                if not used[v]:
                    del used[v]

    rec(0, nf, {}, 0, [])
    return list(found.values())


def _declare_freed(
    chosen: list[tuple[tuple[tuple[int, int], ...], int, int, list[tuple[int, int]] | None]],
    freed: list[Card],
    hand_nat: dict[tuple[int, int], list[Card]],
    hand_jokers: list[Card],
) -> list[list[Card]] | None:
    """The melds of a set of shapes with physical cards, or None when the jokers cannot be declared legally.

    A table joker that takes its old identity again counts as not freed (the engine's M4 check), and a
    meld holding a freed joker may hold no other table card: in every meld either all its table jokers
    change identity or none does.  Tries every order of the freed jokers and every slot assignment.
    """
    orders = {tuple(p): p for p in itertools.permutations(range(len(freed)))}
    for order in orders.values():
        fi = hi_ = 0
        next_copy: dict[tuple[int, int], int] = {}
        melds: list[list[Card]] = []
        for naturals, f_count, h_count, slots in chosen:
            fj = [freed[i] for i in order[fi : fi + f_count]]
            hj = list(hand_jokers[hi_ : hi_ + h_count])
            fi += f_count
            hi_ += h_count
            k = f_count + h_count
            if slots is None:  # jokers only: any run of k identities that suits the old declarations
                options = [[(r, su) for r in range(lo, lo + k)] for su in range(4) for lo in range(2, 15 - k)]
            else:
                options = [slots]
            placed = None
            for opt in options:
                for perm in itertools.permutations(opt):
                    same = [jk.declared == ident for jk, ident in zip(fj, perm[: len(fj)], strict=True)]
                    if all(same) or not any(same):
                        placed = perm
                        break
                if placed is not None:
                    break
            if placed is None:
                break
            meld = []
            for v in naturals:
                meld.append(hand_nat[v][next_copy.get(v, 0)])
                next_copy[v] = next_copy.get(v, 0) + 1
            meld.extend(jk.undeclared().declare(*ident) for jk, ident in zip(fj + hj, placed, strict=True))
            melds.append(meld)
        else:
            return melds
    return None


def _drop_unplayable(
    hand_nat: dict[tuple[int, int], list[Card]], table_nat: dict[tuple[int, int], list[Card]], wild: int, mode: str
) -> dict[tuple[int, int], list[Card]]:
    """Hand naturals that could belong to some meld of the available cards (a superset of the playable ones)."""
    low = mode != "high_only"
    high = mode != "low_only"
    hand = {k: v for k, v in hand_nat.items() if v}
    while True:
        present = {k for k, v in table_nat.items() if v} | set(hand)

        drop = []
        for r, s in hand:
            others = sum(1 for t in range(4) if t != s and (r, t) in present)
            if others + wild >= 2:
                continue
            positions = ([1] if low else []) + ([14] if high else []) if r == 1 else [r]
            ok = False
            for p in positions:
                for lo in range(p - 2, p + 1):
                    hi = lo + 2
                    if lo < (1 if low else 2) or hi > (14 if high else 13) or (lo == 1 and hi == 14):
                        continue
                    missing = sum(1 for q in range(lo, hi + 1) if q != p and (1 if q == 14 else q, s) not in present)
                    if missing <= wild:
                        ok = True
                        break
                if ok:
                    break
            if not ok:
                drop.append((r, s))
        if not drop:
            return hand
        for k in drop:
            del hand[k]


def _meld_sort_key(m: list[Card]) -> tuple:
    first = next((c.effective for c in m if c.effective is not None), (0, 0))
    return (first[1], first[0], len(m))
