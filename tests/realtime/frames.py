"""Reading a table socket's frames in tests: boards (``#board-meta`` and the fragments that changed),
with other seats' online dots checked and skipped."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from channels.db import database_sync_to_async

from games.models import Match


async def receive_board(communicator) -> str:
    """The next board frame; an online-dot frame in between must carry no card and is skipped."""
    while True:
        frame = await communicator.receive_from(timeout=10)
        if frame.startswith('<span id="conn-'):
            assert "data-id" not in frame and "data-ref" not in frame
            continue
        # A board frame: its meta first, then what changed since this socket's last frame (fragments,
        # or their parts: seat rows by id, new log lines put at the top of the log, a hand's cards
        # put in or taken out).
        assert frame.startswith('<div id="board-meta"')
        assert frame.count("hx-swap-oob") == len(OUT_OF_BAND.findall(frame))
        return frame


OUT_OF_BAND = re.compile(
    r"""<ol hx-swap-oob="(afterbegin:#log-list|afterbegin:#hand|"""
    r"""(afterend|delete):#hand > \[data-id='[A-Z0-9.=]+'\])">"""
)


async def drain_to_current(viewers, match_id: int, check: Callable[[str, int, int | None], Awaitable[None]]) -> int:
    """Read every viewer's boards up to the match's current version, checking each; returns the count."""
    version = (await database_sync_to_async(Match.objects.get)(pk=match_id)).version
    count = 0
    for communicator, seat in viewers:
        while True:
            frame = await receive_board(communicator)
            await check(frame, match_id, seat)
            count += 1
            if f'data-version="{version}"' in frame:
                break
    return count
