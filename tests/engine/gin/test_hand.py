"""The Gin hand state machine: RULES C.2-C.9 (three players), D.1-D.2 (two players, Oklahoma)."""

import json
import random

import pytest

from games.engine import gin
from games.engine.errors import IllegalMove, InvalidAction
from games.engine.gin import GinRules, GinState, apply, deal_from_cards, legal_actions, new_round

BOX, CAPTAIN, ADVISOR = 0, 1, 2
ROLES = (BOX, CAPTAIN, ADVISOR)

# captain: run A-4♠, 7♥7♦7♣, 9♣ 10♣ (19 deadwood); box: junk
CAPTAIN_HAND = "AS 2S 3S 4S 7H 7D 7C 9C TC KD"
BOX_HAND = "5S 9H 9D KH QD 2H 3H 4D 6D 8D"


def three(upcard="JC", stock=None, **opts):
    return deal_from_cards(GinRules.box3(**opts), [BOX_HAND, CAPTAIN_HAND, []], upcard, stock, roles=ROLES)


def refuse(state, seat, action, code):
    before = state.to_dict()
    with pytest.raises(IllegalMove) as e:
        apply(state, seat, action)
    assert e.value.code == code and e.value.message.endswith(".")
    assert state.to_dict() == before  # a refused action changes nothing
    return e.value


def test_deal_three_players_c3():
    # RULES C.3: only box and captain are dealt 10; upcard; 31-card stock; the captain acts first (C.4.1)
    s = new_round(GinRules.box3(), 3, random.Random(1), roles=(2, 0, 1))
    assert [len(h) for h in s.hands] == [10, 0, 10]
    assert len(s.stock) == 31 and len(s.discard) == 1 and s.phase == "upcard" and s.seat_to_act == 0
    assert (s.box, s.captain, s.advisor) == (2, 0, 1)


def test_new_round_draws_roles_when_not_given_c2():
    s = new_round(GinRules.box3(), 3, random.Random(5))
    rd = s.role_draw
    assert (s.dealer, s.nondealer, s.advisor) == rd.roles
    last = {}
    for rnd in rd.rounds:
        for seat, card in rnd:
            last[seat] = card % 13
    # the final draws order the players: box highest, advisor lowest
    assert last[rd.box] >= last[rd.captain] >= last[rd.advisor]


def test_role_draw_ties_redraw():
    # RULES C.2.1 [ext]: find a seed with a tie and check the tied players drew again
    for seed in range(400):
        rd = gin.draw_roles(random.Random(seed))
        if len(rd.rounds) > 1:
            first = dict(rd.rounds[0])
            again = [seat for seat, _ in rd.rounds[1]]
            assert len({first[s] % 13 for s in again}) == 1 and len(again) >= 2
            assert gin.RoleDraw.from_dict(json.loads(json.dumps(rd.to_dict()))) == rd
            break
    else:
        pytest.fail("no tie in 400 seeds")


def test_captain_takes_upcard_c42():
    s = three(upcard="8C")
    s = apply(s, CAPTAIN, {"type": "take_upcard"})
    assert s.phase == "discard" and s.seat_to_act == CAPTAIN and "8C.0" in [gin.IDS[c] for c in s.hands[CAPTAIN]]
    refuse(s, CAPTAIN, {"type": "discard", "card": "8C.0"}, "cannot_discard_taken_card")  # C.5.3
    s = apply(s, CAPTAIN, {"type": "discard", "card": "KD.0"})
    assert s.phase == "draw" and s.seat_to_act == BOX and gin.IDS[s.discard[-1]] == "KD.0"


def test_taken_card_may_be_discarded_with_option_off():
    s = apply(three(upcard="8C", no_discard_of_taken_card=False), CAPTAIN, {"type": "take_upcard"})
    s = apply(s, CAPTAIN, {"type": "discard", "card": "8C.0"})
    assert s.seat_to_act == BOX


