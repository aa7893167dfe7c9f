"""Each match's card records stored once, content-addressed (issue 31, "Storage that scales
with play, not with the catalogue"): ``play.models.CardSet`` keyed by the records' digest,
every match pointing to one; the data migration (``play/migrating.py``) moves stored rows
there and back with every replay unchanged."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles import services as battle_services
from battles.models import Battle
from campaigns import services as campaign_services
from campaigns.models import Campaign
from play.live import messages
from play.models import CardSet, records_digest

# The migrations that move the records, and the ones before them.
MOVES = {"battles": ("0012_pass_choices", "0013_card_sets"),
         "campaigns": ("0008_pass_choices", "0009_card_sets"),
         "stratego": ("0003_last_setup", "0004_card_sets"),
         "toygame": ("0003_pass_choices", "0004_card_sets")}


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def play(services, kind: str, pk: int, users, moves: int, rng: random.Random) -> None:
    viewers = {"french": messages.Viewer(kind, pk, users[0], "french"),
               "allied": messages.Viewer(kind, pk, users[1], "allied")}
    model = Battle if kind == "battle" else Campaign
    for _ in range(moves):
        match = model.objects.get(pk=pk)
        if match.status != "active" or not match.to_move:
            return
        msg = messages.message(viewers[match.to_move], match.seq)
        services.act(pk, viewers[match.to_move].user, msg["seq"],
                     rng.choice(msg["legal_actions"]))


def test_store_writes_each_records_once_whatever_their_key_order(db):
    records = [{"number": 1, "name": "A", "battles": ["ligny"]}, {"number": 2, "name": "B"}]
    first = CardSet.store(records)
    again = CardSet.store([{"name": "A", "battles": ["ligny"], "number": 1},
                           {"name": "B", "number": 2}])
    assert first.digest == again.digest == records_digest(records)
    assert CardSet.objects.count() == 1
    assert CardSet.store([]) is None
    assert CardSet.store(records[:1]).digest != first.digest


def test_battles_with_the_same_records_point_to_one_card_set(catalogue, sent):
    alice, bob, carol = (User.objects.create_user(n, "", "pw") for n in ("alice", "bob", "carol"))
    one = battle_services.create_battle(alice, "quatre-bras", "french", opponent="open")
    battle_services.join_battle(one.pk, bob)
    two = battle_services.create_battle(carol, "quatre-bras", "allied", opponent="open")
    battle_services.join_battle(two.pk, alice)
    one, two = Battle.objects.get(pk=one.pk), Battle.objects.get(pk=two.pk)
    assert one.card_set_id == two.card_set_id is not None  # dealt from the same pool
    assert CardSet.objects.count() == 1
    assert {r["number"] for r in one.card_records} >= {n for d in one.decks.values() for n in d}
    with connection.cursor() as cursor:  # no copy of the records in a battle row
        cursor.execute("SELECT * FROM battles_battle WHERE id = %s", [one.pk])
        row = cursor.fetchone()
    assert max(len(str(v)) for v in row) < 30_000, max(len(str(v)) for v in row)


def _old_row(apps, app: str, model: str, pk: int):
    return apps.get_model(app, model).objects.get(pk=pk)


@pytest.mark.django_db(transaction=True)
def test_migrating_the_records_back_and_forth_keeps_every_replay(catalogue, sent):
    rng = random.Random(31)
    alice, bob, carol = (User.objects.create_user(n, "", "pw") for n in ("alice", "bob", "carol"))
    battles = []
    for french, allied, name in ((alice, bob, "quatre-bras"), (carol, alice, "quatre-bras"),
                                 (bob, carol, "ligny")):
        b = battle_services.create_battle(french, name, "french", opponent="open")
        battle_services.join_battle(b.pk, allied)
        play(battle_services, "battle", b.pk, (french, allied), 12, rng)
        battles.append(b.pk)
    c = campaign_services.create_campaign(alice, "french", opponent="open")
    campaign_services.join_campaign(c.pk, bob)
    play(campaign_services, "campaign", c.pk, (alice, bob), 12, rng)
    waiting = battle_services.create_battle(carol, "wavre", "allied", opponent="open").pk

    def replays() -> dict:
        got = {}
        for pk in battles:
            b = Battle.objects.get(pk=pk)
            state = battle_services.replay(b)
            from battles.engine import to_json
            assert to_json(state) == b.state
            got[("battle", pk)] = (b.card_set_id, digest(to_json(state)), b.seq)
        match = Campaign.objects.get(pk=c.pk)
        from battles.modules import CAMPAIGN
        doc = CAMPAIGN.to_json(campaign_services.replay(match))
        assert doc == match.state
        got[("campaign", c.pk)] = (match.card_set_id, digest(doc), match.seq)
        return got

    before = replays()
    records = {d: CardSet.objects.get(digest=d).records for d, _, _ in before.values()}
    assert len(records) == 3  # Quatre Bras twice (one set), Ligny, the campaign
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([(app, names[0]) for app, names in MOVES.items()])
        old = executor.loader.project_state(
            [("play", "0001_initial"), *((app, names[0]) for app, names in MOVES.items())]).apps
        for (kind, pk), (card_set, _, _) in before.items():
            app, model = ("battles", "Battle") if kind == "battle" else ("campaigns", "Campaign")
            row = _old_row(old, app, model, pk)
            assert records_digest(row.card_records) == card_set  # the records back in the row
            assert row.card_records == records[card_set]
        assert "card_set_id" not in {
            col.name for col in connection.introspection.get_table_description(
                connection.cursor(), "battles_battle")}
        # a battle stored before records were kept: none, and none after migrating
        old.get_model("battles", "Battle").objects.filter(pk=waiting).update(card_records=[])
        old.get_model("play", "CardSet").objects.all().delete()  # made again from the rows
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert replays() == before  # the same sets (digests), the same replayed positions
    assert CardSet.objects.count() == 3
    assert Battle.objects.get(pk=waiting).card_set_id is None
