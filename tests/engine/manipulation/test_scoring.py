"""Round and match scoring of Manipulation Rummy: every worked example of RULES B.9."""

import pytest

from games.engine.errors import InvalidAction
from games.engine.manipulation import ManipulationRules
from games.engine.manipulation.scoring import (
    MatchTally,
    is_match_over,
    manipulation_end_bonuses,
    manipulation_final_totals,
    manipulation_match_winners,
    manipulation_next_dealer,
    manipulation_round_result,
    manipulation_round_scores,
)

A, B, C, D, E = range(5)

# RULES B.9 (M1–M13): (hand points, knocker, went_out, expected scores)
ROUNDS = [
    ("M1", [3, 12, 20], A, False, [26, 0, 0]),
    ("M2", [4, 19], A, False, [15, 0]),
    ("M3", [5, 2], A, False, [0, 13]),
    ("M4", [4, 4], A, False, [0, 10]),
    ("M5", [5, 1, 30], A, False, [0, 43, 0]),
    ("M6", [4, 4, 15, 9], A, False, [0, 26, 0, 0]),
    ("M7", [3, 3, 3, 20], A, False, [0, 27, 27, 0]),
    ("M8", [2, 2, 2, 10, 25], A, False, [0, 41, 41, 0, 0]),
    ("M9", [0, 7, 12, 30], A, True, [74, 0, 0, 0]),
    ("M10", [0, 18], A, True, [43, 0]),
    ("M11", [6, 9, 20], None, False, [17, 0, 0]),
    ("M12", [6, 6, 20], None, False, [14, 14, 0]),
    ("M13", [5, 2, 2, 20], A, False, [0, 31, 31, 0]),
]


@pytest.mark.parametrize(("name", "hands", "knocker", "went_out", "expected"), ROUNDS, ids=[r[0] for r in ROUNDS])
def test_round_scores_b9(name, hands, knocker, went_out, expected):
    # RULES B.7, B.9
    assert manipulation_round_scores(hands, knocker, went_out) == expected


def test_m7_both_tied_players_win_a_round():
    # RULES B.9 (M7): both +1 round won
    res = manipulation_round_result([3, 3, 3, 20], A)
    assert res.rounds_won == (0, 1, 1, 0)
    assert res.winners == (B, C)


def test_reasons_name_the_bonuses():
    # RULES B.7: undercut bonus and going-out bonus are reported per seat
    res = manipulation_round_result([5, 1, 30], A)
    assert res.reasons[B] == (("difference", 33), ("undercut_bonus", 10))
    assert res.reasons[A] == ()
    out = manipulation_round_result([0, 18], A, went_out=True)
    assert out.reasons[A] == (("difference", 18), ("going_out_bonus", 25))
    assert manipulation_round_result([6, 9, 20], None).reasons[A] == (("difference", 17),)


def test_bonus_options_change_round_scores():
    # RULES E.1 undercut_bonus / going_out_bonus
    rules = ManipulationRules(undercut_bonus=20, going_out_bonus=30)
    assert manipulation_round_scores([5, 2], A, rules=rules) == [0, 23]
    assert manipulation_round_scores([0, 18], A, True, rules=rules) == [48, 0]


def test_tie_nonknockers_none_win():
    # RULES E.1 tie_nonknockers = none_win [ext]: unsourced ties score nothing
    rules = ManipulationRules(tie_nonknockers="none_win")
    assert manipulation_round_scores([5, 2, 2, 20], A, rules=rules) == [0, 0, 0, 0]  # M13
    assert manipulation_round_scores([6, 6, 20], None, rules=rules) == [0, 0, 0]  # M12
    # the sourced cases are unchanged: knocker ties one (M6) or two (M7) players
    assert manipulation_round_scores([4, 4, 15, 9], A, rules=rules) == [0, 26, 0, 0]
    assert manipulation_round_scores([3, 3, 3, 20], A, rules=rules) == [0, 27, 27, 0]


def test_bad_round_input_is_invalid():
    with pytest.raises(InvalidAction):
        manipulation_round_scores([3, 4], 5)
    with pytest.raises(InvalidAction):
        manipulation_round_scores([3, 4], A, went_out=True)  # went out with 3 points in hand


