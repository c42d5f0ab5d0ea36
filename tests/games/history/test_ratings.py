"""Ratings (openskill Plackett–Luce), the rate_matches command, player pages, the leaderboard, the chart."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from games.history import ratings
from games.history.charts import cumulative_chart
from games.history.models import PlayerRating, RatedMatch
from games.history.selectors import player_stats
from games.history.services import rating_update_for_match
from games.models import Match, MatchStatus, Round, RoundScore, Seat
from tests.games.history.support import play_match, play_one_round

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def test_ranks_allow_ties():
    assert ratings.ranks_from_totals([120, 80, 120, 10]) == [1, 3, 1, 4]
    a, b, c = ratings.rate([(25.0, 8.333)] * 3, [1, 1, 2])
    assert a == b and a[0] > c[0]


def test_a_finished_match_is_rated_once(alice, bob, settings):
    match = play_match(alice, settings=settings, seed="5", seats=2, bots=0, others=[bob])
    rated = rating_update_for_match(match=match)
    assert rated is not None and len(rated.changes) == 2
    winner = Seat.objects.get(match=match, is_winner=True).user
    loser = alice if winner == bob else bob
    win, lose = PlayerRating.objects.get(user=winner), PlayerRating.objects.get(user=loser)
    assert win.mu > ratings.DEFAULT_MU > lose.mu
    assert win.matches == lose.matches == 1 and win.variant == "manipulation"
    assert win.ordinal == pytest.approx(ratings.ordinal(win.mu, win.sigma))
    # Idempotent: a second call (or the command) changes nothing.
    again = rating_update_for_match(match=match)
    assert again.pk == rated.pk
    call_command("rate_matches")
    assert PlayerRating.objects.get(user=winner).mu == win.mu
    assert RatedMatch.objects.count() == 1


def test_bots_are_rated_per_policy_and_unfinished_matches_are_not(alice, settings):
    live = play_one_round(alice, settings=settings)
    assert rating_update_for_match(match=live) is None
    match = play_match(alice, settings=settings, seed="7", seats=3, bots=2)
    rated = rating_update_for_match(match=match)
    assert len(rated.changes) == 3
    bot = PlayerRating.objects.get(user=None, bot_policy="greedy", variant="manipulation")
    assert bot.matches == 1  # two greedy seats in one match: one row, the mean of their updates
    bot_after = [c["after"] for c in rated.changes if c["seat"] in (1, 2)]
    assert bot.mu == pytest.approx((bot_after[0][0] + bot_after[1][0]) / 2)
    assert not RatedMatch.objects.filter(match=live).exists()


def test_rate_matches_command_rates_every_finished_unrated_match(alice, bob, settings):
    first = play_match(alice, settings=settings, seed="5", seats=2, bots=0, others=[bob])
    second = play_match(alice, settings=settings, seed="6", seats=2, bots=0, others=[bob])
    call_command("rate_matches")
    assert set(RatedMatch.objects.values_list("match_id", flat=True)) == {first.pk, second.pk}
    assert PlayerRating.objects.get(user=alice).matches == 2
    call_command("rate_matches")
    assert PlayerRating.objects.get(user=alice).matches == 2


def test_tied_totals_share_a_rank(alice, bob, settings):
    match = play_match(alice, settings=settings, seed="5", seats=2, bots=0, others=[bob])
    Seat.objects.filter(match=match).update(final_total=100, is_winner=True)
    rating_update_for_match(match=match)
    a, b = PlayerRating.objects.get(user=alice), PlayerRating.objects.get(user=bob)
    assert a.mu == pytest.approx(b.mu) and a.sigma < ratings.DEFAULT_SIGMA


def test_leaderboard_per_variant_with_provisional_mark(client, alice, bob, settings):
    match = play_match(alice, settings=settings, seed="5", seats=2, bots=0, others=[bob])
    rating_update_for_match(match=match)
    html = client.get("/leaderboard/").content.decode()
    winner = Seat.objects.get(match=match, is_winner=True).user.username
    loser = ({"alice", "bob"} - {winner}).pop()
    assert html.index(f">{winner}</a>") < html.index(f">{loser}</a>")
    assert "(provisional)" in html and "Greedy" not in html and "bot:" not in html
    PlayerRating.objects.filter(user=alice).update(sigma=3.0)
    body = client.get("/leaderboard/?variant=manipulation", **HX).content.decode()
    assert body.strip().startswith('<section id="leaderboard-table"') and body.count("(provisional)") == 1
    assert "Nobody has a rating" in client.get("/leaderboard/?variant=gin").content.decode()
    assert client.get("/leaderboard/?variant=chess").status_code == 404


def test_player_page_counts_matches_rounds_and_knocks(client, alice, settings):
    matches = [play_match(alice, settings=settings, seed=s, seats=3, bots=2) for s in ("7", "8")]
    for m in matches:
        rating_update_for_match(match=m)
    page = client.get("/players/alice/")
    html = page.content.decode()
    stats = page.context["stats"]
    [v] = stats["variants"]
    seats = Seat.objects.filter(user=alice, match__status=MatchStatus.FINISHED)
    assert v["played"] == 2 and v["won"] == seats.filter(is_winner=True).count()
    rounds = Round.objects.filter(match__in=matches)
    # going out is not a knock (RULES B.6: the round ends another way; issue 25.9)
    assert v["knocks"] == rounds.filter(knocker=0, result_kind="knock").count()
    assert v["going_outs"] == rounds.filter(knocker=0, result_kind="went_out").count()
    mine = list(RoundScore.objects.filter(round__match__in=matches, seat=0).values_list("score", flat=True))
    assert v["average"] == round(sum(mine) / len(mine), 1)
    assert v["rating"] is not None and v["rating"]["provisional"]
    assert [r["id"] for r in stats["recent"]] == sorted((m.pk for m in matches), reverse=True)
    assert "Statistics" in html and "Average round score" in html and f"/matches/{matches[0].pk}/" in html


def test_going_out_is_not_counted_as_a_knock(client, alice, settings):
    match = play_match(alice, settings=settings, seed="7", seats=3, bots=2)
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    Round.objects.filter(pk=rounds[0].pk).update(knocker=0, result_kind="went_out", winners=[0])
    Round.objects.filter(pk__in=[r.pk for r in rounds[1:]]).update(knocker=1, result_kind="knock", winners=[1])
    [v] = player_stats(player=alice, viewer=alice)["variants"]
    assert (v["knocks"], v["going_outs"]) == (0, 1)


def test_undercuts_are_counted_for_both_sides(alice, bob, settings, client):
    """A knock by alice that bob undercuts: one suffered for alice, one given for bob (B.7)."""
    match = play_match(alice, settings=settings, seed="5", seats=2, bots=0, others=[bob])
    rnd = Round.objects.filter(match=match).first()
    Round.objects.filter(pk=rnd.pk).update(knocker=0, result_kind="knock", winners=[1])
    RoundScore.objects.filter(round=rnd, seat=1).update(
        reasons=[{"code": "difference", "points": 5}, {"code": "undercut_bonus", "points": 10}]
    )

    a = player_stats(player=alice, viewer=alice)["variants"][0]
    b = player_stats(player=bob, viewer=bob)["variants"][0]
    assert a["undercuts_suffered"] >= 1 and b["undercuts_given"] >= 1


def test_chart_shapes_labels_and_escaping():
    svg = str(
        cumulative_chart(
            ["<b>x</b>", "bob", "carol", "dave", "erin"],
            [[10, 20], [0, 50], [5, 5], [0, 0], [30, 31]],
            title="T",
            desc="D",
            x_label="Round",
            y_label="Score",
        )
    )
    assert "<b>x</b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg
    assert svg.count('class="series"') == 5 and svg.count('class="direct-label"') == 5
    for tag in ("<circle", "<rect", "<polygon", "<path"):
        assert tag in svg
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert ">bob 50<" in svg


def test_match_page_shows_rating_changes(client, alice, bob, settings):
    match = play_match(alice, settings=settings, seed="5", seats=2, bots=0, others=[bob])
    rating_update_for_match(match=match)
    page = client.get(f"/matches/{match.pk}/")
    seats = page.context["seats"]
    assert all(s.rating_change is not None for s in seats)
    winner = next(s for s in seats if s.is_winner)
    assert winner.rating_change > 0
    assert Match.objects.get(pk=match.pk).rated.changes


def shown_ratings(html: str) -> list[str]:
    return [re.sub(r"\s+", " ", t).strip() for t in re.findall(r'<span class="rating"[^>]*>(.*?)</span>', html, re.S)]


def test_a_first_rating_is_shown_around_the_starting_value_everywhere(client, alice, bob, settings):
    """Issue 25.9: a first rating read "-0.6† (provisional)".  Every player starts at the same whole
    number; a rating is shown as a whole number near it, "provisional" said in words, the same on the
    leaderboard, the player page and (as its change) the match page."""
    assert ratings.shown(ratings.ordinal(ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)) == ratings.SHOWN_START
    match = play_match(alice, settings=settings, seed="5", seats=2, bots=0, others=[bob])
    rating_update_for_match(match=match)
    board = shown_ratings(client.get("/leaderboard/").content.decode())
    assert len(board) == 2
    for text in board:
        assert re.fullmatch(r"\d+ \(provisional\)", text), text
        assert abs(int(text.split()[0]) - ratings.SHOWN_START) < 100
    assert "†" not in client.get("/leaderboard/").content.decode()
    for user in (alice, bob):
        row = PlayerRating.objects.get(user=user)
        expected = f"{ratings.shown(row.ordinal)} (provisional)"
        assert expected in board
        assert shown_ratings(client.get(f"/players/{user.username}/").content.decode()) == [expected]
    page = client.get(f"/matches/{match.pk}/")
    for seat in page.context["seats"]:
        row = PlayerRating.objects.get(user__username=seat.username)
        assert seat.rating_change == ratings.shown(row.ordinal) - ratings.SHOWN_START
    # once sure, the word goes
    PlayerRating.objects.filter(user=alice).update(sigma=3.0)
    assert shown_ratings(client.get("/players/alice/").content.decode()) == [
        str(ratings.shown(PlayerRating.objects.get(user=alice).ordinal))
    ]
