"""The only code that changes tournament state (STYLE.md "Django layer").

Keyword-only ``<entity>_<verb>`` services, each one transaction.  Every staff
action writes a ``TournamentAudit`` row; every change sends
``{"type": "tournament.changed", "id": ...}`` to the tournament's group after
commit.  Tournament tables are ordinary matches: they are created here with
their seats filled and started through ``games.services.match_start``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services
from games.board import lists
from games.engine.errors import InvalidAction
from games.history.models import PlayerRating  # read-only: the history feature owns ratings
from games.models import DealSet, Match, MatchStatus, Seat
from games.tournaments import pairing, selectors
from games.tournaments.models import (
    Entry,
    RoundStatus,
    Tournament,
    TournamentAudit,
    TournamentFormat,
    TournamentRound,
    TournamentSeat,
    TournamentStatus,
    TournamentTable,
)
from games.tournaments.standings import check_points_scheme, placements, points_for
from games.variants import spec_for
from plumbing import realtime

ActionRefused = game_services.ActionRefused
FORFEIT_BOT_POLICY = "basic"


# --------------------------------------------------------------------- helpers


def _changed(tournament_id: int) -> None:
    realtime.broadcast_on_commit(
        realtime.tournament_group(tournament_id), {"type": "tournament.changed", "id": tournament_id}
    )


def _audit(tournament: Tournament, by, action: str, reason: str = "", **detail: Any) -> TournamentAudit:
    user = by if getattr(by, "is_authenticated", False) else None
    return TournamentAudit.objects.create(tournament=tournament, user=user, action=action, detail=detail, reason=reason)


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValueError, TypeError):
        raise ActionRefused("no_tournament", _("There is no such tournament.")) from None


def _seat_choices(variant: str) -> tuple[int, ...]:
    try:
        return tuple(spec_for(variant).seat_choices)
    except InvalidAction:
        return ()


def stored_options(variant: str, options: dict[str, Any], seats: int) -> dict[str, Any]:
    """The options a match of ``seats`` stores, as ``match_create`` does; raises ActionRefused."""
    try:
        spec = spec_for(variant)
        rules = spec.rules(dict(options or {}), seats)
    except InvalidAction as exc:
        raise ActionRefused("bad_option", exc.message) from None
    defaults = spec.option_defaults(seats)
    return {k: v for k, v in rules.to_dict().items() if k in defaults}


def tournament_check(
    *,
    variant: str,
    options: Any,
    table_size: int,
    format: str,
    placement_points: Any,
    duplicate: bool = False,
    duplicate_average: bool = False,
) -> None:
    """Validate a tournament's settings with the engine; raises ActionRefused with the message to show."""
    if duplicate_average and not duplicate:
        raise ActionRefused(
            "bad_duplicate",
            _(
                "The difference from the field average is a duplicate scoring "
                "option: tick “duplicate” too, or untick it."
            ),
        )
    if not isinstance(options, dict):
        raise ActionRefused("bad_option", _("Rule options must be a JSON object."))
    try:
        spec = spec_for(variant)
    except InvalidAction as exc:
        raise ActionRefused("bad_variant", exc.message) from None
    if table_size not in spec.seat_choices:
        raise ActionRefused(
            "bad_seats", _("This game is for %(choices)s players.") % {"choices": lists.items(spec.seat_choices)}
        )
    if format == TournamentFormat.ELIMINATION and table_size != 2:
        raise ActionRefused("bad_format", _("Single elimination is for two-player tables."))
    stored_options(variant, options, table_size)
    problem = check_points_scheme(placement_points)
    if problem:
        raise ActionRefused(
            "bad_points",
            {
                "not_mapping": _('Placement points must map a table size to its points, e.g. {"4": [4, 2, 1, 0]}.'),
                "bad_size": _("Placement points are for tables of 1 to 6 seats."),
                "wrong_length": _("A table of N seats needs N placement points."),
                "not_whole": _("Placement points must be whole numbers of at least 0."),
                "not_descending": _("A better placement cannot score fewer points."),
            }[problem],
        )


