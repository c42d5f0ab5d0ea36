"""The puzzle finders (games.engine.puzzles), on positions with known answers (tests/engine/puzzles/
positions.py): a unique Manipulation puzzle is found and its answer accepted; two equally good sets of
hand cards, or a play that needs no rearrangement, are no puzzle; a Gin discard that beats the next by
5 is one, a tie is not; a position holds nothing but what the player saw."""

from __future__ import annotations

import json

from games.engine.gin import card_index
from games.engine.puzzles import gin as pg
from games.engine.puzzles import manipulation as pm
from tests.engine.puzzles import positions


def test_a_known_unique_manipulation_puzzle_is_found_and_its_answer_accepted():
    state = positions.manipulation(positions.UNIQUE)
    found = pm.find(state, 0)
    assert found is not None
    sol = found["solution"]
    assert (sol["cards"], sol["second"], sol["plain"]) == (4, 2, 0)
    assert sorted(sol["laid"]) == ["4D.0", "4S.0", "9D.0", "9S.0"]
    assert found["themes"] == ["run_split", "run_to_group"]  # 4♥ and 9♥ leave the run for two groups
    seen = pm.ManipulationState.from_dict(found["position"])
    assert pm.check_answer(seen, 0, sol, sol["table"])["ok"]
    # another valid arrangement that lays the same four cards is accepted too
    mine = [["4H.0", "4S.0", "4D.0"], ["5H.0", "6H.0", "7H.0", "8H.0"], ["9H.0", "9S.0", "9D.0"]]
    assert pm.check_answer(seen, 0, sol, mine)["ok"]
    # a valid play that lays fewer is a miss; an invalid one is not valid
    fewer = [["4H.0", "4S.0", "4D.0"], ["5H.0", "6H.0", "7H.0", "8H.0", "9H.0"]]
    report = pm.check_answer(seen, 0, sol, fewer)
    assert report["valid"] and not report["ok"] and report["laid"] == 2
    assert not pm.check_answer(seen, 0, sol, [["4H.0", "4S.0"], ["5H.0", "6H.0", "7H.0", "8H.0", "9H.0"]])["valid"]


def test_two_equally_good_sets_of_hand_cards_are_no_puzzle():
    state = positions.manipulation(positions.TWO_SETS)
    best = pm.best_play([list(m) for m in state.table], list(state.hands[0]), objective="cards")
    assert best.cards == 5  # the play exists...
    assert pm.second_best([list(m) for m in state.table], list(state.hands[0]), best.played_cards, None, None) == 5
    assert pm.find(state, 0) is None  # ...but another set of hand cards lays as many


def test_a_play_that_needs_no_rearrangement_is_no_puzzle():
    state = positions.manipulation(positions.NO_REARRANGING)
    table, hand = [list(m) for m in state.table], list(state.hands[0])
    assert pm.best_play(table, hand, objective="cards").cards == 4
    assert pm.best_without_rearranging(table, hand, None, target=4) == 4
    assert pm.find(state, 0) is None


def test_the_first_meld_minimum_position_is_not_searched():
    from games.engine.manipulation import ManipulationRules

    state = positions.manipulation(
        positions.UNIQUE, rules=ManipulationRules(first_meld_min_points=30), has_melded=(False, False)
    )
    assert pm.find(state, 0) is None


def test_a_manipulation_position_holds_only_what_the_player_saw():
    state = positions.manipulation(positions.UNIQUE)
    found = pm.find(state, 0)
    text = json.dumps(found)
    assert found["position"]["hands"][1] == [] and found["position"]["stock"] == []
    assert "2C.0" not in text and "2D.0" not in text and "3D.0" not in text  # the other hand, the stock


def test_a_gin_discard_that_beats_the_next_by_five_is_a_puzzle():
    state = positions.gin_state(positions.GIN_UNIQUE)
    found = pg.find_discard(state, 0)
    assert found is not None
    assert found["solution"]["cards"] == ["KC.0"]
    assert (found["solution"]["deadwood"], found["solution"]["second"]) == (14, 19)
    assert pg.check_answer("discard", found["solution"], {"action": "discard", "card": "KC.0"})
    assert not pg.check_answer("discard", found["solution"], {"action": "discard", "card": "5D.0"})
    # the position: the hand and the discard pile, never the opponent's cards or the stock
    pos = found["position"]
    other = {f"{c}" for c in state.hands[1]}
    assert set(pos) >= {"hand", "discard", "stock_count", "knock_limit"}
    assert not any(k in pos for k in ("stock", "hands"))
    assert len(pos["hand"]) == 11 and other


