"""A match's page: its seats, the finished rounds with their scores and reasons (and their deals'
commitments and seeds, revealed once a round is over), the end-of-match bonuses (the engines'
breakdowns, formatted) and the cumulative chart.  Live matches show only their finished rounds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from games.analysis.selectors import match_analysis
from games.board import words
from games.engine import shuffle
from games.engine.gin import GinMatch
from games.engine.manipulation import manipulation_end_bonuses
from games.history import display, ratings
from games.history.charts import COLOURS, SHAPES, cumulative_chart, marker_svg
from games.history.models import RatedMatch
from games.models import Match, MatchStatus, Round, RoundScore, Seat
from games.variants import spec_for


@dataclass
class SeatRow:
    index: int
    name: str
    username: str
    is_bot: bool
    role: str
    final_total: int | None
    is_winner: bool
    shape: str
    colour: str
    rating_change: int | None = None  # in shown points (games.history.ratings.shown)
    user_id: int | None = None  # a player's (the page's "Report" link)

    @property
    def marker(self):
        return marker_svg(self.index)


def seat_rows(match: Match) -> list[SeatRow]:
    seats = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    return [
        SeatRow(
            index=s.index,
            name=s.display_name or _("Seat %(n)d") % {"n": s.index + 1},
            username=s.user.username if s.user_id else "",
            user_id=s.user_id,
            is_bot=s.is_bot,
            role=s.role,
            final_total=s.final_total if match.status == MatchStatus.FINISHED else None,
            is_winner=s.is_winner and match.status == MatchStatus.FINISHED,
            shape=SHAPES[s.index % len(SHAPES)],
            colour=COLOURS[s.index % len(COLOURS)],
        )
        for s in seats
    ]


def _finished_rounds(match: Match) -> list[Round]:
    return list(
        Round.objects.filter(match=match, finished_at__isnull=False)
        .defer("setup")
        .prefetch_related(Prefetch("scores", queryset=RoundScore.objects.order_by("seat")))
        .order_by("number")
    )


def seat_name(seats: list[SeatRow], index: Any) -> str:
    if isinstance(index, int) and 0 <= index < len(seats):
        return words.sentence_name(seats[index].name, seats[index].is_bot)
    return ""


def round_table(seats: list[SeatRow], rounds: list[Round], match: Match) -> list[dict[str, Any]]:
    """Each finished round: who knocked / went out / won, hand points, scores with reasons, running totals."""
    running = [0] * len(seats)
    out = []
    for rnd in rounds:
        by_seat = {sc.seat: sc for sc in rnd.scores.all()}
        winners = [w for w in (rnd.winners or []) if isinstance(w, int)]
        cells = []
        for seat in seats:
            sc = by_seat.get(seat.index)
            score = sc.score if sc else 0
            running[seat.index] += score
            cells.append(
                {
                    "hand_points": sc.hand_points if sc else None,
                    "score": score,
                    "reasons": [words.reason_text(r) for r in (sc.reasons if sc else [])],
                    "total": running[seat.index],
                    "won": seat.index in winners,
                    "knocked": rnd.knocker == seat.index,
                }
            )
        out.append(
            {
                "number": rnd.number,
                "dealer": seat_name(seats, rnd.dealer),
                "kind": rnd.result_kind,
                "kind_text": words.result_text(rnd.result_kind),
                "knocker": seat_name(seats, rnd.knocker),
                "ended_as": ended_as(rnd.result_kind),
                "winners": [seat_name(seats, w) for w in winners],
                "cells": cells,
                "extra": _extra_outcome(rnd.outcome),
                # The deal (docs/fairness.md): these rounds are over, so their seeds are revealed (a
                # duplicate round's once every table has played it: Round.seed_shown).
                "shuffle": rnd.shuffle,
                "commitment": rnd.commitment,
                "seed": rnd.seed if rnd.seed_shown(match) else "",
                "legacy": rnd.shuffle == shuffle.LEGACY,
            }
        )
    return out


def ended_as(result_kind: str) -> str:
    """How the player who ended a round ended it: ``"went_out"`` (Manipulation: the last card of the hand
    laid), ``"gin"`` (Gin: every card in melds, big gin too) or ``"knock"`` (a knock, whoever won it)."""
    if result_kind == "went_out":
        return "went_out"
    if result_kind in ("gin", "big_gin"):
        return "gin"
    return "knock"


def _extra_outcome(outcome: Any) -> list[tuple[str, str]]:
    """What a Gin hand's outcome adds to the round row: both deadwoods, lay-offs, a multiplier, big gin."""
    if not isinstance(outcome, dict):
        return []
    extra = []
    if outcome.get("knocker_deadwood") is not None:
        extra.append((_("knocker's deadwood"), str(outcome["knocker_deadwood"])))
    if outcome.get("defender_deadwood") is not None:
        extra.append((_("defender's deadwood"), str(outcome["defender_deadwood"])))
    if isinstance(outcome.get("layoffs"), list) and outcome["layoffs"]:
        extra.append((_("cards laid off"), str(len(outcome["layoffs"]))))
    if isinstance(outcome.get("multiplier"), int) and outcome["multiplier"] > 1:
        extra.append((_("multiplier"), f"×{outcome['multiplier']}"))
    if outcome.get("big_gin") is True:
        extra.append((_("big gin"), _("yes")))
    return extra