def test_box_may_take_refused_upcard_c43():
    s = apply(three(), CAPTAIN, {"type": "pass_upcard"})
    assert s.phase == "upcard_dealer" and s.seat_to_act == BOX
    s = apply(s, BOX, {"type": "take_upcard"})
    s = apply(s, BOX, {"type": "discard", "card": "KH.0"})
    assert s.phase == "draw" and s.seat_to_act == CAPTAIN


def test_both_refuse_captain_draws_stock_c44():
    s = apply(apply(three(), CAPTAIN, {"type": "pass_upcard"}), BOX, {"type": "pass_upcard"})
    assert s.seat_to_act == CAPTAIN and legal_actions(s, CAPTAIN) == [{"type": "draw_stock"}]
    refuse(s, CAPTAIN, {"type": "draw_discard"}, "must_draw_stock")
    top = s.stock[0]
    s = apply(s, CAPTAIN, {"type": "draw_stock"})
    assert top in s.hands[CAPTAIN] and len(s.stock) == 30


def test_turn_and_phase_errors():
    s = three()
    refuse(s, BOX, {"type": "take_upcard"}, "not_your_turn")
    refuse(s, ADVISOR, {"type": "draw_stock"}, "advisor_cannot_act")
    refuse(s, CAPTAIN, {"type": "draw_stock"}, "upcard_decision")
    refuse(s, CAPTAIN, {"type": "discard", "card": "KD.0"}, "upcard_decision")
    s = apply(
        apply(apply(s, CAPTAIN, {"type": "take_upcard"}), CAPTAIN, {"type": "discard", "card": "KD.0"}),
        BOX,
        {"type": "draw_stock"},
    )
    refuse(s, BOX, {"type": "draw_stock"}, "must_discard")
    refuse(s, BOX, {"type": "discard", "card": "AS.0"}, "card_not_in_hand")
    refuse(s, BOX, {"type": "take_upcard"}, "no_upcard_now")


@pytest.mark.parametrize(
    "action",
    [
        {"type": "fly"},
        {"type": "discard"},
        {"type": "discard", "card": 5},
        {"type": "discard", "card": "ZZ.0"},
        {"type": "discard", "card": "8S.1"},
        {"type": "knock", "card": "8S.0", "melds": "x"},
        {"type": "knock", "card": "8S.0", "melds": [["AS.0"]] * 12},
        {"type": "suggest", "suggestion": "x"},
        {"type": "suggest", "suggestion": {"t": "x" * 3000}},
        "draw",
        None,
    ],
)
def test_malformed_actions_are_invalid(action):
    with pytest.raises(InvalidAction):
        apply(three(), CAPTAIN, action)


def test_knock_and_gin_c6():
    # captain takes J♣ (9-10-J♣ run): A-4♠, 7s, 9-J♣ + K♦ → discard K♦ → gin
    s = apply(three(upcard="JC"), CAPTAIN, {"type": "take_upcard"})
    assert {"type": "knock", "card": "KD.0"} in legal_actions(s, CAPTAIN)
    s = apply(s, CAPTAIN, {"type": "knock", "card": "KD.0"})
    out = gin.outcome(s)
    assert out["kind"] == "gin" and out["winner"] == CAPTAIN and out["knocker"] == CAPTAIN
    assert out["settlement"]["layoffs"] == [] and out["points"] == gin.deadwood(BOX_HAND) + 25
    assert gin.is_over(s) and s.seat_to_act is None and legal_actions(s, BOX) == []
    refuse(s, BOX, {"type": "draw_stock"}, "hand_over")


def test_knock_too_high_refused():
    s = apply(three(upcard="QC"), CAPTAIN, {"type": "take_upcard"})
    err = refuse(s, CAPTAIN, {"type": "knock", "card": "KD.0"}, "knock_too_high")
    assert "K♦" in err.message
    # with 9♣ 10♣ Q♣ (29) nobody may knock
    assert not [a for a in legal_actions(s, CAPTAIN) if a["type"] == "knock"]


