"""Reads of duplicate rounds: every closed round's deals scored (``duplicate.py``), the totals the
standings use, the per-deal comparison and a player's own lines on the tournament page.

Only closed rounds are read: until every table of a round has finished, one table's result on a
deal would tell a player still holding those cards elsewhere how they went (docs/tournaments.md).
A closed round's results never change, so its scoring is kept per process.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from games.models import DealSeed, Round, RoundScore
from games.tournaments.duplicate import Holding, RoundScores, SeatedTable, Total, score_round, total_over
from games.tournaments.models import RoundStatus, Tournament, TournamentRound, TournamentSeat, TournamentTable
from games.variants import spec_for

_KEPT: OrderedDict[tuple, RoundScores] = OrderedDict()
KEEP = 64  # closed rounds kept per process


@dataclass(frozen=True, slots=True)
class ClosedRound:
    round: TournamentRound
    scores: RoundScores


def closed_rounds(tournament: Tournament) -> list[ClosedRound]:
    """The tournament's closed rounds, oldest first, each scored (empty unless it is duplicate)."""
    if not tournament.duplicate:
        return []
    rounds = list(TournamentRound.objects.filter(tournament=tournament, status=RoundStatus.CLOSED).order_by("number"))
    out = []
    for rnd in rounds:
        key = (rnd.pk, rnd.deal_set_id, rnd.closed_at.isoformat() if rnd.closed_at else "")
        scores = _KEPT.get(key)
        if scores is None:
            scores = _score(rnd, tournament.variant)
            _KEPT[key] = scores
            while len(_KEPT) > KEEP:
                _KEPT.popitem(last=False)
        else:
            _KEPT.move_to_end(key)
        out.append(ClosedRound(rnd, scores))
    return out


def totals(tournament: Tournament) -> dict[Any, tuple[Fraction, Fraction]]:
    """Each entry's (matchpoints, difference from the field average) over the closed rounds."""
    summed = total_over(r.scores for r in closed_rounds(tournament))
    return {entry: (t.matchpoints, t.difference) for entry, t in summed.items()}


def _score(rnd: TournamentRound, variant: str) -> RoundScores:
    """One round's tables and finished deals, scored."""
    spec = spec_for(variant)
    tables = list(
        TournamentTable.objects.filter(round=rnd).order_by("number").values("pk", "number", "match_id", "is_bye")
    )
    entries: dict[int, list[int]] = {t["pk"]: [] for t in tables}
    for table_id, entry_id in (
        TournamentSeat.objects.filter(table__round=rnd)
        .order_by("table_id", "index")
        .values_list("table_id", "entry_id")
    ):
        entries[table_id].append(entry_id)
    by_match = {t["match_id"]: t for t in tables if t["match_id"] is not None}
    rounds = list(
        Round.objects.filter(match_id__in=list(by_match), finished_at__isnull=False).values(
            "pk", "match_id", "number", "dealer", "setup"
        )
    )
    scores: dict[int, dict[int, int]] = {r["pk"]: {} for r in rounds}
    for round_id, seat, score in RoundScore.objects.filter(round_id__in=list(scores)).values_list(
        "round_id", "seat", "score"
    ):
        scores[round_id][seat] = score
    holdings = []
    for r in rounds:
        table = by_match[r["match_id"]]
        seated = entries[table["pk"]]
        size = len(seated)
        setup = r["setup"] or {}
        points = [scores[r["pk"]].get(i, 0) for i in range(size)]
        results = spec.deal_results(points, setup, size)
        for position, seat in enumerate(spec.deal_positions(setup, r["dealer"], size)):
            holdings.append(
                Holding(
                    table=table["number"],
                    size=size,
                    deal=r["number"],
                    position=position,
                    entry=seated[seat],
                    result=results[seat],
                )
            )
    seated_tables = [SeatedTable(t["number"], tuple(entries[t["pk"]]), t["is_bye"]) for t in tables]
    return score_round(seated_tables, holdings)


# ----------------------------------------------------------------- the page


def _names(tournament: Tournament) -> dict[int, str]:
    return dict(tournament.entries.values_list("pk", "user__username"))


def my_lines(tournament: Tournament, user, closed: list[ClosedRound] | None = None) -> list[dict[str, Any]]:
    """The viewer's deals of every closed round (``closed``: :func:`closed_rounds`, when read already):
    deal, seat, result, the field average, matchpoints."""
    if not tournament.duplicate or user is None or not user.is_authenticated:
        return []
    entry = tournament.entries.filter(user=user).values_list("pk", flat=True).first()
    if entry is None:
        return []
    out = []
    for done in closed if closed is not None else closed_rounds(tournament):
        scores = done.scores
        groups = {(g.deal, g.size, g.position): g for g in scores.groups}
        rows = []
        for row in scores.by_entry.get(entry, []):
            h = row.holding
            group = groups[(h.deal, h.size, h.position)]
            rows.append(
                {
                    "deal": h.deal,
                    "letter": group.letter,
                    "result": h.result,
                    "average": group.average,
                    "matchpoints": row.matchpoints,
                    "top": 2 * scores.average,
                    "others": len(group.rows) - 1,
                    "table": h.table,
                }
            )
        total = scores.totals.get(entry, Total())
        if rows or total.averaged:
            out.append(
                {
                    "round": done.round.number,
                    "rows": sorted(rows, key=lambda r: r["deal"]),
                    "total": total,
                    "averaged": total.averaged,
                    "average": scores.average,
                    "bye": entry in scores.byes,
                }
            )
    return out


def comparison(tournament: Tournament, number: int, user=None) -> dict[str, Any] | None:
    """Round ``number``'s deals, each seat's group at each table size: who held the cards at which
    table, their result, matchpoints and difference from the field average; the deals' seeds."""
    closed = next((c for c in closed_rounds(tournament) if c.round.number == number), None)
    if closed is None:
        return None
    names = _names(tournament)
    me = None
    if user is not None and user.is_authenticated:
        me = tournament.entries.filter(user=user).values_list("pk", flat=True).first()
    scores = closed.scores
    deals: list[dict[str, Any]] = []
    for group in scores.groups:
        if not deals or deals[-1]["number"] != group.deal:
            deals.append({"number": group.deal, "groups": []})
        deals[-1]["groups"].append(
            {
                "letter": group.letter,
                "size": group.size,
                "average": group.average,
                "rows": [
                    {
                        "table": r.holding.table,
                        "name": names.get(r.holding.entry, ""),
                        "result": r.holding.result,
                        "matchpoints": r.matchpoints,
                        "difference": r.difference,
                        "me": r.holding.entry == me,
                    }
                    for r in group.rows
                ],
            }
        )
    seeds = []
    if closed.round.deal_set_id is not None and closed.round.deal_set and closed.round.deal_set.revealed_at:
        seeds = list(
            DealSeed.objects.filter(deal_set_id=closed.round.deal_set_id)
            .order_by("number")
            .values_list("number", "seed")
        )
    spec = spec_for(tournament.variant)
    game = "gin_box" if spec.team_advice else spec.family
    return {
        "round": closed.round,
        "deals": deals,
        "seeds": seeds,
        "scores": scores,
        "game": game,
        "by_difference": tournament.duplicate_average,
        "top": 2 * scores.average,
    }
