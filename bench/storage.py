"""Bytes stored per finished match (issue 31, "Storage that scales with play, not with the
catalogue").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/eagles_scale \\
    .venv/bin/python bench/storage.py [--actions 800] [--campaign-actions 400]

PostgreSQL only (it reads ``pg_column_size``). In the database of DATABASE_URL (migrated; the
catalogue is loaded if it is empty) it plays, through the services (``create_*``, ``join_*``,
``act``, ``resign``), one Waterloo between two scripted users (seeded random legal actions;
resigned after ``--actions`` if the board has not ended it) and one campaign (their dice seeds
and moves both drawn from ``--seed``: every run plays the same games), then prints for
each: the match row, its action rows (count, bytes each: the ``action`` and ``events``
columns and the rest of the row), and the catalogue snapshot it plays
with, either inside the row (the ``card_records`` column, before issue 31) or as a shared
content-addressed row (``play_cardset``: stored once for every match with the same records,
so its bytes are not the match's own). The bytes are ``pg_column_size`` of the rows (the
JSON as stored, compressed by TOAST where it is large). The matches and users it made are
deleted afterwards. ``--measure battle:2 campaign:5`` measures stored matches only (the
same rows before and after a migration, e.g. the lean action rows'). Runs on an older
checkout too (the before figure):

    git -C /work/main archive main | tar -x -C /tmp/before && cp bench/storage.py /tmp/before/bench/
    (cd /tmp/before && DATABASE_URL=... python bench/storage.py)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def _one(sql: str, params: list) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.fetchone()[0] or 0)


def _columns(table: str) -> set[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        return {c.name for c in connection.introspection.get_table_description(cursor, table)}


def measure(kind: str, pk: int) -> dict[str, float]:
    """The bytes of match ``pk`` of ``kind``: its row, its actions and its card records."""
    from play import registry

    k = registry.get(kind)
    table = k.model._meta.db_table
    actions = k.action_model._meta.db_table
    fk = k.action_model._meta.get_field(k.match_field).column
    row = _one(f"SELECT pg_column_size(t.*) FROM {table} t WHERE id = %s", [pk])
    n = _one(f"SELECT count(*) FROM {actions} WHERE {fk} = %s", [pk])
    action_bytes = _one(f"SELECT sum(pg_column_size(a.*)) FROM {actions} a WHERE {fk} = %s",
                        [pk])
    # the two JSON columns of the action rows (jsonb before the lean rows, packed bytes after)
    action_json = _one(f"SELECT sum(pg_column_size(action)) FROM {actions} WHERE {fk} = %s",
                       [pk])
    events_json = _one(f"SELECT sum(pg_column_size(events)) FROM {actions} WHERE {fk} = %s",
                       [pk])
    inline = inline_text = shared = 0
    if "card_records" in _columns(table):  # before issue 31: a copy in every row
        inline, inline_text = (
            _one(f"SELECT pg_column_size(card_records) FROM {table} WHERE id = %s", [pk]),
            _one(f"SELECT octet_length(card_records::text) FROM {table} WHERE id = %s", [pk]))
    if "card_set_id" in _columns(table):
        shared = _one(f"SELECT pg_column_size(c.*) FROM play_cardset c JOIN {table} t "
                      f"ON t.card_set_id = c.digest WHERE t.id = %s", [pk])
    return {"row": row, "actions": n, "action_bytes": action_bytes, "inline": inline,
            "inline_text": inline_text, "shared": shared, "action_json": action_json,
            "events_json": events_json}


def report(label: str, m: dict[str, float]) -> None:
    own = m["row"] + m["action_bytes"]
    each = m["action_bytes"] / max(1, m["actions"])
    print(f"{label}: {own / 1024:.1f} KB of its own = row {m['row'] / 1024:.1f} KB "
          f"(card records in it: {m['inline'] / 1024:.1f} KB, "
          f"{m['inline_text'] / 1024:.1f} KB as JSON text) + {m['actions']} actions "
          f"{m['action_bytes'] / 1024:.1f} KB ({each:.0f} B each); "
          f"shared card set {m['shared'] / 1024:.1f} KB (stored once)")
    n = max(1, m["actions"])
    action, events = m["action_json"] / n, m["events_json"] / n
    print(f"  an action row: {each:.0f} B = action {action:.0f} B + events {events:.0f} B + "
          f"the rest {each - action - events:.0f} B (header, id, match, seq, side, auto, "
          f"created_at)")


def play(services, Model, pk: int, users, rng: random.Random, limit: int) -> None:  # noqa: N803
    from play.live import messages

    kind = Model.__name__.lower() if Model.__name__ != "Battle" else "battle"
    viewers = {"french": messages.Viewer(kind, pk, users[0], "french"),
               "allied": messages.Viewer(kind, pk, users[1], "allied")}
    for _ in range(limit):
        match = Model.objects.get(pk=pk)
        if match.status != "active" or not match.to_move:
            return
        msg = messages.message(viewers[match.to_move], match.seq)
        if not msg["legal_actions"]:
            return
        services.act(pk, viewers[match.to_move].user, msg["seq"],
                     rng.choice(msg["legal_actions"]))
    match = Model.objects.get(pk=pk)
    if match.status == "active":
        services.resign(pk, users[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=800,
                        help="the Waterloo is resigned after this many if not over")
    parser.add_argument("--campaign-actions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1815)
    parser.add_argument("--measure", nargs="+", default=[], metavar="KIND:ID",
                        help="only measure these stored matches (e.g. battle:2 campaign:2), "
                             "playing and deleting nothing: the same rows before and after "
                             "a migration")
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection

    from battles import services as battle_services
    from battles.models import Battle
    from campaigns import services as campaign_services
    from campaigns.models import Campaign
    from cards.models import Card

    if connection.vendor != "postgresql":
        print("bench/storage.py measures PostgreSQL's storage: set DATABASE_URL")
        return 2
    if args.measure:
        for spec in args.measure:
            kind, pk = spec.split(":")
            report(f"{kind} {pk}", measure(kind, int(pk)))
        return 0
    if not Card.objects.exists():
        call_command("load_catalogue", verbosity=0)
    rng = random.Random(args.seed)
    # the matches' own seeds from --seed too, so that every run (and every tree) plays the
    # same games: the same rows before and after a change of how they are stored
    seeds = random.Random(args.seed)
    battle_services.new_seed = campaign_services.new_seed = (  # type: ignore[attr-defined]
        lambda: seeds.randrange(1, 2**62))
    users = [User.objects.create(username=f"storage{os.getpid()}_{i}") for i in range(2)]
    made: list[tuple[type, int]] = []
    try:
        b = battle_services.create_battle(users[0], "waterloo", "french", opponent="open")
        battle_services.join_battle(b.pk, users[1])
        made.append((Battle, b.pk))
        play(battle_services, Battle, b.pk, users, rng, args.actions)
        c = campaign_services.create_campaign(users[0], "french", opponent="open")
        campaign_services.join_campaign(c.pk, users[1])
        made.append((Campaign, c.pk))
        play(campaign_services, Campaign, c.pk, users, rng, args.campaign_actions)
        report("Waterloo", measure("battle", b.pk))
        report("campaign", measure("campaign", c.pk))
    finally:
        for model, pk in made:
            model.objects.filter(pk=pk).delete()
        User.objects.filter(pk__in=[u.pk for u in users]).delete()
    return 0


if __name__ == "__main__":
    sys.exit(main())
