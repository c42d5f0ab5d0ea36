"""What a long-running process keeps per match or per version is bounded (bench/soak.py measures it)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from django.conf import settings
from django.utils import timezone

from games.board import table as board_table
from games.board.data import BoardData
from games.live import boardcache
from rummyhub import layers


def board(match_id: int, version: int = 1) -> BoardData:
    match = SimpleNamespace(pk=match_id, version=version, created_at=timezone.now())
    return BoardData(match=match, seats=[], state=None, events=[], rounds=[], rematch=None)


def test_the_board_of_a_match_nobody_watches_is_dropped(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(boardcache.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(boardcache, "_entries", type(boardcache._entries)())
    boardcache.remember(board(1))
    boardcache.remember(board(2))
    clock[0] += boardcache.KEEP / 2
    boardcache.remember(board(3))
    assert boardcache.latest(1) is not None  # still a base for the next incremental load
    clock[0] += boardcache.KEEP / 2 + 1
    boardcache.remember(board(3, version=2))  # a live table's next version
    assert boardcache.latest(1) is None and boardcache.latest(2) is None  # finished tables, gone
    assert boardcache.latest(3).version == 2


def test_the_boards_kept_never_pass_the_cap(monkeypatch):
    monkeypatch.setattr(boardcache, "_entries", type(boardcache._entries)())
    monkeypatch.setattr(boardcache, "MAX_ENTRIES", 5)
    for match_id in range(1, 20):
        boardcache.remember(board(match_id))
    assert list(boardcache._entries) == [15, 16, 17, 18, 19]


def test_seat_rows_keep_the_newest_up_to_the_cap(monkeypatch):
    monkeypatch.setattr(board_table, "_SEAT_ROWS", board_table.Kept(3))
    rendered = []
    monkeypatch.setattr("games.board.table.render_to_string",
                        lambda name, ctx: rendered.append(ctx["s"]) or f"<li>{ctx['s'].score}</li>")
    seats = [SimpleNamespace(index=0, score=score) for score in range(7)]
    for seat in seats:
        board_table.seat_rows([seat], between_rounds=False)
    assert len(board_table._SEAT_ROWS) == 3
    assert [key[-1] for key in board_table._SEAT_ROWS] == [4, 5, 6]  # the oldest went first (not all at once)
    board_table.seat_rows([seats[6]], between_rounds=False)
    assert len(rendered) == 7  # a kept row is not rendered again


def test_the_board_fragment_cache_is_small():
    assert settings.CACHES["board"]["OPTIONS"]["MAX_ENTRIES"] <= 1000


def test_the_layer_sweep_drops_groups_it_emptied(monkeypatch):
    async def scenario():
        layer = layers.SweepingInMemoryChannelLayer(group_expiry=60)
        live, gone = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("table-1", live)
        await layer.group_add("table-2", gone)
        layer.groups["table-2"][gone] = 1.0  # joined long ago, never discarded (a socket that vanished)
        layer._last_sweep = 0.0
        layer._clean_expired()
        return layer.groups

    groups = asyncio.run(scenario())
    assert list(groups) == ["table-1"]
