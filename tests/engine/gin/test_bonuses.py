"""Gin score breakdowns from the engine: the parts of a hand's score (RULES C.7, D.1.6, D.2.3) and the
end-of-game bonuses (C.10.2, D.1.8, D.1.9, D.3.3), one breakdown that the board, the history and the
stored round reasons only format."""

import pytest

from games.engine.gin import (
    EndBonus,
    GinMatch,
    GinRules,
    ScorePart,
    gin_end_bonuses,
    gin_final_totals,
    gin_hand_parts,
)


def _parts(parts):
    return [(p.kind, p.points) for p in parts]


# RULES C.7 / D.1.6 / D.2.3: (kind, K, D, options, multiplier, big gin) → the parts of the winner's score
@pytest.mark.parametrize(
    "kind, k, d, options, mult, big, expected",
    [
        ("gin", 0, 31, {}, 1, False, [("deadwood", 31), ("gin_bonus", 25)]),  # C.7.1: D + 25
        ("gin", 0, 31, {"gin_bonus": 20}, 1, False, [("deadwood", 31), ("gin_bonus", 20)]),  # E.2 option
        ("knock", 4, 22, {}, 1, False, [("difference", 18)]),  # C.7.2: D - K
        ("undercut", 9, 4, {}, 1, False, [("difference", 5), ("undercut_bonus", 10)]),  # C.7.3
        ("undercut", 9, 4, {"undercut_bonus": 25}, 1, False, [("difference", 5), ("undercut_bonus", 25)]),
        # D.2.3 Oklahoma spades: the whole score doubled; the part carries the multiplier
        ("knock", 4, 22, {}, 2, False, [("difference", 18), ("doubled", 2)]),
        # D.1.6 big gin: marked (points 0) after the gin parts
        ("gin", 0, 10, {"big_gin": "31"}, 1, True, [("deadwood", 10), ("gin_bonus", 25), ("big_gin", 0)]),
        ("dead", 0, 0, {}, 1, False, []),  # C.8: nobody scores
    ],
)
def test_hand_parts_c7_d16_d23(kind, k, d, options, mult, big, expected):
    rules = GinRules.two_player(**options)
    parts = gin_hand_parts(kind, k, d, rules, multiplier=mult, big_gin=big)
    assert _parts(parts) == expected
    assert all(isinstance(p, ScorePart) for p in parts)


def test_hand_part_as_stored_reason():
    # The round's stored reasons (docs/game-record.md) are the parts as {"code", "points"}
    part = gin_hand_parts("gin", 0, 31, GinRules.two_player())[1]
    assert part.to_dict() == {"code": "gin_bonus", "points": 25}


def test_end_bonuses_two_player_example_d19():
    # RULES D.1.9 classic: A 104 with 5 hands, B 60 with 3; box bonus 20, game bonus 100
    rules = GinRules.two_player(box_bonus=20)
    bonuses = gin_end_bonuses([104, 60], [5, 3], rules)
    assert set(bonuses) == {
        EndBonus("box", 0, 100, count=5),
        EndBonus("box", 1, 60, count=3),
        EndBonus("game", 0, 100),
    }
    # the totals are the points plus the bonuses (D.1.8), as gin_final_totals says
    assert gin_final_totals([104, 60], [5, 3], rules) == [104 + 100 + 100, 60 + 60]


@pytest.mark.parametrize(
    "shutout, extra",
    [("game_bonus_200", 100), ("double", 104), ("off", None)],  # D.1.8: 200 instead of 100, or points doubled
)
def test_end_bonuses_shutout_d18(shutout, extra):
    rules = GinRules.two_player(box_bonus=20, shutout=shutout)
    bonuses = gin_end_bonuses([104, 0], [5, 0], rules)
    shut = [b for b in bonuses if b.kind == "shutout"]
    assert shut == ([] if extra is None else [EndBonus("shutout", 0, extra)])
    assert sum(b.points for b in bonuses) == gin_final_totals([104, 0], [5, 0], rules)[0] - 104


def test_no_end_bonuses_for_three_players_by_default_c102():
    # RULES C.10.2: the three-handed text awards none; the option end_bonuses turns them on
    assert gin_end_bonuses([107, 40, 30], [5, 2, 1], GinRules.box3()) == ()
    on = gin_end_bonuses([107, 40, 30], [5, 2, 1], GinRules.box3(end_bonuses=True, box_bonus=20))
    assert {(b.kind, b.seat, b.points) for b in on} == {
        ("box", 0, 100),
        ("box", 1, 40),
        ("box", 2, 20),
        ("game", 0, 100),
    }


def test_no_game_bonus_before_the_target_or_on_a_tie_c101():
    rules = GinRules.two_player()
    assert {b.kind for b in gin_end_bonuses([90, 80], [3, 2], rules)} == {"box"}
    assert {b.kind for b in gin_end_bonuses([100, 100], [3, 2], rules)} == {"box"}


def test_match_breakdown_two_player_d19():
    rules = GinRules.two_player(box_bonus=20)
    m = GinMatch.start(rules, dealer=0)
    for w, p in [(0, 20), (1, 20), (0, 20), (1, 20), (0, 20), (1, 20), (0, 20), (0, 24)]:
        m = m.record((w, p, "knock"))
    b = m.end_breakdown()
    assert b.points == (104, 60) and b.boxes == (5, 3)
    assert (b.bonus(0, "box"), b.bonus(0, "game", "shutout"), b.bonus(1, "box")) == (100, 100, 60)
    assert list(b.totals) == m.final_totals() == [304, 120]


def test_match_breakdown_oklahoma_doubled_boxes_d23():
    # D.2.3 option: a doubled hand counts two boxes; the breakdown counts box units
    m = GinMatch.start(GinRules.oklahoma(oklahoma_double_boxes=True), dealer=0).record((0, 36, "knock", 2))
    assert m.end_breakdown().boxes == (2, 0)


def test_match_breakdown_hollywood_d33():
    # RULES D.3.3: each game settled separately with its own bonuses; the points are the games' scores summed
    m = GinMatch.start(GinRules.hollywood(), dealer=0)
    for _ in range(4):
        m = m.record((0, 50, "knock"))
    b = m.end_breakdown()
    assert b.points == (300, 0) and b.boxes == (6, 0)
    assert {bonus.game for bonus in b.bonuses} == {1, 2, 3}
    # per game: boxes 2 × 25, game bonus 100 and the shutout's second 100
    assert (b.bonus(0, "box"), b.bonus(0, "game"), b.bonus(0, "shutout")) == (150, 300, 300)
    assert list(b.totals) == m.final_totals() == [1050, 0]


def test_match_breakdown_three_players_without_bonuses_c102():
    m = GinMatch(GinRules.box3(), (0, 2, 1), 0, (40, 30, 95), (2, 1, 5), (2, 1, 5)).record((2, 12, "undercut"))
    b = m.end_breakdown()
    assert b.bonuses == () and b.boxes == (2, 1, 6) and list(b.totals) == [40, 30, 107]
