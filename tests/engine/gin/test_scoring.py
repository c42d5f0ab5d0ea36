"""Gin scoring and match bookkeeping: RULES C.7, C.9, C.10, C.11 (G1-G7), D.1.6-D.1.9, D.2.3/D.2.5, D.3."""

import random

import pytest

from games.engine import gin
from games.engine.errors import InvalidAction
from games.engine.gin import (
    GinMatch,
    GinRules,
    gin_final_totals,
    gin_hand_result,
    gin_next_dealer,
    gin_next_roles,
    settle_knock,
)

P1, P2, P3 = 0, 1, 2


# RULES C.11 — the worked examples, as (roles before, knocker role, K, D, expected winner role, points, roles after)
@pytest.mark.parametrize(
    "name, before, knocker, k, d, kind, winner, points, after",
    [
        ("G1", (P1, P2, P3), "box", 6, 20, "knock", P1, 14, (P1, P3, P2)),
        ("G2", (P1, P3, P2), "captain", 8, 8, "undercut", P1, 10, (P1, P2, P3)),
        ("G3", (P1, P2, P3), "box", 9, 4, "undercut", P2, 15, (P2, P3, P1)),
        ("G4", (P2, P3, P1), "captain", 0, 31, "gin", P3, 56, (P3, P1, P2)),
        ("G5", (P3, P1, P2), "box", 0, 0, "gin", P3, 25, (P3, P2, P1)),
        ("G7", (P1, P2, P3), "captain", 7, 5, "undercut", P1, 12, (P1, P3, P2)),  # box stays
    ],
)
def test_worked_examples_c11(name, before, knocker, k, d, kind, winner, points, after):
    rules = GinRules.box3()
    out, who, pts = gin_hand_result(k, d, rules)
    assert (out, pts) == (kind, points)
    box, captain, _ = before
    knocker_seat = box if knocker == "box" else captain
    defender_seat = captain if knocker == "box" else box
    assert (knocker_seat if who == "knocker" else defender_seat) == winner
    m = GinMatch.start(rules, roles=before).record((winner, pts, kind))
    assert m.roles == after
    assert m.scores[winner] == points and sum(m.scores) == points
    assert gin_next_roles(before, winner) == after


def test_dead_hand_g6_changes_nothing():
    # RULES C.11 G6, C.8: nobody scores, same roles, the same box deals again
    m = GinMatch.start(GinRules.box3(), roles=(P3, P2, P1))
    m2 = m.record((None, 0, "dead"))
    assert m2.roles == (P3, P2, P1) and m2.scores == (0, 0, 0) and m2.next_round_kwargs() == {"roles": [P3, P2, P1]}


def test_game_end_example_c11():
    # RULES C.11 game-end: P3 has 95, wins 12 as captain → 107 and wins; the advisor gets nothing
    m = GinMatch(GinRules.box3(), (P1, P3, P2), P1, (40, 30, 95), (2, 1, 5), (2, 1, 5))
    m2 = m.record((P3, 12, "undercut"))
    assert m2.scores == (40, 30, 107) and m2.is_over and m2.winner == P3
    assert m2.final_totals() == [40, 30, 107]  # C.10.2: no bonuses by default for three players


def test_three_player_end_bonuses_option():
    # RULES C.10.2 option end_bonuses: +100 to the winner, box bonus per hand won, not counted towards 100
    rules = GinRules.box3(end_bonuses=True, box_bonus=20)
    assert gin_final_totals([107, 40, 30], [5, 2, 1], rules) == [107 + 100 + 100, 40 + 40, 30 + 20]
    # shutout [ext]: another player ended with 0 → game bonus 200
    assert gin_final_totals([107, 0, 30], [5, 0, 1], rules) == [107 + 200 + 100, 0, 30 + 20]


def test_hand_scores_c7_d16():
    r = GinRules.two_player()
    assert gin_hand_result(0, 31, r) == ("gin", "knocker", 56)  # C.7.1
    assert gin_hand_result(0, 31, GinRules.two_player(gin_bonus=20)) == ("gin", "knocker", 51)
    assert gin_hand_result(4, 22, r) == ("knock", "knocker", 18)  # C.7.2
    assert gin_hand_result(9, 4, r) == ("undercut", "defender", 15)  # C.7.3
    assert gin_hand_result(9, 4, GinRules.two_player(undercut_bonus=25)) == ("undercut", "defender", 30)
    assert gin_hand_result(5, 5, r) == ("undercut", "defender", 10)  # E.2 undercut_on_tie default
    assert gin_hand_result(5, 5, GinRules.two_player(undercut_on_tie=False)) == ("tie", None, 0)
    assert gin_hand_result(0, 0, r) == ("gin", "knocker", 25)  # gin can never be undercut
    assert gin_hand_result(0, 10, GinRules.two_player(big_gin=31), big_gin=True)[2] == 41  # D.1.6 big gin
    assert gin_hand_result(0, 10, GinRules.two_player(big_gin="gin+6"), big_gin=True)[2] == 41


