"""Issue 13, "what it must show" 2: a fixed corpus of hostile inputs over every form and the socket.

Every input gets a refusal with a code (a 4xx with ``data-error-code``, or the lobby form's
errors), never a 500 and never a closed socket, and changes nothing: the snapshot of every
table, its log, its seats and its chat is the same after the whole corpus as before.
"""

from __future__ import annotations

import json
import re
from itertools import product

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from games import commands, services
from games.models import ChatMessage, Event, Match, Seat
from rummyhub.asgi import application
from tests.live import session_cookie_for

HX = {"HTTP_HX_REQUEST": "true"}
CODE = re.compile(r'data-error-code="([a-z_]+)"')


def deep(n: int, o: str = "[", c: str = "]") -> str:
    return o * n + c * n


# Hostile values for one field.  None of them completes a legal move with the other fields given.
VALUES = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\x07",
    "\x1b[2J",
    "²",
    "①",
    "١٢",
    "۳",
    "-1",
    "0",
    "99",
    "4294967296",
    "99999999999999999999999",
    "1e309",
    "NaN",
    "Infinity",
    "-0",
    "1.5",
    "0x10",
    "true",
    "null",
    "[]",
    "{}",
    '""',
    '"x"',
    deep(3),
    deep(1500),
    deep(1500, '{"a":', "}")[:-1500] + "}" * 1500,
    '{"a":' * 1200,
    "[" * 5000,
    '[["ZZ.9", "5S.0"]]',
    '[["5S.0","5S.0","5S.0"]]',
    json.dumps([["5S.0"]] * 200),
    json.dumps([[f"{r}S.0" for r in "A23456789TJQK"]] * 40),
    '{"type": "draw"}',
    '{"action": "discard", "card": "ZZ"}',
    "x" * 20_000,
    "\u202eevil",
    "😀" * 50,
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "%00",
    "\ufeff1",
    "1\n2",
    "JK",
    "5S.0",
    "KD.0",
]

# (url name, the other fields, the fields fuzzed) for the table commands; "version" is filled in.
TABLE_FORMS = [
    ("games:act", {"action": "knock"}, ["action", "card", "melds", "suggestion", "version"]),
    ("games:act", {"action": "sort", "mode": "custom"}, ["mode", "order"]),
    ("games:act", {"action": "reset"}, ["version"]),
    ("games:draft", {}, ["table", "version"]),
    ("games:join", {}, ["seat", "invite"]),
    ("games:add_bot", {}, ["seat", "policy"]),
    ("games:remove_bot", {}, ["seat"]),
    ("games:chat", {"text": "hi"}, ["text"]),
]
LOBBY_FIELDS = [
    "variant",
    "seats",
    "bots",
    "turn_timer",
    "is_private",
    "opt_game_bonus",
    "opt_game_target",
    "opt_joker_value",
    "opt_hand_size",
    "opt_knock_timing",
    "opt_jokers",
    "gin_game_target",
    "gin_big_gin",
    "gin_gin_bonus",
    "gin_end_bonuses",
]
PAGES = [
    "/players/{}/",
    "/history/?player={}",
    "/history/players/?player={}",
    "/history/?variant={}",
    "/leaderboard/?variant={}",
    "/tournaments/?page={}",
]


def snapshot():
    return (
        sorted(Match.objects.values_list("pk", "version", "status", "state", "draft", "options")),
        sorted(Seat.objects.values_list("pk", "user_id", "bot_policy", "bot_name", "hand_order", "ready")),
        Event.objects.count(),
        ChatMessage.objects.count(),
    )


def tables(make_user, settings):
    """A started two-player table (the mover to draw), and an open three-seat table full with two bots (nothing to add)."""
    settings.RUMMYHUB_FIXED_SEED = "5"
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    started = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=started.pk, user=bob)
    services.match_start(match_id=started.pk, user=alice)
    started = Match.objects.get(pk=started.pk)
    mover, other = (alice, bob) if started.state["round"]["seat_to_act"] == 0 else (bob, alice)
    open_table = services.match_create(host=carol, variant="manipulation", seats_count=3, bots=2, is_private=True)
    return started, open_table, mover, other, carol


