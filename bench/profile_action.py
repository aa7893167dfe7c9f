"""Where the server's time goes for one action between two people (issue 12, "Figures").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/eagles_latency \\
    .venv/bin/python bench/profile_action.py [--kind battle|campaign] [--battles 5] \\
        [--moves 30] [--profile] [--top 30] [--queries]

In one process, with the database of DATABASE_URL (migrated, catalogue loaded), it sets up
``--battles`` Quatre Bras battles (``--kind campaign``: campaigns) between two scripted
users and plays ``--moves`` random legal actions in each, doing per action what the server
does: ``services.act`` (commit, the ``match_changed`` listeners: notifications, and
``play.live.notify``, which builds each viewer class's message of the change once, both
players' and the spectators', and sends each to its class's group): that is the server's
whole CPU for an action. ``--per-socket`` also builds every viewer's message as each socket
did before the messages were built once (for a before/after in the same run). Before 376f2e4
a spectator's consumer built its own message: the bench of those commits adds it as a second
figure, to be added to the first. Prints the CPU milliseconds per action; ``--queries`` the
statements and, on PostgreSQL, the round trips per action (BEGIN and COMMIT included:
``play.roundtrips``, libpq's trace, which costs CPU of its own: compare CPU figures without
it); ``--profile`` adds cProfile's top functions by cumulative time (``SORT=tottime`` for
own time). The battles and users it made are deleted afterwards.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=("battle", "campaign"), default="battle")
    parser.add_argument("--battles", type=int, default=5, help="matches played side by side")
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--queries", action="store_true",
                        help="list the SQL statements of the first action of each kind of")
    parser.add_argument("--per-socket", action="store_true",
                        help="build every viewer's message per socket (the old path)")
    parser.add_argument("--rated", action="store_true",
                        help="every other match rated (battles: its end is counted apart)")
    parser.add_argument("--tournament", action="store_true",
                        help="also resign a rated battle and an online tournament's game: the "
                             "CPU and round trips of those ending actions")
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.db import connection

    from play import registry
    from play.live import messages
    from play.roundtrips import RoundTrips

    if args.kind == "battle":
        from battles import services
    else:
        from campaigns import services
    Battle = registry.get(args.kind).model  # noqa: N806 (the kind's match model)

    users = [User.objects.create(username=f"prof{os.getpid()}_{i}")
             for i in range(2 * args.battles)]
    battles = []
    for i in range(args.battles):
        if args.kind == "campaign":
            c = services.create_campaign(users[2 * i], "french", opponent="open",
                                         settings={"turn_cap": 2},
                                         rated=args.rated and i % 2 == 1)
            services.join_campaign(c.pk, users[2 * i + 1])
            battles.append(c.pk)
            continue
        b = services.create_battle(users[2 * i], "quatre-bras", "french", opponent="open",
                                   settings={"turn_cap": 2}, rated=args.rated and i % 2 == 1)
        services.join_battle(b.pk, users[2 * i + 1])
        battles.append(b.pk)
    kind = args.kind
    viewers = {pk: [messages.Viewer(kind, pk, users[2 * i], "french"),
                    messages.Viewer(kind, pk, users[2 * i + 1], "allied"),
                    messages.Viewer(kind, pk, None, None)] for i, pk in enumerate(battles)}
    for vs in viewers.values():  # each socket has had its hello
        for v in vs:
            messages.message(v, 0)
    # A server that has sent a task before (a computer's move, a flag fall) has Celery's
    # producer, result backend and broker connection set up: so has the bench before timing
    # (the first send of a process imports and connects: ~70 ms once, not per action).
    from celery import current_app

    current_app.backend  # noqa: B018 (set up once, as by a server's first send)
    with current_app.producer_or_acquire() as producer:
        producer.connection.ensure_connection(max_retries=1)
    rng = random.Random(1815)
    timings = {"act": 0.0, "messages": 0.0}
    actions = 0
    # CPU ms of each ending action, apart from the rest (issue 31: the end ran the ratings,
    # the tournament's result and the end notices in the web process)
    ending_cpu: dict[str, list[float]] = {}
    rated_ids = set(Battle.objects.filter(pk__in=battles, rated=True).values_list("pk",
                                                                                 flat=True))
    statements: list[str] = []  # every SQL statement run by the timed part
    # round trips per action, BEGIN and COMMIT included (PostgreSQL only: libpq's trace)
    trips: list[int] = []
    by_path: dict[str, list[int]] = {}  # what the action did -> its round trips
    from notifications.models import Notification
    tracing = RoundTrips.supported()
    import contextlib

    def counted(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        statements.append(sql)
        return execute(sql, params, many, context)

    shown = 0
    prof = cProfile.Profile() if args.profile else None
    try:
        for _ in range(args.moves):
            for pk in battles:
                battle = Battle.objects.get(pk=pk)
                if battle.status != "active":
                    continue
                side = battle.to_move
                mover = next(v for v in viewers[pk] if v.side == side)
                msg = messages.message(mover, battle.seq)
                if not msg["legal_actions"]:
                    continue
                action = rng.choice(msg["legal_actions"])
                if prof:
                    prof.enable()
                before = len(statements)
                if args.queries:  # (outside the timed part) what the action will have done
                    notes = Notification.objects.count()
                    autos = battle.actions.filter(auto=True).count()
                t0 = time.process_time()
                trace = RoundTrips() if tracing and args.queries else contextlib.nullcontext()
                with trace, connection.execute_wrapper(counted):
                    services.act(pk, mover.user, msg["seq"], action)
                t1 = time.process_time()
                status = Battle.objects.filter(pk=pk).values_list("status", flat=True)[0]
                if status != "active":
                    label = "the match's end" + (", rated" if pk in rated_ids else "")
                    ending_cpu.setdefault(label, []).append(1000 * (t1 - t0))
                if isinstance(trace, RoundTrips):
                    trips.append(trace.count)
                    after = Battle.objects.get(pk=pk)
                    path = (("the match's end" + (", rated" if pk in rated_ids else ""))
                            if after.status != "active"
                            else "a hand-off (a your-move notice)"
                            if Notification.objects.count() > notes
                            else "an auto-pass after it (a preference read)"
                            if after.actions.filter(auto=True).count() > autos
                            else "a plain move")
                    by_path.setdefault(path, []).append(trace.count)
                if args.queries and shown < 2:  # the first actions' statements, in order
                    shown += 1
                    print(f"action {actions + 1}: {len(statements) - before} statements")
                    for sql in statements[before:]:
                        print("   ", sql[:150])
                    if isinstance(trace, RoundTrips):
                        print(f"  {trace.count} round trips:")
                        for what in trace.messages:
                            print("   ", what[:150])
                if args.per_socket:
                    for v in viewers[pk]:
                        messages.message(v, msg["seq"])
                t2 = time.process_time()
                if prof:
                    prof.disable()
                timings["act"] += t1 - t0
                timings["messages"] += t2 - t1
                actions += 1
        n = max(1, actions)
        line = (f"{actions} actions: act + commit + listeners (every class's message) "
                f"{1000 * timings['act'] / n:.2f} ms CPU per action, "
                f"{len(statements) / n:.2f} database statements per action")
        if trips:
            line += (f", {sum(trips) / len(trips):.2f} round trips per action (BEGIN and "
                     f"COMMIT included; max {max(trips)})")
        if args.per_socket:
            line += (f"; 3 viewers' messages again, per socket, "
                     f"{1000 * timings['messages'] / n:.2f} ms")
        print(line)
        ended = sum(len(v) for v in ending_cpu.values())
        if ended:
            rest = 1000 * timings["act"] - sum(sum(v) for v in ending_cpu.values())
            print(f"  CPU per action: {rest / max(1, actions - ended):.2f} ms for the "
                  f"{actions - ended} actions that did not end their match; " + "; ".join(
                      f"{sum(v) / len(v):.2f} ms for {len(v)} ending actions ({label})"
                      for label, v in sorted(ending_cpu.items())))
        if args.tournament:
            _resignations(users[0].username)
        if args.queries:  # every statement of the timed part, by kind, most frequent first
            import collections

            for count, times in sorted(collections.Counter(trips).items()):
                print(f"{times:5d} actions in {count} round trips")
            for path, counts in sorted(by_path.items()):
                print(f"{len(counts):5d} actions, {path}: {min(counts)}-{max(counts)} round "
                      f"trips, {sum(counts) / len(counts):.2f} on average")
            for sql, count in collections.Counter(
                    " ".join(q.split()[:6])[:110] for q in statements).most_common():
                print(f"{count / n:7.2f} per action  {sql}")
        if prof:
            order = os.environ.get("SORT", "cumulative")  # or tottime
            pstats.Stats(prof).sort_stats(order).print_stats(args.top)
    finally:
        Battle.objects.filter(pk__in=battles).delete()
        User.objects.filter(pk__in=[u.pk for u in users]).delete()
    return 0


def _resignations(prefix: str) -> None:
    """The ending action off the board: a resignation in a rated battle and in an online
    tournament's game (two players with decks, the tournament started: its one match's
    battle), CPU ms and, on PostgreSQL, round trips. What it made is deleted."""
    from django.contrib.auth.models import User

    from battles import services
    from battles.models import Battle
    from decks.models import Deck
    from play.roundtrips import RoundTrips
    from tests import tournament_helpers as helpers
    from tournaments import services as tournament_services
    from tournaments.models import Entry, Match, MatchGame, Tournament

    made: list[int] = []
    try:
        a, b = (User.objects.create(username=f"{prefix}_r{i}") for i in range(2))
        made += [a.pk, b.pk]
        rated = services.create_battle(a, "quatre-bras", "french", opponent="open", rated=True)
        services.join_battle(rated.pk, b)
        org = User.objects.create(username=f"{prefix}_org")
        made.append(org.pk)
        t = helpers.tournament(org, name=f"bench {prefix}", online=True,
                               time_control={"kind": "live", "base": 600, "increment": 5})
        for k in range(2):
            user, versions = helpers.player(f"{prefix}_t{k}")
            made.append(user.pk)
            helpers.register(t, user, versions)
        tournament_services.start_tournament(t.pk)
        m = Match.objects.get(round__tournament=t, allied__isnull=False)
        game = Battle.objects.get(pk=MatchGame.objects.get(match=m).played_id)
        for label, battle in (("a rated battle", rated), ("a tournament's game", game)):
            loser = User.objects.get(pk=battle.french_player_id)
            trace = RoundTrips() if RoundTrips.supported() else None
            t0 = time.process_time()
            if trace is not None:
                with trace:
                    services.resign(battle.pk, loser)
            else:
                services.resign(battle.pk, loser)
            cpu = 1000 * (time.process_time() - t0)
            trips = f", {trace.count} round trips" if trace is not None else ""
            print(f"  a resignation in {label}: {cpu:.2f} ms CPU{trips}")
            if trace is not None:
                for what in trace.messages:
                    print("     ", what[:110])
    finally:  # (protected keys: the matches, then the entries, the tournament, the decks)
        for t in Tournament.objects.filter(organiser_id__in=made):
            Match.objects.filter(tournament=t).delete()
            Entry.objects.filter(tournament=t).delete()
            t.delete()
        Battle.objects.filter(french_player_id__in=made).delete()
        Battle.objects.filter(allied_player_id__in=made).delete()
        Deck.objects.filter(owner_id__in=made).delete()
        User.objects.filter(pk__in=made).delete()


if __name__ == "__main__":
    sys.exit(main())
