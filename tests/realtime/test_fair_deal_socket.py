"""Provably fair deals over the table socket (docs/fairness.md): every viewer (both seats and a
spectator) gets the round's commitment with its first board; no frame carries the round's seed, whole
or cut short, while the round is played; the frame that ends the round reveals it, and it matches the
commitment."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from games import services
from games.engine import bots as engine_bots
from games.engine import shuffle
from games.models import Match, MatchStatus, Round
from games.variants import spec_for
from tests.live import session_cookie_for
from tests.realtime.frames import drain_to_current, receive_board
from tests.realtime.test_table_socket import connect
from tests.seeds import seed_leaks

pytestmark = pytest.mark.django_db(transaction=True)

STATUS = re.compile(r'data-status="([a-z_]+)"')


def start(make_user, variant: str):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = services.match_create(host=alice, variant=variant, seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    return match, [alice, bob], carol


def next_move(match_id: int):
    match = Match.objects.get(pk=match_id)
    if match.status != MatchStatus.PLAYING:
        return None
    spec = spec_for(match.variant)
    state = spec.load(match.state["round"])
    seat = spec.acting_seats(state)[0]
    return match.version, seat, engine_bots.choose_action(state, seat, policy="greedy")


@pytest.mark.parametrize("variant", ["manipulation", "gin"])
async def test_the_seed_stays_out_of_every_frame_until_the_round_is_over(make_user, variant, settings):
    # A fixed deal, so the round is long enough to check many frames (a random one can end in two moves).
    settings.RUMMYHUB_FIXED_SEED = "fair-socket"
    match, players, carol = await database_sync_to_async(start)(make_user, variant)
    rnd = await database_sync_to_async(Round.objects.get)(match=match, number=1)
    viewers = [connect(match.pk, await database_sync_to_async(session_cookie_for)(u)) for u in (*players, carol)]
    for communicator in viewers:
        assert (await communicator.connect())[0]
        first = await receive_board(communicator)
        assert f"data-commitment>{rnd.commitment}</code>" in first
        assert not seed_leaks(first, [rnd.seed])
    frames, revealed = 0, set()

    async def check(frame: str, _match_id: int, viewer: int) -> None:
        nonlocal frames
        frames += 1
        status = STATUS.search(frame)
        if status and status.group(1) != "playing":
            assert f"data-seed>{rnd.seed}</code>" in frame  # revealed on the round result
            revealed.add(viewer)
        else:
            assert not seed_leaks(frame, [rnd.seed]), f"frame {frames} shows the seed of the round in play"

    for _ in range(600):
        move = await database_sync_to_async(next_move)(match.pk)
        if move is None:
            break
        version, seat, action = move
        await sync_to_async(services.turn_submit)(
            match_id=match.pk, user=players[seat], action=action, expected_version=version
        )
        await drain_to_current([(c, i) for i, c in enumerate(viewers)], match.pk, check)
    assert revealed == {0, 1, 2}, "the round did not end, or its end did not reveal the seed"
    assert frames > 3 * len(viewers)
    assert shuffle.commitment(rnd.seed, match_id=match.pk, round_number=1) == rnd.commitment
    for communicator in viewers:
        await communicator.disconnect()
