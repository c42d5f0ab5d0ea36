"""The presence heartbeat of this process's open table sockets: one batched write for all of them."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from games import services

log = logging.getLogger(__name__)


class Heartbeats:
    """The open table sockets of this process, their rows refreshed together by one task.

    Each open socket has a ``TableConnection`` row (``services.table_connection_open``); a seat
    counts as connected while a row of its user is recent (``services.is_connected``).  Every
    ``RUMMYHUB_HEARTBEAT`` seconds one batched write (``services.table_connections_seen``)
    refreshes the rows of all open sockets of this event loop, instead of one write per socket.
    If this process dies, nothing refreshes them and ``services.presence_sweep`` deletes them.
    """

    def __init__(self):
        self.open: dict[str, tuple[int, Any]] = {}  # token -> (match id, user)
        self.task: asyncio.Task | None = None

    def add(self, token: str, match_id: int, user) -> None:
        self.open[token] = (match_id, user)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def remove(self, token: str) -> None:
        self.open.pop(token, None)
        if not self.open and self.task is not None:
            self.task.cancel()
            self.task = None

    async def beat(self) -> int:
        """Refresh every open socket's row; returns how many were refreshed."""
        if not self.open:
            return 0
        tokens = list(self.open)
        missing = await database_sync_to_async(services.table_connections_seen, thread_sensitive=False)(tokens)
        for token in missing:
            # Swept while open (this process stalled past the timeout, or lost the database):
            # the socket is here, so its row comes back, and the seat with it.
            if token not in self.open:
                continue  # it closed meanwhile
            match_id, user = self.open[token]
            try:
                await database_sync_to_async(services.table_connection_open)(match_id=match_id, user=user, token=token)
            except services.ActionRefused:
                continue  # the table is gone
            if token not in self.open:  # it closed while its row was being opened again
                await database_sync_to_async(services.table_connection_close)(token=token)
        return len(tokens) - len(missing)

    async def _run(self):
        while True:
            await asyncio.sleep(settings.RUMMYHUB_HEARTBEAT)
            try:
                await self.beat()
            except Exception:  # a database hiccup must not end the beat for every socket
                log.exception("table heartbeat failed")


heartbeats = Heartbeats()
