"""Puzzles stored from the known positions of tests/engine/puzzles/positions.py, on a match row."""

from __future__ import annotations

from games import services
from games.engine.puzzles import gin as pg
from games.engine.puzzles import manipulation as pm
from games.models import Match, MatchStatus
from games.puzzles.models import Puzzle
from tests.engine.puzzles import positions


def store(found: dict, match: Match, *, step: int = 1) -> Puzzle:
    return Puzzle.objects.create(
        match=match,
        family=found["family"],
        kind=found["kind"],
        variant=match.variant,
        seat=found["seat"],
        round_number=1,
        step=step,
        position=found["position"],
        solution=found["solution"],
        themes=" " + " ".join(found["themes"]) + " ",
        generator=1,
    )


def a_match(host, variant="manipulation", *, finished=True) -> Match:
    match = services.match_create(host=host, variant=variant, seats_count=2, bots=1, options={})
    if finished:
        Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
        match.refresh_from_db()
    return match


def manipulation_puzzle(host, *, finished=True, step=1) -> Puzzle:
    found = pm.find(positions.manipulation(positions.UNIQUE), 0)
    return store(found, a_match(host, finished=finished), step=step)


def gin_puzzle(host, *, step=2) -> Puzzle:
    found = pg.find_discard(positions.gin_state(positions.GIN_UNIQUE), 0)
    return store(found, a_match(host, "gin"), step=step)


def knock_puzzle(host, *, step=3) -> Puzzle:
    found = pg.find_knock(positions.gin_state(positions.KNOCK), 0)
    return store(found, a_match(host, "gin"), step=step)


# An answer that lays the solution's four cards (another arrangement than the solver's).
SOLVED_TABLE = [["4H.0", "4S.0", "4D.0"], ["5H.0", "6H.0", "7H.0", "8H.0"], ["9H.0", "9S.0", "9D.0"]]
# A legal play that lays two cards only.
MISSED_TABLE = [["4H.0", "4S.0", "4D.0"], ["5H.0", "6H.0", "7H.0", "8H.0", "9H.0"]]
