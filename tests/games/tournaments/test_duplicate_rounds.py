"""Duplicate tournament rounds with the database (issue 18 §1–3): every table's deal N is the same cards
per seat position, dealt from the seed stored once for the round and deal number; those seeds stay
secret (no page, frame or record shows them, nor another table of the round to its players) until the
round is closed, when both verifiers accept every table's deals; a field of 11 at tables of 4; the
standings by matchpoints and the page's deal-by-deal comparison; the admin form's refusals."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.urls import reverse

from games.board.fragments import board_for
from games.engine import shuffle
from games.models import DealSeed, DealSet, Match, MatchStatus, Round
from games.selectors import board_data
from games.services import write as game_write
from games.tournaments import deals, selectors, services
from games.tournaments.admin import TournamentForm
from games.tournaments.consumers import TournamentConsumer
from games.tournaments.models import RoundStatus, Tournament, TournamentSeat, TournamentTable
from games.variants import spec_for
from games.verify import OK, UNREVEALED, verify_record
from tests.games.tournaments.test_organiser import admin_add_data
from tests.games.tournaments.test_services import make_tournament, play_out
from tests.seeds import seed_leaks

pytestmark = pytest.mark.django_db

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory"]
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def staff(make_user):
    return make_user("staff", is_staff=True, is_superuser=True)


@pytest.fixture
def fresh(settings):
    """Bots at once, and real random seeds (a fixed seed would make every table's deals alike anyway)."""
    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_FIXED_SEED = ""
    return settings


def duplicate_round(staff, make_user, n: int, **fields) -> tuple[Tournament, list[TournamentTable]]:
    for name in NAMES[:n]:
        make_user(name)
    t = make_tournament(staff, duplicate=True, **{"options": {"game_target": 40}, **fields})
    services.entries_import(tournament_id=t.pk, by=staff, usernames=NAMES[:n])
    rnd = services.round_seat(tournament_id=t.pk, by=staff)
    services.round_publish(round_id=rnd.pk, by=staff)
    return t, list(TournamentTable.objects.filter(round=rnd, is_bye=False).select_related("match").order_by("number"))


def hands_by_position(match: Match, rnd: Round) -> list[list[str]]:
    """Round ``rnd``'s hands dealt again from its stored seed, in seat-position order (A, B, …)."""
    spec = spec_for(match.variant)
    rules = spec.rules(match.options, match.seats_count)
    state, dealer = spec.deal(rules, rnd.setup, shuffle.rng_for(rnd.shuffle, rnd.seed))
    dealt = spec.dealt(rules, rnd.setup, state)
    assert dealer == rnd.dealer
    return [sorted(dealt["hands"][seat]) for seat in spec.deal_positions(rnd.setup, rnd.dealer, match.seats_count)]


def held_seeds(tournament: Tournament) -> list[str]:
    return list(
        DealSeed.objects.filter(
            deal_set__tournament_round__tournament=tournament, deal_set__revealed_at__isnull=True
        ).values_list("seed", flat=True)
    )


@pytest.mark.parametrize(
    ("variant", "size", "n", "fmt"),
    [("manipulation", 4, 8, "swiss"), ("gin", 2, 4, "round_robin"), ("gin_box", 3, 6, "swiss")],
)
def test_every_table_deals_the_same_cards_per_seat_position_from_the_stored_seeds(
    staff, make_user, fresh, variant, size, n, fmt
):
    t, tables = duplicate_round(
        staff,
        make_user,
        n,
        variant=variant,
        table_size=size,
        format=fmt,
        options={"game_target": 40 if variant == "manipulation" else 25},
    )
    assert len(tables) == 2
    matches = [table.match for table in tables]
    deal_set = DealSet.objects.get(tournament_round__tournament=t)
    assert all(m.deal_set_id == deal_set.pk and m.deals_held and m.seed == deal_set.match_seed for m in matches)
    for m in matches:
        play_out(m.pk)
    seeds = dict(DealSeed.objects.filter(deal_set=deal_set).values_list("number", "seed"))
    rounds = {m.pk: {r.number: r for r in Round.objects.filter(match=m)} for m in matches}
    played = set(rounds[matches[0].pk]) & set(rounds[matches[1].pk])
    assert played and set(seeds) == set(rounds[matches[0].pk]) | set(rounds[matches[1].pk])
    for number in sorted(played):
        a, b = (rounds[m.pk][number] for m in matches)
        assert a.seed == b.seed == seeds[number]  # one seed per deal number, stored once
        assert hands_by_position(matches[0], a) == hands_by_position(matches[1], b)
        # Each table still commits to the seed with its own identity: the commitments differ.
        assert a.commitment != b.commitment
        assert a.commitment == shuffle.commitment(a.seed, match_id=matches[0].pk, round_number=number)
    assert len(set(seeds.values())) == len(seeds)  # a new seed for every deal


def test_a_shared_seed_is_written_once_whoever_deals_first(fresh):
    deal_set = DealSet.objects.create()
    first = game_write.shared_seed(deal_set.pk, 3)
    assert game_write.shared_seed(deal_set.pk, 3) == first and len(first) == 64
    assert game_write.shared_seed(deal_set.pk, 4) != first
    assert DealSeed.objects.filter(deal_set=deal_set).count() == 2


def texts_seen(client, users, urls) -> list[tuple[str, str, int, str]]:
    out = []
    for user in users:
        client.logout()
        if user is not None:
            client.force_login(user)
        for url in urls:
            for headers in ({}, HX):
                response = client.get(url, **headers)
                out.append(
                    (getattr(user, "username", "anonymous"), url, response.status_code, response.content.decode())
                )
    return out


def test_the_shared_seeds_stay_secret_until_the_round_is_closed(client, staff, make_user, fresh):
    t, (table_a, table_b) = duplicate_round(staff, make_user, 8, options={"game_target": 80})
    a, b = table_a.match, table_b.match
    play_out(a.pk)  # table A has played all its deals; table B is still in its first
    b.refresh_from_db()
    assert b.status == MatchStatus.PLAYING and b.round_number == 1
    secrets = held_seeds(t)
    assert secrets and Round.objects.filter(match=a, finished_at__isnull=False).count() == len(secrets)
    at_a = TournamentSeat.objects.get(table=table_a, index=0).entry.user
    at_b = TournamentSeat.objects.get(table=table_b, index=0).entry.user
    outsider = make_user("oscar")

    # Another table of the round is not for the players still holding those cards: 404, everywhere.
    client.force_login(at_b)
    for url in (
        reverse("games:table", args=[a.pk]),
        reverse("history:match", args=[a.pk]),
        reverse("history:export", args=[a.pk]),
        reverse("history:replay", args=[a.pk]),
    ):
        assert client.get(url).status_code == 404, url
    assert f"/matches/{a.pk}/" not in client.get(reverse("history:list")).content.decode()
    client.force_login(at_a)  # table B, still live, is not among the lobby's tables to watch
    assert f"/tables/{b.pk}/" not in client.get(reverse("games:lobby")).content.decode()
    client.force_login(at_b)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert f"/tables/{a.pk}/" not in page and f"/matches/{a.pk}/" not in page and f"/tables/{b.pk}/" in page
    assert "The same deals as yours: open once the round is closed" in page

    # No page, partial or record shows a shared seed (whole or its start) to anyone but staff.
    urls = [
        reverse("games:table", args=[a.pk]),
        reverse("history:match", args=[a.pk]),
        reverse("history:export", args=[a.pk]),
        reverse("history:replay", args=[a.pk]),
        reverse("games:table", args=[b.pk]),
        reverse("tournaments:detail", args=[t.pk]),
        reverse("tournaments:list"),
        reverse("history:list"),
        reverse("games:lobby"),
    ]
    seen = texts_seen(client, [at_a, at_b, outsider, None], urls)
    assert not [(who, url) for who, url, _status, text in seen if seed_leaks(text, secrets)]
    # Its match page: its own players only (staff too), until the round closes.
    assert {(who, status) for who, url, status, _text in seen if url == urls[1]} == {
        (at_a.username, 200),
        (at_b.username, 404),
        ("oscar", 404),
        ("anonymous", 404),
    }
    public = next(text for who, url, status, text in seen if who == "oscar" and url == urls[5])
    assert f"/matches/{a.pk}/" not in public and "Match page once the round is closed" in public
    assert f"/tables/{b.pk}/" in public  # anyone else may watch a table in play
    own = next(text for who, url, status, text in seen if who == at_a.username and url == urls[0])
    assert "data-seed-held" in own and "is a duplicate deal" in own
    record = next(text for who, url, status, text in seen if who == at_a.username and url == urls[2])
    assert '"seed": null' in record and '"deal": null' in record
    client.force_login(at_a)
    assert client.get(reverse("tournaments:deals", args=[t.pk, 1])).status_code == 404

    # Nor does a frame: the table's board fragments and the tournament page's socket.
    for user in (at_a, outsider):
        assert not seed_leaks(board_for(board_data(Match.objects.get(pk=a.pk)), user).html(), secrets)
    consumer = TournamentConsumer()
    consumer.scope, consumer.tournament_id, consumer.sent = {"user": at_b}, t.pk, {}
    assert not seed_leaks(consumer._render(), secrets)
    # The round's matchpoints do not count before it closes (a result would tell table B how deal 1 went).
    assert all(s.matchpoints == 0 for s in selectors.tournament_standings(t))

    # Table B finishes, the round closes: the seeds are published, and both verifiers accept each table.
    play_out(b.pk)
    services.round_close(round_id=table_a.round_id, by=staff)
    assert not Match.objects.filter(deal_set__tournament_round__tournament=t, deals_held=True).exists()
    client.force_login(at_b)
    detail = client.get(reverse("history:match", args=[a.pk])).content.decode()
    assert all(seed in detail for seed in secrets) and 'data-deal-round="1"' in detail
    for match in (a, b):
        record = client.get(reverse("history:export", args=[match.pk])).json()
        assert [c.status for c in verify_record(record)] == [OK] * len(record["rounds"])
        assert {r["seed"] for r in record["rounds"]} <= set(secrets)
    comparison = client.get(reverse("tournaments:deals", args=[t.pk, 1])).content.decode()
    assert all(seed in comparison for seed in secrets)
    assert "Seat <bdi>A</bdi> · field average" in comparison and "(you)" in comparison


def test_a_record_of_a_held_round_has_nothing_to_verify_yet(client, staff, make_user, fresh):
    t, (table_a, _table_b) = duplicate_round(staff, make_user, 8)
    play_out(table_a.match_id)
    client.force_login(staff)  # staff may open it: still no seed in the record
    record = client.get(reverse("history:export", args=[table_a.match_id])).json()
    assert {c.status for c in verify_record(record)} == {UNREVEALED}


def test_a_field_of_eleven_at_tables_of_four(client, staff, make_user, fresh):
    t, tables = duplicate_round(staff, make_user, 11, options={"game_target": 30})
    assert [table.match.seats_count for table in tables] == [4, 4, 3]
    assert tables[0].reasons[0]["code"] == "duplicate_lanes"
    assert {"code": "table_size", "seats": 3} in tables[2].reasons
    for table in tables:
        play_out(table.match_id)
    services.round_close(round_id=tables[0].round_id, by=staff)
    (closed,) = deals.closed_rounds(t)
    scores = closed.scores
    assert scores.reference == 2 and scores.sizes == (4, 3) and scores.mixed_sizes
    small = {e for e in TournamentSeat.objects.filter(table=tables[2]).values_list("entry_id", flat=True)}
    for group in scores.groups:
        if group.size == 3:  # the table of 3 is compared only with tables of 3: alone, the average
            assert [r.matchpoints for r in group.rows] == [1] and group.rows[0].holding.entry in small
        else:
            assert {r.holding.entry for r in group.rows}.isdisjoint(small)
            if len(group.rows) == 2:
                assert sum(r.matchpoints for r in group.rows) == 2
    standings = selectors.tournament_standings(t)
    assert len(standings) == 11
    assert [s.matchpoints for s in standings] == sorted((s.matchpoints for s in standings), reverse=True)
    assert {s.entry: s.matchpoints for s in standings} == {e: tot.matchpoints for e, tot in scores.totals.items()}
    csv_rows = selectors.standings_csv_rows(t)
    assert csv_rows[0][-2:] == ["matchpoints", "difference"]
    assert [row[-2] for row in csv_rows[1:]] == [f"{float(s.matchpoints):.2f}" for s in standings]
    client.force_login(TournamentSeat.objects.get(table=tables[0], index=0).entry.user)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "data-mixed-sizes" in page and "Round 1 had tables of different sizes" in page
    assert "Your deals" in page and "field average" in page
    comparison = client.get(reverse("tournaments:deals", args=[t.pk, 1]), **HX).content.decode()
    assert "at tables of 3" in comparison and "at tables of 4" in comparison


def test_the_next_round_is_seated_in_lanes_by_matchpoints(staff, make_user, fresh):
    t, tables = duplicate_round(staff, make_user, 8, options={"game_target": 30})
    for table in tables:
        play_out(table.match_id)
    services.round_close(round_id=tables[0].round_id, by=staff)
    order = [s.entry for s in selectors.tournament_standings(t)]
    rnd = services.round_seat(tournament_id=t.pk, by=staff)
    seats = {
        (s.table.number, s.index): s.entry_id
        for s in TournamentSeat.objects.filter(table__round=rnd).select_related("table")
    }
    for k in range(4):  # seat k at both tables: the k-th pair of the standings
        assert {seats[(1, k)], seats[(2, k)]} == set(order[2 * k : 2 * k + 2])
    services.round_publish(round_id=rnd.pk, by=staff)
    rnd.refresh_from_db()
    assert rnd.deal_set_id and rnd.deal_set_id != tables[0].round.deal_set_id


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"duplicate_average": "on"}, "tick “duplicate” too"),
        ({"duplicate": "on", "table_size": "6"}, "This game is for 2, 3, 4, 5 players."),
    ],
)
def test_the_admin_form_refuses_duplicate_settings_that_do_not_fit(fields, error):
    form = TournamentForm(data=admin_add_data(name="Dup", **fields))
    assert not form.is_valid()
    assert error in str(form.errors)


