"""Who may ask for a hint: a player at a practice table (``Match.practice``: not rated, never a
tournament's) at which every other seat is a bot.  No database here: the board asks it to show the
Hint button, and the hint service asks it again (with the tournament check) before it answers."""

from __future__ import annotations

from collections.abc import Iterable

from games.models import Match, Seat


def hint_seat(match: Match, seats: Iterable[Seat], user) -> Seat | None:
    """``user``'s seat if they may have hints at ``match`` now, else None."""
    if not match.practice or user is None or not getattr(user, "is_authenticated", False):
        return None
    seats = list(seats)
    mine = next((s for s in seats if s.user_id == user.pk and not s.bot_policy), None)
    if mine is None:
        return None
    if any(not s.bot_policy for s in seats if s is not mine):
        return None
    return mine