def test_oklahoma_example_d25():
    # RULES D.2.5: upcard 6♠ → limit 6, doubled; A knocks with 4, B has 22 → (22-4)×2 = 36
    r = GinRules.oklahoma()
    assert gin.oklahoma_knock_limit(gin.card_index("6S"), r) == 6
    assert gin_hand_result(4, 22, r, multiplier=2) == ("knock", "knocker", 36)
    assert gin.oklahoma_knock_limit(gin.card_index("AD"), r) == 0  # gin only
    assert gin.oklahoma_knock_limit(gin.card_index("AD"), GinRules.oklahoma(oklahoma_ace="one")) == 1
    assert gin.oklahoma_knock_limit(gin.card_index("QH"), r) == 10


def test_two_player_example_d19():
    # RULES D.1.9 (classic box bonus 20): A 5 hands to 104, B 3 hands with 60
    rules = GinRules.two_player(box_bonus=20)
    m = GinMatch.start(rules, dealer=0)
    for w, p in [(0, 20), (1, 20), (0, 20), (1, 20), (0, 20), (1, 20), (0, 20), (0, 24)]:
        m = m.record((w, p, "knock"))
    assert m.scores == (104, 60) and m.hands_won == (5, 3) and m.is_over
    assert m.final_totals() == [304, 120] and m.margin == 184 and m.winner == 0
    assert gin_final_totals([104, 0], [5, 0], rules) == [404, 0]  # shutout: game bonus 200
    assert gin_final_totals([104, 0], [5, 0], GinRules.two_player(box_bonus=20, shutout="double")) == [408, 0]
    assert gin_final_totals([104, 0], [5, 0], GinRules.two_player(box_bonus=20, shutout="off")) == [304, 0]


@pytest.mark.parametrize(
    "option, dealer, winner, expected",
    [
        ("winner", 0, 1, 1),
        ("winner", 0, 0, 0),
        ("alternate", 0, 0, 1),
        ("loser", 0, 0, 1),
        ("loser", 1, 0, 1),
        ("winner", 1, None, 1),
    ],
)
def test_two_player_dealer_rotation_d12(option, dealer, winner, expected):
    assert gin_next_dealer(dealer, winner, GinRules.two_player(dealer_2p=option)) == expected


def test_oklahoma_boxes_doubling_option():
    # RULES D.2.3: box bonuses are not doubled (option: double them too)
    m = GinMatch.start(GinRules.oklahoma(), dealer=0).record((0, 36, "knock", 2))
    assert m.boxes == (1, 0)
    m = GinMatch.start(GinRules.oklahoma(oklahoma_double_boxes=True), dealer=0).record((0, 36, "knock", 2))
    assert m.boxes == (2, 0) and m.hands_won == (1, 0)
    assert not m.is_over and GinRules.oklahoma().game_target == 150


def test_hollywood_example_d34():
    # RULES D.3.4 (target 100; per-player win counters); A = seat 0, B = seat 1
    m = GinMatch.start(GinRules.hollywood(), dealer=0)
    steps = [
        (0, 18, [(18, 0), (0, 0), (0, 0)]),
        (1, 12, [(18, 12), (0, 0), (0, 0)]),
        (0, 25, [(43, 12), (25, 0), (0, 0)]),
        (1, 30, [(43, 42), (25, 30), (0, 0)]),
        (0, 15, [(58, 42), (40, 30), (15, 0)]),
        (0, 22, [(80, 42), (62, 30), (37, 0)]),
        (1, 20, [(80, 62), (62, 50), (37, 20)]),
    ]
    for w, p, cols in steps:
        m = m.record((w, p, "knock"))
        assert [g.scores for g in m.hollywood] == cols
    assert not m.is_over
    m = m.record((0, 25, "knock"))  # G1 reaches 105 for A and closes
    assert [g.closed for g in m.hollywood] == [True, False, False]
    m2 = m.record((1, 10, "knock"))  # B's 4th win: G1 closed, enters G2 and G3 only
    assert m2.hollywood[0].scores == (105, 62) and m2.hollywood[1].scores == (87, 60)
    rt = GinMatch.from_dict(m2.to_dict())
    assert rt == m2


def test_hollywood_game_totals_and_end():
    m = GinMatch.start(GinRules.hollywood(), dealer=0)
    for _ in range(4):
        m = m.record((0, 50, "knock"))
    # A's wins: 1st → G1 50; 2nd → G1 100 (closed), G2 50; 3rd → G2 100 (closed), G3 50; 4th → G3 100
    assert m.is_over and [g.scores for g in m.hollywood] == [(100, 0), (100, 0), (100, 0)]
    per = m.game_totals()
    # each game: 100 + shutout game bonus 200 + boxes 25 × (2, 2, 2)
    assert per == [[350, 0], [350, 0], [350, 0]] and m.final_totals() == [1050, 0] and m.winner == 0


def test_match_roles_drawn_and_serialised():
    m = GinMatch.start(GinRules.box3(), random.Random(7))
    assert sorted(m.roles) == [0, 1, 2] and m.role_draw is not None
    assert GinMatch.from_dict(m.to_dict()) == m
    with pytest.raises(InvalidAction):
        m.record((m.advisor, 10, "knock"))


def test_settlement_points_match_scoring():
    s = settle_knock("AS 2S 3S 4S 7H 7D 7C AH 2D 3C", "5S 7S 9H 9D 9C 4H 5H 6H JH QD")
    assert (s.knocker_deadwood, s.defender_deadwood, s.outcome, s.winner, s.points) == (6, 20, "knock", "knocker", 14)
