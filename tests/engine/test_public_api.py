"""DESIGN §3: the engine's public names, at the paths the design gives and re-exported by games.engine."""

import importlib

import pytest

import games.engine
from games.engine import best_play, classify, deadwood, parse_cards

SECTION_3 = [
    ("games.engine.cards", "parse_cards"),
    ("games.engine.cards", "Card"),
    ("games.engine.melds", "classify"),
    ("games.engine.gin", "best_melds"),
    ("games.engine.gin", "deadwood"),
    ("games.engine.solver", "best_play"),
    ("games.engine.scoring", "manipulation_round_scores"),
    ("games.engine.scoring", "manipulation_final_totals"),
    ("games.engine.manipulation", "ManipulationRules"),
    ("games.engine.gin", "GinRules"),
    ("games.engine.gin", "settle_knock"),
    ("games.engine.errors", "IllegalMove"),
    ("games.engine.errors", "InvalidAction"),
]


@pytest.mark.parametrize(("module", "name"), SECTION_3)
def test_section_3_names_are_where_the_design_says(module, name):
    obj = getattr(importlib.import_module(module), name)
    assert getattr(games.engine, name) is obj


def test_the_package_exports_what_it_lists():
    for name in games.engine.__all__:
        assert hasattr(games.engine, name), name
    assert {name for _m, name in SECTION_3} <= set(games.engine.__all__)


def test_section_3_examples():

    assert [str(c) for c in parse_cards("AS TD JK")] == ["AS", "TD", "JK"]
    assert classify(["5S", "6S", "JK=7S"]) == "sequence" and classify(["5S", "5H", "JK"]) == "group"
    assert deadwood("AS 2S 3S 9H") == 9
    play = best_play([["5S", "6S", "7S"]], ["8S", "KD"])
    assert play.played == ["8S"] and play.points == 8
