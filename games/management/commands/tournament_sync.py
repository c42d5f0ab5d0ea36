"""Record the results of every finished tournament match (a safety net for the on-finish hook)."""

from django.core.management.base import BaseCommand

from games.tournaments import services


class Command(BaseCommand):
    help = "Record placements of finished matches in the playing rounds of every (or one) tournament."

    def add_arguments(self, parser):
        parser.add_argument("--tournament", type=int, default=None, help="only this tournament id")

    def handle(self, *args, **options):
        changed = services.tournament_sync(tournament_id=options["tournament"])
        self.stdout.write(f"{changed} table result(s) recorded.")
