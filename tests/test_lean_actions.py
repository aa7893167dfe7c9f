"""Lean action rows (issue 31, "Storage that scales with play": "keep an action row lean"):
every game's ``action`` and ``events`` stored packed (``play.fields.PackedJSONField``: compact
JSON deflated with a fixed dictionary) read back as the same values; the ``lean_actions``
migrations carry stored rows over and back with every replay unchanged; a row's two columns
take a fraction of the bytes they took as JSON."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from hypothesis import given, settings
from hypothesis import strategies as st

from battles import services as battle_services
from campaigns import services as campaign_services
from online.belle_alliance import services as belle_services
from online.stratego import services as stratego_services
from play import registry
from play.fields import DEFLATED_1, DICTIONARY_1, PLAIN, PackedJSONField, pack, unpack
from play.live import messages
from play.log import plain
from play.replays import replay_book

# The migrations that pack the action rows, and the ones before them.
LEAN = {"battles": ("0015_battle_shown", "0016_lean_actions"),
        "campaigns": ("0011_campaign_shown", "0012_lean_actions"),
        "stratego": ("0006_strategomatch_shown", "0007_lean_actions"),
        "belle_alliance": ("0004_bellealliancematch_shown", "0005_lean_actions"),
        "toygame": ("0005_race_shown", "0006_lean_actions")}
ACTION_TABLES = {"battles": "battleaction", "campaigns": "campaignaction",
                 "stratego": "strategoaction", "belle_alliance": "belleallianceaction",
                 "toygame": "raceaction"}
# kind -> (services, create(user) -> match, join)
GAMES = {
    "battle": (battle_services,
               lambda u: battle_services.create_battle(u, "quatre-bras", "french",
                                                       opponent="open"),
               battle_services.join_battle),
    "campaign": (campaign_services,
                 lambda u: campaign_services.create_campaign(u, "french", opponent="open"),
                 campaign_services.join_campaign),
    "stratego": (stratego_services,
                 lambda u: stratego_services.create_game(u, "french", opponent="open",
                                                         variant="standard"),
                 stratego_services.join_game),
    "belle_alliance": (belle_services,
                       lambda u: belle_services.create_game(u, "french", opponent="open"),
                       belle_services.join_game),
}


def digest(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def play_all(moves: int, seed: int = 31, kinds: tuple[str, ...] = tuple(GAMES)
             ) -> dict[str, int]:
    """One match of each game between two people, ``moves`` seeded random legal actions."""
    rng = random.Random(seed)
    made = {}
    for n, kind in enumerate(kinds):
        services, create, join = GAMES[kind]
        users = [User.objects.create_user(f"{kind}{n}_{i}", "", "pw") for i in range(2)]
        pk = create(users[0]).pk
        join(pk, users[1])
        viewers = {"french": messages.Viewer(kind, pk, users[0], "french"),
                   "allied": messages.Viewer(kind, pk, users[1], "allied")}
        model = registry.get(kind).model
        for _ in range(moves):
            match = model.objects.get(pk=pk)
            if match.status != "active" or not match.to_move:
                break
            msg = messages.message(viewers[match.to_move], match.seq)
            if not msg["legal_actions"]:
                break
            services.act(pk, viewers[match.to_move].user, msg["seq"],
                         rng.choice(msg["legal_actions"]))
        made[kind] = pk
    return made


def stored(made: dict[str, int]) -> dict:
    """Each match's action rows as read back, and its replay checked against them."""
    got = {}
    for kind, pk in made.items():
        k = registry.get(kind)
        match = k.model.objects.get(pk=pk)
        rows = list(match.actions.order_by("seq").values_list(
            "seq", "side", "action", "events", "auto", "auto_reason"))
        book = replay_book(k, match, lambda step, last: step == last)
        assert book.check.ok, (kind, book.check.detail)  # every recorded event replayed
        assert book.check.actions == len(rows) > 5
        position = plain(k.game.to_json(book.steps[-1].state))
        assert position == match.state  # the replay ends where the match stands
        got[kind] = (rows, digest(position))
    return got


