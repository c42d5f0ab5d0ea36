"""Manipulation Rummy state machine (RULES B.4–B.6, B.3 joker rules, E.1 options)."""

import random

import pytest

from games.engine import manipulation as game
from games.engine.cards import make_deck
from games.engine.errors import IllegalMove, InvalidAction
from games.engine.manipulation import ManipulationRules, ManipulationState
from games.engine.manipulation.state import replace_state

from .helpers import make_state


def meld(*melds):
    return {"type": "meld", "table": [m.split() for m in melds]}


def table_codes(state):
    return [[game.card_ref(c) for c in m] for m in state.table]


# ---------------------------------------------------------------- rules as data (E.1)


def test_rules_defaults_and_keys():
    r = ManipulationRules()
    assert set(r.to_dict()) == {
        "players",
        "jokers",
        "hand_size",
        "max_draws_per_turn",
        "must_draw_if_no_meld",
        "knock_limit",
        "knock_timing",
        "undercut_bonus",
        "going_out_bonus",
        "joker_value",
        "ace_in_sequences",
        "joker_substitute_from",
        "freed_joker_reuse",
        "first_meld_min_points",
        "stock_exhausted",
        "knock_in_final_lap",
        "tie_nonknockers",
        "game_target",
        "game_bonus",
        "round_won_bonus",
        "round_won_bonus_to",
        "final_tie",
        "deal_rotation",
    }
    assert (r.hand_size, r.max_draws_per_turn, r.knock_limit, r.game_target) == (10, 3, 5, 150)
    assert ManipulationRules(players=2).jokers == 1
    assert ManipulationRules(players=4).jokers == 2
    assert ManipulationRules.from_dict(ManipulationRules(players=3).to_dict()) == ManipulationRules(players=3)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 6},
        {"players": 1},
        {"players": 2, "jokers": 3},
        {"players": 3, "jokers": 5},
        {"hand_size": 6},
        {"hand_size": 14},
        {"knock_limit": 11},
        {"knock_timing": "whenever"},
        {"ace_in_sequences": "wrap"},
        {"must_draw_if_no_meld": "yes"},
        {"colour": "red"},
        {"game_target": 0},
        {"undercut_bonus": -1},
        {"max_draws_per_turn": 4},
    ],
)
def test_bad_options_are_invalid(options):
    with pytest.raises(InvalidAction):
        ManipulationRules(**options)


@pytest.mark.parametrize(("players", "size"), [(2, 53), (3, 106), (5, 106)])
def test_deck_by_player_count(players, size):
    # RULES B.1.2
    s = game.new_round(None, players, random.Random(7))
    assert len(game.cards_in_play(s)) == size
    assert len({c.id for c in game.cards_in_play(s)}) == size


def test_jokers_option_changes_deck():
    s = game.new_round(ManipulationRules(jokers=4), 3, random.Random(1))
    assert sum(c.is_joker for c in game.cards_in_play(s)) == 4


# ---------------------------------------------------------------- deal (B.4)


def test_deal_and_first_player():
    # RULES B.4.2–B.4.3: 10 cards each, the dealer's left neighbour starts
    s = game.new_round(None, 4, random.Random(3), dealer=2)
    assert [len(h) for h in s.hands] == [10, 10, 10, 10]
    assert len(s.stock) == 106 - 40
    assert s.seat_to_act == 3 and s.phase == "start" and s.table == ()
    s2 = game.new_round(None, 2, random.Random(3), dealer=1)
    assert s2.seat_to_act == 0  # 2 players: the non-dealer


def test_deal_one_at_a_time_from_dealers_left():
    rng = random.Random(11)
    s = game.new_round(None, 3, rng, dealer=0)
    deck = make_deck(2, 2)
    random.Random(11).shuffle(deck)
    assert s.hands[1][0] == deck[0] and s.hands[2][0] == deck[1] and s.hands[0][0] == deck[2]


def test_hand_size_option():
    s = game.new_round(ManipulationRules(hand_size=7), 5, random.Random(3))
    assert [len(h) for h in s.hands] == [7] * 5


def test_random_first_dealer_is_seeded():
    dealers = {game.new_round(None, 4, random.Random(seed)).dealer for seed in range(30)}
    assert len(dealers) > 1
    assert game.new_round(None, 4, random.Random(5)) == game.new_round(None, 4, random.Random(5))


