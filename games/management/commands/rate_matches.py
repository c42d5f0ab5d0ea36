"""``manage.py rate_matches``: rate every finished match that has not been rated yet."""

from django.core.management.base import BaseCommand

from games.history.services import rating_update_pending


class Command(BaseCommand):
    help = "Rate every finished, unrated match (in finishing order)."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=None, help="Rate at most this many matches.")

    def handle(self, *args, limit=None, **options):
        count = rating_update_pending(limit=limit)
        self.stdout.write(f"Rated {count} match(es).")
