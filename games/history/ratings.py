"""Per-variant skill ratings with openskill's Plackett–Luce model (2–5 seats, ties allowed).

Pure helpers; the database writes are in ``games.history.services``.
A rating is ranked by its *ordinal* (``mu - 3 sigma``, a conservative
estimate: 0 for a new player) and shown to players as :func:`shown`, a whole
number that starts at ``SHOWN_START`` for everyone (``SHOWN_SCALE`` points a
point of ordinal), so that a first rating reads "988 (provisional)", not
"-0.6".  It is marked provisional while ``sigma`` is above
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


# What players see: every player starts at SHOWN_START; SHOWN_SCALE shown points per point of ordinal.
SHOWN_START = 1000
SHOWN_SCALE = 20


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def shown(ordinal: float) -> int:
    """A rating as players see it (the leaderboard, the player page, a match's rating change): a whole
    number, ``SHOWN_START`` for a new player (ordinal 0)."""
    return round(SHOWN_START + SHOWN_SCALE * ordinal)


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def ranks_from_totals(totals: Sequence[int]) -> list[int]:
    """Competition ranks (1 = best) from final totals, higher is better; equal totals tie."""
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def ranks_with_abandons(totals: Sequence[int], abandoned: Sequence[bool]) -> list[int]:
    """Competition ranks from final totals, except that every player who abandoned the match (a bot
    finished their seat) ranks below everyone who stayed, whatever their totals (tied together)."""
    stayed = [t for t, gone in zip(totals, abandoned, strict=True) if not gone]
    last = len(stayed) + 1
    return [
        last if gone else 1 + sum(1 for other in stayed if other > t) for t, gone in zip(totals, abandoned, strict=True)
    ]


def rate(ratings: Sequence[tuple[float, float]], ranks: Sequence[int]) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` of each player after one match with these ranks (1 = best, ties allowed)."""
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in ratings]
    new = MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in new]
