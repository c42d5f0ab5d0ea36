"""The puzzle pages (games.puzzles.views): signed-in only; the game's board fragments with the
puzzle's position; drafts checked by the engine; the verdict at once, the solution on a miss, the
rating change; hostile input on the answer endpoint refused clearly, changing nothing."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.puzzles.models import PuzzleAttempt, PuzzleRating
from plumbing import answers
from tests.games.puzzles import support

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def answer_url(p):
    return reverse("puzzles:answer", args=[p.pk])


def test_the_pages_are_for_signed_in_players_only(client, alice):
    puzzle = support.manipulation_puzzle(alice)
    for url in (reverse("puzzles:index"), reverse("puzzles:play", args=[puzzle.pk]), reverse("puzzles:next")):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post(answer_url(puzzle), {"table": json.dumps(support.SOLVED_TABLE)})
    assert response.status_code == 302 and not PuzzleAttempt.objects.exists()


def test_a_manipulation_puzzle_is_drawn_with_the_games_own_board(alice_client):
    puzzle = support.manipulation_puzzle(alice_client.user)
    html = alice_client.get(reverse("puzzles:play", args=[puzzle.pk])).content.decode()
    assert 'id="melds"' in html and 'id="hand"' in html and 'data-meld="new"' in html
    for card in ("4S.0", "4D.0", "9S.0", "9D.0", "KC.0", "4H.0", "9H.0"):
        assert f'data-id="{card}"' in html
    assert 'data-id="2C.0"' not in html and 'data-id="2D.0"' not in html  # never another hand or the stock
    assert "js/cards.js" in html and "js/manipulation.js" in html and "js/puzzle.js" in html


def test_a_gin_puzzle_does_not_give_the_answer_away(alice_client):
    puzzle = support.gin_puzzle(alice_client.user)
    html = alice_client.get(reverse("puzzles:play", args=[puzzle.pk])).content.decode()
    assert 'id="gin-hand"' in html and "data-discard-select" in html
    assert "deadwood 14" not in html and "after your best discard" not in html
    assert " selected" not in html.split("data-discard-select")[1].split("</select>")[0]


def test_a_draft_is_checked_and_kept_then_submitted_and_solved(alice_client):
    puzzle = support.manipulation_puzzle(alice_client.user)
    draft_url = reverse("puzzles:draft", args=[puzzle.pk])
    bad = alice_client.post(
        draft_url, {"table": json.dumps([["4H.0", "4S.0"], ["5H.0", "6H.0", "7H.0", "8H.0", "9H.0"]])}, **HX
    )
    assert bad.status_code == 200 and 'id="draft-errors"' in bad.content.decode()
    good = alice_client.post(draft_url, {"table": json.dumps(support.SOLVED_TABLE)}, **HX)
    assert 'data-action="submit-puzzle"' in good.content.decode()
    response = alice_client.post(answer_url(puzzle), {}, **HX)  # the draft kept in the session
    html = response.content.decode()
    assert response.status_code == 200 and 'data-verdict="solved"' in html
    assert "1000 → 10" in html  # the rating change, up
    attempt = PuzzleAttempt.objects.get(user=alice_client.user, puzzle=puzzle)
    assert attempt.solved and attempt.rating_after > attempt.rating_before
    assert f'href="{reverse("history:match", args=[puzzle.match_id])}"' in html  # the match has ended


def test_a_miss_shows_the_solution_step_by_step(alice_client):
    puzzle = support.manipulation_puzzle(alice_client.user)
    response = alice_client.post(answer_url(puzzle), {"table": json.dumps(support.MISSED_TABLE)}, **HX)
    html = response.content.decode()
    assert 'data-verdict="missed"' in html and "The solution, step by step" in html
    assert "from the hand" in html  # the moves, in the analysis' words
    attempt = PuzzleAttempt.objects.get(user=alice_client.user, puzzle=puzzle)
    assert not attempt.solved and attempt.rating_after < attempt.rating_before


def test_a_live_match_is_never_linked(alice_client):
    puzzle = support.manipulation_puzzle(alice_client.user, finished=False)
    html = alice_client.post(answer_url(puzzle), {"table": json.dumps(support.SOLVED_TABLE)}, **HX).content.decode()
    assert 'data-verdict="solved"' in html
    assert reverse("history:match", args=[puzzle.match_id]) not in html


def test_a_gin_discard_answer_and_a_knock_answer(alice_client):
    gin = support.gin_puzzle(alice_client.user)
    html = alice_client.post(answer_url(gin), {"action": "discard", "card": "KC.0"}, **HX).content.decode()
    assert 'data-verdict="solved"' in html
    assert "data-discard-select" not in html  # answered: nothing left to play
    knock = support.knock_puzzle(alice_client.user)
    html = alice_client.post(answer_url(knock), {"action": "wait"}, **HX).content.decode()
    assert 'data-verdict="missed"' in html and "Knock now" in html


@pytest.mark.parametrize(
    "fields, code",
    [
        ({"table": "[" * 50 + "]" * 50}, "too_deep"),
        ({"table": json.dumps([["4H.0"] * 5] * 3000)}, "too_large"),
        ({"table": json.dumps([["XX.9", "4S.0", "4D.0"]])}, "bad_card"),
        ({"table": json.dumps([["4H.0", "4S.0", "4D.0", "2C.0"]])}, "bad_card"),  # the other player's card
        ({"table": json.dumps([["4H.0", "4S.0", "4D.5"]])}, "bad_card"),  # a deck that is not there
        ({"table": json.dumps([["4H.0", "4S.0", "4S.0"]])}, "bad_card"),  # a card twice
        ({"table": json.dumps([["4H.0", "4S.0"], ["5H.0", "6H.0", "7H.0", "8H.0", "9H.0"]])}, "invalid_meld"),
        ({"table": json.dumps({"a": 1})}, "bad_table"),
        ({"table": json.dumps([[1, 2, 3]])}, "bad_table"),
        ({"table": "NaN"}, "bad_json"),
    ],
)
def test_hostile_manipulation_answers_are_refused_and_change_nothing(alice_client, fields, code):
    puzzle = support.manipulation_puzzle(alice_client.user)
    response = alice_client.post(answer_url(puzzle), fields, **HX)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="board-error"' in html
    if code:
        assert f'data-error-code="{code}"' in html
    assert not PuzzleAttempt.objects.exists() and not PuzzleRating.objects.filter(attempted__gt=0).exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "discard", "card": "AS.0"},  # not in the hand
        {"action": "discard", "card": "KC.0\u00b2"},
        {"action": "knock"},  # no knock in a discard puzzle
        {"action": "x" * 500},
    ],
)
def test_hostile_gin_answers_are_refused(alice_client, fields):
    puzzle = support.gin_puzzle(alice_client.user)
    response = alice_client.post(answer_url(puzzle), fields, **HX)
    assert response.status_code == 400 and not PuzzleAttempt.objects.exists()


def test_a_nul_byte_is_refused_before_the_view(alice_client):
    puzzle = support.gin_puzzle(alice_client.user)
    response = alice_client.post(answer_url(puzzle), {"action": "discard", "card": "KC.0\x00"})
    assert response.status_code == 400 and not PuzzleAttempt.objects.exists()


@pytest.mark.parametrize("pk", ["²", "١٢", "9" * 40, "0", "-1"])
def test_a_forged_puzzle_id_is_not_found(alice_client, pk):
    assert alice_client.get(f"/puzzles/{pk}/").status_code == 404
    assert alice_client.post(f"/puzzles/{pk}/answer/", {"action": "wait"}).status_code == 404


@pytest.mark.parametrize(
    "table", [[["XX.9", "4S.0", "4D.0"]], [["4H.0", "4S.0", "2C.0"]], [["9H.0"]] * 2, "[" * 40 + "]" * 40]
)
def test_hostile_drafts_are_refused_and_not_kept(alice_client, table):
    puzzle = support.manipulation_puzzle(alice_client.user)
    text = table if isinstance(table, str) else json.dumps(table)
    response = alice_client.post(reverse("puzzles:draft", args=[puzzle.pk]), {"table": text}, **HX)
    assert response.status_code == 400 and 'class="board-error"' in response.content.decode()
    assert response[answers.HEADER] == "1"  # the page swaps it in: the refusal is shown (static/js/site.js)
    assert not alice_client.session.get("puzzle-drafts")


def test_a_replay_of_a_solved_puzzle_is_refused(alice_client):
    puzzle = support.manipulation_puzzle(alice_client.user)
    first = alice_client.post(answer_url(puzzle), {"table": json.dumps(support.SOLVED_TABLE)}, **HX)
    assert first.status_code == 200 and answers.HEADER not in first
    rating = PuzzleRating.objects.get(user=alice_client.user)
    again = alice_client.post(answer_url(puzzle), {"table": json.dumps(support.SOLVED_TABLE)}, **HX)
    assert again.status_code == 409 and 'data-error-code="already_answered"' in again.content.decode()
    assert again[answers.HEADER] == "1"
    after = PuzzleRating.objects.get(user=alice_client.user)
    assert (after.mu, after.solved, after.streak) == (rating.mu, 1, 1)
    # another answer, even a malformed one, is refused as a replay
    forged = alice_client.post(answer_url(puzzle), {"table": "[[" + '"x",' * 9 + '"x"]]'}, **HX)
    assert forged.status_code == 409
    assert PuzzleAttempt.objects.count() == 1


def test_without_htmx_an_answer_redirects_to_the_puzzle_with_its_verdict(alice_client):
    puzzle = support.gin_puzzle(alice_client.user)
    response = alice_client.post(answer_url(puzzle), {"action": "discard", "card": "5D.0"})
    assert response.status_code == 302 and response["Location"] == reverse("puzzles:play", args=[puzzle.pk])
    html = alice_client.get(response["Location"]).content.decode()
    assert 'data-verdict="missed"' in html and "The solution, step by step" in html


def test_the_index_offers_themes_the_daily_puzzle_and_next_skips_answered(alice_client, bob):
    first = support.manipulation_puzzle(bob, step=1)
    second = support.gin_puzzle(bob, step=2)
    html = alice_client.get(reverse("puzzles:index")).content.decode()
    assert "data-daily-puzzle" in html and "Run split" in html and "High card" in html
    assert "data-daily-puzzle" in alice_client.get(reverse("home")).content.decode()
    response = alice_client.get(reverse("puzzles:next") + "?theme=high_card")
    assert response["Location"] == reverse("puzzles:play", args=[second.pk])
    alice_client.post(answer_url(second), {"action": "discard", "card": "KC.0"})
    assert alice_client.get(reverse("puzzles:next"))["Location"] == reverse("puzzles:play", args=[first.pk])
    alice_client.post(answer_url(first), {"table": json.dumps(support.SOLVED_TABLE)})
    html = alice_client.get(reverse("puzzles:next")).content.decode()
    assert "No puzzle left for you" in html
    assert "Streak: 2 puzzles solved in a row" in alice_client.get(reverse("puzzles:index")).content.decode()


def test_the_gin_boards_sort_buttons_answer_nothing(alice_client):
    puzzle = support.gin_puzzle(alice_client.user)
    html = alice_client.post(answer_url(puzzle), {"action": "sort", "mode": "rank"}, **HX).content.decode()
    hand = html.split('id="gin-hand"')[1].split("</ol>")[0]
    ids = [part.split('"')[0] for part in hand.split('data-id="')[1:]]
    assert ids[:2] == ["2S.0", "2D.0"] and ids[-1] == "KC.0"
    assert not PuzzleAttempt.objects.exists()


def test_staff_see_the_puzzles_in_the_admin_and_cannot_edit_them(client, make_user, alice):
    puzzle = support.manipulation_puzzle(alice)
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    html = client.get("/admin/games/puzzle/").content.decode()
    assert "run_split" in html and f"/admin/games/puzzle/{puzzle.pk}/" in html
    page = client.get(f"/admin/games/puzzle/{puzzle.pk}/change/").content.decode()
    assert 'name="_save"' not in page


def test_the_daily_puzzle_stays_the_same_all_day(alice_client, bob):
    from datetime import timedelta

    from django.utils import timezone

    from games.puzzles import selectors
    from games.puzzles.models import Puzzle

    old = [support.manipulation_puzzle(bob, step=i) for i in (1, 2, 3)]
    Puzzle.objects.filter(pk__in=[p.pk for p in old]).update(created_at=timezone.now() - timedelta(days=2))
    today = timezone.localdate()
    daily = selectors.daily_puzzle(today)
    assert daily in old
    support.gin_puzzle(bob, step=9)  # made today: not a candidate until tomorrow
    assert selectors.daily_puzzle(today) == daily


def status_text(html: str) -> str:
    return " ".join(html.split('role="status">')[1].split("</p>")[0].split())


def test_next_puzzle_with_none_left_says_why_clearly_and_offers_the_other_themes(alice_client, bob):
    """ "Next puzzle" with nothing to give: a clear message for each case (no puzzle yet, none of the
    chosen theme, all of the theme answered, all answered) on the whole puzzles page: the themes
    there are, the daily puzzle and the next puzzle of any theme stay offered."""
    nxt = reverse("puzzles:next")
    response = alice_client.get(nxt)
    assert response.status_code == 200
    assert status_text(response.content.decode()) == (
        "There are no puzzles yet. They are made from positions of finished games: play a game and come back."
    )
    gin = support.gin_puzzle(bob)  # the themes high_card, knock_soon
    first = support.manipulation_puzzle(bob)
    alice_client.post(answer_url(gin), {"action": "discard", "card": "KC.0"})
    html = alice_client.get(nxt + "?theme=high_card").content.decode()
    assert status_text(html) == (
        "You have answered every puzzle of the theme “High card”. Choose another theme, or take the next puzzle"
        " of any theme."
    )
    assert f'href="{nxt}?theme=run_split"' in html and "data-daily-puzzle" in html
    assert f'href="{nxt}" data-action="next-puzzle"' in html
    html = alice_client.get(nxt + "?theme=undercut_avoided").content.decode()
    assert status_text(html) == (
        "There is no puzzle of the theme “Undercut avoided” yet. Choose another theme, or take the next puzzle"
        " of any theme."
    )
    alice_client.post(answer_url(first), {"table": json.dumps(support.SOLVED_TABLE)})
    html = alice_client.get(nxt).content.decode()
    assert status_text(html).startswith("No puzzle left for you here: you have answered them all.")
    assert f'href="{nxt}?theme=run_split"' in html


def test_the_chosen_theme_is_kept_from_puzzle_to_puzzle_until_it_has_none_left(alice_client, bob):
    """A theme chosen on the puzzles page is the next puzzle's after an answer too; when it has none
    left the page says so (naming it), and the next puzzle of any theme forgets it."""
    gin = support.gin_puzzle(bob)  # high_card
    first = support.manipulation_puzzle(bob)  # run_split
    nxt = reverse("puzzles:next")
    response = alice_client.get(nxt + "?theme=high_card")
    assert response["Location"] == reverse("puzzles:play", args=[gin.pk])
    html = alice_client.post(answer_url(gin), {"action": "discard", "card": "KC.0"}, **HX).content.decode()
    assert f'href="{nxt}?theme=high_card" data-action="next-puzzle"' in html
    assert "Next puzzle of the theme “High card”" in html
    html = alice_client.get(nxt + "?theme=high_card").content.decode()
    assert "You have answered every puzzle of the theme “High card”." in status_text(html)
    # Any theme: the next puzzle's page offers the next of any theme.
    assert alice_client.get(nxt)["Location"] == reverse("puzzles:play", args=[first.pk])
    html = alice_client.post(answer_url(first), {"table": json.dumps(support.SOLVED_TABLE)}, **HX).content.decode()
    assert f'href="{nxt}" data-action="next-puzzle"' in html and "Next puzzle of the theme" not in html
