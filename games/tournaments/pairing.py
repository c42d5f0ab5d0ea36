"""Seating algorithms for tournament rounds — pure Python, no Django.

Three formats:

* **Swiss** (tables of 2–5): players in standing order are grouped into
  tables; a seating is chosen that minimises, in this order, (1) previous
  meetings of players at the same table, (2) the spread of tournament points
  inside tables, (3) the squared distance of standing positions inside tables.  A
  branch-and-bound search finds the exact optimum on small and medium fields
  and, past a node budget, the best found so far, improved by pairwise swaps.
* **Round robin**: with two-seat tables the circle method (every player meets
  every other exactly once in n−1 rounds, a bye for odd fields); with larger
  tables the same search with no score terms, so pairs who met least sit
  together.
* **Single elimination** (two-seat tables): a standard seeded bracket (1 v N,
  byes to the top seeds), winners meet in bracket order.

Table sizes: the chosen size; when numbers do not divide, tables one seat
of 3–5 seats (only those the variant allows), as close to the chosen size as possible; byes
only when nothing else fits (e.g. two-player Gin with an odd field).

Every table carries machine-readable reasons (``{"code": ..., params}``) that
the web layer turns into sentences ("score group 6; avoids a rematch").
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

PlayerId = Hashable
Meetings = Mapping[frozenset, int]

NODE_BUDGET = 50_000


@dataclass(frozen=True, slots=True)
class Player:
    """A player as the pairing sees it; lists of players are in standing order (best first)."""

    id: PlayerId
    points: int = 0
    game_points: int = 0


@dataclass(frozen=True, slots=True)
class Table:
    players: tuple[PlayerId, ...]
    reasons: tuple[dict, ...] = field(default_factory=tuple)
    is_bye: bool = False


# ----------------------------------------------------------------- table sizes


def table_sizes(n: int, size: int, seat_choices: Iterable[int]) -> tuple[list[int], int]:
    """How to split ``n`` players into tables: (sizes, largest first; number of byes).

    Prefers, in order: fewest byes, fewest tables off the chosen size, the
    smallest total deviation from it, fewest oversized tables.  Off-size tables
    have 3–5 seats; when even that fails, any size the variant allows.
    """
    allowed = set(seat_choices)
    if n <= 0:
        return [], 0
    off = {s for s in (3, 4, 5) if s in allowed}
    sizes = ({size} & allowed) | off
    best = _partition(n, size, sizes)
    if best is None or best[1]:
        alt = _partition(n, size, allowed)
        if alt is not None and (best is None or alt[1] < best[1]):
            best = alt
    if best is None:
        return [], n
    return best


def _partition(n: int, size: int, sizes: set[int]) -> tuple[list[int], int] | None:
    if not sizes:
        return None
    best_key, best = None, None
    for byes in range(0, n + 1):
        m = n - byes
        for plan in _compositions(m, sorted(sizes, reverse=True)):
            tables = sorted(plan, reverse=True)
            key = (byes, sum(1 for s in tables if s != size), sum(abs(s - size) for s in tables),
                   sum(1 for s in tables if s > size))
            if best_key is None or key < best_key:
                best_key, best = key, (tables, byes)
        if best is not None:
            return best
    return best


def _compositions(m: int, sizes: list[int]) -> Iterable[list[int]]:
    """Every multiset of ``sizes`` summing to ``m`` (sizes distinct, at most 4 of them)."""
    if m == 0:
        yield []
        return
    if not sizes:
        return
    first, rest = sizes[0], sizes[1:]
    for count in range(m // first, -1, -1):
        for tail in _compositions(m - count * first, rest):
            yield [first] * count + tail


# ----------------------------------------------------------------- the search


def meetings_of(tables: Iterable[Iterable[PlayerId]]) -> dict[frozenset, int]:
    """How often each pair sat together in ``tables`` (a list over all previous rounds)."""
    met: dict[frozenset, int] = {}
    for table in tables:
        for a, b in combinations(list(table), 2):
            key = frozenset((a, b))
            met[key] = met.get(key, 0) + 1
    return met


def seating_cost(
    groups: Sequence[Sequence[PlayerId]], players: Sequence[Player], met: Meetings, *, use_scores: bool = True
) -> tuple[int, int, int]:
    """(previous meetings, points spread, squared standing distance) summed over the pairs at each table.

    Squaring the standing distance makes 1–3 / 2–4 beat 1–4 / 2–3 when a rematch must be avoided.
    """
    rank = {p.id: i for i, p in enumerate(players)}
    pts = {p.id: p.points for p in players}
    rematches = spread = ranks = 0
    for group in groups:
        for a, b in combinations(group, 2):
            rematches += met.get(frozenset((a, b)), 0)
            if use_scores:
                spread += abs(pts[a] - pts[b])
                ranks += (rank[a] - rank[b]) ** 2
    return rematches, spread, ranks


def _pair_costs(players: Sequence[Player], met: Meetings, use_scores: bool) -> list[list[tuple[int, int, int]]]:
    """The cost of seating two players together, by standing position: (meetings, point spread, squared
    distance of positions); the score terms are 0 without ``use_scores``."""
    n = len(players)
    ids = [p.id for p in players]
    pts = [p.points for p in players]
    pair = [[(0, 0, 0)] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            cost = (
                met.get(frozenset((ids[i], ids[j])), 0),
                abs(pts[i] - pts[j]) if use_scores else 0,
                (j - i) ** 2 if use_scores else 0,
            )
            pair[i][j] = pair[j][i] = cost
    return pair


def _plain_seating(sizes: Sequence[int]) -> list[list[int]]:
    """Blocks of positions in standing order, one per table."""
    plain, start = [], 0
    for s in sizes:
        plain.append(list(range(start, start + s)))
        start += s
    return plain


class _SeatingSearch:
    """The branch and bound of :func:`best_seating` over positions 0..n-1, from a first answer (its bound)."""

    def __init__(self, pair, sizes: Sequence[int], budget: int, seating: list[list[int]]) -> None:
        self.pair, self.sizes, self.budget, self.n = pair, sizes, budget, len(pair)
        self.groups: list[list[int]] = [[] for _ in sizes]
        self.best_cost: tuple[int, int, int] | None = _cost_positions(seating, pair)
        self.best = seating
        self.nodes = 0

    def options(self, k: int) -> list[tuple[int, int, int, int]]:
        """The tables with room for position k, with the cost it adds there, cheapest first (stable: lower
        table first, so good seatings come early); of empty tables of one size only the first."""
        tried_empty: set[int] = set()
        options = []
        for t, group in enumerate(self.groups):
            if len(group) >= self.sizes[t]:
                continue
            if not group:
                if self.sizes[t] in tried_empty:
                    continue
                tried_empty.add(self.sizes[t])
            d0 = d1 = d2 = 0
            for other in group:
                a, b, c = self.pair[k][other]
                d0 += a
                d1 += b
                d2 += c
            options.append((d0, d1, d2, t))
        options.sort()
        return options

    def place(self, k: int, c0: int, c1: int, c2: int) -> None:
        """Seat positions k.. given the cost so far; a branch no better than the best is cut."""
        if self.best_cost is not None and (c0, c1, c2) >= self.best_cost:
            return
        if k == self.n:
            self.best_cost = (c0, c1, c2)
            self.best = [list(g) for g in self.groups]
            return
        self.nodes += 1
        if self.nodes > self.budget and self.best_cost is not None:
            return
        for d0, d1, d2, t in self.options(k):
            self.groups[t].append(k)
            self.place(k + 1, c0 + d0, c1 + d1, c2 + d2)
            self.groups[t].pop()


def best_seating(
    players: Sequence[Player],
    sizes: Sequence[int],
    met: Meetings,
    *,
    use_scores: bool = True,
    budget: int = NODE_BUDGET,
) -> list[list[PlayerId]]:
    """Split ``players`` (standing order) into tables of ``sizes`` at minimal :func:`seating_cost`.

    Players are placed in standing order into a table with room (empty tables
    of equal size are interchangeable, so only the first is tried); partial
    costs only grow, so a branch is cut as soon as it is no better than the
    best complete seating.  The first seating found is the plain one (blocks in
    standing order), so the search always has an answer.
    """
    assert sum(sizes) == len(players), "sizes must seat every player"
    pair = _pair_costs(players, met, use_scores)
    # The plain seating first, so there is always an answer and a bound.
    search = _SeatingSearch(pair, sizes, budget, _plain_seating(sizes))
    search.place(0, 0, 0, 0)
    result = search.best
    if search.nodes > budget:
        result = _improve_by_swaps(result, pair)
    return [[players[i].id for i in group] for group in result]


def _cost_positions(groups: list[list[int]], pair) -> tuple[int, int, int]:
    total = [0, 0, 0]
    for group in groups:
        for a, b in combinations(group, 2):
            for x in range(3):
                total[x] += pair[a][b][x]
    return tuple(total)  # type: ignore[return-value]


def _improve_by_swaps(groups: list[list[int]], pair) -> list[list[int]]:
    """Swap two players of different tables while that lowers the cost (computed as a delta)."""
    groups = [list(g) for g in groups]

    def delta(t1: int, i: int, t2: int, j: int) -> tuple[int, int, int]:
        a, b = groups[t1][i], groups[t2][j]
        d = [0, 0, 0]
        for x in groups[t1]:
            if x != a:
                for k in range(3):
                    d[k] += pair[b][x][k] - pair[a][x][k]
        for y in groups[t2]:
            if y != b:
                for k in range(3):
                    d[k] += pair[a][y][k] - pair[b][y][k]
        return d[0], d[1], d[2]

    improved = True
    while improved:
        improved = False
        for t1 in range(len(groups)):
            for t2 in range(t1 + 1, len(groups)):
                for i in range(len(groups[t1])):
                    for j in range(len(groups[t2])):
                        if delta(t1, i, t2, j) < (0, 0, 0):
                            groups[t1][i], groups[t2][j] = groups[t2][j], groups[t1][i]
                            improved = True
    return [sorted(g) for g in groups]


# ----------------------------------------------------------------- Swiss


def seat_swiss(
    players: Sequence[Player],
    *,
    size: int,
    seat_choices: Iterable[int],
    met: Meetings,
    had_bye: Iterable[PlayerId] = (),
    budget: int = NODE_BUDGET,
) -> list[Table]:
    """The next Swiss round for ``players`` in standing order (best first)."""
    sizes, byes = table_sizes(len(players), size, seat_choices)
    field_, bye_tables = _take_byes(players, byes, set(had_bye))
    groups = best_seating(field_, sizes, met, budget=budget)
    plain = _plain_groups(field_, sizes)
    plain_rematches = sum(met.get(frozenset(pr), 0) for g in plain for pr in combinations(g, 2))
    by_id = {p.id: p for p in field_}
    tables = []
    for t, group in enumerate(groups):
        order = sorted(group, key=[p.id for p in field_].index)
        reasons: list[dict] = []
        points = sorted({by_id[i].points for i in order}, reverse=True)
        if len(points) == 1:
            reasons.append({"code": "score_group", "points": points[0]})
        else:
            reasons.append({"code": "score_groups", "high": points[0], "low": points[-1]})
        rematch = [sorted(pr, key=str) for pr in combinations(order, 2) if met.get(frozenset(pr), 0)]
        if rematch:
            reasons.append({"code": "rematch_unavoidable", "pairs": [list(pr) for pr in rematch]})
        elif plain_rematches and set(order) != set(plain[t]):
            reasons.append({"code": "avoids_rematch"})
        if len(order) != size:
            reasons.append({"code": "table_size", "seats": len(order)})
        tables.append(Table(players=tuple(order), reasons=tuple(reasons)))
    return tables + bye_tables


def _plain_groups(players: Sequence[Player], sizes: Sequence[int]) -> list[list[PlayerId]]:
    out, start = [], 0
    for s in sizes:
        out.append([p.id for p in players[start : start + s]])
        start += s
    return out


def _take_byes(players: Sequence[Player], byes: int, had_bye: set) -> tuple[list[Player], list[Table]]:
    """Byes go to the lowest-standing players who have not had one yet (then to the lowest)."""
    if not byes:
        return list(players), []
    order = [p for p in reversed(players) if p.id not in had_bye] + [p for p in reversed(players) if p.id in had_bye]
    chosen = {p.id for p in order[:byes]}
    rest = [p for p in players if p.id not in chosen]
    tables = [
        Table(players=(p.id,), reasons=({"code": "bye", "repeat": p.id in had_bye},), is_bye=True)
        for p in players
        if p.id in chosen
    ]
    return rest, tables


# ----------------------------------------------------------------- round robin


def round_robin_rounds(n: int, size: int) -> int:
    """The number of rounds for every pair to meet once (2 seats), or a sensible default for larger tables."""
    if size <= 2:
        return n - 1 if n % 2 == 0 else n
    return max(1, -(-(n - 1) // (size - 1)))


def circle_round(ids: Sequence[PlayerId], round_index: int) -> tuple[list[tuple[PlayerId, PlayerId]], list[PlayerId]]:
    """Round ``round_index`` (0-based) of the circle method: (pairs, players with a bye)."""
    items: list = list(ids)
    if len(items) % 2:
        items.append(None)
    m = len(items)
    if m < 2:
        return [], [i for i in items if i is not None]
    fixed, rest = items[0], items[1:]
    shift = round_index % (m - 1)
    rest = rest[-shift:] + rest[:-shift] if shift else rest
    line = [fixed, *rest]
    pairs, byes = [], []
    for k in range(m // 2):
        a, b = line[k], line[m - 1 - k]
        if a is None or b is None:
            byes.append(b if a is None else a)
        else:
            pairs.append((a, b) if k % 2 == 0 or round_index % 2 == 0 else (b, a))
    return pairs, byes


def seat_round_robin(
    players: Sequence[Player],
    *,
    round_index: int,
    size: int,
    seat_choices: Iterable[int],
    met: Meetings,
    roster: Sequence[PlayerId] | None = None,
    budget: int = NODE_BUDGET,
) -> list[Table]:
    """Round ``round_index`` (0-based) of a round robin.

    With two-seat tables, ``roster`` (every entrant in seed order, fixed at the
    first round) drives the circle method; players who left give their
    opponents a bye.  With larger tables, the pairs that met least sit together.
    """
    active = {p.id for p in players}
    if size <= 2:
        ids = list(roster) if roster is not None else [p.id for p in players]
        pairs, byes = circle_round(ids, round_index)
        tables: list[Table] = []
        bye_ids = [b for b in byes if b in active]
        for a, b in pairs:
            if a in active and b in active:
                tables.append(Table(players=(a, b), reasons=({"code": "round_robin", "round": round_index + 1},)))
            elif a in active or b in active:
                bye_ids.append(a if a in active else b)
        order = [p.id for p in players]
        for b in sorted(bye_ids, key=order.index):
            tables.append(Table(players=(b,), reasons=({"code": "bye", "repeat": False},), is_bye=True))
        return tables
    sizes, byes = table_sizes(len(players), size, seat_choices)
    field_, bye_tables = _take_byes(players, byes, set())
    groups = best_seating(field_, sizes, met, use_scores=False, budget=budget)
    tables = []
    for group in groups:
        order = sorted(group, key=[p.id for p in field_].index)
        repeats = sum(met.get(frozenset(pr), 0) for pr in combinations(order, 2))
        reasons = [{"code": "fewest_meetings", "repeats": repeats}]
        if len(order) != size:
            reasons.append({"code": "table_size", "seats": len(order)})
        tables.append(Table(players=tuple(order), reasons=tuple(reasons)))
    return tables + bye_tables


# ----------------------------------------------------------------- single elimination


def elimination_rounds(n: int) -> int:
    rounds, slots = 0, 1
    while slots < n:
        slots *= 2
        rounds += 1
    return rounds


def bracket_order(slots: int) -> list[int]:
    """Seed numbers (1-based) in bracket position order: 1 v slots, and the top seeds meet last."""
    order = [1]
    while len(order) < slots:
        m = len(order) * 2 + 1
        order = [x for s in order for x in (s, m - s)]
    return order


def seat_elimination_first(players_by_seed: Sequence[PlayerId]) -> list[Table]:
    """The first round of a bracket; missing opponents are byes for the top seeds."""
    n = len(players_by_seed)
    slots = 2 ** elimination_rounds(n)
    order = bracket_order(slots)
    tables = []
    for k in range(0, slots, 2):
        a, b = order[k], order[k + 1]
        pa = players_by_seed[a - 1] if a <= n else None
        pb = players_by_seed[b - 1] if b <= n else None
        if pa is not None and pb is not None:
            tables.append(Table(players=(pa, pb), reasons=({"code": "seeds", "a": a, "b": b},)))
        elif pa is not None or pb is not None:
            tables.append(Table(players=(pa if pa is not None else pb,),
                                reasons=({"code": "bracket_bye", "seed": min(a, b)},), is_bye=True))
    return tables


def seat_elimination_next(winners: Sequence[PlayerId | None]) -> list[Table]:
    """The next round from the previous round's winners in table order (``None``: nobody advanced)."""
    tables = []
    for k in range(0, len(winners), 2):
        pair = [w for w in winners[k : k + 2] if w is not None]
        if len(pair) == 2:
            tables.append(Table(players=tuple(pair), reasons=({"code": "bracket", "tables": [k + 1, k + 2]},)))
        elif pair:
            tables.append(Table(players=tuple(pair), reasons=({"code": "bracket_walkover",
                                                                "tables": [k + 1, k + 2]},), is_bye=True))
    return tables
