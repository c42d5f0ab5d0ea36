"""Tournament seating and standings: pure functions, no database (games/tournaments/pairing.py, standings.py)."""

from __future__ import annotations

import inspect
import random
import subprocess
import sys
from fractions import Fraction
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments import pairing, seating
from games.tournaments.pairing import Player, seating_cost, table_sizes
from games.tournaments.standings import SeatResult, compute_standings, placements, points_for

MANIPULATION = (2, 3, 4, 5)
GIN = (2,)


# ----------------------------------------------------------------- table sizes


@pytest.mark.parametrize(
    ("n", "size", "choices", "expected"),
    [
        (8, 4, MANIPULATION, ([4, 4], 0)),
        (9, 4, MANIPULATION, ([5, 4], 0)),
        (10, 4, MANIPULATION, ([4, 3, 3], 0)),  # two short tables rather than two long ones
        (11, 4, MANIPULATION, ([4, 4, 3], 0)),
        (6, 4, MANIPULATION, ([3, 3], 0)),
        (2, 4, MANIPULATION, ([2], 0)),  # nothing in 3–5 fits: the smallest legal table
        (7, 2, MANIPULATION, ([3, 2, 2], 0)),  # odd field of a two-seat game that allows three
        (7, 2, GIN, ([2, 2, 2], 1)),  # two-player gin: a bye
        (10, 3, (3,), ([3, 3, 3], 1)),  # three-player box gin
        (13, 5, MANIPULATION, ([5, 5, 3], 0)),  # as many full tables as possible
    ],
)
def test_table_sizes(n, size, choices, expected):
    assert table_sizes(n, size, choices) == expected


@given(n=st.integers(2, 40), size=st.integers(2, 5))
def test_table_sizes_seat_everyone_within_bounds(n, size):
    sizes, byes = table_sizes(n, size, MANIPULATION)
    assert sum(sizes) + byes == n and byes == 0
    if n >= 3 and size >= 3:
        assert all(3 <= s <= 5 for s in sizes)
        assert sum(1 for s in sizes if s != size) <= max(2, size)  # mostly the chosen size
    assert all(s in MANIPULATION for s in sizes)


def _enumerated_sizes(n: int, size: int, choices) -> tuple[list[int], int]:
    """table_sizes by enumerating every multiset of table sizes (its first version), for small n."""

    def compositions(m, sizes):
        if m == 0:
            yield []
            return
        if not sizes:
            return
        first, rest = sizes[0], sizes[1:]
        for count in range(m // first, -1, -1):
            for tail in compositions(m - count * first, rest):
                yield [first] * count + tail

    def partition(sizes):
        if not sizes:
            return None
        best_key, best = None, None
        for byes in range(0, n + 1):
            for plan in compositions(n - byes, sorted(sizes, reverse=True)):
                tables = sorted(plan, reverse=True)
                key = (
                    byes,
                    sum(1 for s in tables if s != size),
                    sum(abs(s - size) for s in tables),
                    sum(1 for s in tables if s > size),
                )
                if best_key is None or key < best_key:
                    best_key, best = key, (tables, byes)
            if best is not None:
                return best
        return best

    allowed = set(choices)
    if n <= 0:
        return [], 0
    best = partition(({size} & allowed) | {s for s in (3, 4, 5) if s in allowed})
    if best is None or best[1]:
        alt = partition(allowed)
        if alt is not None and (best is None or alt[1] < best[1]):
            best = alt
    return best if best is not None else ([], n)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(0, 60),
    size=st.integers(2, 5),
    choices=st.sampled_from([MANIPULATION, GIN, (3,), (2, 3), (3, 4, 5), (2, 4), (5,), (2, 5)]),
)
def test_table_sizes_match_the_enumeration_of_every_split(n, size, choices):
    assert table_sizes(n, size, choices) == _enumerated_sizes(n, size, choices)


