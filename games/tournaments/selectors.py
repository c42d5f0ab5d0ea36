"""Reads for the tournament pages and the admin: plain data, queries done here."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from games.board import bidi, lists
from games.models import MatchStatus
from games.tournaments import deals
from games.tournaments.duplicate import LETTERS
from games.tournaments.models import (
    Entry,
    RoundStatus,
    Tournament,
    TournamentFormat,
    TournamentRound,
    TournamentSeat,
    TournamentStatus,
    TournamentTable,
)
from games.tournaments.standings import SeatResult, Standing, compute_standings

LIVE = (MatchStatus.OPEN, MatchStatus.PLAYING, MatchStatus.BETWEEN_ROUNDS)


def get_tournament(tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).select_related("created_by").first()


def seed_order(tournament: Tournament) -> list[Entry]:
    """Active entrants, strongest seed first (then by registration)."""
    return list(
        Entry.objects.filter(tournament=tournament, withdrawn=False)
        .select_related("user")
        .order_by("-seed", "registered_at", "pk")
    )


def round_robin_roster(tournament: Tournament) -> list[int]:
    """The circle-method roster: the entrants of round 1 in seed order (fixed, so withdrawals leave byes)."""
    first = TournamentRound.objects.filter(tournament=tournament, number=1).exclude(status=RoundStatus.DRAFT).first()
    if first is None:
        return [e.pk for e in seed_order(tournament)]
    entries = Entry.objects.filter(seats__table__round=first).distinct()
    return [e.pk for e in entries.order_by("-seed", "registered_at", "pk")]


def tournament_standings(tournament: Tournament) -> list[Standing]:
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    seats = (
        TournamentSeat.objects.filter(table__round__tournament=tournament, placement__isnull=False)
        .exclude(table__round__status=RoundStatus.DRAFT)
        .select_related("table")
    )
    results = [
        SeatResult(
            table=s.table_id,
            entry=s.entry_id,
            points=s.points or 0,
            game_points=s.game_points or 0,
            placement=s.placement,
            is_bye=s.table.is_bye,
        )
        for s in seats
    ]
    duplicate = deals.totals(tournament) if tournament.duplicate else None
    return compute_standings(
        [(e.pk, e.user.username, e.seed, e.withdrawn) for e in entries],
        results,
        duplicate,
        by_difference=tournament.duplicate_average,
    )


def previous_tables(tournament: Tournament) -> list[dict[str, Any]]:
    """Every published table so far: {"entries": [entry ids], "is_bye": bool}."""
    out: dict[int, dict[str, Any]] = {}
    seats = (
        TournamentSeat.objects.filter(table__round__tournament=tournament)
        .exclude(table__round__status=RoundStatus.DRAFT)
        .select_related("table")
        .order_by("table_id", "index")
    )
    for s in seats:
        out.setdefault(s.table_id, {"entries": [], "is_bye": s.table.is_bye})["entries"].append(s.entry_id)
    return list(out.values())


def round_winners(tournament: Tournament, number: int) -> list[int | None]:
    """Who advances from each table of round ``number`` (an elimination bracket), in table order.

    A duplicate tournament measures a table by its deals compared across the round (the standings'
    matchpoints, and the difference from the field average when it is scored): the player with the
    most of the round's matchpoints advances, whatever the luck of the match; equal matchpoints (a lone
    table, or a tie) go to the placement.  Otherwise the table's placement (the match's winner).  Then
    the better seed.  A forfeit never advances.
    """
    rnd = TournamentRound.objects.filter(tournament=tournament, number=number).first()
    if rnd is None:
        return []
    scored: dict[int, tuple] = {}
    if tournament.duplicate:
        done = next((c for c in deals.closed_rounds(tournament) if c.round.pk == rnd.pk), None)
        if done is not None:
            by_difference = tournament.duplicate_average
            scored = {e: (-t.matchpoints, -t.difference if by_difference else 0) for e, t in done.scores.totals.items()}
    winners: list[int | None] = []
    for table in rnd.tables.prefetch_related("seats__entry").order_by("number"):
        seats = [s for s in table.seats.all() if s.placement is not None and not s.forfeit]
        seats.sort(
            key=lambda s: (
                *scored.get(s.entry_id, (0, 0)),
                s.placement,
                -s.entry.seed,
                s.entry.registered_at,
                s.entry_id,
            )
        )
        winners.append(seats[0].entry_id if seats else None)
    return winners


def tournament_lists() -> dict[str, list[Tournament]]:
    rows = list(Tournament.objects.order_by("starts_at", "-created_at"))
    return {
        "running": [t for t in rows if t.status == TournamentStatus.RUNNING],
        "upcoming": [t for t in rows if t.status == TournamentStatus.UPCOMING],
        "finished": sorted(
            (t for t in rows if t.status == TournamentStatus.FINISHED),
            key=lambda t: t.finished_at or t.created_at,
            reverse=True,
        ),
    }


def tournament_rounds(tournament: Tournament, *, include_draft: bool = False) -> list[dict[str, Any]]:
    """Rounds with their tables, seats and match status (newest round first)."""
    rounds = (
        TournamentRound.objects.filter(tournament=tournament)
        .prefetch_related(
            Prefetch("tables", queryset=TournamentTable.objects.select_related("match").order_by("number")),
            Prefetch("tables__seats", queryset=TournamentSeat.objects.select_related("entry__user").order_by("index")),
        )
        .order_by("-number")
    )
    if not include_draft:
        rounds = rounds.exclude(status=RoundStatus.DRAFT)
    out = []
    for rnd in rounds:
        tables = []
        for table in rnd.tables.all():
            match = table.match
            tables.append(
                {
                    "table": table,
                    "seats": list(table.seats.all()),
                    "reasons": describe_reasons(table.reasons, table.seats.all()),
                    "match_id": match.pk if match else None,
                    "match_status": match.get_status_display() if match else "",
                    "live": bool(match and match.status in LIVE),
                    "held": bool(match and match.deals_held),  # a duplicate round still in play
                    "finished": bool(match and match.status == MatchStatus.FINISHED),
                    "done": all(s.placement is not None for s in table.seats.all()),
                    "user_ids": {s.entry.user_id for s in table.seats.all()},
                }
            )
        out.append({"round": rnd, "tables": tables, "done": all(t["done"] for t in tables)})
    return out


def describe_reasons(reasons: list[dict], seats=()) -> str:
    """The seating reasons as one translated sentence: "score group 6; avoids a rematch"."""
    names = {s.entry_id: s.entry.user.username for s in seats}
    parts = []
    for r in reasons or []:
        code = r.get("code")
        if code == "score_group":
            parts.append(_("score group %(points)s") % {"points": r.get("points")})
        elif code == "score_groups":
            parts.append(_("score groups %(high)s–%(low)s") % {"high": r.get("high"), "low": r.get("low")})
        elif code == "avoids_rematch":
            parts.append(_("avoids a rematch"))
        elif code == "rematch_unavoidable":
            pairs = lists.items("–".join(bidi.isolate(names.get(e, str(e))) for e in pr) for pr in r.get("pairs", []))
            parts.append(_("rematch unavoidable (%(pairs)s)") % {"pairs": pairs})
        elif code == "table_size":
            parts.append(_("table of %(seats)s so that the numbers divide") % {"seats": r.get("seats")})
        elif code == "bye":
            parts.append(
                _("bye: lowest standing without a bye") if not r.get("repeat") else _("bye (everyone had one)")
            )
        elif code == "round_robin":
            parts.append(_("round-robin schedule, round %(round)s") % {"round": r.get("round")})
        elif code == "fewest_meetings":
            parts.append(_("fewest earlier meetings (%(n)s)") % {"n": r.get("repeats")})
        elif code == "seeds":
            parts.append(_("seed %(a)s v seed %(b)s") % {"a": r.get("a"), "b": r.get("b")})
        elif code == "bracket_bye":
            parts.append(_("bye for seed %(seed)s") % {"seed": r.get("seed")})
        elif code == "duplicate_lanes":
            # Seats lettered as the duplicate pages letter them (games.tournaments.duplicate.LETTERS).
            lanes = lists.items(
                _("seat %(seat)s: ranks %(first)s–%(last)s") % {"seat": k, "first": a, "last": b}
                if a != b
                else _("seat %(seat)s: rank %(rank)s") % {"seat": k, "rank": a}
                for k, (a, b) in zip(LETTERS, r.get("lanes", []), strict=False)
            )
            parts.append(
                _("duplicate: each seat goes to players of similar standing at every table (%(lanes)s)")
                % {"lanes": lanes}
            )
        elif code == "duplicate_order":
            parts.append(_("duplicate: seats in standing order"))
        elif code in ("bracket", "bracket_walkover"):
            tables = r.get("tables", [])
            parts.append(_("advancing from tables %(tables)s") % {"tables": lists.items(tables)})
        else:
            parts.append(str(code))
    return lists.clauses(parts)


def user_tournament_tables(user) -> list[dict[str, Any]]:
    """The live tournament tables of ``user`` (for the "Your tournament tables" notice)."""
    if user is None or not user.is_authenticated:
        return []
    tables = (
        TournamentTable.objects.filter(
            seats__entry__user=user, round__status=RoundStatus.PLAYING, match__status__in=LIVE
        )
        .select_related("round__tournament", "match")
        .order_by("round__tournament_id", "number")
    )
    return [
        {"tournament": t.round.tournament, "round": t.round.number, "table": t.number, "match_id": t.match_id}
        for t in tables
    ]


def user_entry(tournament: Tournament, user) -> Entry | None:
    if user is None or not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def tournament_page(tournament: Tournament, user) -> dict[str, Any]:
    closed = deals.closed_rounds(tournament)
    return {
        "tournament": tournament,
        "entries": list(
            tournament.entries.filter(withdrawn=False).select_related("user").order_by("-seed", "registered_at", "pk")
        ),
        "rounds": tournament_rounds(tournament),
        "standings": tournament_standings(tournament),
        "my_entry": user_entry(tournament, user),
        "my_tables": [t for t in user_tournament_tables(user) if t["tournament"].pk == tournament.pk],
        "is_elimination": tournament.format == TournamentFormat.ELIMINATION,
        "my_deals": deals.my_lines(tournament, user, closed),
        "duplicate_rounds": [c.round for c in closed],
        "mixed_sizes": [c.round.number for c in closed if c.scores.mixed_sizes],
        "playing_in_duplicate": _plays_in_open_duplicate(tournament, user),
    }


def _plays_in_open_duplicate(tournament: Tournament, user) -> bool:
    """Whether ``user`` sits at a table of this duplicate tournament's round in play (the other tables
    of that round are not theirs to watch)."""
    if not tournament.duplicate or user is None or not user.is_authenticated:
        return False
    return TournamentSeat.objects.filter(
        table__round__tournament=tournament, table__round__status=RoundStatus.PLAYING, entry__user=user
    ).exists()


def standings_csv_rows(tournament: Tournament) -> list[list[Any]]:
    extra = ["matchpoints", "difference"] if tournament.duplicate else []
    rows: list[list[Any]] = [
        [
            "rank",
            "player",
            "points",
            "game_points",
            "opponents_average",
            "played",
            "wins",
            "byes",
            "seed",
            "withdrawn",
            *extra,
        ]
    ]
    for s in tournament_standings(tournament):
        duplicate = [_decimal(s.matchpoints), _decimal(s.difference)] if tournament.duplicate else []
        rows.append(
            [
                s.rank,
                s.name,
                s.points,
                s.game_points,
                s.opponents_average_display,
                s.played,
                s.wins,
                s.byes,
                s.seed,
                "yes" if s.withdrawn else "no",
                *duplicate,
            ]
        )
    return rows


def _decimal(value) -> str:
    return f"{float(value or 0):.2f}"


def audit_rows(tournament: Tournament, limit: int = 200):
    return list(tournament.audit.select_related("user")[:limit])
