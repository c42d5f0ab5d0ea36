"""The solver's search (issue 17): branch and bound over the rank DP, states merged and dominated.

Two-pack mid-game positions are too big for the brute force of ``oracle.py``; there the search is held
to the same DP run plainly (every state kept but for the floor, none merged or dominated: ``Forward(p,
plain=True)``) over every joker case, and its play to the engine's own check.  The pieces it is made of
(packed gains, the covering relation of open runs) are checked on their own.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import manipulation as game
from games.engine.cards import Card, make_deck
from games.engine.manipulation import ManipulationRules
from games.engine.manipulation.solver import best_play
from games.engine.manipulation.solver.dp import NEG, Problem
from games.engine.manipulation.solver.forward import Forward, covers
from games.engine.manipulation.solver.search import _parse_inputs, _Step

from .oracle import _state_for


def plain_value(table, hand, rules=None, objective="points"):
    """The best value of a meld step by the plain DP, over every joker case (no bound, no merging)."""
    melds, hand_cards = _parse_inputs(table, hand)
    best = 0
    for _bound, _i, args, const, _pre, _played in _Step(melds, hand_cards, objective, rules).cases():
        found, proven = Forward(Problem(*args), plain=True).run(NEG, None)
        assert proven
        if found is not None:
            best = max(best, found[0] + const)
    return best


def value_of(play, objective="points"):
    return play.points * 4096 + len(play.played) if objective == "points" else len(play.played) * 4096 + play.points


def midgame(rng, jokers_on_table, jokers_in_hand, hand_size):
    """A table the solver lays from a shuffled two-pack deck (with jokers), and a hand of the rest."""
    while True:
        deck = make_deck(2, 0)
        rng.shuffle(deck)
        laid = best_play([], deck[: rng.randint(10, 45)] + [Card.joker(d) for d in range(jokers_on_table)])
        if 2 <= len(laid.table_cards) <= 14:
            break
    used = {(c.rank, c.suit, c.deck) for m in laid.table_cards for c in m if not c.is_joker}
    rest = [c for c in deck if (c.rank, c.suit, c.deck) not in used]
    hand = rest[: hand_size - jokers_in_hand] + [Card.joker(jokers_on_table + d) for d in range(jokers_in_hand)]
    return laid.table_cards, hand


RULE_CHOICES = [
    {},
    {"ace_in_sequences": "low_only"},
    {"ace_in_sequences": "high_only"},
    {"joker_substitute_from": "hand_only"},
    {"freed_joker_reuse": "new_meld_only"},
]


@st.composite
def midgame_positions(draw):
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    table, hand = midgame(
        rng, draw(st.sampled_from([0, 0, 1, 2])), draw(st.sampled_from([0, 0, 1, 2])), draw(st.integers(5, 13))
    )
    return (
        table,
        hand,
        ManipulationRules(**draw(st.sampled_from(RULE_CHOICES))),
        draw(st.sampled_from(["points", "cards"])),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(midgame_positions())
def test_search_matches_the_plain_dp_on_midgame_positions(position):
    table, hand, rules, objective = position
    play = best_play(table, hand, rules=rules, objective=objective)
    assert value_of(play, objective) == plain_value(table, hand, rules, objective)
    if play.played:
        report = game.check_table(_state_for(table, hand, rules), 0, play.table_ids)
        assert report["ok"], report


def test_search_matches_the_plain_dp_with_many_hand_cards_and_jokers():
    # the positions that made the old solver slow: 14-20 hand cards and jokers
    rng = random.Random(17)
    for n in range(6):
        table, hand = midgame(rng, n % 3, 1 + n % 2, 14 + n)
        play = best_play(table, hand)
        assert value_of(play) == plain_value(table, hand)
        report = game.check_table(_state_for(table, hand, ManipulationRules()), 0, play.table_ids)
        assert report["ok"], report


# ---------------------------------------------------------------- the pieces


def runs(n1=0, n2=0, n3=0, low=0):
    return n1 | n2 << 4 | n3 << 8 | low << 12


def test_covers_long_runs_stand_for_shorter_ones():
    assert covers(runs(n3=1), runs(n2=1), True)  # a long run can do all a run of two can
    assert covers(runs(n2=1), runs(n1=1), True)  # and a run of two all a run of one can
    assert covers(runs(n3=2), runs(n3=1), True)  # an extra long run closes at once
    assert covers(runs(n3=1), runs(), True)
    assert not covers(runs(n2=1), runs(), True)  # a run of two must go on: not covered by nothing
    assert not covers(runs(), runs(n1=1), True)  # nor stands for a run that may still grow
    assert not covers(runs(n1=1), runs(n2=1), True)
    assert not covers(runs(n1=1, n3=1), runs(n3=1), True)  # the extra run of one must go on
    assert covers(runs(n2=1, n3=1), runs(n1=1, n2=1), True)


def test_covers_keeps_runs_started_with_a_low_ace_apart():
    # they never take a high ace: as many of them in both, and before rank 4 nothing else may differ
    assert not covers(runs(n3=2, low=1), runs(n3=2), True)
    assert covers(runs(n3=2, low=1), runs(n3=1, low=1), True)
    assert not covers(runs(n2=1, low=1), runs(n1=1, low=1), False)
    assert covers(runs(n2=1, low=1), runs(n2=1, low=1), False)


def test_packed_gains_take_the_best_of_every_field():
    # the SWAR steps of Forward._expand against plain lists, on random gains and thresholds
    rng = random.Random(3)
    melds, hand = _parse_inputs([["AS", "2S", "3S"], ["QH", "KH", "AH"]], ["AD", "QS", "KS", "AC", "JK"])
    problem = Problem(*_Step(melds, hand, "points", None).cases()[0][2])
    fw = Forward(problem)
    assert problem.L > 1
    for _ in range(200):
        a = [rng.choice([None, rng.randrange(fw.BIG - 1)]) for _ in range(problem.L)]
        b = [rng.choice([None, rng.randrange(fw.BIG - 1)]) for _ in range(problem.L)]
        va, vb = fw.pack(a), fw.pack(b)
        best = {0: va, 1: vb}
        fw._merge(best, 1, va)
        merged = [fw.field_of(best[1], k) for k in range(problem.L)]
        expect = [max((x for x in (x, y) if x is not None), default=None) for x, y in zip(a, b, strict=True)]
        assert merged == expect


def layer_key(suit_runs, w=0):
    """A layer key (``runs << 4 | w``) from ``{suit: runs(...)}``."""
    return sum(x << (16 * s) for s, x in suit_runs.items()) << 4 | w


def long_covers(ka, kb):
    from games.engine.manipulation.solver.forward import _PROFILE_GUARD, _long_profile

    return ((_long_profile(ka) | _PROFILE_GUARD) - _long_profile(kb)) & _PROFILE_GUARD == _PROFILE_GUARD


def test_more_long_runs_in_every_suit_dominate():
    a = layer_key({0: runs(n3=2), 2: runs(n3=1)})
    b = layer_key({0: runs(n3=1), 2: runs(n3=1)})
    assert long_covers(a, b) and not long_covers(b, a)
    c = layer_key({0: runs(n3=1), 2: runs(n3=2)})
    assert not long_covers(a, c) and not long_covers(c, a)  # more in one suit, fewer in another
    # a long run started with a low ace stands for less than one that did not
    low = layer_key({1: runs(n3=1, low=1)})
    normal = layer_key({1: runs(n3=1)})
    assert long_covers(normal, low) and not long_covers(low, normal)
    # before rank 4 the low count may be a short run's: such a state covers none without it
    assert not long_covers(layer_key({1: runs(n1=1, low=1)}), layer_key({1: runs(n1=1)}))