@pytest.mark.parametrize(
    ("n", "size", "choices", "expected"),
    [
        (1000, 4, MANIPULATION, ([4] * 250, 0)),
        (1003, 4, MANIPULATION, ([4] * 250 + [3], 0)),
        (5001, 4, MANIPULATION, ([5] + [4] * 1249, 0)),
        (5002, 5, MANIPULATION, ([5] * 999 + [4, 3], 0)),  # two tables off the size, not three
        (1001, 2, GIN, ([2] * 500, 1)),
    ],
)
def test_table_sizes_of_large_fields(n, size, choices, expected):
    assert table_sizes(n, size, choices) == expected


# ----------------------------------------------------------------- Swiss


def _field(n: int, rng: random.Random) -> list[Player]:
    players = [Player(id=f"p{i}", points=rng.choice([0, 1, 2, 4, 6, 8])) for i in range(n)]
    return sorted(players, key=lambda p: -p.points)


def _history(players: list[Player], rng: random.Random, meetings: int) -> dict[frozenset, int]:
    pairs = list(combinations([p.id for p in players], 2))
    return pairing.meetings_of(rng.sample(pairs, min(meetings, len(pairs))))


def _brute_force(players: list[Player], sizes: list[int], met) -> tuple[int, int, int]:
    """The best cost over every ordered assignment of players to tables of ``sizes``."""
    n = len(players)
    best = None
    slots = [t for t, s in enumerate(sizes) for _ in range(s)]
    seen = set()
    for perm in permutations(slots, n):
        if perm in seen:
            continue
        seen.add(perm)
        groups = [[players[i].id for i in range(n) if perm[i] == t] for t in range(len(sizes))]
        cost = seating_cost(groups, players, met)
        best = cost if best is None or cost < best else best
    return best


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(4, 8), size=st.sampled_from([2, 3, 4]))
def test_swiss_matches_brute_force_on_small_fields(seed, n, size):
    rng = random.Random(seed)
    players = _field(n, rng)
    met = _history(players, rng, rng.randint(0, n * 2))
    tables = pairing.seat_swiss(players, size=size, seat_choices=MANIPULATION, met=met)
    sizes = [len(t.players) for t in tables]
    assert sorted(p for t in tables for p in t.players) == sorted(p.id for p in players)
    got = seating_cost([t.players for t in tables], players, met)
    assert got == _brute_force(players, sizes, met)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 30), size=st.integers(2, 5), gin=st.booleans())
def test_swiss_seats_everyone_once_within_bounds(seed, n, size, gin):
    rng = random.Random(seed)
    choices = GIN if gin else MANIPULATION
    size = 2 if gin else size
    players = _field(n, rng)
    met = _history(players, rng, n)
    tables = pairing.seat_swiss(players, size=size, seat_choices=choices, met=met, budget=5_000)
    seated = [p for t in tables for p in t.players]
    assert sorted(seated) == sorted(p.id for p in players)  # everyone, exactly once
    for t in tables:
        if t.is_bye:
            assert len(t.players) == 1 and gin and n % 2 == 1
        else:
            assert len(t.players) in choices
            if size >= 3 and n >= 3:
                assert 3 <= len(t.players) <= 5
        assert t.reasons


def test_swiss_avoids_a_rematch_and_says_so():
    players = [Player(id=x, points=p) for x, p in [("alice", 6), ("bob", 6), ("carol", 4), ("dave", 4)]]
    met = pairing.meetings_of([["alice", "bob"]])
    tables = pairing.seat_swiss(players, size=2, seat_choices=GIN, met=met)
    assert [set(t.players) for t in tables] == [{"alice", "carol"}, {"bob", "dave"}]
    assert {"code": "avoids_rematch"} in tables[0].reasons
    assert tables[0].reasons[0] == {"code": "score_groups", "high": 6, "low": 4}


def test_swiss_groups_by_standing_without_history():
    players = [Player(id=i, points=10 - i) for i in range(8)]
    tables = pairing.seat_swiss(players, size=4, seat_choices=MANIPULATION, met={})
    assert [t.players for t in tables] == [(0, 1, 2, 3), (4, 5, 6, 7)]


def test_swiss_bye_goes_to_lowest_without_a_bye():
    players = [Player(id=x) for x in "abcde"]
    tables = pairing.seat_swiss(players, size=2, seat_choices=GIN, met={}, had_bye={"e"})
    byes = [t for t in tables if t.is_bye]
    assert [t.players for t in byes] == [("d",)]


