"""A player's statistics per variant and the leaderboards (openskill ratings)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from games.history import ratings
from games.history.models import PlayerRating
from games.history.selectors.access import seated, visible_matches
from games.history.selectors.lists import LIST_FIELDS, match_rows
from games.models import MatchStatus, Round, RoundScore, Seat, Variant


def _rank_row(row: PlayerRating) -> dict[str, Any]:
    return {
        "ordinal": row.ordinal,
        "mu": row.mu,
        "sigma": row.sigma,
        "matches": row.matches,
        "provisional": ratings.is_provisional(row.sigma),
    }


def player_stats(*, player, viewer) -> dict[str, Any]:
    """Per variant: played, won, win rate, average round score, knocks, undercuts, gins, going-outs, rating."""
    # Only matches the viewer may see count: a private match's result stays with its players and staff.
    seats = list(
        Seat.objects.filter(
            user=player, match__status=MatchStatus.FINISHED, match__in=visible_matches(viewer).values("pk")
        ).values(
            "match_id", "index", "is_winner", "match__variant"
        )
    )
    seat_of = {s["match_id"]: s["index"] for s in seats}
    per: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "played": 0,
            "won": 0,
            "rounds": 0,
            "points": 0,
            "knocks": 0,
            "undercuts_given": 0,
            "undercuts_suffered": 0,
            "gins": 0,
            "going_outs": 0,
        }
    )
    variant_of = {}
    for s in seats:
        v = per[s["match__variant"]]
        v["played"] += 1
        v["won"] += int(s["is_winner"])
        variant_of[s["match_id"]] = s["match__variant"]
    rounds = Round.objects.filter(match_id__in=list(seat_of), finished_at__isnull=False).values(
        "id", "match_id", "knocker", "result_kind", "winners"
    )
    round_info = {r["id"]: r for r in rounds}
    scores = RoundScore.objects.filter(round_id__in=list(round_info)).values("round_id", "seat", "score", "reasons")
    undercut_in: set[int] = set()
    for sc in scores:
        info = round_info[sc["round_id"]]
        me = seat_of[info["match_id"]]
        codes = {r.get("code") for r in sc["reasons"] or [] if isinstance(r, dict)}
        v = per[variant_of[info["match_id"]]]
        if sc["seat"] == me:
            v["rounds"] += 1
            v["points"] += sc["score"]
            if "undercut_bonus" in codes or (info["result_kind"] == "undercut" and me in (info["winners"] or [])):
                v["undercuts_given"] += 1
        elif "undercut_bonus" in codes and info["knocker"] == me:
            undercut_in.add(info["id"])
    for info in round_info.values():
        me = seat_of[info["match_id"]]
        v = per[variant_of[info["match_id"]]]
        mine = info["knocker"] == me
        v["knocks"] += int(mine and info["result_kind"] in ("knock", "went_out", "gin", "big_gin", "undercut"))
        v["going_outs"] += int(mine and info["result_kind"] == "went_out")
        v["gins"] += int(mine and info["result_kind"] in ("gin", "big_gin"))
        v["undercuts_suffered"] += int(info["id"] in undercut_in or (mine and info["result_kind"] == "undercut"))
    rating_rows = {r.variant: r for r in PlayerRating.objects.filter(user=player)}
    labels = dict(Variant.choices)
    variants = []
    for key in [v for v, _label in Variant.choices if v in per]:
        v = per[key]
        variants.append(
            {
                "key": key,
                "label": labels[key],
                **v,
                "win_rate": round(100 * v["won"] / v["played"]) if v["played"] else 0,
                "average": round(v["points"] / v["rounds"], 1) if v["rounds"] else 0,
                "rating": _rank_row(rating_rows[key]) if key in rating_rows else None,
            }
        )
    last = (
        visible_matches(viewer)
        .filter(status=MatchStatus.FINISHED)
        .filter(seated(player))
        .order_by("-finished_at", "-pk")
        .values(*LIST_FIELDS)[:20]
    )
    return {"variants": variants, "recent": match_rows(list(last))}


def leaderboard(*, variant: str, limit: int = 100) -> list[dict[str, Any]]:
    rows = (
        PlayerRating.objects.filter(variant=variant, user__isnull=False, user__is_active=True)
        .select_related("user")
        .order_by("-ordinal", "pk")[:limit]
    )
    return [{"rank": i + 1, "username": r.user.username, **_rank_row(r)} for i, r in enumerate(rows)]
