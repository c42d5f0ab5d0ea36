"""Puzzle services (games.puzzles.services): generation from finished matches only (after the
analysis, and over past matches), each position stored once; the one rated attempt; ratings move the
right way on a solve and a miss; the streak."""

from __future__ import annotations

import json

import pytest

from games.analysis import services as analysis_services
from games.engine.manipulation import ManipulationState
from games.engine.puzzles import manipulation as pm
from games.models import Match, MatchStatus
from games.puzzles import rating, services
from games.puzzles.models import Puzzle, PuzzleAttempt, PuzzleRating
from tests.games.analysis.support import DeclineOneMeldStepPerRound, play_with_mistakes
from tests.games.puzzles import support

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_match(alice, settings, sent):
    # A match whose positions hold puzzles (about half the seeds do; which ones depends on the bots'
    # and the solver's choices among equally good plays: "5" gave two before the solver's new search).
    match, _mistakes = play_with_mistakes(
        alice, settings=settings, policy=DeclineOneMeldStepPerRound(), seed="2", options={"game_target": 30}
    )
    return match


def test_the_analysis_generates_the_puzzles_of_a_finished_match_once(finished_match):
    row = analysis_services.analyse_match(match_id=finished_match.pk)  # signals.analysis_done → puzzles
    made = list(Puzzle.objects.filter(match=finished_match))
    assert made, "the fixture match gave no puzzle"
    # over the past match again (the management command's path): nothing new, the same positions found
    assert services.puzzles_generate(match_id=finished_match.pk) == 0
    Puzzle.objects.filter(match=finished_match).delete()
    assert services.puzzles_generate(match_id=finished_match.pk, steps=row.steps) == len(made)
    for p in Puzzle.objects.filter(match=finished_match):
        state = ManipulationState.from_dict(p.position)
        # the position is what the player saw: their hand and the table, no other hand, no stock
        assert all(not h for i, h in enumerate(state.hands) if i != p.seat) and not state.stock
        assert pm.check_answer(state, p.seat, p.solution, p.solution["table"])["ok"]
        assert p.solution["cards"] - p.solution["second"] >= pm.CARD_MARGIN
        assert p.solution["plain"] < p.solution["cards"]


def test_a_live_match_gives_no_puzzle(finished_match):
    Match.objects.filter(pk=finished_match.pk).update(status=MatchStatus.PLAYING)
    assert services.puzzles_generate(match_id=finished_match.pk) == 0
    assert not Puzzle.objects.exists()


def test_the_management_command_generates_from_past_matches(finished_match, capsys):
    from django.core.management import call_command

    call_command("puzzles_generate", "--limit", "5")
    out = capsys.readouterr().out
    assert f"match {finished_match.pk}:" in out
    assert Puzzle.objects.filter(match=finished_match).count() == int(out.split(" new puzzles from")[0].split()[-1])


def test_a_solve_raises_the_player_and_lowers_the_puzzle(alice):
    puzzle = support.manipulation_puzzle(alice)
    verdict = services.puzzle_answer(puzzle_id=puzzle.pk, user=alice, solved=True, answer={"x": 1})
    assert verdict.solved and verdict.rating_after > verdict.rating_before == rating.SHOWN_START
    puzzle.refresh_from_db()
    assert rating.shown(puzzle.rating_mu) < rating.SHOWN_START
    assert (puzzle.attempts, puzzle.solves) == (1, 1)
    mine = PuzzleRating.objects.get(user=alice)
    assert (mine.streak, mine.best_streak, mine.solved, mine.attempted) == (1, 1, 1, 1)


def test_a_miss_lowers_the_player_raises_the_puzzle_and_ends_the_streak(alice, bob):
    first = support.manipulation_puzzle(alice, step=1)
    second = support.gin_puzzle(alice, step=2)
    services.puzzle_answer(puzzle_id=first.pk, user=bob, solved=True, answer={})
    before = PuzzleRating.objects.get(user=bob).mu
    verdict = services.puzzle_answer(puzzle_id=second.pk, user=bob, solved=False, answer={})
    assert not verdict.solved and verdict.rating_after < verdict.rating_before
    assert PuzzleRating.objects.get(user=bob).mu < before
    second.refresh_from_db()
    assert rating.shown(second.rating_mu) > rating.SHOWN_START and (second.attempts, second.solves) == (1, 0)
    mine = PuzzleRating.objects.get(user=bob)
    assert (mine.streak, mine.best_streak) == (0, 1)


def test_a_second_answer_is_refused_and_changes_nothing(alice):
    puzzle = support.manipulation_puzzle(alice)
    services.puzzle_answer(puzzle_id=puzzle.pk, user=alice, solved=False, answer={})
    mine = PuzzleRating.objects.get(user=alice)
    with pytest.raises(services.AlreadyAnswered):
        services.puzzle_answer(puzzle_id=puzzle.pk, user=alice, solved=True, answer={})
    again = PuzzleRating.objects.get(user=alice)
    assert (again.mu, again.sigma, again.solved, again.attempted) == (mine.mu, mine.sigma, 0, 1)
    assert PuzzleAttempt.objects.filter(user=alice, puzzle=puzzle).count() == 1
    puzzle.refresh_from_db()
    assert puzzle.attempts == 1


def test_a_stored_position_is_json_with_no_other_hand(alice):
    puzzle = support.manipulation_puzzle(alice)
    text = json.dumps(puzzle.position)
    assert "2C.0" not in text and "2D.0" not in text  # the other hand and the stock of the fixture
