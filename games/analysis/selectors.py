"""Reads of the post-game analysis, as plain data for the templates: a match's analysis (its progress
while it runs, each seat's summary and the missed plays once it is done), the step of a replay with
what the analysis found there, and a player's summary per variant."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Sum
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.analysis.models import AnalysisSeat, AnalysisStatus, MatchAnalysis
from games.board import faces, lists
from games.engine import analysis as engine_analysis
from games.models import Match, MatchStatus
from games.variants import spec_for

MISSED_LISTED = 60  # the match page lists at most this many missed plays (the replay steps through all)


def latest_analysis(match: Match) -> MatchAnalysis | None:
    """The analysis to show: the newest version's, unless it is not done and an older one is."""
    rows = list(MatchAnalysis.objects.filter(match=match).order_by("-version"))
    if not rows:
        return None
    return next((r for r in rows if r.status == AnalysisStatus.DONE), rows[0])


def short(ref: str) -> str:
    """A card as short text: ``"7♠"``; a joker with what it stands for."""
    face = faces.card_face(ref)
    if face.get("joker"):
        return _("joker (%(card)s)") % {"card": face["as"]} if face.get("as") else _("joker")
    return face["rank"] + face["suit"]


def cards_text(refs: list[str]) -> SafeString:
    """Cards named in a sentence, each isolated: ``<bdi>7♠</bdi>, <bdi>8♠</bdi>``."""
    return format_html_join(lists.separator(), "<bdi>{}</bdi>", ((short(r),) for r in refs))


def card_in_text(ref: str | None) -> SafeString:
    return format_html("<bdi>{}</bdi>", short(ref)) if ref else SafeString("")


def match_analysis(*, match: Match, seats: list[Any]) -> dict[str, Any] | None:
    """The match page's analysis: None for a match not finished; else its ``state`` ("queued",
    "running", "done", "failed"), the progress, and once done each seat's summary and the missed plays
    (``seats``: the page's seat rows, with ``index`` and ``name``)."""
    if match.status != MatchStatus.FINISHED:
        return None
    row = latest_analysis(match)
    family = spec_for(match.variant).family
    if row is None:
        return {"state": AnalysisStatus.QUEUED, "percent": 0, "family": family}
    out: dict[str, Any] = {
        "state": row.status,
        "percent": round(100 * row.progress / row.total) if row.total else 0,
        "progress": row.progress,
        "total": row.total,
        "family": family,
    }
    if row.status != AnalysisStatus.DONE:
        return out
    by_seat = {r.seat: r for r in AnalysisSeat.objects.filter(analysis=row)}
    names = {s.index: s.name for s in seats}
    out["summary"] = [{"name": names.get(i, ""), **_summary_numbers(by_seat[i])} for i in sorted(by_seat)]
    missed = [s for s in row.steps if s.get("missed") and s.get("status", "ok") == "ok"]
    out["missed_count"] = len(missed)
    out["missed"] = [
        {"step": s["step"], "round": s["round"], "name": names.get(s["seat"], ""), **missed_numbers(s)}
        for s in missed[:MISSED_LISTED]
    ]
    out["skipped"] = sum(1 for s in row.steps if s.get("status", "ok") != "ok")
    return out


def _summary_numbers(r: AnalysisSeat | dict[str, Any]) -> dict[str, Any]:
    get = r.get if isinstance(r, dict) else (lambda k: getattr(r, k))
    steps, best = get("steps") or 0, get("best") or 0
    return {
        "steps": steps,
        "best": best,
        "rate": round(100 * best / steps) if steps else None,
        "missed_cards": get("missed_cards") or 0,
        "missed_points": get("missed_points") or 0,
        "missed_deadwood": get("missed_deadwood") or 0,
        "missed_knocks": get("missed_knocks") or 0,
        "missed_gins": get("missed_gins") or 0,
    }


