"""Websocket origin check: scheme, host and port, as a browser's same-origin rule compares them.

Channels' ``AllowedHostsOriginValidator`` compares the Origin's host name with
``ALLOWED_HOSTS`` only, so a page served from another port of an allowed host (any
other program on that machine) could open our sockets with the user's cookies.  A
socket is accepted here only when its ``Origin`` is exactly the origin of the site it
connects to — the scheme that site is served with, the ``Host`` it was reached at
(itself an allowed host) — or one of ``CSRF_TRUSTED_ORIGINS``, the same list Django's
CSRF check trusts for form posts.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return None


def _origin(scheme: str, host: str, port: int | None) -> tuple[str, str, int]:
    default = 443 if scheme == "https" else 80
    return scheme, host.lower().rstrip("."), port or default


def _parse(origin: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/"):
        return None
    return _origin(parts.scheme, parts.hostname, port)


def site_scheme(scope) -> str:
    """The scheme the page was served with: https when the socket is wss, or, behind our proxy,
    when the proxy says the request came over https."""
    if scope.get("scheme") == "wss":
        return "https"
    if getattr(settings, "RUMMYHUB_BEHIND_PROXY", False) and _header(scope, b"x-forwarded-proto") == "https":
        return "https"
    return "http"


def allowed_origin(scope) -> bool:
    origin = _header(scope, b"origin")
    wanted = _parse(origin) if origin is not None else None
    if wanted is None:
        return False
    # The address the socket was opened at: its Host header (every browser sends one), else (an
    # in-process client, which could forge any Origin anyway) the Origin's host at its default port.
    host = _header(scope, b"host")
    if host is None:
        host = wanted[1] if ":" not in wanted[1] else f"[{wanted[1]}]"
    domain, port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    try:
        site = _origin(site_scheme(scope), domain.strip("[]"), int(port) if port else None)
    except ValueError:
        return False
    if wanted == site:
        return True
    return wanted in {_parse(o) for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}


class SameOriginValidator:
    """ASGI middleware: a websocket whose Origin is not this site's is refused during the handshake."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not allowed_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
