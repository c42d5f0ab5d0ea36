"""The post-game analysis of stored matches (games.analysis.services): matches with known mistakes
are found to have exactly those missed plays, at the replay's steps; analysing twice stores one
result; a bad match is marked failed (and logged) while the worker goes on; a later analyser redoes
old analyses; a stopping worker puts its analysis back in the queue."""

from __future__ import annotations

import logging
import threading

import pytest

from games.analysis import services
from games.analysis.models import AnalysisSeat, AnalysisStatus, MatchAnalysis
from games.history.selectors import replay_step
from games.models import Event, MatchStatus
from games.services.rounds import _after_match_finished
from plumbing import realtime
from tests.games.analysis.support import DeclineOneMeldStepPerRound, NeverKnock, play_with_mistakes

pytestmark = pytest.mark.django_db


@pytest.fixture
def manipulation_match(alice, settings, sent):
    return play_with_mistakes(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 30}
    )


def test_the_known_missed_meld_steps_are_found_exactly(manipulation_match):
    match, mistakes = manipulation_match
    assert mistakes, "the fixture made no mistake"
    row = services.analyse_match(match_id=match.pk)
    assert row.status == AnalysisStatus.DONE and row.error == "" and row.cpu_seconds is not None
    assert row.progress == row.total == Event.objects.filter(match=match, kind="action").count()
    mine = [s for s in row.steps if s["seat"] == 0 and s["status"] == "ok"]
    assert {(s["round"], s["k"]) for s in mine if s["missed"]} == set(mistakes)
    for s in mine:
        if s["missed"]:  # the turn was ended: nothing laid, and the best play is there with its rearrangement
            assert s["action"] == "end_turn" and s["laid_cards"] == 0 and s["best_cards"] > 0
            assert s["best"]["laid"] and sum(len(m["cards"]) for m in s["best"]["laid"]) == s["best_cards"]
        else:
            assert (s["laid_points"], s["laid_cards"]) == (s["best_points"], s["best_cards"])
    # the bot lays the solver's best play: each of its melds is the best
    assert all(not s["missed"] for s in row.steps if s["seat"] == 1 and s["action"] == "meld")
    # each step is the replay's step of that action
    for s in mine[:6]:
        shown = replay_step(match=match, step=s["step"])
        assert (shown["round"], shown["round_step"], shown["actor"]) == (s["round"], s["k"], 0)
    summary = AnalysisSeat.objects.get(analysis=row, seat=0)
    assert summary.user_id == match.host_id and summary.variant == "manipulation"
    assert summary.steps == len(mine) and summary.best == len(mine) - len(mistakes)
    missed = [s for s in mine if s["missed"]]
    assert summary.missed_points == sum(s["best_points"] for s in missed)


def test_the_known_missed_knocks_are_found_exactly(alice, settings, sent):
    match, mistakes = play_with_mistakes(
        alice, settings=settings, policy=NeverKnock(), variant="gin", seed="3", options={"game_target": 40}
    )
    assert mistakes
    row = services.analyse_match(match_id=match.pk)
    assert row.status == AnalysisStatus.DONE
    mine = [s for s in row.steps if s["seat"] == 0]
    assert {(s["round"], s["k"]) for s in mine if s["missed_knock"]} == set(mistakes)
    assert all(not s["missed_knock"] and not s["missed_gin"] for s in row.steps if s["seat"] == 1)
    summary = AnalysisSeat.objects.get(analysis=row, seat=0)
    assert summary.missed_knocks == len(mistakes)


def test_a_finished_match_is_queued_and_its_analysis_requested(manipulation_match, monkeypatch):
    match, _mistakes = manipulation_match
    woken = []
    monkeypatch.setattr(realtime, "wake_analysis", woken.append)
    _after_match_finished(match.pk)  # what the finishing transaction runs on commit (signals.match_finished)
    row = MatchAnalysis.objects.get(match=match)
    assert (row.status, row.version) == (AnalysisStatus.QUEUED, services.VERSION) and woken == [match.pk]
    _after_match_finished(match.pk)
    assert MatchAnalysis.objects.filter(match=match).count() == 1


def test_a_match_analysed_twice_stores_one_result(manipulation_match):
    match, _mistakes = manipulation_match
    services.analysis_request(match_id=match.pk)
    first = services.analyse_match(match_id=match.pk)
    services.analysis_request(match_id=match.pk)
    second = services.analyse_match(match_id=match.pk)
    assert first.pk == second.pk and MatchAnalysis.objects.filter(match=match).count() == 1
    assert AnalysisSeat.objects.filter(analysis=first).count() == 2
    assert services.run_pending() == 0  # nothing left to do
    assert services.claim_next() is None