# ----------------------------------------------------------------- tournament


def tournament_save(*, tournament: Tournament, by, created: bool, changed: list[str] | None = None) -> Tournament:
    """Store a tournament edited in the admin (already validated by :func:`tournament_check`)."""
    with transaction.atomic():
        if created:
            tournament.created_by = by if getattr(by, "is_authenticated", False) else None
        tournament.save()
        _audit(tournament, by, "created" if created else "edited", fields=list(changed or []))
        _changed(tournament.pk)
    return tournament


def tournament_set_registration(*, tournament_id: int, by, is_open: bool) -> Tournament:
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if is_open and tournament.status == TournamentStatus.FINISHED:
            raise ActionRefused("finished", _("The tournament is over."))
        tournament.registration_open = is_open
        tournament.save(update_fields=["registration_open"])
        _audit(tournament, by, "registration_opened" if is_open else "registration_closed")
        _changed(tournament.pk)
        return tournament


def _rating(user, variant: str) -> float | None:

    return PlayerRating.objects.filter(user=user, variant=variant).values_list("ordinal", flat=True).first()


def _add_entry(tournament: Tournament, user) -> tuple[Entry, bool]:
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is not None:
        if entry.withdrawn:
            entry.withdrawn = False
            entry.save(update_fields=["withdrawn"])
            return entry, True
        return entry, False
    rating = _rating(user, tournament.variant)
    seed = round(rating * 10) if rating is not None else 0
    return Entry.objects.create(tournament=tournament, user=user, rating=rating, seed=seed), True


def entry_register(*, tournament_id: int, user) -> Entry:
    """A player registers on the site while registration is open."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if not tournament.registration_open or tournament.status == TournamentStatus.FINISHED:
            raise ActionRefused("registration_closed", _("Registration for this tournament is closed."))
        entry, added = _add_entry(tournament, user)
        if not added:
            raise ActionRefused("already_registered", _("You are already registered."))
        _audit(tournament, user, "registered", user=user.username)
        _changed(tournament.pk)
        return entry


def entry_withdraw(*, tournament_id: int, user, by=None, reason: str = "") -> Entry:
    """A player leaves (or staff withdraw them): they are not seated in later rounds."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn=False).first()
        if entry is None:
            raise ActionRefused("not_registered", _("You are not registered."))
        if tournament.status == TournamentStatus.FINISHED:
            raise ActionRefused("finished", _("The tournament is over."))
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
        _audit(tournament, by or user, "withdrawn", reason, user=user.username)
        _changed(tournament.pk)
        return entry


def known_usernames(names: list[str]) -> dict[str, str]:
    """Which of ``names`` are players: {the name casefolded: the username as stored} (case does not matter)."""
    wanted = {n.strip().casefold() for n in names if n.strip()}
    if not wanted:
        return {}
    query = Q()
    for name in wanted:
        query |= Q(username__iexact=name)
    found = get_user_model().objects.filter(query).values_list("username", flat=True)
    return {u.casefold(): u for u in found if u.casefold() in wanted}


def entries_import(*, tournament_id: int, by, usernames: list[str]) -> tuple[list[str], list[str]]:
    """Staff add entrants by username: (added, unknown)."""
    names = list(dict.fromkeys(n.strip() for n in usernames if n.strip()))
    users = {n: get_user_model().objects.filter(username__iexact=n).first() for n in names}
    added, unknown = [], []
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status == TournamentStatus.FINISHED:
            raise ActionRefused("finished", _("The tournament is over."))
        for name in names:
            user = users[name]
            if user is None:
                unknown.append(name)
                continue
            _entry, new = _add_entry(tournament, user)
            if new:
                added.append(user.username)
        _audit(tournament, by, "entrants_imported", added=added, unknown=unknown)
        _changed(tournament.pk)
    return added, unknown


