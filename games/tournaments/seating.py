"""Splitting a field into tables at least cost: the search behind the formats of ``pairing.py``.

Pure Python, no Django.  No recursion on the field size: only the exact search recurses, over the
players of one window or of a field of at most ``EXACT_PLAYERS``.

**The field** is a list of positions 0..n-1 in standing order (best first), each with its
tournament points and the players it met before.  **The cost** of a seating is, in this order,
(1) earlier meetings of players seated together, (2) the spread of tournament points inside
tables, (3) the squared distance of standing positions inside tables (so 1–3 / 2–4 beats
1–4 / 2–3 when a rematch must be avoided).  It is one integer, the terms weighted so that any
difference in (1) outweighs every (2) and (3), and any difference in (2) every (3).

**The search** starts from the plain seating (blocks of consecutive positions, one per table),
which is the cheapest when nobody met before, and changes only what a rematch forces:

1. *windows*: a table with a rematch and none in its neighbourhood gets its run of consecutive
   tables (up to ``WINDOW_TABLES`` tables and ``WINDOW_SEATS`` players) re-seated by the exact search (bounded by swaps inside
   the window first, which keeps the search short), kept when cheaper;
2. *swaps*: a player of a rematch left is swapped with the player of another table that lowers
   the cost most, the tables nearest in standing first (clusters of rematches, which a window
   cannot mend on its own, go straight here);
3. windows again around the tables the swaps changed, then *polish*: between each of them and
   its neighbours, the cheapest swap while it lowers the cost (this also mends what a swap from
   afar left behind); 2–3 again until a pass of swaps changes nothing;
4. a field of at most ``EXACT_PLAYERS``: the exact search over all of it, bounded by the answer
   so far (so the optimum within its node budget; the tests check it against brute force).

So when it ends, no single swap of two players lowers the rematches (and small fields are at the
optimum).  The work follows the rematches, not the square of the field:
``bench/tournament_pairing.py``.

**Lanes** (for a *duplicate* seating, where seat k of every table plays the same cards): give
each position a lane (the seat it must keep) and lay the tables out with one player of each lane;
the swaps then only exchange players of one lane, and the windows, which would mix lanes, are
not used.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations, pairwise

NODE_BUDGET = 50_000  # nodes of the exact search over a small field
WINDOW_SEATS = 12  # players re-seated together by one window (at most)
WINDOW_TABLES = 3  # tables of one window (at most)
WINDOW_BUDGET = 20_000  # nodes of the exact search over one window
EXACT_PLAYERS = 16  # a field this small also gets the exact search over all of it
SWAP_REACH = 2  # tables searched past the nearest one where a swap helps
MAX_PASSES = 20  # swap-and-window passes (each lowers the cost; they end long before)


class Field:
    """Positions 0..n-1 in standing order with their points and meetings; ``cost(a, b)`` of seating two together."""

    __slots__ = ("n", "points", "met", "use_scores", "meet_weight", "spread_weight")

    def __init__(
        self, points: Sequence[int], met: Sequence[dict[int, int]], *, pairs: int, use_scores: bool = True
    ) -> None:
        self.n = len(points)
        self.points = list(points)
        self.met = met
        self.use_scores = use_scores
        if use_scores and self.n:
            self.spread_weight = pairs * (self.n - 1) ** 2 + 1
            self.meet_weight = self.spread_weight * (pairs * (max(points) - min(points)) + 1)
        else:
            self.spread_weight, self.meet_weight = 0, 1

    @classmethod
    def of(
        cls,
        ids: Sequence[Hashable],
        points: Sequence[int],
        meetings: Mapping[frozenset, int],
        *,
        sizes: Sequence[int],
        use_scores: bool = True,
    ) -> Field:
        """The field of players ``ids`` (standing order) given every pair's earlier meetings."""
        index = {pid: i for i, pid in enumerate(ids)}
        met: list[dict[int, int]] = [{} for _ in ids]
        for key, count in meetings.items():
            if count and len(key) == 2:
                a, b = (index.get(x) for x in key)
                if a is not None and b is not None:
                    met[a][b] = met[b][a] = count
        pairs = sum(s * (s - 1) // 2 for s in sizes)
        return cls(points, met, pairs=pairs, use_scores=use_scores)

    def cost(self, a: int, b: int) -> int:
        c = self.met[a].get(b, 0) * self.meet_weight
        if self.use_scores:
            c += abs(self.points[a] - self.points[b]) * self.spread_weight + (a - b) ** 2
        return c

    def table_cost(self, group: Sequence[int]) -> int:
        return sum(self.cost(a, b) for a, b in combinations(group, 2))

    def meetings(self, group: Sequence[int]) -> int:
        return sum(self.met[a].get(b, 0) for a, b in combinations(group, 2))

    def split(self, cost: int) -> tuple[int, int, int]:
        """A cost as (meetings, points spread, squared standing distance)."""
        if not self.use_scores:
            return cost, 0, 0
        rest = cost % self.meet_weight
        return cost // self.meet_weight, rest // self.spread_weight, rest % self.spread_weight


def plain_seating(sizes: Sequence[int]) -> list[list[int]]:
    """Blocks of consecutive positions, one per table, in the order of ``sizes``."""
    plain, start = [], 0
    for s in sizes:
        plain.append(list(range(start, start + s)))
        start += s
    return plain


def seat(
    field: Field,
    sizes: Sequence[int],
    *,
    budget: int = NODE_BUDGET,
    lanes: Sequence[Hashable] | None = None,
    start: list[list[int]] | None = None,
) -> list[list[int]]:
    """Tables of positions for tables of ``sizes``: each sorted, the tables ordered by their best position
    (with ``lanes``: as laid out in ``start``, each player keeping their seat)."""
    assert sum(sizes) == field.n, "sizes must seat every player"
    state = _State(field, start if start is not None else plain_seating(sizes))
    if lanes is None:
        state.windows(state.lone_rematch_tables())
    for _ in range(MAX_PASSES):
        # A pass that swaps nothing ends the search: then no swap lowers the rematches.
        changed = state.swap_rematches(lanes)
        if not changed:
            break
        if lanes is None:
            state.windows(sorted(changed))
            state.polish(sorted(changed))
    groups = state.groups
    if lanes is not None:
        return groups  # a seat per lane, in the order laid out
    if field.n <= EXACT_PLAYERS:
        found = exact_search(field, list(range(field.n)), [len(g) for g in groups], state.total(), budget)
        if found is not None:
            groups = found
    return sorted((sorted(g) for g in groups), key=lambda g: g[0] if g else field.n)


# ----------------------------------------------------------------- the exact search


class _BranchAndBound:
    """Positions 0..m-1 of a small problem (its cost matrix) into tables of ``sizes``, cheaper than ``bound``.

    Each position in turn goes into a table with room, cheapest first (of the empty tables of one
    size only the first: they are interchangeable); costs only grow, so a branch is cut as soon as
    its cost, plus the least the players still to seat must add, is no cheaper than the best
    complete seating.  The recursion is as deep as the problem is large (a window or a small
    field), never the whole of a large field.

    ``ranks`` and ``points`` (the players' standing positions, ascending, and their tournament
    points, not rising: given when the cost counts the spread and the squared distances) give
    that least: each player still to seat stands at or below the next one, so pays at least
    the squared distance from there, and the points difference (× ``spread_weight``), to each
    player already at the table it joins; and the r players still to join a table stand at
    least 1 apart (r²(r²−1)/12 between them).
    """

    def __init__(
        self,
        matrix: list[list[int]],
        sizes: Sequence[int],
        bound: int,
        budget: int,
        ranks: Sequence[int] | None = None,
        points: Sequence[int] = (),
        spread_weight: int = 0,
    ) -> None:
        self.matrix, self.sizes, self.budget = matrix, sizes, budget
        self.ranks, self.points, self.spread_weight = ranks, points, spread_weight
        self.groups: list[list[int]] = [[] for _ in sizes]
        self.best_cost, self.best = bound, None
        self.nodes = 0
        # per table: the sums of its members' ranks, of their squares and of their points
        self.sums = [[0, 0, 0] for _ in sizes]

    def still_to_add(self, k: int) -> int:
        """The least positions k.. add to the cost (0 without ``ranks``)."""
        if self.ranks is None:
            return 0
        x, p, least = self.ranks[k], self.points[k], 0
        for t, group in enumerate(self.groups):
            free = self.sizes[t] - len(group)
            if free:
                ranks, squares, points = self.sums[t]
                members = len(group)
                least += free * (
                    members * x * x - 2 * x * ranks + squares + self.spread_weight * (points - members * p)
                )
                least += free * free * (free * free - 1) // 12
        return least

    def _seat(self, k: int, t: int, sign: int) -> None:
        if sign > 0:
            self.groups[t].append(k)
        else:
            self.groups[t].pop()
        if self.ranks is not None:
            r, sums = self.ranks[k], self.sums[t]
            sums[0] += sign * r
            sums[1] += sign * r * r
            sums[2] += sign * self.points[k]

    def options(self, k: int) -> list[tuple[int, int]]:
        """The tables with room for position k and what it adds there, cheapest first."""
        tried_empty: set[int] = set()
        get = self.matrix[k].__getitem__
        options = []
        for t, group in enumerate(self.groups):
            if len(group) >= self.sizes[t]:
                continue
            if not group:
                if self.sizes[t] in tried_empty:
                    continue
                tried_empty.add(self.sizes[t])
                options.append((0, t))
            else:
                options.append((sum(map(get, group)), t))
        options.sort()
        return options

    def place(self, k: int, cost: int) -> None:
        if k == len(self.matrix):
            self.best_cost, self.best = cost, [list(g) for g in self.groups]
            return
        self.nodes += 1
        if self.nodes > self.budget or cost + self.still_to_add(k) >= self.best_cost:
            return
        for added, t in self.options(k):
            if cost + added >= self.best_cost:
                break  # this and every dearer table after it
            self._seat(k, t, 1)
            self.place(k + 1, cost + added)
            self._seat(k, t, -1)


def exact_search(
    field: Field, players: Sequence[int], sizes: Sequence[int], bound: int, budget: int
) -> list[list[int]] | None:
    """``players`` (positions, best first) at tables of ``sizes`` for less than ``bound``, or None.

    The best seating the branch and bound finds within ``budget`` nodes (the optimum when it
    finishes); tables are in the order of ``sizes``.
    """
    assert len(players) <= max(EXACT_PLAYERS, WINDOW_SEATS + 5), "the exact search is for small problems"
    matrix = [[field.cost(a, b) if a != b else 0 for b in players] for a in players]
    points = [field.points[p] for p in players]
    ordered = field.use_scores and all(a >= b for a, b in pairwise(points))
    search = _BranchAndBound(matrix, sizes, bound, budget, players if ordered else None, points, field.spread_weight)
    search.place(0, 0)
    if search.best is None:
        return None
    return [[players[i] for i in group] for group in search.best]


# ----------------------------------------------------------------- local improvement


class _State:
    """A seating being improved: the tables (lists of positions) and each table's cost."""

    def __init__(self, field: Field, groups: list[list[int]]) -> None:
        self.field = field
        self.groups = [list(g) for g in groups]
        self.costs = [field.table_cost(g) for g in self.groups]
        sizes = [len(g) for g in self.groups]
        self.reach = max(2, min(WINDOW_TABLES, WINDOW_SEATS // max(sizes, default=1)))  # tables per window

    def total(self) -> int:
        return sum(self.costs)

    def has_rematch(self, t: int) -> bool:
        return self.field.meetings(self.groups[t]) > 0

    def rematch_tables(self) -> list[int]:
        return [t for t in range(len(self.groups)) if self.has_rematch(t)]

    def lone_rematch_tables(self) -> list[int]:
        """The tables with a rematch whose window holds no other: a window can mend them on its own."""
        marked = self.rematch_tables()
        lone, near = [], self.reach - 1
        for k, t in enumerate(marked):
            before = marked[k - 1] if k else None
            after = marked[k + 1] if k + 1 < len(marked) else None
            if (before is None or t - before > near) and (after is None or after - t > near):
                lone.append(t)
        return lone

    def windows(self, tables: Sequence[int]) -> None:
        """Re-seat the window around each of ``tables`` exactly when that is cheaper."""
        count = len(self.groups)
        width = min(self.reach, count)
        for t in tables:
            first = max(0, min(t - (width - 1) // 2, count - width))
            window = range(first, first + width)
            players = sorted(p for u in window for p in self.groups[u])
            current = sum(self.costs[u] for u in window)
            # Swaps inside the window first: a close bound makes the exact search short.
            local = _State(self.field, [self.groups[u] for u in window])
            local.swap_rematches(None)
            local.polish(range(width))
            bound = local.total()
            found = exact_search(self.field, players, [len(self.groups[u]) for u in window], bound, WINDOW_BUDGET)
            if found is None and bound < current:
                found = local.groups
            if found is not None:
                for u, group in zip(window, found, strict=True):
                    self.groups[u] = group
                    self.costs[u] = self.field.table_cost(group)

    def polish(self, tables: Sequence[int]) -> None:
        """Between each of ``tables`` and its neighbours, the cheapest swap while it lowers the cost."""
        queue = list(tables)
        while queue:
            t = queue.pop()
            for u in range(max(0, t - self.reach), min(len(self.groups), t + self.reach + 1)):
                if u == t:
                    continue
                delta, x, c = min((self._swap_delta(t, x, u, c), x, c) for x in self.groups[t] for c in self.groups[u])
                if delta < 0:
                    self._apply_swap(t, x, u, c)
                    queue.extend((t, u))

    def swap_rematches(self, lanes: Sequence[Hashable] | None) -> set[int]:
        """Swap players out of rematches while a swap lowers the cost; the tables changed."""
        changed: set[int] = set()
        queue = self.rematch_tables()
        while queue:
            t = queue.pop()
            while self.has_rematch(t):
                move = self._best_swap(t, lanes)
                if move is None:
                    break
                _delta, x, u, c = move
                self._apply_swap(t, x, u, c)
                changed.update((t, u))
                if self.has_rematch(u):
                    queue.append(u)
        return changed

    def _best_swap(self, t: int, lanes: Sequence[Hashable] | None) -> tuple[int, int, int, int] | None:
        """The cheapest swap of a player of a rematch at table t that lowers the rematches: (delta, x, u, c).

        Tables are searched outward in standing order, up to ``SWAP_REACH`` past the nearest one
        where such a swap exists; meetings are counted first, the whole cost only for those swaps.
        """
        met, group = self.field.met, self.groups[t]
        movers = sorted({p for a, b in combinations(group, 2) if met[a].get(b) for p in (a, b)})
        own = {x: sum(met[x].get(y, 0) for y in group if y != x) for x in movers}
        best: tuple[int, int, int, int] | None = None
        found_at = None
        for distance in range(1, len(self.groups)):
            if found_at is not None and distance > found_at + SWAP_REACH:
                break
            for u in (t - distance, t + distance):
                if not 0 <= u < len(self.groups):
                    continue
                other = self.groups[u]
                for c in other:
                    c_met = met[c]
                    c_own = sum(c_met.get(z, 0) for z in other if z != c)
                    for x in movers:
                        if lanes is not None and lanes[c] != lanes[x]:
                            continue
                        gained = sum(c_met.get(y, 0) for y in group if y != x)
                        gained += sum(met[x].get(z, 0) for z in other if z != c)
                        if gained >= own[x] + c_own:
                            continue  # the swap lowers no meeting
                        delta = self._swap_delta(t, x, u, c)
                        if best is None or delta < best[0]:
                            best = (delta, x, u, c)
                            found_at = distance if found_at is None else found_at
        return best

    def _swap_delta(self, t: int, x: int, u: int, c: int) -> int:
        cost = self.field.cost
        delta = 0
        for y in self.groups[t]:
            if y != x:
                delta += cost(c, y) - cost(x, y)
        for z in self.groups[u]:
            if z != c:
                delta += cost(x, z) - cost(c, z)
        return delta

    def _apply_swap(self, t: int, x: int, u: int, c: int) -> None:
        self.groups[t][self.groups[t].index(x)] = c
        self.groups[u][self.groups[u].index(c)] = x
        self.costs[t] = self.field.table_cost(self.groups[t])
        self.costs[u] = self.field.table_cost(self.groups[u])
