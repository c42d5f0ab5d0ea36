"""Shared test set-up: report which database and channel layer the run uses; the named players."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import hashers
from django.db import connections
from django.utils import translation


def pytest_configure(config):
    # In-process tests drive the clock themselves (services.match_tick / run_until_human);
    # the live daphne of the browser tests switches it back on.
    settings.RUMMYHUB_CLOCK = False
    settings.RUMMYHUB_BOT_DELAY = 0
    # A fast password hasher: the site's own (Django's PBKDF2, a million rounds) took 0.7-2 s a user
    # on this machine, for every user a test makes and every log-in through a form (the browser
    # tests' server, forked from here, checks passwords with it too).  What is tested of passwords
    # (rules, reset, log-in, rate limits) does not depend on the hasher; the site's is checked in
    # tests/rummyhub/test_settings.py.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    hashers.get_hashers.cache_clear()
    hashers.get_hashers_by_algorithm.cache_clear()
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        from django.db.backends.postgresql.operations import DatabaseOperations

        DatabaseOperations.sql_flush = _flush_by_delete(DatabaseOperations.sql_flush)


def _flush_by_delete(truncate):
    """PostgreSQL's flush after each transactional test (and each browser test) as DELETEs, not one TRUNCATE:
    a TRUNCATE of the project's 43 tables makes new files for each table and index, ~0.3 s a test on this
    machine, where deleting the few rows a test leaves takes ~13 ms.  Django's foreign keys are deferrable, so
    the order of the deletes does not matter within the flush's one transaction.

    The tables are locked first as a TRUNCATE locks them (ACCESS EXCLUSIVE, all at once): the browser tests'
    live server may still write (a presence heartbeat of a page being closed), and a row it put between two
    of the deletes pointed at a user deleted after it, which failed the flush's foreign-key check (seen once in
    a browser run).  A flush that restarts the sequences (``reset_sequences``) is Django's TRUNCATE ... RESTART
    IDENTITY still."""

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if not tables or reset_sequences:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        names = [self.quote_name(table) for table in tables]
        return [f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE;", "SET CONSTRAINTS ALL DEFERRED;"] + [
            f"DELETE FROM {name};" for name in names
        ]

    return sql_flush


def pytest_sessionstart(session):
    """The compiled catalogues (git-ignored, built by make) brought up to date with the .po files, so a
    run of pytest alone tests the translations as they are (Corsican is offered only with its .mo)."""
    for po in Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime) and shutil.which("msgfmt"):
            # Written aside and moved into place: the suite's parallel workers may all be here at once.
            fresh = mo.with_suffix(f".mo.{os.getpid()}")
            subprocess.run(["msgfmt", "--check-format", "-o", str(fresh), str(po)], check=True)
            os.replace(fresh, mo)


def pytest_report_header(config):
    db = settings.DATABASES["default"]
    where = db.get("HOST") or db.get("NAME")
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    return [f"rummyhub: database {db['ENGINE'].rsplit('.', 1)[-1]} ({where}); channel layer {layer}"]


@pytest.fixture(autouse=True)
def _language_of_the_site():
    """Each test starts in the site's default language: a request through LocaleMiddleware (a
    player's profile language, a language cookie) leaves its language active in the test's thread,
    which would otherwise carry over into the next test's renders."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def make_user(django_user_model):
    """Create a user with a known password: ``make_user("alice")``."""

    def make(username: str, password: str = "correct-horse-battery", **extra):
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


# The named players (STYLE.md "Tests"), each created when a test asks for them, in the order asked.


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def dave(make_user):
    return make_user("dave")


@pytest.fixture
def erin(make_user):
    return make_user("erin")


@pytest.fixture
def alice_client(client, alice):
    """The test client logged in as alice (``alice_client.user``)."""
    client.force_login(alice)
    client.user = alice
    return client


@pytest.fixture(autouse=True)
def _fresh_pool_after_socket_tests(request):
    """After a transactional (socket) test on PostgreSQL, start the next test with a fresh pool.

    A socket test's event loop runs database calls on worker threads of its own default
    executor; those threads end with the test's loop, and a connection a thread still held
    is never handed back to the pool, which counts it as checked out.  A few tests of that
    kind in a row exhausted the pool (PoolTimeout) and every later test failed.
    """
    yield
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not (marker.kwargs.get("transaction") or "transactional_db" in request.fixturenames):
        return
    for conn in connections.all(initialized_only=True):
        if conn.vendor == "postgresql" and conn.pool is not None:
            stats = conn.pool.get_stats()
            if stats.get("pool_size", 0) - stats.get("pool_available", 0) > 2:
                conn.close()
                conn.close_pool()


@pytest.fixture(scope="session", autouse=True)
def _close_database_pools(django_db_setup, django_db_blocker):
    """PostgreSQL pools keep connections open; close them so the test database can be dropped."""
    yield
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
