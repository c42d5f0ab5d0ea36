"""Tournament services: registration, seating, publishing, results, forfeits, overrides, closing.

The long test plays a whole 8-player Manipulation Swiss tournament of 3 rounds
with every seat driven by the greedy bot, and checks the final standings
against placements computed independently from the finished matches.
"""

from __future__ import annotations

import io
from collections import Counter
from itertools import combinations

import pytest
from django.core.management import call_command
from django.db import transaction

from games import services as game_services
from games.models import Match, MatchStatus, Seat
from games.services import rounds as game_rounds
from games.services import write as game_write
from games.tournaments import selectors, services
from games.tournaments.models import (
    Entry,
    RoundStatus,
    Tournament,
    TournamentAudit,
    TournamentSeat,
    TournamentStatus,
    TournamentTable,
)
from games.tournaments.standings import placements, points_for

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


@pytest.fixture
def staff(make_user):
    return make_user("staff", is_staff=True, is_superuser=True)


@pytest.fixture
def players(make_user):
    return [make_user(n) for n in NAMES]


@pytest.fixture
def fast(settings):
    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_FIXED_SEED = "11"
    return settings


def make_tournament(staff, **fields) -> Tournament:
    defaults = {
        "name": "Winter Swiss",
        "variant": "manipulation",
        "options": {"game_target": 30},
        "format": "swiss",
        "table_size": 4,
        "rounds_count": 3,
        "registration_open": True,
    }
    t = Tournament(**{**defaults, **fields})
    services.tournament_check(
        variant=t.variant,
        options=t.options,
        table_size=t.table_size,
        format=t.format,
        placement_points=t.placement_points,
    )
    return services.tournament_save(tournament=t, by=staff, created=True)


def play_out(match_id: int) -> None:
    """Every seat of the match played by the greedy bot until it finishes."""
    policy = "greedy" if Match.objects.get(pk=match_id).variant == "manipulation" else "basic"
    Seat.objects.filter(match_id=match_id).update(bot_policy=policy, bot_name="bot")
    Match.objects.filter(pk=match_id, status=MatchStatus.PLAYING).update(deadline=None)
    match = Match.objects.get(pk=match_id)

    # Re-arm the clock now that the acting seat is a bot.
    game_write.schedule_next_step(game_write.Write(match))
    match.save(update_fields=["deadline"])
    game_services.run_until_human(match_id=match_id)
    assert Match.objects.get(pk=match_id).status == MatchStatus.FINISHED


def test_check_refuses_bad_options_with_the_engine_message():
    with pytest.raises(services.ActionRefused) as exc:
        services.tournament_check(
            variant="manipulation",
            options={"hand_size": 99},
            table_size=4,
            format="swiss",
            placement_points={"4": [4, 2, 1, 0]},
        )
    assert exc.value.code == "bad_option" and "hand_size" in exc.value.message
    with pytest.raises(services.ActionRefused) as exc:
        services.tournament_check(
            variant="manipulation", options={}, table_size=4, format="elimination", placement_points={"4": [4, 2, 1, 0]}
        )
    assert exc.value.code == "bad_format"
    with pytest.raises(services.ActionRefused) as exc:
        services.tournament_check(
            variant="manipulation", options={}, table_size=4, format="swiss", placement_points={"4": [0, 2, 1, 0]}
        )
    assert exc.value.code == "bad_points"


def test_register_withdraw_and_import(staff, players, sent, django_capture_on_commit_callbacks):
    t = make_tournament(staff)
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_register(tournament_id=t.pk, user=players[0])
    assert (f"tournament-{t.pk}", {"type": "tournament.changed", "id": t.pk}) in sent
    with pytest.raises(services.ActionRefused) as exc:
        services.entry_register(tournament_id=t.pk, user=players[0])
    assert exc.value.code == "already_registered"
    added, unknown = services.entries_import(tournament_id=t.pk, by=staff, usernames=["BOB", "carol", "nobody"])
    assert added == ["bob", "carol"] and unknown == ["nobody"]
    services.entry_withdraw(tournament_id=t.pk, user=players[1])
    assert Entry.objects.get(user=players[1]).withdrawn
    services.tournament_set_registration(tournament_id=t.pk, by=staff, is_open=False)
    with pytest.raises(services.ActionRefused) as exc:
        services.entry_register(tournament_id=t.pk, user=players[3])
    assert exc.value.code == "registration_closed"
    actions = list(TournamentAudit.objects.filter(tournament=t).values_list("action", flat=True))
    assert set(actions) >= {"created", "registered", "entrants_imported", "withdrawn", "registration_closed"}


