"""The writes of the post-game analysis: queue a finished match, claim the next one, analyse it, store
the result (or the failure), never on a request.

- **Queue.** ``analysis_request`` (a finished match, from ``signals.match_finished``) and
  ``queue_missing`` (any finished match with no analysis of this analyser's version: older matches,
  or a new analyser) add a ``MatchAnalysis`` row, "queued".  The unique (match, version) constraint
  makes a second request a no-op.
- **Claim.** ``claim_next`` takes the queued row of the match finished last (or one whose worker
  died: claimed longer ago than ``RUMMYHUB_ANALYSIS_STALE``) with one conditional UPDATE, so two
  workers never take the same row, on SQLite as on PostgreSQL.
- **Analyse.** ``analyse`` walks the match (``runner.walk``), writes the progress at most twice a
  second, and stores the steps and each seat's summary in one transaction, with the worker's CPU
  time; the analyses of older versions of that match are dropped then.  A failure is logged, stored
  on the row ("failed", with the error, for staff) and the worker goes on; ``Interrupted`` (the
  worker stopping, or the database busy) puts the row back in the queue.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from games.analysis import runner
from games.analysis.models import AnalysisSeat, AnalysisStatus, MatchAnalysis
from games.engine import analysis as engine_analysis
from games.models import Match, MatchStatus, Seat
from games.services.retry import is_pool_timeout, is_transient
from games.signals import analysis_done
from plumbing import realtime

log = logging.getLogger(__name__)

VERSION = engine_analysis.VERSION
PROGRESS_EVERY = 0.5  # seconds between two writes of the progress


class Interrupted(Exception):
    """The worker is stopping: the analysis goes back to the queue."""


def analysis_request(*, match_id: int) -> None:
    """A match has finished: queue its analysis and wake a worker that can hear it."""
    _queue(match_id)
    realtime.wake_analysis(match_id)


def _queue(match_id: int) -> None:
    try:
        with transaction.atomic():
            MatchAnalysis.objects.get_or_create(match_id=match_id, version=VERSION)
    except IntegrityError:  # queued meanwhile by another caller
        pass


def queue_missing(*, limit: int = 50) -> int:
    """Queue the finished matches that have no analysis of this version (newest first); how many."""
    ids = list(
        Match.objects.filter(status=MatchStatus.FINISHED)
        .exclude(analyses__version=VERSION)
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[:limit]
    )
    MatchAnalysis.objects.bulk_create([MatchAnalysis(match_id=i, version=VERSION) for i in ids], ignore_conflicts=True)
    return len(ids)


def claim_next() -> MatchAnalysis | None:
    """Take a queued analysis, that of the match finished last (or a stale claim); None when there is none."""
    stale = timezone.now() - timedelta(seconds=settings.RUMMYHUB_ANALYSIS_STALE)
    waiting = Q(status=AnalysisStatus.QUEUED) | Q(status=AnalysisStatus.RUNNING, claimed_at__lt=stale)
    # The latest finished first: a player waiting at a match page goes before a backlog of old matches.
    for row in (
        MatchAnalysis.objects.filter(waiting, version=VERSION)
        .order_by("-match__finished_at", "pk")
        .values("pk", "status", "claimed_at")[:20]
    ):
        now = timezone.now()
        taken = MatchAnalysis.objects.filter(pk=row["pk"], status=row["status"], claimed_at=row["claimed_at"]).update(
            status=AnalysisStatus.RUNNING, claimed_at=now, progress=0, error=""
        )
        if taken:
            return MatchAnalysis.objects.get(pk=row["pk"])
    return None


def analyse(row: MatchAnalysis, *, stop: threading.Event | None = None) -> MatchAnalysis:
    """Analyse a claimed row's match and store the result (or the failure; ``Interrupted`` re-queues)."""
    started = time.thread_time()
    try:
        match = Match.objects.get(pk=row.match_id)
        if match.status != MatchStatus.FINISHED:
            raise ValueError(f"match {match.pk} is {match.status}, not finished")
        total = runner.action_count(match)
        MatchAnalysis.objects.filter(pk=row.pk).update(total=total)
        steps = runner.walk(match, max_states=settings.RUMMYHUB_ANALYSIS_MAX_STATES, on_action=_progress(row.pk, stop))
        _store(row, match, steps, time.thread_time() - started)
        _announce(row, steps)
    except Interrupted:
        _requeue(row)
        raise
    except Exception as exc:
        if is_transient(exc) or is_pool_timeout(exc):  # the database was busy (SQLite's one writer): later
            log.warning("analysis of match %s put off: %s", row.match_id, exc)
            _requeue(row)
            raise Interrupted from exc
        log.exception("analysis of match %s failed", row.match_id)
        error = "".join(traceback.format_exception(exc, limit=-8))[-4000:]
        MatchAnalysis.objects.filter(pk=row.pk).update(
            status=AnalysisStatus.FAILED,
            error=error,
            finished_at=timezone.now(),
            cpu_seconds=time.thread_time() - started,
        )
    row.refresh_from_db()
    return row


