"""The embedded channel layer: Channels' in-memory layer with its expiry sweep at most once a second."""

import asyncio

from plumbing import layers
from plumbing.layers import SweepingInMemoryChannelLayer


def test_messages_and_groups_work_as_in_channels():
    async def scenario():
        layer = SweepingInMemoryChannelLayer()
        a, b = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table-1", a)
        await layer.group_add("table-1", b)
        await layer.group_send("table-1", {"type": "table.changed", "version": 3})
        got = [await asyncio.wait_for(layer.receive(ch), 1) for ch in (a, b)]
        await layer.group_discard("table-1", b)
        await layer.group_send("table-1", {"type": "table.changed", "version": 4})
        return got, await asyncio.wait_for(layer.receive(a), 1), layer.channels.get(b)

    got, later, left_for_b = asyncio.run(scenario())
    assert [m["version"] for m in got] == [3, 3]
    assert later["version"] == 4
    assert left_for_b is None  # b left the group: nothing was queued for it


def test_sweep_runs_at_most_once_a_second_and_still_drops_expired_messages(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(layers.time, "monotonic", lambda: clock[0])
    sweeps = []
    monkeypatch.setattr(layers.InMemoryChannelLayer, "_clean_expired", lambda self: sweeps.append(clock[0]))

    layer = SweepingInMemoryChannelLayer()
    for _ in range(50):
        layer._clean_expired()
    clock[0] += 0.5
    layer._clean_expired()
    clock[0] += 0.6
    layer._clean_expired()
    assert sweeps == [1000.0, 1001.1]


def test_an_expired_message_is_removed_by_the_next_sweep():
    async def scenario():
        layer = SweepingInMemoryChannelLayer(expiry=0)
        layer._last_sweep = -1e9  # as at start: the next call sweeps
        stale = await layer.new_channel()
        await layer.send(stale, {"type": "x"})
        await asyncio.sleep(0.01)
        layer._clean_expired()
        return layer.channels.get(stale)

    assert asyncio.run(scenario()) is None
