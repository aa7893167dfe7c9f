"""Battles between scripted people over websockets: from one player's action to the
opponent's message with that seq (issue 12, "Figures and tests").

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/eagles_online_bench \\
    REDIS_URL=redis://127.0.0.1:6379/3 \\
    .venv/bin/python bench/online.py [--battles 200] [--moves 0] [--think 0] [--web 1]
                                     [--seconds 900] [--warmup 10] [--keep]
                                     [--profile-web FILE] [--server daphne|uvicorn]
                                     [--ws websockets-sansio|websockets|wsproto]
                                     [--http h11|httptools]

Makes sure the database exists (loopback PostgreSQL only), migrates it and loads the
catalogue, creates ``--battles`` battles between pairs of scripted users (Quatre Bras, turn
cap 2, open + join), then starts ONE web server (``config.asgi``, DEBUG off; ``--web N``: N of
them behind the same Redis, each battle's two players on different ones; ``--server``:
uvicorn as the Procfile runs it, the default, or daphne as it ran before, for comparisons;
``--ws`` and ``--http`` swap one of uvicorn's implementations for another) and a Celery
worker on that PostgreSQL + Redis. Each player is a websocket client (the ``websockets`` library)
logged in by its session cookie: it says hello, and whenever its battle message says it is
its move, plays a random legal action from its own view over the socket. Measured: the
time from a player's ``act`` send to the arrival of the opponent's message with the new seq
(both clients in this one process, so the client's own event loop is included). Printed:
p50 / p95 / max (target p95 <= 50 ms), actions, battles finished, errors by code, failed
handshakes, the web servers' CPU per action and the clients' own (this process's) CPU per
action: the clients share the machine with the servers, so their CPU is the machine's too.
The clients run on uvloop when it is installed (a runtime dependency since uvicorn serves
the site), else on asyncio's own loop; the line printed says which. ``--moves N`` stops
each battle after N actions (0: play to the end); ``--think S``: each
player waits a random 0-2S seconds before acting (0: at once, a stress test in which every
battle has an action in flight all the time). The first ``--warmup`` seconds are played but
not measured (the sockets open spread over its first two thirds, as people open their
battles over some seconds; 400 handshakes at once outlasted daphne's 5 s connect timeout); the
figures cover the ``--seconds`` after it, and the machine's load average is printed with
them (a shared machine: compare runs made in the same state). The database is dropped
afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import catalogue as web  # noqa: E402  (bench/catalogue.py: server helpers)
import cpu_ledger as ledger  # noqa: E402  (bench/cpu_ledger.py: CPU by thread and process)

ROOT = web.ROOT
PYTHON = web.PYTHON

SETUP = """
import json
from django.contrib.auth.models import User
from django.test import Client
from battles import services
n = {n}
users = [User(username=f"p{{i}}") for i in range(2 * n)]
for u in users:
    u.set_unusable_password()
User.objects.bulk_create(users)
users = list(User.objects.filter(username__startswith="p").order_by("id"))
out = []
def cookie(u):
    c = Client()
    c.force_login(u)
    return c.cookies["sessionid"].value
for i in range(n):
    a, b = users[2 * i], users[2 * i + 1]
    battle = services.create_battle(a, "quatre-bras", "french", opponent="open",
                                    settings={{"turn_cap": 2}})
    services.join_battle(battle.pk, b)
    out.append({{"id": battle.pk, "french": cookie(a), "allied": cookie(b)}})
