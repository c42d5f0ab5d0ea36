"""The tables every move rewrites are vacuumed early by PostgreSQL's autovacuum.

Each move updates its match row (a new row version and index entries: the indexed deadline changes,
so the update cannot be HOT), its seats now and then, and every heartbeat the table sockets' rows.
The default thresholds (20 % of the table dead) let a claim's index scan walk thousands of dead
entries between two vacuums; a fixed threshold of 1,000 dead rows and no cost delay keep them
few, and no truncation (its exclusive lock would stop every claim and move while it is held).  Other databases: nothing to do.  (A server with autovacuum off: games.live.clockloop vacuums.)
"""

from django.db import migrations

TABLES = ("games_match", "games_seat", "games_tableconnection")
EARLY = (
    "autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_delay = 0,"
    " vacuum_truncate = false"
)
DEFAULT = "autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold, autovacuum_vacuum_cost_delay, vacuum_truncate"


def early(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in TABLES:
            schema_editor.execute(f"ALTER TABLE {schema_editor.quote_name(table)} SET ({EARLY})")


def default(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for table in TABLES:
            schema_editor.execute(f"ALTER TABLE {schema_editor.quote_name(table)} RESET ({DEFAULT})")


class Migration(migrations.Migration):
    dependencies = [("games", "0007_table_connections")]

    operations = [migrations.RunPython(early, default)]
