"""Hard Manipulation positions for the solver (issue 28, point 3), made from a seed at run time.

``position(seed)`` is a pure function of its seed (``random.Random`` seeded with the string
``"rummyhub-hard-<seed>"``, the same on every Python since 3.2); ``positions(count)`` are the seeds
``0 … count - 1``.  What a position holds, by construction:

* a table of 10–20 valid melds, built meld by meld (not laid by the solver, so the set does not
  depend on the solver it measures) from a two-pack deck: groups of 3–4 and runs of 3–7, the ace low
  only (no Q-K-A), so rummikub-solver can take every table;
* 2–4 jokers in all, split at random between the table (a joker in place of one card of a meld,
  at most one per meld) and the hand;
* a hand of 14–20 cards (its jokers included) of *near-melds*: pairs that need one more card (two of
  a run with or without a gap, two of a group), cards that would extend a table meld or sit inside a
  long table run (a split), a few lone cards; the third card of a near-meld is often on the table;
* ``kind``: ``"free"`` — every table joker is one rummikub-solver can express (no natural of its
  identity anywhere, or as many on the table as there are such jokers: freed at no cost) — for 5 seeds
  in 6; ``"hand"`` — at least one table joker only a hand card can free (the hand holds a natural of
  its identity, the table none) — for the others.  A ``"free"`` position whose hand happens to hold
  such a card swaps it for another.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import Card, make_deck
from games.engine.manipulation.melds import classify

LOW_ONLY = {"ace_in_sequences": "low_only"}
Key = tuple[int, int]


@dataclass(frozen=True)
class Hard:
    seed: int
    kind: str  # "free" or "hand" (see the module docstring)
    table: list[list[Card]]
    hand: list[Card]

    @property
    def jokers(self) -> int:
        return sum(c.is_joker for m in self.table for c in m) + sum(c.is_joker for c in self.hand)


class _Pool:
    """The cards not dealt yet, by value (two copies of each natural)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.by_key: dict[Key, list[Card]] = {}
        for c in make_deck(2, 0):
            self.by_key.setdefault(c.key, []).append(c)

    def has(self, key: Key, n: int = 1) -> bool:
        return len(self.by_key.get(key, ())) >= n

    def take(self, key: Key) -> Card:
        cards = self.by_key[key]
        return cards.pop(self.rng.randrange(len(cards)))

    def give_back(self, card: Card) -> None:
        self.by_key.setdefault(card.key, []).append(card)

    def keys(self) -> list[Key]:
        return sorted(k for k, v in self.by_key.items() if v)


def _meld(rng: random.Random, pool: _Pool) -> list[Card] | None:
    """One valid table meld from the pool (ace low only), or None when the try fails."""
    if rng.random() < 0.4:
        r = rng.randint(1, 13)
        suits = [s for s in range(4) if pool.has((r, s))]
        size = rng.choice((3, 3, 4))
        if len(suits) < size:
            return None
        return [pool.take((r, s)) for s in rng.sample(suits, size)]
    s = rng.randrange(4)
    length = rng.choice((3, 3, 3, 4, 4, 5, 6, 7))
    lo = rng.randint(1, 14 - length)
    keys = [(r, s) for r in range(lo, lo + length)]
    if not all(pool.has(k) for k in keys):
        return None
    return [pool.take(k) for k in keys]


def _table(rng: random.Random, pool: _Pool, melds: int) -> list[list[Card]]:
    table: list[list[Card]] = []
    tries = 0
    while len(table) < melds and tries < 2000:
        tries += 1
        m = _meld(rng, pool)
        if m is not None:
            table.append(m)
    return table


def _put_jokers(rng: random.Random, pool: _Pool, table: list[list[Card]], n: int) -> None:
    """``n`` table jokers, each in place of one card of a different meld (the card goes back to the pool)."""
    for d, i in enumerate(rng.sample(range(len(table)), n)):
        meld = table[i]
        at = rng.randrange(len(meld))
        card = meld[at]
        meld[at] = Card.joker(d, declared=card.key)
        pool.give_back(card)
        assert classify(meld, LOW_ONLY) is not None


def _near_keys(rng: random.Random, table: list[list[Card]], pool: _Pool) -> list[Key]:
    """Values that make near-melds, in a random order, the best kinds more often."""
    out: list[Key] = []
    on_table = [c.effective for m in table for c in m]
    for _ in range(60):
        pick = rng.random()
        if pick < 0.4:  # a pair that needs one more card: a run of two, a run with a gap, two of a group
            r, s = rng.randint(1, 13), rng.randrange(4)
            shape = rng.choice(("run", "gap", "group"))
            if shape == "run" and r < 13:
                out += [(r, s), (r + 1, s)]
            elif shape == "gap" and r < 12:
                out += [(r, s), (r + 2, s)]
            else:
                out += [(r, s), (r, rng.choice([t for t in range(4) if t != s]))]
        elif pick < 0.8:  # a card next to a table card: extends a meld, or splits a long run
            r, s = rng.choice(on_table)  # type: ignore[misc]
            step = rng.choice((-2, -1, 0, 1, 2))
            if 1 <= r + step <= 13:
                out.append((r + step, s if step else rng.randrange(4)))
        else:  # a lone card
            out.append((rng.randint(1, 13), rng.randrange(4)))
    return [k for k in out if pool.has(k)]


