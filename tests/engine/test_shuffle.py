"""The documented shuffle (games.engine.shuffle, docs/fairness.md): the worked example of the
document, the rejection sampling, the deal layout against both engines' deals, and bad input."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest

from games.engine import gin, shuffle
from games.engine import manipulation as manip
from games.engine.errors import InvalidAction

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def vector() -> dict[str, str]:
    """The ``key: value`` lines of the document's test vector."""
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- test-vector -->\s*```text\n(.*?)```\s*<!-- /test-vector -->", text, re.S)
    assert block, "docs/fairness.md has no test vector"
    return dict(line.split(": ", 1) for line in block.group(1).strip().splitlines())


def test_the_documents_worked_example_is_what_the_shuffle_does():
    v = vector()
    seed, match_id, number = v["seed"], int(v["match id"]), int(v["round"])
    assert v["shuffle"] == shuffle.CURRENT
    message = shuffle.commitment_message(seed, match_id=match_id, round_number=number)
    assert message.decode("ascii") == v["commitment message"]
    assert shuffle.commitment(seed, match_id=match_id, round_number=number) == v["commitment"]
    rng = shuffle.DealRandom(seed)
    assert [rng.next_u32() for _ in range(8)] == [int(x) for x in v["draws 0-7"].split()]
    rng = shuffle.DealRandom(seed)
    assert rng.below(52) == int(v["below(52) from draw 0"])
    assert rng.below(3221225472) == int(v["below(3221225472) next"].split()[0])
    assert rng.counter == int(v["draws taken"])
    deck = shuffle.deck_ids(2, 2)
    assert len(deck) == 106
    for pair in v["deck before the shuffle, 2 packs, 2 jokers"].split():
        position, card = pair.split("=")
        assert deck[int(position)] == card
    pack = shuffle.deck_ids(1, 0)
    shuffle.DealRandom(seed).shuffle(pack)
    assert pack == v["shuffled pack (1 pack, 0 jokers)"].split()


def test_the_documents_deals_are_the_engines_deals():
    v = vector()
    seed = v["seed"]
    # Gin: the non-dealer (seat 1) first, 10 cards each, the upcard, the stock.
    state = gin.new_round(gin.GinRules.two_player(), 2, shuffle.DealRandom(seed), dealer=0)
    prefix = "gin deal, order 1 0, 10 cards each, "
    for seat in (0, 1):
        assert sorted(gin.IDS[c] for c in state.hands[seat]) == sorted(v[prefix + f"seat {seat}"].split())
    assert gin.IDS[state.first_upcard] == v[prefix + "upcard"]
    assert [gin.IDS[c] for c in state.stock[:5]] == v[prefix + "stock top"].split()
    # Manipulation, 3 seats (two packs), 2 jokers, the first round: the first draw chooses the dealer.
    state = manip.new_round(manip.ManipulationRules(jokers=2), 3, shuffle.DealRandom(seed), dealer=None)
    assert state.dealer == int(v["manipulation deal, 3 seats, 2 packs, 2 jokers, dealer drawn"])
    prefix = "manipulation deal, order 1 2 0, 10 cards each, "
    for seat in range(3):
        assert [c.id for c in state.hands[seat]] == v[prefix + f"seat {seat}"].split()
    count, top = v[prefix + "stock"].split(" cards, top: ")
    assert len(state.stock) == int(count) and [c.id for c in state.stock[:5]] == top.split()


@pytest.mark.parametrize("algorithm", shuffle.ALGORITHMS)
@pytest.mark.parametrize("seats", [2, 3, 5])
def test_the_documented_layout_deals_what_manipulation_deals(algorithm, seats):
    for k in range(12):
        seed = shuffle.new_seed() if algorithm == shuffle.CURRENT else random.getrandbits(62)
        rules = manip.ManipulationRules(hand_size=7 + k % 7)
        drawn = k % 2 == 0
        state = manip.new_round(rules, seats, shuffle.rng_for(algorithm, seed), dealer=None if drawn else k % seats)
        r = state.rules
        made = shuffle.deal(
            seed,
            packs=r.packs,
            jokers=r.jokers,
            seats=seats,
            hand_size=r.hand_size,
            order=[(state.dealer + i) % seats for i in range(1, seats + 1)],
            dealer_drawn=drawn,
            algorithm=algorithm,
        )
        assert made.dealer == (state.dealer if drawn else None)
        assert made.hands == [[c.id for c in h] for h in state.hands]
        assert made.stock == [c.id for c in state.stock] and made.upcard is None