def entries_edited(*, tournament_id: int, by, users: list[str]) -> None:
    """Audit entrants edited in the admin's inline (seed, withdrawn, added, removed)."""
    with transaction.atomic():
        _audit(_locked(tournament_id), by, "entries_edited", users=users)
        _changed(tournament_id)


def audit_export(*, tournaments: list[Tournament], by) -> None:
    for tournament in tournaments:
        _audit(tournament, by, "standings_exported")


# ----------------------------------------------------------------- seating


def round_seat(*, tournament_id: int, by) -> TournamentRound:
    """Seat the next round as a preview (a draft round with the reason for every table)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status == TournamentStatus.FINISHED:
            raise ActionRefused("finished", _("The tournament is over."))
        if tournament.rounds.filter(status=RoundStatus.PLAYING).exists():
            raise ActionRefused("round_open", _("Close the current round first."))
        TournamentRound.objects.filter(tournament=tournament, status=RoundStatus.DRAFT).delete()
        number = tournament.rounds.filter(status=RoundStatus.CLOSED).count() + 1
        if number > _planned_rounds(tournament):
            raise ActionRefused("no_more_rounds", _("Every round has been played; close the tournament."))
        tables = _pairing_for(tournament, number)
        if not [t for t in tables if not t.is_bye]:
            raise ActionRefused("too_few", _("At least two active entrants are needed to seat a round."))
        rnd = TournamentRound.objects.create(tournament=tournament, number=number, status=RoundStatus.DRAFT)
        # A bracket's table numbers are its positions (the winners of tables 1 and 2 meet next): its
        # byes keep their place.  Other formats list the byes last.
        if tournament.format != TournamentFormat.ELIMINATION:
            tables = sorted(tables, key=lambda t: t.is_bye)
        _store_tables(rnd, tables)
        _audit(tournament, by, "round_seated", round=number, tables=len(tables))
        return rnd


def _store_tables(rnd: TournamentRound, tables: list[pairing.Table]) -> None:
    """The round's tables with their reasons, then every seat: two bulk inserts, whatever the field size."""
    rows = TournamentTable.objects.bulk_create(
        [
            TournamentTable(round=rnd, number=k, is_bye=table.is_bye, reasons=list(table.reasons))
            for k, table in enumerate(tables, start=1)
        ],
        batch_size=500,
    )
    TournamentSeat.objects.bulk_create(
        [
            TournamentSeat(table=row, entry_id=pid, index=i)
            for row, table in zip(rows, tables, strict=True)
            for i, pid in enumerate(table.players)
        ],
        batch_size=1000,
    )


def _planned_rounds(tournament: Tournament) -> int:
    if tournament.format == TournamentFormat.ELIMINATION and tournament.rounds.exists():
        first = tournament.rounds.order_by("number").first()
        return pairing.elimination_rounds(TournamentSeat.objects.filter(table__round=first).count())
    if tournament.format == TournamentFormat.ELIMINATION:
        return pairing.elimination_rounds(tournament.entries.filter(withdrawn=False).count())
    return tournament.rounds_count


def _pairing_for(tournament: Tournament, number: int) -> list[pairing.Table]:
    standings = selectors.tournament_standings(tournament)
    active = [s for s in standings if not s.withdrawn]
    # A duplicate tournament's standing is its matchpoints (whole ones are close enough for the seating).
    players = [
        pairing.Player(
            id=s.entry, points=s.points if s.matchpoints is None else int(s.matchpoints), game_points=s.game_points
        )
        for s in active
    ]
    previous = selectors.previous_tables(tournament)
    met = pairing.meetings_of([t["entries"] for t in previous if not t["is_bye"]])
    choices = _seat_choices(tournament.variant)
    if tournament.format == TournamentFormat.SWISS:
        had_bye = {e for t in previous if t["is_bye"] for e in t["entries"]}
        seat = pairing.seat_duplicate if tournament.duplicate else pairing.seat_swiss
        return seat(players, size=tournament.table_size, seat_choices=choices, met=met, had_bye=had_bye)
    tables = _scheduled(tournament, number, players, standings, met, choices)
    return pairing.in_standing_order(tables, players) if tournament.duplicate else tables


