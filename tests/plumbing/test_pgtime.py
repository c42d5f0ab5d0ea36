"""PostgreSQL's ``timestamptz`` values are read by psycopg's compiled loader, as Django reads them (plumbing.pgtime)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.backends.signals import connection_created

from plumbing import pgtime

pytestmark = pytest.mark.django_db

# Each as PostgreSQL writes it out, and the instant it is.
VALUES = [
    ("2026-12-06 04:33:12.123456+00", datetime.datetime(2026, 12, 6, 4, 33, 12, 123456, tzinfo=datetime.UTC)),
    ("2026-06-01 10:00:00+02", datetime.datetime(2026, 6, 1, 8, 0, tzinfo=datetime.UTC)),
    ("1999-12-31 23:59:59.5-05:30", datetime.datetime(2000, 1, 1, 5, 29, 59, 500000, tzinfo=datetime.UTC)),
]


def test_the_receiver_is_connected():
    assert any(receiver[0][0] == "plumbing.pgtime" for receiver in connection_created.receivers)


def test_timestamps_read_are_the_instants_with_djangos_time_zone():
    """Whatever the database: the values Django's own loader gave, with Django's ``tzinfo``."""
    with connection.cursor() as cursor:
        for text, instant in VALUES:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT %s::timestamptz", [text])
            else:
                cursor.execute("SELECT %s", [instant])
            (value,) = cursor.fetchone()
            if isinstance(value, str):  # SQLite hands back text: the ORM's converters make it a datetime
                value = datetime.datetime.fromisoformat(value)
            assert value == instant
            if connection.vendor == "postgresql":
                assert value.tzinfo is connection.timezone


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL connection's loaders (psycopg)")
def test_a_postgresql_connection_reads_them_with_the_compiled_loader():
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.adapt import AdaptersMap
    from psycopg.pq import Format

    connection.ensure_connection()
    loader = connection.connection.adapters.get_loader(pgtime.TIMESTAMPTZ, Format.TEXT)
    assert issubclass(loader, pgtime.TzLoader)
    assert loader.timezone is connection.timezone  # Django's create_cursor compares this, and keeps it
    assert pgtime._COMPILED.__module__.startswith("psycopg_binary")  # requirements.txt: psycopg[binary]
    # The same value as Django's loader for each (its pure-Python one, registered on a map of its own).
    django_map = AdaptersMap(connection.connection.adapters)
    register_tzloader(connection.timezone, django_map)
    django_loader = django_map.get_loader(pgtime.TIMESTAMPTZ, Format.TEXT)(pgtime.TIMESTAMPTZ, connection.connection)
    ours = loader(pgtime.TIMESTAMPTZ, connection.connection)
    for text, instant in VALUES:
        theirs = django_loader.load(text.encode())
        assert ours.load(text.encode()) == theirs == instant
        assert ours.load(text.encode()).tzinfo is theirs.tzinfo


def test_a_loader_for_another_zone_reads_as_djangos_loader_for_it():
    """Django's loader gives the value (in the connection's zone) its own zone as ``tzinfo``: so does
    the compiled loader's, for any zone (no connection here: the values are read in UTC)."""
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg import adapters
    from psycopg.adapt import AdaptersMap
    from psycopg.pq import Format

    zone = datetime.timezone(datetime.timedelta(hours=2))
    django_map = AdaptersMap(adapters)
    register_tzloader(zone, django_map)
    theirs = django_map.get_loader(pgtime.TIMESTAMPTZ, Format.TEXT)(pgtime.TIMESTAMPTZ, None)
    ours = pgtime._loader_for(zone)(pgtime.TIMESTAMPTZ, None)
    assert pgtime._loader_for(zone) is type(ours)  # one class per zone
    for text, _instant in VALUES:
        value = ours.load(text.encode())
        assert value == theirs.load(text.encode()) and value.tzinfo is zone
        assert value.replace(tzinfo=None) == theirs.load(text.encode()).replace(tzinfo=None)
