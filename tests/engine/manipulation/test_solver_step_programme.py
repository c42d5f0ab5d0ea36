"""The whole meld step as one integer programme under ``freed_joker_reuse = new_meld_only``
(``solver/lp_step.py``), against the brute force and against the search case by case.

The programme replaces the thousands of joker cases of a hard position once the stream of cases has gone
on for a while (``search.TIGHTER_AFTER`` cases or ``TIGHTER_STATES`` states).  Here it is asked at once
(both set to 0), so that it decides every position with a table joker: its value must be the optimum,
its play must pass the engine's own check (M1–M4 and the option), and where no play can be built from
its solution the search must still find the optimum.
"""

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from games.engine import manipulation as game
from games.engine.cards import as_cards
from games.engine.manipulation import ManipulationRules
from games.engine.manipulation.solver import best_play, lp_step, search

from .oracle import BIG, _state_for, brute_force
from .test_solver_jokers import freed_joker_positions

BENCH = Path(__file__).resolve().parents[3] / "bench"
sys.path.insert(0, str(BENCH))

import solver_hard  # noqa: E402

NEW_MELD_ONLY = ManipulationRules(freed_joker_reuse="new_meld_only")


@pytest.fixture
def programme_first(monkeypatch):
    """The programme asked before the first case; its answers recorded."""
    monkeypatch.setattr(search, "TIGHTER_AFTER", 0)
    monkeypatch.setattr(search, "TIGHTER_STATES", 0)
    answers = []
    real = lp_step.solve

    def recorded(step, start=None):
        got = real(step, start)
        answers.append(got)
        return got

    monkeypatch.setattr(search, "solve_step", recorded)
    return answers


def _engine_accepts(table, hand, rules, play):
    if play.played:
        report = game.check_table(_state_for(table, hand, rules), 0, play.table_ids)
        assert report["ok"], report["errors"]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(freed_joker_positions())
def test_the_programme_first_matches_brute_force(programme_first, position):
    table, hand, rules = position
    play = best_play(table, hand, rules=rules)
    assert play.points * BIG + len(play.played) == brute_force(table, hand, rules)
    _engine_accepts(table, hand, rules, play)


def test_the_programme_decides_the_hard_positions_as_the_cases_do(programme_first, monkeypatch):
    positions = solver_hard.positions(40, small=True)
    with monkeypatch.context() as m:  # the reference: every case searched, no programme
        m.setattr(search, "TIGHTER_AFTER", 10**9)
        m.setattr(search, "TIGHTER_STATES", 10**9)
        expected = [best_play(p.table, p.hand, rules=NEW_MELD_ONLY) for p in positions]
    for p, before in zip(positions, expected, strict=True):
        play = best_play(p.table, p.hand, rules=NEW_MELD_ONLY)
        assert (play.points, play.cards) == (before.points, before.cards), p.seed
        melds, hand = search._parse_inputs(p.table, p.hand)
        _engine_accepts(melds, hand, NEW_MELD_ONLY, play)
    built = [a for a in programme_first if a is not None and a.built is not None]
    assert len(built) >= 30  # the programme's own play decided most of them


def test_two_freed_jokers_and_a_hand_joker_all_laid(programme_first):
    # 7♠ and 9♣ from the hand free both table jokers; under new_meld_only they may only go into new melds
    # whose other cards are from the hand: with the hand joker, all three hand cards are laid
    table = [as_cards(["5S.0", "6S.0", "JK=7S.0"]), as_cards(["9H.0", "9D.0", "JK=9C.1"])]
    hand = as_cards(["7S.0", "9C.0", "JK.2"])
    play = best_play(table, hand, rules=NEW_MELD_ONLY)
    assert play.points == 7 + 9 + 25
    assert play.points * BIG + len(play.played) == brute_force(table, hand, NEW_MELD_ONLY)
    (answer,) = programme_first
    assert answer.built is not None  # the programme's own play
    _engine_accepts(table, hand, NEW_MELD_ONLY, play)


def test_each_freed_joker_takes_a_new_identity_in_its_meld():
    # a new meld 6♠ 7♠ 8♠ of the hand's 8♠ and two freed jokers, one of them a 6♠ before: declared 6♠
    # again it would stay a table card (not freed) in a meld with a freed joker, which the option forbids
    model = lp_step._model("high_or_low")
    cell = {c: i for i, c in enumerate(model.cells)}
    was_6s, was_7c = as_cards(["JK=6S.0", "JK=7C.1"])
    eight = as_cards(["8S.0"])[0]
    melds = lp_step._class_b(
        model,
        [[cell[(6, 0)], cell[(7, 0)], cell[(8, 0)]]],
        {cell[(8, 0)]: 1},
        {cell[(8, 0)]: [eight]},
        [was_6s, was_7c],
        [],
        [],
    )
    assert melds is not None
    (meld,) = melds
    declared = {c.deck: c.declared for c in meld if c.is_joker}
    assert declared == {0: (7, 0), 1: (6, 0)}


def test_no_meld_of_freed_jokers_alone():
    # three freed jokers and no hand card for their meld: no play is built from such a solution
    model = lp_step._model("high_or_low")
    cell = {c: i for i, c in enumerate(model.cells)}
    freed = as_cards(["JK=2S.0", "JK=9H.1", "JK=KD.2"])
    meld = [[cell[(4, 1)], cell[(5, 1)], cell[(6, 1)]]]
    assert lp_step._class_b(model, meld, {}, {}, freed, [], []) is None
    hand_joker = as_cards(["JK.3"])
    used = []
    built = lp_step._class_b(model, [meld[0] + [cell[(7, 1)]]], {}, {}, freed, list(hand_joker), used)
    assert built is not None and used == hand_joker  # with a hand joker in it, it is a meld
    # two such melds of four and two hand jokers: one in each, whatever the order of the places
    six = as_cards(["JK=2S.0", "JK=9H.1", "JK=KD.2", "JK=3C.3", "JK=4C.4", "JK=5C.5"])
    two = as_cards(["JK.6", "JK.7"])
    runs = [[cell[(r, 1)] for r in range(4, 8)], [cell[(r, 2)] for r in range(4, 8)]]
    built = lp_step._class_b(model, runs, {}, {}, six, list(two), [])
    assert built is not None
    for m in built:
        assert any(c.same_physical(h) for c in m for h in two)


def test_the_start_given_is_the_plays_point(programme_first):
    # a play of the search given as the programme's first solution maps onto its columns
    p = solver_hard.positions(10, small=True)[3]
    melds, hand = search._parse_inputs(p.table, p.hand)
    step = search._Step(melds, hand, "points", NEW_MELD_ONLY)
    play = best_play(p.table, p.hand, rules=NEW_MELD_ONLY)
    model = lp_step._model(step.ace_mode)
    point = model.point(step.cards(), play.table_cards)
    assert point is not None
    assert lp_step._value(model, step.cards(), [round(v) for v in point]) == sum(
        step.joker_weight if c.is_joker else step.weight[c.rank] for c in play.played_cards
    )
