"""``manage.py runworker analysis``: Channels' worker command with the analysis worker's poll
(games.analysis.worker) and a clean stop: on SIGINT or SIGTERM the running analysis goes back to the
queue and the process ends."""

from __future__ import annotations

import signal

from channels.management.commands import runworker

from games.analysis.worker import STOP, PollingWorker


def _stop(signum, frame):
    STOP.set()
    raise KeyboardInterrupt


class Command(runworker.Command):
    help = "Run a Channels worker on the given channels (`analysis`: the post-game analysis)."
    worker_class = PollingWorker

    def handle(self, *args, **options):
        signal.signal(signal.SIGTERM, _stop)
        signal.signal(signal.SIGINT, _stop)
        super().handle(*args, **options)
