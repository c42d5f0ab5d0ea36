"""The no-leak check for shuffle seeds (docs/fairness.md): a round's seed is secret until the round is
over, so no frame, page or record may carry the seed of a round still in play, whole or cut short
(the round result shows a seed cut to its start on screen)."""

from __future__ import annotations

from games.models import Round


def secret_seeds(match_id: int) -> list[str]:
    """The seeds of the match's rounds that are not over yet (at most one: the round in play)."""
    return list(Round.objects.filter(match_id=match_id, finished_at__isnull=True).values_list("seed", flat=True))


def seed_leaks(text: str, seeds: list[str]) -> list[str]:
    """The seeds (of ``seeds``) that ``text`` shows: whole, or their first 12 characters."""
    low = text.lower()
    return [seed for seed in seeds if seed and (seed.lower() in low or seed[:12].lower() in low)]


def assert_no_secret_seed(text: str, match_id: int) -> None:
    leaked = seed_leaks(text, secret_seeds(match_id))
    assert not leaked, f"the seed of a round in play was shown: {leaked}"
