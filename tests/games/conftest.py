"""Shared set-up of the games tests."""

from __future__ import annotations

import pytest

from plumbing import realtime


@pytest.fixture
def sent(monkeypatch):
    """Every channel-layer message the services send (after commit)."""
    messages: list[tuple[str, dict]] = []
    monkeypatch.setattr(realtime, "send_now", lambda group, message: messages.append((group, message)))
    return messages
