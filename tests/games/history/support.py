"""Finished matches for the history tests, played at service level with bots and fixed seeds.

Bots and the humans' moves use the "greedy" policy (cheap, and independent of the exact solver).
"""

from __future__ import annotations

from games import services
from games.engine import bots as engine_bots
from games.models import Match, MatchStatus, Seat
from games.variants import spec_for


def play_match(
    host,
    *,
    settings,
    seats=2,
    bots=1,
    others=(),
    seed="7",
    private=False,
    game_target=40,
    finish=True,
    max_turns=5000,
    variant="manipulation",
) -> Match:
    """Create, start and (with ``finish``) play a match to its end; returns it refreshed."""
    settings.RUMMYHUB_BOT_DELAY = 0
    settings.RUMMYHUB_FIXED_SEED = seed
    match = services.match_create(
        host=host,
        variant=variant,
        seats_count=seats,
        bots=bots,
        options={"game_target": game_target},
        is_private=private,
    )
    Seat.objects.filter(match=match).exclude(bot_policy="").update(bot_policy="greedy")
    for user in others:
        services.seat_join(match_id=match.pk, user=user, invite_token=match.invite_token)
    services.match_start(match_id=match.pk, user=host)
    users = {s.index: s.user for s in Seat.objects.filter(match=match).select_related("user")}
    for _ in range(max_turns):
        services.run_until_human(match_id=match.pk)
        match.refresh_from_db()
        if match.status == MatchStatus.FINISHED or not finish:
            break
        spec = spec_for(match.variant)
        state = spec.load(match.state["round"])
        acting = spec.acting_seats(state)
        if not acting or users[acting[0]] is None:
            continue  # a bot's turn, taken meanwhile by a live server's clock (browser tests)
        seat = acting[0]
        action = engine_bots.choose_action(state, seat, policy="greedy")
        try:
            services.turn_submit(match_id=match.pk, user=users[seat], action=action, expected_version=match.version)
        except services.StaleVersion:
            continue
    match.refresh_from_db()
    return match


def play_one_round(host, *, settings, seed="11", **kwargs) -> Match:
    """A started match whose first round is over and second round is being played (a live match)."""
    match = play_match(host, settings=settings, seed=seed, finish=False, game_target=1000, **kwargs)
    users = {s.index: s.user for s in Seat.objects.filter(match=match).select_related("user")}
    for _ in range(5000):
        match.refresh_from_db()
        if match.round_number >= 2:
            break
        services.run_until_human(match_id=match.pk, deal=True)
        match.refresh_from_db()
        if match.round_number >= 2 or match.status != MatchStatus.PLAYING:
            continue
        state = spec_for(match.variant).load(match.state["round"])
        seat = state.seat_to_act
        if seat is None or users[seat] is None:
            continue
        action = engine_bots.choose_action(state, seat, policy="greedy")
        try:
            services.turn_submit(match_id=match.pk, user=users[seat], action=action, expected_version=match.version)
        except services.StaleVersion:
            continue
    match.refresh_from_db()
    return match
