"""The writes of the puzzles: generate them from a finished match, answer one.

- **Generate.** ``puzzles_generate`` walks a *finished* match (every round rebuilt from its seed and
  events, ``games.rebuild``) and asks the engine's finders (``games.engine.puzzles``) at each meld step
  (Manipulation) and each discard decision (Gin); a position found is stored once (the unique
  constraint).  The analysis worker calls it after each analysis (``games.analysis.services``), with
  the analysis' steps so that only positions where the most cards laid could make a puzzle are
  searched; ``manage.py puzzles_generate`` runs it over past matches.  A match that is not finished
  gives nothing: a live match is never a puzzle's source.
- **Answer.** ``puzzle_answer`` checks the answer with the engine, records the player's one rated
  attempt (a second is refused: ``AlreadyAnswered``), rates it as a game between the player and the
  puzzle, and keeps the streak.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

from games.engine import manipulation as manip_engine
from games.engine import puzzles as engine_puzzles
from games.engine.analysis import manipulation as manip_analysis
from games.models import Match, MatchStatus, Round
from games.puzzles import rating
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from games.rebuild import iter_round_states
from games.variants import spec_for

log = logging.getLogger(__name__)

MAX_STATES = 200_000  # a solve per candidate beyond this is no puzzle (never approximated)


class AlreadyAnswered(Exception):
    """The player has answered this puzzle already: one rated attempt per player and puzzle."""


@dataclass(frozen=True)
class Verdict:
    solved: bool
    rating_before: int
    rating_after: int
    streak: int
    puzzle: Puzzle


def _candidates(match: Match, steps: list[dict[str, Any]] | None):
    """``(round, step, seat, state)`` of every position worth asking the finders about."""
    family = spec_for(match.variant).family
    wanted = None
    if steps is not None:
        wanted = {
            (s["round"], s["k"])
            for s in steps
            if s.get("status", "ok") == "ok"
            and (family == "gin" or s.get("most_cards", 0) >= engine_puzzles.manipulation.MIN_CARDS)
        }
    first = 0
    for rnd in Round.objects.filter(match=match).order_by("number"):
        before = None
        count = 0
        for k, (event, state) in enumerate(iter_round_states(match, rnd)):
            count = k
            if event is not None and (wanted is None or (rnd.number, k) in wanted):
                if family == "manipulation":
                    if manip_analysis.is_meld_step(before, event.seat, event.action, state):
                        yield rnd.number, first + k, event.seat, before
                elif family == "gin" and before.phase == "discard" and before.seat_to_act == event.seat:
                    yield rnd.number, first + k, event.seat, before
            before = state
        first += 1 + count


def _find(state: Any, seat: int) -> dict[str, Any] | None:
    if isinstance(state, manip_engine.ManipulationState):
        return engine_puzzles.manipulation.find(state, seat, max_states=MAX_STATES)
    return engine_puzzles.gin.find(state, seat)


def puzzles_generate(*, match_id: int, steps: list[dict[str, Any]] | None = None) -> int:
    """Store the puzzles of a finished match (``steps``: its analysis' records, to search only the
    positions that could be one); how many new.  Nothing for a match that is not finished."""
    match = Match.objects.get(pk=match_id)
    if match.status != MatchStatus.FINISHED:
        return 0
    made = 0
    for round_number, step, seat, state in _candidates(match, steps):
        found = _find(state, seat)
        if found is None:
            continue
        try:
            with transaction.atomic():
                _, created = Puzzle.objects.get_or_create(
                    match=match,
                    round_number=round_number,
                    step=step,
                    kind=found["kind"],
                    defaults={
                        "family": found["family"],
                        "variant": match.variant,
                        "seat": seat,
                        "position": found["position"],
                        "solution": found["solution"],
                        "themes": " " + " ".join(found["themes"]) + " " if found["themes"] else "",
                        "generator": engine_puzzles.VERSION,
                    },
                )
        except IntegrityError:  # stored meanwhile by another worker
            created = False
        made += int(created)
    return made


def rating_for(user) -> PuzzleRating:
    row, _ = PuzzleRating.objects.get_or_create(user=user)
    return row


def puzzle_answer(*, puzzle_id: int, user, solved: bool, answer: Any) -> Verdict:
    """Record ``user``'s first answer to a puzzle (already checked by the engine: ``solved``), rate it
    as a game between the player and the puzzle, keep the streak.  ``AlreadyAnswered`` on a second."""
    with transaction.atomic():
        PuzzleRating.objects.get_or_create(user=user)
        mine = PuzzleRating.objects.select_for_update().get(user=user)
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
        if PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).exists():
            raise AlreadyAnswered
        before = rating.shown(mine.mu)
        (mine.mu, mine.sigma), (puzzle.rating_mu, puzzle.rating_sigma) = rating.rate(
            (mine.mu, mine.sigma), (puzzle.rating_mu, puzzle.rating_sigma), solved=solved
        )
        mine.attempted += 1
        if solved:
            mine.solved += 1
            mine.streak += 1
            mine.best_streak = max(mine.best_streak, mine.streak)
        else:
            mine.streak = 0
        mine.save()
        Puzzle.objects.filter(pk=puzzle.pk).update(
            rating_mu=puzzle.rating_mu,
            rating_sigma=puzzle.rating_sigma,
            attempts=F("attempts") + 1,
            solves=F("solves") + int(solved),
        )
        try:
            with transaction.atomic():
                PuzzleAttempt.objects.create(
                    user=user,
                    puzzle=puzzle,
                    solved=solved,
                    answer=answer,
                    rating_before=before,
                    rating_after=rating.shown(mine.mu),
                )
        except IntegrityError:  # the same answer twice at once: the second is refused
            raise AlreadyAnswered from None
    puzzle.refresh_from_db()
    return Verdict(solved, before, rating.shown(mine.mu), mine.streak, puzzle)
