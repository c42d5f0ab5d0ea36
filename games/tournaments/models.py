"""Tournaments run by staff from the admin (DESIGN.md §4).

A ``Tournament`` has entrants (``Entry``) and numbered ``TournamentRound`` s.
A round's tables (``TournamentTable``) each own one ``games.Match`` (or none:
a bye, or a draft seating not yet published) and the seat assignment with its
result (``TournamentSeat``: placement, placement points, game points).  Every
staff action leaves a ``TournamentAudit`` row.  No logic lives here: writes go
through ``games.tournaments.services``, reads through ``...selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.variant_names import Variant

__all__ = [
    "Entry",
    "Tournament",
    "TournamentAudit",
    "TournamentFormat",
    "TournamentRound",
    "TournamentSeat",
    "TournamentStatus",
    "TournamentTable",
    "RoundStatus",
]


class TournamentFormat(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")
    ELIMINATION = "elimination", _("Single elimination (two-player)")


class TournamentStatus(models.TextChoices):
    UPCOMING = "upcoming", _("Upcoming")
    RUNNING = "running", _("Running")
    FINISHED = "finished", pgettext_lazy("a tournament's status", "Finished")


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("Seating preview")
    PLAYING = "playing", _("Playing")
    CLOSED = "closed", _("Closed")


def default_placement_points() -> dict[str, list[int]]:
    """Points per placement, by table size (keys are seat counts as strings, JSON-style)."""
    return {"2": [4, 0], "3": [4, 2, 0], "4": [4, 2, 1, 0], "5": [4, 3, 2, 1, 0]}


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=120)
    variant = models.CharField(_("variant"), max_length=20, db_index=True)
    # Rule options as on the lobby form, validated by the variant's engine rules.
    options = models.JSONField(_("rule options"), default=dict, blank=True)
    format = models.CharField(
        _("format"), max_length=20, choices=TournamentFormat.choices, default=TournamentFormat.SWISS
    )
    table_size = models.PositiveSmallIntegerField(_("seats per table"), default=4)
    rounds_count = models.PositiveSmallIntegerField(_("number of rounds"), default=3)
    placement_points = models.JSONField(_("placement points by table size"), default=default_placement_points)
    turn_timer = models.PositiveSmallIntegerField(_("turn timer (seconds)"), default=0)
    # Duplicate (docs/tournaments.md): every table of a round plays the same deals, and each deal's
    # result is compared with everyone who held the same seat's cards (matchpoints).
    duplicate = models.BooleanField(
        _("duplicate"),
        default=False,
        help_text=_("Every table of a round plays the same deals; standings use matchpoints."),
    )
    duplicate_average = models.BooleanField(
        _("difference from the field average"),
        default=False,
        help_text=_(
            "Duplicate only: also total each player's difference from the field average of every "
            "deal, and break ties in matchpoints with it."
        ),
    )
    registration_open = models.BooleanField(_("registration open"), default=False)
    status = models.CharField(
        _("status"), max_length=20, choices=TournamentStatus.choices, default=TournamentStatus.UPCOMING, db_index=True
    )
    starts_at = models.DateTimeField(_("start time"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def variant_label(self) -> str:
        """The variant's name in the reader's language ("Manipulation Rummy"), as the lobby names it."""
        try:
            return Variant(self.variant).label
        except ValueError:
            return self.variant


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    # Pairing seed: a larger number is a stronger seed (the rating at registration by default).
    seed = models.IntegerField(_("seed"), default=0)
    rating = models.FloatField(_("rating at registration"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "-seed", "registered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user")]

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.user}"


class TournamentRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # A duplicate round's shared deals (created when the round is published).
    deal_set = models.OneToOneField(
        "games.DealSet", on_delete=models.SET_NULL, null=True, blank=True, related_name="tournament_round"
    )

    class Meta:
        verbose_name = _("tournament round")
        verbose_name_plural = _("tournament rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tround_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class TournamentTable(models.Model):
    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # None for a bye, and for a draft seating until the round is published.
    match = models.OneToOneField(
        "games.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="tournament_table"
    )
    is_bye = models.BooleanField(default=False)
    # Why these players sit together: [{"code": "score_group", "points": 6}, {"code": "avoids_rematch"}, ...].
    reasons = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="ttable_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"


class TournamentSeat(models.Model):
    table = models.ForeignKey(TournamentTable, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    # The result, once known: 1 = first; equal game totals share a placement.
    placement = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.IntegerField(null=True, blank=True)  # placement points
    game_points = models.IntegerField(null=True, blank=True)  # the match's final total
    forfeit = models.BooleanField(default=False)
    overridden = models.BooleanField(default=False)  # set by staff; automatic recording leaves it alone

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="tseat_unique_index"),
            models.UniqueConstraint(fields=["table", "entry"], name="tseat_unique_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.index}"


class TournamentAudit(models.Model):
    """One row per staff action (and per automatic result), newest first."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=40)
    detail = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.action}"