def _round_sums(n: int, rounds: list[Round]) -> tuple[list[int], list[int]]:
    """Per seat: the sum of its round scores and the number of rounds it won."""
    scores = [0] * n
    won = [0] * n
    for rnd in rounds:
        for sc in rnd.scores.all():
            if 0 <= sc.seat < n:
                scores[sc.seat] += sc.score
        for w in rnd.winners or []:
            if isinstance(w, int) and 0 <= w < n:
                won[w] += 1
    return scores, won


def _bonus_row(seat: SeatRow, score: int, parts: list[str], total: int) -> dict[str, Any]:
    return {"name": seat.name, "score": score, "parts": parts, "total": total, "winner": seat.is_winner}


def _manipulation_bonuses(
    match: Match, seats: list[SeatRow], scores: list[int], won: list[int]
) -> list[dict[str, Any]]:
    """Manipulation (RULES B.8): the game bonus for reaching the target, the bonus per round won."""
    rules = spec_for(match.variant).rules(match.options, match.seats_count)
    bonuses = manipulation_end_bonuses(scores, won, rules)
    out = []
    for seat in seats:
        i, b = seat.index, bonuses[seat.index]
        parts = []
        if b.game:
            parts.append(words.bonus_text("game_reached", b.game, target=rules.game_target))
        if b.rounds:
            parts.append(words.bonus_text("rounds_won", b.rounds, count=b.rounds_won, each=rules.round_won_bonus))
        out.append(_bonus_row(seat, scores[i], parts, scores[i] + b.game + b.rounds))
    return out


def _gin_bonuses(match: Match, seats: list[SeatRow], scores: list[int], won: list[int]) -> list[dict[str, Any]]:
    """Gin (C.10.2, D.1.8, D.3.3): the engine's breakdown of the match's end bonuses (box bonuses, the game
    bonus with a shutout's; Hollywood: its three games'), or the stored totals for a tally of another shape."""
    tally = (match.state or {}).get("tally")
    try:
        t = GinMatch.from_dict(tally)
        breakdown = t.end_breakdown()
    except Exception:  # not a GinMatch's tally (or none): the stored totals against the round scores
        return _stored_bonuses(seats, scores)
    totals = breakdown.totals
    out = []
    for seat in seats:
        i = seat.index
        parts = []
        if t.rules.hollywood_scoring:
            if totals[i] != t.scores[i]:
                parts.append(words.bonus_text("three_games", totals[i] - t.scores[i]))
        else:
            box, game = breakdown.bonus(i, "box"), breakdown.bonus(i, "game", "shutout")
            if box:
                parts.append(words.bonus_text("box", box, count=t.boxes[i], each=t.rules.box_bonus))
            if game:
                parts.append(words.bonus_text("game", game))
        out.append(_bonus_row(seat, t.scores[i], parts, totals[i]))
    return out


def _stored_bonuses(seats: list[SeatRow], scores: list[int]) -> list[dict[str, Any]]:
    """The stored final totals with bonuses, against the sum of the round scores."""
    out = []
    for seat in seats:
        total = seat.final_total if seat.final_total is not None else scores[seat.index]
        bonus = total - scores[seat.index]
        parts = [words.bonus_text("bonuses", bonus)] if bonus else []
        out.append(_bonus_row(seat, scores[seat.index], parts, total))
    return out


# The end-of-match breakdown of each game family (GameSpec.family).
END_BONUSES = {"manipulation": _manipulation_bonuses, "gin": _gin_bonuses}


def end_bonuses(match: Match, seats: list[SeatRow], rounds: list[Round]) -> list[dict[str, Any]]:
    """The end-of-match bonuses per seat, from the engines' scoring (RULES B.8, C.10.2, D.1.8), in words."""
    if match.status != MatchStatus.FINISHED:
        return []
    scores, won = _round_sums(len(seats), rounds)
    return END_BONUSES[spec_for(match.variant).family](match, seats, scores, won)


def chart_for(seats: list[SeatRow], table: list[dict[str, Any]]):
    cumulative = [[row["cells"][s.index]["total"] for row in table] for s in seats]
    return cumulative_chart(
        [s.name for s in seats],
        cumulative,
        title=_("Cumulative score after each round"),
        desc=_("One line per player; each player has a marker of its own shape, and the name at the end of the line."),
        x_label=_("Round"),
        y_label=_("Score"),
    )


def match_detail(*, match: Match) -> dict[str, Any]:
    seats = seat_rows(match)
    rounds = _finished_rounds(match)
    table = round_table(seats, rounds, match)
    rated = RatedMatch.objects.filter(match=match).first()
    if rated is not None:
        for change in rated.changes:
            i = change.get("seat")
            if isinstance(i, int) and 0 <= i < len(seats) and not seats[i].is_bot:
                seats[i].rating_change = ratings.shown(change["after"][2]) - ratings.shown(change["before"][2])
    return {
        "match": match,
        "finished": match.status == MatchStatus.FINISHED,
        "seats": seats,
        "options": words.options_text(match.variant, match.options or {}),
        "rounds": table,
        "bonuses": end_bonuses(match, seats, rounds),
        "chart": chart_for(seats, table) if table else None,
        "analysis": match_analysis(match=match, seats=seats),
        "duration": display.duration_text(
            (match.finished_at - match.started_at).total_seconds() if match.finished_at and match.started_at else None
        ),
    }
