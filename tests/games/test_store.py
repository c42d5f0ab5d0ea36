"""games.store: the move's statements built once write and read exactly what the ORM does."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.db.models.signals import post_save, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services, store
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
    fast = store.insert(Event(match=match, seq=41, round_number=2, seat=1, kind="action", action=action,
                               summary={"code": "meld", "n": 3}, by_bot=True))
    Event.objects.create(match=match, seq=42, round_number=2, seat=1, kind="action", action=action,
                         summary={"code": "meld", "n": 3}, by_bot=True)
    a = Event.objects.get(match=match, seq=41)
    b = Event.objects.get(match=match, seq=42)
    for field in ("round_number", "seat", "kind", "action", "summary", "by_bot", "match_id"):
        assert getattr(a, field) == getattr(b, field), field
    assert a.action == action and before <= a.created_at <= timezone.now()
    assert fast.created_at == a.created_at and not fast._state.adding
    none_seat = store.insert(Event(match=match, seq=43, kind="system", action={}, summary={}))
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
        match.version, match.state, None, MatchStatus.PLAYING)
    assert abs((saved.deadline - match.deadline).total_seconds()) < 1e-3
    assert saved.turn_timer == 60


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
