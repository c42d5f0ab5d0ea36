"""Table services: one transaction per intent, version bump + broadcast on success, nothing on refusal."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.engine import bots as engine_bots
from games.engine.errors import IllegalMove, RulesError
from games.models import Event, Match, MatchStatus, Round, RoundScore, Seat
from games.replay import replay_current
from games.services import write
from games.variants import spec_for
from rummyhub import realtime

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """Every channel-layer message the services send (after commit)."""
    messages: list[tuple[str, dict]] = []
    monkeypatch.setattr(realtime, "send_now", lambda group, message: messages.append((group, message)))
    return messages


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


def started_match(host, *, seats=2, bots=1, others=(), seed="7", settings=None, **options) -> Match:
    if settings is not None:
        settings.RUMMYHUB_FIXED_SEED = seed
    match = services.match_create(host=host, variant="manipulation", seats_count=seats, options=options, bots=bots)
    for user in others:
        services.seat_join(match_id=match.pk, user=user)
    services.match_start(match_id=match.pk, user=host)
    return Match.objects.get(pk=match.pk)


def current_state(match: Match):
    return spec_for(match.variant).load(Match.objects.get(pk=match.pk).state["round"])


def test_create_join_start_bumps_version_and_broadcasts(alice, bob, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    assert [s.user for s in match.seats.all()] == [alice, None, None]
    assert ("lobby", {"type": "lobby.changed", "id": match.pk}) in sent
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_join(match_id=match.pk, user=bob)
        services.seat_add_bot(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.version == 2
    table_msgs = [m for g, m in sent if g == f"table-{match.pk}"]
    assert table_msgs[-1] == {"type": "table.changed", "id": match.pk, "version": 2}
    # No card, hand or seed in any channel-layer message.
    with django_capture_on_commit_callbacks(execute=True):
        services.match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING and match.round_number == 1
    for _group, message in sent:
        assert set(message) <= {"type", "id", "version", "message"}


def test_only_host_starts_and_every_seat_must_be_filled(alice, bob):
    match = services.match_create(host=alice, variant="manipulation", seats_count=3)
    services.seat_join(match_id=match.pk, user=bob)
    with pytest.raises(services.ActionRefused) as exc:
        services.match_start(match_id=match.pk, user=bob)
    assert exc.value.code == "not_host"
    with pytest.raises(services.ActionRefused) as exc:
        services.match_start(match_id=match.pk, user=alice)
    assert exc.value.code == "seats_free"


def test_bad_options_are_refused_with_the_engines_reason(alice):
    with pytest.raises(services.ActionRefused) as exc:
        services.match_create(host=alice, variant="manipulation", seats_count=2, options={"knock_limit": 99})
    assert exc.value.code == "bad_option" and "knock_limit" in exc.value.message
    with pytest.raises(services.ActionRefused):
        services.match_create(host=alice, variant="manipulation", seats_count=6)
    assert not Match.objects.exists()


def test_private_table_needs_the_invite(alice, bob):
    match = services.match_create(host=alice, variant="manipulation", seats_count=2, is_private=True)
    with pytest.raises(services.ActionRefused) as exc:
        services.seat_join(match_id=match.pk, user=bob)
    assert exc.value.code == "private"
    services.seat_join(match_id=match.pk, user=bob, invite_token=match.invite_token)
    assert Seat.objects.get(match=match, index=1).user == bob


def test_refused_moves_change_nothing_and_broadcast_nothing(alice, bob, sent, settings,
                                                            django_capture_on_commit_callbacks):
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    state = current_state(match)
    mover = state.seat_to_act
    users = {0: alice, 1: bob}
    other = users[1 - mover]
    version, events = match.version, Event.objects.count()
    sent.clear()
    refusals = [
        (other, {"type": "draw"}, match.version, IllegalMove),  # out of turn
        (users[mover], {"type": "draw"}, match.version - 1, services.StaleVersion),  # stale version
        (users[mover], {"type": "meld", "table": [["ZZ.9", "AS.0", "2S.0"]]}, match.version, RulesError),  # forged
        (users[mover], {"type": "knock"}, match.version, IllegalMove),  # before drawing
        (users[mover], {"type": "teleport"}, match.version, RulesError),  # malformed
        (users[mover], {"type": "meld", "table": "x" * 10_000}, match.version, RulesError),  # junk payload
    ]
    for user, action, expected, error in refusals:
        with django_capture_on_commit_callbacks(execute=True), pytest.raises(error):
            services.turn_submit(match_id=match.pk, user=user, action=action, expected_version=expected)
    match.refresh_from_db()
    assert match.version == version
    assert Event.objects.count() == events
    assert current_state(match) == state
    assert sent == []


def test_a_card_from_another_hand_is_refused(alice, bob, settings):
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    state = current_state(match)
    mover = state.seat_to_act
    user = alice if mover == 0 else bob
    services.turn_submit(match_id=match.pk, user=user, action={"type": "draw"}, expected_version=match.version)
    match.refresh_from_db()
    theirs = [c.id for c in current_state(match).hands[1 - mover][:3]]
    with pytest.raises(RulesError):
        services.turn_submit(
            match_id=match.pk, user=user, action={"type": "meld", "table": [theirs]}, expected_version=match.version
        )


def test_a_whole_match_against_bots_is_scored_and_replayable(alice, settings):
    """The human plays with the basic bot's choices; every round is stored and the match ends (B.7, B.8)."""
    settings.RUMMYHUB_BOT_DELAY = 0
    match = started_match(alice, seats=3, bots=2, settings=settings, game_target=60)
    for _ in range(5000):
        services.run_until_human(match_id=match.pk)
        match.refresh_from_db()
        if match.status == MatchStatus.FINISHED:
            break
        assert match.status == MatchStatus.PLAYING
        state = current_state(match)
        assert state.seat_to_act == 0
        action = engine_bots.choose_action(state, 0, policy="basic")
        services.turn_submit(match_id=match.pk, user=alice, action=action, expected_version=match.version)
        match.refresh_from_db()
        assert replay_current(match) == match.state["round"]
    assert match.status == MatchStatus.FINISHED
    rounds = list(Round.objects.filter(match=match))
    assert len(rounds) == match.round_number >= 1
    tally = match.state["tally"]
    for seat in range(3):
        assert sum(RoundScore.objects.filter(round__match=match, seat=seat).values_list("score", flat=True)) == (
            tally["scores"][seat]
        )
    assert max(tally["scores"]) >= 60
    seats = list(Seat.objects.filter(match=match))
    assert all(s.final_total is not None for s in seats)
    assert any(s.is_winner for s in seats)
    winners_total = max(s.final_total for s in seats)
    assert all(s.final_total == winners_total for s in seats if s.is_winner)


