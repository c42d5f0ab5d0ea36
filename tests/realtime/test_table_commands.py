"""Moves sent over the table socket (what the page does while its socket is open).

The same checks and services as the page's forms: a move is answered with the
mover's fresh board and pushed to the others; a refusal reaches the sender only,
on their own board, and changes nothing; malformed commands are refused.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError

from games import commands, services
from games.models import Match, Seat
from games.variants import spec_for
from tests.live import session_cookie_for
from tests.realtime.frames import receive_board
from tests.realtime.test_table_socket import check_frame, connect, setup_table

pytestmark = pytest.mark.django_db(transaction=True)


def command(kind: str, **fields) -> str:
    return json.dumps({"type": "command", "kind": kind, "fields": fields})


async def current(match_id: int) -> Match:
    return await database_sync_to_async(Match.objects.get)(pk=match_id)


async def seat_to_act(match_id: int) -> int:
    match = await current(match_id)
    return spec_for("manipulation").load(match.state["round"]).seat_to_act


async def quiet(*communicators):
    """Read away the first board and any online-dot frames."""
    for c in communicators:
        await receive_board(c)
        while not await c.receive_nothing(timeout=0.3):
            await c.receive_from()


async def open_table(make_user, settings):
    match, players, carol = await database_sync_to_async(setup_table)(make_user, settings)
    sockets = [connect(match.pk, await database_sync_to_async(session_cookie_for)(u)) for u in [*players, carol]]
    for c in sockets:
        assert (await c.connect())[0]
    await quiet(*sockets)
    return match, sockets


async def test_a_move_over_the_socket_answers_the_mover_and_reaches_everyone(make_user, settings):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    version = (await current(match.pk)).version
    await sockets[mover].send_to(text_data=command("act", action="draw", version=str(version)))
    for seat, c in [(0, sockets[0]), (1, sockets[1]), (None, sockets[2])]:
        frame = await receive_board(c)
        assert f'data-version="{version + 1}"' in frame and "drew a card" in frame
        assert ('data-reply="true"' in frame) == (seat == mover)  # the mover's own answer
        await check_frame(frame, match.pk, seat)
        assert await c.receive_nothing(timeout=0.3)  # exactly one board each
    assert (await current(match.pk)).version == version + 1
    for c in sockets:
        await c.disconnect()


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"action": "draw", "version": "0"}, "stale_version"),
        ({"action": "fly", "version": "{v}"}, "bad_action"),
        ({"action": "discard", "card": "ZZ.9", "version": "{v}"}, None),  # not a Manipulation move: refused
        ({"action": "meld", "version": "{v}"}, None),
    ],
)
async def test_a_refused_move_reaches_only_the_sender_and_changes_nothing(make_user, settings, fields, code):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    before = await current(match.pk)
    fields = {k: v.replace("{v}", str(before.version)) for k, v in fields.items()}
    await sockets[mover].send_to(text_data=command("act", **fields))
    frame = await receive_board(sockets[mover])
    assert 'class="board-error"' in frame and 'data-reply="true"' in frame
    if code:
        assert f'data-error-code="{code}"' in frame
    after = await current(match.pk)
    assert (after.version, after.state, after.draft) == (before.version, before.state, before.draft)
    for c in sockets:
        assert await c.receive_nothing(timeout=0.3)
    for c in sockets:
        await c.disconnect()


async def test_out_of_turn_and_spectator_moves_are_refused(make_user, settings):
    match, sockets = await open_table(make_user, settings)
    waiting = 1 - await seat_to_act(match.pk)
    before = await current(match.pk)
    for c, code in [(sockets[waiting], "not_your_turn"), (sockets[2], "not_seated")]:
        await c.send_to(text_data=command("act", action="draw", version=str(before.version)))
        frame = await receive_board(c)
        assert f'data-error-code="{code}"' in frame
    assert (await current(match.pk)).version == before.version
    for c in sockets:
        await c.disconnect()


async def test_a_draft_and_a_sort_over_the_socket(make_user, settings):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    version = (await current(match.pk)).version
    await sockets[mover].send_to(text_data=command("act", action="draw", version=str(version)))
    for c in sockets:
        await receive_board(c)
    match_now = await current(match.pk)
    hand = spec_for("manipulation").load(match_now.state["round"]).hands[mover]
    # An invalid two-card meld: the draft is stored and shown with its reason; the others see it live.
    table = [[hand[0].id, hand[1].id]]
    await sockets[mover].send_to(text_data=command("draft", table=json.dumps(table), version=str(match_now.version)))
    mine = await receive_board(sockets[mover])
    assert "meld-invalid" in mine and 'data-reply="true"' in mine
    other = await receive_board(sockets[1 - mover])
    assert f'data-version="{match_now.version + 1}"' in other and hand[0].id not in other
    # Sorting changes no version: the sender alone gets their re-ordered hand.
    await sockets[1 - mover].send_to(text_data=command("act", action="sort", mode="rank"))
    sorted_board = await receive_board(sockets[1 - mover])
    assert 'data-reply="true"' in sorted_board and f'data-version="{match_now.version + 1}"' in sorted_board
    order = await database_sync_to_async(lambda: Seat.objects.get(match_id=match.pk, index=1 - mover).hand_order)()
    assert order and sorted_board.index(f'data-id="{order[0]}"') < sorted_board.index(f'data-id="{order[-1]}"')
    for c in sockets[:2]:
        assert await c.receive_nothing(timeout=0.3)
    for c in sockets:
        await c.disconnect()


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "command", "kind": "act", "fields": "draw"},
        {"type": "command", "kind": "act"},
        {"type": "command", "kind": "rm -rf", "fields": {}},
        {"type": "command", "kind": "act", "fields": {"action": ["draw"]}},
        {"type": "command", "kind": "draft", "fields": {"table": "[" * 20_000}},
    ],
)
async def test_malformed_commands_are_refused_and_change_nothing(make_user, settings, frame):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    before = await current(match.pk)
    await sockets[mover].send_to(text_data=json.dumps(frame))
    reply = await sockets[mover].receive_from(timeout=5)
    assert 'id="socket-error"' in reply or 'class="board-error"' in reply
    after = await current(match.pk)
    assert (after.version, after.state, after.draft) == (before.version, before.state, before.draft)
    for c in sockets:
        await c.disconnect()


async def test_a_flood_of_commands_is_cut_off_and_runs_at_most_the_burst(make_user, settings):

    match, sockets = await open_table(make_user, settings)
    waiting = 1 - await seat_to_act(match.pk)
    before = await current(match.pk)
    flood = commands.COMMAND_BURST + 10
    for _ in range(flood):  # out of turn: each one that runs is refused by the service, none changes anything
        await sockets[waiting].send_to(text_data=command("act", action="draw", version=str(before.version)))
    boards = cut = 0
    for _ in range(flood):
        frame = await sockets[waiting].receive_from(timeout=10)
        if 'data-error-code="not_your_turn"' in frame:
            boards += 1
        elif 'data-error-code="too_fast"' in frame:
            cut += 1
    assert cut >= 1 and boards <= commands.COMMAND_BURST + 2 and boards + cut == flood
    assert (await current(match.pk)).version == before.version
    for c in sockets:
        await c.disconnect()


async def test_a_flood_of_resyncs_is_cut_off_too(make_user, settings):
    """Each resync is a fresh load from the database: a flood of them is limited like commands."""

    _match, sockets = await open_table(make_user, settings)
    flood = commands.COMMAND_BURST + 10
    for _ in range(flood):
        await sockets[0].send_to(text_data='{"type": "resync"}')
    frames = [await sockets[0].receive_from(timeout=10) for _ in range(flood)]
    cut = sum('data-error-code="too_fast"' in f for f in frames)
    assert cut >= 9 and sum('id="board-meta"' in f for f in frames) == flood - cut
    for c in sockets:
        await c.disconnect()


async def test_a_move_that_fails_on_the_server_gets_an_error_and_the_socket_stays_open(
    make_user, settings, monkeypatch
):
    """Not a refusal but a fault (here the database refusing the write): the mover is told nothing
    changed, nobody else hears anything, and the same socket then carries the move."""

    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    before = await current(match.pk)
    real = services.turn_submit

    def broken(**kwargs):
        raise OperationalError("could not write to the database: disk full")

    monkeypatch.setattr(services, "turn_submit", broken)
    await sockets[mover].send_to(text_data=command("act", action="draw", version=str(before.version)))
    frame = await sockets[mover].receive_from(timeout=10)
    assert 'id="socket-error"' in frame and 'data-error-code="server_error"' in frame
    assert "nothing changed" in frame
    after = await current(match.pk)
    assert (after.version, after.state) == (before.version, before.state)
    for c in sockets:
        assert await c.receive_nothing(timeout=0.3)
    monkeypatch.setattr(services, "turn_submit", real)
    await sockets[mover].send_to(text_data=command("act", action="draw", version=str(before.version)))
    frame = await receive_board(sockets[mover])
    assert f'data-version="{before.version + 1}"' in frame
    for c in sockets:
        await c.disconnect()


@pytest.mark.parametrize(
    ("fields", "code", "status"),
    [
        ({"action": "draw", "version": "0"}, "stale_version", 409),
        ({"action": "fly", "version": "{v}"}, "bad_action", 400),
        ({"action": "draw", "version": "{v}²"}, "bad_version", 400),  # not ASCII digits, for every parser
        ({"action": "draw", "version": "{v}", "melds": "x" * (commands.MAX_FIELD + 1)}, "too_large", 413),
    ],
)
async def test_both_transports_refuse_a_move_alike(make_user, settings, client, fields, code, status):
    """One edge per move (``commands.carry_out``): the form POST and the socket frame give one refusal."""
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    before = await current(match.pk)
    fields = {k: v.replace("{v}", str(before.version)) for k, v in fields.items()}
    await sockets[mover].send_to(text_data=command("act", **fields))
    frame = await receive_board(sockets[mover])
    assert f'data-error-code="{code}"' in frame

    user = await database_sync_to_async(lambda: Seat.objects.get(match=match, index=mover).user)()
    await database_sync_to_async(client.force_login)(user)
    url = f"/tables/{match.pk}/act/"
    response = await database_sync_to_async(client.post)(url, fields, HTTP_HX_REQUEST="true")
    assert response.status_code == status == commands.STATUS.get(code, 400)
    assert f'data-error-code="{code}"' in response.content.decode()
    after = await current(match.pk)
    assert (after.version, after.state) == (before.version, before.state)
    for c in sockets:
        await c.disconnect()
