"""One door to a match in the history: ``match_for_viewer`` answers "missing" and "private and not
yours" the same way (404); ``visible_matches`` is every match a viewer may look at."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404

from games.models import Match, MatchStatus, Seat


def seated(user) -> Exists:
    return Exists(Seat.objects.filter(match=OuterRef("pk"), user=user))


def visible_matches(user) -> QuerySet[Match]:
    """Matches this viewer may look at: public ones, and private ones they played in (staff: all).

    A duplicate tournament table whose deals are still held (other tables of its round may still be
    playing the same cards) is shown only to its own players until the round closes."""
    qs = Match.objects.all()
    if getattr(user, "is_staff", False):
        return qs
    if user is None or not user.is_authenticated:
        return qs.filter(is_private=False, deals_held=False)
    return qs.filter((Q(is_private=False) & Q(deals_held=False)) | Q(seated(user)))


def match_for_viewer(*, match_id: int, user) -> Match:
    """The one door to a match in the history: missing and not-yours answer the same (404)."""
    match = visible_matches(user).filter(pk=match_id).exclude(status=MatchStatus.OPEN).first()
    if match is None:
        raise Http404
    return match