# ---------------------------------------------------------------- turn (B.5)


def test_draw_cycle_three_draws_ends_turn():
    # RULES B.9 (T3): three draws without melding end the turn
    s = game.new_round(None, 3, random.Random(2), dealer=0)
    assert game.legal_actions(s, 1) == [{"type": "draw"}]
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 1, {"type": "end_turn"})
    assert e.value.code == "must_draw"
    s = game.apply(s, 1, {"type": "draw"})
    assert {a["type"] for a in game.legal_actions(s, 1)} == {"draw", "meld"}
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 1, {"type": "end_turn"})
    assert e.value.code == "must_draw_or_meld"
    s = game.apply(s, 1, {"type": "draw"})
    s = game.apply(s, 1, {"type": "draw"})
    assert len(s.hands[1]) == 13
    assert s.seat_to_act == 2 and s.phase == "start"


def test_not_your_turn_and_refusal_changes_nothing():
    s = game.new_round(None, 3, random.Random(2), dealer=0)
    before = s.to_dict()
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 2, {"type": "draw"})
    assert e.value.code == "not_your_turn"
    assert s.to_dict() == before


@pytest.mark.parametrize(
    "action",
    [
        {"type": "dance"},
        {"type": "draw", "n": 2},
        {"type": "meld"},
        {"type": "meld", "table": "5S"},
        {"type": "meld", "table": [["5S"]]},
        {"type": "meld", "table": [["ZZ.0"]]},
        "draw",
        None,
        {"type": "meld", "table": [["5S.0"] * 15]},
        {"type": "meld", "table": [[5]]},
    ],
)
def test_malformed_actions_are_invalid(action):
    s = game.new_round(None, 3, random.Random(2), dealer=0)
    s = game.apply(s, 1, {"type": "draw"})
    with pytest.raises(InvalidAction):
        game.apply(s, 1, action)


def test_unknown_or_duplicate_ids_are_invalid():
    s = make_state(["5S.0 6S.0 7S.0 9D.0", "2C.0 3C.0 4C.0"])
    with pytest.raises(InvalidAction):
        game.apply(s, 0, meld("5S.0 6S.0 7S.0 5S.0"))
    with pytest.raises(InvalidAction):
        game.apply(s, 0, meld("5S.7 6S.0 7S.0"))


def test_t1_meld_ends_turn_then_knock():
    # RULES B.9 (T1): Ann melds 7♥8♥9♥ after draw #1; no second draw; hand 4 points → may knock
    s = make_state(["7H.0 8H.0 9H.0 3C.0 AD.0", "KC.0 KD.0 QS.0"], stock="2S.0 3S.0 4S.0")
    s = game.apply(s, 0, meld("7H.0 8H.0 9H.0"))
    assert s.phase == "end" and s.seat_to_act == 0
    assert {a["type"] for a in game.legal_actions(s, 0)} == {"knock", "end_turn"}
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, {"type": "draw"})
    assert e.value.code == "no_more_draws"
    done = game.apply(s, 0, {"type": "knock"})
    assert game.is_over(done)
    out = game.outcome(done)
    assert out["knocker"] == 0 and out["hand_points"] == [4, 30] and out["scores"] == [26, 0]
    nxt = game.apply(s, 0, {"type": "end_turn"})
    assert nxt.seat_to_act == 1 and nxt.phase == "start"


def test_t2_meld_after_second_draw():
    # RULES B.9 (T2)
    s = make_state(["7H.0 8H.0 9H.0 KC.0 KD.0", "KC.1 QD.0 QS.0"], stock="2S.0 3S.0 4S.0", phase="start", draws=0)
    s = game.apply(s, 0, {"type": "draw"})
    s = game.apply(s, 0, {"type": "draw"})
    assert s.draws == 2
    s = game.apply(s, 0, meld("7H.0 8H.0 9H.0"))
    # hand 23 points: cannot knock, the turn passes on by itself
    assert s.seat_to_act == 1 and s.phase == "start"


