"""A chat line reaches the table's sockets with one load per process, not three queries per socket,
and one render per kind of viewer, not one per socket; and still reaches no one who muted the
table's chat or who blocks its author (or is blocked by them)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from fairplay import services as fairplay_services
from games import selectors, services
from games.live import chatlines
from tests.live import session_cookie_for
from tests.realtime.frames import connect, heard_all

pytestmark = pytest.mark.django_db(transaction=True)


def setup(make_user):
    players = [make_user(name) for name in ("alice", "bob", "carol", "dave")]
    watcher = make_user("erin")
    match = services.match_create(host=players[0], variant="manipulation", seats_count=4)
    for user in players[1:]:
        services.seat_join(match_id=match.pk, user=user)
    services.match_start(match_id=match.pk, user=players[0])
    alice, bob, carol, _dave = players
    fairplay_services.block_set(user=bob, target_id=alice.pk, blocked=True)  # bob blocks alice
    fairplay_services.table_mute_set(user=carol, match_id=match.pk, muted=True)  # carol mutes the table
    return match, players, watcher


async def test_a_line_is_loaded_once_for_every_socket_and_hidden_from_muters_and_blocks(make_user, monkeypatch):
    match, players, watcher = await database_sync_to_async(setup)(make_user)
    loads = []
    real = selectors.chat_line

    def counted(**kwargs):
        loads.append(kwargs["message_id"])
        return real(**kwargs)

    monkeypatch.setattr(selectors, "chat_line", counted)
    drawn = []
    real_render = chatlines.render_to_string

    def render(name, context):
        drawn.append((context["message"].pk, context["me"], context["user"].pk == context["message"].user_id))
        return real_render(name, context)

    monkeypatch.setattr(chatlines, "render_to_string", render)
    viewers = [*players, watcher, watcher]  # two sockets of one spectator
    sockets = []
    for user in viewers:
        socket = connect(match.pk, await database_sync_to_async(session_cookie_for)(user))
        assert (await socket.connect())[0]
        sockets.append(socket)
    await heard_all(*sockets)

    alice, bob, carol, dave = players
    await database_sync_to_async(services.chat_post)(match_id=match.pk, user=alice, text="alice says hi")
    await database_sync_to_async(services.chat_post)(match_id=match.pk, user=dave, text="dave says hi")
    frames = await heard_all(*sockets)
    for socket in sockets:
        await socket.disconnect()

    assert len(loads) == 2 and len(set(loads)) == 2  # one load per line for the six sockets
    # Each line drawn once per kind of viewer (seated or not, its author or not), not once per socket:
    # a line reaches its author, two other seats (one more blocks or mutes it) and two spectator sockets.
    assert len(drawn) == len(set(drawn)) == 6, drawn
    by_name = dict(zip(["alice", "bob", "carol", "dave", "erin", "erin2"], frames, strict=True))
    for name in ("alice", "dave", "erin", "erin2"):
        assert "alice says hi" in by_name[name] and "dave says hi" in by_name[name], name
    assert "alice says hi" not in by_name["bob"] and "dave says hi" in by_name["bob"]  # bob blocks alice
    assert "says hi" not in by_name["carol"]  # carol muted the table's chat


async def test_a_line_deleted_before_it_is_loaded_is_not_pushed(make_user):
    match, players, _watcher = await database_sync_to_async(setup)(make_user)
    message = await database_sync_to_async(services.chat_post)(match_id=match.pk, user=players[3], text="gone")
    await database_sync_to_async(message.delete)()
    assert await chatlines.line(message.pk) == (None, frozenset())
