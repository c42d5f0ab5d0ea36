"""Settling a knock: RULES C.6 (lay-offs, gin), C.7 (scores), D.1.5-D.1.6."""

import pytest

from games.engine.errors import IllegalMove, InvalidAction
from games.engine.gin import GinRules, Settlement, deadwood, settle_knock

KNOCKER_G1 = "AS 2S 3S 4S 7H 7D 7C AH 2D 3C"  # run A-4♠, set of 7s, deadwood A♥ 2♦ 3♣ = 6


def test_g1_layoffs_on_run_and_set():
    # RULES C.11 G1 / C.6.4: the defender lays 5♠ on A-4♠ and 7♠ on the 7s; D = 20 (J♥ Q♦)
    s = settle_knock(KNOCKER_G1, "5S 7S 9H 9D 9C 4H 5H 6H JH QD")
    assert s.knocker_deadwood == 6 and s.defender_deadwood == 20
    assert sorted(c for c, _ in s.layoffs) == ["5S.0", "7S.0"]
    assert sorted(s.defender_deadwood_cards) == ["JH.0", "QD.0"]
    assert (s.outcome, s.winner, s.points) == ("knock", "knocker", 14)
    assert sorted(map(sorted, s.defender_melds)) == [["4H.0", "5H.0", "6H.0"], ["9C.0", "9D.0", "9H.0"]]


def test_layoffs_chain_along_a_run():
    # RULES C.6.4: "repeatedly, e.g. 8♥ then 9♥ onto 5♥6♥7♥"; also at the low end
    s = settle_knock("5H 6H 7H KS KD KC AC 2C 3C 4D", "8H 9H 4H KH QS QD JC 9C 8C 2D")
    laid = [c for c, _ in s.layoffs]
    assert sorted(laid) == ["4H.0", "8H.0", "9H.0", "KH.0"]
    assert s.defender_deadwood == 10 + 10 + 10 + 9 + 8 + 2


def test_defender_melds_and_layoffs_are_chosen_jointly():
    # alone, four 8s + 9♥ leave 9 deadwood; but 8♥ 9♥ laid on 5-6-7♥ and 8♠ 8♦ 8♣ as a set leave 0
    assert deadwood("8H 8S 8D 8C 9H") == 9
    rules = GinRules.two_player()
    s = settle_knock("5H 6H 7H AS 2S 3S 4S 5S AC 2C", "8H 8S 8D 8C 9H AD 2D 3D 4D 5D", rules=rules)
    assert s.knocker_deadwood == 3 and s.defender_deadwood == 0
    assert (s.outcome, s.winner, s.points) == ("undercut", "defender", 13)
    assert sorted(c for c, _ in s.layoffs) == ["8H.0", "9H.0"]


def test_no_layoffs_against_gin():
    # RULES C.6.4 / C.7.1: gin — the defender keeps his deadwood, knocker scores D + 25
    s = settle_knock("AS 2S 3S 4S 7H 7D 7C 9C TC JC", "5S 7S QD KD QH 2H 3H 4D 6D 8D")
    assert s.outcome == "gin" and s.layoffs == () and s.defender_deadwood == deadwood("5S 7S QD KD QH 2H 3H 4D 6D 8D")
    assert s.points == s.defender_deadwood + 25 and s.winner == "knocker"


def test_gin_bonus_option_and_multiplier():
    s = settle_knock("AS 2S 3S 4S 7H 7D 7C 9C TC JC", "5S", rules=GinRules.two_player(gin_bonus=20), multiplier=2)
    assert s.points == (5 + 20) * 2


def test_knocker_arrangement_choice_minimises_layoffs():
    # 4♠4♥4♦ or 3♥4♥5♥ both leave 8 deadwood; the defender's 4♣ could only go on the set → use the run
    s = settle_knock("4S 4H 4D 3H 5H 9C TC JC QC KC", "4C KS KH KD 8D 9D TD 2C 6S 8S")
    assert s.knocker_deadwood == 8 and s.defender_deadwood == 20 and s.points == 12
    assert ("3H.0", "4H.0", "5H.0") in s.knocker_melds


def test_given_worse_arrangement_within_limit_is_accepted():
    # the knocker may lay 4♠4♥4♦ (then the defender lays off 4♣)
    s = settle_knock(
        "4S 4H 4D 3H 5H 9C TC JC QC KC",
        "4C KS KH KD 8D 9D TD 2C 6S 8S",
        knocker_melds=[["4S", "4H", "4D"], ["9C", "TC", "JC", "QC", "KC"]],
    )
    assert s.knocker_deadwood == 8 and s.defender_deadwood == 16 and s.points == 8
    # a legal but worse arrangement that exceeds the limit is refused
    with pytest.raises(IllegalMove) as e:
        settle_knock("4S 4H 4D 3H 5H 9C TC JC QC KC", "4C", knocker_melds=[["4S", "4H", "4D"]])
    assert e.value.code == "knock_too_high"


@pytest.mark.parametrize(
    "melds, code",
    [
        ([["4S", "4H", "5H"]], "invalid_meld"),
        ([["QC", "KC", "AC"]], "card_not_in_hand"),
        ([["4S", "4H", "4D"], ["4D", "3D", "5D"]], "card_not_in_hand"),
        ([["9C", "TC", "JC"], ["JC", "QC", "KC"]], "meld_card_twice"),
    ],
)
def test_given_melds_are_validated(melds, code):
    with pytest.raises(IllegalMove) as e:
        settle_knock("4S 4H 4D 3H 5H 9C TC JC QC KC", "4C", knocker_melds=melds)
    assert e.value.code == code and e.value.message


def test_knock_above_limit_refused_and_overlap_invalid():
    with pytest.raises(IllegalMove):
        settle_knock("KS QS JD 2C 3H 5D 7S 9H TC 6C", "AS")
    with pytest.raises(InvalidAction):
        settle_knock("AS 2S 3S", "AS 5H")


def test_tie_without_undercut_option():
    r = GinRules.two_player(undercut_on_tie=False)
    s = settle_knock("AS 2S 3S 4S 7H 7D 7C AH 2D 3C", "KS KH KD 2H 4C", rules=r)
    assert (s.knocker_deadwood, s.defender_deadwood) == (6, 6)
    assert (s.outcome, s.winner, s.points) == ("tie", None, 0)
    s = settle_knock("AS 2S 3S 4S 7H 7D 7C AH 2D 3C", "KS KH KD 2H 4C")
    assert (s.outcome, s.winner, s.points) == ("undercut", "defender", 10)


def test_settlement_round_trip():
    s = settle_knock(KNOCKER_G1, "5S 7S 9H 9D 9C 4H 5H 6H JH QD")
    assert Settlement.from_dict(s.to_dict()) == s
