"""Models of the puzzles (imported by games.models).

A ``Puzzle`` is one position of a finished match with exactly one clearly best answer
(``games.engine.puzzles``): the position as its player saw it, the solution, the themes, and its own
rating.  ``PuzzleRating`` is a player's puzzle rating and streak; ``PuzzleAttempt`` a player's one rated
answer to a puzzle (the unique constraint: a second answer is refused, never rated again).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Puzzle", "PuzzleAttempt", "PuzzleKind", "PuzzleRating"]

# OpenSkill's Plackett-Luce defaults (games.puzzles.rating): a new player's and a new puzzle's rating.
START_MU = 25.0
START_SIGMA = 25.0 / 3


class PuzzleKind(models.TextChoices):
    # Translators: a kind of Manipulation Rummy puzzle: lay as many cards from the hand as possible.
    LAY_MOST = "lay_most", _("Lay the most")
    # Translators: a kind of Gin puzzle: pick the card to discard.
    DISCARD = "discard", _("The discard")
    # Translators: a kind of Gin puzzle: knock now, or play on.
    KNOCK_OR_WAIT = "knock_or_wait", _("Knock now or wait")


class Puzzle(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="puzzles")
    family = models.CharField(max_length=20)  # "manipulation" | "gin" (GameSpec.family)
    kind = models.CharField(_("kind"), max_length=20, choices=PuzzleKind.choices)
    variant = models.CharField(max_length=30)
    seat = models.PositiveSmallIntegerField()
    round_number = models.PositiveSmallIntegerField()
    step = models.PositiveIntegerField()  # the replay's step of the position in the match
    # What the player saw (never another hand, the stock or a seed) and the solution: server-side only.
    position = models.JSONField()
    solution = models.JSONField()
    # " joker_freed run_split " (spaces around each): a theme is found with themes__contains=" name ".
    themes = models.CharField(max_length=300, blank=True)
    generator = models.PositiveSmallIntegerField()  # games.engine.puzzles.VERSION
    created_at = models.DateTimeField(auto_now_add=True)
    rating_mu = models.FloatField(default=START_MU)
    rating_sigma = models.FloatField(default=START_SIGMA)
    attempts = models.PositiveIntegerField(default=0)
    solves = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "round_number", "step", "kind"], name="puzzle_once_per_position")
        ]

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.kind}, match {self.match_id})"

    @property
    def theme_list(self) -> list[str]:
        return self.themes.split()


class PuzzleRating(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_rating")
    mu = models.FloatField(default=START_MU)
    sigma = models.FloatField(default=START_SIGMA)
    streak = models.PositiveIntegerField(default=0)  # puzzles solved in a row (first attempts)
    best_streak = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    attempted = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"puzzle rating of {self.user_id}"


class PuzzleAttempt(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="tries")
    solved = models.BooleanField()
    answer = models.JSONField()  # what was submitted (checked, bounded)
    rating_before = models.IntegerField()  # shown ratings (games.puzzles.rating.shown)
    rating_after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "puzzle"], name="puzzle_one_rated_attempt")]

    def __str__(self) -> str:
        return f"{self.user_id} on puzzle {self.puzzle_id}: {'solved' if self.solved else 'missed'}"
