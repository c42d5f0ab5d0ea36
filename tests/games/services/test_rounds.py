"""Rounds (games/services/rounds.py): the deal, a round's close, the next round, the match's end; Gin's
roles and a bot advisor's advice, through the same services (RULES B.7, B.8, C, D)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games import services
from games.engine import bots as engine_bots
from games.engine import gin
from games.engine.gin import GinMatch
from games.models import Event, Match, MatchStatus, Round, RoundScore, Seat
from games.rebuild import replay_current
from games.variants import spec_for
from tests.games.services.support import current_state, started_match

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


@pytest.mark.parametrize(
    ("variant", "seats", "options"),
    [
        ("gin_box", 3, {"game_target": 40}),
        ("gin", 2, {"game_target": 40}),
        ("oklahoma", 2, {"game_target": 40}),
        ("hollywood", 2, {"hollywood_target": 100}),
    ],
)
def test_every_gin_variant_plays_to_the_end(alice, settings, variant, seats, options):
    settings.RUMMYHUB_FIXED_SEED = "5"
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


def test_three_player_roles_rotate_and_the_advisor_never_plays(alice, settings):
    settings.RUMMYHUB_FIXED_SEED = "9"
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


def _box_table_with_bot_advisor(make_user, *, captain: int = 0):
    """A three-player Gin table where the human in seat 0 is the captain and both other seats are bots."""
    alice = make_user("alice")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3, bots=2)
    seed = next(
        s for s in range(1, 500) if GinMatch.start(gin.GinRules(variant="box3"), random.Random(s)).captain == captain
    )
    Match.objects.filter(pk=match.pk).update(seed=seed)
    services.match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk), alice


def test_a_bot_advisor_advises_a_human_captain_and_the_box_never_sees_it(make_user, settings):
    """RULES C.2.4: the advisor's bot suggests at each of the captain's decisions, through the engine's
    ``suggest`` and the log, like a human advisor; the box's view holds no advice."""
    settings.RUMMYHUB_FIXED_SEED = "11"
    match, alice = _box_table_with_bot_advisor(make_user)
    spec = spec_for("gin_box")
    state = spec.load(match.state["round"])
    assert state.captain == 0 and state.seat_to_act == 0 and state.phase == "upcard"
    # At the deal: advice on the upcard, in the human advisor's form, stored in the log by the bot.
    captain_view = spec.view(state, 0)
    [first] = captain_view["suggestions"]
    assert first["seat"] == state.advisor and first["suggestion"]["action"] in ("take_upcard", "pass_upcard")
    event = Event.objects.get(match=match, summary__code="suggest")
    assert event.by_bot and event.seat == state.advisor and event.summary["audience"] == [0, state.advisor]
    box_view = spec.view(state, state.box)
    assert "suggestions" not in box_view and '"suggestion"' not in json.dumps(box_view)
    assert "suggestions" not in spec.view(state, None)
    # Play the captain through a few decisions: every decision with a real choice gets one piece of advice.
    advised_phases = set()
    for _ in range(30):
        services.run_until_human(match_id=match.pk, deal=False)
        match.refresh_from_db()
        state = spec.load(match.state["round"])
        if state.phase == "over":
            break
        assert state.seat_to_act == 0
        view = spec.view(state, 0)
        if len(view["legal_actions"]) > 1:
            sug = view["suggestions"][-1]["suggestion"]
            advised_phases.add(state.phase)
            if state.phase == "discard":
                assert sug["action"] in ("discard", "knock") and sug["card"] in view["hand"]
                assert {"type": sug["action"], "card": sug["card"]} in view["legal_actions"]
        box = spec.view(state, state.box)
        assert "suggestions" not in box and '"suggestion"' not in json.dumps(box)
        action = engine_bots.choose_action(state, 0, policy="basic")
        services.turn_submit(match_id=match.pk, user=alice, action=action, expected_version=match.version)
    assert "discard" in advised_phases
    match.refresh_from_db()
    assert replay_current(match) == match.state["round"]  # the advice replays like any logged action
    per_turn = Counter((e.round_number, e.summary.get("code")) for e in Event.objects.filter(match=match))
    assert per_turn[(1, "suggest")] >= 2


def test_no_bot_advice_for_a_bot_captain_or_when_advice_is_off(make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "11"
    match, _alice = _box_table_with_bot_advisor(make_user, captain=1)  # a bot is captain, alice the box/advisor
    assert not Event.objects.filter(match=match, summary__code="suggest").exists()
    services.run_until_human(match_id=match.pk, deal=False)
    assert not Event.objects.filter(match=match, summary__code="suggest").exists()


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
        assert (
            sum(RoundScore.objects.filter(round__match=match, seat=seat).values_list("score", flat=True))
            == (tally["scores"][seat])
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
