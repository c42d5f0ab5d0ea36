"""The exact solver on ace-heavy positions (RULES B.2.3, E.1 ``ace_in_sequences``), against brute force.

The solver keeps aces for the high end of a sequence (…Q-K-A) as a reservation made at rank 1 and carried
as a value vector to rank 14; these positions (Q, K, A, 2, 3 of two packs, jokers) exercise every part of
that: aces used low and high in one play, forced table aces moved from low to high, wildcard Q-K-A runs.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import Card, make_deck
from games.engine.manipulation import ManipulationRules
from games.engine.manipulation.melds import completions
from games.engine.manipulation.solver import best_play

from .oracle import assert_matches_brute_force


@st.composite
def ace_positions(draw):
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    ranks = rng.choice([[12, 13, 1, 2, 3], [12, 13, 1, 2], [13, 1, 2, 3], [11, 12, 13, 1]])
    suits = rng.sample(range(4), rng.choice([2, 3]))
    deck = [c for c in make_deck(2, 0) if c.rank in ranks and c.suit in suits]
    rng.shuffle(deck)
    jks = [Card.joker(k) for k in range(rng.choice([0, 0, 1, 2]))]
    table = []
    for _ in range(rng.choice([0, 1, 2, 3])):
        pick = rng.sample(deck, 3)
        if jks and rng.random() < 0.4:
            pick = pick[:-1] + [jks.pop()]
        comps = completions(pick, None)
        if not comps:
            continue
        _kind, idents = rng.choice(comps)
        it = iter(idents)
        table.append([c.declare(*next(it)) if c.is_joker else c for c in pick])
        deck = [c for c in deck if c not in pick]
    hand = deck[: rng.choice([3, 4, 5, 6])] + jks[: rng.choice([0, 1])]
    while sum(map(len, table)) + len(hand) > 12:
        hand.pop()
    options = {"ace_in_sequences": rng.choice(["high_or_low", "high_or_low", "low_only", "high_only"])}
    if rng.random() < 0.3:
        options["joker_substitute_from"] = "hand_only"
    if rng.random() < 0.3:
        options["freed_joker_reuse"] = "new_meld_only"
    return table, hand, ManipulationRules(**options)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ace_positions())
def test_ace_positions_match_brute_force(position):
    table, hand, rules = position
    assert_matches_brute_force(table, hand, rules, rules.ace_in_sequences)


def test_table_ace_moves_from_low_to_high():
    # the table's A♠ leaves A-2-3-4 for Q-K-A (not with aces low only)
    assert best_play([["AS", "2S", "3S", "4S"]], ["QS", "KS"]).points == 20
    assert best_play([["AS", "2S", "3S", "4S"]], ["JK", "JK"]).points == 50
    low_only = ManipulationRules(ace_in_sequences="low_only")
    assert best_play([["AS", "2S", "3S", "4S"]], ["QS", "KS"], rules=low_only).points == 0
