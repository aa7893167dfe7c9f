"""The data migration of issue 31: every match's ``card_records`` (a copy in each row) moved to
one ``CardSet`` per distinct records, and back. Used by each match table's migration (battles
0013, campaigns 0009, stratego 0003, the test game's 0004) between adding ``card_set`` and
removing ``card_records``; it reads and writes through the migration's historical models.

Forward: a row with records points to the ``CardSet`` of their digest (written once); a row
with none (a battle set up before records were kept: it plays with the catalogue as it is now)
keeps ``card_set`` null, and so plays as before. Backward: each row gets its set's records
back (the sets themselves stay until ``play``'s own migration is reversed).

Also the lean action rows' migration (``pack_actions``): each action table's ``action`` and
``events`` stored packed (``play.fields``), and back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.db import migrations, models

from .models import records_digest

BATCH = 200


def _checked_now(schema_editor: Any) -> None:
    """PostgreSQL checks the rows' foreign keys at commit (deferred) and refuses to alter a
    table with checks pending: the migration removes a column after moving the data, in the
    same transaction. Checked as each row is written instead."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def move_records(app_label: str, model_name: str) -> migrations.RunPython:
    def forward(apps: Any, schema_editor: Any) -> None:
        _checked_now(schema_editor)
        model = apps.get_model(app_label, model_name)
        card_set = apps.get_model("play", "CardSet")
        db = schema_editor.connection.alias
        known = set(card_set.objects.using(db).values_list("digest", flat=True))
        rows = (model.objects.using(db).exclude(card_records=[]).only("id", "card_records")
                .order_by("id"))
        batch: list[Any] = []
        for row in rows.iterator(chunk_size=BATCH):
            digest = records_digest(row.card_records)
            if digest not in known:
                card_set.objects.using(db).create(digest=digest, records=row.card_records)
                known.add(digest)
            row.card_set_id = digest
            batch.append(row)
            if len(batch) >= BATCH:
                model.objects.using(db).bulk_update(batch, ["card_set"])
                batch = []
        model.objects.using(db).bulk_update(batch, ["card_set"])

    def backward(apps: Any, schema_editor: Any) -> None:
        _checked_now(schema_editor)
        model = apps.get_model(app_label, model_name)
        card_set = apps.get_model("play", "CardSet")
        db = schema_editor.connection.alias
        digests = (model.objects.using(db).filter(card_set__isnull=False)
                   .values_list("card_set_id", flat=True).distinct())
        for digest in list(digests):
            records = card_set.objects.using(db).get(digest=digest).records
            model.objects.using(db).filter(card_set_id=digest).update(card_records=records)

    return migrations.RunPython(forward, backward, elidable=True)


def pack_actions(app_label: str, model_name: str) -> list[Any]:
    """The operations of each action table's ``lean_actions`` migration (issue 31, "keep an
    action row lean"): ``action`` and ``events`` from ``jsonb``/JSON text to
    ``play.fields.PackedJSONField``, every row carried over in batches, and back. The packed
    columns are added beside the old ones (nullable), filled, the old ones dropped and the new
    ones renamed; in reverse the old columns come back nullable, are filled from the packed
    ones, then made required again. Both ways each row reads back the same values."""
    from .fields import PackedJSONField

    def copy(source: str, target: str) -> Any:
        def run(apps: Any, schema_editor: Any) -> None:
            _checked_now(schema_editor)
            model = apps.get_model(app_label, model_name)
            db = schema_editor.connection.alias
            rows = (model.objects.using(db).only("id", f"action{source}", f"events{source}")
                    .order_by("id"))
            batch: list[Any] = []
            for row in rows.iterator(chunk_size=BATCH):
                setattr(row, f"action{target}", getattr(row, f"action{source}"))
                setattr(row, f"events{target}", getattr(row, f"events{source}"))
                batch.append(row)
                if len(batch) >= BATCH:
                    model.objects.using(db).bulk_update(
                        batch, [f"action{target}", f"events{target}"])
                    batch = []
            model.objects.using(db).bulk_update(batch, [f"action{target}", f"events{target}"])
        return run

    def rewrite(column_type: str) -> Any:
        """PostgreSQL keeps a dropped column's values in every row until the row is written
        again (the copy above wrote each row with both columns): the table is rewritten, so
        that its rows hold only what they show (a change of a column to its own type through
        text, which PostgreSQL does by writing every row afresh, dropped columns left out)."""
        def run(apps: Any, schema_editor: Any) -> None:
            if schema_editor.connection.vendor != "postgresql":
                return  # SQLite's schema changes copy the table anyway
            table = apps.get_model(app_label, model_name)._meta.db_table
            quote = schema_editor.quote_name
            schema_editor.execute(
                f"ALTER TABLE {quote(table)} ALTER COLUMN {quote('events')} "
                f"TYPE {column_type} USING {quote('events')}::text::{column_type}")
        return run

    return [
        # backward, last: the JSON rows without the packed columns' leftovers
        migrations.RunPython(migrations.RunPython.noop, rewrite("jsonb"), elidable=False),
        migrations.AddField(model_name, "action_packed", PackedJSONField(null=True)),
        migrations.AddField(model_name, "events_packed", PackedJSONField(null=True)),
        migrations.AlterField(model_name, "action", models.JSONField(null=True)),
        migrations.AlterField(model_name, "events", models.JSONField(default=list, null=True)),
        migrations.RunPython(copy("", "_packed"), copy("_packed", ""), elidable=False),
        migrations.RemoveField(model_name, "action"),
        migrations.RemoveField(model_name, "events"),
        migrations.RenameField(model_name, "action_packed", "action"),
        migrations.RenameField(model_name, "events_packed", "events"),
        migrations.AlterField(model_name, "action", PackedJSONField()),
        migrations.AlterField(model_name, "events", PackedJSONField(default=list)),
        # forward, last: the packed rows without the JSON columns' leftovers
        migrations.RunPython(rewrite("bytea"), migrations.RunPython.noop, elidable=False),
    ]


