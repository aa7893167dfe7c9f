"""A tournament of any game (``Tournament.game``, ``game_options``; ``battle`` empty for another
game) and one link for every kind of played match: ``MatchGame`` (match, game, kind,
played_id) replaces ``MatchBattle`` (match, game, battle), every row carried over as kind
"battle" with ``played_id`` = its battle's id (and back, battle links only, when reversed)."""

import django.db.models.deletion
from django.db import migrations, models

import tournaments.models


def battles_to_games(apps, schema_editor):
    MatchBattle = apps.get_model("tournaments", "MatchBattle")
    MatchGame = apps.get_model("tournaments", "MatchGame")
    MatchGame.objects.bulk_create(
        [MatchGame(match_id=match_id, game=game, kind="battle", played_id=battle_id)
         for match_id, game, battle_id in MatchBattle.objects.order_by("pk").values_list(
             "match_id", "game", "battle_id")], batch_size=1000)


def games_to_battles(apps, schema_editor):
    MatchBattle = apps.get_model("tournaments", "MatchBattle")
    MatchGame = apps.get_model("tournaments", "MatchGame")
    links = MatchGame.objects.filter(kind="battle").order_by("pk")
    MatchBattle.objects.bulk_create(
        [MatchBattle(match_id=match_id, game=game, battle_id=played_id)
         for match_id, game, played_id in links.values_list("match_id", "game", "played_id")],
        batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_online_play'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='game',
            field=models.CharField(choices=tournaments.models.game_choices, default='battle', help_text='The kind of match its games are (battle, ...).', max_length=20),
        ),
        migrations.AddField(
            model_name='tournament',
            name='game_options',
            field=models.JSONField(blank=True, default=dict, help_text="Another game's options, passed to its seating (empty for battle: the fields below)."),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='battle',
            field=models.CharField(blank=True, choices=[('quatre-bras', 'Quatre Bras'), ('ligny', 'Ligny'), ('wavre', 'Wavre'), ('waterloo', 'Waterloo')], help_text='Empty for another game than battle.', max_length=12),
        ),
        migrations.CreateModel(
            name='MatchGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.PositiveSmallIntegerField(help_text='1, or 2 (two-game matches).')),
                ('kind', models.CharField(help_text="The played match's kind (play.registry).", max_length=20)),
                ('played_id', models.PositiveBigIntegerField(help_text="The played match's id in its kind.")),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='game_links', to='tournaments.match')),
            ],
            options={
                'ordering': ['match', 'game'],
                'constraints': [
                    models.UniqueConstraint(fields=('match', 'game'), name='one_played_match_per_game'),
                    models.UniqueConstraint(fields=('kind', 'played_id'), name='one_tournament_game_per_played_match'),
                ],
            },
        ),
        migrations.RunPython(battles_to_games, games_to_battles, elidable=True),
        migrations.DeleteModel(
            name='MatchBattle',
        ),
    ]