def test_gin_ties_are_no_puzzle():
    state = positions.gin_state(positions.GIN_TIE)
    options, _knock, _big = pg._discard_options(state, 0)
    assert options[card_index("KC")] == options[card_index("KD")] == options[card_index("QD")] == 23
    assert options[card_index("2D")] == 31  # the margin alone would make it a puzzle
    assert pg.find_discard(state, 0) is None


def test_discards_with_the_same_deadwood_and_meld_chances_count_as_one():
    state = positions.gin_state(positions.GIN_SAME)
    found = pg.find_discard(state, 0)
    assert found is not None
    assert sorted(found["solution"]["cards"]) == ["KC.0", "KD.0"]
    assert (found["solution"]["deadwood"], found["solution"]["second"]) == (16, 23)
    for card in ("KC.0", "KD.0"):
        assert pg.check_answer("discard", found["solution"], {"action": "discard", "card": card})


def test_knock_now_when_an_undercut_is_unlikely_and_waiting_cannot_make_gin():
    state = positions.gin_state(positions.KNOCK)
    found = pg.find_knock(state, 0)
    sol = found["solution"]
    assert (sol["answer"], sol["knock_card"], sol["deadwood"], sol["gin_outs"]) == ("knock", "QC.0", 8, 0)
    assert sol["undercut"] <= pg.KNOCK_MAX_UNDERCUT
    assert pg.check_answer("knock_or_wait", sol, {"action": "knock"})
    assert not pg.check_answer("knock_or_wait", sol, {"action": "wait"})
    assert pg.find_discard(state, 0) is None  # a knock is possible: no discard puzzle


def test_wait_when_what_the_opponent_took_makes_an_undercut_likely():
    state = positions.gin_state(positions.KNOCK, opponent_took=positions.WAIT_OPPONENT_TOOK)
    found = pg.find_knock(state, 0)
    assert found["solution"]["answer"] == "wait" and found["themes"] == ["undercut_avoided"]
    assert found["solution"]["undercut"] >= pg.WAIT_MIN_UNDERCUT
    # what the player saw: the cards the opponent took, never the opponent's other card
    pos = found["position"]
    assert sorted(pos["opponent_known"]) == sorted(f"{c}.0" for c in positions.WAIT_OPPONENT_TOOK)
    hidden = set(state.hands[1]) - {pg.card_index(c) for c in positions.WAIT_OPPONENT_TOOK}
    assert len(hidden) == 1 and pg.IDS[hidden.pop()] not in json.dumps(pos)
    assert pg.check_answer("knock_or_wait", found["solution"], {"action": "discard", "card": "QC.0"})


def _melds(*melds):
    from games.engine.cards import Card

    return [[Card.from_code(c) for c in m.split()] for m in melds]


def test_themes_are_read_from_the_fewest_cards_moved():
    # a table joker freed by the hand's 7♠ and used in a new run of hand cards
    before = _melds("5S.0 6S.0 JK=7S.0")
    after = _melds("5S.0 6S.0 7S.0", "JK=8H.0 9H.0 TH.0")
    assert pm.themes(before, after, _melds("7S.0 9H.0 TH.0")[0]) == ["joker_freed", "lay_off"]
    # a group of four gives its 7♥ to a run of hand cards
    before = _melds("7H.0 7D.0 7C.0 7S.0")
    after = _melds("7D.0 7C.0 7S.0", "5H.0 6H.0 7H.0")
    assert pm.themes(before, after, _melds("5H.0 6H.0")[0]) == ["group_to_run"]
    # nothing moves: a new meld of hand cards beside the table's
    assert pm.themes(before, [*before, *_melds("2C.0 3C.0 4C.0")], _melds("2C.0 3C.0 4C.0")[0]) == ["new_meld"]
