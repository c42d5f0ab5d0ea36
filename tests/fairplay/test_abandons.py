"""Abandons: a seat a bot finished counts once, is rated last, and the rule warns then bars from rated
tables for escalating periods (the clock moved by the ``now`` given, never slept); staff lift a bar."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from fairplay import selectors, services
from fairplay.models import Abandon, AuditAction, AuditEntry, Sanction, SanctionKind
from games import services as game_services
from games.engine import bots as engine_bots
from games.history import ratings
from games.history.models import RatedMatch
from games.models import Match, MatchStatus, Seat
from games.variants import spec_for
from tests.fairplay.support import finished_match

pytestmark = pytest.mark.django_db


def test_a_match_finished_by_a_bot_for_a_gone_player_is_their_abandon_and_rated_last(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    settings.RUMMYHUB_FIXED_SEED = "7"
    match = game_services.match_create(
        host=alice, variant="manipulation", seats_count=3, bots=1, options={"game_target": 40}
    )
    game_services.seat_join(match_id=match.pk, user=bob)
    game_services.match_start(match_id=match.pk, user=alice)
    # Bob misses three turns in a row: a bot plays his seat (games.services.clock) until the end.
    Seat.objects.filter(match=match, user=bob).update(autopilot=True, missed_turns=3)
    for _ in range(5000):
        with django_capture_on_commit_callbacks(execute=True):
            game_services.run_until_human(match_id=match.pk)
        match.refresh_from_db()
        if match.status == MatchStatus.FINISHED:
            break
        spec = spec_for(match.variant)
        state = spec.load(match.state["round"])
        seat = spec.acting_seats(state)[0]
        action = engine_bots.choose_action(state, seat, policy="greedy")
        with django_capture_on_commit_callbacks(execute=True):
            game_services.turn_submit(match_id=match.pk, user=alice, action=action, expected_version=match.version)
    assert match.status == MatchStatus.FINISHED
    seats = {s.user_id: s for s in Seat.objects.filter(match=match)}
    assert seats[bob.pk].abandoned and not seats[alice.pk].abandoned
    # Heard through games.signals.match_finished: one abandon, counted once however often it is asked.
    assert list(Abandon.objects.filter(match=match).values_list("user_id", flat=True)) == [bob.pk]
    services.abandons_record(match_id=match.pk)
    assert Abandon.objects.filter(match=match).count() == 1
    # Rated last: bob's rank is below every seat that stayed, whatever his total.
    rated = RatedMatch.objects.get(match=match)
    human_seats = sorted(Seat.objects.filter(match=match), key=lambda s: s.index)
    ranks = ratings.ranks_with_abandons([s.final_total for s in human_seats], [s.abandoned for s in human_seats])
    assert ranks[seats[bob.pk].index] == 3
    assert len(rated.changes) == 3
    assert selectors.games_figures(player=bob) == {"finished": 0, "abandoned": 1}
    assert selectors.games_figures(player=alice) == {"finished": 1, "abandoned": 0}


def test_ranks_with_abandons_put_every_abandoner_last_tied():
    assert ratings.ranks_with_abandons([50, 90, 10, 70], [False, True, False, True]) == [1, 3, 2, 3]
    assert ratings.ranks_with_abandons([5, 5, 1], [False, False, False]) == [1, 1, 3]


def test_a_table_of_bots_is_left_at_no_ones_cost(alice):
    match = finished_match([alice], at=timezone.now(), abandoned=[alice])
    assert services.abandons_record(match_id=match.pk) == []


def test_the_rule_warns_then_bars_for_longer_each_time_and_forgets_after_the_window(alice, bob, carol, settings):
    settings.RUMMYHUB_ABANDON_WINDOW_DAYS = 30
    settings.RUMMYHUB_ABANDON_WARN_AT = 2
    settings.RUMMYHUB_ABANDON_BAR_HOURS = [24, 72, 168]
    start = timezone.now() - timedelta(days=100)

    def abandon(at):
        match = finished_match([alice, bob], at=at, abandoned=[alice])
        services.abandons_record(match_id=match.pk, now=at)

    abandon(start)
    assert not Sanction.objects.filter(user=alice).exists()
    abandon(start + timedelta(hours=1))
    warning = Sanction.objects.get(user=alice)
    assert warning.kind == SanctionKind.WARNING and warning.by_rule
    assert (
        selectors.sanction_in_force(user_id=alice.pk, kind=SanctionKind.RATED_BAR, now=start + timedelta(hours=2))
        is None
    )

    bars = []
    for n, hours in enumerate([24, 72, 168, 168]):
        at = start + timedelta(days=1 + n * 8)  # each one after the last bar ended
        abandon(at)
        bar = selectors.sanction_in_force(user_id=alice.pk, kind=SanctionKind.RATED_BAR, now=at + timedelta(minutes=1))
        assert bar is not None and bar.ends_at - at == timedelta(hours=hours)
        assert (
            selectors.sanction_in_force(
                user_id=alice.pk, kind=SanctionKind.RATED_BAR, now=at + timedelta(hours=hours, seconds=1)
            )
            is None
        )
        bars.append(bar)
    assert [e.action for e in AuditEntry.objects.filter(subject=alice).order_by("at")] == [
        AuditAction.RULE_WARN,
        *[AuditAction.RULE_BAR] * 4,
    ]
    # Forty days later the window holds one abandon again: nothing happens.
    abandon(start + timedelta(days=1 + 3 * 8 + 40))
    assert Sanction.objects.filter(user=alice).count() == 5


def test_a_bar_keeps_a_player_from_rated_tables_not_practice_ones_until_staff_lift_it(
    alice, bob, carol, make_user, settings
):
    settings.RUMMYHUB_ABANDON_WARN_AT = 1
    settings.RUMMYHUB_ABANDON_BAR_HOURS = [48]
    now = timezone.now()
    for hours in (3, 2):  # the first warns, the second bars (48 hours from an hour ago)
        match = finished_match([alice, bob], at=now - timedelta(hours=hours), abandoned=[alice])
        services.abandons_record(match_id=match.pk, now=now - timedelta(hours=hours))
    rated = game_services.match_create(host=bob, variant="manipulation", seats_count=3)
    with pytest.raises(game_services.ActionRefused) as refused:
        game_services.seat_join(match_id=rated.pk, user=alice)
    assert refused.value.code == "rated_bar" and "rated tables (until" in refused.value.message
    with pytest.raises(game_services.ActionRefused):
        game_services.match_create(host=alice, variant="manipulation", seats_count=3, bots=2)
    practice = game_services.match_create(host=bob, variant="manipulation", seats_count=3, practice=True)
    game_services.seat_join(match_id=practice.pk, user=alice)  # practice tables stay open
    staff = make_user("moderator", is_staff=True)
    bar = Sanction.objects.get(user=alice, kind=SanctionKind.RATED_BAR)
    with pytest.raises(services.Refused):
        services.sanction_lift(sanction_id=bar.pk, staff=carol)  # not staff
    services.sanction_lift(sanction_id=bar.pk, staff=staff, note="first time, forgiven")
    game_services.seat_join(match_id=rated.pk, user=alice)
    entry = AuditEntry.objects.get(action=AuditAction.LIFT)
    assert entry.actor == staff and entry.subject == alice and entry.sanction == bar


def test_the_profile_shows_games_finished(client, alice, bob):
    finished_match([alice, bob], at=timezone.now())
    finished_match([alice, bob], at=timezone.now(), abandoned=[bob])
    page = client.get(f"/players/{bob.username}/").content.decode()
    assert "1 game finished" in page and "1 left to a bot" in page
    assert "2 games finished" in client.get(f"/players/{alice.username}/").content.decode()
    assert Match.objects.count() == 2


def test_the_lobby_tells_a_player_of_their_warning_then_of_their_bar(client, alice, bob, settings):
    settings.RUMMYHUB_ABANDON_WARN_AT = 2
    settings.RUMMYHUB_ABANDON_BAR_HOURS = [24]
    client.force_login(alice)
    now = timezone.now()
    notices = []
    for minutes in (30, 20, 10):
        match = finished_match([alice, bob], at=now - timedelta(minutes=minutes), abandoned=[alice])
        services.abandons_record(match_id=match.pk, now=now - timedelta(minutes=minutes))
        page = client.get("/play/").content.decode()
        notices.append("data-fair-play-notice" in page)
        if minutes == 20:
            assert "You have a warning: You left several matches for a bot to finish." in page
    assert notices == [False, True, True]
    assert "You are barred from rated tables (until" in page
