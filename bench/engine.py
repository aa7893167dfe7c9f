"""Battle engine throughput: complete battles per second on one core, per battle, for
random vs random and greedy vs greedy, plus a cProfile of Waterloo random vs random.

    .venv/bin/python bench/engine.py [--seconds 2] [--no-profile]
    .venv/bin/python bench/engine.py --compare [REF] [--seconds 4]
    .venv/bin/python bench/engine.py --mypyc [--mypyc-python PY] [--compare [REF]] [--seconds 4]

``--compare REF`` (default 79174da, the engine before issue 14's speed work) plays the same
complete random-vs-random battles (``battles.engine.play_random``, same seeds) with the
engine of git revision REF and with the working tree's, each in its own subprocess (REF's
``battles/engine``, ``game`` and ``cards/catalogue`` + ``cards/data`` extracted with ``git
archive``), both pinned to one core, in interleaved chunks (CPU time of each chunk); prints
battles/s before and after per battle, the ratio, and the median ratio. It also checks that
both engines played identical battles (same outcomes and step counts).

``--mypyc`` compiles the working tree's engine with mypyc (``python -m battles.engine.build``:
into var/engine-mypyc/<hash of the sources>, kept, reused while the sources are unchanged;
``mypy`` must be importable by ``--mypyc-python``, default $EAGLES_MYPYC_PYTHON or this
Python), prints the compile time, checks that the compiled (``EAGLES_ENGINE=compiled``) and
the pure engine give the same actions and events byte for byte (``play_random(record=True)``,
20 battles of each), then times them as ``--compare`` does (before = pure, after = compiled;
with ``--compare REF``, before = REF's engine). ``--compare`` alone times the pure sources
(``EAGLES_ENGINE=pure``).

Battles are played by battles.simulate.play_game (the same loop as `manage.py simulate`:
legal_actions, the bot's choice, apply with check=False; the view is built only for bots
that read it). Decks are historical, dealt per game. Targets (issue 4): Quatre Bras >= 200/s
and Waterloo >= 50/s random vs random; greedy at least a quarter of those.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.bots import get_bot  # noqa: E402
from battles.engine import SIMULATION_TURN_CAP, load_cards  # noqa: E402
from battles.simulate import play_game  # noqa: E402
from cards.catalogue.file import catalogue_records  # noqa: E402
from game import BATTLES  # noqa: E402

CARDS = load_cards(catalogue_records())  # the engine reads no file: it is handed the cards
SETTINGS = {"turn_cap": SIMULATION_TURN_CAP}  # RULINGS 5.0-c: simulations keep a cap
TARGETS = {"quatre-bras": 200, "waterloo": 50}


def rate(battle: str, bot: str, seconds: float) -> tuple[float, int, float]:
    """(battles per CPU second, battles played, mean turns) within about ``seconds`` of this
    process's CPU time (the wall clock would count other processes' load against it)."""
    bots = {"french": get_bot(bot, CARDS), "allied": get_bot(bot, CARDS)}
    games = turns = 0
    start = time.process_time()
    while True:
        st, _ = play_game(battle, f"bench:{games}", bots, settings=SETTINGS, cards=CARDS)
        games += 1
        turns += st.turn
        elapsed = time.process_time() - start
        if elapsed >= seconds and games >= 5:
            return games / elapsed, games, turns / games


# --- --compare: the engine of a git revision against the working tree's -------------------

DEFAULT_REF = "79174da"  # main when issue 14's speed work began
# A worker: reads "battle first count" lines, plays those seeds with play_random and answers
# "cpu_seconds digest" (digest: outcomes and step counts, to check both engines agree).
WORKER = r"""
import hashlib, sys, time
sys.path.insert(0, sys.argv[1])
from battles.engine import load_cards, play_random
from cards.catalogue.file import catalogue_records
cards = load_cards(catalogue_records())
for line in sys.stdin:
    battle, first, count, *full = line.split()  # "full": digest every action and event
    h = hashlib.sha256()
    t = time.process_time()
    for i in range(int(first), int(first) + int(count)):
        g = play_random(battle, f"compare:{i}", cards=cards, record=bool(full))
        h.update(repr((sorted(g.state.outcome.items()), g.steps)).encode())
        if full:
            h.update(repr((g.actions, g.events)).encode())
    print(time.process_time() - t, h.hexdigest()[:16], flush=True)
