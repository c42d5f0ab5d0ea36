"""PostgreSQL's ``timestamptz`` values read by psycopg's compiled loader, as Django reads them.

Django 5.2 gives every psycopg 3 connection a loader of ``timestamptz`` that subclasses psycopg's
pure-Python ``TimestamptzLoader`` (``django.db.backends.postgresql.psycopg_any.BaseTzLoader``), so
psycopg-binary's compiled loader is never used: a timestamp read cost ~4 us against ~0.2 us
(``bench/README.md``, "Twenty-fourth round").  A move reads a dozen of them (the match row and
its seats), every board load more.

:func:`use_compiled_loader` (on ``connection_created``) puts :class:`TzLoader` in its place: the
compiled loader parses the value and converts it to the connection's time zone, as the Python one
does, and the value then gets Django's time zone as its ``tzinfo``, as ``BaseTzLoader`` gives it
(the same object already when the two zones are both UTC, Django's default).  It keeps Django's
``timezone`` attribute, which Django's ``create_cursor`` compares with the connection's own.
"""

from __future__ import annotations

from functools import cache

from psycopg import adapters
from psycopg.adapt import Loader
from psycopg.postgres import types
from psycopg.pq import Format

TIMESTAMPTZ = types["timestamptz"].oid
_COMPILED = adapters.get_loader(TIMESTAMPTZ, Format.TEXT)  # psycopg's own: compiled with psycopg-binary


class TzLoader(Loader):
    """``timestamptz`` in text: the compiled loader's value with Django's ``timezone`` as its ``tzinfo``."""

    timezone = None  # Django's time zone for the connection (a subclass per zone: :func:`_loader_for`)

    def __init__(self, oid: int, context=None):
        super().__init__(oid, context)
        self._load = _COMPILED(oid, context).load

    def load(self, data):
        value = self._load(data)
        return value if value.tzinfo is self.timezone else value.replace(tzinfo=self.timezone)


@cache
def _loader_for(zone) -> type[TzLoader]:
    return type("DjangoZoneTzLoader", (TzLoader,), {"timezone": zone})


def use_compiled_loader(sender, connection, **kwargs) -> None:
    """``connection_created``: a PostgreSQL connection reads ``timestamptz`` with :class:`TzLoader`
    (once per connection of the pool; its later checkouts find it there)."""
    if connection.vendor != "postgresql" or _COMPILED.__module__.startswith("psycopg.types"):
        return  # another database, or psycopg without its compiled part: Django's loader stays
    raw = connection.connection
    current = raw.adapters.get_loader(TIMESTAMPTZ, Format.TEXT)
    if current is None or issubclass(current, TzLoader):
        return
    raw.adapters.register_loader(TIMESTAMPTZ, _loader_for(getattr(current, "timezone", None)))
