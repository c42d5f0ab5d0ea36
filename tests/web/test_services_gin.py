"""Gin tables through the same services: roles, hands, scores and the end of the game (RULES C, D)."""

from __future__ import annotations

import pytest

from games import services
from games.engine import bots as engine_bots
from games.models import Match, MatchStatus, Round, RoundScore, Seat
from games.replay import replay_current
from games.variants import spec_for

pytestmark = pytest.mark.django_db


def play_to_the_end(match: Match, humans: dict, max_moves: int = 20_000) -> Match:
    for _ in range(max_moves):
        services.run_until_human(match_id=match.pk)
        match.refresh_from_db()
        if match.status == MatchStatus.FINISHED:
            return match
        spec = spec_for(match.variant)
        state = spec.load(match.state["round"])
        seat = state.seat_to_act
        action = engine_bots.choose_action(state, seat, policy="basic")
        services.turn_submit(match_id=match.pk, user=humans[seat], action=action, expected_version=match.version)
        match.refresh_from_db()
        assert replay_current(match) == match.state["round"]
    raise AssertionError("the match did not finish")


@pytest.mark.parametrize(("variant", "seats", "options"), [
    ("gin_box", 3, {"game_target": 40}),
    ("gin", 2, {"game_target": 40}),
    ("oklahoma", 2, {"game_target": 40}),
    ("hollywood", 2, {"hollywood_target": 100}),
])
def test_every_gin_variant_plays_to_the_end(make_user, settings, variant, seats, options):
    settings.RUMMYHUB_FIXED_SEED = "5"
    alice = make_user("alice")
    match = services.match_create(host=alice, variant=variant, seats_count=seats, options=options, bots=seats - 1)
    services.match_start(match_id=match.pk, user=alice)
    match = play_to_the_end(Match.objects.get(pk=match.pk), {0: alice})
    tally = match.state["tally"]
    assert tally["is_over"]
    rounds = Round.objects.filter(match=match)
    assert rounds.count() == match.round_number
    # Only one player scores per hand (C.7.4); dead hands score nobody (C.8).
    for rnd in rounds:
        positive = RoundScore.objects.filter(round=rnd, score__gt=0).count()
        assert positive <= 1
        if rnd.result_kind == "dead":
            assert positive == 0
    totals = [s.final_total for s in Seat.objects.filter(match=match)]
    assert totals == tally["final_totals"]


def test_three_player_roles_rotate_and_the_advisor_never_plays(make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "9"
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    services.match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    roles = sorted(Seat.objects.filter(match=match).values_list("role", flat=True))
    assert roles == ["advisor", "box", "captain"]
    assert match.state["tally"]["role_draw"]  # the draw is recorded for the table to show (C.2)
    state = spec_for("gin_box").load(match.state["round"])
    advisor = Seat.objects.get(match=match, role="advisor").index
    assert len(state.hands[advisor]) == 0  # the advisor holds no cards (C.2.4)
    assert state.seat_to_act != advisor
