"""The per-process board data cache behind the socket pushes (games/live/boardcache.py)."""

from __future__ import annotations

import asyncio
import pickle
import random
import threading
import time

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import DataError, connection
from django.utils import timezone
from psycopg import pq

from games import selectors, services, store
from games.board import fragments
from games.board.data import BoardData
from games.engine import bots as engine_bots
from games.engine import gin
from games.engine.gin.match import GinMatch
from games.live import boardcache
from games.models import Match, Round, Seat
from games.variants import spec_for
from plumbing import handoff, realtime

pytestmark = pytest.mark.django_db(transaction=True)

full_load = selectors.board_data  # not the counted one below


@pytest.fixture(autouse=True)
def empty_cache():
    with boardcache._lock:
        boardcache._entries.clear()
    yield
    with boardcache._lock:
        boardcache._entries.clear()


@pytest.fixture
def counted_loads(monkeypatch):
    """Count (and slow down a little) the real loads, so concurrent callers overlap."""
    loads = []
    real, real_after = selectors.board_data, selectors.board_data_after

    def load(match, previous=None):
        loads.append(match.version)
        time.sleep(0.05)
        return real(match, previous=previous)

    def load_after(previous):
        # A load in one round trip (PostgreSQL) counts as a load; one that could not be made, not (the whole load then is).
        time.sleep(0.05)
        data = real_after(previous)
        if data is not None:
            loads.append(data.version)
        return data

    monkeypatch.setattr(selectors, "board_data", load)
    monkeypatch.setattr(selectors, "board_data_after", load_after)
    return loads


def started(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk), alice, bob


def test_one_load_serves_every_push_of_a_version(make_user, counted_loads):
    match, _alice, _bob = started(make_user)
    first = boardcache.board_data_for(match.pk, min_version=match.version)
    again = boardcache.board_data_for(match.pk, min_version=match.version)
    assert first is again and first.version == match.version
    assert counted_loads == [match.version]