def test_turn_passes_on_when_knock_impossible():
    s = make_state(["7H.0 8H.0 9H.0 KC.0", "KC.1 QD.0 QS.0"], stock="2S.0 3S.0 4S.0")
    s = game.apply(s, 0, meld("7H.0 8H.0 9H.0"))
    assert s.seat_to_act == 1


def test_no_meld_after_third_draw():
    # RULES B.5: no meld allowed after draw #3
    s = make_state(["AH.0 AD.0 AC.0", "KC.1 QD.0 QS.0"], stock="2S.0 3S.0 4S.0 5S.0", draws=2)
    s = game.apply(s, 0, {"type": "draw"})
    # 3 aces + 2S = 5 points: may knock, but not meld
    assert {a["type"] for a in game.legal_actions(s, 0)} == {"knock", "end_turn"}
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("AH.0 AD.0 AC.0"))
    assert e.value.code == "no_meld_after_last_draw"


def test_meld_before_draw_refused():
    s = make_state(["AH.0 AD.0 AC.0 5C.0", "KC.1 QD.0 QS.0"], stock="2S.0", phase="start", draws=0)
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("AH.0 AD.0 AC.0"))
    assert e.value.code == "no_meld_before_draw"


def test_m14_joker_and_ace_cannot_knock():
    # RULES B.9 (M14): joker + ace = 26 points
    s = make_state(["JK.0 AS.0", "KC.1 QD.0 QS.0"], stock="2S.0", phase="end", draws=3)
    assert not game.can_knock(s, 0)
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, {"type": "knock"})
    assert e.value.code == "knock_too_high"
    assert "26" in e.value.message


def test_m15_aces_and_three_may_knock():
    # RULES B.9 (M15): A, A, 3 = 5 points
    s = make_state(["AS.0 AH.0 3C.0", "KC.1 QD.0 QS.0"], stock="2S.0", phase="end", draws=3)
    assert game.can_knock(s, 0)
    assert game.outcome(game.apply(s, 0, {"type": "knock"}))["knocker"] == 0


def test_knock_not_before_drawing():
    # RULES B.5.5: not before drawing, not during another player's turn
    s = make_state(["AS.0 AH.0 3C.0", "KC.1 AD.0 2S.1"], stock="2S.0 4S.0", phase="start", draws=0)
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, {"type": "knock"})
    assert e.value.code == "must_draw"
    with pytest.raises(IllegalMove):
        game.apply(s, 1, {"type": "knock"})


def test_knock_timing_start_of_turn():
    # RULES E.1 knock_timing = start_of_turn
    rules = ManipulationRules(knock_timing="start_of_turn")
    s = make_state(["AS.0 AH.0 3C.0", "KC.1 AD.0 2S.1"], stock="2S.0 4S.0 5S.0", phase="start", draws=0, rules=rules)
    assert {a["type"] for a in game.legal_actions(s, 0)} == {"draw", "knock"}
    assert game.is_over(game.apply(s, 0, {"type": "knock"}))
    s = game.apply(s, 0, {"type": "draw"})
    assert "knock" not in {a["type"] for a in game.legal_actions(s, 0)}


def test_must_draw_if_no_meld_false_allows_ending_turn():
    rules = ManipulationRules(must_draw_if_no_meld=False)
    s = make_state(["AS.0 KH.0 3C.0", "KC.1 AD.0 2S.1"], stock="2S.0 4S.0 5S.0", rules=rules)
    assert {a["type"] for a in game.legal_actions(s, 0)} == {"draw", "meld", "end_turn"}
    assert game.apply(s, 0, {"type": "end_turn"}).seat_to_act == 1


# ---------------------------------------------------------------- "Most draws per turn" (E.1 max_draws_per_turn)
# B.5 with N = max_draws_per_turn: draw, then meld or draw again, ..., the last draw (N ≥ 2) ends the
# drawing with no meld after it.  N = 1: one draw, then the player may meld (or end the turn).


def _types(s, seat=0):
    return {a["type"] for a in game.legal_actions(s, seat)}


def _start(n, hand="7H.0 8H.0 9H.0 KC.0 KD.0", **kw):
    rules = ManipulationRules(max_draws_per_turn=n, **kw)
    return make_state([hand, "KC.1 QD.0 QS.0"], stock="2S.0 4S.0 5S.0 6D.0", phase="start", draws=0, rules=rules)