def test_a_running_duplicate_tournament_keeps_its_duplicate_setting(client, staff, make_user, fresh):
    t, _tables = duplicate_round(staff, make_user, 8)
    client.force_login(staff)
    url = reverse("admin:games_tournament_change", args=[t.pk])
    page = client.get(url).content.decode()
    assert 'name="duplicate"' not in page  # read-only once the first round is out
    assert Tournament.objects.get(pk=t.pk).duplicate
    assert t.rounds.get().status == RoundStatus.PLAYING


def test_a_running_tournament_can_still_be_renamed_in_the_admin(client, staff, make_user, fresh):
    t, _tables = duplicate_round(staff, make_user, 8)
    client.force_login(staff)
    url = reverse("admin:games_tournament_change", args=[t.pk])
    data = {
        "name": "Renamed",
        "rounds_count": "3",
        "turn_timer": "0",
        "registration_open": "",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    assert t.name == "Renamed" and t.duplicate


def test_two_player_gin_with_an_odd_field_gives_a_bye_the_average(client, staff, make_user, fresh):
    t, tables = duplicate_round(staff, make_user, 5, variant="gin", table_size=2, options={"game_target": 25})
    assert len(tables) == 2
    bye = TournamentSeat.objects.get(table__round=tables[0].round, table__is_bye=True).entry
    for table in tables:
        play_out(table.match_id)
    services.round_close(round_id=tables[0].round_id, by=staff)
    (closed,) = deals.closed_rounds(t)
    scores = closed.scores
    played = max(Round.objects.filter(match_id=table.match_id).count() for table in tables)
    assert scores.deals == played and scores.reference == 2
    assert scores.totals[bye.pk].matchpoints == played and scores.totals[bye.pk].averaged == played
    for group in scores.groups:  # the hand's points for and against: a group of two sums to 0 or ties
        assert sorted(r.raw for r in group.rows) in ([0, 2], [1, 1], [1])
    client.force_login(bye.user)
    page = client.get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "A bye: the average" in page


@pytest.mark.skipif(connection.vendor != "postgresql", reason="two transactions at once need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_tables_dealing_the_same_deal_at_once_get_one_seed():
    """The second table's insert waits for the first's commit, then reads its row."""
    deal_set = DealSet.objects.create()
    got, started = [], threading.Barrier(2)

    def deal() -> None:
        try:
            with transaction.atomic():
                started.wait()
                got.append(game_write.shared_seed(deal_set.pk, 1))
                time.sleep(0.2)  # the row stays uncommitted a while
        finally:
            connections.close_all()

    threads = [threading.Thread(target=deal) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(got) == 2 and got[0] == got[1]
    assert DealSeed.objects.filter(deal_set=deal_set).count() == 1
