"""The table socket at a three-player Gin table: box, captain, advisor and a spectator each get their
own board on every change, and no frame shows a card its viewer may not see (DESIGN §5, STYLE "Secret
state": the advisor sees the captain's hand; nobody sees the stock) nor, for the box, any advice."""

from __future__ import annotations

import random
import re

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from games import services
from games.engine import bots as engine_bots
from games.engine import gin
from games.engine.gin import GinMatch
from games.models import Event, Match, MatchStatus, Seat
from games.variants import spec_for
from tests.live import session_cookie_for
from tests.realtime.frames import connect, drain_to_current, receive_board
from tests.seeds import secret_seeds, seed_leaks

pytestmark = pytest.mark.django_db(transaction=True)

CARD_ATTR = re.compile(r"""data-(?:id|ref)=["']([^"']+)["']""")  # in markup and in a swap's selector


def setup_table(make_user, settings, variant="gin_box"):
    settings.RUMMYHUB_FIXED_SEED = "21"
    names = ("alice", "bob", "carol") if variant == "gin_box" else ("alice", "bob")
    users = [make_user(n) for n in names]
    match = services.match_create(host=users[0], variant=variant, seats_count=len(users))
    for u in users[1:]:
        services.seat_join(match_id=match.pk, user=u)
    if variant == "gin_box":
        seed = next(
            s for s in range(1, 500) if GinMatch.start(gin.GinRules(variant="box3"), random.Random(s)).captain == 0
        )
        Match.objects.filter(pk=match.pk).update(seed=seed)
    services.match_start(match_id=match.pk, user=users[0])
    return match, users, make_user("dave")


def suggestions_for(match_id: int, seat: int | None) -> int:
    """How many suggestions ``seat`` was in the audience of (the team of that hand)."""
    events = Event.objects.filter(match_id=match_id, summary__code="suggest")
    return sum(1 for e in events if seat in e.summary.get("audience", []))


def allowed_ids(match_id: int, seat: int | None) -> tuple[set[str], set[str], int | None]:
    """(ids this viewer may see now, every card id, the box seat)."""
    match = Match.objects.get(pk=match_id)
    state = spec_for(match.variant).load(match.state["round"])
    everything = {gin.IDS[c] for c in range(52)}
    if match.status != MatchStatus.PLAYING:
        return everything, everything, state.box  # the hand is over: hands are laid out (C.6)
    public = {gin.IDS[c] for c in state.discard}
    if state.rules.oklahoma:
        public.add(gin.IDS[state.first_upcard])  # D.2.2
    own: set[str] = set()
    if seat is not None:
        own = {gin.IDS[c] for c in state.hands[seat]}
        if seat == state.advisor:
            own = {gin.IDS[c] for c in state.hands[state.nondealer]}
    return public | own, everything, state.box


async def check_frame(frame: str, match_id: int, seat: int | None):
    allowed, everything, box = await database_sync_to_async(allowed_ids)(match_id, seat)
    shown = set(CARD_ATTR.findall(frame))
    leaked = (shown & everything) - allowed
    assert not leaked, f"seat {seat} was shown {sorted(leaked)}"
    assert not seed_leaks(frame, await database_sync_to_async(secret_seeds)(match_id))
    board, _, log = frame.partition('<section class="panel log"')
    if seat is None or seat == box:
        assert "suggest" not in board.lower(), "the box was shown the team's advice"
    # The log names a suggestion only to the team it was made in (captain and advisor of that hand).
    assert log.count("made a suggestion") <= await database_sync_to_async(suggestions_for)(match_id, seat)


async def play_and_check(match, users, viewers, moves: int, suggest: bool) -> int:
    frames = 0

    async def drain():
        nonlocal frames
        frames += await drain_to_current(viewers, match.pk, check_frame)

    await drain()
    for step in range(moves):
        current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        if current.status == MatchStatus.FINISHED:
            break
        if current.status == MatchStatus.BETWEEN_ROUNDS:
            for u in users:
                await sync_to_async(services.round_ready)(match_id=match.pk, user=u)
                await drain()
            continue
        state = spec_for(current.variant).load(current.state["round"])
        if suggest and state.advisor is not None and step % 3 == 0:
            card = gin.IDS[state.hands[state.nondealer][0]]
            await sync_to_async(services.turn_submit)(
                match_id=match.pk,
                user=users[state.advisor],
                expected_version=current.version,
                action={"type": "suggest", "suggestion": {"action": "discard", "card": card}},
            )
            await drain()
            current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        mover = state.seat_to_act
        action = engine_bots.choose_action(state, mover, policy="basic")
        await sync_to_async(services.turn_submit)(
            match_id=match.pk, user=users[mover], action=action, expected_version=current.version
        )
        await drain()
    return frames


