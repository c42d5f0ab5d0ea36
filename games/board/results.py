"""The result dialog of a round and of a match (``games/table.html#frag-results``), for both games.

Public: what every viewer of the table may see (who won, the totals, the rating changes, which
the match page shows to anyone).  The headline names the winners; the sentence of how the round
ended (``words.round_end_sentence``) comes under it.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.board import bidi, lists, words
from games.models import Match, MatchStatus, RatedMatch


def _names(names: list[str]) -> str:
    return lists.items(bidi.isolate(n) for n in names)


def round_headline(number: int, winners: list[str]) -> str:
    """ "alice wins round 2" (a Gin hand is a round too); nobody: "Nobody wins round 2"."""
    if not winners:
        return _("Nobody wins round %(n)d.") % {"n": number}
    return ngettext("%(names)s wins round %(n)d.", "%(names)s win round %(n)d.", len(winners)) % {
        "names": _names(winners),
        "n": number,
    }


def match_headline(winners: list[str]) -> str:
    if not winners:
        return _("The match is over.")
    return ngettext("%(names)s wins the match!", "%(names)s win the match!", len(winners)) % {"names": _names(winners)}


def outcome(match: Match, seats, round_results) -> dict[str, Any] | None:
    """The dialog's summary between rounds and at the end; None while a round is played."""
    if match.status not in (MatchStatus.BETWEEN_ROUNDS, MatchStatus.FINISHED):
        return None
    names = words.sentence_names(seats)
    last = round_results[-1] if round_results else None
    rows = {r["seat"]: r for r in last["rows"]} if last else {}
    finished = match.status == MatchStatus.FINISHED
    changes = _rating_changes(match) if finished and not match.practice else None
    standings = []
    for s in seats:
        row = rows.get(s.index)
        standings.append(
            {
                "name": s.display_name,
                "is_bot": s.is_bot,
                "round_score": row["score"] if row else None,
                "won_round": bool(row and row["won"]),
                "total": s.final_total if finished and s.final_total is not None else (row["total"] if row else None),
                "is_winner": finished and s.is_winner,
                "rating_change": None if changes is None else changes.get(s.index),
            }
        )
    if finished:
        standings.sort(key=lambda x: -(x["total"] or 0))
        headline = match_headline([names[s.index] for s in seats if s.is_winner])
    else:
        headline = round_headline(last["number"], [names[r["seat"]] for r in last["rows"] if r["won"]]) if last else ""
    return {
        "headline": headline,
        "why": last["title"] if last else "",
        "round": last["number"] if last else None,
        "standings": standings,
        "finished": finished,
        "rated": not match.practice,
        # None: not worked out yet (it is, right after the match is committed); the match page says it then.
        "ratings_known": changes is not None,
    }


def _rating_changes(match: Match) -> dict[int, float] | None:
    """Each rated seat's change of its rating (the ordinal, as the leaderboard shows it), by seat; None
    while the match is not rated yet."""
    rated = RatedMatch.objects.filter(match_id=match.pk).values_list("changes", flat=True).first()
    if rated is None:
        return None
    out = {}
    for change in rated:
        seat = change.get("seat")
        if isinstance(seat, int):
            out[seat] = round(change["after"][2] - change["before"][2], 1)
    return out
