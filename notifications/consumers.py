"""The notifications worker's consumer: ``manage.py runworker notifications`` routes the
``notifications`` channel here (rummyhub/asgi.py).  A wake (``notifications.request``, through a
shared layer when a notice is made) or the worker's own poll (``notifications.poll``, every
RUMMYHUB_NOTIFY_POLL seconds, games.analysis.worker) both mean "deliver what is due": the queue is
the database, so a lost message loses nothing."""

from __future__ import annotations

import logging

from channels.consumer import SyncConsumer

from notifications import services

log = logging.getLogger(__name__)


class NotifyConsumer(SyncConsumer):
    def notifications_request(self, message) -> None:
        self._run()

    def notifications_poll(self, message) -> None:
        self._run()

    def _run(self) -> None:
        try:
            services.deliver_due()
        except Exception:  # the database away, say: the next poll tries again
            log.exception("the notifications worker could not read its queue")
