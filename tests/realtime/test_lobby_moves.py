"""The "Your move" lists kept live over the lobby socket (docs/turn-based.md): when a turn passes at a
turn-based table, the lobby's sockets re-render their user's lists, and the home page's socket
(``/ws/lobby/?only=moves``) gets its "Your move" list alone, as an out-of-band swap."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import services
from games.models import Match
from games.variants import spec_for
from rummyhub.asgi import application
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)


def lobby_socket(cookie: str, query: str = "") -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application,
        "/ws/lobby/" + query,
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())],
    )


def turn_based_table(make_user, settings):
    """A started two-player Gin table at a day per move: (match, the player to act, the other one)."""
    settings.RUMMYHUB_FIXED_SEED = "5"
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="gin", seats_count=2, move_time=86400)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    match = Match.objects.get(pk=match.pk)
    mover = match.seats.get(index=match.turn_seat).user
    return match, mover, bob if mover == alice else alice


def play_one_action(match_id: int, user) -> int:
    """``user``'s compulsory action (their first); the seat to act after it."""
    match = Match.objects.get(pk=match_id)
    spec = spec_for(match.variant)
    state = spec.load(match.state["round"])
    action = spec.timeout_actions(state, state.seat_to_act)[0]
    services.turn_submit(match_id=match_id, user=user, action=action, expected_version=match.version)
    return Match.objects.get(pk=match_id).turn_seat


async def test_a_passing_turn_reaches_the_waiting_players_home_page_and_lobby(make_user, settings):
    match, mover, waiting = await database_sync_to_async(turn_based_table)(make_user, settings)
    cookie = await database_sync_to_async(session_cookie_for)(waiting)
    home, lobby = lobby_socket(cookie, "?only=moves"), lobby_socket(cookie)
    assert (await home.connect(timeout=10))[0] and (await lobby.connect(timeout=10))[0]
    waiting_seat = await database_sync_to_async(lambda: match.seats.get(user=waiting).index)()
    assert await database_sync_to_async(play_one_action)(match.pk, mover) == waiting_seat

    frame = await home.receive_from(timeout=10)
    assert frame.lstrip().startswith('<section class="panel your-moves" id="your-moves" hx-swap-oob="true"')
    assert f'href="/tables/{match.pk}/"' in frame and "1 day per move" in frame
    assert 'id="lobby-tables"' not in frame
    whole = await lobby.receive_from(timeout=10)
    assert 'id="lobby-tables" hx-swap-oob="true"' in whole
    assert 'id="your-moves"' in whole and f'href="/tables/{match.pk}/"' in whole
    await home.disconnect()
    await lobby.disconnect()


async def test_an_anonymous_lobby_socket_is_refused(make_user):
    socket = lobby_socket("nobody", "?only=moves")
    connected, code = await socket.connect(timeout=10)
    assert not connected or code == 4401
