"""games.store: the move's statements built once write and read exactly what the ORM does."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services, store
from games.live import clockloop as live_clock
from games.models import Event, Match, MatchStatus, Seat
from games.services import write

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    services.seat_join(match_id=match.pk, user=bob)
    return Match.objects.get(pk=match.pk)


def row(model, pk) -> dict:
    return model.objects.filter(pk=pk).values().get()


def test_reads_are_the_querysets_rows(match):
    locked = store.locked_match(match.pk)
    assert row(Match, locked.pk) == {f.attname: getattr(locked, f.attname) for f in Match._meta.concrete_fields}
    assert isinstance(locked.state, dict) and locked.created_at == match.created_at
    assert store.locked_match(match.pk + 1000) is None
    seats = store.seats_of(match.pk, online_since=timezone.now())
    assert [(s.pk, s.index, s.user_id, s.is_bot) for s in seats] == [
        (s.pk, s.index, s.user_id, s.is_bot) for s in Seat.objects.filter(match=match).order_by("index")
    ]
    assert [s.index for s in seats] == [0, 1, 2]


def test_the_seats_online_column_is_the_orm_annotations(match):
    bob = Seat.objects.get(match=match, index=1).user
    services.table_connection_open(match_id=match.pk, user=bob, token="bob")
    since = timezone.now() - timedelta(seconds=60)
    orm = store.seats_with_presence(Seat.objects.filter(match=match).order_by("index"))
    assert [bool(s.online) for s in store.seats_of(match.pk, online_since=since)] == [s.online for s in orm]
    assert [bool(s.online) for s in orm] == [False, True, False]
    later = timezone.now() + timedelta(seconds=1)  # the row was seen before this: it no longer counts
    assert not any(s.online for s in store.seats_of(match.pk, online_since=later))


def test_the_lock_is_a_real_select_for_update(match):
    with CaptureQueriesContext(connection) as queries:
        store.locked_match(match.pk)
    assert ("FOR UPDATE" in queries.captured_queries[-1]["sql"]) == connection.features.has_select_for_update


def test_an_event_inserted_reads_back_as_the_orm_would_have_written_it(match):
    before = timezone.now()
    action = {"type": "meld", "table": [["7H.0", "8H.0", "JK=9H.1"]], "note": "ünïcode ✓"}
    fast = Event(
        match=match,
        seq=41,
        round_number=2,
        seat=1,
        kind="action",
        action=action,
        summary={"code": "meld", "n": 3},
        by_bot=True,
    )
    store.update(match, ["version"], inserting=[fast])  # a move's log rows go with the match's update
    Event.objects.create(
        match=match,
        seq=42,
        round_number=2,
        seat=1,
        kind="action",
        action=action,
        summary={"code": "meld", "n": 3},
        by_bot=True,
    )
    a = Event.objects.get(match=match, seq=41)
    b = Event.objects.get(match=match, seq=42)
    for field in ("round_number", "seat", "kind", "action", "summary", "by_bot", "match_id"):
        assert getattr(a, field) == getattr(b, field), field
    assert a.action == action and before <= a.created_at <= timezone.now()
    assert fast.created_at == a.created_at and not fast._state.adding
    none_seat = Event(match=match, seq=43, kind="system", action={}, summary={})
    store.update(match, ["version"], inserting=[none_seat])
    assert Event.objects.get(match=match, seq=43).seat is None and none_seat.seat is None


def test_an_update_writes_the_named_fields_only(match):
    other = Match.objects.get(pk=match.pk)
    other.turn_timer = 60
    other.save(update_fields=["turn_timer"])  # a column the update below must leave alone
    match.version += 1
    match.state = {"round": {"hands": [["AS.0"]], "x": None}, "tally": {"scores": [0, 5]}}
    match.draft = None
    match.deadline = timezone.now() + timedelta(seconds=30)
    match.status = MatchStatus.PLAYING
    match.turn_timer = 0  # not named: not written
    store.update(match, ["version", "state", "draft", "deadline", "status", "version"])
    saved = Match.objects.get(pk=match.pk)
    assert (saved.version, saved.state, saved.draft, saved.status) == (
        match.version,
        match.state,
        None,
        MatchStatus.PLAYING,
    )
    assert abs((saved.deadline - match.deadline).total_seconds()) < 1e-3
    assert saved.turn_timer == 60


def test_the_lock_and_the_seats_read_together_are_the_two_reads_and_one_query_on_postgresql(match):
    bob = Seat.objects.get(match=match, index=1).user
    services.table_connection_open(match_id=match.pk, user=bob, token="bob")
    since = timezone.now() - timedelta(seconds=60)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked, seats = store.locked_match_and_seats(match.pk, online_since=since, lock_timeout=2.0)
    assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 2)
    assert ("FOR UPDATE" in queries.captured_queries[0]["sql"]) == connection.features.has_select_for_update
    alone = store.locked_match(match.pk)
    assert {f.attname: getattr(locked, f.attname) for f in Match._meta.concrete_fields} == {
        f.attname: getattr(alone, f.attname) for f in Match._meta.concrete_fields
    }
    expected = store.seats_of(match.pk, online_since=since)
    assert [(s.pk, s.index, s.user_id, bool(s.online)) for s in seats] == [
        (s.pk, s.index, s.user_id, bool(s.online)) for s in expected
    ]
    assert [bool(s.online) for s in seats] == [False, True, False]
    assert store.locked_match_and_seats(match.pk + 1000, online_since=since) == (None, [])


def test_log_rows_written_with_the_update_are_one_query_on_postgresql(match):
    events = [
        Event(match=match, seq=51 + i, round_number=1, seat=i, kind="action", action={"n": i}, summary={"code": "x"})
        for i in range(3)
    ]
    match.version += 1
    with CaptureQueriesContext(connection) as queries:
        store.update(match, ["version"], inserting=events)
    assert len(queries.captured_queries) == (1 if connection.vendor == "postgresql" else 2)
    assert Match.objects.get(pk=match.pk).version == match.version
    rows = list(Event.objects.filter(match=match, seq__gt=50).order_by("seq").values_list("seq", "seat", "action"))
    assert rows == [(51, 0, {"n": 0}), (52, 1, {"n": 1}), (53, 2, {"n": 2})]
    assert not any(e._state.adding for e in events)


def test_a_log_entry_appended_without_a_save_is_a_bug_that_writes_nothing(match):
    with pytest.raises(RuntimeError):
        with write.writing(match.pk) as held:
            held.event(kind="system", seat=None, action={}, summary={"code": "x"})
    assert not Event.objects.filter(match=match, summary__code="x").exists()
    assert Match.objects.get(pk=match.pk).event_seq == match.event_seq


@pytest.mark.parametrize("bad", ["abc", None, 10**30, -1, "1; DROP TABLE games_match"])
def test_a_bad_table_id_is_refused_and_the_transaction_goes_on(match, bad):
    with transaction.atomic():
        with pytest.raises(services.ActionRefused) as refused:
            write._locked(bad)
        assert refused.value.code == "no_table"
        assert Match.objects.filter(pk=match.pk).exists()  # the transaction is still usable


def test_no_save_signal_is_skipped():
    """store sends no model signals: that is only right while nobody listens to these models."""
    for model in (Match, Seat, Event):
        assert not pre_save.has_listeners(model) and not post_save.has_listeners(model), model


# ------------------------------------------------------------------ upkeep

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="autovacuum and VACUUM are PostgreSQL's")


def dead_rows(table: str, at_least: int, timeout: float = 5.0) -> int:
    """The table's dead row versions as the statistics show them, once they show ``at_least``
    (each backend reports its counts a moment after its transaction)."""
    deadline = time.monotonic() + timeout
    while True:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_force_next_flush()")
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = %s", [table])
            dead = cursor.fetchone()[0]
        if dead >= at_least or time.monotonic() > deadline:
            return dead
        time.sleep(0.1)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_vacuum_of_the_hot_tables_clears_the_dead_rows_every_move_leaves(match):
    for n in range(300):  # as 300 moves do: each a new version of the row, its deadline changed
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=n))
    assert dead_rows("games_match", at_least=300) >= 300
    store.vacuum_hot_tables()
    assert dead_rows("games_match", at_least=0) == 0


@postgres_only
def test_the_hot_tables_are_vacuumed_early_by_autovacuum():
    """Migration 0008: a fixed threshold of dead rows, not 20 % of the table."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, reloptions FROM pg_class WHERE relname = ANY(%s)",
            [[m._meta.db_table for m in store.HOT_TABLES]],
        )
        options = dict(cursor.fetchall())
    assert set(options) == {"games_match", "games_seat", "games_tableconnection"}
    for table, opts in options.items():
        assert {"autovacuum_vacuum_scale_factor=0", "autovacuum_vacuum_threshold=1000", "vacuum_truncate=false"} <= set(
            opts
        ), table


@pytest.mark.parametrize("autovacuum", [True, False])
def test_the_clock_vacuums_only_where_autovacuum_does_not(monkeypatch, autovacuum):
    vacuums = []
    monkeypatch.setattr(live_clock, "_autovacuum", {})
    monkeypatch.setattr(store, "autovacuum_is_on", lambda: autovacuum)
    monkeypatch.setattr(store, "vacuum_hot_tables", lambda: vacuums.append(1))
    assert [live_clock.vacuum_if_needed() for _ in range(3)] == [not autovacuum] * 3
    assert len(vacuums) == (0 if autovacuum else 3)


def test_autovacuum_is_on_is_what_the_server_says():
    if connection.vendor != "postgresql":
        assert store.autovacuum_is_on() is True
        return
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        assert store.autovacuum_is_on() is (cursor.fetchone()[0] == "on")
