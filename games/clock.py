"""Each server process's clock: bots move, turn timers expire and next rounds start on time.

``ClockMiddleware`` wraps the ASGI application and starts one background loop
per process on the first request or socket.  Every ``RUMMYHUB_CLOCK_INTERVAL``
seconds the loop runs ``services.tick_due``, which locks each due match and
performs its automatic step through the ordinary write path.  Several
processes may run it at once: the row lock and the deadline re-check make each
step happen once.  Nothing is kept in memory, so a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import logging

from channels.db import database_sync_to_async
from django.conf import settings

log = logging.getLogger(__name__)


async def run_clock(interval: float) -> None:
    from games import services

    while True:
        try:
            await database_sync_to_async(services.tick_due)()
        except Exception:  # keep ticking: one bad match must not stop every table
            log.exception("clock tick failed")
        await asyncio.sleep(interval)


class ClockMiddleware:
    def __init__(self, app):
        self.app = app
        self.task: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        if self.task is None and getattr(settings, "RUMMYHUB_CLOCK", True):
            self.task = asyncio.get_running_loop().create_task(run_clock(settings.RUMMYHUB_CLOCK_INTERVAL))
        return await self.app(scope, receive, send)
