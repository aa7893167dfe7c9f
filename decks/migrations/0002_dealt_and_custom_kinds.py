"""Deck kinds dealt (2.0), custom (15.0), campaign (16.0); a dealt deck names its pool."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('decks', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='deck',
            name='pool',
            field=models.CharField(choices=[('collection', 'the copies I own'), ('set', 'the whole set')], default='collection', help_text='Dealt decks (2.0): where the cards are dealt from.', max_length=10),
        ),
        migrations.AddField(
            model_name='deckversion',
            name='pool',
            field=models.CharField(choices=[('collection', 'the copies I own'), ('set', 'the whole set')], default='collection', max_length=10),
        ),
        migrations.AlterField(
            model_name='deck',
            name='kind',
            field=models.CharField(choices=[('dealt', 'Dealt from a pool (2.0)'), ('custom', 'Custom Battle Points (15.0)'), ('campaign', 'Campaign (16.0)')], default='dealt', max_length=10),
        ),
        migrations.AlterField(
            model_name='deckversion',
            name='kind',
            field=models.CharField(choices=[('dealt', 'Dealt from a pool (2.0)'), ('custom', 'Custom Battle Points (15.0)'), ('campaign', 'Campaign (16.0)')], max_length=10),
        ),
    ]