def test_knock_with_laid_melds_and_invalid_melds():
    # RULES C.6.2: the knocker chooses the arrangement; it must be valid and within the limit
    cap = "AS 2S 3S 4S 7H 7D 7C 2C 3C KD"
    s = deal_from_cards(GinRules.box3(), [BOX_HAND.replace("4D", "5C"), cap, []], "4D", roles=ROLES)
    s = apply(s, CAPTAIN, {"type": "take_upcard"})  # deadwood after K♦: 2♣ 3♣ 4♦ = 9
    refuse(s, CAPTAIN, {"type": "knock", "card": "KD.0", "melds": [["AS.0", "2S.0", "4S.0"]]}, "invalid_meld")
    short = {"type": "knock", "card": "KD.0", "melds": [["AS.0", "2S.0", "3S.0"], ["7H.0", "7D.0", "7C.0"]]}
    refuse(s, CAPTAIN, short, "knock_too_high")  # 4♠ 2♣ 3♣ 4♦ = 13
    full = {"type": "knock", "card": "KD.0", "melds": [["AS.0", "2S.0", "3S.0", "4S.0"], ["7H.0", "7D.0", "7C.0"]]}
    s = apply(s, CAPTAIN, full)
    st = gin.outcome(s)["settlement"]
    assert st["knocker_deadwood"] == 9 and st["knocker_melds"] == full["melds"]


def test_layoffs_in_game_knock():
    # box knocks; the captain lays off on the box's melds automatically (C.6.4)
    box = "5H 6H 7H KS KD KC AC 2C 3C 4D"
    cap = "8H 9H QS QD JC 9C 8C 2D 3D 6S"
    s = deal_from_cards(GinRules.box3(), [box, cap, []], "AD", roles=ROLES)
    s = apply(apply(s, CAPTAIN, {"type": "pass_upcard"}), BOX, {"type": "take_upcard"})
    refuse(s, BOX, {"type": "knock", "card": "AD.0"}, "cannot_discard_taken_card")
    s = apply(s, BOX, {"type": "knock", "card": "4D.0"})
    st = gin.outcome(s)["settlement"]
    assert sorted(x["card"] for x in st["layoffs"]) == ["8H.0", "9H.0"]
    assert st["knocker_deadwood"] == 1 and st["defender_deadwood"] == 10 + 10 + 10 + 9 + 8 + 2 + 3 + 6
    assert gin.outcome(s)["winner"] == BOX and gin.outcome(s)["kind"] == "knock"


def play_to_stock(state, left):
    """Both players draw from the stock and discard the drawn card until ``left`` stock cards remain."""
    s = apply(apply(state, state.nondealer, {"type": "pass_upcard"}), state.dealer, {"type": "pass_upcard"})
    while len(s.stock) > left and s.phase == "draw":
        seat = s.seat_to_act
        c = s.stock[0]
        s = apply(s, seat, {"type": "draw_stock"})
        s = apply(s, seat, {"type": "discard", "card": gin.IDS[c]})
    return s


def test_dead_hand_at_two_stock_cards_c8():
    s = play_to_stock(new_round(GinRules.box3(), 3, random.Random(3), roles=ROLES), 2)
    assert s.phase == "over" and len(s.stock) == 2
    out = gin.outcome(s)
    assert out["kind"] == "dead" and out["winner"] is None and out["points"] == 0


def test_fiftieth_card_rule_option():
    s = play_to_stock(new_round(GinRules.box3(fiftieth_card_rule=True), 3, random.Random(3), roles=ROLES), 2)
    assert s.phase == "fiftieth" and len(s.stock) == 2
    seat = s.seat_to_act
    acts = legal_actions(s, seat)
    assert {"type": "pass"} in acts
    if {"type": "draw_discard"} not in acts:
        refuse(s, seat, {"type": "draw_discard"}, "fiftieth_card_knock_only")
    s2 = apply(s, seat, {"type": "pass"})
    assert gin.outcome(s2)["kind"] == "dead"


