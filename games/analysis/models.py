"""Models of the post-game analysis (imported by games.models).

One ``MatchAnalysis`` per (match, analyser version): the unique constraint makes analysing a match
twice store one result, and a later analyser (``games.engine.analysis.VERSION`` raised) stores its
own next to the old one, which is dropped once the new one is done.  ``AnalysisSeat`` is each seat's
summary, a row so that a player's statistics add them up in the database.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["AnalysisSeat", "AnalysisStatus", "MatchAnalysis"]


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class MatchAnalysis(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="analyses")
    version = models.PositiveSmallIntegerField(_("analyser version"))
    status = models.CharField(_("status"), max_length=10, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED)
    # The match's actions walked so far and in all (the page's progress).
    progress = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)  # a worker took it (a stale claim is taken again)
    finished_at = models.DateTimeField(null=True, blank=True)
    cpu_seconds = models.FloatField(_("worker CPU seconds"), null=True, blank=True)
    # The weighed steps: [{"round", "k", "step" (the replay's), "seat", "family", ...}] (games.engine.analysis).
    steps = models.JSONField(default=list, blank=True)
    # Why it failed (for staff: the exception and where it was raised).
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="analysis_unique_match_version"),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="analysis_status_created")]

    def __str__(self) -> str:
        return f"analysis v{self.version} of {self.match_id}: {self.status}"


class AnalysisSeat(models.Model):
    """One seat's summary of an analysis (games.engine.analysis.summarise)."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="seat_rows")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    variant = models.CharField(max_length=20)
    steps = models.PositiveIntegerField(default=0)
    best = models.PositiveIntegerField(default=0)
    missed_cards = models.PositiveIntegerField(default=0)
    missed_points = models.PositiveIntegerField(default=0)
    missed_deadwood = models.PositiveIntegerField(default=0)
    missed_knocks = models.PositiveIntegerField(default=0)
    missed_gins = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["analysis", "seat"], name="analysis_seat_unique")]
        indexes = [models.Index(fields=["user", "variant"], name="analysis_seat_user_variant")]

    def __str__(self) -> str:
        return f"{self.analysis_id}:{self.seat}"