def table_form_inputs(part: int):
    """The corpus of one of the table forms (``TABLE_FORMS[part]``): (url, fields without the version,
    who posts it: "open"/"started" table and "carol"/"mover"/"other")."""
    url, base, fuzzed = TABLE_FORMS[part]
    for value in VALUES:
        for field in fuzzed:
            if url in ("games:join", "games:add_bot", "games:remove_bot"):
                targets = [("open", "carol" if url != "games:join" else "other")]
            elif url == "games:chat":
                targets = [("started", "carol")]  # any text is a message from a player: from a spectator, none is
            else:
                targets = [("started", "mover"), ("started", "other")]
            for target in targets:
                if field in ("order", "table") and value == "[]":
                    continue  # legal: an empty custom order of the hand, an empty draft
                yield url, {**base, field: value}, target, (url, field, value[:30], target)


LOBBY_INPUTS = list(product(LOBBY_FIELDS, VALUES))
LOBBY_PARTS = 3  # the lobby's fields in three parts (a refused form is a whole lobby page drawn)


def lobby_inputs(part: int) -> list[tuple[str, str]]:
    return [(field, value) for field, value in LOBBY_INPUTS if LOBBY_FIELDS.index(field) % LOBBY_PARTS == part]


PAGE_INPUTS = list(product(PAGES, VALUES))
# The corpus in parts (each table form, the lobby form, the pages), each a test of its own: the same
# inputs and checks as one test, spread over the suite's processes (the whole took minutes in one).
PARTS = (
    [f"form-{i}-{url.split(':')[1]}" for i, (url, _b, _f) in enumerate(TABLE_FORMS)]
    + [f"lobby-{i}" for i in range(LOBBY_PARTS)]
    + ["pages"]
)


def test_the_corpus_holds_over_two_thousand_inputs():
    assert sorted(i for p in range(LOBBY_PARTS) for i in lobby_inputs(p)) == sorted(LOBBY_INPUTS)  # all, once
    count = sum(1 for i in range(len(TABLE_FORMS)) for _ in table_form_inputs(i)) + len(LOBBY_INPUTS) + len(PAGE_INPUTS)
    assert count >= 2000, count


@pytest.mark.django_db
@pytest.mark.parametrize("part", PARTS)
def test_a_corpus_of_hostile_form_inputs_is_refused_with_a_code_and_changes_nothing(make_user, settings, part):
    started, open_table, mover, other, carol = tables(make_user, settings)
    clients, names = {}, {"mover": mover, "other": other, "carol": carol}
    for key, user in names.items():
        clients[key] = Client()
        clients[key].force_login(user)
    before = snapshot()
    count, codes = 0, {}

    def check(response, what):
        nonlocal count
        count += 1
        assert response.status_code < 500, what
        assert 400 <= response.status_code < 500, (what, response.status_code)
        found = CODE.findall(response.content.decode())
        assert found, (what, response.content[:300])
        codes[found[-1]] = codes.get(found[-1], 0) + 1

    if part.startswith("form-"):
        matches = {"started": started, "open": open_table}
        for url, fields, (table, who), what in table_form_inputs(int(part.split("-")[1])):
            data = {"version": str(started.version), **fields}
            check(clients[who].post(reverse(url, args=[matches[table].pk]), data, **HX), what)
    lobby = clients["carol"]
    if part.startswith("lobby-"):
        for field, value in lobby_inputs(int(part.split("-")[1])):
            data = {"variant": "manipulation", "seats": "3", "bots": "9", "turn_timer": "0", field: value}
            response = lobby.post(reverse("games:create"), data)  # bots=9 never fits: every post is refused
            count += 1
            assert response.status_code == 400 and CODE.search(response.content.decode()), (field, value[:30])
    if part == "pages":
        for page, value in PAGE_INPUTS:
            if "\x00" in value or "/" in value or "?" in value or "#" in value:
                path = page.format(value.replace("\x00", "%00"))
            else:
                path = page.format(value)
            response = lobby.get(path)
            count += 1
            assert response.status_code < 500, path[:60]
    assert snapshot() == before
    kind, _, number = part.partition("-")
    inputs = {
        "form": lambda: list(table_form_inputs(int(number.split("-")[0]))),
        "lobby": lambda: lobby_inputs(int(number)),
    }
    assert count == (len(PAGE_INPUTS) if part == "pages" else len(inputs[kind]()))
    print(f"{part}: {count} inputs; refusal codes: {dict(sorted(codes.items()))}")