def test_concurrent_callers_wait_for_the_one_load(make_user, counted_loads):
    match, _alice, _bob = started(make_user)
    results = []

    def push():
        results.append(boardcache.board_data_for(match.pk, min_version=match.version))

    threads = [threading.Thread(target=push) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(counted_loads) == 1
    assert len(results) == 6 and all(r is results[0] for r in results)


def test_a_newer_version_a_forced_render_or_a_presence_change_loads_again(make_user, counted_loads):
    match, alice, bob = started(make_user)
    v = match.version
    boardcache.board_data_for(match.pk, min_version=v)
    mover = [alice, bob][match.state["round"]["seat_to_act"]]
    services.turn_submit(match_id=match.pk, user=mover, action={"type": "draw"}, expected_version=v)
    handed_on = boardcache.board_data_for(match.pk, min_version=v + 1)  # the move's own board: no load
    assert handed_on.version == v + 1 and counted_loads == [v]
    forced = boardcache.board_data_for(match.pk, min_version=-1, fresh=True)
    assert forced is not handed_on
    boardcache.forget(match.pk)
    boardcache.board_data_for(match.pk)
    Match.objects.filter(pk=match.pk).update(version=v + 2)  # a change made by another process
    assert boardcache.board_data_for(match.pk, min_version=v + 2).version == v + 2
    assert counted_loads == [v, v + 1, v + 1, v + 2]


def test_a_later_load_reads_only_the_new_events_and_equals_a_full_load(make_user):
    match, alice, bob = started(make_user)
    old = boardcache.board_data_for(match.pk)
    for _ in range(3):
        now = Match.objects.get(pk=match.pk)
        mover = [alice, bob][now.state["round"]["seat_to_act"]]
        state = spec_for("manipulation").load(now.state["round"])
        kind = (
            "draw"
            if any(
                a["type"] == "draw" for a in spec_for("manipulation").view(state, state.seat_to_act)["legal_actions"]
            )
            else "end_turn"
        )
        services.turn_submit(match_id=match.pk, user=mover, action={"type": kind}, expected_version=now.version)
    newer = boardcache.board_data_for(match.pk, min_version=old.version + 3)
    full = selectors.board_data(Match.objects.get(pk=match.pk))
    assert newer.events == full.events and len(newer.events) == len(old.events) + 3


def test_an_entry_of_another_match_with_the_same_id_never_counts(make_user, counted_loads):
    match, _alice, _bob = started(make_user)
    data = boardcache.board_data_for(match.pk)
    stale = Match(pk=match.pk, created_at=match.created_at.replace(year=2000), version=10_000)
    boardcache.remember(BoardData(stale, [], None, [], [], None))
    assert boardcache.board_data_for(match.pk, created_at=match.created_at).match.created_at == match.created_at
    assert data.version == match.version and len(counted_loads) == 2


def test_entries_expire(make_user, counted_loads, monkeypatch):
    match, _alice, _bob = started(make_user)
    boardcache.board_data_for(match.pk)
    monkeypatch.setattr(boardcache, "TTL", 0.0)
    boardcache.board_data_for(match.pk)
    assert len(counted_loads) == 2


def test_a_gone_match_is_none_and_leaves_no_entry(make_user):
    match, _alice, _bob = started(make_user)
    boardcache.board_data_for(match.pk)
    Match.objects.filter(pk=match.pk).delete()
    assert boardcache.board_data_for(match.pk, fresh=True) is None
    assert match.pk not in boardcache._entries


def _move(match_id, alice, bob):
    now = Match.objects.get(pk=match_id)
    spec = spec_for("manipulation")
    state = spec.load(now.state["round"])
    kind = (
        "draw" if any(a["type"] == "draw" for a in spec.view(state, state.seat_to_act)["legal_actions"]) else "end_turn"
    )
    mover = [alice, bob][state.seat_to_act]
    return services.turn_submit(match_id=match_id, user=mover, action={"type": kind}, expected_version=now.version)


def _boards(data, users):
    # Each viewer's fragments but the meta (it carries the server's clock, which moves between renders).
    return [{k: v for k, v in fragments.board_for(data, u).fragments.items() if k != "board-meta"} for u in users]


def test_a_committed_move_hands_its_board_on_and_every_viewer_sees_what_a_fresh_load_shows(
    make_user, counted_loads, django_assert_num_queries
):
    match, alice, bob = started(make_user)
    carol = make_user("carol")
    boardcache.board_data_for(match.pk)
    for _ in range(4):
        moved = _move(match.pk, alice, bob)
        kept = boardcache.board_data_for(match.pk, min_version=moved.version)
        fresh = full_load(Match.objects.get(pk=match.pk))
        assert kept.version == fresh.version == moved.version
        assert kept.events == fresh.events
        viewers = [alice, bob, carol, AnonymousUser()]
        with django_assert_num_queries(0):  # rendered on the event loop: it must not touch the database
            kept_boards = _boards(kept, viewers)
        assert kept_boards == _boards(fresh, viewers)
    assert counted_loads == [match.version]  # the four moves' versions were never loaded


def test_only_a_move_right_after_the_kept_version_is_handed_on(make_user, counted_loads):
    match, alice, bob = started(make_user)
    moved = _move(match.pk, alice, bob)  # nothing kept yet: nothing to build on
    assert boardcache.latest(match.pk) is None
    boardcache.board_data_for(match.pk)
    Match.objects.filter(pk=match.pk).update(version=moved.version + 1)  # a version this process never saw
    _move(match.pk, alice, bob)
    assert boardcache.latest(match.pk).version == moved.version
    assert len(counted_loads) == 1


def test_a_load_after_an_older_one_rereads_only_what_can_change_and_equals_a_full_load(
    make_user, django_assert_num_queries
):
    """Another process's move: this process loads its version with the seats (without their
    people) and the new events; the finished rounds are read again only once the status or the
    round has changed."""
    match, alice, bob = started(make_user)
    viewers = [alice, bob, AnonymousUser()]
    previous = boardcache.board_data_for(match.pk)
    moved = _move(match.pk, alice, bob)
    row = Match.objects.get(pk=match.pk)
    with django_assert_num_queries(2):
        data = selectors.board_data(row, previous=previous)
    fresh = full_load(Match.objects.get(pk=match.pk))
    assert data.version == fresh.version == moved.version
    assert [(s.pk, s.user_id, s.display_name) for s in data.seats] == [
        (s.pk, s.user_id, s.display_name) for s in fresh.seats
    ]
    assert _boards(data, viewers) == _boards(fresh, viewers)
    # The round ends: the status changes, and the finished round is read as a full load reads it.
    Round.objects.filter(match=match).update(finished_at=timezone.now())
    Match.objects.filter(pk=match.pk).update(status="between_rounds", version=moved.version + 1)
    ended = selectors.board_data(Match.objects.get(pk=match.pk), previous=data)
    assert (
        [r.number for r in ended.rounds] == [r.number for r in full_load(Match.objects.get(pk=match.pk)).rounds] == [1]
    )


def test_a_load_after_a_kept_one_is_one_query_on_postgresql_and_equals_a_full_load(
    make_user, django_assert_num_queries
):
    """Another process's moves: the row, the seats and the new events in one round trip (a read-only
    transaction of their own); what it cannot tell (a round over, someone new seated) is loaded whole."""
    match, alice, bob = started(make_user)
    viewers = [alice, bob, AnonymousUser()]
    kept = boardcache.board_data_for(match.pk)
    postgresql = connection.vendor == "postgresql"
    for _ in range(3):
        moved = _move(match.pk, alice, bob)  # the load below starts from ``kept``, as another process's would
        with django_assert_num_queries(1 if postgresql else 0):
            data = selectors.board_data_after(kept)
        if not postgresql:
            assert data is None  # elsewhere the caller loads it whole, as before
            return
        fresh = full_load(Match.objects.get(pk=match.pk))
        assert data.version == fresh.version == moved.version
        assert data.events == fresh.events and data.state == fresh.state and data.rounds == fresh.rounds
        assert [(s.pk, s.user_id, s.display_name, s.online) for s in data.seats] == [
            (s.pk, s.user_id, s.display_name, s.online) for s in fresh.seats
        ]
        assert _boards(data, viewers) == _boards(fresh, viewers)
        assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE  # its transaction ended
        kept = data
    Match.objects.filter(pk=match.pk).update(status="between_rounds")
    assert selectors.board_data_after(kept) is None
    Match.objects.filter(pk=match.pk).update(status="playing")
    Seat.objects.filter(match=match, index=1).update(user=make_user("carol"))
    assert selectors.board_data_after(kept) is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-query load is PostgreSQL's")
def test_a_one_query_load_that_fails_leaves_its_connection_idle(make_user, monkeypatch):
    """A statement of the query fails: the server skips the rest, COMMIT too; the load ends the aborted
    transaction, so the next read on the connection works."""
    match, alice, bob = started(make_user)
    kept = boardcache.board_data_for(match.pk)
    _move(match.pk, alice, bob)
    monkeypatch.setattr(store, "_events_after_sql", lambda vendor: "SELECT 1 / 0 WHERE %s > 0 OR %s > 0")
    with pytest.raises(DataError):
        selectors.board_data_after(kept)
    assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE
    assert Match.objects.get(pk=match.pk).version == kept.version + 1


def test_a_bot_move_that_brings_the_advisors_suggestion_is_handed_on_with_it(make_user, counted_loads, settings):
    """Three-player Gin: the box's bot moves, the captain is to decide, the bot advisor's suggestion
    is folded into the same version (RULES C.2.4).  That version's board is handed on whole, the
    suggestion with it: the captain sees on the push what a fresh load shows, and nothing is loaded."""
    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_FIXED_SEED = "11"  # the same deal every run
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    spec = spec_for("gin_box")
    seed = next(s for s in range(1, 500) if GinMatch.start(gin.GinRules(variant="box3"), random.Random(s)).captain == 0)
    Match.objects.filter(pk=match.pk).update(seed=seed)
    services.match_start(match_id=match.pk, user=alice)
    boardcache.board_data_for(match.pk)
    handed = advised = 0
    for _ in range(20):
        now = Match.objects.get(pk=match.pk)
        state = spec.load(now.state["round"])
        if state.phase == "over":
            break
        if state.seat_to_act == 0:
            action = engine_bots.choose_action(state, 0, policy="basic")
            services.turn_submit(match_id=match.pk, user=alice, action=action, expected_version=now.version)
            boardcache.board_data_for(match.pk, min_version=now.version + 1)  # the next step builds on it
            continue
        services.match_tick(match_id=match.pk, now=timezone.now())  # the box's bot moves
        after = Match.objects.get(pk=match.pk)
        kept = boardcache.peek(match.pk, min_version=after.version)
        if spec.load(after.state["round"]).seat_to_act == 0 and kept is not None:
            fresh = full_load(after)
            assert spec.dump(kept.state) == after.state["round"]  # the suggestion is in the state handed on
            assert kept.events == fresh.events
            assert _boards(kept, [alice]) == _boards(fresh, [alice])
            advised += kept.events[-1].summary["code"] == "suggest"
            handed += 1
    assert advised >= 2
    assert len(counted_loads) <= 1 + 20 - handed  # the handed-on versions were never loaded


def test_a_load_that_began_before_a_dot_changed_serves_no_push(make_user, monkeypatch):
    """A push loads the board while a seat's socket opens: the load read the seat away, the seat's row
    then committed and the socket marked the kept board out of date, and a forced render of the seat
    waited for the load in flight.  That load is kept as a base only: the forced render loads again and
    shows the seat online, and no later push is served the old dot."""
    match, alice, _bob = started(make_user)
    real = selectors.board_data
    reading, go_on = threading.Event(), threading.Event()

    def slow_first(m, previous=None):
        data = real(m, previous=previous)
        if not reading.is_set():
            reading.set()
            go_on.wait(5)
        return data

    monkeypatch.setattr(selectors, "board_data", slow_first)
    early = []
    pushing = threading.Thread(target=lambda: early.append(boardcache.board_data_for(match.pk)))
    pushing.start()
    assert reading.wait(5)
    services.table_connection_open(match_id=match.pk, user=alice, token="alice")
    boardcache.stale(match.pk)  # what the socket does once its row committed
    forced = []
    rendering = threading.Thread(target=lambda: forced.append(boardcache.board_data_for(match.pk, fresh=True)))
    rendering.start()
    time.sleep(0.05)
    go_on.set()
    pushing.join(5)
    rendering.join(5)
    assert {s.user_id: bool(s.online) for s in early[0].seats}[alice.pk] is False  # the load in flight
    assert {s.user_id: bool(s.online) for s in forced[0].seats}[alice.pk] is True
    later = boardcache.board_data_for(match.pk, min_version=match.version)
    assert {s.user_id: bool(s.online) for s in later.seats}[alice.pk] is True


def test_a_tables_sockets_are_told_of_a_move_once_its_board_is_kept(make_user, monkeypatch):
    """The move's hooks run in order on its thread: were the sockets told first, their pushes (on the
    event loop) would race the hand-off and load the version again, on a worker thread."""
    match, alice, bob = started(make_user)
    boardcache.board_data_for(match.pk)
    told = []

    def send_now(group, message):
        if message.get("type") == "table.changed":
            told.append((message["version"], boardcache.peek(match.pk, min_version=message["version"])))

    monkeypatch.setattr(realtime, "send_now", send_now)
    moved = [_move(match.pk, alice, bob).version for _ in range(3)]
    assert [version for version, _kept in told] == moved
    assert all(kept is not None and kept.version == version for version, kept in told)


@pytest.fixture
def handed(monkeypatch):
    """The other processes' shared store (``plumbing.handoff``), in memory: key -> bytes, and the keys read."""
    store_ = {"reads": []}

    async def get(key):
        store_["reads"].append(key)
        return store_.get(key)

    monkeypatch.setattr(handoff, "enabled", lambda: True)
    monkeypatch.setattr(handoff, "put", lambda key, value, seconds: store_.__setitem__(key, value))
    monkeypatch.setattr(handoff, "get", get)
    return store_


def _in_another_process(match_id, alice, bob):
    """A move made by another process: what it handed over is there, but this process keeps only the
    version before it (as a process whose sockets watch the table and did not make the move)."""
    base = boardcache.latest(match_id)
    moved = _move(match_id, alice, bob)
    with boardcache._lock:
        boardcache._entries.clear()
    boardcache.remember(base)
    return moved


def test_a_version_made_in_another_process_is_taken_from_what_it_handed_over_and_shows_what_a_load_shows(
    make_user, counted_loads, handed, django_assert_num_queries
):
    match, alice, bob = started(make_user)
    carol = make_user("carol")
    first = boardcache.board_data_for(match.pk).version
    for _ in range(4):
        moved = _in_another_process(match.pk, alice, bob)
        assert boardcache.peek(match.pk, min_version=moved.version) is None
        with django_assert_num_queries(0):  # on the event loop: no database
            asyncio.run(boardcache.take_handed(match.pk, moved.version))
        kept = boardcache.peek(match.pk, min_version=moved.version)
        fresh = full_load(Match.objects.get(pk=match.pk))
        assert kept is not None and kept.version == fresh.version == moved.version
        assert kept.events == fresh.events
        assert [(s.index, s.user_id, s.online) for s in kept.seats] == [
            (s.index, s.user_id, s.online) for s in fresh.seats
        ]
        viewers = [alice, bob, carol, AnonymousUser()]
        with django_assert_num_queries(0):
            kept_boards = _boards(kept, viewers)
        assert kept_boards == _boards(fresh, viewers)
    assert counted_loads == [first]  # only the first board was read from the database


def test_nothing_is_taken_without_the_version_before_it_or_what_was_handed_over(make_user, counted_loads, handed):
    match, alice, bob = started(make_user)
    boardcache.board_data_for(match.pk)
    first = _in_another_process(match.pk, alice, bob)
    second = _in_another_process(match.pk, alice, bob)  # this process keeps the version before ``first``
    asyncio.run(boardcache.take_handed(match.pk, second.version))
    assert handed["reads"] == []  # a base two versions old: nothing read
    assert boardcache.latest(match.pk).version == first.version - 1
    del handed[f"version:{match.pk}:{first.version}"]  # gone from Redis (expired, evicted)
    asyncio.run(boardcache.take_handed(match.pk, first.version))
    assert handed["reads"] == [f"version:{match.pk}:{first.version}"]
    assert boardcache.latest(match.pk).version == first.version - 1  # the push loads it then
    data = boardcache.board_data_for(match.pk, min_version=second.version)
    assert data.version == second.version


def test_a_version_handed_over_by_other_code_is_not_taken(make_user, handed, caplog):
    """A deploy under way: a process with other columns packed it; it is left to the push's load."""
    match, alice, bob = started(make_user)
    boardcache.board_data_for(match.pk)
    moved = _in_another_process(match.pk, alice, bob)
    key = f"version:{match.pk}:{moved.version}"
    _mark, *rest = pickle.loads(handed[key])
    handed[key] = pickle.dumps(("other code's mark", *rest))  # as the packer's columns would mark it
    asyncio.run(boardcache.take_handed(match.pk, moved.version))
    assert boardcache.latest(match.pk).version == moved.version - 1
    assert "could not be taken" in caplog.text


def test_the_sockets_of_one_process_read_what_was_handed_over_once(make_user, handed):
    match, alice, bob = started(make_user)
    boardcache.board_data_for(match.pk)
    moved = _in_another_process(match.pk, alice, bob)

    async def three_sockets():
        await asyncio.gather(*(boardcache.take_handed(match.pk, moved.version) for _ in range(3)))

    asyncio.run(three_sockets())
    assert handed["reads"] == [f"version:{match.pk}:{moved.version}"]
    assert boardcache.peek(match.pk, min_version=moved.version).version == moved.version


def test_a_version_handed_over_after_a_dot_changed_here_serves_no_push(make_user, handed):
    """The move's seats (who is online) were read before a seat's socket here came or went, which this
    process heard of first (``table.presence``): the version is kept as a base only, and the push loads it."""
    match, alice, bob = started(make_user)
    boardcache.board_data_for(match.pk)
    moved = _in_another_process(match.pk, alice, bob)
    boardcache.stale(match.pk)  # a seat's dot changed, heard here before the move's table.changed
    asyncio.run(boardcache.take_handed(match.pk, moved.version))
    assert boardcache.peek(match.pk, min_version=moved.version) is None
    assert boardcache.latest(match.pk).version == moved.version  # a base for the push's load, in one query
    later = _in_another_process(match.pk, alice, bob)  # no dot changed since: taken and served
    asyncio.run(boardcache.take_handed(match.pk, later.version))
    assert boardcache.peek(match.pk, min_version=later.version).version == later.version