"""


class Worker:
    """One engine in a subprocess (its tree first on sys.path)."""

    def __init__(self, tree: Path, engine: str = "pure") -> None:
        self.tree = tree
        # EAGLES_ENGINE: the working tree's pure sources or its compiled build (native.py).
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, str(tree)], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     cwd=tree, env={**os.environ, "EAGLES_ENGINE": engine})

    def play(self, battle: str, first: int, count: int, full: bool = False
             ) -> tuple[float, str]:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{battle} {first} {count}{' full' if full else ''}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("an engine worker died (see its error above)")
        cpu, digest = line.split()
        return float(cpu), digest

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


ENGINE_PATHS = ("battles/engine", "game", "cards/catalogue", "cards/data")


def paths_at(ref: str, paths: tuple[str, ...]) -> list[str]:
    """Those of ``paths`` that exist at ``ref`` (an older engine imports no ``game``: it did
    not exist yet, and ``git archive`` refuses a path that is not there)."""
    listed = subprocess.run(["git", "ls-tree", "--name-only", ref, *paths], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.split()
    return [p for p in paths if p in listed]


def extract(ref: str, into: Path) -> None:
    """REF's engine and what it imports (the pure ``game`` package, the card data), those of
    them REF has."""
    data = subprocess.run(["git", "archive", "--format=tar", ref, *paths_at(ref, ENGINE_PATHS)],
                          cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")


def compare(ref: str, seconds: float) -> None:
    """Interleaved chunks of the same seeds, before (REF) and after (working tree)."""
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[-1]})  # one core for both workers (inherited)
    with tempfile.TemporaryDirectory(prefix="eagles-engine-ref-") as tmp:
        extract(ref, Path(tmp))
        print(f"random vs random, play_random, same seeds; before = {ref}, after = working "
              f"tree; one core (cpu {cpus[-1]}), CPU seconds, ~{seconds:g} s per engine")
        side_by_side(Worker(Path(tmp)), Worker(ROOT), seconds)


def mypyc(python: str, seconds: float, ref: str | None = None) -> None:
    """The working tree's engine compiled by mypyc (``battles.engine.build``: built into
    var/engine-mypyc/<sources' hash> unless there already) against the same engine
    uncompiled (or, with ``ref``, against the engine of that git revision)."""
    from battles.engine.build import build
    from battles.engine.native import MODULES

    cpus = sorted(os.sched_getaffinity(0))
    start = time.perf_counter()
    cpu = os.times()
    build(python, quiet=True)
    used = os.times()
    print(f"mypyc: {len(MODULES)} modules compiled in {time.perf_counter() - start:.1f} s "
          f"(children's CPU {used.children_user - cpu.children_user:.1f} s; 0: the build of "
          f"these sources was there)")
    os.sched_setaffinity(0, {cpus[-1]})
    pure, compiled = Worker(ROOT), Worker(ROOT, "compiled")
    for battle in BATTLES:  # the same actions and events, byte for byte
        a, b = pure.play(battle, 0, 20, full=True), compiled.play(battle, 0, 20, full=True)
        if a[1] != b[1]:
            raise SystemExit(f"{battle}: the compiled engine plays differently")
    print("compiled and pure engines: the same actions and events (20 battles each)")
    with tempfile.TemporaryDirectory(prefix="eagles-engine-ref-") as tmp:
        if ref:
            pure.close()
            extract(ref, Path(tmp))
            pure = Worker(Path(tmp))
        print(f"random vs random, play_random, same seeds; before = {ref or 'pure'}, after = "
              f"compiled; one core (cpu {cpus[-1]}), CPU seconds, ~{seconds:g} s per engine")
        side_by_side(pure, compiled, seconds)


def side_by_side(before: Worker, after: Worker, seconds: float) -> None:
    """Both engines play the same seeds in interleaved chunks; a line per battle."""
    print(f"{'battle':<12} {'before/s':>9} {'after/s':>9} {'ratio':>6}  same games")
    ratios = []
    for battle in BATTLES:
        cpu_b, _ = before.play(battle, 0, 1)  # warm up and size the chunks
        after.play(battle, 0, 1)
        chunk = max(1, round(0.25 / max(cpu_b, 1e-3)))
        tb = ta = 0.0
        games, same, first, rnd = 0, True, 1, 0
        while tb < seconds or rnd < 4:
            order = (before, after) if rnd % 2 == 0 else (after, before)
            res = {w: w.play(battle, first, chunk) for w in order}
            tb += res[before][0]
            ta += res[after][0]
            same &= res[before][1] == res[after][1]
            games += chunk
            first += chunk
            rnd += 1
        rb, ra = games / tb, games / ta
        ratios.append(ra / rb)
        print(f"{battle:<12} {rb:9.1f} {ra:9.1f} {ra / rb:6.2f}  "
              f"{'yes' if same else 'NO'} ({games} battles each)")
    print(f"median ratio {statistics.median(ratios):.2f} (min {min(ratios):.2f})")
    before.close()
    after.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per cell")
    ap.add_argument("--no-profile", action="store_true")
    ap.add_argument("--compare", nargs="?", const=DEFAULT_REF, metavar="REF",
                    help=f"before/after against git revision REF (default {DEFAULT_REF})")
    ap.add_argument("--mypyc", action="store_true",
                    help="the working tree's engine compiled by mypyc against it uncompiled")
    ap.add_argument("--mypyc-python",
                    default=os.environ.get("EAGLES_MYPYC_PYTHON") or sys.executable,
                    help="a Python (same version) that can import mypy, to compile with")
    args = ap.parse_args()
    if args.mypyc:
        mypyc(args.mypyc_python, args.seconds, args.compare)
        return
    if args.compare:
        compare(args.compare, args.seconds)
        return
    print(f"{'battle':<12} {'random/s':>9} {'turns':>6} {'greedy/s':>9} {'turns':>6}  target")
    ok = True
    for battle in BATTLES:
        r, _, rt = rate(battle, "random", args.seconds)
        g, _, gt = rate(battle, "greedy", args.seconds)
        target = TARGETS.get(battle)
        note = ""
        if target:
            met = r >= target and g >= target / 4
            ok &= met
            note = f"random >= {target}, greedy >= {target / 4:g}: {'met' if met else 'MISSED'}"
        print(f"{battle:<12} {r:9.1f} {rt:6.1f} {g:9.1f} {gt:6.1f}  {note}")
    print("targets met" if ok else "targets MISSED")
    if args.no_profile:
        return
    prof = cProfile.Profile()
    bots = {"french": get_bot("random"), "allied": get_bot("random")}
    prof.enable()
    for i in range(20):
        play_game("waterloo", f"profile:{i}", bots, settings=SETTINGS, cards=CARDS)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
    print("\ncProfile, Waterloo random vs random, 20 battles, top 15 by own time:")
    print("\n".join(line for line in out.getvalue().splitlines()
                    if line.strip() and not line.startswith(("   Ordered", "   List"))))


if __name__ == "__main__":
    main()