class PackState(migrations.AlterField):
    """A match table's ``state`` from ``jsonb``/JSON text to ``play.fields.PackedStateField``
    (issue 31: PostgreSQL's CPU per action), and back, every row reading back the same value.
    In place (no column added or removed: the check constraints on ``state`` stay as they
    are). PostgreSQL converts in one statement, each row's JSON text kept as is behind the
    ``PLAIN`` byte (``play.fields``: the next action's write deflates it); back, the deflated
    rows are first rewritten as ``PLAIN`` (in Python: PostgreSQL cannot inflate), then the
    column becomes ``jsonb`` from their text. SQLite (a column holds any type, but a JSON
    column has a ``JSON_VALID`` check): the table is remade first, then each row packed;
    back, each row unpacked to JSON text first, then the table remade."""

    def __init__(self, model_name: str, name: str = "state", field: Any = None,
                 preserve_default: bool = True) -> None:
        from .fields import PackedStateField

        if field is None:
            field = PackedStateField(null=True, blank=True, help_text=(
                "The game's to_json after action seq (a cache the log rebuilds); null until "
                "the match starts."))
        super().__init__(model_name, name, field, preserve_default)

    def deconstruct(self) -> tuple[str, list[Any], dict[str, Any]]:
        return self.__class__.__name__, [self.model_name], {}

    def describe(self) -> str:
        return f"Pack {self.model_name}.{self.name}"

    def _table(self, schema_editor: Any, state: Any, app_label: str) -> tuple[str, str]:
        model = state.apps.get_model(app_label, self.model_name)
        quote = schema_editor.quote_name
        return quote(model._meta.db_table), quote(model._meta.get_field(self.name).column)

    @staticmethod
    def _rewrite(schema_editor: Any, table: str, column: str, where: str,
                 convert: Callable[[Any], Any]) -> None:
        """Each row's ``column`` (``where`` holds) replaced by ``convert(value)``, by id."""
        connection = schema_editor.connection
        last = None
        while True:
            with connection.cursor() as cursor:
                after = "" if last is None else "AND id > %s "
                cursor.execute(f"SELECT id, {column} FROM {table} WHERE {column} IS NOT NULL "
                               f"AND {where} {after}ORDER BY id LIMIT {BATCH}",
                               [] if last is None else [last])
                rows = cursor.fetchall()
                if not rows:
                    return
                cursor.executemany(f"UPDATE {table} SET {column} = %s WHERE id = %s",
                                   [(convert(value), pk) for pk, value in rows])
            last = rows[-1][0]

    def database_forwards(self, app_label: str, schema_editor: Any, from_state: Any,
                          to_state: Any) -> None:
        from .fields import PackedStateField

        table, column = self._table(schema_editor, to_state, app_label)
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(
                f"ALTER TABLE {table} ALTER COLUMN {column} TYPE bytea USING "
                f"'\\x00'::bytea || convert_to({column}::text, 'UTF8')")
            return
        migrations.AlterField.database_forwards(self, app_label, schema_editor, from_state,
                                                to_state)
        pack = PackedStateField().get_prep_value
        self._rewrite(schema_editor, table, column, "1 = 1",
                      lambda value: pack(json.loads(value)))

    def database_backwards(self, app_label: str, schema_editor: Any, from_state: Any,
                           to_state: Any) -> None:
        from .fields import PLAIN, unpack

        table, column = self._table(schema_editor, from_state, app_label)
        if schema_editor.connection.vendor == "postgresql":
            self._rewrite(schema_editor, table, column, f"get_byte({column}, 0) <> {PLAIN}",
                          lambda value: bytes((PLAIN,)) + json.dumps(unpack(value)).encode())
            schema_editor.execute(
                f"ALTER TABLE {table} ALTER COLUMN {column} TYPE jsonb USING "
                f"convert_from(substring({column} from 2), 'UTF8')::jsonb")
            return
        self._rewrite(schema_editor, table, column, "1 = 1",
                      lambda value: json.dumps(unpack(value)))
        # (AlterField's own backward: its forward from the packed state to the JSON one)
        migrations.AlterField.database_forwards(self, app_label, schema_editor, from_state,
                                                to_state)
