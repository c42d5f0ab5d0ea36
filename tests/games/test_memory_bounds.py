"""What a long-running process keeps per match or per version is bounded (bench/soak.py measures it)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games import services
from games.board import fragments
from games.board import table as board_table
from games.board.data import BoardData
from games.live import boardcache
from games.models import Match
from plumbing import layers
from tests.games.history.support import play_match


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
    monkeypatch.setattr(
        "games.board.table.render_to_string",
        lambda name, ctx: rendered.append(ctx["s"]) or f"<li>{ctx['s'].score}</li>",
    )
    seats = [SimpleNamespace(index=0, hand_count=None, score=score) for score in range(7)]
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


@pytest.mark.django_db
@pytest.mark.parametrize("variant, seats", [("manipulation", 3), ("gin", 2)])
def test_a_versions_board_data_is_freed_without_the_cyclic_collector(make_user, settings, variant, seats):
    """The server collects cyclic garbage only every few minutes (plumbing.gctune): a version's board
    data, with the public fragments and the spectator's board kept on it, must go as soon as nothing
    holds it, or every push of every table piles a board up until the next full collection."""
    settings.RUMMYHUB_FIXED_SEED = "11"
    users = [make_user(n) for n in ("alice", "bob", "carol")[:seats]]
    match = services.match_create(host=users[0], variant=variant, seats_count=seats)
    for user in users[1:]:
        services.seat_join(match_id=match.pk, user=user)
    services.match_start(match_id=match.pk, user=users[0])
    assert_freed_by_reference_counting(match.pk, [*users, AnonymousUser()])


@pytest.mark.django_db
@pytest.mark.parametrize("variant", ["manipulation", "gin"])
def test_a_finished_matchs_board_data_is_freed_without_the_cyclic_collector(alice, settings, variant):
    match = play_match(alice, settings=settings, variant=variant, game_target=40 if variant == "manipulation" else 10)
    assert match.status == "finished"
    assert_freed_by_reference_counting(match.pk, [alice, AnonymousUser()])


def assert_freed_by_reference_counting(match_id: int, viewers) -> None:
    data = boardcache.load(Match.objects.get(pk=match_id))
    boardcache.forget(match_id)
    for viewer in viewers:
        html = fragments.board_for(data, viewer).html()
        assert "results" in html
    assert data.shared  # the public fragments and the spectator's board are kept on it
    gone = weakref.ref(data)
    gc.disable()
    try:
        del data
        assert gone() is None, [type(r).__name__ for r in gc.get_referrers(gone())]
    finally:
        gc.enable()