def test_max_draws_one_draw_then_meld_or_end_the_turn():
    s = game.apply(_start(1), 0, {"type": "draw"})
    assert s.seat_to_act == 0 and s.phase == "drawn" and s.draws == 1
    assert _types(s) == {"meld", "end_turn"}
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, {"type": "draw"})
    assert e.value.code == "no_more_draws"
    melded = game.apply(s, 0, meld("7H.0 8H.0 9H.0"))
    assert table_codes(melded) == [["7H.0", "8H.0", "9H.0"]]
    assert melded.seat_to_act == 1  # 22 points left: no knock, the turn passes on
    ended = game.apply(s, 0, {"type": "end_turn"})
    assert ended.seat_to_act == 1 and ended.table == ()


def test_max_draws_one_may_knock_after_the_draw():
    s = game.apply(_start(1, hand="AS.0 AH.0"), 0, {"type": "draw"})  # A, A, 2♠: 4 points
    assert _types(s) == {"meld", "knock", "end_turn"}


def test_max_draws_two_meld_after_the_first_draw_not_after_the_last():
    s = game.apply(_start(2), 0, {"type": "draw"})
    assert s.phase == "drawn" and _types(s) == {"draw", "meld"}
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, {"type": "end_turn"})
    assert e.value.code == "must_draw_or_meld"
    assert game.apply(s, 0, meld("7H.0 8H.0 9H.0")).seat_to_act == 1
    s = game.apply(s, 0, {"type": "draw"})
    assert s.seat_to_act == 1 and len(s.hands[0]) == 7  # the last draw ends the turn (no knock: 30 pts)


def test_max_draws_two_no_meld_after_the_last_draw():
    s = _start(2, hand="AS.0 AH.0 AD.0", knock_limit=10)
    s = game.apply(game.apply(s, 0, {"type": "draw"}), 0, {"type": "draw"})  # A A A 2♠ 4♠: 9 points
    assert s.phase == "end" and _types(s) == {"knock", "end_turn"}
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("AS.0 AH.0 AD.0"))
    assert e.value.code == "no_meld_after_last_draw"


@pytest.mark.parametrize("n", [1, 2, 3])
def test_every_max_draws_value_lets_a_player_meld(n):
    s = _start(n)
    for _ in range(n):
        s = game.apply(s, 0, {"type": "draw"})
        if "meld" in _types(s):
            break
    else:
        pytest.fail(f"max_draws_per_turn={n}: no meld step in the turn")
    assert game.apply(s, 0, meld("7H.0 8H.0 9H.0")).table


@pytest.mark.parametrize("n", [1, 2, 3])
def test_timeout_actions_end_the_turn_for_every_max_draws(n):
    s = _start(n)
    acts = game.timeout_actions(s, 0)
    assert acts == [{"type": "draw"}] * n + ([{"type": "end_turn"}] if n == 1 else [])
    for a in acts:
        s = game.apply(s, 0, a)
    assert s.seat_to_act == 1


def test_a_stored_max_draws_one_state_loads_and_plays():
    # A match stored with 1 (before N = 1 allowed a meld): its rules and a state at the end of a
    # knocking turn load, and the next turn follows the rule.
    s = game.apply(_start(1, hand="AS.0 AH.0"), 0, {"type": "draw"})
    old = replace_state(s, phase="end").to_dict()  # what the old engine stored for a knock-able hand
    loaded = ManipulationState.from_dict(old)
    assert loaded.rules.max_draws_per_turn == 1 and _types(loaded) == {"knock", "end_turn"}
    nxt = game.apply(loaded, 0, {"type": "end_turn"})
    nxt = game.apply(nxt, 1, {"type": "draw"})
    assert nxt.seat_to_act == 1 and "meld" in _types(nxt, 1)


def test_going_out_ends_round():
    # RULES B.5.4 / B.6.2: going out = knocker with 0 points, +25
    s = make_state(["7H.0 8H.0 9H.0", "KC.0 KD.0 QS.0"], stock="2S.0")
    s = game.apply(s, 0, meld("7H.0 8H.0 9H.0"))
    out = game.outcome(s)
    assert out["went_out"] and out["knocker"] == 0 and out["end_reason"] == "went_out"
    assert out["scores"] == [30 + 25, 0]


