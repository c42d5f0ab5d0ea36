"""The tournament socket: a change sent by the services after commit re-renders the standings, entrants and rounds."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.tournaments import services
from games.tournaments.models import Tournament
from rummyhub.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def communicator_for(path: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=[(b"origin", b"http://testserver")])


def _setup(make_user):
    staff = make_user("staff", is_staff=True)
    t = services.tournament_save(
        tournament=Tournament(name="Socket Cup", variant="manipulation", table_size=2, registration_open=True),
        by=staff,
        created=True,
    )
    return t, make_user("alice")


async def test_registration_pushes_standings_and_rounds(make_user):
    t, alice = await database_sync_to_async(_setup)(make_user)
    ws = communicator_for(f"/ws/tournaments/{t.pk}/")
    connected, _ = await ws.connect()
    assert connected  # public page: anonymous spectators listen too
    await database_sync_to_async(services.entry_register)(tournament_id=t.pk, user=alice)
    frame = await ws.receive_from(timeout=5)
    assert '<div id="standings" hx-swap-oob="true">' in frame and "alice" in frame
    assert '<div id="rounds" hx-swap-oob="true">' in frame
    start = frame.find('<ol id="entrants" class="entrants" hx-swap-oob="true">')
    assert start >= 0 and "alice" in frame[start : frame.index("</ol>", start)]
    await ws.disconnect()


async def test_unknown_tournament_is_refused():
    ws = communicator_for("/ws/tournaments/999999/")
    connected, _ = await ws.connect()
    assert not connected
    await ws.disconnect()
