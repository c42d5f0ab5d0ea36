"""GinRules: the option keys and defaults of RULES E.2, per variant; validation; serialisation."""

import pytest

from games.engine.errors import InvalidAction
from games.engine.gin import GinRules

E2_KEYS = {
    "knock_limit",
    "gin_bonus",
    "undercut_bonus",
    "undercut_on_tie",
    "big_gin",
    "no_discard_of_taken_card",
    "dead_hand_at_stock",
    "fiftieth_card_rule",
    "game_target",
    "end_bonuses",
    "game_bonus",
    "box_bonus",
    "shutout",
    "role_draw_ties",
    "advisor_can_advise",
    "dealer_2p",
    "oklahoma_ace",
    "oklahoma_spades_double",
    "oklahoma_double_boxes",
    "hollywood_target",
}

COMMON = {
    "knock_limit": 10,
    "gin_bonus": 25,
    "undercut_bonus": 10,
    "undercut_on_tie": True,
    "big_gin": "off",
    "no_discard_of_taken_card": True,
    "dead_hand_at_stock": 2,
    "fiftieth_card_rule": False,
    "game_bonus": 100,
    "box_bonus": 25,
    "shutout": "game_bonus_200",
    "role_draw_ties": "redraw",
    "advisor_can_advise": True,
    "dealer_2p": "winner",
    "oklahoma_ace": "gin_only",
    "oklahoma_spades_double": True,
    "oklahoma_double_boxes": False,
    "hollywood_target": 100,
}


@pytest.mark.parametrize(
    "rules, variant, players, target, end_bonuses, oklahoma",
    [
        (GinRules(), "box3", 3, 100, False, False),  # E.2: three-player text has no end bonuses
        (GinRules.box3(), "box3", 3, 100, False, False),
        (GinRules.two_player(), "gin2", 2, 100, True, False),
        (GinRules.oklahoma(), "oklahoma", 2, 150, True, True),  # D.2.4: Oklahoma to 150
        (GinRules.hollywood(), "hollywood", 2, 100, True, False),
        (GinRules.hollywood(oklahoma=True), "hollywood", 2, 100, True, True),
    ],
)
def test_defaults_per_variant_e2(rules, variant, players, target, end_bonuses, oklahoma):
    d = rules.to_dict()
    assert set(d) == E2_KEYS | {"variant", "oklahoma"}
    assert {k: d[k] for k in COMMON} == COMMON
    assert (rules.variant, rules.players, rules.game_target, rules.end_bonuses, rules.oklahoma) == (
        variant,
        players,
        target,
        end_bonuses,
        oklahoma,
    )
    assert GinRules.from_dict(d) == rules


@pytest.mark.parametrize(
    "options",
    [
        {"knock_limit": 11},
        {"knock_limit": -1},
        {"knock_limit": "5"},
        {"knock_limit": True},
        {"gin_bonus": 30},
        {"undercut_bonus": 15},
        {"box_bonus": 10},
        {"hollywood_target": 90},
        {"dead_hand_at_stock": 3},
        {"shutout": "triple"},
        {"dealer_2p": "random"},
        {"oklahoma_ace": "two"},
        {"big_gin": 40},
        {"end_bonuses": "yes"},
        {"game_target": 0},
        {"variant": "gin4"},
        {"colour": "red"},
        {"variant": "gin2", "oklahoma": True},
        {"variant": "oklahoma", "oklahoma": False},
    ],
)
def test_bad_options_are_invalid(options):
    with pytest.raises(InvalidAction):
        GinRules(**options)


def test_options_accepted_and_normalised():
    r = GinRules.two_player(
        gin_bonus=20, undercut_bonus=25, big_gin=31, shutout=False, box_bonus=20, dealer_2p="alternate", knock_limit=0
    )
    assert (r.gin_bonus, r.undercut_bonus, r.big_gin, r.shutout, r.box_bonus, r.knock_limit) == (
        20,
        25,
        "31",
        "off",
        20,
        0,
    )
    assert GinRules.oklahoma(game_target=100).game_target == 100
    with pytest.raises(InvalidAction):
        GinRules.from_dict("box3")


def test_variant_aliases_of_the_web_layer():
    assert GinRules(variant="gin_box") == GinRules.box3() and GinRules(variant="gin") == GinRules.two_player()
