"""Turn-based tables (games/services/turnbased.py, docs/turn-based.md): a time per move of hours or
days, the deadline kept in the match row, the notices (``signals.your_move``, ``move_reminder``) sent
once each after the commit, and a restart that loses nothing.

The clock is moved, never slept: ``django.utils.timezone.now`` is replaced by a clock the test sets
(every service reads the time through it), and the clock steps are given that time.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from games import services, signals
from games.live.clockloop import Clock
from games.models import MOVE_TIME_CHOICES, NOTICE_HOUR, NOTICE_QUARTER, NOTICE_YOUR_MOVE, Match, MatchStatus, Seat
from games.services import turnbased
from games.variants import spec_for

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def move(self, delta: timedelta) -> datetime:
        self.now += delta
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock(T0)
    monkeypatch.setattr(timezone, "now", fake)
    return fake


@pytest.fixture
def notices():
    """Every your_move / move_reminder sent: (kind, time sent, kwargs)."""
    got: list[tuple[str, datetime, dict]] = []

    def on_move(sender, signal, **kw):
        got.append(("your_move", timezone.now(), kw))

    def on_reminder(sender, signal, **kw):
        got.append(("reminder", timezone.now(), kw))

    signals.your_move.connect(on_move, weak=False, dispatch_uid="test-your-move")
    signals.move_reminder.connect(on_reminder, weak=False, dispatch_uid="test-reminder")
    yield got
    signals.your_move.disconnect(dispatch_uid="test-your-move")
    signals.move_reminder.disconnect(dispatch_uid="test-reminder")


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run the on-commit callbacks (the notices) of what runs in ``with commits():``."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def two_player_table(host, guest, *, move_time=86400, variant="manipulation", seats=2) -> Match:
    match = services.match_create(host=host, variant=variant, seats_count=seats, move_time=move_time)
    services.seat_join(match_id=match.pk, user=guest)
    services.match_start(match_id=match.pk, user=host)
    return Match.objects.get(pk=match.pk)


def acting_seat(match: Match) -> Seat | None:
    match = Match.objects.get(pk=match.pk)
    if match.status != MatchStatus.PLAYING:
        return None
    spec = spec_for(match.variant)
    acting = spec.acting_seats(spec.load(match.state["round"]))
    return Seat.objects.select_related("user").get(match=match, index=acting[0]) if acting else None


def play_turn(match: Match, user) -> None:
    """``user`` plays their turn with the compulsory moves (draw, end the turn), as a person would."""
    while True:
        match = Match.objects.get(pk=match.pk)
        seat = acting_seat(match)
        if seat is None or seat.user_id != user.pk:
            return
        spec = spec_for(match.variant)
        action = spec.timeout_actions(spec.load(match.state["round"]), seat.index)[0]
        services.turn_submit(match_id=match.pk, user=user, action=action, expected_version=match.version)


def tick(commits, now) -> int:
    """The clock's due steps at ``now`` (the test's clock is moved there first: a step's writes read it)."""
    if isinstance(timezone.now, FakeClock):
        timezone.now.now = max(timezone.now.now, now)
    with commits():
        return services.tick_due(now=now)


def test_the_first_turn_sends_your_move_once_and_stores_its_deadline_and_reminders(alice, bob, clock, notices, commits):
    with commits():
        match = two_player_table(alice, bob)
    first = acting_seat(match)
    assert first is not None and first.user_id in (alice.pk, bob.pk)
    assert match.move_time == 86400 and match.turn_timer == 0
    assert match.turn_seat == first.index
    assert match.turn_deadline == T0 + DAY
    assert match.deadline == T0 + 18 * HOUR  # the reminder at a quarter of the day left
    assert match.turn_notices == NOTICE_YOUR_MOVE
    assert notices == [
        ("your_move", T0, {"match_id": match.pk, "user_id": first.user_id, "deadline": T0 + DAY, "turn_based": True})
    ]