FRAMES = [
    b"\x00binary",
    b"{}",
    " ",
    "x",
    "null",
    "[]",
    "{}",
    "1",
    '"resync"',
    '{"type": "nothing"}',
    '{"type": "command"}',
    '{"type": "command", "kind": "act"}',
    '{"type": "command", "kind": "act", "fields": []}',
    deep(1200),
    '{"a":' * 1500,
    "[" * 20_000,
    '{"type": "command", "fields": ' + deep(1000) + "}",
    '{"type": "command", "kind": "act", "fields": {"action": {"x": 1}}}',
    "\x00",
    '{"type": "\\u0000"}',
    '{"type": "command", "kind": "act", "fields": {"action": "draw", "version": 1}}',
    "x" * 40_000,
    '{"type": "command", "kind": "nope", "fields": {}}',
    "NaN",
    '{"type": "command", "kind": "act", "fields": {"action": "draw", "version": "1", "x": "' + "y" * 20_000 + '"}}',
]


@pytest.mark.django_db(transaction=True)
async def test_a_corpus_of_hostile_socket_frames_never_closes_the_socket_or_changes_anything(
    make_user, settings, monkeypatch
):
    monkeypatch.setattr(commands, "COMMAND_BURST", 10_000)  # the corpus, not the flood limit, is under test
    started, _open, mover, other, _carol = await database_sync_to_async(tables)(make_user, settings)
    frames = list(FRAMES)
    for (url, base, fuzzed), value in product(TABLE_FORMS[:4], VALUES):
        kind = "draft" if url == "games:draft" else "act"
        for field in fuzzed:
            if field in ("order", "table") and value == "[]":
                continue  # legal (as in the form corpus)
            fields = {"version": str(started.version), **base, field: value}
            frames.append(json.dumps({"type": "command", "kind": kind, "fields": fields}))
    for user in (mover, other):
        cookie = await database_sync_to_async(session_cookie_for)(user)
        socket = WebsocketCommunicator(
            application,
            f"/ws/tables/{started.pk}/",
            headers=[(b"origin", b"http://testserver"), (b"cookie", f"sessionid={cookie}".encode())],
        )
        connected, _ = await socket.connect()
        assert connected
        while not await socket.receive_nothing(timeout=0.3):
            await socket.receive_from()  # the greeting: a board or the online dots
        # Taken with the socket open: the player to act coming and going starts and ends a grace.
        before = await database_sync_to_async(snapshot)()
        for frame in frames:
            await socket.send_to(**({"bytes_data": frame} if isinstance(frame, bytes) else {"text_data": frame}))
            answer = await socket.receive_output(timeout=10)
            assert answer["type"] == "websocket.send", (frame[:60], answer)
            assert CODE.search(answer["text"]), (frame[:300], answer["text"][:200])
        assert await socket.receive_nothing(timeout=0.2)
        assert await database_sync_to_async(snapshot)() == before
        await socket.disconnect()
    print(f"{2 * len(frames)} socket frames, each refused with a code")
