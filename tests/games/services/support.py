"""Started tables for the service tests, with fixed seeds."""

from __future__ import annotations

from games import services
from games.models import Match
from games.variants import spec_for


def started_match(host, *, seats=2, bots=1, others=(), seed="7", settings=None, **options) -> Match:
    if settings is not None:
        settings.RUMMYHUB_FIXED_SEED = seed
    match = services.match_create(host=host, variant="manipulation", seats_count=seats, options=options, bots=bots)
    for user in others:
        services.seat_join(match_id=match.pk, user=user)
    services.match_start(match_id=match.pk, user=host)
    return Match.objects.get(pk=match.pk)


def current_state(match: Match):
    return spec_for(match.variant).load(Match.objects.get(pk=match.pk).state["round"])
