"""Turn-based tables on the pages (docs/turn-based.md): the lobby form's time per move (hostile values
refused, the cap's message), the time left as a table and a list say it, the "Your move" lists."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override

from games import selectors, services
from games.board import words
from games.board.fragments import board_for
from games.models import Match

pytestmark = pytest.mark.django_db


def gin_form(**extra):
    return {"variant": "gin", "seats": 2, "bots": 0, "turn_timer": 0, **extra}


@pytest.mark.parametrize("value", ["86400", "3600", "259200", "43200"])
def test_the_lobby_creates_a_turn_based_table(alice_client, value):
    response = alice_client.post(reverse("games:create"), gin_form(move_time=value, turn_timer=60))
    assert response.status_code == 302, response.content.decode()[:1500]
    match = Match.objects.get()
    assert match.move_time == int(value) and match.turn_timer == 0


@pytest.mark.parametrize(
    "value", ["²", "٣٦٠٠", "۸۶۴۰۰", "３６００", "86400.0", "-3600", "7200", "1" * 5000, "86400\x00", "0x15180", "1e5"]
)
def test_a_hostile_time_per_move_is_refused_and_creates_nothing(alice_client, value):
    response = alice_client.post(reverse("games:create"), gin_form(move_time=value))
    assert response.status_code == 400
    assert not Match.objects.exists()
    assert 'data-field="move_time"' in response.content.decode() or "bad_character" in response.content.decode()


def test_a_form_without_a_time_per_move_makes_a_real_time_table(alice_client):
    response = alice_client.post(reverse("games:create"), gin_form(turn_timer=30))
    assert response.status_code == 302
    assert Match.objects.get().move_time == 0


def test_the_cap_is_refused_with_its_message_in_the_lobby(alice_client, settings):
    settings.RUMMYHUB_TURN_BASED_MAX = 1
    assert alice_client.post(reverse("games:create"), gin_form(move_time="3600")).status_code == 302
    response = alice_client.post(reverse("games:create"), gin_form(move_time="3600"))
    assert response.status_code == 400
    assert "You already play 1 turn-based game" in response.content.decode()
    assert Match.objects.count() == 1


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (2 * 86400 + 3 * 3600 + 59, "2 d 3 h"),
        (86400, "1 d 0 h"),
        (86399, "1 d 0 h"),  # 23 h 59 min 59 s: the minutes rounded up
        (5 * 3600 + 10 * 60, "5 h 10 min"),
        (12 * 60 + 1, "13 min"),
        (30, "1 min"),
        (0, "0 min"),
    ],
)
def test_the_time_left_in_days_hours_and_minutes(seconds, text):
    with override("en"):
        assert words.duration_text(seconds) == text


def test_the_time_left_is_translated():
    with override("en"):
        assert words.time_left_text(2 * 86400 + 3 * 3600) == "2 d 3 h left"
        assert words.time_left_text(0) == "time is up"


def test_the_table_shows_the_turns_time_left_and_the_lists_show_the_game(alice, bob, settings, client):
    settings.RUMMYHUB_FIXED_SEED = "7"
    match = services.match_create(host=alice, variant="gin", seats_count=2, move_time=86400)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    to_act = match.seats.get(index=match.turn_seat).user
    waiting = bob if to_act == alice else alice
    board = board_for(selectors.board_data(match), waiting)
    timer = board.ctx["timer"]
    assert timer["total"] == 86400 and timer["deadline_ms"] == int(match.turn_deadline.timestamp() * 1000)
    assert timer["long"] in ("1 d 0 h", "23 h 59 min")
    assert 'data-format-dh="%(d)s d %(h)s h"' in board.html()

    mine = selectors.your_moves(user=to_act, now=match.turn_deadline - timedelta(hours=5))
    assert [m.pk for m in mine] == [match.pk] and mine[0].left_text == "5 h 0 min left"
    assert selectors.your_moves(user=waiting) == []
    client.force_login(to_act)
    home = client.get("/").content.decode()
    assert f'href="/tables/{match.pk}/"' in home and "1 day per move" in home
    assert re.search(r'data-left="\d+"', home) and 'data-format-left="%(time)s left"' in home
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert 'id="your-moves"' in lobby and "1 day per move" in lobby
    client.force_login(waiting)
    home = client.get("/").content.decode()
    assert 'id="your-moves"' in home and f'href="/tables/{match.pk}/"' not in home
    # Over: off the list.
    Match.objects.filter(pk=match.pk).update(status="finished", finished_at=timezone.now())
    assert selectors.your_moves(user=to_act) == []


def test_the_your_move_list_names_who_you_play_bots_as_bots(
    alice, bob, carol, settings, client, django_assert_num_queries
):
    """Each game of the "Your move" list says who the player is playing: the other seats' names (a
    bot's with the "bot" badge), never the player's own; the list stays a fixed number of queries."""
    settings.RUMMYHUB_FIXED_SEED = "7"
    three = services.match_create(host=alice, variant="manipulation", seats_count=3, bots=1, move_time=86400)
    services.seat_join(match_id=three.pk, user=bob)
    services.match_start(match_id=three.pk, user=alice)
    services.run_until_human(match_id=three.pk)
    three = Match.objects.get(pk=three.pk)
    seats = list(three.seats.order_by("index"))
    mover = seats[three.turn_seat].user
    bot = next(s for s in seats if s.is_bot)
    other = bob if mover == alice else alice
    two = services.match_create(host=mover, variant="gin", seats_count=2, move_time=3600)
    services.seat_join(match_id=two.pk, user=carol)
    services.match_start(match_id=two.pk, user=mover)
    two = Match.objects.get(pk=two.pk)
    if two.turn_seat != 0:  # carol's move first: she passes the upcard, and the move is the mover's
        services.turn_submit(match_id=two.pk, user=carol, action={"type": "pass_upcard"}, expected_version=two.version)

    with django_assert_num_queries(2):
        mine = selectors.your_moves(user=mover)
    assert {m.pk for m in mine} == {three.pk, two.pk}
    client.force_login(mover)
    for url in ("/", reverse("games:lobby")):
        html = client.get(url).content.decode()
        rows = {
            int(pk): row
            for pk, row in re.findall(r'<li class="table-row your-move" data-match="(\d+)">(.*?)</li>', html, re.S)
        }
        assert set(rows) == {three.pk, two.pk}
        against = re.sub(r"\s+", " ", rows[three.pk])
        assert "against <bdi>" in against and f"<bdi>{other.username}</bdi>" in against
        assert f'<bdi>{bot.bot_name}</bdi> <span class="badge badge-quiet">bot</span>' in against
        assert f"<bdi>{mover.username}</bdi>" not in against
        assert re.sub(r"\s+", " ", rows[two.pk]).count("<bdi>") == 1 and "<bdi>carol</bdi>" in rows[two.pk]


def test_the_home_page_says_games_are_played_in_real_time_or_turn_based_over_days(client, alice):
    for viewer in (None, alice):
        if viewer is not None:
            client.force_login(viewer)
        lede = re.sub(r"\s+", " ", client.get("/").content.decode().split('class="lede">')[1].split("</p>")[0])
        assert "Hollywood — in real time or turn-based over days, against friends or bots." in lede
