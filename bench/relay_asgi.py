"""The trivial baseline for bench/ws_load.py: a websocket relay on the same stack as the app.

One route, ``/ws/relay/<table>/``: each socket joins the group ``relay-<table>`` and every text
frame it receives is sent to that group unchanged (so the sender gets it back too).  No session,
no database, no templates — only daphne + Channels + the project's channel layer (in memory, or
Redis when ``REDIS_URL`` is set, exactly as rummyhub/settings.py configures it).  Whatever the
app's table socket costs beyond this is the app's own work.

Run: ``.venv/bin/daphne -b 127.0.0.1 -p 8001 bench.relay_asgi:application`` (from the repo root).
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummyhub.settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


class RelayConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"relay-{self.scope['url_route']['kwargs']['table']}"
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is not None:
            await self.channel_layer.group_send(self.group, {"type": "relay.message", "text": text_data})

    async def relay_message(self, event):
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter({"websocket": URLRouter([path("ws/relay/<int:table>/", RelayConsumer.as_asgi())])})