def test_whole_swiss_tournament_played_by_bots(staff, players, fast, sent, django_capture_on_commit_callbacks):
    t = make_tournament(staff)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES)
    for rnd_number in (1, 2, 3):
        rnd = services.round_seat(tournament_id=t.pk, by=staff)
        assert rnd.number == rnd_number and rnd.status == RoundStatus.DRAFT
        seats = TournamentSeat.objects.filter(table__round=rnd)
        assert sorted(Counter(s.entry_id for s in seats).values()) == [1] * 8  # everyone seated once
        assert sorted(len(tb.seats.all()) for tb in rnd.tables.all()) == [4, 4]
        assert all(tb.reasons for tb in rnd.tables.all())
        with django_capture_on_commit_callbacks(execute=True):
            services.round_publish(round_id=rnd.pk, by=staff)
        t.refresh_from_db()
        assert t.status == TournamentStatus.RUNNING and not t.registration_open
        tables = list(TournamentTable.objects.filter(round=rnd).select_related("match"))
        for table in tables:
            assert table.match.status == MatchStatus.PLAYING
            users = list(
                Seat.objects.filter(match=table.match).order_by("index").values_list("user__username", flat=True)
            )
            assert users == [s.entry.user.username for s in table.seats.order_by("index")]
        # The players see their tables in the notice.
        mine = selectors.user_tournament_tables(players[0])
        assert len(mine) == 1 and mine[0]["round"] == rnd_number
        with pytest.raises(services.ActionRefused):
            services.round_close(round_id=rnd.pk, by=staff)  # tables still playing
        for table in tables:
            play_out(table.match_id)
        # The first table through the hook the table services will call; the rest pulled by "Close round".
        assert services.tournament_record_result(match=tables[0].match) is True
        assert services.tournament_record_result(match=tables[0].match) is False  # idempotent
        services.round_close(round_id=rnd.pk, by=staff)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED

    # Independent check: placement points from the finished matches themselves.
    expected: Counter = Counter()
    game: Counter = Counter()
    for table in TournamentTable.objects.filter(round__tournament=t).select_related("match"):
        seats = list(Seat.objects.filter(match=table.match).order_by("index").select_related("user"))
        places = placements([s.final_total for s in seats], [s.is_winner for s in seats])
        scheme = points_for(len(seats), t.placement_points)
        for s, p in zip(seats, places, strict=True):
            expected[s.user.username] += scheme[p - 1]
            game[s.user.username] += s.final_total
    standings = selectors.tournament_standings(t)
    assert {s.name: s.points for s in standings} == {n: expected[n] for n in NAMES}
    assert {s.name: s.game_points for s in standings} == {n: game[n] for n in NAMES}
    keys = [(-s.points, -s.game_points, -s.opponents_average) for s in standings]
    assert keys == sorted(keys)
    # Each round's previous meetings at the same table are the fewest possible (brute force over 4+4 splits).
    met: Counter = Counter()
    for rnd in t.rounds.order_by("number"):
        groups = [sorted(tb.seats.values_list("entry__user__username", flat=True)) for tb in rnd.tables.all()]
        got = sum(met[pr] for g in groups for pr in combinations(g, 2))
        best = min(
            sum(met[pr] for g in (sorted(four), sorted(set(NAMES) - set(four))) for pr in combinations(g, 2))
            for four in combinations(NAMES, 4)
        )
        assert got == best
        for g in groups:
            met.update(combinations(g, 2))
    assert [r[0] for r in selectors.standings_csv_rows(t)[1:]] == [s.rank for s in standings]
    assert not selectors.user_tournament_tables(players[0])
    frames = [m for g, m in sent if g == f"tournament-{t.pk}"]
    assert frames and all(m == {"type": "tournament.changed", "id": t.pk} for m in frames)


