"""A real daphne server in a child process, for browser and cross-process tests.

pytest-django's ``live_server`` is WSGI only; websockets need daphne.  Traps
(STACK.md): start it with the database unblocked; in the child, give asgiref a
fresh single-thread executor (a fork after async tests leaves it pointing at a
dead thread) and drop inherited DB connections.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from daphne.testing import BaseDaphneTestingInstance
from django.conf import settings
from django.contrib.contenttypes.models import ContentTypeManager
from django.db import connections
from django.test import Client

from rummyhub.asgi import application


class LiveDaphne(BaseDaphneTestingInstance):
    startup_timeout = 20

    def __init__(self, settings_overrides: dict | None = None):
        super().__init__(application=None)
        self.settings_overrides = settings_overrides or {}

    def get_application(self):
        return application

    def process_setup(self):
        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        _drop_connections(connections)
        for alias in connections:
            db = settings.DATABASES[alias]
            if db["ENGINE"] == "django.db.backends.postgresql":
                # The test process flushes the tables (tests/conftest.py: DELETEs) between tests while this server's
                # clock may be in a transaction: let the server give up its locks first (before
                # PostgreSQL's 1 s deadlock check picks the flush as the victim).
                db.setdefault("OPTIONS", {})["options"] = "-c lock_timeout=400"
        for key, value in self.settings_overrides.items():
            setattr(settings, key, value)
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
        # The test process flushes the tables between tests and re-creates the content types under new
        # ids: a content type this server kept (the admin's log of an added object) would point at a
        # row that is gone, so it keeps none.
        ContentTypeManager._add_to_cache = lambda self, using, ct: None

    def __enter__(self):
        _drop_connections(connections)  # the child must not share the parent's sockets
        super().__enter__()
        self.url = f"http://{self.host}:{self.port}"
        self.ws_url = f"ws://{self.host}:{self.port}"
        return self


class LiveAnalysisWorker:
    """``manage.py runworker analysis`` in a child process (games.analysis.worker), on this test
    database; stopped as the command is, with SIGTERM (its analysis goes back to the queue)."""

    def __init__(self, settings_overrides: dict | None = None):
        self.settings_overrides = settings_overrides or {}

    def _run(self) -> None:
        import signal

        from channels.layers import get_channel_layer

        from games.analysis.worker import PollingWorker
        from games.management.commands.runworker import _stop
        from plumbing.realtime import ANALYSIS_CHANNEL

        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        _drop_connections(connections)
        for key, value in self.settings_overrides.items():
            setattr(settings, key, value)
        signal.signal(signal.SIGTERM, _stop)
        PollingWorker(application=application, channels=[ANALYSIS_CHANNEL], channel_layer=get_channel_layer()).run()

    def __enter__(self):
        _drop_connections(connections)
        self.process = multiprocessing.get_context("fork").Process(target=self._run, daemon=True)
        self.process.start()
        return self

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.join(10)


def _drop_connections(connections) -> None:
    """Close every connection, and PostgreSQL pools too (a pool's threads do not survive a fork)."""
    connections.close_all()
    for conn in connections.all():
        if getattr(conn, "pool", None) is not None:
            conn.close_pool()


def session_cookie_for(user) -> str:
    """A ``sessionid`` value for a logged-in ``user`` (made through Django's test client)."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value
