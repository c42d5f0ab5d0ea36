"""The fixed set of mid-game Manipulation positions the solver is measured on (issue 17, section 3).

The set lives in ``solver_positions.txt`` beside this file, one position a line::

    <index> <kind> | <meld> | <meld> ... || <hand card> <hand card> ...

with card ids (``7S.1``, table jokers ``JK=7S.0``).  It was made once by :func:`make_positions` (run
``.venv/bin/python bench/solver_positions.py --write``) and is read as it is, so it stays the same set
whatever the solver becomes (the solver lays the tables it is made of; a later solver might lay them
otherwise).  What it holds, by construction:

* 512 positions; hand sizes 5…20, the same number of positions for each (32);
* tables of 2…14 melds, laid by the solver (default rules) from 8…60 cards of a shuffled two-pack deck;
* kinds, cycling by index: ``plain`` (no joker) for half of them, then ``table`` (1–2 jokers on the
  table), ``hand`` (1–2 in hand), ``both`` (one or two on the table and one or two in hand, at most 4 in
  all): half the set has jokers;
* every position seeded by its index alone (``random.Random(SEED * 1000 + index)``).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import Card, make_deck

FILE = Path(__file__).resolve().parent / "solver_positions.txt"
SEED = 2026_17
COUNT = 512
KINDS = ("plain", "plain", "plain", "table", "hand", "both")

Position = tuple[list[list[Card]], list[Card]]


def _ident(c: Card) -> str:
    return f"{c.code}.{c.deck}"


def _one(index: int, solve) -> Position:
    rng = random.Random(SEED * 1000 + index)
    kind = KINDS[index % len(KINDS)]
    hand_size = 5 + (index // len(KINDS)) % 16
    on_table = {"plain": 0, "table": rng.choice((1, 1, 2)), "hand": 0, "both": rng.choice((1, 1, 2))}[kind]
    in_hand = {"plain": 0, "table": 0, "hand": rng.choice((1, 1, 2)), "both": rng.choice((1, 1, 2))}[kind]
    while True:
        deck = make_deck(2, 0)
        rng.shuffle(deck)
        k = rng.randint(8, 60)
        jokers = [Card.joker(d) for d in range(on_table)]
        laid = solve([], deck[:k] + jokers)
        table = laid.table_cards
        if not 2 <= len(table) <= 14 or sum(c.is_joker for m in table for c in m) != on_table:
            continue
        used = {(c.rank, c.suit, c.deck) for m in table for c in m if not c.is_joker}
        rest = [c for c in deck if (c.rank, c.suit, c.deck) not in used]
        hand = rest[: hand_size - in_hand] + [Card.joker(on_table + d) for d in range(in_hand)]
        return table, hand


def make_positions(solve) -> list[Position]:
    return [_one(i, solve) for i in range(COUNT)]


def write(positions: list[Position]) -> None:
    lines = []
    for i, (table, hand) in enumerate(positions):
        melds = " | ".join(" ".join(_ident(c) for c in m) for m in table)
        lines.append(f"{i} {KINDS[i % len(KINDS)]} | {melds} || {' '.join(_ident(c) for c in hand)}")
    FILE.write_text("\n".join(lines) + "\n")


def load() -> list[tuple[str, list[list[Card]], list[Card]]]:
    """``(kind, table, hand)`` for every position of the file."""
    out = []
    for line in FILE.read_text().splitlines():
        head, hand_part = line.split(" || ")
        parts = head.split(" | ")
        kind = parts[0].split()[1]
        table = [[Card.from_code(x) for x in m.split()] for m in parts[1:]]
        hand = [Card.from_code(x) for x in hand_part.split()]
        out.append((kind, table, hand))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true", help=f"make the set again and write {FILE.name}")
    args = ap.parse_args()
    if args.write:
        from games.engine.solver import best_play

        write(make_positions(best_play))
    positions = load()
    print(f"{len(positions)} positions in {FILE.name}")


if __name__ == "__main__":
    main()
