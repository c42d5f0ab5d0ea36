"""The views' last boards kept per process (games/live/boardviews.py): what a view's next board reuses."""

from __future__ import annotations

import pytest

from games import services
from games.live import boardcache, boardviews
from games.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def nothing_kept():
    with boardviews._lock:
        boardviews._last.clear()
    yield
    with boardviews._lock:
        boardviews._last.clear()


def started(make_user, name: str):
    host, guest = make_user(f"{name}-host"), make_user(f"{name}-guest")
    match = services.match_create(host=host, variant="manipulation", seats_count=2)
    services.seat_join(match_id=match.pk, user=guest)
    services.match_start(match_id=match.pk, user=host)
    return Match.objects.get(pk=match.pk), host


def kept_matches() -> set[int]:
    with boardviews._lock:
        return {match_id for match_id, _view in boardviews._last}


def test_a_views_last_board_goes_once_nobody_drew_it_for_a_while(make_user, monkeypatch):
    """A finished or replaced table's views are dropped as its board data is (``boardcache.KEEP``), not only
    once 4,096 newer views pushed them out: at 100 bot tables, ~60 replaced a minute, that took over an
    hour, and the process grew by their boards until then."""
    clock = [1000.0]
    monkeypatch.setattr(boardviews.time, "monotonic", lambda: clock[0])
    old, old_host = started(make_user, "old")
    boardviews.view_of(boardcache.board_data_for(old.pk), old_host)
    clock[0] += boardviews.KEEP_IDLE / 2
    live, live_host = started(make_user, "live")
    boardviews.view_of(boardcache.board_data_for(live.pk), live_host)
    assert kept_matches() == {old.pk, live.pk}  # within the time: both kept

    clock[0] += boardviews.KEEP_IDLE / 2 + 1  # the old table's view not drawn since: gone at the next put
    boardviews.view_of(boardcache.board_data_for(live.pk, fresh=True), live_host)
    assert kept_matches() == {live.pk}


def test_a_view_drawn_again_is_kept_however_old_its_first_board(make_user, monkeypatch):
    """The time counts from a view's last board: a table that keeps moving keeps its views."""
    clock = [1000.0]
    monkeypatch.setattr(boardviews.time, "monotonic", lambda: clock[0])
    match, host = started(make_user, "steady")
    for _ in range(3):  # its first board 2.7 KEEP_IDLE ago, its last 0.9 ago
        boardviews.view_of(boardcache.board_data_for(match.pk, fresh=True), host)
        clock[0] += boardviews.KEEP_IDLE * 0.9
    other, other_host = started(make_user, "other")
    boardviews.view_of(boardcache.board_data_for(other.pk), other_host)
    assert kept_matches() == {match.pk, other.pk}
