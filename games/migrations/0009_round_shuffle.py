"""Provably fair deals (docs/fairness.md): each round records the shuffle that dealt it.

Every round already stored was dealt with Python's ``random.Random(seed)``: it is marked
``python-random`` and keeps its seed (now written in decimal, as text).  New rounds default to
``fy-hmac-sha256-v1`` with a 256-bit seed in hex and carry the commitment shown at the deal.
"""

import games.engine.shuffle
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_hot_tables_autovacuum"),
    ]

    operations = [
        # Added with the old algorithm as its value, so every existing round is marked with it ...
        migrations.AddField(
            model_name="round",
            name="shuffle",
            field=models.CharField(default="python-random", editable=False, max_length=24),
        ),
        # ... then new rounds get the documented shuffle.
        migrations.AlterField(
            model_name="round",
            name="shuffle",
            field=models.CharField(default="fy-hmac-sha256-v1", editable=False, max_length=24),
        ),
        # A bigint becomes its decimal text (PostgreSQL: USING seed::varchar; SQLite copies the table).
        migrations.AlterField(
            model_name="round",
            name="seed",
            field=models.CharField(default=games.engine.shuffle.new_seed, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="round",
            name="commitment",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
    ]
