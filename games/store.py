"""Every lock, read and save of a match row, and who is at a table.

The statements of a move's transaction are SQL built once per process.

Django compiles a queryset's SQL at every execution.  On the path every move takes (lock the
match, read its seats, append the event, save the match) that compiling, and the generic
bookkeeping around it, was about half of the service's CPU (bench/README.md, "Fifth round").
These helpers build the same statements once, with the connection's own quoting, and turn
values into parameters with the fields' own methods (``pre_save``, ``get_db_prep_save``), so a
row is written exactly as ``Model.save`` writes it.  Rows are read back through ``Model.raw``,
which applies the fields' converters (JSON, dates) as a queryset does.

The board loads of the other processes (``games.live.boardcache``) read through the same helpers.

What they leave out, on purpose: model signals (no receiver exists for these models; a test
keeps it so) and multi-database routing (the project has one database).
"""

from __future__ import annotations

from contextlib import suppress
from datetime import timedelta
from functools import cache

from django.conf import settings
from django.db import connection, models
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Event, Match, Seat, TableConnection


def _qn(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _read_plan(model: type[models.Model], names: tuple[str, ...], vendor: str):
    """The attnames of these fields and, per field, the converters the ORM applies to a value read
    (the backend's and the field's own, e.g. JSONField's decoding, SQLite's datetimes)."""
    fields = [model._meta.get_field(name) for name in names]
    plan = []
    for i, field in enumerate(fields):
        col = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if converters:
            plan.append((i, col, tuple(converters)))
    return tuple(f.attname for f in fields), tuple(plan)


def _read(model: type[models.Model], sql: str, params, names: tuple[str, ...], extra: tuple[str, ...] = ()) -> list:
    """``model.objects.raw(sql, params)`` for a statement selecting ``names`` (then ``extra``
    annotations, set as read): the same instances, without a RawQuerySet's per-query set-up."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return _objects(model, rows, names, extra)


def _objects(model: type[models.Model], rows, names: tuple[str, ...], extra: tuple[str, ...] = ()) -> list:
    """The instances of rows selecting ``names`` (then ``extra``), as the ORM builds them from its reads."""
    attnames, plan = _read_plan(model, names, connection.vendor)
    out = []
    n = len(names)
    for row in rows:
        values = list(row[:n])
        for i, col, converters in plan:
            for convert in converters:
                values[i] = convert(values[i], col, connection)
        obj = model.from_db(connection.alias, attnames, values)
        for name, value in zip(extra, row[n:], strict=True):
            setattr(obj, name, value)
        out.append(obj)
    return out


@cache
def _all(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(f.name for f in model._meta.concrete_fields)


@cache
def _select_sql(model: type[models.Model], where: str, vendor: str) -> str:
    meta = model._meta
    columns = ", ".join(_qn(f.column) for f in meta.concrete_fields)
    return f"SELECT {columns} FROM {_qn(meta.db_table)} WHERE {_qn(meta.get_field(where).column)} = %s"


# PostgreSQL: ``SET LOCAL lock_timeout`` folded into the locking statement (no statement of its own:
# a move stays four statements, in two queries).  ``set_config(..., true)`` lasts until the transaction ends; it is
# a volatile filter of the row's scan, so it runs before LockRows waits for the row.  A lower
# lock_timeout already set on the connection (an operator's, a test server's) is kept.
_BOUNDED_WAIT = (
    " AND set_config('lock_timeout', CASE WHEN current_setting('lock_timeout')::interval > '0'"
    " AND current_setting('lock_timeout')::interval <= %s::interval THEN current_setting('lock_timeout')"
    " ELSE %s END, true) IS NOT NULL"
)


@cache
def _locked_match_sql(bounded: bool, vendor: str) -> str:
    sql = _select_sql(Match, "id", vendor)
    if bounded and vendor == "postgresql":
        sql += _BOUNDED_WAIT
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql


def _locked_match_query(match_id: int, lock_timeout: float | None) -> tuple[str, list]:
    bounded = lock_timeout is not None and connection.vendor == "postgresql"
    params: list = [match_id]
    if bounded:
        wait = f"{max(1, round(lock_timeout * 1000))}ms"
        params += [wait, wait]
    return _locked_match_sql(bounded, connection.vendor), params


def locked_match(match_id: int, *, lock_timeout: float | None = None) -> Match | None:
    """``Match.objects.select_for_update().get(pk=match_id)``, or None (the caller is in a transaction).

    ``lock_timeout`` (seconds): on PostgreSQL, waits for a lock in the rest of this transaction
    (this row's first) end after that long with ``lock_not_available`` (55P03), a transient error
    ``services.with_retry`` knows.  SQLite's waits are bounded by its busy timeout (settings).
    """
    sql, params = _locked_match_query(match_id, lock_timeout)
    rows = _read(Match, sql, params, _all(Match))
    return rows[0] if rows else None


def locked_match_and_seats(
    match_id: int, *, online_since, lock_timeout: float | None = None
) -> tuple[Match | None, list[Seat]]:
    """:func:`locked_match`, then :func:`seats_of` once the row is locked: on PostgreSQL both statements
    in one query (one round trip: a move's first two reads are one wait for the server, not two)."""
    if connection.vendor != "postgresql":
        match = locked_match(match_id, lock_timeout=lock_timeout)
        return match, seats_of(match_id, online_since=online_since) if match is not None else []
    lock_sql, params = _locked_match_query(match_id, lock_timeout)
    seats_sql, seats_params = _seats_query(match_id, online_since)
    with connection.cursor() as cursor:
        # Client-side binding (Django's default with psycopg 3): the statements go as one simple
        # query, and each one's rows come as a result of their own (``nextset``).
        cursor.execute(f"{lock_sql}; {seats_sql}", [*params, *seats_params])
        match_rows = cursor.fetchall()
        cursor.nextset()
        seat_rows = cursor.fetchall()
    if not match_rows:
        return None, []
    return _objects(Match, match_rows, _all(Match))[0], _objects(Seat, seat_rows, _all(Seat), extra=("online",))


def match_seats_and_events_after(
    match_id: int, *, online_since, after_seq: int
) -> tuple[Match | None, list[Seat], list[Event]] | None:
    """The match row, its seats (:func:`seats_of`) and its events after ``after_seq``
    (:func:`events_after`), as one committed state of the database, in one round trip: on PostgreSQL
    outside a transaction, one query that is a read-only REPEATABLE READ transaction of its own (a
    board's load took six round trips: the transaction's start, its isolation, the three reads, its
    commit).  None elsewhere (the caller reads them as it did)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return None
    lock_free = _select_sql(Match, "id", connection.vendor)
    seats_sql, seats_params = _seats_query(match_id, online_since)
    sql = (
        f"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; {lock_free}; {seats_sql}; "
        f"{_events_after_sql(connection.vendor)}; COMMIT"
    )
    results = []
    with connection.cursor() as cursor:
        try:
            # Client-side binding: the statements go as one simple query; each one's rows come as a result
            # of its own (``nextset``), BEGIN's and COMMIT's with none.
            cursor.execute(sql, [match_id, *seats_params, match_id, after_seq])
            while True:
                if cursor.description is not None:
                    results.append(cursor.fetchall())
                if not cursor.nextset():
                    break
        except BaseException:
            # A statement failed: the server skipped the rest of the query, COMMIT too, and holds the
            # transaction aborted.  End it, so the connection goes back as it came (autocommit, idle); a
            # connection that is gone has nothing to end, and the failure is the one to tell.
            with suppress(Exception):
                connection.connection.rollback()
            raise
    match_rows, seat_rows, event_rows = results
    if not match_rows:
        return None, [], []
    return (
        _objects(Match, match_rows, _all(Match))[0],
        _objects(Seat, seat_rows, _all(Seat), extra=("online",)),
        _objects(Event, event_rows, EVENTS_AFTER_FIELDS),
    )


@cache
def _claim_sql(excluded: int, vendor: str) -> str:
    meta = Match._meta
    columns = ", ".join(_qn(f.column) for f in meta.concrete_fields)
    deadline, status, pk = (_qn(meta.get_field(n).column) for n in ("deadline", "status", "id"))
    sql = f"SELECT {columns} FROM {_qn(meta.db_table)} WHERE {deadline} <= %s AND {status} IN (%s, %s)"
    if excluded:
        sql += f" AND {pk} NOT IN ({', '.join(['%s'] * excluded)})"
    sql += f" ORDER BY {deadline} LIMIT 1"
    if connection.features.has_select_for_update_skip_locked:
        sql += " FOR UPDATE SKIP LOCKED"
    return sql


def claim_due(now, statuses: tuple[str, str], exclude=()) -> Match | None:
    """``Match.objects.filter(deadline__lte=now, status__in=statuses).exclude(pk__in=exclude)
    .order_by("deadline").select_for_update(skip_locked=True).first()`` (the caller is in a transaction)."""
    exclude = list(exclude)
    when = Match._meta.get_field("deadline").get_db_prep_value(now, connection)
    rows = _read(Match, _claim_sql(len(exclude), connection.vendor), [when, *statuses, *exclude], _all(Match))
    return rows[0] if rows else None


def match_row(match_id: int) -> Match | None:
    """``Match.objects.filter(pk=match_id).first()``, unlocked (a board's load)."""
    rows = _read(Match, _select_sql(Match, "id", connection.vendor), [match_id], _all(Match))
    return rows[0] if rows else None


def match_version(match_id: int) -> int | None:
    """The match's version, read without a lock (None if there is no such match)."""
    with connection.cursor() as cursor:
        cursor.execute(_version_sql(connection.vendor), [match_id])
        row = cursor.fetchone()
    return row[0] if row else None


@cache
def _version_sql(vendor: str) -> str:
    meta = Match._meta
    return f"SELECT {_qn(meta.get_field('version').column)} FROM {_qn(meta.db_table)} WHERE {_qn(meta.pk.column)} = %s"


EVENTS_AFTER_FIELDS = ("id", "seq", "seat", "summary", "by_bot")


@cache
def _events_after_sql(vendor: str) -> str:
    meta = Event._meta
    columns = ", ".join(_qn(meta.get_field(name).column) for name in EVENTS_AFTER_FIELDS)
    match, seq = _qn(meta.get_field("match").column), _qn(meta.get_field("seq").column)
    return f"SELECT {columns} FROM {_qn(meta.db_table)} WHERE {match} = %s AND {seq} > %s ORDER BY {seq}"


def events_after(match_id: int, seq: int) -> list[Event]:
    """The match's events after ``seq``, in order, with only seq, seat, summary and by_bot loaded."""
    return _read(Event, _events_after_sql(connection.vendor), [match_id, seq], EVENTS_AFTER_FIELDS)


@cache
def _seats_sql(vendor: str) -> str:
    seat, conn = Seat._meta, TableConnection._meta
    columns = ", ".join(f"s.{_qn(f.column)}" for f in seat.concrete_fields)

    def s(name: str) -> str:
        return f"s.{_qn(seat.get_field(name).column)}"

    def c(name: str) -> str:
        return f"c.{_qn(conn.get_field(name).column)}"

    here = (
        f"EXISTS (SELECT 1 FROM {_qn(conn.db_table)} c WHERE {c('match')} = {s('match')}"
        f" AND {c('user')} = {s('user')} AND {c('last_seen')} >= %s)"
    )
    return f"SELECT {columns}, {here} AS {_qn('online')} FROM {_qn(seat.db_table)} s WHERE {s('match')} = %s ORDER BY {s('index')}"


def _seats_query(match_id: int, online_since) -> tuple[str, list]:
    since = TableConnection._meta.get_field("last_seen").get_db_prep_value(online_since, connection)
    return _seats_sql(connection.vendor), [since, match_id]


def seats_of(match_id: int, *, online_since) -> list[Seat]:
    """``seats_with_presence(Seat.objects.filter(match_id=match_id)).order_by("index")``:
    each seat with ``online``, whether its user has a table socket seen at or after ``online_since``."""
    sql, params = _seats_query(match_id, online_since)
    return _read(Seat, sql, params, _all(Seat), extra=("online",))


@cache
def _insert_plan(model: type[models.Model], vendor: str) -> tuple[str, tuple[models.Field, ...]]:
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    columns = ", ".join(_qn(f.column) for f in fields)
    return f"INSERT INTO {_qn(meta.db_table)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))})", fields


def _insert_query(objs: list[models.Model]) -> tuple[str, list]:
    """One INSERT of these rows (of one model), with their parameters: ``obj.save(force_insert=True)``
    for a model with an automatic primary key, without reading it back (``obj.pk`` stays None: the
    callers on the hot path never need it)."""
    sql, fields = _insert_plan(type(objs[0]), connection.vendor)
    params = []
    for obj in objs:
        params += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
        obj._state.adding = False
    head, _, row = sql.partition(" VALUES ")
    return f"{head} VALUES {', '.join([row] * len(objs))}", params


@cache
def _update_plan(
    model: type[models.Model], names: tuple[str, ...], vendor: str
) -> tuple[str, tuple[models.Field, ...]]:
    meta = model._meta
    fields = tuple(meta.get_field(name) for name in names)
    assignments = ", ".join(f"{_qn(f.column)} = %s" for f in fields)
    return f"UPDATE {_qn(meta.db_table)} SET {assignments} WHERE {_qn(meta.pk.column)} = %s", fields


def _update_query(obj: models.Model, names: list[str] | tuple[str, ...]) -> tuple[str, list]:
    names = tuple(dict.fromkeys(names))  # each column once, in the given order
    sql, fields = _update_plan(type(obj), names, connection.vendor)
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    params.append(obj.pk)
    return sql, params


def update(obj: models.Model, names: list[str] | tuple[str, ...], *, inserting: list[models.Model] = ()) -> None:
    """``obj.save(update_fields=names)`` for a row known to exist (it is locked by the caller).

    ``inserting``: new rows of one model (``insert``'s) written first: on PostgreSQL in the same query
    (one round trip for a move's log entries and its new version)."""
    statements = [_insert_query(list(inserting))] if inserting else []
    statements.append(_update_query(obj, names))
    if connection.vendor == "postgresql":
        # Client-side binding: the statements go as one simple query (see locked_match_and_seats).
        statements = [("; ".join(sql for sql, _ in statements), [p for _, params in statements for p in params])]
    with connection.cursor() as cursor:
        for sql, params in statements:
            cursor.execute(sql, params)


# ------------------------------------------------------------------ presence


def presence_cutoff(now=None):
    """A table socket's row seen before this no longer counts (``RUMMYHUB_PRESENCE_TIMEOUT``)."""
    return (now or timezone.now()) - timedelta(seconds=settings.RUMMYHUB_PRESENCE_TIMEOUT)


def seats_with_presence(seats, now=None):
    """A ``Seat`` queryset whose rows carry ``online`` (read by :func:`is_connected`), in the same query.

    ``online``: the seat's user has a table socket at the match seen within the timeout.  The
    seats of a board are read this way (or through :func:`seats_of`), so showing who is here
    costs no query per seat.
    """
    return seats.annotate(
        online=Exists(
            TableConnection.objects.filter(
                match_id=OuterRef("match_id"), user_id=OuterRef("user_id"), last_seen__gte=presence_cutoff(now)
            )
        )
    )


def is_connected(seat: Seat, now=None) -> bool:
    """A bot is always here; a human while a table socket of theirs was seen within the timeout.

    From ``seat.online`` when the seat was read with it (:func:`seats_with_presence`,
    :func:`seats_of`), else one query.
    """
    if seat.is_bot:
        return True
    if seat.user_id is None:
        return False
    online = getattr(seat, "online", None)
    if online is None:
        online = user_here(seat.match_id, seat.user_id, now)
    return bool(online)


def user_here(match_id: int, user_id: int, now=None) -> bool:
    """Whether a table socket of this user at this match was seen within the timeout."""
    return TableConnection.objects.filter(
        match_id=match_id, user_id=user_id, last_seen__gte=presence_cutoff(now)
    ).exists()


# ------------------------------------------------------------------ upkeep

# The rows every move rewrites: a match row per move (its indexed deadline changes, so no update is
# "HOT" and every one leaves a dead row version and index entries behind), its seats, the table
# sockets' rows every heartbeat.  Left unvacuumed, a claim's index scan walks every dead entry.
HOT_TABLES = (Match, Seat, TableConnection)


def autovacuum_is_on() -> bool:
    """Whether PostgreSQL's autovacuum daemon runs (``SHOW autovacuum``); other databases: True."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        return cursor.fetchone()[0] == "on"


def vacuum_hot_tables() -> None:
    """``VACUUM`` the tables every move rewrites (PostgreSQL; outside a transaction).

    For a server whose autovacuum is off (``games.live.clockloop`` calls it then): a table another
    session is vacuuming is skipped, so several processes doing this never wait for each other.
    """
    if connection.vendor != "postgresql":
        return
    names = ", ".join(_qn(model._meta.db_table) for model in HOT_TABLES)
    with connection.cursor() as cursor:
        # TRUNCATE false: never the exclusive lock that cutting empty pages off the end needs (every
        # claim and move would wait behind it); the pages are reused by the next row versions.
        cursor.execute(f"VACUUM (SKIP_LOCKED, TRUNCATE false) {names}")
