"""Typed commands over the table socket (issue 30): a read is answered with the answer alone (no board,
nothing changed), a move with the mover's board then the answer (and everyone else's board), a
refusal with its reason alone, and a malformed frame as any other."""

from __future__ import annotations

import json

import pytest

from tests.realtime.frames import receive_board
from tests.realtime.test_table_commands import current, open_table, seat_to_act

pytestmark = pytest.mark.django_db(transaction=True)


def typed(text) -> str:
    return json.dumps({"type": "command", "kind": "typed", "fields": {"text": text}})


async def answer_of(communicator) -> str:
    frame = await communicator.receive_from(timeout=10)
    assert frame.startswith('<div hx-swap-oob="beforeend:#typed-log"><p class="typed-line typed-answer" dir="auto">'), (
        frame[:200]
    )
    return frame


async def test_a_read_is_answered_alone_and_changes_nothing(make_user, settings):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    before = await current(match.pk)
    await sockets[mover].send_to(text_data=typed("read hand"))
    frame = await answer_of(sockets[mover])
    assert "Your hand, 10 cards:" in frame and " of " in frame
    after = await current(match.pk)
    assert (after.version, after.state) == (before.version, before.state)
    for c in sockets:
        assert await c.receive_nothing(timeout=0.3)
    for c in sockets:
        await c.disconnect()


async def test_a_typed_move_brings_the_board_then_the_answer(make_user, settings):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    version = (await current(match.pk)).version
    await sockets[mover].send_to(text_data=typed("draw"))
    board = await receive_board(sockets[mover])
    assert f'data-version="{version + 1}"' in board and 'data-reply="true"' in board
    said = await answer_of(sockets[mover])
    assert "You drew" in said
    other = await receive_board(sockets[1 - mover])
    assert f'data-version="{version + 1}"' in other and "typed-answer" not in other
    for c in sockets:
        await c.disconnect()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("fly", "is not a command"),
        ("new ZZ", "is not a card"),
        ("end turn", "You must draw a card first."),
        ("x" * 400, "too large"),
    ],
)
async def test_a_refused_command_is_its_reason_alone(make_user, settings, text, said):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    before = await current(match.pk)
    await sockets[mover].send_to(text_data=typed(text))
    frame = await answer_of(sockets[mover])
    assert said in frame
    after = await current(match.pk)
    assert (after.version, after.state, after.draft) == (before.version, before.state, before.draft)
    for c in sockets:
        assert await c.receive_nothing(timeout=0.3)
    for c in sockets:
        await c.disconnect()


async def test_the_others_are_refused_moves_but_may_read(make_user, settings):
    match, sockets = await open_table(make_user, settings)
    waiting = 1 - await seat_to_act(match.pk)
    await sockets[waiting].send_to(text_data=typed("draw"))
    assert "It is not your turn." in await answer_of(sockets[waiting])
    await sockets[2].send_to(text_data=typed("status"))  # the spectator
    assert "Waiting for" in await answer_of(sockets[2])
    for c in sockets:
        await c.disconnect()


async def test_a_nul_byte_is_refused_by_the_sockets_input_layer(make_user, settings):
    match, sockets = await open_table(make_user, settings)
    mover = await seat_to_act(match.pk)
    before = await current(match.pk)
    await sockets[mover].send_to(text_data=typed("new 7H\u0000"))
    frame = await sockets[mover].receive_from(timeout=10)
    assert 'id="socket-error"' in frame and 'data-error-code="bad_frame"' in frame  # role="alert": read at once
    assert (await current(match.pk)).version == before.version
    for c in sockets:
        await c.disconnect()
