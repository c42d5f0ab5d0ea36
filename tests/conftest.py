"""Shared test set-up: report which database and channel layer the run uses."""

from __future__ import annotations

import pytest


def pytest_configure(config):
    from django.conf import settings

    # In-process tests drive the clock themselves (services.match_tick / run_until_human);
    # the live daphne of the browser tests switches it back on.
    settings.RUMMYHUB_CLOCK = False
    settings.RUMMYHUB_BOT_DELAY = 0


def pytest_report_header(config):
    from django.conf import settings

    db = settings.DATABASES["default"]
    where = db.get("HOST") or db.get("NAME")
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    return [f"rummyhub: database {db['ENGINE'].rsplit('.', 1)[-1]} ({where}); channel layer {layer}"]


@pytest.fixture
def make_user(django_user_model):
    """Create a user with a known password: ``make_user("alice")``."""

    def make(username: str, password: str = "correct-horse-battery", **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture(scope="session", autouse=True)
def _close_database_pools(django_db_setup, django_db_blocker):
    """PostgreSQL pools keep connections open; close them so the test database can be dropped."""
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        connections.close_all()
        for conn in connections.all():
            if conn.vendor != "postgresql":
                continue
            conn.close_pool()  # a fresh pool: no connection of it was killed below
            # Connections left checked out by worker threads of finished event loops.
            with conn.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
        connections.close_all()
        for conn in connections.all():
            if conn.vendor == "postgresql":
                conn.close_pool()