def missed_numbers(step: dict[str, Any]) -> dict[str, Any]:
    """What one missed play missed: Manipulation's cards and points, Gin's deadwood, knock, gin."""
    if step["family"] == "manipulation":
        return {
            "cards": max(0, step["most_cards"] - step["laid_cards"]),
            "points": max(0, step["best_points"] - step["laid_points"]),
        }
    return {"reached": step["reached"], "best": step["best"], "knock": step["missed_knock"], "gin": step["missed_gin"]}


def replay_analysis(*, match: Match, step: int) -> dict[str, Any] | None:
    """What the analysis found at the replay's ``step`` (None when it has nothing there or is not
    done), with the steps of the previous and next missed plays."""
    row = latest_analysis(match)
    if row is None or row.status != AnalysisStatus.DONE:
        return None
    missed_steps = [s["step"] for s in row.steps if s.get("missed") and s.get("status", "ok") == "ok"]
    here = next((s for s in row.steps if s.get("step") == step), None)
    out: dict[str, Any] = {
        "prev_missed": max((s for s in missed_steps if s < step), default=None),
        "next_missed": min((s for s in missed_steps if s > step), default=None),
        "missed_count": len(missed_steps),
        "here": None,
    }
    if here is not None:
        out["here"] = step_view(here)
    return out


def step_view(s: dict[str, Any]) -> dict[str, Any]:
    """One step record as the replay shows it: the numbers, and for a missed Manipulation play the
    rearrangement that reaches the best (its moves, the cards laid, the table it makes)."""
    view: dict[str, Any] = {"family": s["family"], "status": s.get("status", "ok"), "missed": s["missed"]}
    if s["family"] == "manipulation":
        view.update(
            laid_cards=s["laid_cards"],
            laid_points=s["laid_points"],
            best_cards=s["best_cards"],
            best_points=s["best_points"],
            most_cards=s["most_cards"],
        )
        if s.get("best"):
            view["diff"] = diff_view(s["best"])
        return view
    view.update(
        kind=s["kind"],
        reached=s["reached"],
        best=s["best"],
        limit=s["limit"],
        card=card_in_text(s.get("card")),
        best_card=card_in_text(s.get("best_card")),
        missed_knock=s["missed_knock"],
        missed_gin=s["missed_gin"],
        knocked=s["knocked"],
        gin=s["gin"],
    )
    return view


def diff_view(diff: dict[str, Any]) -> dict[str, Any]:
    """A table diff (games.engine.manipulation.diff) for a template: sentences' parts and the melds' faces."""
    new = {m["n"] for m in diff["melds"] if m["new"]}
    return {
        "moves": [
            {"from": m["from"], "to": m["to"], "new": m["to"] in new, "cards": cards_text(m["cards"])}
            for m in diff["moves"]
        ],
        "laid": [{"to": m["to"], "new": m["to"] in new, "cards": cards_text(m["cards"])} for m in diff["laid"]],
        "gone": diff["gone"],
        # The cards the steps name, by id: a practice hint marks them on the table and in the hand.
        "named": [faces.card_face(r)["id"] for m in (*diff["moves"], *diff["laid"]) for r in m["cards"]],
        "melds": [
            {"n": m["n"], "new": m["new"], "cards": [faces.card_face(r) for r in m["cards"]]} for m in diff["melds"]
        ],
    }


def player_analysis(*, player, match_ids: list[int]) -> dict[str, dict[str, Any]]:
    """Per variant, the summary of ``player``'s analysed matches among ``match_ids`` (those the viewer
    may see)."""
    rows = (
        AnalysisSeat.objects.filter(user=player, analysis__status=AnalysisStatus.DONE, analysis__match_id__in=match_ids)
        .values("variant")
        .annotate(matches=Count("id"), **{k: Sum(k) for k in engine_analysis.SUMMARY_KEYS})
    )
    return {r["variant"]: {"matches": r["matches"], **_summary_numbers(r)} for r in rows}
