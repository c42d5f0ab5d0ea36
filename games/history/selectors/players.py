"""A player's statistics per variant and the leaderboards (openskill ratings)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from games.analysis.selectors import player_analysis
from games.history import ratings
from games.history.models import PlayerRating
from games.history.selectors.access import seated, visible_matches
from games.history.selectors.match_list import LIST_FIELDS, match_rows
from games.models import MatchStatus, Round, RoundScore, Seat, Variant
from games.variants import spec_for


def _rank_row(row: PlayerRating) -> dict[str, Any]:
    return {
        "ordinal": row.ordinal,
        "shown": ratings.shown(row.ordinal),
        "mu": row.mu,
        "sigma": row.sigma,
        "matches": row.matches,
        "provisional": ratings.is_provisional(row.sigma),
    }


def _stat_row() -> dict[str, Any]:
    return {
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


@dataclass
class _Counts:
    """The player's seat and the variant of each finished match counted, and the counts per variant."""

    seat_of: dict[int, int] = field(default_factory=dict)
    variant_of: dict[int, str] = field(default_factory=dict)
    per: defaultdict[str, dict[str, Any]] = field(default_factory=lambda: defaultdict(_stat_row))

    def of(self, match_id: int) -> tuple[int, dict[str, Any]]:
        """The player's seat in the match and its variant's counts."""
        return self.seat_of[match_id], self.per[self.variant_of[match_id]]


def _count_matches(player, viewer) -> _Counts:
    """Matches played and won per variant.  Only matches the viewer may see count: a private match's
    result stays with its players and staff."""
    seats = Seat.objects.filter(
        user=player, match__status=MatchStatus.FINISHED, match__in=visible_matches(viewer).values("pk")
    ).values("match_id", "index", "is_winner", "match__variant")
    counts = _Counts()
    for s in list(seats):
        counts.seat_of[s["match_id"]] = s["index"]
        v = counts.per[s["match__variant"]]
        v["played"] += 1
        v["won"] += int(s["is_winner"])
        counts.variant_of[s["match_id"]] = s["match__variant"]
    return counts


def _count_scores(counts: _Counts, round_info: dict[int, dict[str, Any]]) -> set[int]:
    """Rounds and points of the player, undercuts he gave; returns the rounds in which he was undercut
    (another seat's score has an undercut bonus against his knock)."""
    scores = RoundScore.objects.filter(round_id__in=list(round_info)).values("round_id", "seat", "score", "reasons")
    undercut_in: set[int] = set()
    for sc in scores:
        info = round_info[sc["round_id"]]
        me, v = counts.of(info["match_id"])
        codes = {r.get("code") for r in sc["reasons"] or [] if isinstance(r, dict)}
        if sc["seat"] == me:
            v["rounds"] += 1
            v["points"] += sc["score"]
            if "undercut_bonus" in codes or (info["result_kind"] == "undercut" and me in (info["winners"] or [])):
                v["undercuts_given"] += 1
        elif "undercut_bonus" in codes and info["knocker"] == me:
            undercut_in.add(info["id"])
    return undercut_in


def _count_rounds(counts: _Counts, round_info: dict[int, dict[str, Any]], undercut_in: set[int]) -> None:
    """Knocks, going-outs, gins and undercuts suffered, from the rounds' results."""
    for info in round_info.values():
        me, v = counts.of(info["match_id"])
        mine = info["knocker"] == me
        # going out ends a round without a knock (RULES B.6); a Gin hand's gin is knocked
        v["knocks"] += int(mine and info["result_kind"] in ("knock", "gin", "big_gin", "undercut", "tie"))
        v["going_outs"] += int(mine and info["result_kind"] == "went_out")
        v["gins"] += int(mine and info["result_kind"] in ("gin", "big_gin"))
        v["undercuts_suffered"] += int(info["id"] in undercut_in or (mine and info["result_kind"] == "undercut"))


def _variant_rows(counts: _Counts, player) -> list[dict[str, Any]]:
    """One row per variant played, in the variants' order, with the rates and the rating."""
    rating_rows = {r.variant: r for r in PlayerRating.objects.filter(user=player)}
    labels = dict(Variant.choices)
    variants = []
    for key in [v for v, _label in Variant.choices if v in counts.per]:
        v = counts.per[key]
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
    return variants


def _recent(player, viewer) -> list[dict[str, Any]]:
    last = (
        visible_matches(viewer)
        .filter(status=MatchStatus.FINISHED)
        .filter(seated(player))
        .order_by("-finished_at", "-pk")
        .values(*LIST_FIELDS)[:20]
    )
    return match_rows(list(last))


def player_stats(*, player, viewer) -> dict[str, Any]:
    """Per variant: played, won, win rate, average round score, knocks, undercuts, gins, going-outs, rating."""
    counts = _count_matches(player, viewer)
    rounds = Round.objects.filter(match_id__in=list(counts.seat_of), finished_at__isnull=False).values(
        "id", "match_id", "knocker", "result_kind", "winners"
    )
    round_info = {r["id"]: r for r in rounds}
    undercut_in = _count_scores(counts, round_info)
    _count_rounds(counts, round_info, undercut_in)
    variants = _variant_rows(counts, player)
    analysed = player_analysis(player=player, match_ids=list(counts.seat_of))
    labels = dict(Variant.choices)
    families = {v: spec_for(v).family for v in analysed}
    analysis = [
        {"key": v, "label": labels[v], "family": families[v], **analysed[v]}
        for v, _label in Variant.choices
        if v in analysed
    ]
    return {"variants": variants, "analysis": analysis, "recent": _recent(player, viewer)}


def leaderboard(*, variant: str, limit: int = 100) -> list[dict[str, Any]]:
    rows = (
        PlayerRating.objects.filter(variant=variant, user__isnull=False, user__is_active=True)
        .select_related("user")
        .order_by("-ordinal", "pk")[:limit]
    )
    return [{"rank": i + 1, "username": r.user.username, **_rank_row(r)} for i, r in enumerate(rows)]
