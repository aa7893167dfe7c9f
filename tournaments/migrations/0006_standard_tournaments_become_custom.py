"""Saved standard decks became custom drafts (decks 0003); the tournaments that took them
become custom tournaments: their registered decks are custom now, checked under 15.0."""

from django.db import migrations, models


def standard_to_custom(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Tournament.objects.filter(deck_kind="standard").update(deck_kind="custom")


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0005_dealt_deck_format"),
    ]

    operations = [
        migrations.RunPython(standard_to_custom, migrations.RunPython.noop, elidable=True),
    ]