def test_forfeit_places_the_player_last_and_a_bot_finishes(staff, players, fast):
    t = make_tournament(staff, rounds_count=1)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
    table = rnd.tables.get()
    seat = table.seats.get(entry__user=players[2])
    with pytest.raises(services.ActionRefused) as exc:
        services.seat_forfeit(seat_id=seat.pk, by=staff, reason="")
    assert exc.value.code == "reason_required"
    services.seat_forfeit(seat_id=seat.pk, by=staff, reason="left the venue")
    game_seat = Seat.objects.get(match=table.match, index=seat.index)
    assert game_seat.bot_policy == services.FORFEIT_BOT_POLICY
    play_out(table.match_id)
    services.round_close(round_id=rnd.pk, by=staff)
    seat.refresh_from_db()
    assert seat.forfeit and seat.placement == 4 and seat.points == 0
    audit = TournamentAudit.objects.get(tournament=t, action="forfeit")
    assert audit.reason == "left the venue" and audit.user == staff
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_override_with_reason_and_close_without_finished_match(staff, players, fast):
    t = make_tournament(staff, rounds_count=2, table_size=2)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:5])
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
    # 5 players at two-seat Manipulation tables: a table of three, one of two.
    sizes = sorted(tb.seats.count() for tb in rnd.tables.all())
    assert sizes == [2, 3]
    finished, live = rnd.tables.order_by("number")
    play_out(finished.match_id)  # its result is recorded; staff correct it afterwards
    for table in (finished, live):
        with pytest.raises(services.ActionRefused):
            services.table_override(table_id=table.pk, by=staff, places=[1] * table.seats.count(), reason=" ")
        places = list(range(table.seats.count(), 0, -1))
        services.table_override(table_id=table.pk, by=staff, places=places, reason="server outage")
        assert [s.placement for s in table.seats.order_by("index")] == places
    # The finished match's own result does not replace the override; the live one is ended, not played on.
    assert services.tournament_record_result(match=finished.match) is False
    assert [s.placement for s in finished.seats.order_by("index")] == list(range(finished.seats.count(), 0, -1))
    assert Match.objects.get(pk=live.match_id).status == MatchStatus.ABANDONED
    assert Match.objects.get(pk=finished.match_id).status == MatchStatus.FINISHED
    services.round_close(round_id=rnd.pk, by=staff)
    audit = TournamentAudit.objects.filter(tournament=t, action="result_overridden").order_by("pk")
    assert [a.detail.get("ended_match") for a in audit] == [None, live.match_id]
    rnd2 = services.round_seat(tournament_id=t.pk, by=staff)
    assert rnd2.number == 2
    services.round_discard(round_id=rnd2.pk, by=staff)
    assert not t.rounds.filter(number=2).exists()


def test_elimination_with_byes(staff, players, fast):
    t = make_tournament(staff, format="elimination", table_size=2)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:5])
    Entry.objects.filter(tournament=t, user__username="alice").update(seed=100)
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
    t.refresh_from_db()
    assert t.rounds_count == 3
    byes = [tb for tb in rnd.tables.all() if tb.is_bye]
    assert len(byes) == 3 and any(tb.seats.get().entry.user.username == "alice" for tb in byes)
    assert all(tb.seats.get().points == 4 for tb in byes)
    for number in (1, 2, 3):
        for tb in rnd.tables.exclude(match=None):
            play_out(tb.match_id)
        services.round_close(round_id=rnd.pk, by=staff)
        if number < 3:
            rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
            assert rnd.tables.count() == (2 if number == 1 else 1)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    champion = selectors.tournament_standings(t)[0]
    final = rnd.tables.get()
    assert champion.entry == final.seats.get(placement=1).entry_id