def test_bots_pace_and_next_round_ready(alice, settings):
    settings.RUMMYHUB_BOT_DELAY = 0
    match = started_match(alice, seats=2, bots=1, settings=settings)
    # Play until the first round ends.
    for _ in range(2000):
        services.run_until_human(match_id=match.pk, deal=False)
        match.refresh_from_db()
        if match.status != MatchStatus.PLAYING:
            break
        state = current_state(match)
        action = engine_bots.choose_action(state, 0, policy="basic")
        services.turn_submit(match_id=match.pk, user=alice, action=action, expected_version=match.version)
    match.refresh_from_db()
    assert match.status in (MatchStatus.BETWEEN_ROUNDS, MatchStatus.FINISHED)
    if match.status == MatchStatus.BETWEEN_ROUNDS:
        assert services.pending_step(match) == "deal"
        services.round_ready(match_id=match.pk, user=alice)
        match.refresh_from_db()
        assert match.round_number == 2 and match.status == MatchStatus.PLAYING


def test_timer_expiry_plays_compulsory_draws_and_autopilot_after_three(alice, bob, settings):
    from datetime import timedelta

    from django.utils import timezone

    match = started_match(alice, bots=0, others=[bob], settings=settings)
    Match.objects.filter(pk=match.pk).update(turn_timer=30)
    for missed in range(1, 4):
        match.refresh_from_db()
        write._schedule(match, spec_for(match.variant))
        match.save(update_fields=["deadline"])
        state = current_state(match)
        mover = state.seat_to_act
        hand_before = len(state.hands[mover])
        assert services.match_tick(match_id=match.pk, now=timezone.now() + timedelta(seconds=31))
        after = current_state(match)
        assert after.seat_to_act != mover or after.phase == "over"
        assert len(after.hands[mover]) == hand_before + 3  # three compulsory draws, no meld (B.5)
        seat = Seat.objects.get(match=match, index=mover)
        if missed < 3 and mover == 0:
            assert not seat.autopilot


def test_two_concurrent_submits_apply_exactly_one(alice, bob, settings, transactional_db):
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    mover = current_state(match).seat_to_act
    user = alice if mover == 0 else bob
    results: list[str] = []
    barrier = threading.Barrier(2)

    def submit():
        barrier.wait()
        try:
            services.turn_submit(match_id=match.pk, user=user, action={"type": "draw"}, expected_version=match.version)
            results.append("ok")
        except services.StaleVersion:
            results.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["ok", "stale"]
    match.refresh_from_db()
    assert Event.objects.filter(match=match, kind="action").count() == 1
    assert len(current_state(match).hands[mover]) == 11


