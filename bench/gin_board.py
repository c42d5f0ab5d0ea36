"""Gin board benchmark: the cost of the per-seat board context (games.board.gin) for random
discard-phase views (11 cards: melds, best discard and every knock layout), and of the layout
enumeration alone on random 10-card hands.

Run: .venv/bin/python bench/gin_board.py [--quick]
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")

import django

django.setup()

from games.board.gin import _discard_options, _knock_options, arrangements, hand_faces  # noqa: E402
from games.engine import gin  # noqa: E402


def main(quick: bool) -> None:
    rng = random.Random(1)
    n = 200 if quick else 2000
    hands10 = [rng.sample(gin.IDS, 10) for _ in range(n)]
    t = time.perf_counter()
    for h in hands10:
        arrangements(h, 10)
    per = (time.perf_counter() - t) / n * 1e3
    print(f"knock layouts (10 cards, limit 10): {per:.3f} ms per hand over {n} random hands")

    times = []
    for _ in range(n // 4):
        state = gin.new_round(gin.GinRules(variant="gin2"), 2, rng, dealer=0)
        state = gin.apply(state, 1, {"type": "take_upcard"})
        view = gin.player_view(state, 1)
        t = time.perf_counter()
        hand_faces(view["hand"], [])
        _discard_options(view)
        _knock_options(view)
        times.append((time.perf_counter() - t) * 1e3)
    times.sort()
    print(
        f"discard-phase board context (11 cards): median {statistics.median(times):.2f} ms, "
        f"p99 {times[int(len(times) * 0.99) - 1]:.2f} ms, max {times[-1]:.2f} ms over {len(times)} views"
    )


if __name__ == "__main__":
    main("--quick" in sys.argv)
