"""Simulated tables of 3–5 for the collusion statistic: honest players seated at random with random
results, and (if asked) one planted pair that sits together far more than chance and trades wins."""

from __future__ import annotations

import random

from fairplay.collusion import Table, placements


def simulate(
    *,
    players: int = 100,
    tables: int = 1500,
    seed: int = 1,
    planted: tuple[int, int] | None = None,
    planted_share: float = 0.0,
) -> list[Table]:
    """``tables`` random tables of 3–5 drawn from ``players``; with ``planted`` = (a, b), a fraction
    ``planted_share`` of the tables that seat ``a`` also seat ``b``, and there one of the two (in turn) wins."""
    rng = random.Random(seed)
    skill = {p: rng.gauss(0, 0.5) for p in range(players)}
    out = []
    turn = 0
    for match_id in range(tables):
        size = rng.choice((3, 4, 5))
        seated = rng.sample(range(players), size)
        together = False
        if planted is not None:
            a, b = planted
            if a in seated and b not in seated and rng.random() < planted_share:
                seated[next(i for i, p in enumerate(seated) if p != a)] = b
            together = a in seated and b in seated
        strength = [skill[p] + rng.gauss(0, 1) for p in seated]
        if together:
            a, b = planted
            winner = (a, b)[turn % 2]
            turn += 1
            strength[seated.index(winner)] = 100
            strength[seated.index(a if winner == b else b)] = -100  # the partner dumps
        totals = [round(s * 100) for s in strength]
        place = placements(totals)
        best = max(totals)
        out.append(
            Table(
                match_id=match_id,
                players=tuple(seated),
                placement=dict(zip(seated, place, strict=True)),
                winners=frozenset(p for p, t in zip(seated, totals, strict=True) if t == best),
                seats=size,
            )
        )
    return out
