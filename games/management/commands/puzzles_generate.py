"""``manage.py puzzles_generate [--limit N] [--match ID]``: puzzles from past finished matches (the
analysis worker makes them for each new one)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.models import Match, MatchStatus
from games.puzzles.services import puzzles_generate


class Command(BaseCommand):
    help = "Generate puzzles from finished matches (newest first)."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=100, help="how many matches at most")
        parser.add_argument("--match", type=int, default=None, help="one match only")

    def handle(self, *args, limit: int, match: int | None, **options):
        ids = (
            [match]
            if match
            else list(
                Match.objects.filter(status=MatchStatus.FINISHED)
                .order_by("-finished_at", "-pk")
                .values_list("pk", flat=True)[: max(0, limit)]
            )
        )
        total = 0
        for pk in ids:
            made = puzzles_generate(match_id=pk)
            total += made
            self.stdout.write(f"match {pk}: {made} new puzzles")
        self.stdout.write(f"{total} new puzzles from {len(ids)} matches")
