"""Standings one row per player (issue 31): ``StandingRow`` (snapshot, rank, name, data)
replaces ``StandingSnapshot.rows``, the whole table as one JSON list that a page of 100 rows
had to read and decode whole. Every stored row is carried over, in rank order, and
``players`` counts them; reversed, the JSON lists are rebuilt from the rows."""

import django.db.models.deletion
from django.db import migrations, models


def rows_to_table(apps, schema_editor):
    StandingSnapshot = apps.get_model("tournaments", "StandingSnapshot")
    StandingRow = apps.get_model("tournaments", "StandingRow")
    for snap in StandingSnapshot.objects.order_by("pk").iterator(chunk_size=50):
        rows = snap.rows or []
        # the stored rank where there is one; a row without (never written so) by position
        StandingRow.objects.bulk_create(
            [StandingRow(snapshot_id=snap.pk, rank=row.get("rank") or k,
                         name=str(row.get("name", ""))[:150], data=row)
             for k, row in enumerate(rows, start=1)], batch_size=1000)
        StandingSnapshot.objects.filter(pk=snap.pk).update(players=len(rows))


def table_to_rows(apps, schema_editor):
    StandingSnapshot = apps.get_model("tournaments", "StandingSnapshot")
    StandingRow = apps.get_model("tournaments", "StandingRow")
    for pk in StandingSnapshot.objects.order_by("pk").values_list("pk", flat=True):
        rows = list(StandingRow.objects.filter(snapshot_id=pk).order_by("rank")
                    .values_list("data", flat=True))
        StandingSnapshot.objects.filter(pk=pk).update(rows=rows)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0009_tournament_games'),
    ]

    operations = [
        migrations.CreateModel(
            name='StandingRow',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rank', models.PositiveIntegerField()),
                ('name', models.CharField(max_length=150)),
                ('data', models.JSONField()),
                ('snapshot', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='standing_rows', to='tournaments.standingsnapshot')),
            ],
            options={
                'ordering': ['snapshot', 'rank'],
                'indexes': [models.Index(fields=['snapshot', 'name'], name='standing_row_by_name')],
                'constraints': [models.UniqueConstraint(fields=('snapshot', 'rank'), name='one_row_per_rank')],
            },
        ),
        migrations.AddField(
            model_name='standingsnapshot',
            name='players',
            field=models.PositiveIntegerField(default=0, help_text='Its number of rows (a page count without counting them).'),
        ),
        migrations.RunPython(rows_to_table, table_to_rows, elidable=True),
        migrations.RemoveField(
            model_name='standingsnapshot',
            name='rows',
        ),
    ]
