"""Seating algorithms for tournament rounds — pure Python, no Django.

Three formats:

* **Swiss** (tables of 2–5): players in standing order are grouped into
  tables; a seating is chosen that minimises, in this order, (1) previous
  meetings of players at the same table, (2) the spread of tournament points
  inside tables, (3) the squared distance of standing positions inside tables.
  The search (``seating.py``) starts from blocks in standing order and changes
  only what rematches force: exact re-seating of windows of neighbouring
  tables, then swaps; exact over the whole field on small fields.  Its work
  follows the rematches, not the square of the field, and it does not recurse
  on the field size (``bench/tournament_pairing.py``).
* **Round robin**: with two-seat tables the circle method (every player meets
  every other exactly once in n−1 rounds, a bye for odd fields); with larger
  tables the same search with no score terms, so pairs who met least sit
  together.
* **Single elimination** (two-seat tables): a standard seeded bracket (1 v N,
  byes to the top seeds), winners meet in bracket order.

A *duplicate* round (every table plays the same deals; each seat's cards are
compared across tables, ``duplicate.py``), Swiss: the field is laid out in
lanes (``duplicate_layout``: per table size, lane k is the k-th slice of the
standings and takes seat k at every table, snaking so that no table gets the
best of every lane), then ``seating.seat(..., lanes=..., start=...)`` swaps
players between tables only inside their lane to avoid rematches.  Round robin
and elimination keep their schedule and order each table's seats by standing
(``in_standing_order``).

Table sizes: the chosen size; when numbers do not divide, tables of 3–5 seats
(only those the variant allows), as close to the chosen size as possible; byes
only when nothing else fits (e.g. two-player Gin with an odd field).

Every table carries machine-readable reasons (``{"code": ..., params}``) that
the web layer turns into sentences ("score group 6; avoids a rematch").
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from games.tournaments import seating
from games.tournaments.seating import NODE_BUDGET

PlayerId = Hashable
Meetings = Mapping[frozenset, int]


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
    """The fewest byes, then the cheapest multiset of ``sizes`` seating the rest: a knapsack over seat counts.

    A table of ``s`` seats costs (off the chosen size, |s − size|, oversized, then −1 in its own size's
    column, larger sizes first): costs add up, so the cheapest way to seat m players is the cheapest
    way to seat m − s plus one table of s; the last columns prefer more of the larger tables on ties.
    """
    if not sizes:
        return None
    order = sorted(sizes, reverse=True)

    def table_cost(s: int) -> tuple[int, ...]:
        column = tuple(-1 if x == s else 0 for x in order)
        return (int(s != size), abs(s - size), int(s > size), *column)

    costs = {s: table_cost(s) for s in order}
    best: list[tuple[tuple[int, ...], int] | None] = [None] * (n + 1)  # (cost, last table) per seat count
    best[0] = (tuple(0 for _ in costs[order[0]]), 0)
    for m in range(1, n + 1):
        for s in order:
            prev = best[m - s] if s <= m else None
            if prev is None:
                continue
            cost = tuple(a + b for a, b in zip(prev[0], costs[s], strict=True))
            if best[m] is None or cost < best[m][0]:
                best[m] = (cost, s)
    for byes in range(0, n + 1):
        m = n - byes
        if best[m] is not None:
            tables = []
            while m:
                s = best[m][1]
                tables.append(s)
                m -= s
            return sorted(tables, reverse=True), byes
    return None


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


def best_seating(
    players: Sequence[Player],
    sizes: Sequence[int],
    met: Meetings,
    *,
    use_scores: bool = True,
    budget: int = NODE_BUDGET,
) -> list[list[PlayerId]]:
    """Split ``players`` (standing order) into tables of ``sizes`` at least :func:`seating_cost`.

    The search is :func:`games.tournaments.seating.seat`: the plain seating (blocks in standing
    order), changed where a rematch forces it; exact on small fields (``budget``: its node budget).
    Tables come best first, each in standing order.
    """
    assert sum(sizes) == len(players), "sizes must seat every player"
    field_ = seating.Field.of(
        [p.id for p in players], [p.points for p in players], met, sizes=sizes, use_scores=use_scores
    )
    groups = seating.seat(field_, sizes, budget=budget)
    return [[players[i].id for i in group] for group in groups]


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
    """The next Swiss round for ``players`` in standing order (best first): tables best first, then byes."""
    sizes, byes = table_sizes(len(players), size, seat_choices)
    field_, bye_tables = _take_byes(players, byes, set(had_bye))
    groups = best_seating(field_, sizes, met, budget=budget)
    plain = _plain_groups(field_, sizes)
    plain_rematches = any(met.get(frozenset(pr), 0) for g in plain for pr in combinations(g, 2))
    plain_tables = {frozenset(g) for g in plain}
    points = {p.id: p.points for p in field_}
    tables = []
    for group in groups:
        reasons = _swiss_reasons(
            group, points, met, size, moved=plain_rematches and frozenset(group) not in plain_tables
        )
        tables.append(Table(players=tuple(group), reasons=tuple(reasons)))
    return tables + bye_tables


def _swiss_reasons(
    order: Sequence[PlayerId], points: Mapping[PlayerId, int], met: Meetings, size: int, *, moved: bool
) -> list[dict]:
    """Why a Swiss table is what it is: its score group(s), a rematch it avoids or could not, its size."""
    reasons: list[dict] = []
    scores = sorted({points[i] for i in order}, reverse=True)
    if len(scores) == 1:
        reasons.append({"code": "score_group", "points": scores[0]})
    else:
        reasons.append({"code": "score_groups", "high": scores[0], "low": scores[-1]})
    rematch = [sorted(pr, key=str) for pr in combinations(order, 2) if met.get(frozenset(pr), 0)]
    if rematch:
        reasons.append({"code": "rematch_unavoidable", "pairs": [list(pr) for pr in rematch]})
    elif moved:
        reasons.append({"code": "avoids_rematch"})
    if len(order) != size:
        reasons.append({"code": "table_size", "seats": len(order)})
    return reasons


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


# ----------------------------------------------------------------- duplicate


def duplicate_layout(sizes: Sequence[int], size: int) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """Standing positions laid out for a duplicate round of tables of ``sizes``: (tables, each a list of
    positions in seat order; the lane of every position).

    The tables of the chosen ``size`` come first and take the top of the standings, then each other
    size, largest first.  In a size group of T tables, lane k holds positions kT … kT + T − 1 and sits
    in seat k: at table t in its order when k is even, from the other end when k is odd (a snake),
    so that seat k's cards go, at every table, to players of comparable standing.
    """
    order = sorted(set(sizes), key=lambda s: (s != size, -s))
    tables: list[list[int]] = []
    lanes: list[tuple[int, int]] = [(0, 0)] * sum(sizes)
    start = 0
    for g, s in enumerate(order):
        count = sum(1 for x in sizes if x == s)
        group = [[0] * s for _ in range(count)]
        for k in range(s):
            for t in range(count):
                pos = start + k * count + t
                group[t if k % 2 == 0 else count - 1 - t][k] = pos
                lanes[pos] = (g, k)
        tables.extend(group)
        start += s * count
    return tables, lanes


def seat_duplicate(
    players: Sequence[Player],
    *,
    size: int,
    seat_choices: Iterable[int],
    met: Meetings,
    had_bye: Iterable[PlayerId] = (),
) -> list[Table]:
    """A duplicate Swiss round for ``players`` in standing order: tables in lanes (:func:`duplicate_layout`),
    rematches avoided by swaps inside a lane; then byes."""
    sizes, byes = table_sizes(len(players), size, seat_choices)
    field_, bye_tables = _take_byes(players, byes, set(had_bye))
    layout, lanes = duplicate_layout(sizes, size)
    field = seating.Field.of([p.id for p in field_], [p.points for p in field_], met, sizes=[len(t) for t in layout])
    groups = seating.seat(field, [len(t) for t in layout], lanes=lanes, start=layout)
    first: dict[tuple[int, int], int] = {}
    last: dict[tuple[int, int], int] = {}
    for pos, lane in enumerate(lanes):
        first.setdefault(lane, pos + 1)
        last[lane] = pos + 1
    tables = []
    for group in groups:
        ids = tuple(field_[i].id for i in group)
        reasons: list[dict] = [{"code": "duplicate_lanes", "lanes": [[first[lanes[i]], last[lanes[i]]] for i in group]}]
        rematch = [sorted(pr, key=str) for pr in combinations(ids, 2) if met.get(frozenset(pr), 0)]
        if rematch:
            reasons.append({"code": "rematch_unavoidable", "pairs": [list(pr) for pr in rematch]})
        if len(ids) != size:
            reasons.append({"code": "table_size", "seats": len(ids)})
        tables.append(Table(players=ids, reasons=tuple(reasons)))
    return tables + bye_tables


def in_standing_order(tables: Sequence[Table], players: Sequence[Player]) -> list[Table]:
    """The same tables with each one's seats in standing order (a duplicate round of a format whose
    schedule says who meets): seat 1 goes to the best-placed player of every table, and so on."""
    rank = {p.id: i for i, p in enumerate(players)}
    out = []
    for table in tables:
        if table.is_bye:
            out.append(table)
            continue
        ordered = tuple(sorted(table.players, key=lambda pid: rank.get(pid, len(rank))))
        out.append(Table(players=ordered, reasons=(*table.reasons, {"code": "duplicate_order"})))
    return out


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
    for order in groups:
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
            tables.append(
                Table(
                    players=(pa if pa is not None else pb,),
                    reasons=({"code": "bracket_bye", "seed": min(a, b)},),
                    is_bye=True,
                )
            )
    return tables


def seat_elimination_next(winners: Sequence[PlayerId | None]) -> list[Table]:
    """The next round from the previous round's winners in table order (``None``: nobody advanced)."""
    tables = []
    for k in range(0, len(winners), 2):
        pair = [w for w in winners[k : k + 2] if w is not None]
        if len(pair) == 2:
            tables.append(Table(players=tuple(pair), reasons=({"code": "bracket", "tables": [k + 1, k + 2]},)))
        elif pair:
            tables.append(
                Table(
                    players=tuple(pair), reasons=({"code": "bracket_walkover", "tables": [k + 1, k + 2]},), is_bye=True
                )
            )
    return tables
