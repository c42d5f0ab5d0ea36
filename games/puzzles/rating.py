"""Puzzle ratings, pure: each first attempt is a two-player game between the player and the puzzle
(OpenSkill's Plackett-Luce, the model of the match ratings in ``games.history.ratings``): solved, the
player wins; missed, the puzzle wins.  Shown from 1000."""

from __future__ import annotations

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
SHOWN_START = 1000
SHOWN_SCALE = 20


START_MU = MODEL.mu


def shown(mu: float) -> int:
    """The rating players see: ``SHOWN_START`` for a new player or puzzle, ``SHOWN_SCALE`` points a
    point of mu (the estimate itself, as lichess shows a puzzle rating: a solve always raises it, a
    miss always lowers it; the uncertainty is shown apart, as "provisional")."""
    return round(SHOWN_START + SHOWN_SCALE * (mu - START_MU))


PROVISIONAL_SIGMA = 7.0


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rate(player: tuple[float, float], puzzle: tuple[float, float], *, solved: bool):
    """``(player's new (mu, sigma), puzzle's new (mu, sigma))`` after one first attempt."""
    teams = [[MODEL.create_rating(list(player))], [MODEL.create_rating(list(puzzle))]]
    new = MODEL.rate(teams, ranks=[1, 2] if solved else [2, 1])
    return (new[0][0].mu, new[0][0].sigma), (new[1][0].mu, new[1][0].sigma)