def test_a_simulated_week_between_two_players(alice, bob, clock, notices, commits):
    """One player answers within two hours, the other never: every notice at its time and once,
    the real-time rule at each deadline (compulsory moves, a missed turn; the autopilot after three),
    and a restart half-way (a new clock, nothing kept in the process) that loses nothing."""
    with commits():
        match = two_player_table(alice, bob)
    prompt, absent = (alice, bob) if acting_seat(match).user_id == alice.pk else (bob, alice)
    absent_seat = Seat.objects.get(match=match, user=absent).index
    restarted = False
    steps = 0
    while clock.now < T0 + 7 * DAY:
        now = clock.move(timedelta(minutes=15))
        if not restarted and now >= T0 + 3 * DAY + 5 * HOUR:
            # A restart: a new process's clock (its own step loop), nothing carried over but the database.
            restarted = True
            fresh = Clock(
                workers=1, interval=0.25, step=lambda on_claim, now=now: services.clock_step(now=now, on_claim=on_claim)
            )
            with commits():
                done, _idle = fresh._steps(on_claim=lambda: None)
            steps += len(done)
            fresh.executor.shutdown(wait=False)
        steps += tick(commits, now)
        seat = acting_seat(match)
        m = Match.objects.get(pk=match.pk)
        if seat is not None and seat.user_id == prompt.pk and now - m.turn_started_at >= 2 * HOUR:
            with commits():
                play_turn(match, prompt)
    assert restarted and steps > 0

    moves = [n for n in notices if n[0] == "your_move"]
    reminders = [n for n in notices if n[0] == "reminder"]
    # Every your_move is for a distinct turn; the prompt player never needed a reminder.
    assert len({(kw["user_id"], kw["deadline"]) for _k, _t, kw in moves}) == len(moves)
    assert all(kw["user_id"] == absent.pk for _k, _t, kw in reminders)
    # The absent player's turns: two reminders each, at 6 h and at 1 h before its deadline, once each.
    absent_turns = [kw["deadline"] for _k, _t, kw in moves if kw["user_id"] == absent.pk]
    missed = Seat.objects.get(match=match, user=absent)
    assert missed.autopilot
    assert len(absent_turns) == 3  # then the autopilot plays for them: no more turns of theirs to wait for
    expected = sorted([(d - 6 * HOUR, 6 * HOUR, d) for d in absent_turns] + [(d - HOUR, HOUR, d) for d in absent_turns])
    assert [(t, kw["left"], kw["deadline"]) for _k, t, kw in reminders] == expected
    # Each deadline applied the real-time rule: the absent player's compulsory moves, not a bot's.
    timed_out = m.events.filter(seat=absent_seat, by_bot=False, kind="action")
    # (Manipulation's compulsory move is the draw: three draws without a meld end a turn.)
    assert {e.action["type"] for e in timed_out} == {"draw"}
    assert missed.missed_turns == 3
    # After the autopilot took over, its moves came at once (no wait of a day) and the prompt player was told.
    bot_moves = list(m.events.filter(seat=absent_seat, by_bot=True).order_by("seq"))
    assert bot_moves
    prompt_moves = [t for _k, t, kw in moves if kw["user_id"] == prompt.pk]
    assert len(prompt_moves) >= 4


def test_a_restart_between_the_reminders_resends_nothing_and_loses_no_deadline(alice, bob, clock, notices, commits):
    with commits():
        match = two_player_table(alice, bob, move_time=12 * 3600)
    first = acting_seat(match)
    assert match.deadline == T0 + 9 * HOUR  # 3 h left of 12
    assert tick(commits, T0 + 9 * HOUR) == 1
    # The process dies; a new one reads only the database.
    row = Match.objects.get(pk=match.pk)
    assert row.turn_notices == NOTICE_YOUR_MOVE | NOTICE_QUARTER
    assert row.deadline == T0 + 11 * HOUR and row.turn_deadline == T0 + 12 * HOUR
    clock.now = T0 + 9 * HOUR + timedelta(minutes=1)
    for _ in range(3):
        tick(commits, clock.now)
    assert [n[0] for n in notices] == ["your_move", "reminder"]
    assert tick(commits, T0 + 11 * HOUR) == 1
    assert tick(commits, T0 + 11 * HOUR + timedelta(minutes=30)) == 0
    reminders = [kw for kind, _t, kw in notices if kind == "reminder"]
    assert [r["left"] for r in reminders] == [3 * HOUR, HOUR]
    assert {r["user_id"] for r in reminders} == {first.user_id}
    # At the deadline the turn is played by the rule and passes on.
    assert tick(commits, T0 + 12 * HOUR) == 1
    after = Match.objects.get(pk=match.pk)
    assert Seat.objects.get(match=match, index=first.index).missed_turns == 1
    assert after.turn_seat != first.index
    assert notices[-1][0] == "your_move" and notices[-1][2]["deadline"] == T0 + 24 * HOUR


def test_a_server_down_past_both_reminders_sends_one_and_keeps_the_deadline(alice, bob, clock, notices, commits):
    """After a long stop only the latest reminder goes out (one notice, not a burst); the deadline holds."""
    with commits():
        match = two_player_table(alice, bob, move_time=3 * 86400)
    deadline = T0 + 3 * DAY
    assert tick(commits, deadline - 30 * timedelta(minutes=1)) == 1
    row = Match.objects.get(pk=match.pk)
    assert row.turn_notices == NOTICE_YOUR_MOVE | NOTICE_QUARTER | NOTICE_HOUR
    assert row.deadline == deadline
    assert [kw["left"] for kind, _t, kw in notices if kind == "reminder"] == [timedelta(minutes=30)]


