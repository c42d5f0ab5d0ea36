"""The exact solver with several jokers (RULES B.3, E.1), proven against the brute force of test_solver.

Positions with two or three table jokers whose identical naturals are at hand (so two or more jokers can
be freed in one step), sometimes a joker in hand too (up to four jokers: 3–5 players, option ``jokers``),
under both ``freed_joker_reuse`` options and the other joker options.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import manipulation as game
from games.engine.cards import Card, as_cards, make_deck
from games.engine.manipulation import ManipulationRules
from games.engine.manipulation.melds import completions
from games.engine.manipulation.solver import best_play

from .oracle import BIG, _state_for, assert_matches_brute_force, brute_force


def _position(rng: random.Random, jokers: int, reuse: str):
    lo = rng.choice([1, 2, 5, 8, 10, 11])
    ranks = [((lo - 1 + k) % 13) + 1 for k in range(rng.choice([3, 4]))]
    suits = rng.sample(range(4), 3)
    deck = [c for c in make_deck(2, 0) if c.rank in ranks and c.suit in suits]
    rng.shuffle(deck)
    table, hand = [], []
    for k in range(jokers):
        for _ in range(40):
            pick = rng.sample(deck, 2)
            comps = completions([*pick, Card.joker(k)], None)
            if comps:
                break
        else:
            continue
        _kind, (ident,) = rng.choice(comps)
        table.append([*pick, Card.joker(k).declare(*ident)])
        deck = [c for c in deck if c not in pick]
        # the natural that frees it: usually in hand, sometimes on the table (a third meld) or nowhere
        sub = next((c for c in deck if c.key == ident), None)
        if sub is not None and rng.random() < 0.8:
            hand.append(sub)
            deck.remove(sub)
    # both copies of a value now and then (two new melds may each need one), then single cards
    for card in rng.sample(deck, min(len(deck), rng.choice([0, 1, 2]))):
        twins = [c for c in deck if c.key == card.key]
        if len(twins) == 2 and twins[0] not in hand:
            hand += twins
            deck = [c for c in deck if c.key != card.key]
    hand += deck[: rng.choice([1, 2, 3, 4])]
    if rng.random() < 0.35:
        hand.append(Card.joker(jokers))
    while sum(map(len, table)) + len(hand) > 13:
        hand.pop(rng.randrange(len(hand)))
    options = {"freed_joker_reuse": reuse}
    if rng.random() < 0.3:
        options["joker_substitute_from"] = "hand_only"
    if rng.random() < 0.25:
        options["ace_in_sequences"] = rng.choice(["low_only", "high_only"])
    return table, hand, ManipulationRules(**options)


@st.composite
def freed_joker_positions(draw, reuse="new_meld_only"):
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    return _position(rng, draw(st.sampled_from([2, 2, 3])), reuse)


def _check(position):
    table, hand, rules = position
    assert_matches_brute_force(table, hand, rules, rules.freed_joker_reuse)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(freed_joker_positions())
def test_new_meld_only_with_several_freed_jokers_matches_brute_force(position):
    _check(position)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(freed_joker_positions(reuse="any_meld"))
def test_several_jokers_any_meld_matches_brute_force(position):
    _check(position)


def test_two_freed_jokers_new_melds_need_both_copies():
    # both freed jokers go into new hand melds that each need a 9♥ (two copies in hand), or a hand joker
    rules = ManipulationRules(freed_joker_reuse="new_meld_only")
    table = [["5S", "6S", "JK=7S"], ["4D", "5D", "JK=6D"]]
    hand = ["7S.0", "6D.0", "9H.0", "9H.1", "TH.0", "9C.0"]
    play = best_play(table, hand, rules=rules)
    assert play.points == brute_force([as_cards(m) for m in table], as_cards(hand), rules) // BIG
    assert play.points == 7 + 6 + 9 + 9 + 10 + 9


def test_two_freed_jokers_in_two_new_melds_sharing_a_value():
    # found by the property above against the previous enumeration (one copy of each hand value): 55 vs 56
    rules = ManipulationRules(freed_joker_reuse="new_meld_only")
    table = [["9S.0", "8S.0", "JK=TS.0"], ["TH.0", "TS.1", "JK=TD.1"]]
    hand = ["TS.0", "TD.0", "9D.0", "9D.1", "9H.0", "8H.0", "9H.1"]
    play = best_play(table, hand, rules=rules)
    assert play.points * BIG + len(play.played) == brute_force([as_cards(m) for m in table], as_cards(hand), rules)
    assert play.points == 56
    report = game.check_table(_state_for(as_cards_table(table), as_cards(hand), rules), 0, play.table_ids)
    assert report["ok"], report


def as_cards_table(table):
    return [as_cards(m) for m in table]
