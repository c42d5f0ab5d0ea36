"""The fair-play tests start and end with no rate-limit counters of this process."""

from __future__ import annotations

import pytest

from tests.fairplay.support import clear_rate_limits


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    clear_rate_limits()
    yield
    clear_rate_limits()


@pytest.fixture
def moderator(make_user):
    return make_user("moderator", is_staff=True, is_superuser=True)
