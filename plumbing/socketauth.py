"""The session and the user of a websocket's scope: Channels' middlewares, without what a socket never uses.

Channels' ``AuthMiddlewareStack`` does two things a socket pays for at every message:

* its session middleware hands the application a ``send`` of its own, which reads the session's
  ``modified`` and ``is_empty()`` (through a lazy object; the latter raises and catches an
  ``AttributeError`` for a session not changed) before every message, to save the session on an
  ``http.response.start``: a message a websocket never sends;
* it puts the user in the scope as a lazy object, resolved at once, so every read of
  ``scope["user"].pk`` goes through a proxy (~2 us each; a table's board reads the viewer's id a
  few times a seat at every version, for each of the table's views).

:func:`SocketAuthMiddlewareStack` resolves the session and the user exactly as Channels does
(``InstanceSessionWrapper.resolve_session``, ``channels.auth.get_user``) and hands on the server's
own ``send`` and the user object itself.  A socket that logs someone in or out (none does) would
use ``channels.auth.login``, which sets ``scope["user"]`` itself.
"""

from __future__ import annotations

from channels.auth import AuthMiddleware, UserLazyObject, get_user
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' session middleware; for a websocket, the server's ``send`` is passed on unwrapped."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            return await super().__call__(scope, receive, send)
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


class ResolvedUserMiddleware(AuthMiddleware):
    """Channels' auth middleware with ``scope["user"]`` the user (or ``AnonymousUser``), not a lazy object.

    A user an outer layer put in the scope (a test's communicator) stays, as it does with Channels' own."""

    async def resolve_scope(self, scope):
        if isinstance(scope["user"], UserLazyObject):  # put there by populate_scope: none was given
            scope["user"] = await get_user(scope)


def SocketAuthMiddlewareStack(inner):  # named as Channels' AuthMiddlewareStack, which it replaces
    return CookieMiddleware(SocketSessionMiddleware(ResolvedUserMiddleware(inner)))
