"""A notice in words, once: the bell's line, the push's title and body, the mail's subject.  Each is
said in the active language (the caller activates the player's)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from notifications.models import NoticeKind


def table_name(match) -> str:
    return _("%(variant)s · Table %(id)s") % {"variant": match.get_variant_display(), "id": match.pk}


def headline(kind: str) -> str:
    if kind == NoticeKind.YOUR_MOVE:
        return _("Your move")
    if kind == NoticeKind.REMINDER:
        # Translators: a reminder that the player's move is still awaited before its deadline.
        return _("Your move is waiting")
    return _("The match has ended")


def line(kind: str, match) -> str:
    """One sentence naming the table."""
    name = table_name(match)
    if kind == NoticeKind.YOUR_MOVE:
        return _("It is your move at %(table)s.") % {"table": name}
    if kind == NoticeKind.REMINDER:
        return _("Your move at %(table)s is still waiting; its time runs out soon.") % {"table": name}
    return _("The match at %(table)s has ended: see the result.") % {"table": name}


def table_url(match_id: int) -> str:
    return reverse("games:table", args=[match_id])
