"""Browser tests: Playwright driving Debian's Chromium against a live daphne server.

Run them in their own pytest invocation (`pytest -m e2e`): after a
sync-Playwright test, async tests in the same session fail (STACK.md).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.live import LiveDaphne

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
CHROMIUM = "/usr/bin/chromium"

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }


@pytest.fixture(scope="session")
def live_daphne(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), LiveDaphne(
        settings_overrides={"RUMMYHUB_BOT_DELAY": 0.05, "RUMMYHUB_CLOCK": True, "RUMMYHUB_CLOCK_INTERVAL": 0.05}
    ) as server:
        yield server


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