print("BATTLES=" + json.dumps(out))
"""


def setup(env: dict, n: int) -> list[dict]:
    result = subprocess.run([PYTHON, "manage.py", "shell", "-c", SETUP.format(n=n)], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=1800)
    if result.returncode != 0:
        raise SystemExit(f"setting up the battles failed:\n{result.stderr[-3000:]}")
    line = next(x for x in result.stdout.splitlines() if x.startswith("BATTLES="))
    return json.loads(line.removeprefix("BATTLES="))


class Stats:
    def __init__(self, measure_from: float = 0.0):
        self.measure_from = measure_from  # perf_counter: actions before it are the warm-up
        self.latencies: list[float] = []
        # (battle, seq after the action, the opponent's side) -> when the action was sent
        self.sent: dict[tuple[int, int, str], float] = {}
        self.own: dict[tuple[int, int, str], float] = {}
        self.own_latencies: list[float] = []
        self.errors: Counter = Counter()
        self.actions = 0
        self.finished: set[int] = set()
        self.stopped: set[int] = set()
        self.connected = 0  # sockets whose handshake succeeded
        self.failed_handshakes: Counter = Counter()  # why the others' failed


async def player(port: int, battle: dict, side: str, stats: Stats, moves: int, rng,
                 deadline: float, think: float, ramp: float = 0.0) -> None:
    from websockets.asyncio.client import connect

    # People open their battles over some seconds, not in one instant: 400 handshakes at once
    # on a starved 2-core machine outlast daphne's 5 s websocket connect timeout (the client
    # then sees "did not receive a valid HTTP response").
    await asyncio.sleep(rng.uniform(0, ramp))
    bid = battle["id"]
    other = "allied" if side == "french" else "french"
    uri = f"ws://127.0.0.1:{port}/ws/battles/{bid}/"
    headers = {"Cookie": f"sessionid={battle[side]}"}
    try:
        ws = await connect(uri, additional_headers=headers, origin=f"http://127.0.0.1:{port}",
                           open_timeout=60, max_size=2**23)
    except Exception as exc:  # noqa: BLE001 (counted and printed: the run goes on)
        stats.failed_handshakes[f"{type(exc).__name__}: {str(exc)[:80]}"] += 1
        return
    stats.connected += 1
    async with ws:
        try:
            # one deadline for the whole session, not a wait_for (a task and a timer) per
            # message: the clients share the machine with the servers they measure
            async with asyncio.timeout_at(asyncio.get_running_loop().time()
                                          + max(0.1, deadline - time.monotonic())):
                await _play(ws, bid, side, other, stats, moves, rng, think)
        except TimeoutError:
            return


async def _play(ws, bid: int, side: str, other: str, stats: Stats, moves: int, rng,
                think: float) -> None:
    """One player's session on an open socket: hello, then answer every message that gives
    them the move, until their battle ends (or stops at ``moves``)."""
    await ws.send(json.dumps({"type": "hello", "since": 0}))
    acted_at = -1
    seen = 0  # the newest seq received
    while True:
        raw = await ws.recv()
        arrived = time.perf_counter()
        msg = json.loads(raw)
        if msg["type"] == "error":
            stats.errors[msg["code"]] += 1
            continue
        seq = msg["seq"]
        for n in range(seen + 1, seq + 1):  # a message may cover several actions
            started = stats.sent.pop((bid, n, side), None)  # the opponent's action
            if started is not None:
                stats.latencies.append(arrived - started)
            mine = stats.own.pop((bid, n, side), None)  # my own action's answer
            if mine is not None:
                stats.own_latencies.append(arrived - mine)
        seen = max(seen, seq)
        if msg["status"] != "active":
            stats.finished.add(bid)
            return
        if moves and seq >= moves:
            stats.stopped.add(bid)
            return
        if msg["waiting_for"] == "you" and seq > acted_at and msg["legal_actions"]:
            acted_at = seq
            if think:  # a person reads the board before moving
                await asyncio.sleep(rng.uniform(0, 2 * think))
            now = time.perf_counter()
            if now >= stats.measure_from:  # the warm-up's actions are not counted
                stats.sent[(bid, seq + 1, other)] = stats.own[(bid, seq + 1, side)] = now
                stats.actions += 1
            await ws.send(json.dumps({"type": "act", "seq": seq,
                                      "action": rng.choice(msg["legal_actions"])}))


def seat_port(battle: int, side: int, ports: int) -> int:
    """The web process (index among ``ports``) that player ``side`` (0 French, 1 Allied) of
    the ``battle``-th battle connects to. With several processes a battle's two players are
    on different ones (the opponent's message then always crosses the Redis channel layer),
    and each process holds as many French players as Allied ones: one side makes most of a
    battle's actions, so French-on-the-first, Allied-on-the-second (as before, issue 31) left
    nearly all the acting to one process, which saturated while the other idled."""
    return (battle + side) % ports


async def play_all(ports: list[int], battles: list[dict], moves: int, seconds: float,
                   think: float, warmup: float = 0.0, at_warmup_end=None,
                   ramp: float = 0.0) -> Stats:
    """Play every battle until ``seconds`` are up; the first ``warmup`` of them are not
    measured (sockets opening, spread over ``ramp`` s, hellos, the processes' caches
    filling); ``at_warmup_end()`` is called then (the bench reads the servers' CPU there)."""
    stats = Stats(time.perf_counter() + warmup)
    deadline = time.monotonic() + seconds + warmup

    async def mark():
        await asyncio.sleep(warmup)
        if at_warmup_end is not None:
            at_warmup_end()

    marker = asyncio.create_task(mark())
    rng = random.Random(1815)
    tasks = [player(ports[seat_port(i, k, len(ports))], b, side, stats, moves,
                    random.Random(rng.random()), deadline, think, ramp)
             for i, b in enumerate(battles) for k, side in enumerate(("french", "allied"))]
    results = await asyncio.gather(*tasks, return_exceptions=True)
    await marker
    for r in results:
        if isinstance(r, Exception):
            stats.errors[f"client {type(r).__name__}: {str(r)[:80]}"] += 1
    return stats


UVICORN_WS = ("websockets-sansio", "websockets", "wsproto")


def procfile_web(port: int) -> list[str]:
    """The Procfile's ``web`` line for ``port`` (its ``${PORT:-8001}``), run by this
    interpreter: the bench measures the server production runs (tests/procfile.py too)."""
    line = next(x for x in (ROOT / "Procfile").read_text().splitlines() if x.startswith("web:"))
    argv = shlex.split(re.sub(r"\$\{PORT(:-\d+)?\}", str(port), line.removeprefix("web:")))
    assert argv[:3] == ["python", "-m", "uvicorn"], argv
    return [PYTHON, *argv[1:]]


def server_command(kind: str, port: int, ws: str | None = None, http: str | None = None,
                   profile: Path | None = None) -> list[str]:
    """The web server's command line: uvicorn as the Procfile runs it (``ws``, ``http``:
    another of its websocket or HTTP implementations), or daphne as the Procfile ran it
    before. ``profile``: under ``bench/cpu_sampler.py``, its report written there (SIGUSR1
    restarts its figures, SIGUSR2 writes them)."""
    sampler = ([str(ROOT / "bench" / "cpu_sampler.py"), "--out", str(profile)]
               if profile is not None else [])
    if kind == "daphne":  # the Procfile's web line before uvicorn
        return [PYTHON, *sampler, "-m", "daphne",
                "-e", f"tcp:port={port}:interface=127.0.0.1:backlog=2048",
                "--websocket_connect_timeout", "30", "--proxy-headers",
                "config.asgi:application"]
    argv = procfile_web(port)
    for option, value in (("--ws", ws), ("--http", http)):
        if value:
            argv[argv.index(option) + 1] = value
    return [argv[0], *sampler, *argv[1:]]


def start_server(kind: str, env: dict, port: int, log: Path, ws: str | None = None,
                 http: str | None = None, profile: Path | None = None) -> subprocess.Popen:
    with open(log, "wb") as out:
        return subprocess.Popen(server_command(kind, port, ws, http, profile), cwd=ROOT, env=env,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)


def servers_arg(value: str) -> list[str]:
    kinds = value.split(",")
    if not all(kind in ("uvicorn", "daphne") for kind in kinds):
        raise argparse.ArgumentTypeError("uvicorn, daphne or a comma-separated list of them")
    return kinds


def client_loop_factory():
    """uvloop's loop for the clients when it is installed (their framing and JSON are the
    same either way; the loop's own work is cheaper), else None: asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def sampled(pid: int, path: Path, timeout: float = 60) -> str:
    """The sampler's report of web server ``pid`` (``bench/cpu_sampler.py``), asked for now."""
    path.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR2)
    deadline = time.monotonic() + timeout
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    return path.read_text() if path.exists() else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--battles", type=int, default=200)
    parser.add_argument("--moves", type=int, default=0, help="stop each battle after N actions")
    parser.add_argument("--seconds", type=float, default=900,
                        help="measured seconds (after the warm-up)")
    parser.add_argument("--warmup", type=float, default=10,
                        help="seconds played first and not measured (the sockets open over "
                             "its first two thirds, then hellos and play)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player waits before each action (0: at once)")
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--web", type=int, default=1,
                        help="web server processes behind the same Redis (docs/deploy.md); each "
                             "battle's two players connect to different ones")
    parser.add_argument("--layer", choices=("pubsub", "lists"), default="pubsub",
                        help="the Redis Channels layer (EAGLES_LIVE_LAYER): pubsub (the "
                             "default) or lists (config/channel_layer.py)")
    parser.add_argument("--profile-web", metavar="FILE", type=Path,
                        help="run the first web server under bench/cpu_sampler.py (every thread, "
                             "CPU-weighted stacks) from the warm-up's end, and print its top "
                             "entries (the whole report in FILE)")
    parser.add_argument("--server", type=servers_arg, default=["uvicorn"],
                        help="the web server: uvicorn as the Procfile runs it, or daphne as "
                             "it ran before; a comma-separated list is cycled over the --web "
                             "processes (daphne,uvicorn with --web 2: each battle has one "
                             "player on each, so the two serve the same load at the same "
                             "time, a paired comparison on a shared machine)")
    parser.add_argument("--ws", choices=UVICORN_WS,
                        help="another websocket implementation for uvicorn than the Procfile's")
    parser.add_argument("--http", choices=("h11", "httptools"),
                        help="another HTTP implementation for uvicorn than the Procfile's")
    parser.add_argument("--in-memory-layer", action="store_true",
                        help="web servers without REDIS_URL: the in-memory Channels layer "
                             "(a check)")
    args = parser.parse_args(argv)
    database_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not (database_url and database_url.startswith("postgres") and redis_url):
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL")
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise SystemExit("pip install websockets (the test extra)") from None
    database = database_url.rsplit("/", 1)[1].split("?")[0]  # its backends' CPU is counted
    ok, created, message = web.postgres_target(database_url)
    if not ok:
        raise SystemExit(f"PostgreSQL: {message}")
    tmp = Path(tempfile.mkdtemp(prefix="eagles-online-"))
    env = web.bench_env(tmp, database_url)
    env["REDIS_URL"] = redis_url
    env["EAGLES_LIVE_LAYER"] = args.layer
    procs = []
    try:
        t0 = time.perf_counter()
        web.manage(env, "migrate", "--noinput")
        web.manage(env, "load_catalogue", "--verbosity", "0")
        battles = setup(env, args.battles)
        print(f"{len(battles)} battles set up in {time.perf_counter() - t0:.1f} s", flush=True)
        server_env = dict(env)
        if args.in_memory_layer:
            server_env.pop("REDIS_URL")
        servers = []  # (process, port, log)
        kinds: list[str] = []  # each one's server
        for k in range(max(1, args.web)):
            kind = args.server[k % len(args.server)]
            port, log = web.free_port(), tmp / f"{kind}{k}.log"
            profile = args.profile_web.resolve() if args.profile_web and k == 0 else None
            kinds.append(kind)
            servers.append((start_server(kind, server_env, port, log, args.ws,
                                         args.http, profile), port, log))
            procs.append(servers[-1][0])
        with open(tmp / "worker.log", "wb") as out:
            procs.append(worker := subprocess.Popen(
                [PYTHON, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
                 "--loglevel", "WARNING", "--without-gossip", "--without-mingle",
                 "--without-heartbeat"], cwd=ROOT, env=env, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True))
        for proc, port, log in servers:
            web.wait_ready(proc, port, log, web.STEP_TIMEOUT)
        start = {}

        def warmed_up():
            if args.profile_web:
                os.kill(servers[0][0].pid, signal.SIGUSR1)  # the sampler starts afresh
            start["cpu"] = [web.cpu_seconds(proc.pid) or 0 for proc, _, _ in servers]
            start["threads"] = [ledger.threads_cpu(proc.pid) for proc, _, _ in servers]
            start["database"] = ledger.database_backends(database)
            start["redis"] = ledger.named_processes("redis-server")
            start["worker"] = ledger.process_cpu(worker.pid)
            start["client"] = time.process_time()
            start["wall"] = time.perf_counter()
            start["load"] = os.getloadavg()

        loop_factory = client_loop_factory()
        stats = asyncio.run(play_all([port for _, port, _ in servers], battles, args.moves,
                                     args.seconds, args.think, args.warmup, warmed_up,
                                     args.warmup * 2 / 3), loop_factory=loop_factory)
        wall = time.perf_counter() - start["wall"]
        cpus = [(web.cpu_seconds(proc.pid) or 0) - before
                for (proc, _, _), before in zip(servers, start["cpu"], strict=True)]
        cpu = sum(cpus)
        client_cpu = time.process_time() - start["client"]
        threads = [ledger.threads_cpu(proc.pid) for proc, _, _ in servers]
        database_cpu = ledger.grown(start["database"], ledger.database_backends(database))
        redis_cpu = ledger.grown(start["redis"], ledger.named_processes("redis-server"))
        worker_cpu = ledger.process_cpu(worker.pid) - start["worker"]
        load = os.getloadavg()
        # after the CPU figures: writing the report is the server's CPU too
        report = sampled(servers[0][0].pid, args.profile_web) if args.profile_web else ""
        lat = [x * 1000 for x in stats.latencies]
        print(f"machine load (1-min average) at the start / end of the measure: "
              f"{start['load'][0]:.2f} / {load[0]:.2f} on {os.cpu_count()} cores")
        server = ",".join(args.server)
        per = 1000 / max(1, stats.actions)
        print(f"{args.battles} battles, {2 * args.battles} websocket clients, think "
              f"{args.think:g} s (a random 0-{2 * args.think:g} s wait before each action), "
              f"{len(servers)} {server} ({args.layer} layer), "
              f"warm-up {args.warmup:g} s not measured, "
              f"{stats.actions} actions in {wall:.1f} s ({stats.actions / wall:.1f}/s)")
        print(f"CPU: web servers {cpu:.1f} s ({cpu * per:.2f} ms/action); the clients "
              f"{client_cpu:.1f} s ({client_cpu * per:.2f} ms/action, on "
              f"{'uvloop' if loop_factory else 'asyncio'})")
        for kind in args.server:
            print(f"{kind}: " + shlex.join(server_command(kind, 0, args.ws, args.http)[1:]))
        if len(servers) > 1:  # the same load on each: their own CPU side by side
            print("CPU by process: " + "; ".join(
                f"{kind} {k}: {used:.1f} s ({used * per:.2f} ms/action)"
                for k, (kind, used) in enumerate(zip(kinds, cpus, strict=True))))
        by_kind = {kind: sum(now[kind] - then[kind] for now, then in
                             zip(threads, start["threads"], strict=True))
                   for kind in (ledger.EVENT_LOOP, ledger.THREADS)}
        machine = cpu + database_cpu + redis_cpu + worker_cpu + client_cpu
        print("CPU per action, the machine's: web " + ", ".join(
            f"{kind} {used * per:.2f}" for kind, used in by_kind.items())
            + f"; PostgreSQL (this database's backends) {database_cpu * per:.2f}; Redis "
            f"(the whole server) {redis_cpu * per:.2f}; the worker {worker_cpu * per:.2f}; "
            f"the clients {client_cpu * per:.2f}; in all {machine * per:.2f} ms "
            f"({machine / wall:.2f} of {os.cpu_count()} cores)")
        failed = sum(stats.failed_handshakes.values())
        print(f"websocket handshakes: {stats.connected} of {2 * args.battles} connected, "
              f"{failed} failed" + (f" {dict(stats.failed_handshakes)}" if failed else ""))
        if lat:
            print(f"action -> opponent's message: p50 {web.percentile(lat, 50):.1f} ms, "
                  f"p95 {web.percentile(lat, 95):.1f} ms, max {max(lat):.1f} ms "
                  f"({len(lat)} measured; target p95 <= 50 ms)")
        own = [x * 1000 for x in stats.own_latencies]
        if own:
            print(f"action -> the player's own answer: p50 {web.percentile(own, 50):.1f} ms, "
                  f"p95 {web.percentile(own, 95):.1f} ms")
        print(f"battles finished: {len(stats.finished)}; stopped at --moves: "
              f"{len(stats.stopped)}; errors: {dict(stats.errors) or 'none'}")
        if args.profile_web:
            print(f"{kinds[0]} 0 sampled from the warm-up's end to here ({args.profile_web}):")
            print("\n".join(report.splitlines()[:60]) or "(no report written)")
        return 0
    finally:
        for proc in procs:
            web.stop_server(proc)
        if created and not args.keep:
            web.drop_postgres(database_url)
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)  # the logs go with it


if __name__ == "__main__":
    sys.exit(main())
