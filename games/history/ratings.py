"""Per-variant skill ratings with openskill's Plackett–Luce model (2–5 seats, ties allowed).

Pure helpers; the database writes are in ``games.history.services``.
A rating is shown as its *ordinal* (``mu - 3 sigma``, a conservative
estimate) and marked provisional while ``sigma`` is above
``PROVISIONAL_SIGMA`` (a new rating starts at sigma 8.33; it takes a handful
of matches — about ten two-player ones — to fall below it).
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU = MODEL.mu
DEFAULT_SIGMA = MODEL.sigma
PROVISIONAL_SIGMA = 7.0


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def ranks_from_totals(totals: Sequence[int]) -> list[int]:
    """Competition ranks (1 = best) from final totals, higher is better; equal totals tie."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def rate(ratings: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` of each player after one match with these ranks (1 = best, ties allowed)."""
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in ratings]
    new = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in new]
