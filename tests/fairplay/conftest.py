"""The fair-play tests start with no rate-limit counters (they live in the default cache)."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def moderator(make_user):
    return make_user("moderator", is_staff=True, is_superuser=True)
