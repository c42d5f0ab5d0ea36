"""An open table's socket tells a viewer whom fair play keeps out of its seats why, instead of offering
"Sit here": asked again when who sits there changes (a blocked player sits down, then leaves), and a
viewer who is not kept out shares none of it."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from fairplay import services as fairplay_services
from games import services
from tests.live import session_cookie_for
from tests.realtime.frames import connect, heard, heard_all

pytestmark = pytest.mark.django_db(transaction=True)

REASON = "You cannot sit at this table"


async def test_a_blocked_viewer_is_told_why_as_the_seats_change(make_user):
    carol, alice, bob, erin = [await database_sync_to_async(make_user)(n) for n in ("carol", "alice", "bob", "erin")]
    match = await database_sync_to_async(services.match_create)(host=carol, variant="manipulation", seats_count=4)
    await database_sync_to_async(fairplay_services.block_set)(user=alice, target_id=bob.pk, blocked=True)
    join = f'hx-post="/tables/{match.pk}/join/"'
    sockets = {}
    for user in (alice, erin):  # both watch the open table
        socket = connect(match.pk, await database_sync_to_async(session_cookie_for)(user))
        assert (await socket.connect())[0]
        await heard(socket)
        sockets[user.username] = socket

    # bob, whom alice blocks, sits down: alice is told why she may not, erin is still offered a seat.
    await database_sync_to_async(services.seat_join)(match_id=match.pk, user=bob)
    alice_sees, erin_sees = await heard_all(sockets["alice"], sockets["erin"])
    assert REASON in alice_sees and 'aria-describedby="seat-refusal"' in alice_sees and join not in alice_sees
    assert join in erin_sees and REASON not in erin_sees

    # bob leaves: alice is offered the seats again.
    await database_sync_to_async(services.seat_leave)(match_id=match.pk, user=bob)
    alice_sees = await heard(sockets["alice"])
    assert join in alice_sees and REASON not in alice_sees
    for socket in sockets.values():
        await socket.disconnect()


async def test_a_refusal_that_ends_while_the_page_is_open_goes_without_a_change_at_the_table(make_user, settings):
    """A block lifted (or a bar that ends) changes nothing at the table, so no version brings it: while a
    socket shows a refusal it asks fair play again every ``RUMMYHUB_SEAT_REFUSAL_RECHECK`` seconds."""
    settings.RUMMYHUB_SEAT_REFUSAL_RECHECK = 0.3
    carol, alice, bob = [await database_sync_to_async(make_user)(n) for n in ("carol", "alice", "bob")]
    match = await database_sync_to_async(services.match_create)(host=carol, variant="manipulation", seats_count=4)
    await database_sync_to_async(services.seat_join)(match_id=match.pk, user=bob)
    await database_sync_to_async(fairplay_services.block_set)(user=alice, target_id=bob.pk, blocked=True)
    join = f'hx-post="/tables/{match.pk}/join/"'
    socket = connect(match.pk, await database_sync_to_async(session_cookie_for)(alice))
    assert (await socket.connect())[0]
    await heard(socket)  # the page's dots; the page was drawn with the reason
    assert await socket.receive_nothing(timeout=0.8)  # asked again, still refused: nothing is sent
    await database_sync_to_async(fairplay_services.block_set)(user=alice, target_id=bob.pk, blocked=False)
    alice_sees = await socket.receive_from(timeout=3) + await heard(socket)
    assert join in alice_sees and REASON not in alice_sees
    await socket.disconnect()
