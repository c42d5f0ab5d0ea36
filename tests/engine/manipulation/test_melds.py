"""Melds: groups, sequences, jokers with declared identity (RULES B.2, B.3)."""

import pytest

from games.engine.cards import parse_cards
from games.engine.manipulation.melds import classify, completions, joker_options, sort_meld, validate_meld

# RULES B.2.2 / B.2.3 / B.2.4
CLASSIFY = [
    ("7S 7H 7D", "group"),
    ("7S 7H 7D 7C", "group"),
    ("7S 7H 7D 7C 7S", None),  # at most 4 (B.2.2)
    ("7S 7H 7S", None),  # identical cards in a group
    ("5S 6S 7S", "sequence"),
    ("AS 2S 3S", "sequence"),  # ace low
    ("QS KS AS", "sequence"),  # ace high
    ("KS AS 2S", None),  # no wrap
    ("5S 6S 7H", None),  # one suit
    ("5S 7S 8S", None),  # gap
    ("5S 6S", None),  # at least 3 cards (B.2.4)
    ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "sequence"),  # 13 long
    ("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "sequence"),
    ("5S JK=6S 7S", "sequence"),
    ("5S JK=6H 7S", None),  # declared identity must fit
    ("5S JK 7S", "sequence"),  # bare joker: any identity that makes it legal
    ("9H 9D JK", "group"),
    ("JK JK 7S", "group"),
    ("JK=7H JK=7D 7S", "group"),
    ("KS JK AS", "sequence"),  # order is free: the joker is the Q♠ of Q-K-A
    ("KS JK 2S", None),  # K-A-2 even with a joker
    ("QS JK AS", "sequence"),  # joker = KS
]


@pytest.mark.parametrize(("meld", "kind"), CLASSIFY)
def test_classify(meld, kind):
    assert classify(meld) == kind


def test_classify_accepts_cards_and_lists():
    assert classify(parse_cards("5S 6S 7S")) == "sequence"
    assert classify(["9H", "9D", "9C"]) == "group"


@pytest.mark.parametrize(
    ("meld", "mode", "kind"),
    [
        ("QS KS AS", "low_only", None),
        ("AS 2S 3S", "low_only", "sequence"),
        ("AS 2S 3S", "high_only", None),
        ("QS KS AS", "high_only", "sequence"),
        ("AS AH AD", "high_only", "group"),  # groups of aces in every mode
    ],
)
def test_ace_in_sequences_option(meld, mode, kind):
    # RULES E.1 ace_in_sequences
    assert classify(meld, {"ace_in_sequences": mode}) == kind


REASONS = [
    ("5S 6S 7H", "5♠ 6♠ 7♥: a sequence must be one suit."),
    ("5S 6S", "5♠ 6♠: a meld needs at least 3 cards."),
    ("7S 7H 7S", "7♠ 7♥ 7♠: a group needs cards of different suits."),
    ("7S 7H 8D", "7♠ 7♥ 8♦: a group must be one rank."),
    ("5S 7S 8S", "5♠ 7♠ 8♠: the ranks of a sequence must be consecutive."),
    ("KS AS 2S", "K♠ A♠ 2♠: an ace cannot be in the middle of a sequence (K-A-2 is not allowed)."),
    (
        "5S JK=9H 7S",
        "5♠ Joker (9♥) 7♠: this joker stands for 9♥ and keeps it, so it can go only where 9♥ fits,"
        " until a natural 9♥ takes its place.",
    ),
    ("5S 5S 6S", "5♠ 5♠ 6♠: a sequence cannot hold two cards of the same rank."),
]


@pytest.mark.parametrize(("meld", "reason"), REASONS)
def test_validate_meld_reason(meld, reason):
    assert validate_meld(meld) == reason


def test_validate_meld_valid_is_none():
    assert validate_meld("5S 6S 7S") is None


@pytest.mark.parametrize(
    ("meld", "options"),
    [
        ("5S JK 7S", ["6S"]),  # forced
        ("5S 6S JK", ["4S", "7S"]),
        ("9H 9D JK", ["9S", "9C"]),
        ("QS KS JK", ["AS", "JS"]),  # ace high
        ("5S 6S 8S", []),  # no bare joker
        ("5S 9S JK", []),  # nothing fits
    ],
)
def test_joker_options(meld, options):
    # RULES B.3.1: a joker dropped where its identity is not forced asks which card it stands for
    assert joker_options(meld) == options


def test_joker_options_respect_ace_mode():
    assert joker_options("QS KS JK", {"ace_in_sequences": "low_only"}) == ["JS"]


def test_completions_give_every_assignment():
    comps = completions("9H 9D JK")
    assert sorted(ids for _k, ids in comps) == [((9, 0),), ((9, 3),)]


def test_sort_meld_orders_sequence_with_high_ace():
    cards = parse_cards("AS QS JK=KS")
    assert [c.code for c in sort_meld(cards)] == ["QS", "JK=KS", "AS"]