# ---------------------------------------------------------------- meld step (B.5.2) and jokers (B.3)


def test_extend_and_rearrange_table():
    s = make_state(["8S.0 9D.0", "KC.0 KD.0 QS.0"], table=["5S.0 6S.0 7S.0", "9H.0 9C.0 9S.0"], stock="2S.0")
    s2 = game.apply(s, 0, meld("5S.0 6S.0 7S.0 8S.0 9S.0", "9H.0 9C.0 9D.0"))
    assert table_codes(s2) == [["5S.0", "6S.0", "7S.0", "8S.0", "9S.0"], ["9H.0", "9D.0", "9C.0"]]
    assert s2.hands[0] == ()  # went out
    assert game.outcome(s2)["went_out"]


def test_m1_no_card_from_hand():
    s = make_state(["8S.0 9D.0", "KC.0", "KH.0"], table=["5S.0 6S.0 7S.0 8S.1"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("5S.0 6S.0 7S.0 8S.1"))
    assert e.value.code == "no_card_from_hand"


def test_m2_table_card_cannot_return_to_hand():
    s = make_state(["8S.0 8D.0 8H.0", "KC.0", "KH.0"], table=["5S.0 6S.0 7S.0 8S.1"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:  # 5♠ taken back
        game.apply(s, 0, meld("6S.0 7S.0 8S.1", "8S.0 8D.0 8H.0"))
    assert e.value.code == "table_card_missing" and "5♠" in e.value.message
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("5S.0 6S.0 7S.0 8S.1 8S.0"))
    assert e.value.code == "invalid_meld"


def test_m2_missing_table_card_named():
    s = make_state(["4S.0 9D.0", "KC.0"], table=["5S.0 6S.0 7S.0 8S.1"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("4S.0 5S.0 6S.0 7S.0"))
    assert e.value.code == "table_card_missing" and "8♠" in e.value.message


def test_m3_invalid_meld_message_names_cards():
    s = make_state(["7H.0 9D.0", "KC.0"], table=["5S.0 6S.0 7S.0"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("5S.0 6S.0", "7S.0 7H.0"))
    assert e.value.code == "invalid_meld"
    assert e.value.message == "5♠ 6♠: a meld needs at least 3 cards."


def test_card_of_another_hand_is_not_available():
    s = make_state(["7H.0 8H.0", "9H.0"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("7H.0 8H.0 9H.0"))
    assert e.value.code == "card_not_available"


def test_hand_joker_declared_or_forced():
    # RULES B.3.1: a joker from hand must be declared; a forced identity is inferred
    s = make_state(["5S.0 JK.0 7S.0 KD.0", "KC.0"], stock="2S.0")
    s2 = game.apply(s, 0, meld("5S.0 JK.0 7S.0"))
    assert table_codes(s2) == [["5S.0", "JK=6S.0", "7S.0"]]
    s = make_state(["5S.0 JK.0 6S.0 KD.0", "KC.0"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("5S.0 6S.0 JK.0"))
    assert e.value.code == "joker_identity_needed" and "4♠" in e.value.message and "7♠" in e.value.message
    s3 = game.apply(s, 0, meld("5S.0 6S.0 JK=4S.0"))
    assert table_codes(s3) == [["JK=4S.0", "5S.0", "6S.0"]]


def test_table_joker_keeps_identity():
    # RULES B.3.2: a table joker moves only where the same identity fits
    s = make_state(["8S.0 KD.0", "KC.0"], table=["5S.0 6S.0 JK=7S.0"], stock="2S.0")
    s2 = game.apply(s, 0, meld("5S.0 6S.0 JK.0 8S.0"))  # bare = keep identity
    assert table_codes(s2) == [["5S.0", "6S.0", "JK=7S.0", "8S.0"]]
    s = make_state(["8D.0 8H.0 KD.0", "KC.0"], table=["5S.0 6S.0 JK=7S.0 8S.0"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:  # re-declaring without substitution
        game.apply(s, 0, meld("5S.0 6S.0 8S.0", "8D.0 8H.0 JK=8C.0"))
    assert e.value.code == "invalid_meld"  # 5♠ 6♠ 8♠ has a gap
    s = make_state(["4S.0 KD.0", "KC.0"], table=["5S.0 6S.0 JK=7S.0 8S.0"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:  # moving the joker where 7♠ does not fit
        game.apply(s, 0, meld("4S.0 5S.0 6S.0", "JK.0 8S.0"))
    assert e.value.code == "invalid_meld"


def test_t4_joker_substitution_and_reuse():
    # RULES B.9 (T4): Dee substitutes 7♠ for the joker and reuses it as 8♠ with 9♠ 10♠
    s = make_state(["7S.0 9S.0 TS.0 KD.0", "KC.0"], table=["5S.0 6S.0 JK=7S.0", "9D.0 9C.0 9H.0"], stock="2S.0")
    s2 = game.apply(s, 0, meld("5S.0 6S.0 7S.0 JK=8S.0 9S.0 TS.0", "9D.0 9C.0 9H.0"))
    assert table_codes(s2)[0] == ["5S.0", "6S.0", "7S.0", "JK=8S.0", "9S.0", "TS.0"]
    assert [c.id for c in s2.hands[0]] == ["KD.0"]


def test_t5_freed_joker_cannot_stay_aside():
    # RULES B.9 (T5): substituting with a table 7♠ and keeping the joker aside is refused (M2/M4)
    s = make_state(
        ["4S.0 KD.0", "KC.0", "KH.0"],
        table=["5S.0 6S.0 JK=7S.0", "7S.1 7D.0 7H.0 7C.0"],
        stock="2S.0",
    )
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("4S.0 5S.0 6S.0 7S.1", "7D.0 7H.0 7C.0"))
    assert e.value.code == "freed_joker_not_placed"
    # the same step with the joker re-placed is legal (substitute from the table, default option)
    s2 = game.apply(s, 0, meld("4S.0 5S.0 6S.0 7S.1", "7D.0 7H.0 7C.0 JK=7S.0"))
    assert ["7D.0", "7H.0", "7C.0", "JK=7S.0"] not in table_codes(s2)  # canonical order by suit
    assert sorted(map(sorted, table_codes(s2))) == sorted(
        map(sorted, [["4S.0", "5S.0", "6S.0", "7S.1"], ["JK=7S.0", "7H.0", "7D.0", "7C.0"]])
    )


def test_substitution_by_table_card_redeclares_joker():
    s = make_state(["KD.0 KH.0", "KC.0", "QC.0"], table=["5S.0 6S.0 JK=7S.0", "7S.1 7D.0 7H.0 7C.0"], stock="2S.0")
    action = meld("5S.0 6S.0 7S.1", "7D.0 7H.0 7C.0", "KD.0 KH.0 JK=KS.0")
    s2 = game.apply(s, 0, action)
    assert ["JK=KS.0", "KH.0", "KD.0"] in table_codes(s2)
    only_hand = make_state(
        ["KD.0 KH.0", "KC.0", "QC.0"],
        table=["5S.0 6S.0 JK=7S.0", "7S.1 7D.0 7H.0 7C.0"],
        stock="2S.0",
        rules=ManipulationRules(joker_substitute_from="hand_only"),
    )
    with pytest.raises(IllegalMove) as e:
        game.apply(only_hand, 0, action)
    assert e.value.code == "joker_substitute_hand_only"


def test_identity_change_needs_identical_card():
    # RULES B.3.5: only substitution changes a joker's identity
    s = make_state(["KD.0 KH.0 4S.0", "KC.0", "QC.0"], table=["5S.0 6S.0 JK=7S.0 8S.0 9S.0"], stock="2S.0")
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("4S.0 5S.0 6S.0", "8S.0 9S.0 JK=TS.0"))
    assert e.value.code == "joker_identity_changed" and "7♠" in e.value.message


def test_two_freed_jokers_need_two_cards():
    rules = ManipulationRules(jokers=3)
    s = make_state(
        ["7S.0 KD.0 KH.0 QD.0 QH.0", "KC.0", "KC.1"],
        table=["5S.0 6S.0 JK=7S.0", "7H.0 7D.0 JK=7S.1"],
        stock="2S.0",
        rules=rules,
    )
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("5S.0 6S.0 7S.0", "7H.0 7D.0 JK=7C.1", "KD.0 KH.0 JK=KS.0"))
    assert e.value.code == "joker_identity_changed"


def test_freed_joker_new_meld_only_option():
    rules = ManipulationRules(freed_joker_reuse="new_meld_only")
    s = make_state(["7S.0 9S.0 TS.0 KD.0 KH.0", "KC.0"], table=["5S.0 6S.0 JK=7S.0"], stock="2S.0", rules=rules)
    with pytest.raises(IllegalMove) as e:  # T4 is illegal under this option
        game.apply(s, 0, meld("5S.0 6S.0 7S.0 JK=8S.0 9S.0 TS.0"))
    assert e.value.code == "freed_joker_new_meld_only"
    s2 = game.apply(s, 0, meld("5S.0 6S.0 7S.0", "KD.0 KH.0 JK=KS.0"))
    assert ["JK=KS.0", "KH.0", "KD.0"] in table_codes(s2)


def test_first_meld_min_points_option():
    rules = ManipulationRules(first_meld_min_points=30)
    s = make_state(["7H.0 8H.0 9H.0 KD.0 KH.0 KC.0", "KC.1"], stock="2S.0", rules=rules)
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 0, meld("7H.0 8H.0 9H.0"))
    assert e.value.code == "first_meld_too_low"
    s2 = game.apply(s, 0, meld("7H.0 8H.0 9H.0", "KD.0 KH.0 KC.0"))
    assert s2.has_melded[0] or game.is_over(s2)


# ---------------------------------------------------------------- check_table (draft report)


def test_check_table_reports_each_meld():
    s = make_state(["7H.0 8H.0 9H.0 5C.0 JK.0", "KC.0"], table=["5S.0 6S.0 7S.0"], stock="2S.0")
    rep = game.check_table(s, 0, [["5S.0", "6S.0", "7H.0"], ["7S.0", "8H.0", "9H.0"], ["5C.0", "JK.0"]])
    assert not rep["ok"]
    assert [m["valid"] for m in rep["melds"]] == [False, False, False]
    assert rep["melds"][0]["reason"] == "5♠ 6♠ 7♥: a sequence must be one suit."
    assert rep["melds"][0]["code"] == "sequence_one_suit"
    ok = game.check_table(s, 0, [["5S.0", "6S.0", "7S.0"], ["7H.0", "8H.0", "9H.0", "JK.0"]])
    assert not ok["ok"] and ok["melds"][1]["joker_options"] == ["6H", "TH"]
    ok = game.check_table(s, 0, [["5S.0", "6S.0", "7S.0"], ["7H.0", "8H.0", "9H.0", "JK=TH.0"]])
    assert ok["ok"] and ok["errors"] == [] and sorted(ok["played"]) == ["7H.0", "8H.0", "9H.0", "JK.0"]
    assert ok["points"] == 49
    bad = game.check_table(s, 0, "nonsense")
    assert not bad["ok"] and bad["errors"][0]["code"] == "bad_table"
    assert game.check_table(s, 1, [["5S.0", "6S.0", "7S.0"]])["errors"][0]["code"] == "not_your_turn"


# ---------------------------------------------------------------- stock exhaustion (B.6.3)


def test_stock_exhausted_final_lap():
    # P draws the last card as draw #1, may meld or pass; then one final turn each ending with P
    s = make_state(
        ["7H.0 8H.0 KD.0", "KC.0 QC.0", "AS.0 2S.0 3S.0 KS.0"], stock="9H.0", phase="start", draws=0, seat=0, dealer=2
    )
    s = game.apply(s, 0, {"type": "draw"})
    assert s.stock == () and s.last_drawer == 0
    assert {a["type"] for a in game.legal_actions(s, 0)} == {"meld", "end_turn"}
    s = game.apply(s, 0, {"type": "end_turn"})
    assert s.final_lap and s.seat_to_act == 1 and s.phase == "final"
    assert {a["type"] for a in game.legal_actions(s, 1)} == {"meld", "end_turn"}
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 1, {"type": "draw"})
    assert e.value.code == "no_draw_in_final_lap"
    s = game.apply(s, 1, {"type": "end_turn"})
    s = game.apply(s, 2, meld("AS.0 2S.0 3S.0"))  # 10 left: no knock, passes on
    assert s.seat_to_act == 0 and s.phase == "final"
    s = game.apply(s, 0, meld("AS.0 2S.0 3S.0", "7H.0 8H.0 9H.0"))
    assert game.is_over(s)
    out = game.outcome(s)
    assert out["end_reason"] == "stock_exhausted" and out["knocker"] is None
    assert out["hand_points"] == [10, 20, 10] and out["scores"] == [10, 0, 10]  # tie: both win, no bonus


def test_knock_in_final_lap_and_option():
    s = make_state(
        ["KD.0", "AC.0 2C.0", "QS.0"], stock="", phase="final", draws=0, seat=1, last_drawer=0, final_lap=True
    )
    assert game.can_knock(s, 1)
    assert game.outcome(game.apply(s, 1, {"type": "knock"}))["knocker"] == 1
    s = make_state(
        ["KD.0", "AC.0 2C.0", "QS.0"],
        stock="",
        phase="final",
        draws=0,
        seat=1,
        last_drawer=0,
        final_lap=True,
        rules=ManipulationRules(knock_in_final_lap=False),
    )
    with pytest.raises(IllegalMove) as e:
        game.apply(s, 1, {"type": "knock"})
    assert e.value.code == "knock_not_in_final_lap"


def test_stock_exhausted_end_immediately():
    rules = ManipulationRules(stock_exhausted="end_immediately")
    s = make_state(["7H.0 8H.0 KD.0", "KC.0 QC.0"], stock="9H.0", phase="start", draws=0, rules=rules)
    s = game.apply(s, 0, {"type": "draw"})
    s = game.apply(s, 0, {"type": "end_turn"})
    assert game.is_over(s) and game.outcome(s)["knocker"] is None


# ---------------------------------------------------------------- serialisation and views


def test_state_roundtrip_and_views():
    s = game.new_round(None, 3, random.Random(9))
    assert ManipulationState.from_dict(s.to_dict()) == s
    v = game.player_view(s, 0)
    assert v["game"] == "manipulation" and len(v["hand"]) == 10 and v["hand_counts"] == [10, 10, 10]
    assert "stock" not in v and v["stock_count"] == 76
    sv = game.spectator_view(s)
    assert sv["hand"] is None and sv["seat"] is None


def test_each_view_of_a_state_is_its_own_and_follows_the_state():
    """The views of one state share its public part, worked out once (``view._public``): each view is
    a dict of its own, the same as if nothing were shared, and the next state's views are its own."""
    from games.engine.manipulation import view as views

    s = game.new_round(None, 3, random.Random(9))
    first, second, watching = game.player_view(s, 0), game.player_view(s, 1), game.spectator_view(s)
    assert first is not second and first["seat"] == 0 and second["seat"] == 1 and watching["seat"] is None
    assert first["hand"] != second["hand"] and watching["hand"] is None
    fresh = views._public_of(s)
    assert {k: first[k] for k in fresh} == {k: watching[k] for k in fresh} == fresh
    nxt = game.apply(s, s.seat_to_act, {"type": "draw"})
    after = game.player_view(nxt, 1)
    assert after["stock_count"] == first["stock_count"] - 1 == views._public_of(nxt)["stock_count"]
    assert after["draws_this_turn"] == 1 and first["draws_this_turn"] == 0
    assert game.player_view(s, 1) == second  # the earlier state's views are still its own


def test_timeout_actions_are_compulsory_draws():
    s = game.new_round(None, 3, random.Random(9), dealer=0)
    acts = game.timeout_actions(s, 1)
    assert acts == [{"type": "draw"}] * 3
    assert game.timeout_actions(s, 2) == []
    s = make_state(["AS.0 AH.0 3C.0", "KC.1"], stock="2S.0", phase="end", draws=3)
    assert game.timeout_actions(s, 0) == [{"type": "end_turn"}]


def test_next_dealer_from_state():
    s = make_state(["AS.0 AH.0 3C.0", "KC.1 QC.0", "KS.0"], stock="2S.0", phase="end", draws=3, dealer=2)
    s = game.apply(s, 0, {"type": "knock"})
    assert game.outcome(s)["next_dealer"] == 0 and game.next_dealer(s) == 0
