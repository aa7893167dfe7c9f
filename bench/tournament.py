"""A 1,024-player, 10-round Swiss on PostgreSQL with a real Celery worker.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/eagles REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/tournament.py [PLAYERS] [ROUNDS]

Uses its own database (``<name>_bench``, dropped and created afresh each run). The clock
(worker) pairs each round when the previous one completes; this
process feeds random results through ``record_result``. Printed per round: the worker's pairing
+ match creation time (measured inside the pairing transaction; target <= 5 s), the delay from
the last result's commit to the round being visible, and the time to enter 512 results.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bench_database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("bench/tournament.py needs PostgreSQL: set DATABASE_URL=postgres://...")
    base, _, name = url.rpartition("/")
    name = name.split("?")[0]
    bench = f"{base}/{name}_bench"
    import psycopg

    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        # A fresh database each run: earlier runs' tournaments protect their entries.
        conn.execute(f'DROP DATABASE IF EXISTS "{name}_bench" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}_bench"')
    return bench


def main(players: int = 1024, rounds: int = 10) -> None:
    os.environ["DATABASE_URL"] = bench_database_url()
    queue = f"bench-{uuid.uuid4().hex[:6]}"
    os.environ["EAGLES_TOURNAMENT_QUEUE"] = queue
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_catalogue", verbosity=0)

    from django.contrib.auth.models import User
    from django.utils import timezone

    from cards.models import CollectionEntry, Printing
    from decks.models import Deck, DeckVersion
    from tests.tournament_helpers import valid_entries
    from tournaments import services
    from tournaments.models import Entry, Match, Round, Tournament

    print(f"setting up {players} players ...", flush=True)
    org = User.objects.create_user(f"bench-org-{queue}")
    users = User.objects.bulk_create([User(username=f"bench-{k:05d}") for k in range(players)])
    stored = {}
    printings = {p.card.number: p for p in Printing.objects.select_related("card")
                 .filter(finish="bronze")}
    for army in ("french", "british"):
        entries = valid_entries(army, "quatre-bras")
        # Each player owns the deck's cards: the start re-checks every collection.
        CollectionEntry.objects.bulk_create([
            CollectionEntry(user=u, printing=printings[number], quantity=count)
            for u in users for number, count, _ in entries])
        decks = Deck.objects.bulk_create([
            Deck(owner=u, name=f"{army} {u.username}", battle="quatre-bras", army=army)
            for u in users])
        stored[army] = DeckVersion.objects.bulk_create([
            DeckVersion(deck=d, number=1, battle="quatre-bras", army=army, kind="custom",
                        scale="1", entries=[list(e) for e in entries], valid=True,
                        size=len(entries)) for d in decks])
    t = services.create_tournament(org, name=f"bench {players}", battle="quatre-bras",
                                   rounds=rounds, round_seconds=3600)
    Entry.objects.bulk_create([
        Entry(tournament=t, user=u, seed=k + 1, rating=random.randint(1000, 2000),
              french_version=stored["french"][k], british_version=stored["british"][k])
        for k, u in enumerate(users)])

    env = {**os.environ, "EAGLES_TOURNAMENT_QUEUE": queue}
    log = open(ROOT / "var" / "bench-worker.log", "w")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
         "--queues", queue, "--hostname", f"{queue}@localhost", "--loglevel", "WARNING",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    rng = random.Random(1815)
    try:
        services.update_tournament(t.pk, org, starts_at=timezone.now())  # the clock starts it
        print(f"{'round':>5} {'pairing+matches (worker)':>25} {'commit->visible':>16} "
              f"{'results in':>11} {'byes':>5}", flush=True)
        worst = 0.0
        committed = time.perf_counter()
        for number in range(1, rounds + 1):
            deadline = time.monotonic() + 120
            while not Round.objects.filter(tournament=t, number=number).exists():
                if time.monotonic() > deadline or worker.poll() is not None:
                    raise SystemExit(f"round {number} never appeared; see var/bench-worker.log")
                time.sleep(0.02)
            visible = time.perf_counter() - committed
            rnd = Round.objects.get(tournament=t, number=number)
            worst = max(worst, rnd.pairing_seconds)
            matches = list(Match.objects.filter(round=rnd, allied__isnull=False)
                           .values_list("pk", flat=True))
            started = time.perf_counter()
            for pk in matches:
                services.record_result(pk, {"result": rng.choice(["french", "allied", "french",
                                                                  "allied", "draw"])},
                                       source="online")
            committed = time.perf_counter()
            byes = Match.objects.filter(round=rnd, allied__isnull=True).count()
            print(f"{number:>5} {rnd.pairing_seconds:>24.2f}s {visible:>15.2f}s "
                  f"{committed - started:>10.2f}s {byes:>5}", flush=True)
        deadline = time.monotonic() + 60
        while Tournament.objects.get(pk=t.pk).status != "finished":
            if time.monotonic() > deadline:
                raise SystemExit("the tournament did not finish")
            time.sleep(0.05)
        print(f"finished; worst pairing + match creation: {worst:.2f} s (target <= 5 s)")
    finally:
        worker.terminate()
        worker.wait(timeout=20)
        log.close()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", type=int, nargs="?", default=1024)
    parser.add_argument("rounds", type=int, nargs="?", default=10)
    args = parser.parse_args()
    main(args.players, args.rounds)