def position(seed: int, small: bool = False) -> Hard:
    """The hard position of ``seed`` (see the module docstring).  ``small``: the same kind of position
    at a smaller scale (hands of 7–11 cards, tables of 4–8 melds; another series of seeds), for the tests
    that compare the solver with slower references."""
    rng = random.Random(f"rummyhub-hard-{'small-' if small else ''}{seed}")
    kind = "hand" if seed % 6 == 5 else "free"
    hands, melds = ((7, 11), (4, 8)) if small else ((14, 20), (10, 20))
    while True:
        pool = _Pool(rng)
        jokers = rng.choice((2, 2, 3, 3, 4))
        on_table = rng.randint(1 if kind == "hand" else 0, min(jokers, melds[0]))
        in_hand = jokers - on_table
        hand_size = rng.randint(*hands)
        table = _table(rng, pool, rng.randint(*melds))
        if len(table) < melds[0]:
            continue
        _put_jokers(rng, pool, table, on_table)
        hand: list[Card] = []
        for key in _near_keys(rng, table, pool):
            if len(hand) == hand_size - in_hand:
                break
            if pool.has(key):
                hand.append(pool.take(key))
        if len(hand) < hand_size - in_hand:
            continue
        hand += [Card.joker(on_table + d) for d in range(in_hand)]
        if _settle_kind(rng, kind, table, hand, pool):
            return Hard(seed, kind, table, hand)


def _hand_freeable(table: list[list[Card]], hand: list[Card]) -> set[Key]:
    """Identities of table jokers that only a hand card could free (more such jokers than table naturals,
    and a natural of the identity in hand)."""
    nat_table = Counter(c.key for m in table for c in m if not c.is_joker)
    nat_hand = Counter(c.key for c in hand if not c.is_joker)
    jokers = Counter(c.declared for m in table for c in m if c.is_joker)
    return {k for k, n in jokers.items() if nat_table[k] < n and nat_hand[k]}  # type: ignore[index]


def _settle_kind(rng: random.Random, kind: str, table: list[list[Card]], hand: list[Card], pool: _Pool) -> bool:
    """Make the position of its kind: a ``"free"`` hand loses the cards that only it could free a joker
    with (swapped for others from the pool); a ``"hand"`` hand gets one such card.  False if it cannot."""
    idents = [c.declared for m in table for c in m if c.is_joker]
    if kind == "hand":
        if _hand_freeable(table, hand):
            return True
        nat_table = Counter(c.key for m in table for c in m if not c.is_joker)
        choices = [k for k in idents if not nat_table[k] and pool.has(k)]  # type: ignore[index]
        naturals = [i for i, c in enumerate(hand) if not c.is_joker]
        if not choices or not naturals:
            return False
        at = rng.choice(naturals)
        pool.give_back(hand[at])
        hand[at] = pool.take(rng.choice(choices))  # type: ignore[arg-type]
        return bool(_hand_freeable(table, hand))
    for _ in range(40):
        bad = _hand_freeable(table, hand)
        if not bad:
            return True
        at = next(i for i, c in enumerate(hand) if not c.is_joker and c.key in bad)
        keys = [k for k in pool.keys() if k not in bad]
        pool.give_back(hand[at])
        hand[at] = pool.take(rng.choice(keys))
    return False


def positions(count: int, start: int = 0, small: bool = False) -> list[Hard]:
    return [position(seed, small) for seed in range(start, start + count)]


def main() -> None:
    ap = argparse.ArgumentParser(description="print a summary of the hard positions (or one of them)")
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--show", type=int, default=None, help="print the position of this seed")
    args = ap.parse_args()
    if args.show is not None:
        p = position(args.show)
        print(f"seed {p.seed} ({p.kind}, {p.jokers} jokers)")
        for m in p.table:
            print("  ", " ".join(f"{c.code}.{c.deck}" for c in m))
        print("hand", " ".join(f"{c.code}.{c.deck}" for c in p.hand))
        return
    ps = positions(args.count)
    print(f"{len(ps)} positions: kinds {dict(Counter(p.kind for p in ps))}")
    print(f"  hand sizes {dict(sorted(Counter(len(p.hand) for p in ps).items()))}")
    print(f"  table melds {dict(sorted(Counter(len(p.table) for p in ps).items()))}")
    print(f"  jokers {dict(sorted(Counter(p.jokers for p in ps).items()))}")


if __name__ == "__main__":
    main()