def _scheduled(
    tournament: Tournament, number: int, players: list[pairing.Player], standings, met, choices
) -> list[pairing.Table]:
    """A round robin's or a bracket's next round."""
    if tournament.format == TournamentFormat.ROUND_ROBIN:
        roster = selectors.round_robin_roster(tournament)
        return pairing.seat_round_robin(
            players, round_index=number - 1, size=tournament.table_size, seat_choices=choices, met=met, roster=roster
        )
    if number == 1:
        return pairing.seat_elimination_first([e.pk for e in selectors.seed_order(tournament)])
    withdrawn = {s.entry for s in standings if s.withdrawn}
    winners = [w if w not in withdrawn else None for w in selectors.round_winners(tournament, number - 1)]
    return pairing.seat_elimination_next(winners)


def round_discard(*, round_id: int, by) -> None:
    with transaction.atomic():
        rnd = TournamentRound.objects.select_related("tournament").filter(pk=round_id).first()
        if rnd is None or rnd.status != RoundStatus.DRAFT:
            raise ActionRefused("not_draft", _("Only a seating preview can be discarded."))
        tournament = _locked(rnd.tournament_id)
        number = rnd.number
        rnd.delete()
        _audit(tournament, by, "round_discarded", round=number)


def round_publish(*, round_id: int, by) -> TournamentRound:
    """Create and start the matches of a previewed round; byes score at once."""
    with transaction.atomic():
        rnd = TournamentRound.objects.filter(pk=round_id).first()
        if rnd is None:
            raise ActionRefused("no_round", _("There is no such round."))
        tournament = _locked(rnd.tournament_id)
        rnd = TournamentRound.objects.select_for_update().get(pk=round_id)
        if rnd.status != RoundStatus.DRAFT:
            raise ActionRefused("not_draft", _("This round has already been published."))
        if tournament.duplicate:
            rnd.deal_set = DealSet.objects.create()  # one seed per deal number, for every table of the round
        for table in rnd.tables.prefetch_related("seats__entry__user"):
            seats = list(table.seats.all())
            if table.is_bye:
                top = points_for(tournament.table_size, tournament.placement_points)[0]
                TournamentSeat.objects.filter(table=table).update(placement=1, points=top, game_points=0)
                continue
            table.match = _create_match(tournament, [s.entry.user for s in seats], rnd.deal_set)
            table.save(update_fields=["match"])
        rnd.status = RoundStatus.PLAYING
        rnd.published_at = timezone.now()
        rnd.save(update_fields=["status", "published_at", "deal_set"])
        if tournament.status == TournamentStatus.UPCOMING:
            tournament.status = TournamentStatus.RUNNING
            tournament.registration_open = False
            if tournament.format == TournamentFormat.ELIMINATION:
                tournament.rounds_count = _planned_rounds(tournament)
            tournament.save(update_fields=["status", "registration_open", "rounds_count"])
        _audit(tournament, by, "round_published", round=rnd.number)
        _changed(tournament.pk)
        return rnd


def _create_match(tournament: Tournament, users: list, deal_set: DealSet | None = None) -> Match:
    """A full table of ``users`` (seat order as given), started through the ordinary path (a duplicate
    round's tables deal from its shared ``deal_set``)."""
    return game_services.match_create_seated(
        variant=tournament.variant,
        options=stored_options(tournament.variant, tournament.options, len(users)),
        users=users,
        turn_timer=tournament.turn_timer,
        deal_set=deal_set,
    )


# ----------------------------------------------------------------- results