def test_two_workers_never_take_the_same_analysis(manipulation_match):
    match, _mistakes = manipulation_match
    assert services.queue_missing() == 1
    first = services.claim_next()
    assert first is not None and first.match_id == match.pk and first.status == AnalysisStatus.RUNNING
    assert services.claim_next() is None


def test_a_stale_claim_is_taken_again(manipulation_match, settings):
    match, _mistakes = manipulation_match
    services.analysis_request(match_id=match.pk)
    assert services.claim_next() is not None  # its worker dies here
    settings.RUMMYHUB_ANALYSIS_STALE = 0
    again = services.claim_next()
    assert again is not None and again.match_id == match.pk


def test_the_worker_survives_a_bad_match(manipulation_match, alice, settings, sent, caplog):
    bad, _mistakes = manipulation_match
    event = Event.objects.filter(match=bad, kind="action").order_by("seq")[3]
    event.action = {"type": "meld", "table": [["KS.9"]]}  # no such card: the replay fails
    event.save()
    good, _mistakes = play_with_mistakes(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="6", options={"game_target": 20}
    )
    with caplog.at_level(logging.ERROR, logger="games.analysis.services"):
        assert services.run_pending() == 2
    failed = MatchAnalysis.objects.get(match=bad)
    assert failed.status == AnalysisStatus.FAILED and "KS.9" in failed.error
    assert not AnalysisSeat.objects.filter(analysis=failed).exists()
    assert MatchAnalysis.objects.get(match=good).status == AnalysisStatus.DONE
    assert any(f"analysis of match {bad.pk} failed" in r.getMessage() for r in caplog.records)
    # staff put it back in the queue (admin action): it is tried again
    services.analysis_retry(analysis_ids=[failed.pk])
    assert MatchAnalysis.objects.get(pk=failed.pk).status == AnalysisStatus.QUEUED


def test_a_match_not_finished_is_not_analysed(alice, settings, sent):
    match, _ = play_with_mistakes(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 30}
    )
    match.status = MatchStatus.PLAYING
    match.save(update_fields=["status"])
    MatchAnalysis.objects.all().delete()
    assert services.queue_missing() == 0
    row = services.analyse_match(match_id=match.pk)
    assert row.status == AnalysisStatus.FAILED and "not finished" in row.error


def test_a_later_analyser_redoes_old_analyses(manipulation_match, monkeypatch):
    match, _mistakes = manipulation_match
    old = services.analyse_match(match_id=match.pk)
    monkeypatch.setattr(services, "VERSION", services.VERSION + 1)
    assert services.queue_missing() == 1
    assert services.run_pending() == 1
    rows = list(MatchAnalysis.objects.filter(match=match))
    assert [r.version for r in rows] == [services.VERSION] and rows[0].status == AnalysisStatus.DONE
    assert rows[0].pk != old.pk and rows[0].steps == old.steps


def test_a_stopping_worker_puts_its_analysis_back_in_the_queue(manipulation_match):
    match, _mistakes = manipulation_match
    stop = threading.Event()
    stop.set()
    assert services.run_pending(stop=stop) == 0
    services.analysis_request(match_id=match.pk)
    row = services.claim_next()
    with pytest.raises(services.Interrupted):
        services.analyse(row, stop=stop)
    row.refresh_from_db()
    assert row.status == AnalysisStatus.QUEUED and row.claimed_at is None


def test_staff_see_a_failed_analysis_and_queue_it_again(manipulation_match, client, make_user):
    match, _mistakes = manipulation_match
    services.analysis_request(match_id=match.pk)
    MatchAnalysis.objects.filter(match=match).update(status=AnalysisStatus.FAILED, error="ValueError: boom")
    row = MatchAnalysis.objects.get(match=match)
    client.force_login(make_user("erin", is_staff=True, is_superuser=True))
    listing = client.get("/admin/games/matchanalysis/?status__exact=failed").content.decode()
    assert f"/admin/games/matchanalysis/{row.pk}/change/" in listing
    assert "ValueError: boom" in client.get(f"/admin/games/matchanalysis/{row.pk}/change/").content.decode()
    client.post("/admin/games/matchanalysis/", {"action": "retry", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.status == AnalysisStatus.QUEUED and row.error == ""


def test_the_match_finished_last_is_analysed_first(alice, bob, settings, sent):
    older, _ = play_with_mistakes(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="5", options={"game_target": 20}
    )
    newer, _ = play_with_mistakes(
        bob, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="6", options={"game_target": 20}
    )
    services.analysis_request(match_id=newer.pk)
    services.analysis_request(match_id=older.pk)  # queued last, finished first
    assert services.claim_next().match_id == newer.pk
    assert services.claim_next().match_id == older.pk