def test_advisor_suggestions_c24():
    s = three()
    s2 = apply(s, ADVISOR, {"type": "suggest", "suggestion": {"action": "take_upcard"}})
    assert s2.hands == s.hands and s2.stock == s.stock and s2.seat_to_act == s.seat_to_act
    cap_view = gin.player_view(s2, CAPTAIN)
    assert cap_view["suggestions"][0]["suggestion"] == {"action": "take_upcard"}
    box_view = gin.player_view(s2, BOX)
    assert "suggestions" not in box_view and "take_upcard" not in json.dumps(box_view.get("suggestions", ""))
    assert "suggestions" not in gin.spectator_view(s2)
    adv = gin.player_view(s2, ADVISOR)
    assert adv["captain_hand"] == [gin.IDS[c] for c in s.hands[CAPTAIN]] and adv["hand"] == []
    refuse(s, CAPTAIN, {"type": "suggest", "suggestion": {"action": "pass_upcard"}}, "not_advisor")
    refuse(
        three(advisor_can_advise=False),
        ADVISOR,
        {"type": "suggest", "suggestion": {"action": "pass_upcard"}},
        "advice_disabled",
    )


@pytest.mark.parametrize(
    "suggestion",
    [
        {},
        {"action": "discard", "card": "ZZ"},
        {"action": "discard"},
        {"action": "fly"},
        {"action": {"type": "take_upcard"}},
        {"action": "take_upcard", "card": "8S.0"},
        {"action": "discard", "card": 5},
        {"action": "take_upcard", "text": "x"},
        "discard",
        None,
        [],
    ],
)
def test_a_malformed_suggestion_is_refused_and_changes_nothing(suggestion):
    s = three()
    with pytest.raises(InvalidAction) as exc:
        apply(s, ADVISOR, {"type": "suggest", "suggestion": suggestion})
    assert exc.value.code == "bad_suggestion"


def test_a_suggestion_must_name_a_card_of_the_captain():
    s = three()
    foreign = next(c for c in range(52) if c not in s.hands[CAPTAIN])
    refuse(
        s, ADVISOR, {"type": "suggest", "suggestion": {"action": "discard", "card": gin.IDS[foreign]}}, "bad_suggestion"
    )
    own = gin.IDS[s.hands[CAPTAIN][0]]
    s2 = apply(s, ADVISOR, {"type": "suggest", "suggestion": {"action": "discard", "card": own}})
    assert gin.player_view(s2, CAPTAIN)["suggestions"][-1]["suggestion"] == {"action": "discard", "card": own}


def _suggest(action):
    return {"type": "suggest", "suggestion": {"action": action}}


def test_no_take_the_discard_suggestion_while_the_pile_is_empty():
    # RULES C.5.1/C.5.4: only the top discard can be taken.  The captain took the upcard, the only
    # discard: until he discards there is nothing to take, so the advisor may not suggest it.
    s = apply(three(), CAPTAIN, {"type": "take_upcard"})
    assert s.discard == () and s.phase == "discard"
    e = refuse(s, ADVISOR, _suggest("draw_discard"), "discard_pile_empty")
    assert "empty" in e.message
    assert "draw_discard" not in gin.player_view(s, ADVISOR)["suggestible"]
    for ok in ("draw_stock", "knock"):
        assert apply(s, ADVISOR, _suggest(ok)).suggestions
    own = gin.IDS[s.hands[CAPTAIN][0]]
    assert apply(s, ADVISOR, {"type": "suggest", "suggestion": {"action": "discard", "card": own}}).suggestions


def test_no_take_the_discard_suggestion_when_the_captain_must_draw_from_the_stock():
    # RULES C.4.4: both refused the upcard, the captain starts by drawing from the stock.
    s = apply(apply(three(), CAPTAIN, {"type": "pass_upcard"}), BOX, {"type": "pass_upcard"})
    assert s.seat_to_act == CAPTAIN and s.discard
    refuse(s, ADVISOR, _suggest("draw_discard"), "must_draw_stock")
    assert gin.player_view(s, ADVISOR)["suggestible"] == ["draw_stock", "discard", "knock"]


