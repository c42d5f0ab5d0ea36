"""The analysis worker's consumer: ``manage.py runworker analysis`` routes the ``analysis`` channel
here (rummyhub/asgi.py).  Every message — a finished match announced through a shared layer
(``analysis.request``) or the worker's own poll (``analysis.poll``, games.analysis.worker) — means
"analyse what is queued": the queue is the database, so a lost message loses nothing, and the
messages are handled one after another (one analysis at a time per worker process)."""

from __future__ import annotations

import logging

from channels.consumer import SyncConsumer

from games.analysis import services, worker

log = logging.getLogger(__name__)


class AnalysisConsumer(SyncConsumer):
    def analysis_request(self, message) -> None:
        self._run()

    def analysis_poll(self, message) -> None:
        self._run()

    def _run(self) -> None:
        try:
            done = services.run_pending(stop=worker.STOP)
        except Exception:  # the database away, say: the next poll tries again
            log.exception("the analysis worker could not read its queue")
            return
        if done:
            log.info("analysed %d match(es)", done)