# RULES B.9 (E1, E2): default (others) and option (all)
FINALS = [
    ("E1", [158, 120, 60], [5, 4, 2], [258, 220, 110], [383, 220, 110], [A], [A]),
    ("E2", [152, 145, 40], [2, 6, 1], [252, 295, 65], [302, 295, 65], [B], [A]),
]


@pytest.mark.parametrize(
    ("name", "scores", "won", "others", "everyone", "w_others", "w_all"), FINALS, ids=[f[0] for f in FINALS]
)
def test_final_totals_b9(name, scores, won, others, everyone, w_others, w_all):
    # RULES B.8, B.9
    assert manipulation_final_totals(scores, won) == others
    all_rules = ManipulationRules(round_won_bonus_to="all")
    assert manipulation_final_totals(scores, won, all_rules) == everyone
    assert manipulation_match_winners(scores, won) == w_others
    assert manipulation_match_winners(scores, won, all_rules) == w_all


def test_e3_round_m7_ends_the_game():
    # RULES B.9 (E3): M7 takes B 130→157 and C 125→152; both get +100, only A and D get 25 × rounds won
    tally = MatchTally(players=4, scores=(100, 130, 125, 40), rounds_won=(3, 4, 4, 1), rounds_played=12, dealer=3)
    assert not tally.is_over()
    tally = tally.add_round(manipulation_round_result([3, 3, 3, 20], A), dealer=0)
    assert tally.scores == (100, 157, 152, 40)
    assert tally.rounds_won == (3, 5, 5, 1)
    assert tally.is_over() and is_match_over(tally) and is_match_over(list(tally.scores))
    assert tally.final_totals() == [175, 257, 252, 65]
    everyone = ManipulationRules(round_won_bonus_to="all")
    assert tally.final_totals(everyone) == [175, 382, 377, 65]
    assert tally.winners() == [B]


def test_final_tie_options():
    # RULES B.8.4 [ext]: co-winners by default, option most_rounds_won
    assert manipulation_match_winners([160, 160, 10], [3, 5, 1]) == [A, B]
    assert manipulation_match_winners([160, 160, 10], [3, 5, 1], ManipulationRules(final_tie="most_rounds_won")) == [B]


def test_game_target_option():
    rules = ManipulationRules(game_target=100, game_bonus=50)
    assert manipulation_final_totals([101, 99], [1, 2], rules) == [151, 149]
    assert is_match_over([101, 99], rules) and not is_match_over([99, 99], rules)


def test_next_dealer_rotation():
    # RULES B.4.1: deal passes to the left; option deal_rotation = winner_deals [ext]
    assert manipulation_next_dealer(2, 3) == 0
    winner_deals = ManipulationRules(deal_rotation="winner_deals")
    assert manipulation_next_dealer(2, 3, [1], winner_deals) == 1
    assert manipulation_next_dealer(2, 4, [1, 3], winner_deals) == 3  # first winner from the dealer's left
    assert manipulation_next_dealer(2, 3, [], winner_deals) == 0


def test_tally_roundtrip_and_next_dealer():
    tally = MatchTally.start(3).add_round(manipulation_round_result([3, 12, 20], A), dealer=2)
    assert tally.scores == (26, 0, 0) and tally.rounds_played == 1
    assert MatchTally.from_dict(tally.to_dict()) == tally
    assert tally.next_dealer() == 0
    assert MatchTally.start(3).next_dealer() is None


def test_end_bonuses_are_the_parts_of_the_final_totals():
    """B.8.2-B.8.3: the game bonus for reaching the target, the round bonus for the others (or, with
    ``round_won_bonus_to = all``, for everyone); the final totals are the scores plus these parts."""
    rules = ManipulationRules(game_target=100, game_bonus=50, round_won_bonus=10)
    bonuses = manipulation_end_bonuses([101, 99, 40], [1, 2, 0], rules)
    assert [(b.game, b.rounds, b.rounds_won) for b in bonuses] == [(50, 0, 1), (0, 20, 2), (0, 0, 0)]
    assert manipulation_final_totals([101, 99, 40], [1, 2, 0], rules) == [151, 119, 40]
    everyone = ManipulationRules(game_target=100, game_bonus=50, round_won_bonus=10, round_won_bonus_to="all")
    assert [(b.game, b.rounds) for b in manipulation_end_bonuses([101, 99], [1, 2], everyone)] == [(50, 10), (0, 20)]
