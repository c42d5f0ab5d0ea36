"""Melds and deadwood (RULES C.1): exact minimum, checked against a brute-force partition search."""

import gc
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import gin
from games.engine.cards import Card, parse_cards
from games.engine.errors import InvalidAction


def _value(code):
    r = "A23456789TJQK".index(code[0]) + 1
    return min(r, 10)


def _is_meld_brute(cards):
    """Independent meld check on codes (C.1.2): set of 3-4 one rank, or run 3+ one suit, ace low only."""
    if len(cards) < 3:
        return False
    ranks = sorted("A23456789TJQK".index(c[0]) for c in cards)
    suits = {c[1] for c in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(suits) == len(cards)
    if len(suits) == 1:
        return ranks == list(range(ranks[0], ranks[0] + len(ranks)))
    return False


def brute_deadwood(codes):
    """Minimum deadwood by trying every partition: the first card is deadwood or in some meld."""
    codes = list(codes)
    if not codes:
        return 0
    first, rest = codes[0], codes[1:]
    best = _value(first) + brute_deadwood(rest)
    for k in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12):
        if k > len(rest):
            break
        for combo in combinations(rest, k):
            if _is_meld_brute((first,) + combo):
                left = [c for c in rest if c not in combo]
                best = min(best, brute_deadwood(left))
    return best


ALL = [r + s for s in "SHDC" for r in "A23456789TJQK"]


# RULES C.1 — table of known answers
@pytest.mark.parametrize(
    "hand, expected",
    [
        ("AS 2S 3S 4S 7H 7D 7C KH QH 9D", 29),  # run + set, deadwood Q K 9
        ("7S 7H 7D 7C 5H 6H 8H", 0),  # 7H shared: 5-6-7-8H + 7S 7D 7C
        ("QS KS AS", 21),  # Q-K-A is not a run (ace low only)
        ("KS AS 2S", 13),  # K-A-2 is not a run
        ("AS 2S 3S", 0),  # A-2-3 is a run
        ("5H 5D", 10),
        ("", 0),
        ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC", 0),  # 11-card run
        ("3S 3H 3D 4S 4H 4D 5S 5H 5D 6S", 0),  # 3-4-5-6S run + 3-4-5H + 3-4-5D
        ("TS JS QS KS TH TD", 0),  # 10 J Q K spades + ... 10 in set, J-Q-K run: T set, JQK run
        ("8S 9S TS 8H 8D 9H 9D", 10),  # two sets leave TS; the run 8-9-10S would leave 34
    ],
)
def test_known_deadwood(hand, expected):
    assert gin.deadwood(hand) == expected
    assert brute_deadwood(hand.split()) == expected


def test_card_forms_are_equivalent():
    codes = "AS 2S 3S 9H 9D 9C KD"
    assert gin.deadwood(codes) == gin.deadwood(codes.split()) == gin.deadwood(parse_cards(codes)) == 10
    assert gin.deadwood([c + ".0" for c in codes.split()]) == 10
    assert gin.deadwood(gin.hand_mask(codes)) == 10


def test_best_melds_mirrors_input_form():
    melds, dw = gin.best_melds(parse_cards("AS 2S 3S KD"))
    assert all(isinstance(c, Card) for m in melds for c in m) and [str(c) for c in dw] == ["KD"]
    melds, dw = gin.best_melds(["AS.0", "2S.0", "3S.0", "KD.0"])
    assert melds == [["AS.0", "2S.0", "3S.0"]] and dw == ["KD.0"]


@pytest.mark.parametrize("bad", [["AS", "AS"], ["JK"], ["8S.1"], ["ZZ"], [3.5]])
def test_malformed_hands_are_invalid(bad):
    with pytest.raises(InvalidAction):
        gin.deadwood(bad)


def _check(codes):
    dw = gin.deadwood(codes)
    assert dw == brute_deadwood(codes)
    melds, dead = gin.best_melds(codes)
    flat = [c for m in melds for c in m] + dead
    assert sorted(flat) == sorted(codes)  # a partition of the hand
    assert all(_is_meld_brute(m) for m in melds)
    assert sum(_value(c) for c in dead) == dw


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALL), min_size=0, max_size=11, unique=True))
def test_deadwood_equals_brute_force_random(codes):
    _check(codes)


# meld-rich hands: few ranks and suits so sets and runs overlap heavily
DENSE = [r + s for s in "SHDC" for r in "A2345678"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(DENSE), min_size=6, max_size=11, unique=True))
def test_deadwood_equals_brute_force_dense(codes):
    _check(codes)


def test_meld_kind():
    assert gin.meld_kind("5H 6H 7H") == "run"
    assert gin.meld_kind("5H 5S 5C 5D") == "set"
    assert gin.meld_kind("QH KH AH") is None
    assert gin.meld_kind("5H 6H") is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(range(52)), min_size=0, max_size=22, unique=True))
def test_rank_dp_agrees_with_memo_search(cards):
    # the two exact algorithms (memo search for <= 22 cards, per-rank DP above) agree
    h = sum(1 << c for c in cards)
    value, melds = gin.dp_arrangement(h)
    assert gin.mask_points(h) - value == gin.deadwood_mask(h)
    assert all(m in gin.ALL_MELDS for m in melds) and sum(gin.mask_points(m) for m in melds) == value


@pytest.mark.parametrize("n", [23, 30, 40, 52])
def test_large_hands_any_size(n):

    codes = random.Random(n).sample(ALL, n)
    dw = gin.deadwood(codes)
    melds, dead = gin.best_melds(codes)
    assert sorted([c for m in melds for c in m] + dead) == sorted(codes)
    assert all(_is_meld_brute(m) for m in melds) and sum(_value(c) for c in dead) == dw
    if n == 52:
        assert dw == 0


def test_deadwood_and_layouts_leave_no_cyclic_garbage():
    """The meld searches keep no reference cycle behind (a server computes them for every board push:
    cycles would pile up until a full collection, which stops every thread of the process)."""

    rng = random.Random(5)
    hands = [rng.sample(gin.IDS, 10) for _ in range(50)]
    gc.collect()
    gc.disable()
    try:
        for hand in hands:
            gin.deadwood(hand)
            gin.best_melds(hand)
        assert gc.collect() == 0
    finally:
        gc.enable()
