"""A table socket in tests: opening one as a signed-in viewer, and reading its frames: boards
(``#board-meta`` and the fragments that changed), with other seats' online dots checked and skipped."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Match
from rummyhub.asgi import application


def connect(match_id: int, cookie: str | None) -> WebsocketCommunicator:
    """A table socket of the viewer whose session is ``cookie`` (None: signed out), from the site's origin."""
    headers = [(b"origin", b"http://testserver")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, f"/ws/tables/{match_id}/", headers=headers)


async def heard(communicator, quiet: float = 0.5) -> str:
    """Every frame the socket receives until it has been quiet for ``quiet`` seconds, joined."""
    frames = []
    while not await communicator.receive_nothing(timeout=quiet):
        frames.append(await communicator.receive_from())
    return "".join(frames)


async def heard_all(*communicators, quiet: float = 0.5) -> list[str]:
    """``heard`` for each socket, all listened to at once (one quiet wait, not one per socket)."""
    return list(await asyncio.gather(*(heard(c, quiet) for c in communicators)))


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
