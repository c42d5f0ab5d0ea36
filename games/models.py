"""Stored matches (DESIGN.md §4).

A ``Match`` is one table: its seats, options, the JSON snapshot of the engine
state (always equal to replaying its events from the rounds' seeds), a
``version`` that every change bumps, and a ``deadline`` for the next automatic
step (a bot move, a turn timer, the next round).  No logic lives here: writes
go through ``games.services``, reads through ``games.selectors``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engine.shuffle import CURRENT as CURRENT_SHUFFLE
from games.engine.shuffle import new_seed as new_deal_seed
from games.variant_names import Variant


class MatchStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    PLAYING = "playing", _("Playing")
    BETWEEN_ROUNDS = "between_rounds", _("Between rounds")
    FINISHED = "finished", pgettext_lazy("a match's status", "Finished")
    ABANDONED = "abandoned", _("Abandoned")


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


def new_seed() -> int:
    return secrets.randbits(62)


# A table's timings and seats (the lobby form, the services and the board read them here).
TIMER_CHOICES = (0, 30, 60, 120)  # a turn timer, seconds (0: none)
READY_TIMEOUT = 30  # seconds before the next round starts without everybody's click
DISCONNECT_GRACE = 30  # seconds a disconnected player's turn waits when there is no timer
MISSED_TURNS_FOR_AUTOPILOT = 3
# Turn-based play (issue 27, docs/turn-based.md): a time per move instead of a real-time turn timer,
# seconds (1 h, 12 h, 1 day, 3 days); ``Match.move_time`` 0 is a real-time table.
MOVE_TIME_CHOICES = (3600, 12 * 3600, 24 * 3600, 72 * 3600)
# ``Match.turn_notices``: what was sent for the turn in play (bits), so that a restart sends nothing twice.
NOTICE_YOUR_MOVE = 1
NOTICE_QUARTER = 2  # the reminder at a quarter of the time left
NOTICE_HOUR = 4  # the reminder an hour before the deadline
BOT_POLICIES = ("basic", "random-legal")
BOT_NAMES = ("Ada", "Boole", "Cobb", "Dijkstra", "Euler", "Fermat", "Gauss", "Hopper")


class DealSet(models.Model):
    """Deals shared by several tables (a duplicate tournament round, docs/tournaments.md): one seed per
    deal number (``DealSeed``) and one match seed (the first dealer or roles), so that every table of
    a size is dealt alike.  Its seeds stay secret until every table has played them: the matches
    keep ``deals_held`` until the tournament round is closed, which sets ``revealed_at``."""

    match_seed = models.BigIntegerField(default=new_seed, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("shared deals")
        verbose_name_plural = _("shared deals")

    def __str__(self) -> str:
        return f"deal set {self.pk}"


class DealSeed(models.Model):
    """The seed of deal ``number`` of a :class:`DealSet` (written when the first table deals it)."""

    deal_set = models.ForeignKey(DealSet, on_delete=models.CASCADE, related_name="seeds")
    number = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, default=new_deal_seed, editable=False)

    class Meta:
        ordering = ["deal_set", "number"]
        constraints = [models.UniqueConstraint(fields=["deal_set", "number"], name="dealseed_unique_number")]

    def __str__(self) -> str:
        return f"deal set {self.deal_set_id} deal {self.number}"


class Match(models.Model):
    variant = models.CharField(_("variant"), max_length=20, choices=Variant.choices, db_index=True)
    options = models.JSONField(_("rule options"), default=dict, blank=True)
    seats_count = models.PositiveSmallIntegerField(_("seats"))
    status = models.CharField(
        _("status"), max_length=20, choices=MatchStatus.choices, default=MatchStatus.OPEN, db_index=True
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="hosted_matches"
    )
    is_private = models.BooleanField(_("private"), default=False)
    # A practice table is not rated (games.history.services) and offers hints while every other seat
    # is a bot (games.practice); a tournament's tables never are.
    practice = models.BooleanField(_("practice (not rated)"), default=False)
    invite_token = models.CharField(max_length=40, default=new_invite_token, editable=False)
    turn_timer = models.PositiveSmallIntegerField(_("turn timer (seconds)"), default=0)
    # Match-level randomness (first dealer, gin role draw); never leaves the server.
    seed = models.BigIntegerField(default=new_seed, editable=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)
    version = models.PositiveIntegerField(default=0)
    # The newest version made by a change a move can depend on (a move, a deal, a seat, a draft, a rule):
    # a move made on any version from this one to ``version`` is made on the same table.  The versions
    # after it only moved the deadline as sockets opened or closed (``Write.save(presence=True)``), so
    # they show a new clock but make no move stale (``services.write._check_version``).
    play_version = models.PositiveIntegerField(default=0, editable=False)
    # The seq of this match's newest Event: the next one is numbered from it under the match lock.
    event_seq = models.PositiveIntegerField(default=0, editable=False)
    round_number = models.PositiveSmallIntegerField(default=0)
    # {"round": engine round state, "tally": match bookkeeping, "commitment": the round's commitment to its
    # seed (public), "stage": ...}; never sent raw to a client.
    state = models.JSONField(default=dict, blank=True)
    # The acting player's unsaved table arrangement (Manipulation meld step), kept across reloads.
    draft = models.JSONField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Turn-based tables (``move_time`` > 0): the seat to act (a human's turn only, else None), its
    # deadline, and the notices sent for that turn (NOTICE_* bits).  ``deadline`` above is then the
    # next of: a reminder, the turn's deadline (games.services.turnbased).
    move_time = models.PositiveIntegerField(_("time per move (seconds)"), default=0)
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    turn_notices = models.PositiveSmallIntegerField(default=0)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    rematch_of = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # A duplicate tournament table: its rounds are dealt from the shared seeds, and while ``deals_held``
    # (until the tournament round closes) no seed or deal of it is shown, even of a finished round.
    deal_set = models.ForeignKey(DealSet, on_delete=models.SET_NULL, null=True, blank=True, related_name="matches")
    deals_held = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-finished_at"], name="match_status_finished")]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_variant_display()}"

    @property
    def turn_based(self) -> bool:
        """A turn-based table: a time per move of hours or days (``MOVE_TIME_CHOICES``)."""
        return bool(self.move_time)


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    # A bot's policy ("basic", "random-legal"); empty for a human seat.
    bot_policy = models.CharField(max_length=30, blank=True)
    bot_name = models.CharField(max_length=40, blank=True)
    role = models.CharField(max_length=20, blank=True)  # three-player gin: box / captain / advisor
    # When the player was last known to be at the table (a socket opened, closed, or its row lapsed):
    # "gone since" for the disconnect grace.  Whether they are here now is in TableConnection.
    last_seen = models.DateTimeField(null=True, blank=True)
    missed_turns = models.PositiveSmallIntegerField(default=0)
    # The basic bot plays for an absent human until they come back.
    autopilot = models.BooleanField(default=False)
    ready = models.BooleanField(default=False)
    # The player's own order of the cards in hand (ids); new cards go to the end.
    hand_order = models.JSONField(default=list, blank=True)
    final_total = models.IntegerField(null=True, blank=True)
    # The match ended with a bot playing this player's seat (autopilot: they timed out turn after turn,
    # or left and did not come back): an abandon (rated last; counted by fairplay).
    abandoned = models.BooleanField(default=False)
    is_winner = models.BooleanField(default=False)

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["match", "user"], condition=Q(user__isnull=False), name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.index} {self.display_name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_policy)

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_policy

    @property
    def display_name(self) -> str:
        if self.bot_policy:
            return self.bot_name or "Bot"
        if self.user_id:
            return self.user.username
        return ""


def new_connection_token() -> str:
    return secrets.token_urlsafe(18)


class TableConnection(models.Model):
    """One open table socket (of a player or a spectator), kept by the process that holds it.

    Created when the socket connects, deleted when it closes; its process refreshes
    ``last_seen`` every ``RUMMYHUB_HEARTBEAT`` seconds.  A seat is online while its user has a
    row seen within ``RUMMYHUB_PRESENCE_TIMEOUT``; the rows of a process that died are swept by
    ``services.presence_sweep``.  ``token`` names the socket (random: forked processes share
    the channel layer's random state).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    token = models.CharField(max_length=32, unique=True, default=new_connection_token)
    opened_at = models.DateTimeField()
    last_seen = models.DateTimeField()

    class Meta:
        indexes = [
            # "Is this seat's user here?" (the board's seats, the services) and the match's cascade.
            models.Index(fields=["match", "user", "last_seen"], name="tableconn_match_user_seen"),
            models.Index(fields=["last_seen"], name="tableconn_seen"),  # the sweep
        ]

    def __str__(self) -> str:
        return f"{self.match_id}:{self.user_id} {self.token}"


class Round(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    # The deal (docs/fairness.md): the shuffle that dealt it, its seed (secret until the round is over:
    # 64 hex digits for fy-hmac-sha256-v1, a whole number in decimal for the old python-random) and
    # the commitment to the seed shown at the table from the deal on (empty for python-random rounds).
    shuffle = models.CharField(max_length=24, default=CURRENT_SHUFFLE, editable=False)
    seed = models.CharField(max_length=64, default=new_deal_seed, editable=False)
    commitment = models.CharField(max_length=64, blank=True, editable=False)
    # The match bookkeeping before this round was dealt (roles, dealer, scores): replays start here.
    setup = models.JSONField(default=dict, blank=True)
    result_kind = models.CharField(max_length=20, blank=True)  # knock / went_out / stock_out / gin / undercut / dead
    knocker = models.PositiveSmallIntegerField(null=True, blank=True)
    winners = models.JSONField(default=list, blank=True)
    outcome = models.JSONField(null=True, blank=True)  # the engine's outcome, hands revealed
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"{self.match_id} round {self.number}"

    def seed_shown(self, match: Match) -> bool:
        """Whether this round's seed (and its deal) may be shown: the round is over and ``match``
        (its match) does not hold its deals (a duplicate round some table is still playing)."""
        return self.finished_at is not None and not match.deals_held


class RoundScore(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="scores")
    seat = models.PositiveSmallIntegerField()
    hand_points = models.IntegerField(null=True, blank=True)
    score = models.IntegerField(default=0)
    reasons = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["round", "seat"]
        constraints = [models.UniqueConstraint(fields=["round", "seat"], name="roundscore_unique_seat")]

    def __str__(self) -> str:
        return f"round {self.round_id} seat {self.seat}: {self.score}"


class Event(models.Model):
    """Append-only move log: every accepted action, in order; any state can be replayed from it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    round_number = models.PositiveSmallIntegerField(default=0)
    seat = models.SmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=20)  # "action" (engine), "deal", "system"
    action = models.JSONField(default=dict)
    # Public description for the log ({"code": ..., params}); never a hidden card.
    summary = models.JSONField(default=dict, blank=True)
    by_bot = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="event_unique_seq")]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.kind}"


class ChatMessage(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text[:40]}"


# Models of the other features of the games app, kept in their own modules.
from games.analysis.models import *  # noqa: E402, F403
from games.history.models import *  # noqa: E402, F403
from games.puzzles.models import *  # noqa: E402, F403
from games.tournaments.models import *  # noqa: E402, F403
