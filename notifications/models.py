"""The notifications' rows: a device's push subscription, a player's choices, and each notice (the
header's bell lists them; the worker delivers them by push or mail)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Match


class PushSubscription(models.Model):
    """One browser's push subscription (one per device and browser profile): where to push, and the
    keys the payload is encrypted to (RFC 8291).  Deleted when the push service answers 404 or 410."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's P-256 public key, base64url (65 bytes)
    auth = models.CharField(max_length=40)  # the authentication secret, base64url (16 bytes)
    # A label for the player's list of devices ("Chrome on Android"), from the user agent.
    label = models.CharField(_("device"), max_length=80, blank=True)
    created = models.DateTimeField(_("created"))
    last_push = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["created"]

    def __str__(self) -> str:
        return f"{self.user} · {self.label or self.endpoint[:40]}"


class NotificationSettings(models.Model):
    """What a player wants to hear: push, mail, and quiet hours (in their time zone) when neither goes."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    push = models.BooleanField(_("push notifications"), default=True)
    mail = models.BooleanField(_("e-mail when I have no push"), default=True)
    quiet_start = models.TimeField(_("quiet hours from"), null=True, blank=True)
    quiet_end = models.TimeField(_("quiet hours until"), null=True, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return str(self.user)


class NoticeKind(models.TextChoices):
    YOUR_MOVE = "your_move", pgettext_lazy("a notice", "Your move")
    REMINDER = "reminder", pgettext_lazy("a notice", "Reminder")
    MATCH_ENDED = "match_ended", pgettext_lazy("a notice", "Match ended")


class Delivery(models.TextChoices):
    PENDING = "pending", _("Waiting")  # for the worker (or for quiet hours to end: deliver_after)
    SENDING = "sending", _("Being sent")  # claimed by a worker
    SENT = "sent", _("Sent")  # pushed to at least one device, or mailed
    BELL = "bell", _("Shown in the list only")  # nothing to send it by (no device, no mail, mail too soon)
    DROPPED = "dropped", _("Dropped")  # no longer true when it was due (moved, deadline passed, match over)


class Notice(models.Model):
    """One thing a player is told: an entry in the header's bell, and a push or a mail."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=NoticeKind.choices)
    created = models.DateTimeField(db_index=True)
    # The move's deadline when the notice was made (your move, reminder): past it, the notice is stale.
    deadline = models.DateTimeField(null=True, blank=True)
    # Not before (quiet hours defer a notice to their end).
    deliver_after = models.DateTimeField()
    delivery = models.CharField(max_length=10, choices=Delivery.choices, default=Delivery.PENDING)
    pushed = models.PositiveSmallIntegerField(default=0)  # devices that took the push
    mailed_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("notice")
        verbose_name_plural = _("notices")
        ordering = ["-created", "-pk"]
        indexes = [
            models.Index(fields=["delivery", "deliver_after"], name="notice_due"),
            models.Index(fields=["user", "read_at"], name="notice_unread"),
            models.Index(fields=["user", "match", "mailed_at"], name="notice_mailed"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.kind} · {self.match_id}"