def test_the_advisor_is_told_what_he_may_suggest_now():
    s = three()
    assert gin.player_view(s, ADVISOR)["suggestible"] == ["take_upcard", "pass_upcard", "discard", "knock"]
    s = apply(apply(s, CAPTAIN, {"type": "take_upcard"}), CAPTAIN, {"type": "discard", "card": "KD"})
    s = apply(s, BOX, {"type": "draw_stock"})
    s = apply(s, BOX, {"type": "discard", "card": gin.IDS[s.hands[BOX][0]]})
    assert gin.player_view(s, ADVISOR)["suggestible"] == ["draw_stock", "draw_discard", "discard", "knock"]
    assert "suggestible" not in gin.player_view(s, CAPTAIN) and "suggestible" not in gin.player_view(s, BOX)
    assert gin.player_view(three(advisor_can_advise=False), ADVISOR)["suggestible"] == []


def test_two_player_first_dealer_random_and_given():
    dealers = {new_round(GinRules.two_player(), 2, random.Random(seed)).dealer for seed in range(20)}
    assert dealers == {0, 1}
    s = new_round(GinRules.two_player(), 2, random.Random(1), dealer=1)
    assert s.dealer == 1 and s.seat_to_act == 0 and s.advisor is None
    with pytest.raises(InvalidAction):
        new_round(GinRules.two_player(), 3, random.Random(1))


def test_oklahoma_ace_gin_only_d21():
    hand0 = "AS 2S 3S 4S 7H 7D 7C 9C TC KD"
    s = deal_from_cards(GinRules.oklahoma(), [hand0, BOX_HAND], "AD", dealer=1)
    assert s.knock_limit == 0 and s.multiplier == 1
    s = apply(s, 0, {"type": "take_upcard"})  # A♦: deadwood after K♦ = A + 9 + 10 = 20
    refuse(s, 0, {"type": "knock", "card": "KD.0"}, "gin_only")
    s = deal_from_cards(GinRules.oklahoma(oklahoma_ace="one"), [hand0, BOX_HAND], "AD", dealer=1)
    assert s.knock_limit == 1


def test_oklahoma_spades_double_in_game_d25():
    hand0 = "AS 2S 3S 4S 7H 7D 7C 9C TC 2D"
    s = deal_from_cards(GinRules.oklahoma(), [hand0, BOX_HAND], "6S", dealer=1)
    assert s.knock_limit == 6 and s.multiplier == 2
    s = apply(s, 0, {"type": "pass_upcard"})
    s = apply(s, 1, {"type": "pass_upcard"})
    s = apply(s, 0, {"type": "draw_stock"})  # the first upcard stays visible after it is gone (D.2.2)
    v = gin.player_view(s, 0)
    assert v["first_upcard"] == "6S.0" and v["knock_limit"] == 6 and v["multiplier"] == 2
    # 9♣ 10♣ 2♦ + drawn card exceed 6 whichever card goes: no knock offered
    assert all(
        gin.deadwood([c for c in v["hand"] if c != a["card"]]) <= 6 for a in legal_actions(s, 0) if a["type"] == "knock"
    )


def test_big_gin_option():
    hand = "AS 2S 3S 4S 7H 7D 7C 9C TC KD"
    s = deal_from_cards(GinRules.two_player(big_gin=31), [hand.replace("KD", "JC"), BOX_HAND], "QC", dealer=1)
    s = apply(s, 0, {"type": "take_upcard"})
    assert {"type": "knock"} in legal_actions(s, 0)
    s = apply(s, 0, {"type": "knock"})
    out = gin.outcome(s)
    assert out["kind"] == "gin" and out["settlement"]["big_gin"] and out["points"] == gin.deadwood(BOX_HAND) + 31
    s = deal_from_cards(GinRules.two_player(), [hand.replace("KD", "JC"), BOX_HAND], "QC", dealer=1)
    s = apply(s, 0, {"type": "take_upcard"})
    refuse(s, 0, {"type": "knock"}, "big_gin_not_allowed")


