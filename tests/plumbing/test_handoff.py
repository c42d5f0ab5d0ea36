"""Bytes handed between the server's processes through Redis (plumbing/handoff.py).

The round trip runs whenever REDIS_URL is set (CI sets it); without Redis there is one process and
nothing to hand over, which the last tests check."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from plumbing import handoff

needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (a shared Redis)")


@pytest.fixture
def redis_settings(settings):
    settings.REDIS_URL = os.environ["REDIS_URL"]
    settings.REDIS_PREFIX = f"handoff-test-{os.getpid()}"
    return settings


@pytest.mark.redis
@needs_redis
def test_what_one_process_puts_another_gets_until_it_expires(redis_settings):
    assert handoff.enabled()
    handoff.put("k", b"\x00bytes\xff", seconds=0.3)

    async def get():
        return await handoff.get("k")

    assert asyncio.run(get()) == b"\x00bytes\xff"
    assert asyncio.run(handoff.get("never put")) is None
    time.sleep(0.4)
    assert asyncio.run(get()) is None


@pytest.mark.redis
@needs_redis
def test_a_key_is_the_sites_own(redis_settings):
    handoff.put("k", b"one site's", seconds=5)
    redis_settings.REDIS_PREFIX += "-another"
    assert asyncio.run(handoff.get("k")) is None


def test_redis_gone_is_nothing_handed_over_not_a_failure(settings, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:9/0"  # the discard port: nothing listens
    settings.REDIS_PREFIX = "gone"
    handoff.put("k", b"x", seconds=5)  # no exception
    assert asyncio.run(handoff.get("k")) is None
    assert "handing k over failed" in caplog.text
    assert "reading k handed over failed" in caplog.text


def test_without_redis_there_is_one_process_and_nothing_to_hand_over(settings):
    settings.REDIS_URL = ""
    assert not handoff.enabled()
    handoff.put("k", b"x", seconds=5)
    assert asyncio.run(handoff.get("k")) is None