def test_an_hour_per_move_has_one_reminder_at_a_quarter_of_the_time(alice, bob, clock, notices, commits):
    with commits():
        match = two_player_table(alice, bob, move_time=3600)
    assert turnbased.reminder_times(match) == [(NOTICE_QUARTER, T0 + timedelta(minutes=45))]
    assert tick(commits, T0 + timedelta(minutes=45)) == 1
    assert Match.objects.get(pk=match.pk).deadline == T0 + HOUR


def test_a_player_who_closes_the_tab_is_not_hurried(alice, bob, clock, notices, commits):
    """Being away is normal at a turn-based table: no disconnect grace, the deadline stays a day."""
    with commits():
        match = two_player_table(alice, bob)
    seat = acting_seat(match)
    user = alice if seat.user_id == alice.pk else bob
    services.table_connection_open(match_id=match.pk, user=user, token="t1")
    clock.move(timedelta(minutes=5))
    services.table_connection_close(token="t1")
    clock.move(timedelta(minutes=5))
    services.presence_sweep(now=clock.now)
    row = Match.objects.get(pk=match.pk)
    assert row.turn_deadline == T0 + DAY and row.deadline == T0 + 18 * HOUR
    assert tick(commits, T0 + 2 * HOUR) == 0
    assert Seat.objects.get(pk=seat.pk).missed_turns == 0


@pytest.mark.parametrize(
    ("variant", "seats"),
    [("manipulation", 5), ("gin_box", 3), ("gin", 2), ("oklahoma", 2), ("hollywood", 2)],
)
def test_every_variant_can_be_turn_based_and_its_bots_play_at_once(alice, clock, notices, commits, variant, seats):
    """Bots fill every other seat: they move at once, and the human hears of each of their own turns
    (in box Gin the captain, or the box: the seat to act; the advisor never acts)."""
    with commits():
        match = services.match_create(
            host=alice, variant=variant, seats_count=seats, bots=seats - 1, move_time=43200, options={}
        )
        # A match seed whose first hand gives alice a seat that acts (box Gin's advisor never does).
        spec = spec_for(variant)
        rules = spec.rules(match.options, seats)
        seed = next(
            s for s in range(100) if spec.seat_roles(spec.start(rules, seats, random.Random(s)), seats)[0] != "advisor"
        )
        Match.objects.filter(pk=match.pk).update(seed=seed)
        services.match_start(match_id=match.pk, user=alice)
    for _ in range(40):  # the bots' turns, each due at once
        row = Match.objects.get(pk=match.pk)
        if row.turn_seat is not None:
            break
        assert row.deadline is not None and row.deadline <= clock.now
        tick(commits, clock.now)
    row = Match.objects.get(pk=match.pk)
    mine = Seat.objects.get(match=match, user=alice)
    assert row.turn_seat == mine.index and row.turn_deadline == T0 + 12 * HOUR
    if variant == "gin_box":
        assert mine.role in ("box", "captain")
    assert [(k, kw["user_id"]) for k, _t, kw in notices] == [("your_move", alice.pk)]


@pytest.mark.parametrize(
    "value",
    [
        "²",
        "٣٦٠٠",
        "３６００",
        "3600.0",
        " 3600",
        "-3600",
        "60",
        "86401",
        str(10**100),
        "1e5",
        "\x003600",
        True,
        3601,
        None,
    ],
)
def test_an_absurd_time_per_move_is_refused(alice, value):
    with pytest.raises(services.ActionRefused) as refused:
        services.match_create(host=alice, variant="manipulation", seats_count=2, move_time=value)
    assert refused.value.code == "bad_move_time"
    assert not Match.objects.exists()


@pytest.mark.parametrize("value", [*MOVE_TIME_CHOICES, *(str(v) for v in MOVE_TIME_CHOICES)])
def test_each_time_per_move_is_accepted(alice, value):
    match = services.match_create(host=alice, variant="gin", seats_count=2, move_time=value, turn_timer=60)
    assert match.move_time == int(value) and match.turn_timer == 0


def test_the_cap_on_turn_based_games_refuses_one_more(alice, bob, settings):
    settings.RUMMYHUB_TURN_BASED_MAX = 2
    services.match_create(host=alice, variant="gin", seats_count=2, move_time=3600)
    theirs = services.match_create(host=bob, variant="gin", seats_count=2, move_time=3600)
    services.seat_join(match_id=theirs.pk, user=alice)
    with pytest.raises(services.ActionRefused) as refused:
        services.match_create(host=alice, variant="gin", seats_count=2, move_time=3600)
    assert refused.value.code == "too_many_turn_based"
    assert "2 turn-based games" in refused.value.message
    third = services.match_create(host=bob, variant="gin", seats_count=2, move_time=86400)
    with pytest.raises(services.ActionRefused):
        services.seat_join(match_id=third.pk, user=alice)
    # Real-time tables do not count, and a finished game frees its place.
    services.match_create(host=alice, variant="gin", seats_count=2)
    Match.objects.filter(pk=theirs.pk).update(status=MatchStatus.FINISHED)
    services.seat_join(match_id=third.pk, user=alice)