def test_state_round_trip_and_views_json():
    s = apply(three(), ADVISOR, {"type": "suggest", "suggestion": {"action": "take_upcard"}})
    s = apply(s, CAPTAIN, {"type": "take_upcard"})
    d = json.loads(json.dumps(s.to_dict()))
    assert GinState.from_dict(d) == s
    for seat in range(3):
        json.dumps(gin.player_view(s, seat))
    assert "seed" not in json.dumps(s.to_dict())


def test_timeout_actions_complete_the_turn():
    s = three()
    acts = gin.timeout_actions(s, CAPTAIN)
    assert acts == [{"type": "pass_upcard"}]
    s = apply(apply(s, CAPTAIN, {"type": "pass_upcard"}), BOX, {"type": "pass_upcard"})
    acts = gin.timeout_actions(s, CAPTAIN)
    assert [a["type"] for a in acts] == ["draw_stock", "discard"]
    for a in acts:
        s = apply(s, CAPTAIN, a)
    assert s.seat_to_act == BOX and gin.timeout_actions(s, ADVISOR) == []


def test_stock_draw_is_private_and_outcome_is_flat():
    s = apply(apply(three(), CAPTAIN, {"type": "pass_upcard"}), BOX, {"type": "pass_upcard"})
    top = gin.IDS[s.stock[0]]
    s = apply(s, CAPTAIN, {"type": "draw_stock"})
    assert gin.player_view(s, CAPTAIN)["drawn"] == top and gin.player_view(s, ADVISOR)["log"][-1]["card"] == top
    assert gin.player_view(s, BOX)["log"][-1] == {"type": "draw_stock", "seat": CAPTAIN, "card": None}
    assert gin.player_view(s, BOX)["drawn"] is None
    s = apply(s, CAPTAIN, {"type": "discard", "card": top})
    assert gin.player_view(s, BOX)["log"][-2]["card"] is None  # still not told it was the drawn card
    # a finished knock: the flat keys the web layer reads
    box = "5H 6H 7H KS KD KC AC 2C 3C 4D"
    cap = "8H 9H QS QD JC 9C 8C 2D 3D 6S"
    s = deal_from_cards(GinRules.box3(), [box, cap, []], "AD", roles=ROLES)
    s = apply(apply(s, CAPTAIN, {"type": "pass_upcard"}), BOX, {"type": "take_upcard"})
    out = gin.outcome(apply(s, BOX, {"type": "knock", "card": "4D.0"}))
    assert (out["outcome"], out["knocker"], out["defender"], out["winner"], out["loser"]) == (
        "knock",
        BOX,
        CAPTAIN,
        BOX,
        CAPTAIN,
    )
    assert out["knocker_deadwood"] == 1 and out["knocker_deadwood_cards"] == ["AD.0"] and len(out["layoffs"]) == 2
    assert out["points"] == out["defender_deadwood"] - 1 and out["roles"] == {"box": 0, "captain": 1, "advisor": 2}
    assert out["knock_card"] == "4D.0" and len(out["hands"][BOX]) == 10 and out["hands"][ADVISOR] == []


def test_oklahoma_example_d25_played():
    # RULES D.2.5: upcard 6♠ → limit 6, spades double; A knocks with 4, B has 22 → (22 - 4) × 2 = 36
    a = "AS 2S 3S 7H 7D 7C 9C TC JC 4D"
    b = "TH JH QH 5S 5H 5D 2D 3H 8S 9S"
    rest = [c for c in gin.CODES if c not in (a + " " + b + " 6S KH").split()]
    s = deal_from_cards(GinRules.oklahoma(), [a, b], "6S", ["KH", *rest], dealer=1)
    s = apply(apply(s, 0, {"type": "pass_upcard"}), 1, {"type": "pass_upcard"})
    s = apply(s, 0, {"type": "draw_stock"})
    s = apply(s, 0, {"type": "knock", "card": "KH.0"})
    out = gin.outcome(s)
    assert (out["kind"], out["winner"], out["points"], out["multiplier"]) == ("knock", 0, 36, 2)
    assert (out["knocker_deadwood"], out["defender_deadwood"]) == (4, 22)
