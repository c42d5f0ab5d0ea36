"""A new chat line, loaded once per process for all of its table's sockets here.

Every socket of the table hears the line's id (``table.chat``); the first to ask loads the line and
who may not see it (``selectors.chat_line``: one read of the line, one of fair play's mutes and
blocks), and the others wait for that same load.  Before, each socket read the line and its viewer's
mutes and blocks for itself: three queries per socket.  The line's frame is drawn once per language and
kind of viewer (:func:`frame`), not per socket.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils.translation import get_language

from games import selectors
from games.board.kept import Kept

log = logging.getLogger(__name__)

KEEP = 256  # lines whose load is kept (its sockets ask within moments of each other)

_loads: OrderedDict[int, asyncio.Future] = OrderedDict()
# (line id, its time, language, viewer seated, viewer is its author) -> the line's frame (the time: an id
# a reset database gives again is another line)
_FRAMES = Kept(4 * KEEP)


async def line(message_id: int):
    """The line (None: gone, or its load failed) and the user ids it is not shown to."""
    load = _loads.get(message_id)
    if load is None or load.get_loop() is not asyncio.get_running_loop():
        load = asyncio.ensure_future(
            database_sync_to_async(selectors.chat_line, thread_sensitive=False)(message_id=message_id)
        )
        _loads[message_id] = load
        while len(_loads) > KEEP:
            _loads.popitem(last=False)
    try:
        return await asyncio.shield(load)
    except Exception:
        log.exception("chat line %s could not be loaded", message_id)
        return None, frozenset()


def frame(message, *, viewer, seated: bool) -> str:
    """The line as an out-of-band item of the chat log, in the current language, for ``viewer`` (seated or
    not): drawn once per language and per what the ``chat-message`` partial reads of its viewer (whether
    they have a seat, whether they wrote it: a seated reader may report another's line)."""
    author = viewer is not None and viewer.pk == message.user_id
    key = (message.pk, message.created_at, get_language(), seated, author)
    html = _FRAMES.get(key)
    if html is None:
        context = {"message": message, "oob": True, "user": viewer, "me": seated}
        html = render_to_string("games/table.html#chat-message", context)
        _FRAMES.put(key, html)
    return html