def tournament_record_result(*, match: Match) -> bool:
    """Record the placements of a finished tournament match (idempotent); True if something changed.

    Called when a match finishes (and by ``round_close`` / ``tournament_sync``);
    a match that is not a tournament table, not finished, or whose result staff
    overrode is left alone.
    """
    with transaction.atomic():
        table = TournamentTable.objects.select_for_update().filter(match_id=match.pk).first()
        if table is None:
            return False
        if match.status != MatchStatus.FINISHED:
            # A bare ``Match(pk=...)`` or a stale instance: read the stored status.  An instance the table
            # services just marked finished (inside their transaction) is trusted as it is.
            match = Match.objects.get(pk=match.pk)
        if match.status != MatchStatus.FINISHED:
            return False
        seats = list(table.seats.select_related("entry"))
        if any(s.overridden for s in seats):
            return False
        rnd = TournamentRound.objects.select_related("tournament").get(pk=table.round_id)
        changed = _apply_match_result(rnd.tournament, match, seats)
        if changed:
            _audit(rnd.tournament, None, "result_recorded", round=rnd.number, table=table.number, match=match.pk)
            _changed(rnd.tournament_id)
        return changed


def _apply_match_result(tournament: Tournament, match: Match, seats: list[TournamentSeat]) -> bool:
    game = {s.index: s for s in Seat.objects.filter(match=match)}
    totals = [game[s.index].final_total for s in seats]
    winners = [game[s.index].is_winner for s in seats]
    places = placements(totals, winners, [s.forfeit for s in seats])
    scheme = points_for(len(seats), tournament.placement_points)
    changed = False
    for seat, place, total in zip(seats, places, totals, strict=True):
        values = {"placement": place, "points": scheme[place - 1], "game_points": total or 0}
        if any(getattr(seat, k) != v for k, v in values.items()):
            TournamentSeat.objects.filter(pk=seat.pk).update(**values)
            changed = True
    return changed


def tournament_sync(*, tournament_id: int | None = None, by=None) -> int:
    """Record every finished match of the playing rounds; the number of tables that changed."""
    tables = TournamentTable.objects.filter(round__status=RoundStatus.PLAYING, match__status=MatchStatus.FINISHED)
    if tournament_id is not None:
        tables = tables.filter(round__tournament_id=tournament_id)
    changed = 0
    for match_id in tables.values_list("match_id", flat=True):
        changed += tournament_record_result(match=Match(pk=match_id))
    if by is not None and tournament_id is not None:
        with transaction.atomic():
            _audit(_locked(tournament_id), by, "results_synced", tables=changed)
    return changed


def seat_forfeit(*, seat_id: int, by, reason: str) -> TournamentSeat:
    """Staff record a forfeit: the player places last; a bot finishes their seat if the match is live."""
    if not (reason or "").strip():
        raise ActionRefused("reason_required", _("Give a reason for the audit log."))
    with transaction.atomic():
        seat = TournamentSeat.objects.select_related("table__round", "entry__user").filter(pk=seat_id).first()
        if seat is None or seat.table.round.status != RoundStatus.PLAYING or seat.table.is_bye:
            raise ActionRefused("not_playing", _("Only a seat of a table in play can forfeit."))
        tournament = _locked(seat.table.round.tournament_id)
        TournamentSeat.objects.filter(pk=seat.pk).update(forfeit=True)
        match = seat.table.match
        if match is not None and match.status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            _bot_takes_over(match.pk, seat.index, seat.entry.user.username)
        _audit(
            tournament,
            by,
            "forfeit",
            reason,
            round=seat.table.round.number,
            table=seat.table.number,
            user=seat.entry.user.username,
        )
        _changed(tournament.pk)
    if match is not None:
        tournament_record_result(match=match)
    seat.refresh_from_db()
    return seat


def _bot_takes_over(match_id: int, index: int, username: str) -> None:
    game_services.seat_to_bot(
        match_id=match_id, index=index, policy=FORFEIT_BOT_POLICY, name=_("%(name)s (forfeited)") % {"name": username}
    )


