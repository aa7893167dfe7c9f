"""The hot path's SQL, compiled once per database connection (issue 25, "derived data once
per action"; issue 31).

An action reads its match's row under a lock, appends its action rows and updates the row.
Django's ORM compiles each of those statements anew every time, and on a match table that
costs more CPU than the database spends running them (figures: ``bench/profile_action.py``;
compiling the locking read alone took half of its 2 ms). Here each statement is compiled by
the ORM once, kept on the connection (one per thread and database alias), and run again
with new values, so its SQL, its column order and its value conversions stay the ORM's own.

- ``Prepared(build)``: a query whose only variable is one value (a match's pk), built by
  ``build(value)`` as an ordinary queryset; ``first(value)`` runs it and returns the model
  instance (with its ``select_related`` rows), as ``queryset.first()`` would.
- ``update(obj, fields)``: ``obj.save(update_fields=fields)`` without the compile (no model
  signals are sent; no match model has a receiver, and the ORM's bulk operations send none
  either).
- ``insert(objs)``: ``bulk_create(objs)`` for rows whose ids nobody reads afterwards.
- ``insert_and_update(objs, obj, fields)``: both, on PostgreSQL in one statement (an action's
  rows and its match's row: one round trip).
- ``Compiled(build, kinds)``: a query of several values (ids, moments) and many rows, as the
  list pages read them (issue 31: compiling a list's five joined queries cost more CPU than
  PostgreSQL spent running them); ``rows(*values)`` is ``list(build(*values))``. Kept per
  process, not per connection (under ASGI each request has a connection object of its own).

On PostgreSQL an action's two statements (``Prepared.first``'s locking read and
``insert_and_update``) are also kept PLANNED by the server (``planned_cursor``): sent with
server-side binding, and prepared by psycopg once a connection has run the same statement
``PREPARE_AFTER`` times, after which PostgreSQL runs its generic plan without planning again.
The ORM's cursors bind on the client (Django's default), so PostgreSQL parsed and planned
every action's statements anew: the locking read joins five tables (the match, its two
players and their settings) and its planning took 0.5-0.7 ms of the backend's CPU against
0.1-0.2 ms to run it (``EXPLAIN ANALYZE``); one action's transaction cost the backend
0.83-0.99 ms of CPU with the read bound on the client, 0.34-0.39 ms prepared (issue 31).
Nothing else changes: the statements still go through Django's cursor wrapper (its
execute wrappers and query logging see them), their values are adapted by the same
adapters, and their results are read with the same loaders. A prepared statement belongs to
a server connection (the pool keeps them); behind a pooler in transaction mode, PgBouncer
1.21 or later with ``max_prepared_statements`` set is needed (``docs/deploy.md``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.query import get_related_populators
from django.db.transaction import TransactionManagementError

# Runs of one statement on a connection before psycopg prepares it (psycopg's own default):
# a statement run once or twice (a page's) is never prepared, an action's soon are.
PREPARE_AFTER = 5


def planned_cursor(connection: Any) -> Any:
    """A cursor of ``connection`` whose statements PostgreSQL keeps planned (server-side
    binding, prepared after ``PREPARE_AFTER`` runs; see the module); elsewhere the usual
    cursor. Wrapped as Django wraps its own (``execute_wrapper``, query logging)."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:  # Django turns psycopg's preparing off by default
        # Only server-binding cursors ever prepare (psycopg's ClientCursor, the ORM's, never
        # does), so this leaves every other statement of the connection as it was.
        raw.prepare_threshold = PREPARE_AFTER
    return connection._prepare_cursor(ServerBindingCursor(raw))


# The one value a prepared query varies on, recognised among the compiled SQL's parameters:
# a valid value for any integer column (the ORM compiles a lookup out of a column's range to
# "no rows") that no real query of the hot path uses.
SENTINEL = 2_147_481_815


def _cache(connection: Any) -> dict[Any, Any]:
    """The statements compiled on this connection (a connection belongs to one thread)."""
    cache = connection.__dict__.get("_play_sql")
    if cache is None:
        cache = connection.__dict__["_play_sql"] = {}
    return cache