def test_swiss_large_field_is_fast_enough_and_valid():
    rng = random.Random(3)
    players = _field(64, rng)
    met = _history(players, rng, 150)
    tables = pairing.seat_swiss(players, size=4, seat_choices=MANIPULATION, met=met, budget=20_000)
    assert sorted(p for t in tables for p in t.players) == sorted(p.id for p in players)


# ----------------------------------------------------------------- Swiss: large fields


def _rematches(tables, met) -> int:
    return sum(met.get(frozenset(pr), 0) for t in tables for pr in combinations(t.players, 2))


def _blocks(n: int, size: int, offset: int = 0) -> list[range]:
    return [range(k, min(k + size, n)) for k in range(offset, n, size)]


@pytest.fixture
def shallow_stack():
    """A recursion limit a little above the test's own depth: a search recursing per player would fail."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 80)
    yield
    sys.setrecursionlimit(limit)


def test_swiss_seats_1000_players_without_recursion_and_explains_every_table(shallow_stack):
    """Everyone met their block of four in round 1 and the standing order did not change (all level):
    the plain seating would repeat every table; a seating with no rematch exists (one player from
    each of four neighbouring blocks), so none is left, and every table says why it moved."""
    n = 1000
    players = [Player(id=f"p{i}", points=0) for i in range(n)]
    met = pairing.meetings_of([[f"p{i}" for i in block] for block in _blocks(n, 4)])
    tables = pairing.seat_swiss(players, size=4, seat_choices=MANIPULATION, met=met)
    assert sorted(p for t in tables for p in t.players) == sorted(p.id for p in players)
    assert [len(t.players) for t in tables] == [4] * 250
    assert _rematches(tables, met) == 0
    for t in tables:
        assert t.reasons == ({"code": "score_group", "points": 0}, {"code": "avoids_rematch"})


def test_swiss_grid_fixture_has_no_rematch_at_1000_players(shallow_stack):
    """Blocks of 16 that played rows and then columns of a 4×4 grid: the diagonals meet nobody twice."""
    n = 1000
    rows = _blocks(n, 4)
    columns = [[b + j + 4 * i for i in range(4)] for b in range(0, n - 15, 16) for j in range(4)]
    met = pairing.meetings_of(list(rows) + columns)
    players = [Player(id=i, points=0) for i in range(n)]
    tables = pairing.seat_swiss(players, size=4, seat_choices=MANIPULATION, met=met)
    assert _rematches(tables, met) == 0
    assert sorted(p for t in tables for p in t.players) == list(range(n))


def test_two_seat_swiss_of_1001_avoids_every_rematch_and_gives_one_bye(shallow_stack):
    n = 1001
    players = [Player(id=i, points=(n - i) // 10) for i in range(n)]
    met = pairing.meetings_of(_blocks(n - 1, 2))  # last round: 0–1, 2–3, ... in today's order
    tables = pairing.seat_swiss(players, size=2, seat_choices=GIN, met=met, had_bye={n - 1})
    byes = [t for t in tables if t.is_bye]
    assert [t.players for t in byes] == [(n - 2,)]  # the lowest without a bye
    assert _rematches(tables, met) == 0 and len(tables) == 501


@pytest.mark.parametrize(("size", "choices", "forced"), [(4, MANIPULATION, 3), (2, GIN, 1)])
def test_a_player_who_met_everyone_forces_only_their_own_rematches(size, choices, forced):
    """In a field of 400, player 0 met all 399 others: their table repeats a meeting per table-mate
    (3 at tables of 4, 1 at tables of 2), and no other table repeats any."""
    n = 400
    others = _blocks(n, size, offset=1)
    met = pairing.meetings_of([(0, i) for i in range(1, n)] + list(others))
    players = [Player(id=i) for i in range(n)]
    tables = pairing.seat_swiss(players, size=size, seat_choices=choices, met=met)
    assert _rematches(tables, met) == forced
    (first,) = [t for t in tables if 0 in t.players]
    assert any(r["code"] == "rematch_unavoidable" for r in first.reasons)
    assert all(r["code"] != "rematch_unavoidable" for t in tables if t is not first for r in t.reasons)


def _swap_lowers_rematches(groups, met) -> bool:
    def count(group):
        return sum(met.get(frozenset(pr), 0) for pr in combinations(group, 2))

    for a, b in combinations(groups, 2):
        before = count(a) + count(b)
        for x in a:
            for y in b:
                a2 = [y if p == x else p for p in a]
                b2 = [x if p == y else p for p in b]
                if count(a2) + count(b2) < before:
                    return True
    return False


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(17, 70), size=st.sampled_from([2, 3, 4, 5]))
def test_swiss_leaves_no_rematch_a_single_swap_would_remove(seed, n, size):
    rng = random.Random(seed)
    players = _field(n, rng)
    met = _history(players, rng, n * 3)
    tables = pairing.seat_swiss(players, size=size, seat_choices=MANIPULATION, met=met)
    assert sorted(p for t in tables for p in t.players) == sorted(p.id for p in players)
    assert not _swap_lowers_rematches([list(t.players) for t in tables], met)


def test_lanes_keep_every_player_in_their_seat():
    """The hook for duplicate seating: seat k of every table is lane k; swaps stay within a lane."""
    tables, size = 50, 4
    n = tables * size
    layout = [[k * tables + t for k in range(size)] for t in range(tables)]  # one player of each lane
    lanes = [p // tables for p in range(n)]
    history = [[layout[t][0], layout[t][1]] for t in range(tables)]  # lanes 0 and 1 of a table met
    field = seating.Field.of(list(range(n)), [0] * n, pairing.meetings_of(history), sizes=[size] * tables)
    groups = seating.seat(field, [size] * tables, lanes=lanes, start=layout)
    assert sorted(p for g in groups for p in g) == list(range(n))
    assert all(lanes[p] == k for g in groups for k, p in enumerate(g))
    assert sum(field.meetings(g) for g in groups) == 0


# ----------------------------------------------------------------- round robin


@pytest.mark.parametrize("n", [4, 6, 7, 8])
def test_two_seat_round_robin_meets_everyone_exactly_once(n):
    ids = [f"p{i}" for i in range(n)]
    players = [Player(id=i) for i in ids]
    rounds = pairing.round_robin_rounds(n, 2)
    met: dict[frozenset, int] = {}
    byes = {i: 0 for i in ids}
    for r in range(rounds):
        tables = pairing.seat_round_robin(players, round_index=r, size=2, seat_choices=GIN, met=met, roster=ids)
        assert sorted(p for t in tables for p in t.players) == sorted(ids)
        for t in tables:
            if t.is_bye:
                byes[t.players[0]] += 1
        met = {**met}
        for key, count in pairing.meetings_of([t.players for t in tables if not t.is_bye]).items():
            met[key] = met.get(key, 0) + count
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert set(byes.values()) == ({1} if n % 2 else {0})


def test_round_robin_with_tables_of_three_avoids_repeats_early():
    players = [Player(id=i) for i in range(9)]
    met: dict[frozenset, int] = {}
    for r in range(2):
        tables = pairing.seat_round_robin(players, round_index=r, size=3, seat_choices=MANIPULATION, met=met)
        assert sorted(len(t.players) for t in tables) == [3, 3, 3]
        for key, count in pairing.meetings_of([t.players for t in tables]).items():
            met[key] = met.get(key, 0) + count
    assert set(met.values()) == {1}  # 18 distinct pairs, none twice


# ----------------------------------------------------------------- elimination


def test_elimination_bracket_gives_byes_to_top_seeds():
    tables = pairing.seat_elimination_first(["s1", "s2", "s3", "s4", "s5"])
    assert [(t.players, t.is_bye) for t in tables] == [
        (("s1",), True),
        (("s4", "s5"), False),
        (("s2",), True),
        (("s3",), True),
    ]
    nxt = pairing.seat_elimination_next(["s1", "s5", "s2", "s3"])
    assert [t.players for t in nxt] == [("s1", "s5"), ("s2", "s3")]
    assert pairing.elimination_rounds(5) == 3
    assert pairing.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_elimination_walkover_when_a_table_has_no_winner():
    tables = pairing.seat_elimination_next(["a", None, "c", "d"])
    assert [(t.players, t.is_bye) for t in tables] == [(("a",), True), (("c", "d"), False)]


# ----------------------------------------------------------------- standings


def test_placements_share_ties_and_put_forfeits_last():
    assert placements([120, 80, 80, 10], [True, False, False, False]) == [1, 2, 2, 4]
    assert placements([150, 40], [True, False], [True, False]) == [2, 1]
    assert placements([100, 100, 0], [True, True, False]) == [1, 1, 3]


def test_points_scheme_and_scaling():
    scheme = {"4": [4, 2, 1, 0]}
    assert points_for(4, scheme) == [4, 2, 1, 0]
    assert points_for(2, scheme) == [4, 0]
    assert points_for(3, scheme) == [4, 2, 0]


def test_standings_hand_computed_tie_breaks():
    """Two rounds of four players at tables of two (4/0 points).

    R1: A beat B (150–60), C beat D (150–100).  R2: A beat C (150–30), D beat B (150–20).
    Points: A 8, C 4, D 4, B 0.  C and D tie on points; game points C 180, D 250 -> D ahead.
    Opponents' average (their tournament points): A met B(0), C(4) -> 2; D met C(4), B(0) -> 2;
    C met D(4), A(8) -> 6; B met A(8), D(4) -> 6.
    """
    results = [
        SeatResult("t1", "A", 4, 150, 1),
        SeatResult("t1", "B", 0, 60, 2),
        SeatResult("t2", "C", 4, 150, 1),
        SeatResult("t2", "D", 0, 100, 2),
        SeatResult("t3", "A", 4, 150, 1),
        SeatResult("t3", "C", 0, 30, 2),
        SeatResult("t4", "D", 4, 150, 1),
        SeatResult("t4", "B", 0, 20, 2),
    ]
    rows = compute_standings([(x, x, 0, False) for x in "ABCD"], results)
    assert [(r.entry, r.rank, r.points, r.game_points) for r in rows] == [
        ("A", 1, 8, 300),
        ("D", 2, 4, 250),
        ("C", 3, 4, 180),
        ("B", 4, 0, 80),
    ]
    assert {r.entry: r.opponents_average for r in rows} == {
        "A": Fraction(2),
        "D": Fraction(2),
        "C": Fraction(6),
        "B": Fraction(6),
    }


def test_standings_opponents_average_breaks_equal_game_points():
    """E and F have equal points and game points; E's opponents scored more."""
    results = [
        SeatResult("t1", "E", 4, 100, 1),
        SeatResult("t1", "G", 0, 0, 2),
        SeatResult("t2", "F", 4, 100, 1),
        SeatResult("t2", "H", 0, 0, 2),
        SeatResult("t3", "G", 4, 0, 1),
        SeatResult("t3", "H", 0, 0, 2),
        SeatResult("bye", "X", 4, 0, 1, is_bye=True),
    ]
    rows = compute_standings([(x, x, 0, False) for x in "EFGHX"], results)
    order = [r.entry for r in rows]
    assert order.index("E") < order.index("F")
    e, f = (next(r for r in rows if r.entry == x) for x in "EF")
    assert (e.opponents_average, f.opponents_average) == (Fraction(4), Fraction(0))
    x = next(r for r in rows if r.entry == "X")
    assert (x.byes, x.played, x.opponents_average) == (1, 0, 0)


def test_equal_keys_share_a_rank():
    results = [SeatResult("t1", "A", 2, 10, 1), SeatResult("t1", "B", 2, 10, 1)]
    rows = compute_standings([("A", "A", 0, False), ("B", "B", 0, False)], results)
    assert [r.rank for r in rows] == [1, 1]


def test_pairing_and_standings_import_no_django():
    code = (
        "import sys; import games.tournaments.pairing, games.tournaments.seating, games.tournaments.standings; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'channels'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
