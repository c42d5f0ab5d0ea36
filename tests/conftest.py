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
