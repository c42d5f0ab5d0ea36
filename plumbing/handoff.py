"""Bytes one server process hands to the others for a few seconds, through Redis.

With ``REDIS_URL`` the site runs as several processes, and something one of them has just made (what a
move held of its version: ``games.live.boardcache``) can spare the others reading it back from the
database.  :func:`put` stores it under a key for ``seconds`` (sync: the caller is a worker thread, a
commit's hook); :func:`get` reads it from a process's event loop without a thread (``redis.asyncio``,
one client per loop).  Without Redis there is one process: :func:`enabled` is False, and
:func:`put` and :func:`get` do nothing.

A failure (Redis gone, a timeout) is logged and reads as "nothing handed over": the caller then does
what it would have done without this (the database is the truth; this is only a short cut to it).

What is stored stays between the server's processes: Redis has the trust of the channel layer and of
Django's Redis cache (on loopback or a private network).  Nothing here is sent to a socket.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref

import redis
import redis.asyncio
from django.conf import settings

log = logging.getLogger(__name__)

TIMEOUT = 0.25  # seconds a put or a get may take before it counts as nothing handed over

_lock = threading.Lock()
_sync: dict[str, redis.Redis] = {}
_async: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, redis.asyncio.Redis] = weakref.WeakKeyDictionary()


def enabled() -> bool:
    """Whether there are other processes to hand to (a shared Redis is configured)."""
    return bool(getattr(settings, "REDIS_URL", ""))


def _key(key: str) -> str:
    return f"{settings.REDIS_PREFIX}:handoff:{key}"


def _sync_client() -> redis.Redis:
    url = settings.REDIS_URL
    with _lock:
        client = _sync.get(url)
        if client is None:
            client = _sync[url] = redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT)
    return client


def put(key: str, value: bytes, seconds: float) -> None:
    """Keep ``value`` under ``key`` for ``seconds``, for the other processes (nothing without Redis)."""
    if not enabled():
        return
    try:
        _sync_client().set(_key(key), value, px=max(1, int(seconds * 1000)))
    except redis.RedisError:
        log.warning("handing %s over failed", key, exc_info=True)


async def get(key: str) -> bytes | None:
    """What another process put under ``key``, if it is still there (None without Redis or on a failure)."""
    if not enabled():
        return None
    loop = asyncio.get_running_loop()
    client = _async.get(loop)
    if client is None:
        client = _async[loop] = redis.asyncio.Redis.from_url(
            settings.REDIS_URL, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT
        )
    try:
        return await client.get(_key(key))
    except (TimeoutError, redis.RedisError):
        log.warning("reading %s handed over failed", key, exc_info=True)
        return None
