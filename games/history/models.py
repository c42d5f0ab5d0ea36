"""Models of the match history feature (imported by games.models).

Ratings are derived data: one ``PlayerRating`` per (player or bot policy,
variant) and one ``RatedMatch`` per match that has been rated, so that
rating a match twice is impossible (its primary key is the match).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

__all__ = ["PlayerRating", "RatedMatch"]


class PlayerRating(models.Model):
    """An openskill Plackett–Luce rating (mu, sigma) of a human player or a bot policy in one variant."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="ratings"
    )
    # Bots are rated too (per policy), so that games against them move human ratings sensibly.
    bot_policy = models.CharField(max_length=30, blank=True)
    variant = models.CharField(_("variant"), max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma, kept as a column so the leaderboard can sort on it with an index.
    ordinal = models.FloatField(db_index=True)
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant"], condition=Q(user__isnull=False), name="rating_unique_user_variant"
            ),
            models.UniqueConstraint(
                fields=["bot_policy", "variant"], condition=Q(user__isnull=True), name="rating_unique_bot_variant"
            ),
        ]
        indexes = [models.Index(fields=["variant", "-ordinal"], name="rating_variant_ordinal")]

    def __str__(self) -> str:
        who = self.user.username if self.user_id else f"bot:{self.bot_policy}"
        return f"{who} {self.variant} {self.ordinal:.1f}"


class RatedMatch(models.Model):
    """A finished match whose result went into the ratings (exactly once)."""

    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, primary_key=True, related_name="rated")
    rated_at = models.DateTimeField(auto_now_add=True)
    # [{"seat": i, "before": [mu, sigma, ordinal], "after": [mu, sigma, ordinal]}] for the rated seats.
    changes = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")

    def __str__(self) -> str:
        return f"rated {self.match_id}"
