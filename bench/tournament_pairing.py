"""Swiss seating benchmark: time to seat a round and the rematches left, per field size and table size.

A simulated Swiss event: each round the field is seated by ``pairing.seat_swiss``
from random standings, and the previous tables feed the meeting history.  For
small fields the exact branch-and-bound optimum is reached; past the node
budget the best found plus pairwise swaps is used.

Run: .venv/bin/python bench/tournament_pairing.py [--quick]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.tournaments import pairing

CHOICES = (2, 3, 4, 5)


def simulate(n: int, size: int, rounds: int, seed: int = 1) -> tuple[float, list[int]]:
    rng = random.Random(seed)
    points = {i: 0 for i in range(n)}
    history: list[tuple] = []
    worst = 0.0
    rematches = []
    for _ in range(rounds):
        players = sorted((pairing.Player(id=i, points=p) for i, p in points.items()), key=lambda p: -p.points)
        met = pairing.meetings_of(history)
        start = time.perf_counter()
        tables = pairing.seat_swiss(players, size=size, seat_choices=CHOICES, met=met)
        worst = max(worst, time.perf_counter() - start)
        rematches.append(pairing.seating_cost([t.players for t in tables], players, met)[0])
        for t in tables:
            history.append(t.players)
            order = list(t.players)
            rng.shuffle(order)
            scheme = pairing_points(len(order))
            for place, pid in enumerate(order):
                points[pid] += scheme[place]
    return worst, rematches


def pairing_points(size: int) -> list[int]:
    return {1: [4], 2: [4, 0], 3: [4, 2, 0], 4: [4, 2, 1, 0], 5: [4, 3, 2, 1, 0]}[size]


def main() -> None:
    quick = "--quick" in sys.argv
    fields = [8, 16, 32] if quick else [8, 16, 32, 64, 128]
    print(f"{'players':>7} {'seats':>5} {'rounds':>6} {'worst seat time (ms)':>21}  rematches per round")
    for size in (2, 4):
        for n in fields:
            rounds = 5
            worst, rematches = simulate(n, size, rounds)
            print(f"{n:>7} {size:>5} {rounds:>6} {worst * 1000:>21.1f}  {rematches}")


if __name__ == "__main__":
    main()