def _announce(row: MatchAnalysis, steps: list[dict[str, Any]]) -> None:
    """Tell the features that build on an analysis (the puzzles) that it is stored; a receiver's
    failure is logged with the match id and never fails the analysis."""
    for receiver, result in analysis_done.send_robust(sender=MatchAnalysis, match_id=row.match_id, steps=steps):
        if isinstance(result, Exception):
            log.error("after the analysis of match %s, %s failed: %r", row.match_id, receiver, result)


def _requeue(row: MatchAnalysis) -> None:
    MatchAnalysis.objects.filter(pk=row.pk, status=AnalysisStatus.RUNNING).update(
        status=AnalysisStatus.QUEUED, claimed_at=None, progress=0
    )


def _progress(pk: int, stop: threading.Event | None) -> Callable[[], None]:
    """Called after each action walked: count it, write the count now and then, stop if asked."""
    state = {"done": 0, "written": time.monotonic()}

    def step() -> None:
        if stop is not None and stop.is_set():
            raise Interrupted
        state["done"] += 1
        now = time.monotonic()
        if now - state["written"] >= PROGRESS_EVERY:
            state["written"] = now
            try:
                MatchAnalysis.objects.filter(pk=pk).update(progress=state["done"])
            except OperationalError:  # the database busy: the page shows this count at the next write
                pass

    return step


def _store(row: MatchAnalysis, match: Match, steps: list[dict[str, Any]], cpu: float) -> None:
    seats = list(Seat.objects.filter(match=match).order_by("index").values("index", "user_id"))
    summary = engine_analysis.summarise(steps, len(seats))
    with transaction.atomic():
        AnalysisSeat.objects.filter(analysis_id=row.pk).delete()
        AnalysisSeat.objects.bulk_create(
            [
                AnalysisSeat(
                    analysis_id=row.pk,
                    seat=s["index"],
                    user_id=s["user_id"],
                    variant=match.variant,
                    **summary[s["index"]],
                )
                for s in seats
            ]
        )
        MatchAnalysis.objects.filter(pk=row.pk).update(
            status=AnalysisStatus.DONE,
            steps=steps,
            progress=F("total"),
            finished_at=timezone.now(),
            cpu_seconds=cpu,
            error="",
        )
        MatchAnalysis.objects.filter(match=match).exclude(pk=row.pk).filter(version__lt=VERSION).delete()


def run_pending(*, stop: threading.Event | None = None, limit: int | None = None) -> int:
    """Analyse queued matches one after another (queuing the missing ones when the queue is empty)
    until none is left, ``limit`` are done or ``stop`` is set; how many were analysed.  One bad match
    is marked failed and the next one is taken."""
    done = 0
    while (limit is None or done < limit) and not (stop is not None and stop.is_set()):
        row = claim_next()
        if row is None and queue_missing():
            row = claim_next()
        if row is None:
            break
        try:
            analyse(row, stop=stop)
        except Interrupted:
            break
        done += 1
    return done


def analyse_match(*, match_id: int) -> MatchAnalysis:
    """Analyse one match now (a command, tests): queue it, claim it, analyse it.  A match already
    analysed by this version is returned as it is: analysing twice stores one result."""
    _queue(match_id)
    row = MatchAnalysis.objects.get(match_id=match_id, version=VERSION)
    if row.status in (AnalysisStatus.DONE, AnalysisStatus.FAILED):
        return row
    taken = MatchAnalysis.objects.filter(pk=row.pk, status=row.status, claimed_at=row.claimed_at).update(
        status=AnalysisStatus.RUNNING, claimed_at=timezone.now()
    )
    if not taken:  # a worker has it
        row.refresh_from_db()
        return row
    return analyse(row)


def analysis_retry(*, analysis_ids: list[int]) -> int:
    """Staff: put failed (or any) analyses back in the queue; how many."""
    return MatchAnalysis.objects.filter(pk__in=analysis_ids).update(
        status=AnalysisStatus.QUEUED, claimed_at=None, progress=0, error="", finished_at=None
    )
