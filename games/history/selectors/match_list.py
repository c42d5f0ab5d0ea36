"""The history's list of matches: filters, one row per match, a page of them, player name suggestions."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, time
from typing import Any
from urllib.parse import quote

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import F, QuerySet
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.history import display
from games.history.selectors.access import visible_matches
from games.models import Match, MatchStatus, Seat, Variant

PAGE_SIZE = 25
LIVE_STATUSES = (MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS)
LIST_FIELDS = (
    "id",
    "variant",
    "status",
    "is_private",
    "seats_count",
    "round_number",
    "created_at",
    "started_at",
    "finished_at",
)


def _list_seats(match_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The seats of a page of matches in one query (plain values: no model instances to build)."""
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = (
        Seat.objects.filter(match_id__in=match_ids)
        .order_by("match_id", "index")
        .values_list("match_id", "index", "user__username", "bot_policy", "bot_name", "final_total", "is_winner")
    )
    for match_id, index, username, bot_policy, bot_name, total, winner in rows:
        seats[match_id].append(
            {
                "index": index,
                "username": username or "",
                "is_bot": bool(bot_policy),
                "name": (bot_name or "Bot") if bot_policy else (username or ""),
                "total": total,
                "winner": winner,
            }
        )
    return seats


def _day_start(day) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


def filtered_matches(*, user, filters: dict[str, Any]) -> QuerySet[Match]:
    statuses = [MatchStatus.FINISHED, *LIVE_STATUSES] if filters.get("live") else [MatchStatus.FINISHED]
    qs = visible_matches(user).filter(status__in=statuses)
    if filters.get("variant"):
        qs = qs.filter(variant=filters["variant"])
    # "Played by": an IN over the seats of that user (their seat index), not a per-match subquery.
    if filters.get("player"):
        player = get_user_model().objects.filter(username__iexact=filters["player"]).values("pk")
        qs = qs.filter(pk__in=Seat.objects.filter(user__in=player).values("match_id"))
    if filters.get("mine") and user.is_authenticated:
        qs = qs.filter(pk__in=Seat.objects.filter(user=user).values("match_id"))
    when = "finished_at" if not filters.get("live") else "started_at"
    if filters.get("date_from"):
        qs = qs.filter(**{f"{when}__gte": _day_start(filters["date_from"])})
    if filters.get("date_to"):
        qs = qs.filter(**{f"{when}__lt": _day_start(filters["date_to"]) + timezone.timedelta(days=1)})
    if filters.get("tournament"):
        # A tournament's matches: Match ← TournamentTable.match → TournamentRound → Tournament.
        qs = qs.filter(tournament_table__round__tournament=filters["tournament"])
    if filters.get("live"):
        return qs.order_by(F("finished_at").desc(nulls_first=True), "-started_at", "-pk")
    return qs.order_by("-finished_at", "-pk")


def match_rows(matches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One list row per match (``matches``: ``values(*LIST_FIELDS)``): date, variant, players with totals
    and the winner, rounds, duration, and the links (reversed once per page, not once per row)."""
    seats = _list_seats([m["id"] for m in matches])
    variants = dict(Variant.choices)
    match_url = reverse("history:match", args=[0])[: -len("0/")]
    profile_url = reverse("profile", args=["x"])[: -len("x/")]
    rows = []
    for m in matches:
        live = m["status"] != MatchStatus.FINISHED
        players = []
        for seat in seats.get(m["id"], []):
            players.append(
                {
                    **seat,
                    "total": None if live else seat["total"],
                    "winner": (not live) and seat["winner"],
                    "url": f"{profile_url}{quote(seat['username'])}/" if seat["username"] else "",
                }
            )
        seconds = None
        if m["started_at"] and m["finished_at"]:
            seconds = (m["finished_at"] - m["started_at"]).total_seconds()
        rows.append(
            {
                "id": m["id"],
                "url": f"{match_url}{m['id']}/",
                "date": m["finished_at"] or m["started_at"] or m["created_at"],
                "variant": variants.get(m["variant"], m["variant"]),
                "players": players,
                "rounds": m["round_number"],
                "duration": display.duration_text(seconds) if not live else _("in play"),
                "live": live,
                "private": m["is_private"],
            }
        )
    return rows


def history_page(*, user, filters: dict[str, Any], page: Any) -> dict[str, Any]:
    qs = filtered_matches(user=user, filters=filters).values(*LIST_FIELDS)
    paginator = Paginator(qs, PAGE_SIZE)
    page_obj = paginator.get_page(page)
    return {"page": page_obj, "rows": match_rows(list(page_obj.object_list))}


def player_suggestions(*, prefix: str, limit: int = 10) -> list[str]:
    prefix = (prefix or "").strip()
    if not prefix:
        return []
    users = get_user_model().objects.filter(username__istartswith=prefix, is_active=True)
    return list(users.order_by("username").values_list("username", flat=True)[:limit])
