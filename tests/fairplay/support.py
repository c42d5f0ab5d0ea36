"""Finished matches made directly as rows, for the fair-play tests that count them."""

from __future__ import annotations

from games.models import Match, MatchStatus, Seat


def finished_match(users, *, at, abandoned=(), totals=None, practice=False) -> Match:
    """A finished match of ``users`` (seat order), finished ``at``, with ``abandoned`` users' seats marked."""
    match = Match.objects.create(
        variant="manipulation", seats_count=len(users), status=MatchStatus.FINISHED, finished_at=at, practice=practice
    )
    totals = totals or [10 * (len(users) - i) for i in range(len(users))]
    for i, (user, total) in enumerate(zip(users, totals, strict=True)):
        Seat.objects.create(
            match=match,
            index=i,
            user=user,
            final_total=total,
            is_winner=total == max(totals),
            abandoned=user in abandoned,
        )
    return match
