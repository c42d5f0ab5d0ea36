"""The reads of the puzzle pages: a puzzle, the next one for a player, the daily puzzle, a player's
rating and streak, the themes; plain data for the templates."""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from django.db.models import F, Func
from django.utils.translation import gettext_lazy as _

from games.models import MatchStatus
from games.puzzles import rating
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating

THEMES = {
    # Translators: a puzzle theme: a joker on the table is replaced and used elsewhere.
    "joker_freed": _("Joker freed"),
    # Translators: a puzzle theme: a run on the table is cut in two.
    "run_split": _("Run split"),
    # Translators: a puzzle theme: cards of a group (same rank) go into a run (same suit).
    "group_to_run": _("Group to run"),
    # Translators: a puzzle theme: cards of a run go into a group.
    "run_to_group": _("Run to group"),
    # Translators: a puzzle theme: cards added to a meld already on the table.
    "lay_off": _("Lay-off"),
    # Translators: a puzzle theme: a new meld made only of hand cards.
    "new_meld": _("New meld"),
    # Translators: a puzzle theme: six cards or more laid at once.
    "long_play": _("Long play"),
    # Translators: a Gin puzzle theme: the best discard breaks up a meld.
    "break_meld": _("Break a meld"),
    # Translators: a Gin puzzle theme: the card to discard is worth 10.
    "high_card": _("High card"),
    # Translators: a Gin puzzle theme: after the discard the player is close to knocking.
    "knock_soon": _("Close to a knock"),
    # Translators: a Gin puzzle theme: knocking now is right.
    "knock": _("Knock"),
    # Translators: a Gin puzzle theme: waiting avoids an undercut.
    "undercut_avoided": _("Undercut avoided"),
}


def theme_labels(puzzle: Puzzle) -> list[str]:
    return [str(THEMES.get(t, t)) for t in puzzle.theme_list]


def puzzle_by_id(pk: int) -> Puzzle | None:
    return Puzzle.objects.select_related("match").filter(pk=pk).first()


def attempt_of(user, puzzle: Puzzle) -> PuzzleAttempt | None:
    return PuzzleAttempt.objects.filter(user=user, puzzle=puzzle).first()


def source_match_id(puzzle: Puzzle) -> int | None:
    """The match the puzzle came from, only once it has ended (never a live match)."""
    return puzzle.match_id if puzzle.match.status == MatchStatus.FINISHED else None


def player_rating(user) -> dict[str, Any]:
    row = PuzzleRating.objects.filter(user=user).first()
    if row is None:
        return {
            "rating": rating.SHOWN_START,
            "provisional": True,
            "streak": 0,
            "best_streak": 0,
            "solved": 0,
            "attempted": 0,
        }
    return {
        "rating": rating.shown(row.mu),
        "provisional": rating.is_provisional(row.sigma),
        "streak": row.streak,
        "best_streak": row.best_streak,
        "solved": row.solved,
        "attempted": row.attempted,
    }


def next_puzzle(user, *, theme: str | None = None) -> Puzzle | None:
    """A puzzle ``user`` has not answered, its rating nearest theirs (of ``theme`` when given)."""
    row = PuzzleRating.objects.filter(user=user).first()
    mu = row.mu if row else rating.START_MU
    qs = Puzzle.objects.exclude(tries__user=user)
    if theme:
        qs = qs.filter(themes__contains=f" {theme} ")
    return qs.annotate(gap=Func(F("rating_mu") - mu, function="ABS")).order_by("gap", "pk").first()


def puzzles_exist(*, theme: str | None = None) -> bool:
    """Whether there is any puzzle (of ``theme`` when given), answered or not."""
    qs = Puzzle.objects.all()
    if theme:
        qs = qs.filter(themes__contains=f" {theme} ")
    return qs.exists()


def daily_puzzle(day: date) -> Puzzle | None:
    """The day's puzzle: the same for everyone all day, picked from the day's date among the puzzles
    stored before the day began (those of the day itself only while there are no others)."""
    before = Puzzle.objects.filter(created_at__date__lt=day)
    ids = list((before if before.exists() else Puzzle.objects).order_by("pk").values_list("pk", flat=True)[:10_000])
    if not ids:
        return None
    n = int.from_bytes(hashlib.sha256(day.isoformat().encode()).digest()[:8], "big")
    return Puzzle.objects.get(pk=ids[n % len(ids)])


def theme_choices() -> list[dict[str, Any]]:
    """The themes players may choose, each with how many puzzles have it."""
    counts: dict[str, int] = {}
    for themes in Puzzle.objects.values_list("themes", flat=True):
        for t in themes.split():
            counts[t] = counts.get(t, 0) + 1
    return [{"key": k, "label": label, "count": counts.get(k, 0)} for k, label in THEMES.items() if counts.get(k)]
