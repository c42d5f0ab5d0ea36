"""A freed joker takes a new identity wherever it goes in the same step (RULES B.3.3, B.3.4, M4).

The page moves a table joker with the declaration it had (``JK=QH.0``) or bare (``JK.0``): once a
natural Q♥ has freed it, the engine declares it again where it now lies: the one identity that
makes that meld valid, or the options to choose from.  Without a natural Q♥ the joker keeps its
identity (B.3.2, B.3.5) and a meld it does not fit is still refused.
"""

import pytest

from games.engine import manipulation as game
from games.engine.errors import IllegalMove

from .helpers import make_state


def meld(*melds):
    return {"type": "meld", "table": [m.split() for m in melds]}


def table_codes(state):
    return [[game.card_ref(c) for c in m] for m in state.table]


def reclaim_state(**kw):
    # the position: Q♥ in hand, the joker stands for Q♥ on the table, 3♣ 3♦ in hand
    return make_state(["QH.0 3C.0 3D.0 KS.0", "KC.0"], table=["TH.0 JH.0 JK=QH.0"], stock="2S.0", **kw)


@pytest.mark.parametrize("joker", ["JK=QH.0", "JK.0"])
def test_a_freed_joker_moved_with_its_old_declaration_offers_the_identities_that_fit(joker):
    s = reclaim_state()
    rep = game.check_table(s, 0, [["TH.0", "JH.0", "QH.0"], ["3C.0", "3D.0", joker]])
    assert rep["melds"][0]["valid"]
    threes = rep["melds"][1]
    assert threes["code"] == "joker_identity_needed"
    assert threes["joker_options"] == ["3S", "3H"]
    assert threes["jokers"] == {"JK.0": "JK.0"}  # shown bare: its identity is to be chosen
    assert [e["code"] for e in rep["errors"]] == ["joker_identity_needed"]
    # the choice made, the step is legal and the joker lies as 3♥
    ok = game.check_table(s, 0, [["TH.0", "JH.0", "QH.0"], ["3C.0", "3D.0", "JK=3H.0"]])
    assert ok["ok"], ok["errors"]
    after = game.apply(s, 0, meld("TH.0 JH.0 QH.0", "3C.0 3D.0 JK=3H.0"))
    assert sorted(map(sorted, table_codes(after))) == sorted(
        map(sorted, [["TH.0", "JH.0", "QH.0"], ["3C.0", "3D.0", "JK=3H.0"]])
    )


def test_a_freed_joker_whose_identity_is_forced_is_declared_by_the_engine():
    s = make_state(["QH.0 KS.0", "KC.0"], table=["TH.0 JH.0 JK=QH.0", "3C.0 3D.0 3S.0"], stock="2S.0")
    proposed = [["TH.0", "JH.0", "QH.0"], ["3C.0", "3D.0", "3S.0", "JK=QH.0"]]
    rep = game.check_table(s, 0, proposed)
    assert rep["ok"], rep["errors"]
    assert rep["melds"][1]["jokers"] == {"JK.0": "JK=3H.0"}  # no question: 3♥ is the only card that fits
    after = game.apply(s, 0, {"type": "meld", "table": proposed})
    assert sorted(map(sorted, table_codes(after))) == sorted(
        map(sorted, [["TH.0", "JH.0", "QH.0"], ["3C.0", "3D.0", "3S.0", "JK=3H.0"]])
    )


def test_the_natural_card_dropped_on_the_joker_frees_it_in_place():
    # Q♥ added to T♥ J♥ JK(Q♥): the joker is freed where it stands and may be 9♥ or K♥
    s = reclaim_state()
    rep = game.check_table(s, 0, [["TH.0", "JH.0", "JK=QH.0", "QH.0"]])
    assert rep["melds"][0]["code"] == "joker_identity_needed"
    assert rep["melds"][0]["joker_options"] == ["9H", "KH"]


def test_without_the_natural_card_a_table_joker_keeps_its_identity():
    # RULES B.3.2 / B.3.5: no Q♥ has replaced it, so it still stands for Q♥ and does not fit the threes
    s = make_state(["3C.0 3D.0 KS.0", "KC.0"], table=["TH.0 JH.0 JK=QH.0 KH.0"], stock="2S.0")
    rep = game.check_table(s, 0, [["TH.0", "JH.0", "KH.0"], ["3C.0", "3D.0", "JK=QH.0"]])
    assert rep["melds"][1]["code"] == "joker_not_fitting"
    # the refusal says the rule (B.3.2, B.3.3): the joker's card, and what frees it
    assert rep["melds"][1]["params"]["identity"] == "QH"
    assert rep["melds"][1]["reason"] == (
        "3♣ 3♦ Joker (Q♥): this joker stands for Q♥ and keeps it, so it can go only where Q♥ fits,"
        " until a natural Q♥ takes its place."
    )
    assert "jokers" not in rep["melds"][1] or not rep["melds"][1]["jokers"]
    with pytest.raises(IllegalMove):
        game.apply(s, 0, meld("TH.0 JH.0 KH.0", "3C.0 3D.0 JK=QH.0"))


def test_a_hand_joker_declared_in_one_meld_is_declared_again_in_another():
    # B.3.1: a joker from the hand is declared where it lies; moving it in the draft asks again
    s = make_state(["JK.0 5S.0 6S.0 9D.0 9C.0", "KC.0"], stock="2S.0")
    rep = game.check_table(s, 0, [["5S.0", "6S.0"], ["9D.0", "9C.0", "JK=7S.0"]])
    nines = rep["melds"][1]
    assert nines["code"] == "joker_identity_needed" and nines["joker_options"] == ["9S", "9H"]
    assert nines["jokers"] == {"JK.0": "JK.0"}


def test_a_joker_that_fits_is_never_redeclared():
    s = make_state(["QH.0 KS.0", "KC.0"], table=["TH.0 JH.0 JK=QH.0"], stock="2S.0")
    rep = game.check_table(s, 0, [["TH.0", "JH.0", "JK=QH.0", "KS.0"]])  # K♠ does not fit: no change
    assert rep["melds"][0]["valid"] is False and not rep["melds"][0].get("jokers")
    rep = game.check_table(s, 0, [["9H.0", "TH.0", "JH.0", "JK=QH.0"]])  # 9♥ not held: still Q♥
    assert not rep["melds"][0].get("jokers")
