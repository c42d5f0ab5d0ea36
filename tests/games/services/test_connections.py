"""Presence at a table: a row per open socket, refreshed by its process, swept once it lapses.

A seat is online while one of its user's table sockets has a row seen within
``RUMMYHUB_PRESENCE_TIMEOUT``; a process that dies leaves rows nobody refreshes,
and ``services.presence_sweep`` deletes them, gives the seat its disconnect grace
and tells the table (``table.presence``).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors, services, store
from games.board import table as board_table
from games.models import Match, MatchStatus, Seat, TableConnection
from games.variants import spec_for
from plumbing import realtime

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user, settings):
    """A started two-player table without a timer; (match, the player to act, the other one)."""
    settings.RUMMYHUB_FIXED_SEED = "11"
    settings.RUMMYHUB_PRESENCE_TIMEOUT = 60
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    acting = spec_for(match.variant).acting_seats(spec_for(match.variant).load(match.state["round"]))[0]
    players = [alice, bob]
    return match, players[acting], players[1 - acting]


def presence_messages(sent, match):
    return [m for group, m in sent if group == realtime.table_group(match.pk) and m["type"] == "table.presence"]


def seat_of(match, user) -> Seat:
    return Seat.objects.get(match=match, user=user)


def backdate(token: str, seconds: float):
    at = timezone.now() - timedelta(seconds=seconds)
    TableConnection.objects.filter(token=token).update(last_seen=at)
    return TableConnection.objects.get(token=token).last_seen


def test_the_first_socket_opening_and_the_last_closing_are_announced_and_closing_twice_is_harmless(
    table, sent, django_capture_on_commit_callbacks
):
    match, mover, _other = table
    with django_capture_on_commit_callbacks(execute=True):
        services.table_connection_open(match_id=match.pk, user=mover, token="one")
        services.table_connection_open(match_id=match.pk, user=mover, token="two")
    seat = seat_of(match, mover)
    assert store.is_connected(seat)
    assert presence_messages(sent, match) == [
        {"type": "table.presence", "id": match.pk, "seat": seat.index, "online": True}
    ]
    assert Match.objects.get(pk=match.pk).deadline is None  # the player to act is here: the table waits
    with django_capture_on_commit_callbacks(execute=True):
        services.table_connection_close(token="one")
        services.table_connection_close(token="one")
    assert store.is_connected(seat_of(match, mover)) and len(presence_messages(sent, match)) == 1
    with django_capture_on_commit_callbacks(execute=True):
        services.table_connection_close(token="two")
        services.table_connection_close(token="two")
        services.table_connection_close(token="never-opened")
    assert not TableConnection.objects.exists()
    assert not store.is_connected(seat_of(match, mover))
    assert presence_messages(sent, match)[1:] == [
        {"type": "table.presence", "id": match.pk, "seat": seat.index, "online": False}
    ]
    match.refresh_from_db()
    gone = seat_of(match, mover).last_seen
    assert match.deadline == max(match.turn_started_at, gone) + timedelta(seconds=services.DISCONNECT_GRACE)


def test_a_lapsed_row_is_swept_the_seat_goes_offline_with_its_grace_and_the_table_is_told(
    table, sent, settings, django_capture_on_commit_callbacks
):
    match, mover, other = table
    settings.RUMMYHUB_PRESENCE_TIMEOUT = 5
    with django_capture_on_commit_callbacks(execute=True):
        services.table_connection_open(match_id=match.pk, user=mover, token="dead-process")
        services.table_connection_open(match_id=match.pk, user=other, token="live-process")
    sent.clear()
    Seat.objects.filter(match=match).update(last_seen=timezone.now() - timedelta(seconds=20))  # connected then
    last_beat = backdate("dead-process", 6)
    assert not store.is_connected(seat_of(match, mover))  # lapsed: offline even before the sweep
    assert store.is_connected(seat_of(match, other))

    with django_capture_on_commit_callbacks(execute=True):
        assert services.presence_sweep() == 1
        assert services.presence_sweep() == 0  # another process's sweep right after: nothing left

    assert list(TableConnection.objects.values_list("token", flat=True)) == ["live-process"]
    seat = seat_of(match, mover)
    assert presence_messages(sent, match) == [
        {"type": "table.presence", "id": match.pk, "seat": seat.index, "online": False}
    ]
    assert seat.last_seen == last_beat  # gone since the dead process's last heartbeat
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    assert match.deadline == max(match.turn_started_at, last_beat) + timedelta(seconds=services.DISCONNECT_GRACE)
    assert services.pending_step(match) == "timeout"


def test_a_seat_with_another_fresh_socket_stays_online_when_one_row_is_swept(
    table, sent, settings, django_capture_on_commit_callbacks
):
    match, mover, _other = table
    settings.RUMMYHUB_PRESENCE_TIMEOUT = 5
    with django_capture_on_commit_callbacks(execute=True):
        services.table_connection_open(match_id=match.pk, user=mover, token="dead-process")
        services.table_connection_open(match_id=match.pk, user=mover, token="live-process")
    sent.clear()
    backdate("dead-process", 6)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.presence_sweep() == 1
    assert list(TableConnection.objects.values_list("token", flat=True)) == ["live-process"]
    assert presence_messages(sent, match) == []
    assert store.is_connected(seat_of(match, mover))
    assert Match.objects.get(pk=match.pk).deadline is None


def test_a_sweep_with_nothing_lapsed_is_one_query(table):
    match, mover, _other = table
    services.table_connection_open(match_id=match.pk, user=mover, token="fresh")
    with CaptureQueriesContext(connection) as queries:
        assert services.presence_sweep() == 0
    assert len(queries) == 1
    assert TableConnection.objects.filter(token="fresh").exists()


def test_one_heartbeat_update_refreshes_every_row_named_and_reports_the_missing(table):
    match, mover, other = table
    for user, token in [(mover, "a"), (other, "b"), (mover, "elsewhere")]:
        services.table_connection_open(match_id=match.pk, user=user, token=token)
    before = {t: backdate(t, 30) for t in ["a", "b", "elsewhere"]}
    with CaptureQueriesContext(connection) as queries:
        missing = services.table_connections_seen(["a", "b", "swept-meanwhile"])
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE", "SELECT"]
    assert missing == {"swept-meanwhile"}
    seen = dict(TableConnection.objects.values_list("token", "last_seen"))
    assert seen["a"] > before["a"] and seen["b"] > before["b"] and seen["elsewhere"] == before["elsewhere"]
    with CaptureQueriesContext(connection) as queries:
        assert services.table_connections_seen(["a", "b"]) == set()
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["UPDATE"]  # all found: no read


def test_a_spectators_socket_counts_for_the_seat_they_then_take(alice, carol):
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.table_connection_open(match_id=match.pk, user=carol, token="watching")  # the page's socket, no seat yet
    services.seat_join(match_id=match.pk, user=carol)
    assert store.is_connected(seat_of(match, carol))


def test_a_boards_presence_costs_no_query_per_seat(make_user, settings):
    """The board's seats carry their online state from the one seats query (no query per seat)."""
    settings.RUMMYHUB_FIXED_SEED = "11"
    users = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    match = services.match_create(host=users[0], variant="manipulation", seats_count=4)
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user)
    services.match_start(match_id=match.pk, user=users[0])
    match = Match.objects.get(pk=match.pk)

    def load_and_render():
        with CaptureQueriesContext(connection) as queries:
            data = selectors.board_data(Match.objects.get(pk=match.pk))
            ctx = board_table.table_context(data, users[0])
        return len(queries), [s.connected for s in ctx["seats"]]

    alone, dots = load_and_render()
    # The seat list of a table in play is public (the page marks its own seat, and its own socket
    # shows it online): nobody has a socket open yet.
    assert dots == [False, False, False, False]
    services.table_connection_open(match_id=match.pk, user=users[1], token="bob")
    services.table_connection_open(match_id=match.pk, user=users[3], token="dave")
    crowded, dots = load_and_render()
    assert crowded == alone
    assert dots == [False, True, False, True]
    with CaptureQueriesContext(connection) as queries:
        assert selectors.seat_presence(match_id=match.pk, viewer=None) == [(0, False), (1, True), (2, False), (3, True)]
    assert len(queries) == 1


def test_a_move_made_before_a_socket_opened_is_not_stale_but_its_copy_is(table, django_capture_on_commit_callbacks):
    """A page drawn at version v, whose player moves before its socket is open: the socket's opening
    moves the deadline (a new version: the boards show it) but changes nothing a move depends on, so the
    move made on v is played; the same move sent again finds the version that move made and is refused."""
    match, mover, _other = table
    drawn = Match.objects.get(pk=match.pk).version
    with django_capture_on_commit_callbacks(execute=True):
        services.table_connection_open(match_id=match.pk, user=mover, token="late")
    assert Match.objects.get(pk=match.pk).version > drawn  # the deadline moved: a new version
    played = services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=drawn)
    assert played.version > drawn
    with pytest.raises(services.StaleVersion):
        services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=drawn)
    with pytest.raises(services.StaleVersion):
        services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=drawn + 1)
