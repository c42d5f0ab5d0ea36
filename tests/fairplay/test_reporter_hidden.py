"""Nothing the reported player can see names who reported them: not the pages they open (their profile,
their fair-play page, the table, the match), not a frame of their table socket.  The same socket shows
a blocked player's chat to no one on the other side."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from fairplay import services
from games import services as game_services
from rummyhub.asgi import application
from tests.live import session_cookie_for

pytestmark = pytest.mark.django_db(transaction=True)

REPORTER = "zq_reporter_name"


def connect(match_id: int, cookie: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application,
        f"/ws/tables/{match_id}/",
        headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())],
    )


async def frames_until_quiet(communicator) -> list[str]:
    frames = []
    while not await communicator.receive_nothing(timeout=0.5):
        frames.append(await communicator.receive_from())
    return frames


def setup(make_user):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    reporter, moderator = make_user(REPORTER), make_user("moderator", is_staff=True, is_superuser=True)
    match = game_services.match_create(host=carol, variant="manipulation", seats_count=3)
    game_services.seat_join(match_id=match.pk, user=alice)
    game_services.seat_join(match_id=match.pk, user=bob)
    game_services.match_start(match_id=match.pk, user=carol)
    services.block_set(user=alice, target_id=bob.pk, blocked=True)
    return match, alice, bob, carol, reporter, moderator


def report_and_act(reporter, bob, moderator, match):
    first = services.report_create(reporter=reporter, reported_id=bob.pk, reason="abuse", details="bob was rude")
    services.report_handle(report_id=first.pk, staff=moderator, action="mute", hours=24, note="Be kind.")
    second = services.report_create(reporter=reporter, reported_id=bob.pk, reason="cheating")
    services.report_handle(report_id=second.pk, staff=moderator, action="warn", note="Play fair.")


def pages_of(user, match, usernames) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    urls = [
        f"/players/{user.username}/",
        "/fair-play/",
        "/fair-play/rules/",
        f"/tables/{match.pk}/",
        f"/matches/{match.pk}/",
        "/play/",
        *[f"/players/{name}/" for name in usernames],
    ]
    return {url: client.get(url).content.decode() for url in urls}


async def test_the_reported_player_never_sees_the_reporter_and_blocked_chat_stays_hidden(make_user):
    match, alice, bob, carol, reporter, moderator = await database_sync_to_async(setup)(make_user)
    bob_socket = connect(match.pk, await database_sync_to_async(session_cookie_for)(bob))
    carol_socket = connect(match.pk, await database_sync_to_async(session_cookie_for)(carol))
    assert (await bob_socket.connect())[0] and (await carol_socket.connect())[0]
    bob_frames = await frames_until_quiet(bob_socket)
    await frames_until_quiet(carol_socket)

    await database_sync_to_async(report_and_act)(reporter, bob, moderator, match)
    await database_sync_to_async(game_services.chat_post)(match_id=match.pk, user=carol, text="carol says hi")
    await database_sync_to_async(game_services.chat_post)(match_id=match.pk, user=alice, text="alice says hi")
    later = await frames_until_quiet(bob_socket)
    carol_heard = "".join(await frames_until_quiet(carol_socket))
    bob_frames += later
    await bob_socket.disconnect()
    await carol_socket.disconnect()

    # The socket: carol's line reached bob, alice's (she blocks him) did not; carol heard both.
    heard = "".join(later)
    assert "carol says hi" in heard and "alice says hi" not in heard
    assert "carol says hi" in carol_heard and "alice says hi" in carol_heard
    with pytest.raises(game_services.ActionRefused):
        await database_sync_to_async(game_services.chat_post)(match_id=match.pk, user=bob, text="let me talk")

    pages = await database_sync_to_async(pages_of)(bob, match, ["alice", "carol", "moderator"])
    # The pages do show what was done (so they are the pages that matter) ...
    assert "Your chat is muted (until" in pages["/fair-play/"] and "Be kind." in pages["/fair-play/"]
    assert "Play fair." in pages["/fair-play/"]
    assert "muted by the moderators" in pages[f"/tables/{match.pk}/"]
    # ... and none of them, nor any frame, names the reporter or their words.
    for where, text in [*pages.items(), *(("frame", f) for f in bob_frames)]:
        assert REPORTER not in text, where
        assert "bob was rude" not in text, where
