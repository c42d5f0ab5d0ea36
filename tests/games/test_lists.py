"""Lists inside translated sentences take the language's own separators (games.board.lists): Persian
writes «،» and «؛»; the tournament seating reasons name seats with the letters the duplicate pages use."""

from __future__ import annotations

from django.utils import translation

from games.board import lists
from games.tournaments.selectors import describe_reasons


def test_the_separators_come_from_the_catalogue():
    assert lists.items([1, 2, 3]) == "1, 2, 3"
    with translation.override("fa"):
        assert lists.items([1, 2, 3]) == "1، 2، 3"
        assert lists.clauses(["a", "b"]) == "a؛ b"


def test_duplicate_lanes_name_seats_as_the_duplicate_pages_do():
    reasons = [{"code": "duplicate_lanes", "lanes": [[1, 2], [3, 3]]}, {"code": "avoids_rematch"}]
    assert describe_reasons(reasons) == (
        "duplicate: each seat goes to players of similar standing at every table "
        "(seat A: ranks 1–2, seat B: rank 3); avoids a rematch"
    )
    with translation.override("fa"):
        text = describe_reasons(reasons)
    assert "؛ " in text and "، " in text and "duplicate" not in text
