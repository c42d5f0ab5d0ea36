"""A socket's scope carries its session and its user as Channels' stack resolves them, with the server's
own ``send`` and the user itself, not a lazy proxy (plumbing.socketauth)."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils.functional import LazyObject

from plumbing.socketauth import SocketAuthMiddlewareStack

pytestmark = pytest.mark.django_db(transaction=True)


def _through_the_stack(scope_type: str, cookie: str | None, **given):
    """The scope and ``send`` the stack hands its application for a connection of ``scope_type``
    (``given``: what an outer layer put in the scope)."""
    seen = {}

    async def app(scope, receive, send):
        seen["scope"], seen["send"] = scope, send

    async def server_send(message):
        seen.setdefault("sent", []).append(message)

    async def receive():
        return {}

    headers = [(b"cookie", cookie.encode())] if cookie else []
    scope = {"type": scope_type, "path": "/ws/x/", "headers": headers, **given}
    async_to_sync(SocketAuthMiddlewareStack(app))(scope, receive, server_send)
    return seen, server_send


def test_a_socket_gets_its_user_itself_and_the_servers_send(alice, client):
    client.force_login(alice)
    seen, server_send = _through_the_stack("websocket", f"{settings.SESSION_COOKIE_NAME}={client.session.session_key}")
    user = seen["scope"]["user"]
    assert not isinstance(user, LazyObject)
    assert user == alice and user.is_authenticated
    assert seen["send"] is server_send  # no wrapper reading the session before every frame
    assert seen["scope"]["session"].session_key == client.session.session_key


def test_a_socket_without_a_session_is_anonymous():
    seen, _ = _through_the_stack("websocket", None)
    assert isinstance(seen["scope"]["user"], AnonymousUser)
    seen, _ = _through_the_stack("websocket", f"{settings.SESSION_COOKIE_NAME}=forged-key-0000")
    assert isinstance(seen["scope"]["user"], AnonymousUser)


def test_other_connections_keep_channels_session_wrapper(alice, client):
    """Anything but a websocket (an HTTP request routed through it) keeps the wrapper that saves the session."""
    client.force_login(alice)
    seen, server_send = _through_the_stack("http", f"{settings.SESSION_COOKIE_NAME}={client.session.session_key}")
    assert seen["send"] is not server_send
    assert seen["scope"]["user"] == alice


def test_a_user_given_by_an_outer_layer_stays(alice, bob, client):
    """As with Channels' stack: a test's communicator puts its user in the scope, whatever the cookie says."""
    seen, _ = _through_the_stack("websocket", None, user=alice)
    assert seen["scope"]["user"] is alice
    client.force_login(bob)
    seen, _ = _through_the_stack(
        "websocket", f"{settings.SESSION_COOKIE_NAME}={client.session.session_key}", user=alice
    )
    assert seen["scope"]["user"] is alice