@pytest.mark.parametrize("algorithm", shuffle.ALGORITHMS)
@pytest.mark.parametrize("variant", ["gin2", "box3", "oklahoma"])
def test_the_documented_layout_deals_what_gin_deals(algorithm, variant):
    rules = gin.GinRules(variant=variant)
    for k in range(12):
        seed = shuffle.new_seed() if algorithm == shuffle.CURRENT else random.getrandbits(62)
        kw = {"roles": (k % 3, (k + 1) % 3, (k + 2) % 3)} if rules.players == 3 else {"dealer": k % 2}
        state = gin.new_round(rules, rules.players, shuffle.rng_for(algorithm, seed), **kw)
        made = shuffle.deal(
            seed,
            packs=1,
            jokers=0,
            seats=rules.players,
            hand_size=10,
            order=[state.nondealer, state.dealer],
            upcard=True,
            algorithm=algorithm,
        )
        assert [sorted(h) for h in made.hands] == [sorted(gin.IDS[c] for c in h) for h in state.hands]
        assert made.upcard == gin.IDS[state.first_upcard]
        assert made.stock == [gin.IDS[c] for c in state.stock]


def test_below_rejects_the_draws_past_the_last_whole_multiple():
    """A stream whose draws are given: below(n) skips every x >= 2**32 - 2**32 % n and never biases."""

    class Given(shuffle.DealRandom):
        def __init__(self, xs):
            self.xs, self.counter = list(xs), 0

        def next_u32(self):
            self.counter += 1
            return self.xs.pop(0)

    n = 3 * 2**30  # limit 3 * 2**30: a quarter of the draws are rejected
    assert Given([n, 2**32 - 1, 7]).below(n) == 7
    assert Given([n - 1]).below(n) == n - 1
    g = Given([2**32 - 1, 2**32 - 4, 2**32 - 5])  # n = 3: limit 2**32 - 1, so only 2**32 - 1 is rejected
    assert g.below(3) == (2**32 - 4) % 3 and g.counter == 2
    assert Given([2**32 - 1]).below(2**32) == 2**32 - 1  # n = 2**32: nothing is rejected
    assert Given([12345]).below(1) == 0
    for bad in (0, -1, 2**32 + 1, True, 2.0):
        with pytest.raises(ValueError):
            shuffle.DealRandom(shuffle.new_seed()).below(bad)


def test_every_position_is_equally_likely():
    """A rough check of the whole chain: over 3000 shuffles of 4 cards, each of the 24 orders comes
    up about 125 times (a chi-square of 23 degrees of freedom far below its 0.1 % bound, 49.7)."""
    counts = Counter()
    seed = bytes(range(32)).hex()
    for k in range(3000):
        deck = ["a", "b", "c", "d"]
        shuffle.DealRandom(shuffle.commitment(seed, match_id=k, round_number=1)).shuffle(deck)
        counts["".join(deck)] += 1
    assert len(counts) == 24
    expected = 3000 / 24
    assert sum((c - expected) ** 2 / expected for c in counts.values()) < 49.7


def test_seeds_are_256_random_bits_in_hex():
    seeds = {shuffle.new_seed() for _ in range(50)}
    assert len(seeds) == 50 and all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds)


@pytest.mark.parametrize("seed", [None, 12, "", "00" * 31, "00" * 33, "0G" * 32, "AB" * 32, " " + "0" * 63])
def test_a_malformed_seed_is_refused(seed):
    with pytest.raises(InvalidAction) as err:
        shuffle.DealRandom(seed)
    assert err.value.code == "bad_seed"
    with pytest.raises(InvalidAction):
        shuffle.commitment(seed, match_id=1, round_number=1)


def test_other_bad_input_is_refused_clearly():
    seed = shuffle.new_seed()
    with pytest.raises(InvalidAction, match="Unknown shuffle"):
        shuffle.rng_for("mt19937", seed)
    with pytest.raises(InvalidAction):
        shuffle.rng_for(shuffle.LEGACY, "abc")
    with pytest.raises(InvalidAction):
        shuffle.commitment(seed, match_id=-1, round_number=1)
    with pytest.raises(InvalidAction):
        shuffle.commitment(seed, match_id=1, round_number=True)
    with pytest.raises(InvalidAction):
        shuffle.deck_ids(3, 0)
    with pytest.raises(InvalidAction):
        shuffle.deal(seed, packs=1, jokers=0, seats=2, order=[0, 0], hand_size=10)
    with pytest.raises(InvalidAction):
        shuffle.deal(seed, packs=1, jokers=0, seats=2, order=[1, 0], hand_size=26, upcard=True)


def test_the_commitment_binds_the_match_the_round_and_the_seed():
    seed = shuffle.new_seed()
    base = shuffle.commitment(seed, match_id=7, round_number=2)
    assert base != shuffle.commitment(seed, match_id=8, round_number=2)
    assert base != shuffle.commitment(seed, match_id=7, round_number=3)
    assert base != shuffle.commitment(shuffle.new_seed(), match_id=7, round_number=2)
    assert base != shuffle.commitment(seed, match_id=72, round_number=2)
    assert seed not in base