async def open_viewers(match, users, spectator):
    cookies = [await database_sync_to_async(session_cookie_for)(u) for u in [*users, spectator]]
    seats = [await database_sync_to_async(lambda u=u: Seat.objects.get(match=match, user=u).index)() for u in users]
    viewers = [(connect(match.pk, c), s) for c, s in zip(cookies, [*seats, None], strict=True)]
    for communicator, _ in viewers:
        connected, _ = await communicator.connect()
        assert connected
    return viewers


async def test_box_captain_advisor_and_spectator_frames_never_leak(make_user, settings):
    match, users, dave = await database_sync_to_async(setup_table)(make_user, settings)
    viewers = await open_viewers(match, users, dave)
    frames = await play_and_check(match, users, viewers, moves=120, suggest=True)
    assert frames >= 120
    rounds = (await database_sync_to_async(Match.objects.get)(pk=match.pk)).round_number
    assert rounds >= 2  # the check ran across a hand end, the rotation and a new deal
    for communicator, _ in viewers:
        await communicator.disconnect()


async def test_oklahoma_frames_show_the_first_upcard_to_all_and_no_hidden_card(make_user, settings):
    match, users, dave = await database_sync_to_async(setup_table)(make_user, settings, variant="oklahoma")
    viewers = await open_viewers(match, users, dave)
    first = await receive_board(viewers[2][0])
    assert "First upcard" in first
    await check_frame(first, match.pk, None)
    frames = await play_and_check(match, users, viewers[:2], moves=60, suggest=False)
    assert frames >= 60
    for communicator, _ in viewers:
        await communicator.disconnect()


def setup_bot_advisor_table(make_user, settings):
    """alice captain (seat 0), bob box (seat 1), a bot advisor (seat 2); the captain can knock at once."""
    settings.RUMMYHUB_FIXED_SEED = "21"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="gin_box", seats_count=3)
    services.seat_join(match_id=match.pk, user=bob, index=1)
    services.seat_add_bot(match_id=match.pk, user=alice, index=2)
    seed = next(
        s for s in range(1, 1000) if GinMatch.start(gin.GinRules(variant="box3"), random.Random(s)).roles == (1, 0, 2)
    )
    Match.objects.filter(pk=match.pk).update(seed=seed)
    services.match_start(match_id=match.pk, user=alice)
    match.refresh_from_db()
    dealt = gin.deal_from_cards(
        gin.GinRules(variant="box3"),
        [
            ["5H", "6H", "7H", "8H", "5S", "5D", "AS", "2S", "3S", "KD"],
            ["2H", "3H", "4C", "5C", "9D", "TD", "JS", "QS", "QH", "QD"],
            [],
        ],
        "KC",
        roles=(1, 0, 2),
    )
    match.state = {**match.state, "round": gin.to_dict(dealt)}
    match.save(update_fields=["state"])
    return match, [alice, bob], make_user("dave")


async def test_bot_advice_and_the_knock_layout_never_reach_the_box_or_spectators(make_user, settings):
    match, (alice, bob), dave = await database_sync_to_async(setup_bot_advisor_table)(make_user, settings)
    cookies = [await database_sync_to_async(session_cookie_for)(u) for u in (alice, bob, dave)]
    viewers = [(connect(match.pk, c), s) for c, s in zip(cookies, [0, 1, None], strict=True)]
    for communicator, _ in viewers:
        assert (await communicator.connect())[0]
    await drain_to_current(viewers, match.pk, check_frame)
    current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    await sync_to_async(services.turn_submit)(
        match_id=match.pk, user=alice, expected_version=current.version, action={"type": "take_upcard"}
    )
    await drain_to_current(viewers, match.pk, check_frame)  # the bot's advice came with this move
    assert await database_sync_to_async(suggestions_for)(match.pk, 0) >= 1
    assert await database_sync_to_async(suggestions_for)(match.pk, 1) == 0
    # The captain prepares his knock: stored for him, told to nobody (no frame at all).
    current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    await sync_to_async(services.draft_update)(
        match_id=match.pk,
        user=alice,
        expected_version=current.version,
        table={"card": "KD.0", "melds": [["5H.0", "6H.0", "7H.0", "8H.0"]]},
    )
    for communicator, _ in viewers:
        assert await communicator.receive_nothing(timeout=0.3)
    await sync_to_async(services.turn_submit)(
        match_id=match.pk, user=alice, expected_version=current.version, action={"type": "knock", "card": "KD.0"}
    )
    await drain_to_current(viewers, match.pk, check_frame)
    for communicator, _ in viewers:
        await communicator.disconnect()
