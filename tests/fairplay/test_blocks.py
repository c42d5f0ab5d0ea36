"""Blocks: a blocked pair is never seated together by the quick seat, a lobby join is refused with a
clear message that names no one, the chat is hidden both ways; a table's chat can be muted."""

from __future__ import annotations

import random

import pytest

from fairplay import services
from games import selectors
from games import services as game_services
from games.models import ChatMessage, Seat

pytestmark = pytest.mark.django_db


def test_quick_seat_never_seats_a_blocked_pair_over_200_tries(alice, bob, carol, dave, erin):
    services.block_set(user=alice, target_id=bob.pk, blocked=True)
    bobs = game_services.match_create(host=bob, variant="manipulation", seats_count=3)
    carols = game_services.match_create(host=carol, variant="manipulation", seats_count=3)
    erins = game_services.match_create(host=erin, variant="gin", seats_count=2)
    landed = {bobs.pk: 0, carols.pk: 0, erins.pk: 0}
    for i in range(200):
        # alice, who blocks bob, and dave, whom bob blocked after a try, each ask for a quick seat
        seat = game_services.seat_quick(user=alice, rng=random.Random(i))
        assert seat is not None
        landed[seat.match_id] += 1
        assert seat.match_id != bobs.pk
        game_services.seat_leave(match_id=seat.match_id, user=alice)
    assert landed[bobs.pk] == 0 and landed[carols.pk] > 50 and landed[erins.pk] > 50  # both others were picked
    # The other way round: bob is never seated at a table where alice sits.
    game_services.seat_join(match_id=carols.pk, user=alice)
    for i in range(50):
        seat = game_services.seat_quick(user=bob, rng=random.Random(i))
        assert seat is not None and seat.match_id == erins.pk
        game_services.seat_leave(match_id=seat.match_id, user=bob)
    assert not Seat.objects.filter(match=carols, user=bob).exists()


def test_joining_a_table_of_a_blocked_player_is_refused_with_a_clear_message(alice, bob, carol):
    services.block_set(user=bob, target_id=alice.pk, blocked=True)
    table = game_services.match_create(host=carol, variant="manipulation", seats_count=4)
    game_services.seat_join(match_id=table.pk, user=bob)
    for user in (alice,):  # the blocked one
        with pytest.raises(game_services.ActionRefused) as refused:
            game_services.seat_join(match_id=table.pk, user=user)
        assert refused.value.code == "blocked"
        assert "blocked" in refused.value.message and "bob" not in refused.value.message
    services.block_set(user=bob, target_id=alice.pk, blocked=False)
    game_services.seat_join(match_id=table.pk, user=alice)


def test_the_lobby_page_shows_the_refusal(client, alice, bob):
    services.block_set(user=alice, target_id=bob.pk, blocked=True)
    table = game_services.match_create(host=bob, variant="manipulation", seats_count=3)
    client.force_login(alice)
    response = client.post(f"/tables/{table.pk}/join/", follow=True)
    assert "You cannot sit at this table" in response.content.decode()


def test_chat_is_hidden_both_ways_and_a_table_can_be_muted(alice, bob, carol, settings):
    table = game_services.match_create(host=carol, variant="manipulation", seats_count=3)
    game_services.seat_join(match_id=table.pk, user=alice)
    game_services.seat_join(match_id=table.pk, user=bob)  # seated before the block (a tournament seats them too)
    services.block_set(user=alice, target_id=bob.pk, blocked=True)
    for user, text in ((alice, "hello from alice"), (bob, "hello from bob"), (carol, "hello from carol")):
        ChatMessage.objects.create(match=table, user=user, text=text)

    def seen(user):
        return [m.text for m in selectors.chat_messages(table, user)]

    assert seen(alice) == ["hello from alice", "hello from carol"]
    assert seen(bob) == ["hello from bob", "hello from carol"]
    assert seen(carol) == ["hello from alice", "hello from bob", "hello from carol"]
    services.table_mute_set(user=carol, match_id=table.pk, muted=True)
    assert seen(carol) == []
    services.table_mute_set(user=carol, match_id=table.pk, muted=False)
    assert len(seen(carol)) == 3


def test_blocking_oneself_or_no_one_is_refused(alice):
    with pytest.raises(services.Refused):
        services.block_set(user=alice, target_id=alice.pk, blocked=True)
    with pytest.raises(services.Refused):
        services.block_set(user=alice, target_id=987654, blocked=True)


def test_block_and_mute_are_rate_limited(alice, bob, settings):
    settings.RUMMYHUB_FAIRPLAY_LIMIT = "3/h"
    for _ in range(3):
        services.block_set(user=alice, target_id=bob.pk, blocked=True)
    with pytest.raises(services.Refused) as refused:
        services.block_set(user=alice, target_id=bob.pk, blocked=False)
    assert refused.value.code == "rate_limited"


def test_the_lobby_quick_seat_takes_a_free_seat_or_says_there_is_none(client, alice, bob, carol):
    client.force_login(alice)
    response = client.post("/play/new/", {"quick": "seat"}, follow=True)
    assert "No open table has a free seat for you now" in response.content.decode()
    services.block_set(user=alice, target_id=bob.pk, blocked=True)
    game_services.match_create(host=bob, variant="manipulation", seats_count=3)
    response = client.post("/play/new/", {"quick": "seat"}, follow=True)
    assert "No open table has a free seat for you now" in response.content.decode()
    carols = game_services.match_create(host=carol, variant="manipulation", seats_count=3)
    response = client.post("/play/new/", {"quick": "seat"})
    assert response.status_code == 302 and response["Location"] == f"/tables/{carols.pk}/"
    assert Seat.objects.filter(match=carols, user=alice).exists()


def test_the_chat_report_link_is_offered_to_players_for_others_lines_only(client, alice, bob, carol):
    table = game_services.match_create(host=carol, variant="manipulation", seats_count=3)
    game_services.seat_join(match_id=table.pk, user=alice)
    own = ChatMessage.objects.create(match=table, user=alice, text="mine")
    other = ChatMessage.objects.create(match=table, user=carol, text="theirs")
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f'data-report-line="{other.pk}"' in page and f'data-report-line="{own.pk}"' not in page
    client.force_login(bob)  # a spectator
    assert "data-report-line" not in client.get(f"/tables/{table.pk}/").content.decode()


def test_an_open_table_tells_a_blocked_viewer_why_instead_of_offering_its_seats(client, alice, bob, carol):
    """A player kept out by a block sees why on the table's page, and its free seats offer no "Sit here"
    form (a disabled button that names the reason); someone else still sees the forms."""
    services.block_set(user=alice, target_id=bob.pk, blocked=True)
    table = game_services.match_create(host=bob, variant="manipulation", seats_count=3)
    join = f'hx-post="/tables/{table.pk}/join/"'
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "You cannot sit at this table" in page and 'id="seat-refusal"' in page
    assert join not in page and 'aria-describedby="seat-refusal"' in page
    client.force_login(carol)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert join in page and "You cannot sit at this table" not in page
    # The block lifted: alice is offered the seats again.
    services.block_set(user=alice, target_id=bob.pk, blocked=False)
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert join in page and "You cannot sit at this table" not in page
