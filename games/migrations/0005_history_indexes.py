"""Indexes for the match history (games.history): created in the database only.

They live on tables whose models belong to the table feature, so they are
raw SQL with no model state (the models' Meta stays as it is, and
makemigrations sees no change). Valid on SQLite and PostgreSQL.

* ``history_match_variant_finished``: the list filtered by game, newest first,
  without walking every finished match of the other games.
* ``history_seat_user_match``: "only mine" and "played by": the matches of one
  player straight from the index (covering, no table lookups).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_tournaments_models"),
    ]

    operations = [
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS history_match_variant_finished "
            "ON games_match (variant, status, finished_at DESC)",
            reverse_sql="DROP INDEX IF EXISTS history_match_variant_finished",
        ),
        migrations.RunSQL(
            "CREATE INDEX IF NOT EXISTS history_seat_user_match ON games_seat (user_id, match_id)",
            reverse_sql="DROP INDEX IF EXISTS history_seat_user_match",
        ),
    ]
