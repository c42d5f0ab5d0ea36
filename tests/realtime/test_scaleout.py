"""Two daphne processes on one Redis: a group message from one reaches a client of the other.

Runs whenever REDIS_URL is set (CI sets it); without Redis there is no shared
layer to test, so it is skipped with that reason.
"""

from __future__ import annotations

import asyncio
import os

import pytest
import websockets

from tests.live import LiveDaphne, session_cookie_for

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (a shared channel layer)"),
]


async def recv_count(ws) -> int:
    frame = await asyncio.wait_for(ws.recv(), timeout=10)
    return int(frame.split('data-count="')[1].split('"')[0])


def test_presence_crosses_two_daphne_processes(make_user, django_db_blocker):
    alice, bob = make_user("alice"), make_user("bob")
    cookies = [session_cookie_for(alice), session_cookie_for(bob)]
    with django_db_blocker.unblock(), LiveDaphne() as one, LiveDaphne() as two:
        assert one.port != two.port

        async def scenario():
            headers_a = {"Cookie": f"sessionid={cookies[0]}", "Origin": one.url}
            headers_b = {"Cookie": f"sessionid={cookies[1]}", "Origin": two.url}
            async with websockets.connect(f"{one.ws_url}/ws/presence/", additional_headers=headers_a) as a:
                assert await recv_count(a) == 1
                async with websockets.connect(f"{two.ws_url}/ws/presence/", additional_headers=headers_b) as b:
                    assert await recv_count(b) == 2
                    # Bob's connection on process two is announced to Alice on process one.
                    assert await recv_count(a) == 2
                assert await recv_count(a) == 1

        asyncio.run(scenario())
