"""The analysis worker process: Channels' worker (``manage.py runworker analysis``) that also polls.

With the embedded in-memory channel layer no other process can send this one a message, so the
worker wakes itself: every ``RUMMYHUB_ANALYSIS_POLL`` seconds it puts an ``analysis.poll`` message
straight into its ``analysis`` consumer's queue (no layer involved), and at start.  With a shared
(Redis) layer the servers also send ``analysis.request`` when a match finishes, so it starts at once;
the poll then only catches what was missed while no worker ran.  A poll is not queued behind another
that is still waiting.

Other workers share the poll: ``POLLS`` maps a channel to the message its consumer polls with and
the setting that says how often (the notifications app adds its own channel in its ``ready``), so
``runworker analysis notifications`` serves both in one process.

``STOP`` is set on SIGINT / SIGTERM (games/management/commands/runworker.py): the analysis running
stops at its next action and goes back to the queue.
"""

from __future__ import annotations

import asyncio
import threading
import warnings

from channels.worker import Worker
from django.conf import settings

from plumbing.realtime import ANALYSIS_CHANNEL

STOP = threading.Event()

# channel -> (the poll message's type, the setting naming the seconds between two polls)
POLLS: dict[str, tuple[str, str]] = {ANALYSIS_CHANNEL: ("analysis.poll", "RUMMYHUB_ANALYSIS_POLL")}


class PollingWorker(Worker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Channels wraps the worker's send (a plain function of asgiref's StatelessServer) in
        # async_to_sync for a sync consumer, which asgiref warns of at each consumer's start; this
        # consumer sends nothing.  (Only in the worker's process.)
        warnings.filterwarnings("ignore", message="async_to_sync was passed a non-async-marked callable")

    async def handle(self):
        tickers = [asyncio.ensure_future(self.ticker(channel)) for channel in self.channels if channel in POLLS]
        try:
            await super().handle()
        finally:
            for ticker in tickers:
                ticker.cancel()

    async def ticker(self, channel: str = ANALYSIS_CHANNEL) -> None:
        if channel not in self.channels:
            return
        kind, interval = POLLS[channel]
        scope = {"type": "channel", "channel": channel}
        while not STOP.is_set():
            queue = self.get_or_create_application_instance(channel, scope)
            if queue.empty():
                queue.put_nowait({"type": kind})
            await asyncio.sleep(getattr(settings, interval))
