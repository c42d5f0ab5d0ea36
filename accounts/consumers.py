"""The presence socket: a signed-in user connects and is told, live, how many users are online.

It is also the page's line to its user (the group ``realtime.user_group(user.id)``): a
``user.fragment`` message names a partial and its context, which the socket renders in its own
language and pushes as an out-of-band swap (the header's bell, notifications.services).  This
module knows no sender: any app may send its user a fragment."""

from __future__ import annotations

import asyncio
import contextlib

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from accounts import presence
from plumbing import realtime
from plumbing.realtime import PRESENCE_GROUP, override_scope_language


class PresenceConsumer(AsyncWebsocketConsumer):
    heartbeat_seconds = presence.PRESENCE_HEARTBEAT

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)  # refused before the handshake completes: HTTP 403
            return
        await self.accept()
        await self.channel_layer.group_add(PRESENCE_GROUP, self.channel_name)
        await self.channel_layer.group_add(realtime.user_group(user.pk), self.channel_name)
        count = await database_sync_to_async(presence.presence_open)(user=user, channel_name=self.channel_name)
        await realtime.send(PRESENCE_GROUP, {"type": "presence.changed", "count": count})
        self._heartbeat = asyncio.create_task(self._beat())

    async def disconnect(self, code):
        task = getattr(self, "_heartbeat", None)
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await self.channel_layer.group_discard(PRESENCE_GROUP, self.channel_name)
        await self.channel_layer.group_discard(realtime.user_group(self.scope["user"].pk), self.channel_name)
        count = await database_sync_to_async(presence.presence_close)(channel_name=self.channel_name)
        await realtime.send(PRESENCE_GROUP, {"type": "presence.changed", "count": count})

    async def receive(self, text_data=None, bytes_data=None):
        # Nothing to receive on this socket; any message just refreshes the row.
        await database_sync_to_async(presence.presence_touch)(channel_name=self.channel_name)

    async def presence_changed(self, event):
        with override_scope_language(self.scope):
            html = render_to_string(
                "accounts/presence.html#presence-count", {"count": int(event["count"]), "oob": True}
            )
        await self.send(text_data=html)

    async def user_fragment(self, event):
        """A partial for this user only (``template``: "file.html#partial", ``context``: plain data).
        One for their table pages only (``pages``: "table", a mute's notice in the chat) is not for this
        socket: a table page has none of its own (its table socket joins the user's group instead)."""
        if event.get("pages") == "table":
            return
        await self.send(text_data=realtime.render_user_fragment(self.scope, event))

    async def _beat(self):
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            await database_sync_to_async(presence.presence_touch)(channel_name=self.channel_name)
