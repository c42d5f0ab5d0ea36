"""Production: the analysis worker in a process of its own, on a shared Redis layer.  A finishing match in
another process (this one) wakes it at once through the `analysis` channel; it does not wait for its
poll.  Runs whenever REDIS_URL is set (CI sets it)."""

from __future__ import annotations

import os
import time

import pytest

from games.analysis.models import AnalysisStatus, MatchAnalysis
from tests.games.analysis.support import DeclineOneMeldStepPerRound, play_with_mistakes
from tests.live import LiveAnalysisWorker

pytestmark = [
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (a shared channel layer)"),
]


def test_a_finished_match_wakes_the_worker_through_redis(alice, settings, sent, django_db_blocker):
    settings.RUMMYHUB_ANALYSIS_NOTIFY = True
    with django_db_blocker.unblock(), LiveAnalysisWorker({"RUMMYHUB_ANALYSIS_POLL": 3600}):
        time.sleep(2)  # its one poll at start is over (nothing to do yet); it listens on the channel
        match, _ = play_with_mistakes(
            alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 30}
        )
        for _ in range(300):
            row = MatchAnalysis.objects.filter(match=match).first()
            if row is not None and row.status == AnalysisStatus.DONE:
                break
            time.sleep(0.1)
    assert row is not None and row.status == AnalysisStatus.DONE and row.steps
