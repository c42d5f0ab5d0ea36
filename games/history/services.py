"""Writes of the match history feature: the ratings.

``rating_update_for_match(match=...)`` is called by the table services right
after a match finishes (on commit), and by the ``rate_matches`` management
command for any finished match that is still unrated.  It is idempotent: the
``RatedMatch`` row (primary key = the match) is created in the same
transaction as the rating changes, so a match is rated exactly once even when
two callers race.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from games.history import ratings
from games.history.models import PlayerRating, RatedMatch
from games.models import Match, MatchStatus, Seat


def _rating_row(seat: Seat, variant: str) -> PlayerRating | None:
    if seat.user_id is not None:
        key = {"user_id": seat.user_id, "bot_policy": ""}
    elif seat.bot_policy:
        key = {"user": None, "bot_policy": seat.bot_policy}
    else:
        return None
    defaults = {
        "mu": ratings.DEFAULT_MU,
        "sigma": ratings.DEFAULT_SIGMA,
        "ordinal": ratings.ordinal(ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA),
    }
    row, _created = PlayerRating.objects.select_for_update().get_or_create(variant=variant, **key, defaults=defaults)
    return row


def rating_update_for_match(*, match: Match) -> RatedMatch | None:
    """Rate a finished match once; returns its ``RatedMatch`` (the existing one when already rated).

    A practice table (``Match.practice``) is never rated: None.  Ranks come from the seats' final
    totals (ties share a rank), except that a player who abandoned the match (``Seat.abandoned``)
    ranks below everyone who stayed.  Seats
    without a player (never the case in a finished match) are left out; with
    fewer than two rated seats the match is marked rated with no change.
    """
    match_id = match.pk
    try:
        return _rate(match_id)
    except _AlreadyRated:
        return RatedMatch.objects.filter(match_id=match_id).first()


class _AlreadyRated(Exception):
    pass


def _rate(match_id: int) -> RatedMatch | None:
    with transaction.atomic():
        current = Match.objects.select_for_update().filter(pk=match_id).values("status", "variant", "practice").first()
        if current is None or current["status"] != MatchStatus.FINISHED or current["practice"]:
            return None  # a practice table is not rated
        done = RatedMatch.objects.filter(match_id=match_id).first()
        if done is not None:
            return done
        seats = list(Seat.objects.filter(match_id=match_id).order_by("index"))
        rows = [(seat, _rating_row(seat, current["variant"])) for seat in seats]
        rows = [(seat, row) for seat, row in rows if row is not None and seat.final_total is not None]
        changes = []
        if len(rows) >= 2:
            before = [(row.mu, row.sigma) for _seat, row in rows]
            ranks = ratings.ranks_with_abandons(
                [seat.final_total for seat, _row in rows], [seat.abandoned for seat, _row in rows]
            )
            after = ratings.rate(before, ranks)
            # One row can sit twice (two bots of the same policy): it takes the mean of its seats' updates.
            updates: dict[int, tuple[PlayerRating, list[tuple[float, float]]]] = {}
            for (seat, row), (mu, sigma) in zip(rows, after, strict=True):
                changes.append(
                    {
                        "seat": seat.index,
                        "before": [row.mu, row.sigma, row.ordinal],
                        "after": [mu, sigma, ratings.ordinal(mu, sigma)],
                    }
                )
                updates.setdefault(row.pk, (row, []))[1].append((mu, sigma))
            for row, new in updates.values():
                row.mu = sum(mu for mu, _s in new) / len(new)
                row.sigma = sum(sigma for _m, sigma in new) / len(new)
                row.ordinal = ratings.ordinal(row.mu, row.sigma)
                row.matches += 1
                row.save(update_fields=["mu", "sigma", "ordinal", "matches", "updated_at"])
        try:
            with transaction.atomic():
                return RatedMatch.objects.create(match_id=match_id, changes=changes)
        except IntegrityError:
            # Rated meanwhile by another caller (the match row lock makes this rare): undo ours.
            raise _AlreadyRated from None


def rating_update_pending(*, limit: int | None = None) -> int:
    """Rate every finished, unrated match in finishing order; returns how many were rated."""
    ids = (
        Match.objects.filter(status=MatchStatus.FINISHED, practice=False, rated__isnull=True)
        .order_by("finished_at", "pk")
        .values_list("pk", flat=True)
    )
    if limit is not None:
        ids = ids[:limit]
    count = 0
    for match_id in list(ids):
        if rating_update_for_match(match=Match(pk=match_id)) is not None:
            count += 1
    return count