class Prepared:
    """A query of one value compiled once per connection; ``first(value)`` is
    ``build(value).first()``. ``locking``: the query selects for update, so it must run in
    a transaction (as the ORM requires)."""

    def __init__(self, build: Callable[[Any], Any], *, locking: bool = False) -> None:
        self.build = build
        self.locking = locking

    def _compiled(self, connection: Any, alias: str) -> tuple[Any, ...]:
        cache = _cache(connection)
        entry = cache.get(self)
        if entry is None:
            queryset = self.build(SENTINEL)[:1]
            fetch_mode = queryset._fetch_mode  # the ORM's own (Django 6: lazy-load policy)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            where = [i for i, p in enumerate(params) if p == SENTINEL]
            if len(where) != 1:
                raise ValueError("a prepared query must use its value exactly once")
            klass_info, select = compiler.klass_info, compiler.select
            fields = klass_info["select_fields"]
            start, end = fields[0], fields[-1] + 1
            init = [column[0].target.attname for column in select[start:end]]
            populators = get_related_populators(klass_info, select, alias, fetch_mode)
            # the columns' converters, found once (the ORM's results_iter finds them anew on
            # every call: ~20 fields' get_db_converters per read, a tenth of an action's CPU)
            converters = list(compiler.get_converters(
                [column[0] for column in select[:compiler.col_count]]).items())
            entry = cache[self] = (sql, list(params), where[0], klass_info["model"],
                                   start, end, init, populators, fetch_mode, converters)
        return entry

    def first(self, value: Any, using: str = DEFAULT_DB_ALIAS) -> Any:
        connection = connections[using]
        if self.locking and connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a "
                                             "transaction.")
        sql, params, at, model, start, end, init, populators, fetch_mode, converters = \
            self._compiled(connection, using)
        params = [*params]
        params[at] = value
        with planned_cursor(connection) as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchone()
        if fetched is None:
            return None
        row = _converted(fetched, converters, connection)
        obj = model.from_db(using, init, row[start:end], fetch_mode=fetch_mode)
        for populator in populators:
            populator.populate(row, obj)
        return obj


def _converted(fetched: Sequence[Any], converters: list[Any], connection: Any) -> list[Any]:
    """A fetched row with each column converted as ``SQLCompiler.apply_converters`` does."""
    row = list(fetched)
    for at, (convert, expression) in converters:
        value = row[at]
        for converter in convert:
            value = converter(value, expression, connection)
        row[at] = value
    return row


def update(obj: Any, fields: Sequence[str], using: str = DEFAULT_DB_ALIAS) -> None:
    """Write ``fields`` of ``obj`` to its row, as ``obj.save(update_fields=fields)`` does
    (each field's ``pre_save`` and database preparation), the statement compiled once."""
    sql, values = _update_sql(obj, fields, connections[using])
    with connections[using].cursor() as cursor:
        cursor.execute(sql, values)


def _update_sql(obj: Any, fields: Sequence[str], connection: Any) -> tuple[str, list[Any]]:
    """``update``'s statement (compiled once per connection) and its values."""
    model = type(obj)
    fields = tuple(dict.fromkeys(fields))
    key = ("update", model, fields)
    cache = _cache(connection)
    entry = cache.get(key)
    if entry is None:
        meta = model._meta
        concrete = [meta.get_field(name) for name in fields]
        quote = connection.ops.quote_name
        sets = ", ".join(f"{quote(f.column)} = %s" for f in concrete)
        sql = (f"UPDATE {quote(meta.db_table)} SET {sets} "
               f"WHERE {quote(meta.db_table)}.{quote(meta.pk.column)} = %s")
        entry = cache[key] = (sql, concrete)
    sql, concrete = entry
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in concrete]
    return sql, [*values, obj.pk]


def insert(objs: Sequence[Any], using: str = DEFAULT_DB_ALIAS) -> None:
    """Insert ``objs`` (one model, ids left to the database and not read back), as
    ``bulk_create`` does; an ``IntegrityError`` is raised as the ORM's would be."""
    if not objs:
        return
    connection = connections[using]
    sql, values = _insert_sql(objs, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, values)


def _insert_sql(objs: Sequence[Any], connection: Any) -> tuple[str, list[Any]]:
    """``insert``'s statement (its parts compiled once per connection) and its values."""
    model = type(objs[0])
    key = ("insert", model)
    cache = _cache(connection)
    entry = cache.get(key)
    if entry is None:
        meta = model._meta
        concrete = [f for f in meta.concrete_fields if f is not meta.auto_field]
        quote = connection.ops.quote_name
        columns = ", ".join(quote(f.column) for f in concrete)
        entry = cache[key] = (f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ",
                              "(" + ", ".join(["%s"] * len(concrete)) + ")", concrete)
    head, one, concrete = entry
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection)
              for obj in objs for f in concrete]
    return head + ", ".join([one] * len(objs)), values


