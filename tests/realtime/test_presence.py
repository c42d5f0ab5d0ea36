"""The presence socket, through the real ASGI stack (auth middleware, origin check)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.models import Presence
from rummyhub.asgi import application
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def communicator_for(cookie: str | None, origin: bytes = b"http://testserver") -> WebsocketCommunicator:
    headers = [(b"origin", origin)]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, "/ws/presence/", headers=headers)


async def count_from(frame: str) -> int:
    assert 'id="presence-count"' in frame and 'hx-swap-oob="true"' in frame
    return int(frame.split('data-count="')[1].split('"')[0])


async def test_anonymous_connection_is_refused():
    communicator = communicator_for(None)
    connected, code = await communicator.connect()
    assert not connected
    await communicator.disconnect()


async def test_foreign_origin_is_refused(make_user):
    user = await database_sync_to_async(make_user)("alice")
    cookie = await database_sync_to_async(session_cookie_for)(user)
    communicator = communicator_for(cookie, origin=b"http://evil.example.com")
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


async def test_two_users_see_the_count_change(make_user):
    alice = await database_sync_to_async(make_user)("alice")
    bob = await database_sync_to_async(make_user)("bob")
    a = communicator_for(await database_sync_to_async(session_cookie_for)(alice))
    b = communicator_for(await database_sync_to_async(session_cookie_for)(bob))
    connected, _ = await a.connect()
    assert connected
    assert await count_from(await a.receive_from(timeout=5)) == 1
    connected, _ = await b.connect()
    assert connected
    assert await count_from(await a.receive_from(timeout=5)) == 2
    assert await count_from(await b.receive_from(timeout=5)) == 2
    await b.disconnect()
    assert await count_from(await a.receive_from(timeout=5)) == 1
    await a.disconnect()


async def test_same_user_twice_counts_once(make_user):
    alice = await database_sync_to_async(make_user)("alice")
    cookie = await database_sync_to_async(session_cookie_for)(alice)
    first, second = communicator_for(cookie), communicator_for(cookie)
    await first.connect()
    assert await count_from(await first.receive_from(timeout=5)) == 1
    await second.connect()
    assert await count_from(await second.receive_from(timeout=5)) == 1
    await first.disconnect()
    await second.disconnect()


async def test_stale_rows_of_a_crashed_server_stop_counting(make_user):

    ghost = await database_sync_to_async(make_user)("ghost")
    await database_sync_to_async(Presence.objects.create)(
        user=ghost, channel_name="dead-process!x", seen=timezone.now() - timedelta(minutes=5)
    )
    alice = await database_sync_to_async(make_user)("alice")
    a = communicator_for(await database_sync_to_async(session_cookie_for)(alice))
    await a.connect()
    assert await count_from(await a.receive_from(timeout=5)) == 1
    await a.disconnect()