def test_sync_records_finished_matches(staff, players, fast):
    t = make_tournament(staff, rounds_count=1)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
    play_out(rnd.tables.get().match_id)
    assert services.tournament_sync() == 1
    assert services.tournament_sync() == 0
    assert not TournamentSeat.objects.filter(table__round=rnd, placement__isnull=True).exists()


def test_sync_command(staff, players, fast):
    t = make_tournament(staff, rounds_count=1)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
    play_out(rnd.tables.get().match_id)
    out = io.StringIO()
    call_command("tournament_sync", tournament=t.pk, stdout=out)
    assert out.getvalue().strip() == "1 table result(s) recorded."


def test_round_robin_pairs_everyone_once_and_a_withdrawal_leaves_byes(staff, players, fast):
    t = make_tournament(staff, format="round_robin", table_size=2, rounds_count=3)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    pairs: Counter = Counter()
    for number in (1, 2, 3):
        if number == 3:
            services.entry_withdraw(tournament_id=t.pk, user=players[3], by=staff, reason="ill")
        rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
        for table in rnd.tables.all():
            names = sorted(table.seats.values_list("entry__user__username", flat=True))
            pairs[tuple(names)] += 1
            if not table.is_bye:
                services.table_override(table_id=table.pk, by=staff, places=[1, 2], reason="quick")
        services.round_close(round_id=rnd.pk, by=staff)
    games_played = {k: v for k, v in pairs.items() if len(k) == 2}
    assert set(games_played.values()) == {1}  # nobody met twice
    assert len(games_played) == 6 - 1  # dave's last game became a bye for his opponent
    assert sum(1 for k in pairs if len(k) == 1) == 1


@pytest.mark.parametrize(
    ("variant", "fmt", "size", "count"),
    [("gin", "elimination", 2, 4), ("gin_box", "swiss", 3, 6), ("oklahoma", "swiss", 2, 5)],
)
def test_gin_variants_play_a_round(staff, players, fast, variant, fmt, size, count):
    t = make_tournament(
        staff, variant=variant, format=fmt, table_size=size, rounds_count=1, options={"game_target": 10}
    )
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:count])
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
    for table in rnd.tables.exclude(match=None):
        assert table.match.variant == variant and table.match.seats_count == size
        Seat.objects.filter(match=table.match).update(bot_policy="basic", bot_name="b")
        play_out(table.match_id)
    services.round_close(round_id=rnd.pk, by=staff)
    seats = TournamentSeat.objects.filter(table__round=rnd)
    assert seats.count() == count and not seats.filter(placement__isnull=True).exists()
    for table in rnd.tables.exclude(match=None):
        firsts = [s for s in table.seats.all() if s.placement == 1]
        winners = set(Seat.objects.filter(match=table.match, is_winner=True).values_list("index", flat=True))
        assert {s.index for s in firsts} == winners


@pytest.mark.parametrize("style", ["inside", "on_commit"])
def test_finish_hook_as_the_table_services_will_call_it(
    staff, players, fast, monkeypatch, style, django_capture_on_commit_callbacks
):
    """The call proposed for games.services.rounds.close_round records the result with no sync or close."""
    original = game_rounds.close_round

    def close_round_with_hook(write, rules, state):
        original(write, rules, state)
        match = write.match
        if match.status == MatchStatus.FINISHED:
            if style == "inside":
                services.tournament_record_result(match=match)
            else:
                transaction.on_commit(lambda: services.tournament_record_result(match=Match(pk=match.pk)), robust=True)

    monkeypatch.setattr(game_rounds, "close_round", close_round_with_hook)
    t = make_tournament(staff, rounds_count=1)
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:4])
    rnd = services.round_publish(round_id=services.round_seat(tournament_id=t.pk, by=staff).pk, by=staff)
    with django_capture_on_commit_callbacks(execute=True):
        play_out(rnd.tables.get().match_id)
    assert not TournamentSeat.objects.filter(table__round=rnd, placement__isnull=True).exists()
    assert TournamentAudit.objects.filter(tournament=t, action="result_recorded").count() == 1
