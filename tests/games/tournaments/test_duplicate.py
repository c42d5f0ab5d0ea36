"""Duplicate scoring and seating, pure (issue 18 §1–3): matchpoints on a fixture computed by hand, the
scaling of off-size tables and of deals a table did not reach, the standings order, the lanes of a
field of 11 at tables of 4, and the seat positions that make every table's deal N the same cards."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from games.engine import shuffle
from games.engine.gin import GinMatch
from games.engine.scoring import MatchTally
from games.tournaments import pairing
from games.tournaments.duplicate import Holding, SeatedTable, matchpoints, scaled, score_round
from games.tournaments.standings import SeatResult, compute_standings
from games.variants import spec_for

F = Fraction


def test_matchpoints_two_per_result_beaten_one_per_tie():
    # +12 beats −20 and 5 (4) and ties the other +12 (1); 5 beats −20 only; −20 beats nobody.
    assert matchpoints([12, -20, 12, 5]) == [5, 0, 5, 2]
    assert sum(matchpoints([12, -20, 12, 5])) == 4 * 3  # every pair shares 2 points
    assert matchpoints([0, 0, 0]) == [2, 2, 2]
    assert matchpoints([7]) == [0]


def test_matchpoints_agree_with_the_definition_on_random_groups():
    rng = random.Random(18)
    for _ in range(300):
        results = [rng.randrange(-3, 4) for _ in range(rng.randrange(1, 10))]
        by_definition = [
            sum(2 if r > o else 1 if r == o else 0 for j, o in enumerate(results) if j != i)
            for i, r in enumerate(results)
        ]
        assert matchpoints(results) == by_definition


def test_scaling_keeps_a_full_group_and_gives_a_lone_result_the_average():
    assert scaled(5, 4, 4) == 5
    assert scaled(0, 1, 4) == 3  # the average of a group of 4 (top 6)
    assert scaled(2, 2, 3) == F(7, 2)  # the top of 2 results, scaled to 3: (2 + 1) · 3/2 − 1


def fixture():
    """Round of three two-seat tables and one of three, plus a bye (hand-computed below)."""
    tables = [
        SeatedTable(1, ("a", "b")),
        SeatedTable(2, ("c", "d")),
        SeatedTable(3, ("e", "f")),
        SeatedTable(4, ("g", "h", "i")),
        SeatedTable(5, ("j",), is_bye=True),
    ]
    h = Holding
    holdings = [
        # deal 1, tables of 2: seat A +10 / +10 / −5, seat B −10 / 0 / +5
        h(1, 2, 1, 0, "a", 10),
        h(2, 2, 1, 0, "c", 10),
        h(3, 2, 1, 0, "e", -5),
        h(1, 2, 1, 1, "b", -10),
        h(2, 2, 1, 1, "d", 0),
        h(3, 2, 1, 1, "f", 5),
        # deal 1, the table of 3 (alone at its size)
        h(4, 3, 1, 0, "g", 7),
        h(4, 3, 1, 1, "h", 0),
        h(4, 3, 1, 2, "i", -7),
        # deal 2: only tables 1 and 2 got that far
        h(1, 2, 2, 0, "a", 3),
        h(2, 2, 2, 0, "c", 3),
        h(1, 2, 2, 1, "b", -3),
        h(2, 2, 2, 1, "d", -8),
    ]
    return tables, holdings


def test_a_round_scored_by_hand():
    tables, holdings = fixture()
    scores = score_round(tables, holdings)
    assert scores.reference == 3 and scores.deals == 2 and scores.sizes == (2, 3) and scores.mixed_sizes
    groups = {(g.deal, g.size, g.letter): g for g in scores.groups}
    seat_a = groups[(1, 2, "A")]
    assert [(r.holding.entry, r.raw, r.matchpoints, r.difference) for r in seat_a.rows] == [
        ("a", 3, 3, 5),
        ("c", 3, 3, 5),
        ("e", 0, 0, -10),
    ]  # average (10 + 10 − 5) / 3 = 5
    seat_b = groups[(1, 2, "B")]
    assert seat_b.average == F(-5, 3)
    assert [(r.holding.entry, r.raw) for r in seat_b.rows] == [("f", 4), ("d", 2), ("b", 0)]
    # The lone table of 3 is compared with nobody: each of its seats scores the average, 2 of 4.
    assert [r.matchpoints for g in scores.groups if g.size == 3 for r in g.rows] == [2, 2, 2]
    # Deal 2, two results scaled to three: a tie 1 → 2; 2 → 3.5; 0 → 0.5.
    assert [(r.holding.entry, r.matchpoints) for r in groups[(2, 2, "A")].rows] == [("a", 2), ("c", 2)]
    assert [(r.holding.entry, r.matchpoints) for r in groups[(2, 2, "B")].rows] == [("b", F(7, 2)), ("d", F(1, 2))]
    # Deals a table did not reach (tables 3 and 4, deal 2) and the bye's two deals: the average, 2 each.
    mp = {e: t.matchpoints for e, t in scores.totals.items()}
    assert mp == {"a": 5, "c": 5, "e": 2, "b": F(7, 2), "d": F(5, 2), "f": 6, "g": 4, "h": 4, "i": 4, "j": 4}
    assert {e: t.averaged for e, t in scores.totals.items() if t.averaged} == {
        "e": 1,
        "f": 1,
        "g": 1,
        "h": 1,
        "i": 1,
        "j": 2,
    }
    assert scores.totals["a"].difference == 5 and scores.totals["e"].difference == -10


def test_standings_order_by_matchpoints_then_difference_then_placement_points():
    tables, holdings = fixture()
    scores = score_round(tables, holdings)
    duplicate = {e: (t.matchpoints, t.difference) for e, t in scores.totals.items()}
    entries = [(e, e, 0, False) for e in "abcdefghij"]
    # a won table 1, c lost table 2: equal matchpoints and difference, so placement points decide.
    results = [
        SeatResult(1, "a", 4, placement=1),
        SeatResult(1, "b", 0, placement=2),
        SeatResult(2, "c", 0, placement=2),
        SeatResult(2, "d", 4, placement=1),
        SeatResult(5, "j", 4, is_bye=True),
    ]
    rows = compute_standings(entries, results, duplicate, by_difference=True)
    assert [r.entry for r in rows] == ["f", "a", "c", "j", "g", "h", "i", "b", "d", "e"]
    ranks = {r.entry: r.rank for r in rows}
    assert ranks["a"] == 2 and ranks["c"] == 3  # placement points break the tie
    # g, h and i share everything: one rank; j (a bye: 4 placement points) stands above them.
    assert ranks["j"] == 4 and ranks["g"] == ranks["h"] == ranks["i"] == 5


def test_the_difference_from_the_average_breaks_ties_only_when_scored():
    entries = [("x", "x", 0, False), ("y", "y", 0, False)]
    duplicate = {"x": (F(4), F(-3)), "y": (F(4), F(6))}
    results = [SeatResult(1, "x", 4, placement=1), SeatResult(1, "y", 0, placement=2)]
    assert [r.entry for r in compute_standings(entries, results, duplicate, by_difference=True)] == ["y", "x"]
    assert [r.entry for r in compute_standings(entries, results, duplicate)] == ["x", "y"]


def test_a_field_of_eleven_at_tables_of_four_sits_in_lanes():
    players = [pairing.Player(id=f"p{i}", points=20 - i) for i in range(11)]
    tables = pairing.seat_duplicate(players, size=4, seat_choices=(2, 3, 4, 5), met={})
    assert [len(t.players) for t in tables] == [4, 4, 3]
    rank = {p.id: i + 1 for i, p in enumerate(players)}
    # Seat k of the tables of 4 goes to the k-th pair of the standings, snaking (1 2 | 4 3 | 5 6 | 8 7).
    assert [[rank[p] for p in t.players] for t in tables[:2]] == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert [rank[p] for p in tables[2].players] == [9, 10, 11]
    assert tables[0].reasons[0] == {"code": "duplicate_lanes", "lanes": [[1, 2], [3, 4], [5, 6], [7, 8]]}
    assert {"code": "table_size", "seats": 3} in tables[2].reasons


def test_lanes_avoid_a_rematch_by_swapping_inside_a_lane():
    players = [pairing.Player(id=i) for i in range(16)]  # four tables of 4: lanes of 4
    met = pairing.meetings_of([[0, 7, 8, 15]])  # the layout's first table met before
    tables = pairing.seat_duplicate(players, size=4, seat_choices=(4,), met=met)
    layout, lanes = pairing.duplicate_layout([4, 4, 4, 4], 4)
    assert layout[0] == [0, 7, 8, 15]
    assert all(sum(met.get(frozenset((a, b)), 0) for a in t.players for b in t.players if a < b) == 0 for t in tables)
    for seat in range(4):  # every player kept their lane's seat
        assert {lanes[t.players[seat]] for t in tables} == {(0, seat)}


def test_other_formats_keep_their_tables_with_seats_in_standing_order():
    players = [pairing.Player(id=i) for i in range(4)]
    tables = [pairing.Table(players=(3, 0)), pairing.Table(players=(2, 1)), pairing.Table(players=(9,), is_bye=True)]
    ordered = pairing.in_standing_order(tables, players)
    assert [t.players for t in ordered] == [(0, 3), (1, 2), (9,)]
    assert ordered[0].reasons[-1] == {"code": "duplicate_order"}


# ----------------------------------------------------------------- the same cards per seat position


def hands_by_position(variant: str, seats: int, setup: dict, seed: str) -> list[list[str]]:
    spec = spec_for(variant)
    rules = spec.rules({}, seats)
    state, dealer = spec.deal(rules, setup, shuffle.DealRandom(seed))
    dealt = spec.dealt(rules, setup, state)
    return [sorted(dealt["hands"][seat]) for seat in spec.deal_positions(setup, dealer, seats)]


@pytest.mark.parametrize(
    ("variant", "seats", "setups"),
    [
        # (A first round draws its dealer from the seed: the same at every table of a size.)
        ("manipulation", 4, [{**MatchTally.start(4).to_dict(), "dealer": d} for d in (2, 0, 3)]),
        ("gin", 2, [GinMatch.start(spec_for("gin").rules({}, 2), dealer=d).to_dict() for d in (0, 1)]),
        (
            "gin_box",
            3,
            [
                GinMatch.start(spec_for("gin_box").rules({}, 3), roles=r).to_dict()
                for r in ((0, 1, 2), (2, 0, 1), (1, 2, 0))
            ],
        ),
    ],
)
def test_one_seed_deals_each_seat_position_the_same_cards_whoever_deals(variant, seats, setups):
    """Tables of one duplicate deal may have different dealers (Gin: the winner deals next): the hands
    follow the deal's order, so seat A's cards are the same at every table."""
    seed = shuffle.new_seed()
    dealt = [hands_by_position(variant, seats, setup, seed) for setup in setups]
    assert all(d == dealt[0] for d in dealt)
    assert len({tuple(h) for h in dealt[0] if h}) == len([h for h in dealt[0] if h])  # different hands


def test_gin_results_are_points_for_or_against():
    gin, box = spec_for("gin"), spec_for("gin_box")
    assert gin.deal_results([0, 25], {"roles": None}, 2) == [-25, 25]
    # box 2, captain 0, advisor 1: the team won 18; the advisor shares the captain's result.
    assert box.deal_results([18, 0, 0], {"roles": [2, 0, 1]}, 3) == [18, 18, -18]
    assert box.deal_positions({"roles": [2, 0, 1]}, 2, 3) == [0, 2, 1]
    assert spec_for("manipulation").deal_results([-12, 30, 4], {}, 3) == [-12, 30, 4]
    assert spec_for("manipulation").deal_positions({}, 1, 3) == [2, 0, 1]