VALUES = [
    [], {}, 0, "", None, True, [{"type": "pass", "side": "french"}],
    {"type": "move", "to": "allied_left", "card": 253, "side": "allied", "board": "ligny"},
    [{"type": "fire", "dice": [1, 6, 6], "hits": 2.5, "visibility": "all", "piece": 3}],
    {"é": "Quatre-Bras — ligne", "n": -1, "x": 1e-9, "nested": {"a": [None, False, {}]}},
    {1: "int keys become text", "t": (1, 2)}, {"2": 0, 1: 1},
    {"decks": {"ligny": list(range(1, 110)), "quatre-bras": list(range(200, 250))}},
    # deflating makes this no smaller
    (lambda rng: "".join(chr(0x4E00 + rng.randrange(20000)) for _ in range(30)))(
        random.Random(3)),
]


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_a_packed_value_reads_back_as_a_json_column_gives_it(value):
    assert unpack(pack(value)) == plain(value)
    assert type(unpack(pack(value))) is type(plain(value))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(), inner, max_size=6),
    max_leaves=30)


@given(JSON_VALUES)
@settings(max_examples=300, deadline=None)
def test_any_json_value_reads_back_as_a_json_column_gives_it(value):
    assert unpack(pack(value)) == plain(value)


def test_typical_rows_are_deflated_and_what_does_not_shrink_is_kept_as_text():
    event = [{"type": "deploy", "side": "allied", "to": "allied_center", "army": "british",
              "piece": 1, "visibility": "all"}]
    packed = pack(event)
    assert packed[0] == DEFLATED_1
    assert len(packed) < len(json.dumps(event, separators=(",", ":"))) / 3
    assert pack(VALUES[-1])[0] == PLAIN
    with pytest.raises(ValueError, match="unknown method 7"):
        unpack(b"\x07[]")


def test_dictionary_1_never_changes():
    """Stored rows are deflated against these exact bytes: a new dictionary is a new method."""
    assert hashlib.sha256(DICTIONARY_1).hexdigest() == (
        "1fbfe7aeabeb09dcea82d3671c72aea5c2d6cac1791d2e34d8f548ff7698e1e9")
    assert b"\n" not in DICTIONARY_1


def test_every_game_s_action_rows_are_packed():
    for k in registry.kinds():
        for name in ("action", "events"):
            assert isinstance(k.action_model._meta.get_field(name), PackedJSONField), (k, name)


def test_every_game_s_rows_read_back_and_replay_through_the_field(catalogue, sent):
    made = play_all(30)
    for kind, (rows, _) in stored(made).items():
        k = registry.get(kind)
        for _seq, _side, action, events, _auto, _why in rows:
            assert isinstance(action, dict) and isinstance(events, list)
            assert unpack(pack(action)) == action and unpack(pack(events)) == events
        # a viewer's log goes through the game's events_for as before
        match = k.model.objects.get(pk=made[kind])
        assert messages.message(messages.Viewer(kind, match.pk, None, None), 0)["seq"] == \
            match.seq


def _json_columns(app: str) -> dict[str, str]:
    table = f"{app}_{ACTION_TABLES[app]}"
    with connection.cursor() as cursor:
        return {c.name: c.type_code for c in
                connection.introspection.get_table_description(cursor, table)
                if c.name in ("action", "events")}


@pytest.mark.django_db(transaction=True)
def test_the_migration_both_ways_keeps_every_row_and_replay(catalogue, sent):
    made = play_all(24, seed=1815)
    before = stored(made)
    packed_types = {app: _json_columns(app) for app in LEAN}
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([(app, names[0]) for app, names in LEAN.items()])
        old = executor.loader.project_state(
            [(app, names[0]) for app, names in LEAN.items()]).apps
        for kind, pk in made.items():
            k = registry.get(kind)
            model = old.get_model(k.action_model._meta.app_label,
                                  k.action_model._meta.model_name)
            fk = k.match_field
            rows = list(model.objects.filter(**{f"{fk}_id": pk}).order_by("seq").values_list(
                "seq", "side", "action", "events", "auto", "auto_reason"))
            assert rows == before[kind][0]  # the same values, back in JSON columns
        for app in LEAN:
            assert _json_columns(app) != packed_types[app]  # JSON again, not bytes
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert stored(made) == before  # packed again: the same rows, the same replays
    assert {app: _json_columns(app) for app in LEAN} == packed_types


def test_an_action_row_s_json_takes_a_fraction_of_the_bytes(catalogue, sent):
    """The bytes of a Quatre Bras's ``action`` and ``events`` columns as stored: as JSON
    (``jsonb`` on PostgreSQL, text on SQLite) ~250 / ~190 per row; packed under 80."""
    pk = play_all(60, kinds=("battle",))["battle"]
    size = ("pg_column_size(action) + pg_column_size(events)"
            if connection.vendor == "postgresql" else "length(action) + length(events)")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*), sum({size}) FROM battles_battleaction "
                       "WHERE battle_id = %s", [pk])
        n, total = cursor.fetchone()
    assert n >= 15
    assert total / n < 80, total / n
