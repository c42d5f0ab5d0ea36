"""The table socket: per-seat boards pushed live, and no frame ever shows a card its viewer may not see.

Two seated players and a spectator watch a round; every frame each of them
receives is checked against what that viewer may see (DESIGN §5 "Secret
state"): their own hand, the table, and nothing of another hand or the stock.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games import services
from games.engine import bots as engine_bots
from games.engine.cards import Card
from games.live.heartbeats import heartbeats
from games.models import Match, MatchStatus, TableConnection
from games.variants import spec_for
from rummyhub.asgi import application
from tests.live import session_cookie_for
from tests.realtime.frames import connect, drain_to_current, receive_board
from tests.seeds import secret_seeds, seed_leaks

pytestmark = pytest.mark.django_db(transaction=True)

CARD_ATTR = re.compile(r"""data-(?:id|ref)=["']([^"']+)["']""")  # in markup and in a swap's selector


def setup_table(make_user, settings):
    settings.RUMMYHUB_FIXED_SEED = "11"
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    return match, [alice, bob], carol


def visible_ids(match_id: int, seat: int | None) -> tuple[set[str], set[str]]:
    """(allowed ids for this viewer now, every card id of the round)."""
    match = Match.objects.get(pk=match_id)
    spec = spec_for(match.variant)
    state = spec.load(match.state["round"])
    table = {Card.from_code(ref).id for meld in state.table for ref in [c.id for c in meld]}
    own = {c.id for c in state.hands[seat]} if seat is not None else set()
    everything = {c.id for h in state.hands for c in h} | {c.id for c in state.stock} | table
    if match.status != MatchStatus.PLAYING:
        return everything, everything  # the round is over: hands are revealed (B.6)
    return table | own, everything


async def check_frame(frame: str, match_id: int, seat: int | None):
    allowed, everything = await database_sync_to_async(visible_ids)(match_id, seat)
    shown = {Card.from_code(ref).id for ref in CARD_ATTR.findall(frame)}
    leaked = (shown & everything) - allowed
    assert not leaked, f"seat {seat} was shown {sorted(leaked)}"
    assert not seed_leaks(frame, await database_sync_to_async(secret_seeds)(match_id))


async def test_every_frame_shows_each_viewer_only_what_they_may_see(make_user, settings):
    match, players, carol = await database_sync_to_async(setup_table)(make_user, settings)
    cookies = [await database_sync_to_async(session_cookie_for)(u) for u in [*players, carol]]
    viewers = [
        (connect(match.pk, cookies[0]), 0),
        (connect(match.pk, cookies[1]), 1),
        (connect(match.pk, cookies[2]), None),
    ]
    for communicator, _seat in viewers:
        connected, _ = await communicator.connect()
        assert connected
    frames = 0

    async def drain():
        nonlocal frames
        frames += await drain_to_current(viewers, match.pk, check_frame)

    await drain()
    # Play moves by both seats (with a draft shown live before a meld), checking every frame.
    for _ in range(40):
        current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        if current.status != MatchStatus.PLAYING:
            break
        spec = spec_for(current.variant)
        state = spec.load(current.state["round"])
        mover = state.seat_to_act
        action = engine_bots.choose_action(state, mover, policy="basic")
        if action["type"] == "meld":
            await sync_to_async(services.draft_update)(
                match_id=match.pk, user=players[mover], table=action["table"], expected_version=current.version
            )
            await drain()
            current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
        await sync_to_async(services.turn_submit)(
            match_id=match.pk, user=players[mover], action=action, expected_version=current.version
        )
        await drain()
    assert frames >= 40
    for communicator, _seat in viewers:
        await communicator.disconnect()


async def test_spectator_board_has_no_hand_and_draft_cards_stay_face_down(make_user, settings):
    match, players, carol = await database_sync_to_async(setup_table)(make_user, settings)
    state = await database_sync_to_async(
        lambda: spec_for("manipulation").load(Match.objects.get(pk=match.pk).state["round"])
    )()
    mover = state.seat_to_act
    version = await database_sync_to_async(lambda: Match.objects.get(pk=match.pk).version)()
    await sync_to_async(services.turn_submit)(
        match_id=match.pk, user=players[mover], action={"type": "draw"}, expected_version=version
    )
    current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    hand = spec_for("manipulation").load(current.state["round"]).hands[mover]
    draft = [[c.id for c in hand[:2]]]  # not a valid meld, but a draft may be anything
    await sync_to_async(services.draft_update)(
        match_id=match.pk, user=players[mover], table=draft, expected_version=current.version
    )
    spectator = connect(match.pk, await database_sync_to_async(session_cookie_for)(carol))
    other = connect(match.pk, await database_sync_to_async(session_cookie_for)(players[1 - mover]))
    drafter = connect(match.pk, await database_sync_to_async(session_cookie_for)(players[mover]))
    for c in (spectator, other, drafter):
        assert (await c.connect())[0]
    spectator_frame, other_frame, drafter_frame = [await receive_board(c) for c in (spectator, other, drafter)]
    for frame in (spectator_frame, other_frame):
        assert 'id="hand"' not in frame or frame.count("card-back") >= 2
        assert frame.count("card-back") == 2  # the two draft cards, face down
        for card_id in draft[0]:
            assert card_id not in frame
    assert all(card_id in drafter_frame for card_id in draft[0])
    assert 'id="hand"' not in spectator_frame
    for c in (spectator, other, drafter):
        await c.disconnect()


async def test_anonymous_and_strangers_to_a_private_table_are_refused(make_user, settings):
    alice = await database_sync_to_async(make_user)("alice")
    mallory = await database_sync_to_async(make_user)("mallory")
    match = await sync_to_async(services.match_create)(
        host=alice, variant="manipulation", seats_count=2, is_private=True
    )
    anonymous = connect(match.pk, None)
    assert not (await anonymous.connect())[0]
    stranger = connect(match.pk, await database_sync_to_async(session_cookie_for)(mallory))
    assert not (await stranger.connect())[0]
    missing = connect(match.pk + 999, await database_sync_to_async(session_cookie_for)(mallory))
    assert not (await missing.connect())[0]


async def test_malformed_and_huge_frames_get_an_error_and_change_nothing(make_user, settings):
    match, players, _carol = await database_sync_to_async(setup_table)(make_user, settings)
    communicator = connect(match.pk, await database_sync_to_async(session_cookie_for)(players[0]))
    assert (await communicator.connect())[0]
    await receive_board(communicator)
    version = (await database_sync_to_async(Match.objects.get)(pk=match.pk)).version
    for junk in ["not json", '{"type": "draw"}', "[1,2,3]", "x" * 100_000]:
        await communicator.send_to(text_data=junk)
        frame = await communicator.receive_from(timeout=5)
        assert 'id="socket-error"' in frame and "bad_frame" in frame
    assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).version == version
    await communicator.send_to(text_data='{"type": "resync"}')
    assert 'id="board-meta"' in await communicator.receive_from(timeout=5)
    await communicator.disconnect()


async def test_a_move_reaches_the_other_seat_live(make_user, settings):
    match, players, _carol = await database_sync_to_async(setup_table)(make_user, settings)
    a = connect(match.pk, await database_sync_to_async(session_cookie_for)(players[0]))
    b = connect(match.pk, await database_sync_to_async(session_cookie_for)(players[1]))
    for c in (a, b):
        assert (await c.connect())[0]
    # The first board on connect, then maybe online-dot frames; drain them.
    for c in (a, b):
        await receive_board(c)
        while not await c.receive_nothing(timeout=0.3):
            await c.receive_from()
    state = await database_sync_to_async(
        lambda: spec_for("manipulation").load(Match.objects.get(pk=match.pk).state["round"])
    )()
    mover = state.seat_to_act
    current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    await sync_to_async(services.turn_submit)(
        match_id=match.pk, user=players[mover], action={"type": "draw"}, expected_version=current.version
    )
    for c in (a, b):
        frame = await receive_board(c)
        assert f'data-version="{current.version + 1}"' in frame
        assert "drew a card" in frame
    for c in (a, b):
        await c.disconnect()


async def test_connecting_changes_only_the_online_dot_and_a_current_page_gets_no_board(make_user, settings):
    match, players, _carol = await database_sync_to_async(setup_table)(make_user, settings)
    acting = (await database_sync_to_async(Match.objects.get)(pk=match.pk)).state["round"]["seat_to_act"]
    waiting = 1 - acting
    a = connect(match.pk, await database_sync_to_async(session_cookie_for)(players[acting]))
    assert (await a.connect())[0]
    assert 'id="board-meta"' in await a.receive_from(timeout=5)  # no ?v=: a board at once
    # The player to act is back: their disconnect grace ended (a new version, its board).
    while not await a.receive_nothing(timeout=0.5):
        pass
    version = (await database_sync_to_async(Match.objects.get)(pk=match.pk)).version
    b = WebsocketCommunicator(
        application,
        f"/ws/tables/{match.pk}/?v={version}",
        headers=[
            (b"origin", b"http://testserver"),
            (b"cookie", f"sessionid={await database_sync_to_async(session_cookie_for)(players[waiting])}".encode()),
        ],
    )
    assert (await b.connect())[0]
    dot = await a.receive_from(timeout=5)
    assert dot.startswith(f'<span id="conn-{waiting}"') and "conn-on" in dot and 'hx-swap-oob="true"' in dot
    # b's page is current (?v= matches): it gets no board, only the online dots, and no version moved.
    dots = await b.receive_from(timeout=5)
    assert 'id="board-meta"' not in dots and "data-id" not in dots
    assert '<span id="conn-0" class="conn conn-on"' in dots and '<span id="conn-1" class="conn conn-on"' in dots
    assert await b.receive_nothing(timeout=0.5)
    assert (await database_sync_to_async(Match.objects.get)(pk=match.pk)).version == version
    await b.disconnect()
    gone = await a.receive_from(timeout=5)
    assert gone.startswith(f'<span id="conn-{waiting}"') and "conn-off" in gone
    await a.disconnect()


async def test_one_heartbeat_write_marks_every_open_socket_row_and_no_other(make_user, settings):

    match, players, carol = await database_sync_to_async(setup_table)(make_user, settings)
    # carol sits at another table, where a socket of hers is open in another process
    other = await database_sync_to_async(services.match_create)(host=carol, variant="manipulation", seats_count=2)
    await database_sync_to_async(services.table_connection_open)(match_id=other.pk, user=carol, token="elsewhere")
    cookies = [await database_sync_to_async(session_cookie_for)(u) for u in [*players, carol]]
    sockets = [connect(match.pk, c) for c in cookies]  # carol watches this table: she has no seat here
    for communicator in sockets:
        assert (await communicator.connect())[0]
        await communicator.receive_output(timeout=5)  # its first frame: the socket is set up
    mine = {token for token, (match_id, _user) in heartbeats.open.items() if match_id == match.pk}
    assert len(mine) == 3
    long_ago = timezone.now() - timedelta(hours=1)
    await database_sync_to_async(lambda: TableConnection.objects.update(last_seen=long_ago))()

    marked = await heartbeats.beat()  # one UPDATE (tests/games/services/test_presence.py counts it)

    seen = await database_sync_to_async(
        lambda: {(c.match_id, c.user_id): c.last_seen > long_ago for c in TableConnection.objects.all()}
    )()
    assert marked == 3
    assert seen == {
        (match.pk, players[0].pk): True,
        (match.pk, players[1].pk): True,
        (match.pk, carol.pk): True,
        (other.pk, carol.pk): False,
    }
    for communicator in sockets:
        await communicator.disconnect()
    assert not any(match_id == match.pk for match_id, _user in heartbeats.open.values())
    assert await database_sync_to_async(lambda: list(TableConnection.objects.values_list("token", flat=True)))() == [
        "elsewhere"
    ]


async def test_a_socket_closing_after_its_table_was_deleted_closes_cleanly(make_user, settings):
    match, players, _carol = await database_sync_to_async(setup_table)(make_user, settings)
    a = connect(match.pk, await database_sync_to_async(session_cookie_for)(players[0]))
    assert (await a.connect())[0]
    await receive_board(a)
    await database_sync_to_async(Match.objects.filter(pk=match.pk).delete)()
    await a.disconnect()  # would raise the consumer's exception ("There is no such table.")
