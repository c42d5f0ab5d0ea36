"""Fair play's rows (docs/fair-play.md): blocks and table mutes chosen by players, abandons counted from
finished matches, staff's (and the abandon rule's) sanctions, reports and the audit log of every action.

No logic here: writes go through ``fairplay.services``, reads through ``fairplay.selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

MAX_REPORT_DETAILS = 1000  # characters of a report's free text
MAX_NOTE = 500  # characters of a staff note shown to the player


class Block(models.Model):
    """``blocker`` keeps away from ``blocked``: never seated together outside tournaments, chat hidden
    both ways."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~Q(blocker=models.F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class TableMute(models.Model):
    """``user`` hides the chat of one table (``match``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="tablemute_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.match_id}"


class Abandon(models.Model):
    """A match ``user`` left for a bot to finish (``games.models.Seat.abandoned``), counted once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("abandon")
        verbose_name_plural = _("abandons")
        constraints = [models.UniqueConstraint(fields=["user", "match"], name="abandon_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} abandoned {self.match_id}"


class SanctionKind(models.TextChoices):
    WARNING = "warning", _("Warning")
    CHAT_MUTE = "chat_mute", _("Chat muted")
    RATED_BAR = "rated_bar", _("Barred from rated tables")


class Sanction(models.Model):
    """A warning (no period), a chat mute or a bar from rated tables until ``ends_at``; staff may lift it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(_("kind"), max_length=20, choices=SanctionKind.choices)
    # Shown to the player (never the reporter's name): the rule's own words, or staff's note.
    note = models.CharField(_("note to the player"), max_length=MAX_NOTE, blank=True)
    by_rule = models.BooleanField(_("by the abandon rule"), default=False)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "kind", "ends_at"], name="sanction_user_kind_end")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}"


class ReportReason(models.TextChoices):
    ABUSE = "abuse", _("Abusive or hateful chat")
    SPAM = "spam", _("Spam")
    CHEATING = "cheating", _("Cheating or playing together against others")
    ABANDON = "abandon", _("Leaving games on purpose")
    OTHER = "other", pgettext_lazy("a report's reason", "Other")


class ReportStatus(models.TextChoices):
    OPEN = "open", _("Open")
    ACTIONED = "actioned", _("Handled: action taken")
    UNFOUNDED = "unfounded", _("Handled: closed as unfounded")


class Report(models.Model):
    """A player's report of another player (or of one chat line), with its evidence frozen at the time."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=20, choices=ReportReason.choices)
    details = models.CharField(_("details"), max_length=MAX_REPORT_DETAILS, blank=True)
    match = models.ForeignKey("games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    chat_message = models.ForeignKey(
        "games.ChatMessage", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # {"chat": [{"id", "user", "text", "at", "reported"}], "match": id}: copied when the report is made.
    evidence = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=ReportStatus.choices, default=ReportStatus.OPEN, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    # The reporter saw that it was handled (their fair-play page).
    reporter_told = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"report {self.pk}"


class AuditAction(models.TextChoices):
    REPORT = "report", _("Report made")
    WARN = "warn", _("Warned")
    MUTE = "mute", _("Chat muted")
    BAR = "bar", _("Barred from rated tables")
    UNFOUNDED = "unfounded", _("Closed as unfounded")
    LIFT = "lift", _("Sanction lifted")
    RULE_WARN = "rule_warn", _("Warned by the abandon rule")
    RULE_BAR = "rule_bar", _("Barred by the abandon rule")


class AuditEntry(models.Model):
    """One action on fair play, by staff or by the abandon rule (``actor`` empty): append-only."""

    at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(_("action"), max_length=20, choices=AuditAction.choices)
    subject = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    report = models.ForeignKey(Report, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit")
    sanction = models.ForeignKey(Sanction, on_delete=models.SET_NULL, null=True, blank=True, related_name="audit")
    note = models.CharField(_("note"), max_length=MAX_NOTE, blank=True)

    class Meta:
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"
