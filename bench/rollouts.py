"""Greedy and search throughput on one core: greedy-vs-greedy battles/s per battle, and search
decisions/s (the hard level's full-game rollouts) per battle.

    .venv/bin/python bench/rollouts.py [--seconds 4]                 # the working tree alone
    .venv/bin/python bench/rollouts.py --compare REF [--seconds 4]   # REF against the tree
    EAGLES_ENGINE=auto .venv/bin/python bench/rollouts.py ...        # the compiled engine

``greedy``: complete greedy-vs-greedy battles (``battles.simulate.play_game``, seeds
``bench:i``, historical decks, the simulation turn cap). ``search``: the search with
up to 12 samples racing from 4, width 3, rollouts to the battle's end (set explicitly, so
that REFs whose levels differ run the same search: the normal level since session 4) with
no time cap (``max_ms=None``: a budget in samples, deterministic), timed on decisions taken
from greedy-vs-greedy battles (seeds ``sbench:i``: every 15th decision with two or more legal
actions in a phase the search searches, at most 3 per battle; collecting them is not timed).

``--compare REF`` runs REF's bots and engine (``battles/bots``, ``battles/engine``,
``battles/simulate.py``, ``game``, ``cards/catalogue`` and ``cards/data`` extracted with ``git
archive``) and the working tree's, each in its own subprocess, both pinned to the last core,
in interleaved chunks of the same seeds (CPU time of each chunk); prints the rates before and
after per battle, the ratio, the median ratio, and whether both played the same battles and
made the same search decisions (a digest of outcomes, step counts and chosen actions).
``EAGLES_ENGINE`` is passed on to both workers (REF's tree has no compiled build: with
``auto`` it runs pure; compare compiled against compiled by building both, or pure only).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BATTLES = ("quatre-bras", "ligny", "wavre", "waterloo")

# A worker: reads "mode battle first count" lines and answers "cpu_seconds units digest".
WORKER = r"""
import hashlib, json, random, sys, time
sys.path.insert(0, sys.argv[1])
from battles.bots import get_bot
from battles.engine import SIDES, SIMULATION_TURN_CAP, load_cards
from battles.simulate import play_game
from cards.catalogue.file import catalogue_records
cards = load_cards(catalogue_records())
settings = {"turn_cap": SIMULATION_TURN_CAP}
greedy = get_bot("greedy", cards)
search = get_bot("search", cards)
search.samples, search.min_samples, search.width, search.horizon = 12, 4, 3, 200
search.max_ms = None

def decisions(battle, seed):
    got, n = [], [0]
    def note(st, side, view, legal, action):
        if len(legal) > 1 and view["phase"] in search.phases:
            n[0] += 1
            if n[0] % 15 == 0 and len(got) < 3:
                got.append((view, legal, f"{seed}:{n[0]}"))
    play_game(battle, seed, {"french": greedy, "allied": greedy}, settings=settings,
              cards=cards, on_decision=note)
    return got

for line in sys.stdin:
    mode, battle, first, count = line.split()
    h = hashlib.sha256()
    units, cpu = 0, 0.0
    for i in range(int(first), int(first) + int(count)):
        if mode == "greedy":
            t = time.process_time()
            st, steps = play_game(battle, f"bench:{i}", {"french": greedy, "allied": greedy},
                                  settings=settings, cards=cards)
            cpu += time.process_time() - t
            units += 1
            h.update(repr((sorted(st.outcome.items()), steps)).encode())
        else:
            for view, legal, key in decisions(battle, f"sbench:{i}"):
                t = time.process_time()
                a = search.choose(view, legal, random.Random(key))
                cpu += time.process_time() - t
                units += 1
                h.update(json.dumps(a, sort_keys=True).encode())
    print(cpu, units, h.hexdigest()[:16], flush=True)
"""


class Worker:
    """Bots and engine of one tree in a subprocess (that tree first on sys.path)."""

    def __init__(self, tree: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(tree)], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=tree)

    def play(self, mode: str, battle: str, first: int, count: int) -> tuple[float, int, str]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{mode} {battle} {first} {count}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("a worker died (see its error above)")
        cpu, units, digest = line.split()
        return float(cpu), int(units), digest

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


def extract(ref: str, into: Path) -> None:
    """REF's bots, engine and simulator and what they import (``game``, the card data)."""
    data = subprocess.run(["git", "archive", "--format=tar", ref, "battles/__init__.py",
                           "battles/bots", "battles/engine", "battles/simulate.py", "game",
                           "cards/__init__.py", "cards/catalogue", "cards/data"], cwd=ROOT,
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def measure(workers: list[Worker], mode: str, battle: str, seconds: float
            ) -> tuple[list[float], bool, int]:
    """Rates (units per CPU second) of each worker on the same seeds, interleaved chunks;
    whether they agreed, and the number of seeds played."""
    cpu0, units0, _ = workers[0].play(mode, battle, 0, 1)  # warm up and size the chunks
    for w in workers[1:]:
        w.play(mode, battle, 0, 1)
    chunk = max(1, round(0.5 / max(cpu0, 1e-3)))
    cpu = [0.0] * len(workers)
    units = [0] * len(workers)
    same, first, rnd = True, 1, 0
    while cpu[0] < seconds or rnd < 2 * len(workers):
        order = list(range(len(workers)))
        if rnd % 2:
            order.reverse()
        res = {k: workers[k].play(mode, battle, first, chunk) for k in order}
        for k in order:
            cpu[k] += res[k][0]
            units[k] += res[k][1]
        same &= len({(r[1], r[2]) for r in res.values()}) == 1
        first += chunk
        rnd += 1
    return [u / c for u, c in zip(units, cpu, strict=True)], same, first - 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="CPU time per cell and tree")
    ap.add_argument("--compare", metavar="REF", help="git revision to compare against")
    ap.add_argument("--modes", default="greedy,search")
    ap.add_argument("--battles", default=",".join(BATTLES))
    args = ap.parse_args()
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[-1]})  # one core for every worker (inherited)
    engine = os.environ.get("EAGLES_ENGINE", "pure")
    with tempfile.TemporaryDirectory(prefix="eagles-rollouts-ref-") as tmp:
        if args.compare:
            extract(args.compare, Path(tmp))
            workers = [Worker(Path(tmp)), Worker(ROOT)]
        else:
            workers = [Worker(ROOT)]
        print(f"one core (cpu {cpus[-1]}), CPU seconds, ~{args.seconds:g} s per cell, "
              f"EAGLES_ENGINE={engine}" + (f"; before = {args.compare}, after = working tree"
                                           if args.compare else ""))
        for mode in args.modes.split(","):
            unit = "battles/s" if mode == "greedy" else "decisions/s"
            ratios = []
            print(f"{mode} ({unit})")
            for battle in args.battles.split(","):
                rates, same, seeds = measure(workers, mode, battle, args.seconds)
                if len(rates) == 1:
                    print(f"  {battle:<12} {rates[0]:9.2f}  ({seeds} seeds)")
                    continue
                ratios.append(rates[1] / rates[0])
                print(f"  {battle:<12} {rates[0]:9.2f} {rates[1]:9.2f} {ratios[-1]:6.2f}  "
                      f"same: {'yes' if same else 'NO'} ({seeds} seeds)")
            if ratios:
                print(f"  median ratio {statistics.median(ratios):.2f} "
                      f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
        for w in workers:
            w.close()


if __name__ == "__main__":
    main()