def insert_and_update(objs: Sequence[Any], obj: Any, fields: Sequence[str],
                      using: str = DEFAULT_DB_ALIAS, parts: Sequence[Any] = ()) -> None:
    """``insert(objs)`` then ``update(obj, fields)``, on PostgreSQL in ONE statement (the
    insert a data-modifying CTE of the update: one round trip, not two; issue 31, "<= 4
    round trips per action"), with ``parts`` (``alongside.Part``: another app's rows,
    CTEs of the same statement; each part's ``after`` called with its returned row). All
    or nothing: an ``IntegrityError`` of the insert (a second writer from the same seq)
    leaves every row as it was. No ``objs`` but parts: the update and the parts, one
    statement. Elsewhere (SQLite, which has no such CTE and no network) the two statements,
    and no part."""
    connection = connections[using]
    if connection.vendor != "postgresql" or not (objs or parts):
        insert(objs, using)
        update(obj, fields, using)
        return
    updated, more = _update_sql(obj, fields, connection)
    if not objs:  # no rows (a match ended by a resignation, a flag fall): the parts only
        ctes, params = [f"match_row AS ({updated})"], [*more]
    else:
        inserted, values = _insert_sql(objs, connection)
        if not parts:
            with planned_cursor(connection) as cursor:
                cursor.execute(f"WITH new_rows AS ({inserted}) {updated}", [*values, *more])
            return
        ctes = [f"new_rows AS ({inserted})", f"match_row AS ({updated})"]
        params = [*values, *more]
    for part in parts:
        ctes += [f"{name} AS ({statement})" for name, statement in part.ctes]
        params += part.params
    rows = ", ".join(f"(SELECT to_jsonb(r) FROM {part.ctes[-1][0]} r LIMIT 1)"
                     for part in parts)
    with planned_cursor(connection) as cursor:
        cursor.execute(f"WITH {', '.join(ctes)} SELECT {rows}", params)
        returned = cursor.fetchone()
    for part, row in zip(parts, returned, strict=True):
        if part.after is not None:  # Django has psycopg give JSON as text
            part.after(json.loads(row) if isinstance(row, str) else row)


# Stand-ins for a ``Compiled`` query's variables: an id (any integer column's range) and a
# moment no real query of a list uses (each variable its own, told apart by a few units).
_ID = SENTINEL + 1
_MOMENT = datetime(1815, 6, 18, 11, 35, 0, 181_500, tzinfo=UTC)
KINDS = ("id", "moment")


# Compiled's statements, kept per process (by database alias and vendor), not per connection:
# under ASGI each request has its own connection object, so a page's queries compiled on one
# would be compiled again on the next request's.
_shared: dict[tuple[Any, str, str], tuple[Any, ...]] = {}


class Compiled:
    """A query of model rows compiled by the ORM once per process and database, run again
    with other values: ``rows(*values)`` is ``list(build(*values))`` (its ``select_related``
    rows populated, its ``only`` columns deferred the same way, each column converted by the
    ORM's converters with the connection that runs it). ``kinds`` says what each value
    is: ``"id"`` (an integer) or ``"moment"`` (an aware datetime); ``build`` must use each
    one at least once as a query parameter, and nothing in its SQL may depend on them. A
    slice (``[:n]``) is part of the SQL: a different size is another ``Compiled``."""

    def __init__(self, build: Callable[..., Any], kinds: Sequence[str]) -> None:
        if any(kind not in KINDS for kind in kinds):
            raise ValueError(f"a compiled query's values are among {KINDS}")
        self.build = build
        self.kinds = tuple(kinds)

    def _adapt(self, connection: Any, kind: str, value: Any) -> Any:
        return connection.ops.adapt_datetimefield_value(value) if kind == "moment" else value

    def _compiled(self, connection: Any, alias: str) -> tuple[Any, ...]:
        key = (self, alias, connection.vendor)
        entry = _shared.get(key)
        if entry is None:
            stand_ins = [_ID + k if kind == "id" else _MOMENT + timedelta(microseconds=k)
                         for k, kind in enumerate(self.kinds)]
            queryset = self.build(*stand_ins)
            fetch_mode = queryset._fetch_mode  # the ORM's own (Django 6: lazy-load policy)
            compiler = queryset.query.get_compiler(using=alias)
            sql, params = compiler.as_sql()
            params = list(params)
            slots: list[tuple[int, int]] = []
            for k, (kind, stand_in) in enumerate(zip(self.kinds, stand_ins, strict=True)):
                adapted = self._adapt(connection, kind, stand_in)
                found = [(i, k) for i, p in enumerate(params)
                         if type(p) is type(adapted) and p == adapted]
                if not found:
                    raise ValueError(f"a compiled query must use its value {k} ({kind})")
                slots.extend(found)
            klass_info, select = compiler.klass_info, compiler.select
            fields = klass_info["select_fields"]
            start, end = fields[0], fields[-1] + 1
            init = [column[0].target.attname for column in select[start:end]]
            populators = get_related_populators(klass_info, select, alias, fetch_mode)
            converters = list(compiler.get_converters(
                [column[0] for column in select[:compiler.col_count]]).items())
            entry = _shared[key] = (sql, params, slots, klass_info["model"], start, end, init,
                                    populators, fetch_mode, converters)
        return entry

    def rows(self, *values: Any, using: str = DEFAULT_DB_ALIAS) -> list[Any]:
        if len(values) != len(self.kinds):
            raise TypeError(f"{len(self.kinds)} values expected, {len(values)} given")
        connection = connections[using]
        (sql, params, slots, model, start, end, init, populators, fetch_mode,
         converters) = self._compiled(connection, using)
        params = [*params]
        for i, k in slots:
            params[i] = self._adapt(connection, self.kinds[k], values[k])
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            fetched = cursor.fetchall()
        out = []
        for fetched_row in fetched:
            row = _converted(fetched_row, converters, connection)
            obj = model.from_db(using, init, row[start:end], fetch_mode=fetch_mode)
            for populator in populators:
                populator.populate(row, obj)
            out.append(obj)
        return out
