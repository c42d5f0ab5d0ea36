"""Issue 13.7: a socket's Origin is checked as scheme, host and port, not as a host name only."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from plumbing.origin import allowed_origin
from rummyhub.asgi import application
from tests.live import session_cookie_for


def scope(origin: str | None, host: str | None, scheme: str = "ws", **headers: str) -> dict:
    pairs = [(b"origin", origin.encode())] if origin is not None else []
    if host is not None:
        pairs.append((b"host", host.encode()))
    pairs += [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
    return {"type": "websocket", "scheme": scheme, "headers": pairs}


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "ok"),
    [
        ("http://localhost:8000", "localhost:8000", "ws", True),
        ("http://localhost:9000", "localhost:8000", "ws", False),  # another port of an allowed host
        ("http://localhost", "localhost:8000", "ws", False),
        ("https://localhost:8000", "localhost:8000", "ws", False),  # another scheme
        ("https://localhost", "localhost", "wss", True),
        ("https://localhost:443", "localhost", "wss", True),  # the default port, written out
        ("http://localhost", "localhost", "wss", False),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),
        ("http://[::1]:8000", "[::1]:8000", "ws", True),
        ("http://[::1]:8001", "[::1]:8000", "ws", False),
        ("http://evil.example.com:8000", "localhost:8000", "ws", False),
        ("http://evil.example.com", "evil.example.com", "ws", False),  # Host itself not allowed
        ("null", "localhost:8000", "ws", False),
        ("http://localhost:8000/path", "localhost:8000", "ws", False),
        ("http://localhost:99999", "localhost:8000", "ws", False),
        (None, "localhost:8000", "ws", False),
    ],
)
def test_origin_must_be_this_sites_scheme_host_and_port(settings, origin, host, scheme, ok):
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
    settings.CSRF_TRUSTED_ORIGINS = []
    assert allowed_origin(scope(origin, host, scheme)) is ok


def test_a_trusted_origin_and_the_proxy_scheme_are_accepted(settings):
    settings.ALLOWED_HOSTS = ["rummy.example.com", "internal"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://rummy.example.com"]
    assert allowed_origin(scope("https://rummy.example.com", "internal:8000"))
    assert not allowed_origin(scope("https://rummy.example.com:8443", "internal:8000"))
    settings.RUMMYHUB_BEHIND_PROXY = True
    assert allowed_origin(scope("https://internal", "internal", x_forwarded_proto="https"))
    settings.RUMMYHUB_BEHIND_PROXY = False
    assert not allowed_origin(scope("https://internal", "internal", x_forwarded_proto="https"))


@pytest.mark.django_db(transaction=True)
async def test_the_presence_socket_refuses_another_port_and_accepts_its_own(make_user, settings):
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    user = await database_sync_to_async(make_user)("alice")
    cookie = (b"cookie", f"sessionid={await database_sync_to_async(session_cookie_for)(user)}".encode())
    for origin, ok in ((b"http://localhost:9999", False), (b"http://localhost:8000", True)):
        communicator = WebsocketCommunicator(
            application, "/ws/presence/", headers=[(b"origin", origin), (b"host", b"localhost:8000"), cookie]
        )
        connected, _ = await communicator.connect()
        assert connected is ok
        await communicator.disconnect()