class _LockNotAvailable(Exception):
    sqlstate = "55P03"


def _db_error(message: str, cause: Exception | None = None):
    from django.db import OperationalError

    error = OperationalError(message)
    error.__cause__ = cause
    return error


def test_with_retry_runs_a_service_again_after_a_transient_failure_only(transactional_db):
    calls: list[int] = []

    def flaky(*, fail: int, error):
        calls.append(1)
        if len(calls) <= fail:
            raise error
        return "done"

    transient = _db_error("canceling statement due to lock timeout", _LockNotAvailable())
    assert services.with_retry(flaky, fail=2, error=transient) == "done"
    assert len(calls) == 3
    calls.clear()
    with pytest.raises(type(transient)):  # three failures in a row: the third one is raised
        services.with_retry(flaky, fail=3, error=transient)
    assert len(calls) == services.RETRY_ATTEMPTS
    calls.clear()
    with pytest.raises(type(transient)):  # not transient (the server is gone): raised at once
        services.with_retry(flaky, fail=1, error=_db_error("server closed the connection unexpectedly"))
    assert len(calls) == 1
    calls.clear()
    assert services.with_retry(flaky, fail=1, error=_db_error("database is locked")) == "done"  # SQLite
    assert len(calls) == 2
    calls.clear()
    from django.db import transaction

    with pytest.raises(type(transient)), transaction.atomic():  # inside an outer transaction: never
        services.with_retry(flaky, fail=1, error=transient)
    assert len(calls) == 1
    with pytest.raises(services.ActionRefused):  # a refusal is an answer, not a failure
        services.with_retry(services.seat_leave, match_id=10**9, user=None)


def test_a_move_that_waited_too_long_for_the_table_lock_is_run_again(alice, bob, settings, transactional_db):
    """A real lock wait cut short (PostgreSQL's lock_timeout) rolls back; the retry applies the move once."""
    if connection.vendor != "postgresql":
        pytest.skip("lock_timeout is PostgreSQL's; SQLite's busy timeout is covered above")
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    mover = current_state(match).seat_to_act
    user = alice if mover == 0 else bob
    locked, release = threading.Event(), threading.Event()

    def hold_the_table():
        from django.db import transaction

        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_table)
    holder.start()
    assert locked.wait(10)
    attempts: list[str] = []

    def submit(**kwargs):
        if attempts:  # the second attempt: the other transaction has ended meanwhile
            release.set()
            holder.join()
        attempts.append("try")
        return services.turn_submit(**kwargs)

    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '100ms'")
    try:
        services.with_retry(submit, match_id=match.pk, user=user, action={"type": "draw"},
                            expected_version=match.version)
    finally:
        release.set()
        holder.join()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = 0")
    assert attempts == ["try", "try"]
    assert Event.objects.filter(match=match, kind="action").count() == 1
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_move_is_four_statements_and_numbers_its_event_from_the_match(alice, bob, settings):
    """The hot path (a move at a table): the locked match, its seats, the event, the match."""
    from django.test.utils import CaptureQueriesContext

    match = started_match(alice, bots=0, others=[bob], settings=settings)
    mover = current_state(match).seat_to_act
    last = Event.objects.filter(match=match).order_by("-seq").first().seq
    assert match.event_seq == last
    with CaptureQueriesContext(connection) as queries:
        services.turn_submit(match_id=match.pk, user=alice if mover == 0 else bob, action={"type": "draw"},
                             expected_version=match.version)
    statements = [q["sql"].split()[0] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert statements == ["SELECT", "SELECT", "INSERT", "UPDATE"]  # the test's transaction adds a savepoint pair
    select = next(q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT"))
    assert ("FOR UPDATE" in select) == connection.features.has_select_for_update  # the match lock
    match.refresh_from_db()
    assert match.event_seq == last + 1
    assert list(Event.objects.filter(match=match).values_list("seq", flat=True)) == list(range(1, last + 2))


def test_the_migration_numbers_existing_matches_from_their_newest_event(alice, bob, settings):
    import importlib

    from django.apps import apps

    fill = importlib.import_module("games.migrations.0006_match_event_seq").fill
    match = started_match(alice, bots=0, others=[bob], settings=settings)
    empty = services.match_create(host=bob, variant="manipulation", seats_count=2)
    Match.objects.update(event_seq=0)
    fill(apps, None)
    assert Match.objects.get(pk=match.pk).event_seq == Event.objects.filter(match=match).count() > 0
    assert Match.objects.get(pk=empty.pk).event_seq == 0
