"""Deck validate API latency over HTTP: p95 of POST /api/decks/validate/, one web process.

    .venv/bin/python bench/deck_api.py [--requests 500] [--server daphne|runserver]

Prepares a temporary SQLite database (migrate + load_catalogue), starts ONE web process
(DEBUG=0) on a free loopback port with the helpers of bench/catalogue.py, warms up, then posts
a 36-card Waterloo French deck N times over one keep-alive connection, anonymously
(no collection check), alternating three bodies: entries JSON (valid), the same with a
duplicate Terrain and a British card (invalid, 2 problems), and the deck as deck-list text. Prints
p50/p95/max per body and overall, the server's CPU ms per request, and whether the target
(p95 <= 25 ms) is met. The pure rules' throughput is bench/decks.py.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import catalogue as web  # noqa: E402  (bench/catalogue.py: server helpers)

TARGET_P95_MS = 25.0
PATH = "/api/decks/validate/"


def bodies() -> dict[str, bytes]:
    cards = json.loads((ROOT / "cards" / "data" / "catalogue.json").read_text("utf-8"))["cards"]
    pool = [c for c in cards if c["army"] == "french" and "waterloo" in c["battles"]
            and (c["type"] != "terrain" or c["terrain_battle"] == "waterloo")]
    chosen = sorted(pool, key=lambda c: (c["bp"], c["number"]))[:36]  # within BP380 (15.0)
    british = next(c for c in cards if c["army"] == "british")
    entries = [[c["number"], 1, None] for c in chosen]
    base = {"battle": "waterloo", "army": "french"}
    # wrong_army (a British card) and duplicate_terrain (15.0: never two of one Terrain)
    invalid = [*entries[:34], [chosen[0]["number"], 1, "gold"], [british["number"], 1, None]]
    text = "\n".join(f"1 {c['name']}" if i % 2 else f"1 #{c['number']}"
                     for i, c in enumerate(chosen))
    return {
        "entries, valid": json.dumps({**base, "entries": entries}).encode(),
        "entries, 2 problems": json.dumps({**base, "entries": invalid}).encode(),
        "deck-list text": json.dumps({**base, "decklist": text}).encode(),
    }


class PostClient(web.Client):
    def post(self, path: str, body: bytes) -> tuple[int, float, bytes]:
        response, data, elapsed = self.request("POST", path, body, {
            "Content-Type": "application/json", "Accept": "application/json"})
        return response.status, elapsed, data


def run(server: str, requests: int) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="eagles-deck-bench-"))
    env = web.bench_env(tmp, None)
    proc = None
    try:
        web.manage(env, "migrate", "--noinput", "-v", "0")
        web.manage(env, "load_catalogue", "-v", "0")
        port = web.free_port()
        log = tmp / "server.log"
        proc = web.start_server(server, env, port, log)
        web.wait_ready(proc, port, log, timeout=60)
        client = PostClient(port)
        posts = bodies()
        expected = {"entries, valid": True, "entries, 2 problems": False,
                    "deck-list text": True}
        for name, body in posts.items():  # warm-up, and check the answers are right
            for _ in range(10):
                status, _, data = client.post(PATH, body)
                answer = json.loads(data)
                if status != 200 or answer["valid"] is not expected[name]:
                    raise RuntimeError(f"{name}: {status} {data[:300]!r}")
        times: dict[str, list[float]] = {name: [] for name in posts}
        cpu_before = web.cpu_seconds(proc.pid)
        names = list(posts)
        for i in range(requests):
            name = names[i % len(names)]
            status, ms, _ = client.post(PATH, posts[name])
            if status != 200:
                raise RuntimeError(f"{name} answered {status}")
            times[name].append(ms)
        cpu_after = web.cpu_seconds(proc.pid)
        client.close()
        every = [t for values in times.values() for t in values]
        return {"times": times, "every": every,
                "cpu_ms": None if cpu_before is None or cpu_after is None
                else (cpu_after - cpu_before) * 1000 / requests}
    finally:
        if proc is not None:
            web.stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=600, help="requests in all")
    parser.add_argument("--server", choices=["daphne", "runserver"], default="daphne")
    args = parser.parse_args(argv)
    if args.requests < 3:
        parser.error("--requests must be at least 3")
    result = run(args.server, args.requests)
    pct = web.percentile
    print(f"POST {PATH}: 36-card Waterloo French deck, SQLite, {args.server}, 1 process, "
          f"DEBUG=0, {args.requests} requests, load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs")
    print(f"{'body':<22} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, values in result["times"].items():
        print(f"{name:<22} {len(values):>5} {pct(values, 50):>8.2f} {pct(values, 95):>8.2f} "
              f"{max(values):>8.2f}")
    every = result["every"]
    print(f"{'overall':<22} {len(every):>5} {pct(every, 50):>8.2f} {pct(every, 95):>8.2f} "
          f"{max(every):>8.2f}")
    if result["cpu_ms"] is not None:
        print(f"server CPU per request: {result['cpu_ms']:.2f} ms")
    met = pct(every, 95) <= TARGET_P95_MS
    print(f"target p95 <= {TARGET_P95_MS:.0f} ms: {'MET' if met else 'NOT MET'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