def table_override(*, table_id: int, by, places: list[int], reason: str) -> TournamentTable:
    """Staff set a table's placements (1 = first, one per seat in seat order), with a reason.

    The table is settled: a match still in play there ends (abandoned: no result of it counts, no
    clock takes it again), so nobody plays on for nothing and a closed round offers no live table.
    """
    if not (reason or "").strip():
        raise ActionRefused("reason_required", _("Give a reason for the audit log."))
    with transaction.atomic():
        table = TournamentTable.objects.select_related("round", "match").filter(pk=table_id).first()
        if table is None or table.round.status == RoundStatus.DRAFT:
            raise ActionRefused("not_playing", _("Only a published table can be overridden."))
        tournament = _locked(table.round.tournament_id)
        seats = list(table.seats.all())
        if len(places) != len(seats) or any(not 1 <= p <= len(seats) for p in places):
            raise ActionRefused("bad_places", _("Give one placement between 1 and %(n)d per seat.") % {"n": len(seats)})
        scheme = points_for(len(seats), tournament.placement_points)
        if table.is_bye:
            scheme = [points_for(tournament.table_size, tournament.placement_points)[0]]
        game = {}
        if table.match is not None:
            game = dict(Seat.objects.filter(match=table.match).values_list("index", "final_total"))
        before = [(s.placement, s.points) for s in seats]
        for seat, place in zip(seats, places, strict=True):
            TournamentSeat.objects.filter(pk=seat.pk).update(
                placement=place, points=scheme[place - 1], game_points=game.get(seat.index) or 0, overridden=True
            )
        ended = {}
        if table.match is not None and table.match.status not in (MatchStatus.FINISHED, MatchStatus.ABANDONED):
            game_services.match_abandon(match_id=table.match_id, by=by)
            ended = {"ended_match": table.match_id}
        _audit(
            tournament,
            by,
            "result_overridden",
            reason,
            round=table.round.number,
            table=table.number,
            before=before,
            places=list(places),
            **ended,
        )
        _changed(tournament.pk)
        return table


def _reveal_deals(deal_set_id: int) -> None:
    """Every table of a duplicate round has finished: its seeds (and its tables' deals) may be shown,
    and each table's open boards show them at once (a new version of the table, pushed after commit)."""
    DealSet.objects.filter(pk=deal_set_id).update(revealed_at=timezone.now())
    game_services.deals_reveal(deal_set_id=deal_set_id)


def round_close(*, round_id: int, by) -> TournamentRound:
    """Close a round whose tables are all done (finished matches are recorded first); the last closes the event."""
    rnd = TournamentRound.objects.filter(pk=round_id).first()
    if rnd is None:
        raise ActionRefused("no_round", _("There is no such round."))
    for match_id in rnd.tables.exclude(match=None).values_list("match_id", flat=True):
        tournament_record_result(match=Match(pk=match_id))
    with transaction.atomic():
        tournament = _locked(rnd.tournament_id)
        rnd = TournamentRound.objects.select_for_update().get(pk=round_id)
        if rnd.status != RoundStatus.PLAYING:
            raise ActionRefused("not_playing", _("This round is not in play."))
        pending = TournamentSeat.objects.filter(table__round=rnd, placement__isnull=True)
        if pending.exists():
            numbers = sorted(set(pending.values_list("table__number", flat=True)))
            raise ActionRefused(
                "tables_open", _("Tables still playing: %(tables)s.") % {"tables": lists.items(numbers)}
            )
        rnd.status = RoundStatus.CLOSED
        rnd.closed_at = timezone.now()
        rnd.save(update_fields=["status", "closed_at"])
        if rnd.deal_set_id is not None:
            _reveal_deals(rnd.deal_set_id)
        last = rnd.number >= _planned_rounds(tournament)
        if last:
            tournament.status = TournamentStatus.FINISHED
            tournament.finished_at = timezone.now()
            tournament.registration_open = False
            tournament.save(update_fields=["status", "finished_at", "registration_open"])
        _audit(tournament, by, "round_closed", round=rnd.number, final=last)
        _changed(tournament.pk)
        return rnd
