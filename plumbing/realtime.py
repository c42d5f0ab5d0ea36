"""The one module that spells channel-layer group names and sends broadcasts.

Channel-layer messages carry no cards and no secrets: only what changed
(``{"type": "table.changed", "id": 42, "version": 17}``); every consumer then
renders its own seat's view.  Broadcasts go out only after the surrounding
transaction commits, so a listener never sees a state that may roll back.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import threading
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

logger = logging.getLogger(__name__)

PRESENCE_GROUP = "presence"
LOBBY_GROUP = "lobby"


def table_group(match_id: int) -> str:
    return f"table-{match_id}"


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def user_group(user_id: int) -> str:
    """One signed-in user's sockets (the presence socket of each page they have open)."""
    return f"user-{user_id}"


def send_now(group: str, message: dict[str, Any]) -> None:
    """Send to a group from sync code, immediately (use :func:`broadcast_on_commit` inside transactions)."""
    _send_from_sync(lambda layer: layer.group_send(group, message), group)


# The analysis workers' channel (``manage.py runworker analysis``: games.analysis.consumers).
ANALYSIS_CHANNEL = "analysis"


def wake_analysis(match_id: int) -> None:
    """Tell the analysis workers a match has finished, where they can hear it: through a shared
    (Redis) layer, ``RUMMYHUB_ANALYSIS_NOTIFY``.  The embedded in-memory layer reaches no other
    process: there the worker finds the match by polling the database (games.analysis.worker)."""
    if settings.RUMMYHUB_ANALYSIS_NOTIFY:
        message = {"type": "analysis.request", "match": match_id}
        _send_from_sync(lambda layer: layer.send(ANALYSIS_CHANNEL, message), ANALYSIS_CHANNEL)


# The notifications worker's channel (``manage.py runworker notifications``: notifications.consumers).
NOTIFY_CHANNEL = "notifications"


def wake_notifications() -> None:
    """Tell the notifications workers a notice is due, where they can hear it (a shared layer,
    ``RUMMYHUB_NOTIFY_WAKE``); otherwise they find it by polling the database."""
    if settings.RUMMYHUB_NOTIFY_WAKE:
        message = {"type": "notifications.request"}
        _send_from_sync(lambda layer: layer.send(NOTIFY_CHANNEL, message), NOTIFY_CHANNEL)


def _send_from_sync(make, label: str) -> None:
    """Run ``make(layer)`` (a send coroutine) from sync code, whatever thread this is."""
    layer = get_channel_layer()
    if layer is None:
        return

    async def deliver(layer) -> None:
        await make(layer)

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        # A worker thread of an event loop (a socket's database_sync_to_async call): hand the
        # send to that loop and go on.  Waiting for it would hold this worker thread (one of
        # the loop's few) while the loop is busy, and moves queue for a free worker behind it.
        # asgiref leaves that loop in the thread's locals once the call is over: a loop that has
        # stopped since (a finished test's, a management command's) would never run the send, so
        # this thread sends it on a loop of its own, as any sync code does.
        main = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if main is None or main.is_closed() or not main.is_running():
            async_to_sync(deliver)(layer)
            return
        try:
            sent = asyncio.run_coroutine_threadsafe(deliver(layer), main)
        except RuntimeError:  # the loop closed in between
            async_to_sync(deliver)(layer)
            return
        sent.add_done_callback(functools.partial(_report_failure, label))
        return
    # Sync code running inside an event loop's thread (a script or test driving services
    # directly): send from a helper thread so the loop is not re-entered.
    worker = threading.Thread(target=async_to_sync(deliver), args=(layer,))
    worker.start()
    worker.join()


async def send(group: str, message: dict[str, Any]) -> None:
    """Send to a group from a consumer (async code, no transaction to wait for)."""
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group, message)


def _report_failure(group: str, sent: concurrent.futures.Future) -> None:
    if not sent.cancelled() and sent.exception() is not None:
        logger.error("broadcast to %s failed", group, exc_info=sent.exception())


def broadcast_on_commit(group: str, message: dict[str, Any]) -> None:
    """Send to a group once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: send_now(group, message))


_LANGUAGE = "rummyhub.language"  # where a connection's scope keeps its language once worked out


def scope_language(scope: dict[str, Any]) -> str:
    """The language a websocket connection should render in: cookie, then Accept-Language.

    Worked out once per connection (its cookies and headers do not change while it is open) and kept
    in its scope: a socket renders in it at every push."""
    language = scope.get(_LANGUAGE)
    if language is None:
        language = scope[_LANGUAGE] = _language_of(scope)
    return language


def _language_of(scope: dict[str, Any]) -> str:
    cookies = scope.get("cookies") or {}
    lang = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    supported = {code for code, _name in settings.LANGUAGES}
    if lang in supported:
        return lang
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            try:
                header = value.decode("latin-1")
            except Exception:  # pragma: no cover - defensive
                break
            for part in header.split(","):
                code = part.split(";")[0].strip().lower()
                if code in supported:
                    return code
                if code.split("-")[0] in supported:
                    return code.split("-")[0]
    return settings.LANGUAGE_CODE


class override_scope_language(translation.override):
    """``with override_scope_language(scope): render(...)``."""

    def __init__(self, scope: dict[str, Any]) -> None:
        super().__init__(scope_language(scope))


def render_user_fragment(scope: dict[str, Any], event: dict[str, Any]) -> str:
    """A ``user.fragment`` message (sent to :func:`user_group`) as the HTML a socket pushes: the
    partial it names (``template``: "file.html#partial"), with its ``context`` and ``oob`` set,
    in the socket's language.  Every socket of a page that joins its user's group (the presence
    socket, a table's) renders it the same way; the sender names the partial, the sockets know none."""
    with override_scope_language(scope):
        return render_to_string(event["template"], {**event.get("context", {}), "oob": True})
