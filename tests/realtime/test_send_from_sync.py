"""plumbing.realtime sends from sync code whatever thread it runs on.  asgiref leaves the event loop of
a finished ``async_to_sync`` call in the thread's locals; a send made later from that thread once the
loop has stopped (a finished test's, a management command's) must still arrive, not be dropped."""

from __future__ import annotations

import asyncio

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from plumbing import realtime


def test_a_send_after_the_threads_loop_stopped_still_arrives(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    stale = asyncio.new_event_loop()
    stale.close()
    SyncToAsync.threadlocal.main_event_loop = stale
    try:
        realtime._send_from_sync(lambda layer: layer.send("probe", {"type": "probe.sent", "n": 1}), "probe")
    finally:
        del SyncToAsync.threadlocal.main_event_loop

    async def receive() -> dict:
        return await asyncio.wait_for(layer.receive("probe"), timeout=2)

    received = async_to_sync(receive)()
    assert received == {"type": "probe.sent", "n": 1}
