"""A board shows exactly one version: its log is the log of the match row it was drawn from (issue 25.13).

A board's load reads the match row, then the log, in two queries: a move that commits in between
has appended the events of the next version.  The moves here commit exactly there, every time.
"""

from __future__ import annotations

import re
import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection

from games import selectors, services, store
from games.board import fragments
from games.live import boardcache
from games.models import Match
from games.variants import spec_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def empty_cache():
    with boardcache._lock:
        boardcache._entries.clear()
    yield
    with boardcache._lock:
        boardcache._entries.clear()


def started(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_create(host=alice, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=bob)
    services.match_start(match_id=match.pk, user=alice)
    return Match.objects.get(pk=match.pk), [alice, bob]


def move(match_id, players):
    """The player to act draws (or ends the turn): one version, one or more events."""
    now = Match.objects.get(pk=match_id)
    spec = spec_for(now.variant)
    state = spec.load(now.state["round"])
    legal = spec.view(state, state.seat_to_act)["legal_actions"]
    kind = "draw" if any(a["type"] == "draw" for a in legal) else "end_turn"
    services.turn_submit(
        match_id=match_id, user=players[state.seat_to_act], action={"type": kind}, expected_version=now.version
    )


def logged_seqs(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-seq="(\d+)"', html)]


@pytest.mark.parametrize("incremental", [False, True])
def test_a_boards_log_is_its_versions_while_moves_commit_between_its_reads(make_user, monkeypatch, incremental):
    match, players = started(make_user)
    if incremental:
        boardcache.board_data_for(match.pk)  # kept: the next loads read only the new events
    # The load in separate reads (on PostgreSQL a load after a kept one is a single query, with no
    # "between": tests/games/test_boardcache.py).
    monkeypatch.setattr(selectors, "board_data_after", lambda previous: None)
    real_row = store.match_row

    def row_then_a_move(match_id):
        row = real_row(match_id)
        # Another thread (its own connection) commits a move between the row's read and the log's.
        mover = threading.Thread(target=lambda: (move(match_id, players), connection.close()))
        mover.start()
        mover.join()
        return row

    monkeypatch.setattr(store, "match_row", row_then_a_move)
    for _ in range(4):
        data = boardcache.board_data_for(match.pk, fresh=True)
        assert Match.objects.get(pk=match.pk).version == data.version + 1  # a move did commit in between
        assert data.events[-1].seq == data.match.event_seq
        shown = max(logged_seqs(fragments.board_for(data, AnonymousUser()).html()))
        assert shown == data.match.event_seq
        # The same board as a load of that version with nothing committing meanwhile.
        assert [e.seq for e in data.events] == [e.seq for e in selectors.board_data(data.match).events]
