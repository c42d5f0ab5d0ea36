"""The analysis worker (``manage.py runworker analysis``: Channels' worker with the poll of
games.analysis.worker) in this process, on the in-memory layer: it finds a finished match by polling
the database (the embedded default, where no other process can send it a message), and it starts
at once on an ``analysis.request`` (what the servers send through a shared Redis layer)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games.analysis import worker as analysis_worker
from games.analysis.models import AnalysisStatus, MatchAnalysis
from plumbing.realtime import ANALYSIS_CHANNEL
from rummyhub.asgi import application
from tests.games.analysis.support import DeclineOneMeldStepPerRound, play_with_mistakes

pytestmark = pytest.mark.django_db(transaction=True)


async def done(match_id: int, timeout: float = 60) -> MatchAnalysis:
    for _ in range(int(timeout / 0.1)):
        row = await sync_to_async(MatchAnalysis.objects.filter(match_id=match_id).first)()
        if row is not None and row.status == AnalysisStatus.DONE:
            return row
        await asyncio.sleep(0.1)
    raise AssertionError(f"match {match_id} was not analysed")


async def run_worker(body):
    analysis_worker.STOP.clear()
    worker = analysis_worker.PollingWorker(
        application=application, channels=[ANALYSIS_CHANNEL], channel_layer=get_channel_layer()
    )
    task = asyncio.ensure_future(worker.arun())
    try:
        return await body()
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_the_worker_finds_finished_matches_by_polling(alice, settings, sent):
    settings.RUMMYHUB_ANALYSIS_POLL = 0.2
    match, _ = await sync_to_async(play_with_mistakes)(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 30}
    )
    await sync_to_async(MatchAnalysis.objects.all().delete)()  # as if it finished before the worker existed
    row = await run_worker(lambda: done(match.pk))
    assert row.steps and row.cpu_seconds is not None


async def test_the_worker_starts_at_once_on_a_request(alice, settings, sent):
    settings.RUMMYHUB_ANALYSIS_POLL = 3600  # one poll at start (nothing to do yet), then none in this test

    async def body():
        await asyncio.sleep(0.3)
        match, _ = await sync_to_async(play_with_mistakes)(
            alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 30}
        )
        await get_channel_layer().send(ANALYSIS_CHANNEL, {"type": "analysis.request", "match": match.pk})
        return await done(match.pk, timeout=30)

    row = await run_worker(body)
    assert row.status == AnalysisStatus.DONE


def test_runworker_is_the_projects_command_with_the_poll():
    from django.core.management import get_commands, load_command_class

    assert get_commands()["runworker"] == "games"
    assert load_command_class("games", "runworker").worker_class is analysis_worker.PollingWorker
