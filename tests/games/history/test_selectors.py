"""A player's statistics count a private match only for its players and staff (issue 7, point 6)."""

from __future__ import annotations

import pytest

from games.history.selectors import player_stats
from tests.games.history.support import play_match

pytestmark = pytest.mark.django_db


def played(stats) -> int:
    return sum(v["played"] for v in stats["variants"])


def test_private_match_counts_only_for_those_who_may_see_it(make_user, alice, bob, carol, settings):
    staff = make_user("sam", is_staff=True)
    play_match(alice, settings=settings, seats=2, bots=0, others=[bob], private=True, game_target=40)
    play_match(alice, settings=settings, seats=2, bots=1, private=False, game_target=40, seed="8")
    assert played(player_stats(player=alice, viewer=alice)) == 2
    assert played(player_stats(player=alice, viewer=bob)) == 2
    assert played(player_stats(player=alice, viewer=staff)) == 2
    assert played(player_stats(player=alice, viewer=carol)) == 1
