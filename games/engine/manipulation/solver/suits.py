"""The solver's per-rank tables: how one suit's open runs can take the cards of one rank, and when a
rank's naturals plus wildcards make groups (pure functions of small ints, cached)."""

from __future__ import annotations

from functools import lru_cache


# The solver's innermost enumeration, kept in one piece (75 lines): split at the wildcard-prefix loops
# (into a helper called once per extension choice) it computed the same options ~6% slower cold
# (47 vs 50 ms for the 6,941 distinct calls of bench/engine_manipulation.py).  Cached for rank 14 only:
# the other ranks go through dp.suit_entries (``__wrapped__``), which keeps the DP's form of them.
@lru_cache(maxsize=4_096)
def suit_options(
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


def group_jokers_table() -> list[list[tuple[int, ...]]]:
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


GROUP_JOKERS = group_jokers_table()
NO_GROUP = (0,)


@lru_cache(maxsize=100_000)
def groups_feasible(gs: tuple[int, ...], j: int) -> int:
    """Smallest number of groups m for naturals ``gs`` (per suit) plus ``j`` wildcards at one rank, or -1."""
    total = sum(gs)
    if total == 0:
        return 0 if j == 0 else -1
    n = total + j
    lo = max(max(gs), -(-n // 4))
    hi = min(total, n // 3)
    return lo if lo <= hi else -1
