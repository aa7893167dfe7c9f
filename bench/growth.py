"""How the pages cost as the database grows (issue 31, "Pages that do not grow with the
database"): each page's server time and query count with a few rows and with many.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/eagles_scale \\
    .venv/bin/python bench/growth.py [--quick] [--battles 10 10000] [--players 64 4096]

PostgreSQL only. Uses its own database, ``<name>_growth`` (dropped and made afresh each run),
migrated, with the catalogue loaded. Then:

- **Battles**: one user's battle made through the services (``create_battle``,
  ``join_battle``, ``resign``: a finished battle between two people), copied inside the
  database (``INSERT ... SELECT``: the same row, each copy a minute older) until the user
  has each number of ``--battles``; after each, ``GET /api/battles/`` and ``/battles/``.
- **Replays** (``--only replays``): a finished battle between two people played through the
  services (``act``, seeded random legal actions, ``--replay-actions`` at most, then
  resigned), its replay page at its first, middle and last step (the first request of the
  run replays the whole battle; the median is of the later ones). ``--replay-seed`` fixes
  both the random actions and the battle's own seed, so one seed is one battle in every tree
  compared (41: a 706-action Waterloo, on catalogue 1.2.0 and 1.3.0 alike).
- **Tournaments**: a dealt Swiss (``create_tournament``) with each number of ``--players``
  (entries written in bulk, as ``bench/tournament.py`` does), started (``start_tournament``:
  round 1 paired), every result entered through ``record_result`` (timed: ms per result),
  then the pairings page, the standings page and ``GET /api/tournaments/<id>/standings/``.

Each figure: the median of ``--runs`` requests through Django's test client in this process
(the view, its queries and the template; no network): wall ms, CPU ms, queries, KB.
``--quick``: 10 / 1,000 battles and 64 / 512 players. ``--profile N``: after each figure,
the page's ``--runs`` requests again under cProfile timing CPU, and its N entries of most
cumulative CPU (ms per request; the profiler's own cost inflates them several times, so
read them as shares) and each query's SQL head with its wall ms. Runs on an older checkout too (copy
this file into it) for a before/after on the same machine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")
# the test client's session is signed: a throwaway key for this process (DEBUG stays off)
os.environ.setdefault("SECRET_KEY", os.urandom(32).hex())


def fresh_database() -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("bench/growth.py needs PostgreSQL: set DATABASE_URL=postgres://...")
    base, _, name = url.rpartition("/")
    name = name.split("?")[0] + "_growth"
    import psycopg

    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = f"{base}/{name}"


def profile(client, url: str, runs: int, top: int) -> str:
    """cProfile (CPU time) of ``runs`` more requests: the ``top`` entries by cumulative time,
    per request, and the queries of one request with their wall ms."""
    import cProfile
    import io
    import pstats

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as seen:
        client.get(url, secure=True)
    prof = cProfile.Profile(time.process_time)
    prof.enable()
    for _ in range(runs):
        client.get(url, secure=True)
    prof.disable()
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out)
    total = 1000 * stats.total_tt / runs  # type: ignore[attr-defined]
    lines = [f"   profile of {url}: {total:.1f} ms CPU per request under the profiler"]
    entries = sorted(stats.stats.items(), key=lambda kv: -kv[1][3])  # type: ignore[attr-defined]
    # the request's chain of wrappers (middleware, the view's decorators) holds nearly all of
    # it: the parts are the entries under 60 %
    parts = [e for e in entries if e[1][3] < 0.6 * stats.total_tt][:top]  # type: ignore
    for (path, line, name), (_cc, calls, tt, ct, _callers) in parts:
        where = f"{Path(path).parent.name}/{Path(path).name}:{line}({name})"
        lines.append(f"   {1000 * ct / runs:8.2f} ms cum {1000 * tt / runs:7.2f} ms own "
                     f"{calls / runs:7.1f}x  {where}  {100 * ct / stats.total_tt:4.1f} %")
    for q in seen.captured_queries:
        lines.append(f"   query {1000 * float(q['time']):6.2f} ms  {q['sql'][:110]}")
    return "\n".join(lines)


def measure(client, url: str, runs: int) -> str:
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    walls, cpus, sizes, counts = [], [], [], []
    for _ in range(runs):
        reset_queries()
        with CaptureQueriesContext(connection) as seen:
            w0, c0 = time.perf_counter(), time.process_time()
            response = client.get(url, secure=True)  # the site redirects http
            c1, w1 = time.process_time(), time.perf_counter()
        if response.status_code != 200:
            return f"{url}: HTTP {response.status_code}"
        walls.append(1000 * (w1 - w0))
        cpus.append(1000 * (c1 - c0))
        sizes.append(len(response.content))
        counts.append(len(seen.captured_queries))
    return (f"{url:<44} {statistics.median(walls):8.1f} ms {statistics.median(cpus):8.1f} ms "
            f"CPU {max(counts):5d} queries {statistics.median(sizes) / 1024:8.1f} KB")


def copy_rows(table: str, pk: int, n: int) -> None:
    """``n`` copies of row ``pk`` of ``table`` inside the database, each a minute older."""
    from django.db import connection

    with connection.cursor() as cursor:
        cols = [c.name for c in connection.introspection.get_table_description(cursor, table)
                if c.name not in ("id", "created_at")]
        names = ", ".join(f'"{c}"' for c in cols)
        cursor.execute(
            f'INSERT INTO "{table}" ({names}, "created_at") SELECT {names}, '
            f"created_at - (g * interval '1 minute') FROM \"{table}\", "
            f"generate_series(1, %s) g WHERE id = %s", [n, pk])
        cursor.execute(f'ANALYZE "{table}"')


PROFILE = 0  # --profile N: the top N entries of each page's profile (0: none)


def battles(counts: list[int], runs: int) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    from battles import services
    from battles.models import Battle

    alice = User.objects.create_user("growth-alice")
    bob = User.objects.create_user("growth-bob")
    b = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(b.pk, bob)
    services.resign(b.pk, alice)
    client = Client()
    client.force_login(alice)
    have = 1
    for n in counts:
        copy_rows(Battle._meta.db_table, b.pk, n - have)
        have = n
        print(f"-- {Battle.objects.filter(french_player=alice).count()} battles of one user")
        for url in ("/api/battles/", "/battles/"):
            print(measure(client, url, runs), flush=True)
            if PROFILE:
                print(profile(client, url, runs, PROFILE), flush=True)


def replay(actions: int, runs: int, seed: int = 1815) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    from battles import services
    from battles.models import Battle
    from play.live import messages

    alice = User.objects.create_user("replay-alice")
    bob = User.objects.create_user("replay-bob")
    # The battle's own seed (its dice, its dealt armies) fixed too, so that one --replay-seed
    # is one battle in every tree compared.
    with mock.patch("battles.services.new_seed", return_value=seed):
        b = services.create_battle(alice, "waterloo", "french", opponent="open")
    services.join_battle(b.pk, bob)
    viewers = {"french": messages.Viewer("battle", b.pk, alice, "french"),
               "allied": messages.Viewer("battle", b.pk, bob, "allied")}
    rng = random.Random(seed)
    for _ in range(actions):
        match = Battle.objects.get(pk=b.pk)
        if match.status != "active" or not match.to_move:
            break
        msg = messages.message(viewers[match.to_move], match.seq)
        services.act(b.pk, viewers[match.to_move].user, msg["seq"],
                     rng.choice(msg["legal_actions"]))
    if Battle.objects.get(pk=b.pk).status == "active":
        services.resign(b.pk, alice)
    last = Battle.objects.get(pk=b.pk).seq
    print(f"-- a finished Waterloo of {last} actions: its replay page")
    client = Client()
    client.force_login(alice)
    for step in (1, last // 2, last):
        print(measure(client, f"/battles/{b.pk}/replay/?step={step}", runs), flush=True)


def tournaments(counts: list[int], runs: int) -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    from tournaments import services
    from tournaments.models import Entry, Match

    rng = random.Random(1815)
    org = User.objects.create_user("growth-org")
    for n in counts:
        users = User.objects.bulk_create([User(username=f"growth-{n}-{k:05d}")
                                          for k in range(n)])
        t = services.create_tournament(org, name=f"growth {n}", battle="quatre-bras",
                                       deck_kind="dealt", deal_pool="set", rounds=3,
                                       round_seconds=3600)
        Entry.objects.bulk_create([Entry(tournament=t, user=u, seed=k + 1,
                                         rating=rng.randint(1000, 2000))
                                   for k, u in enumerate(users)])
        services.start_tournament(t.pk, org)
        matches = list(Match.objects.filter(tournament=t, round__number=1,
                                            allied__isnull=False).values_list("pk", flat=True))
        # all but the last result: the last completes the round (pairing the next one)
        w0, c0 = time.perf_counter(), time.process_time()
        for pk in matches[:-1]:
            services.record_result(pk, {"result": rng.choice(["french", "allied", "draw"])},
                                   source="online")
        c1, w1 = time.process_time(), time.perf_counter()
        services.record_result(matches[-1], {"result": "french"}, source="online")
        each = max(1, len(matches) - 1)
        print(f"-- a {n}-player Swiss, round 1 played: record_result "
              f"{1000 * (w1 - w0) / each:.1f} ms per result ({1000 * (c1 - c0) / each:.1f} ms "
              f"CPU), {len(matches)} matches")
        client = Client()
        client.force_login(users[0])
        for url in (f"/tournaments/{t.pk}/pairings/1/", f"/tournaments/{t.pk}/standings/",
                    f"/api/tournaments/{t.pk}/standings/"):
            print(measure(client, url, runs), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="10 / 1,000 battles and 64 / 512 players")
    parser.add_argument("--battles", type=int, nargs="+", default=None)
    parser.add_argument("--players", type=int, nargs="+", default=None)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", choices=("battles", "replays", "tournaments"), default=None)
    parser.add_argument("--replay-actions", type=int, default=800)
    parser.add_argument("--replay-seed", type=int, default=1815,
                        help="the random legal actions' seed (another seed, another length)")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="after each battles-list figure, its N most costly profile "
                             "entries (CPU) and its queries")
    args = parser.parse_args(argv)
    global PROFILE
    PROFILE = args.profile
    battle_counts = args.battles or ([10, 1000] if args.quick else [10, 10_000])
    player_counts = args.players or ([64, 512] if args.quick else [64, 4096])

    fresh_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_catalogue", verbosity=0)
    print(f"{'page':<44} {'wall':>11} {'CPU':>15} {'':>13} {'size':>11}")
    if args.only in (None, "battles"):
        battles(sorted(battle_counts), args.runs)
    if args.only in (None, "replays"):
        replay(args.replay_actions, args.runs, args.replay_seed)
    if args.only in (None, "tournaments"):
        tournaments(sorted(player_counts), args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
