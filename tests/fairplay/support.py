"""Finished matches made directly as rows, for the fair-play tests that count them."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

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


def clear_rate_limits() -> None:
    """Forget this process's rate-limit counters (django-ratelimit's ``rl:`` keys in the default cache),
    which outlive a test and, on Redis, a run: only this process's key prefix (settings.REDIS_PREFIX),
    as tests/accounts/test_ratelimit.py does, so other test processes keep theirs."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX")
    if not prefix or not hasattr(cache, "_cache"):
        cache.clear()
        return
    client = cache._cache.get_client(write=True)
    for key in client.scan_iter(match=f"{prefix}:*rl:*"):
        client.delete(key)
