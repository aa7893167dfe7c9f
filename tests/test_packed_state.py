"""A match's position stored packed (issue 31, PostgreSQL's CPU per action): every game's
``state`` is a ``play.fields.PackedStateField`` (compact JSON deflated, bytes in the row: no
``jsonb`` for PostgreSQL to parse, compress and print on every action), read back as the
same values; the ``packed_state`` migrations carry stored rows over and back with every value
and replay unchanged; the action's locking read finds its columns' converters once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.models.sql.compiler import SQLCompiler

from battles import kind as battle_kind
from battles import services as battle_services
from campaigns import services as campaign_services
from campaigns.models import Campaign
from notifications.campaign_listeners import campaign_your_move
from play import registry
from play.fields import PLAIN, PackedStateField, unpack
from play.live import messages

from .test_lean_actions import play_all, stored

# The migrations that pack the state, and the ones before them.
PACKED = {"battles": ("0017_list_page_indexes", "0018_packed_state"),
          "campaigns": ("0013_list_page_indexes", "0014_packed_state"),
          "stratego": ("0008_list_page_indexes", "0009_packed_state"),
          "belle_alliance": ("0006_list_page_indexes", "0007_packed_state"),
          "toygame": ("0006_lean_actions", "0007_packed_state")}
TABLES = {"battles": "battles_battle", "campaigns": "campaigns_campaign",
          "stratego": "stratego_strategomatch",
          "belle_alliance": "belle_alliance_bellealliancematch",
          "toygame": "toygame_race"}


def _raw_states(kind: str, pk: int) -> bytes:
    table = registry.get(kind).model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT state FROM {table} WHERE id = %s", [pk])
        return bytes(cursor.fetchone()[0])


def _state_types() -> dict[str, str]:
    out = {}
    with connection.cursor() as cursor:
        for app, table in TABLES.items():
            out[app] = next(c.type_code for c in
                            connection.introspection.get_table_description(cursor, table)
                            if c.name == "state")
    return out


def test_every_game_s_state_is_packed():
    for k in registry.kinds():
        assert isinstance(k.model._meta.get_field("state"), PackedStateField), k.kind


def test_every_game_s_state_reads_back_and_takes_a_fraction_of_the_bytes(catalogue, sent):
    made = play_all(30)
    stored(made)  # each replay ends where the match's state stands
    for kind, pk in made.items():
        match = registry.get(kind).model.objects.get(pk=pk)
        raw = _raw_states(kind, pk)
        assert unpack(raw) == match.state
        if kind == "battle":  # a Quatre Bras's 3 KB of JSON (1.2 KB as jsonb)
            assert len(raw) < 1000, len(raw)


@pytest.mark.django_db(transaction=True)
def test_the_migration_both_ways_keeps_every_state_and_replay(catalogue, sent):
    made = play_all(24, seed=1815)
    before = stored(made)
    states = {kind: registry.get(kind).model.objects.get(pk=pk).state
              for kind, pk in made.items()}
    packed_types = _state_types()
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([(app, names[0]) for app, names in PACKED.items()])
        old = executor.loader.project_state(
            [(app, names[0]) for app, names in PACKED.items()]).apps
        for kind, pk in made.items():
            meta = registry.get(kind).model._meta
            model = old.get_model(meta.app_label, meta.model_name)
            assert model.objects.get(pk=pk).state == states[kind]  # JSON again, same value
        assert all(_state_types()[app] != packed_types[app] for app in PACKED)
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
        if connection.vendor == "postgresql":  # converted in SQL: kept as JSON text
            assert all(_raw_states(kind, pk)[0] == PLAIN for kind, pk in made.items())
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert _state_types() == packed_types
    for kind, pk in made.items():
        assert registry.get(kind).model.objects.get(pk=pk).state == states[kind]
    assert stored(made) == before
    # play goes on from a converted row (PostgreSQL: its next write deflates it)
    pk = made["battle"]
    battle = registry.get("battle").model.objects.get(pk=pk)
    if battle.status == "active" and battle.to_move:
        viewer = messages.Viewer("battle", pk, battle.player(battle.to_move), battle.to_move)
        msg = messages.message(viewer, battle.seq)
        battle_services.act(pk, viewer.user, msg["seq"], msg["legal_actions"][0])
        assert _raw_states("battle", pk)[0] != PLAIN
        assert stored({"battle": pk})


def test_a_campaign_decision_s_step_is_read_from_the_packed_state(catalogue, sent):
    users = [User.objects.create_user(f"cstep{i}", "", "pw") for i in range(2)]
    c = campaign_services.create_campaign(users[0], "french", opponent="open")
    campaign_services.join_campaign(c.pk, users[1])
    c = Campaign.objects.get(pk=c.pk)
    assert not c.board and c.state.get("step")  # a decision, named by its step
    with_snapshot = campaign_your_move(c, snapshot=True)
    read = campaign_your_move(c, snapshot=False)
    assert with_snapshot is not None and read is not None
    assert read.text == with_snapshot.text


def test_the_locking_read_finds_its_converters_once(catalogue, sent, monkeypatch):
    pk = play_all(2, kinds=("battle",))["battle"]
    calls = []
    original = SQLCompiler.get_converters

    def counted(self, expressions):
        calls.append(len(expressions))
        return original(self, expressions)

    with transaction.atomic():
        battle_kind._LOCKED.first(pk)  # compiled on this connection (if not already)
        monkeypatch.setattr(SQLCompiler, "get_converters", counted)
        again = battle_kind._LOCKED.first(pk)
        monkeypatch.undo()
    assert calls == []
    assert again.pk == pk and again.state == registry.get("battle").model.objects.get(
        pk=pk).state
