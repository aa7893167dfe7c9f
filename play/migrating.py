"""The data migration of issue 31: every match's ``card_records`` (a copy in each row) moved to
one ``CardSet`` per distinct records, and back. Used by each match table's migration (battles
0013, campaigns 0009, stratego 0003, the test game's 0004) between adding ``card_set`` and
removing ``card_records``; it reads and writes through the migration's historical models.

Forward: a row with records points to the ``CardSet`` of their digest (written once); a row
with none (a battle set up before records were kept: it plays with the catalogue as it is now)
keeps ``card_set`` null, and so plays as before. Backward: each row gets its set's records
back (the sets themselves stay until ``play``'s own migration is reversed).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

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
