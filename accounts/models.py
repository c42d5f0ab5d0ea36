from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Presence(models.Model):
    """One open presence websocket of a signed-in user.

    A row lives while its socket is open; ``seen`` is refreshed every
    ``PRESENCE_HEARTBEAT`` seconds, so rows left behind by a crashed server
    stop counting after ``PRESENCE_TIMEOUT`` seconds.
    """

    channel_name = models.CharField(max_length=255, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="presences")
    seen = models.DateTimeField(db_index=True)

    class Meta:
        verbose_name = _("presence")
        verbose_name_plural = _("presences")

    def __str__(self) -> str:
        return f"{self.user} @ {self.channel_name}"


class Profile(models.Model):
    """What a player chose for themselves: for now the site's language, which follows them to every
    browser they sign in on (accounts.language)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    # One of settings.LANGUAGES; "" while the player has not chosen (the browser's language is used).
    language = models.CharField(_("language"), max_length=12, blank=True, default="")
    # The table's command line (issue 30): shown on every table, with the table in words.
    typed_commands = models.BooleanField(
        _("command line at the tables"),
        default=False,
        help_text=_("Play by typed commands, with the table read as text (for screen readers)."),
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)
