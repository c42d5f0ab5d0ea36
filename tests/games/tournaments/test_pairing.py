"""Tournament seating and standings: pure functions, no database (games/tournaments/pairing.py, standings.py)."""

from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments import pairing
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
@given(seed=st.integers(0, 10_000), n=st.integers(2, 30), size=st.integers(2, 5),
       gin=st.booleans())
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
        (("s1",), True), (("s4", "s5"), False), (("s2",), True), (("s3",), True)]
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
        SeatResult("t1", "A", 4, 150, 1), SeatResult("t1", "B", 0, 60, 2),
        SeatResult("t2", "C", 4, 150, 1), SeatResult("t2", "D", 0, 100, 2),
        SeatResult("t3", "A", 4, 150, 1), SeatResult("t3", "C", 0, 30, 2),
        SeatResult("t4", "D", 4, 150, 1), SeatResult("t4", "B", 0, 20, 2),
    ]
    rows = compute_standings([(x, x, 0, False) for x in "ABCD"], results)
    assert [(r.entry, r.rank, r.points, r.game_points) for r in rows] == [
        ("A", 1, 8, 300), ("D", 2, 4, 250), ("C", 3, 4, 180), ("B", 4, 0, 80)]
    assert {r.entry: r.opponents_average for r in rows} == {
        "A": Fraction(2), "D": Fraction(2), "C": Fraction(6), "B": Fraction(6)}


def test_standings_opponents_average_breaks_equal_game_points():
    """E and F have equal points and game points; E's opponents scored more."""
    results = [
        SeatResult("t1", "E", 4, 100, 1), SeatResult("t1", "G", 0, 0, 2),
        SeatResult("t2", "F", 4, 100, 1), SeatResult("t2", "H", 0, 0, 2),
        SeatResult("t3", "G", 4, 0, 1), SeatResult("t3", "H", 0, 0, 2),
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
    code = ("import sys; import games.tournaments.pairing, games.tournaments.standings; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'channels'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
