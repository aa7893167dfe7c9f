"""Stratego: Waterloo, the computer's own set-up (issue 26): the greedy bot with its set-up
plan (``stratego.setup_policy``) against the greedy bot with the random set-up, everything
else equal. Sides alternate (the planned bot is Allied in even games), game ``g`` has seed
``g``; draws (the bots' turn cap, R20) count half in the score; 95 % Wilson intervals.

    .venv/bin/python bench/stratego_setup.py --games 200
    .venv/bin/python bench/stratego_setup.py --games 200 --variant standard
    .venv/bin/python bench/stratego_setup.py --games 25 --start 25 --jsonl a.jsonl   # a slice
    .venv/bin/python bench/stratego_setup.py --summarise a.jsonl b.jsonl ...
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import SIDES, other_side  # noqa: E402
from stratego.bots import GreedyBot  # noqa: E402
from stratego.loader import load_pieces  # noqa: E402
from stratego.simulate import play, wilson  # noqa: E402


def summary(rows: list[dict[str, Any]]) -> None:
    n = len(rows)
    res = Counter(r["result"] for r in rows)
    score = res["plan"] + 0.5 * res["draw"]
    lo, hi = wilson(res["plan"], n)
    slo, shi = wilson(score, n)
    print(f"{n} games: planned set-up wins {res['plan']}, random set-up wins {res['random']},"
          f" draws {res['draw']}")
    print(f"  planned set-up wins {100 * res['plan'] / n:.1f} % (95 % interval "
          f"{100 * lo:.1f}-{100 * hi:.1f}); score {100 * score / n:.1f} % "
          f"({100 * slo:.1f}-{100 * shi:.1f})")
    for side in SIDES:
        mine = [r for r in rows if r["plan_side"] == side]
        if mine:
            w = sum(1 for r in mine if r["result"] == "plan")
            print(f"  as the {side}: {w} of {len(mine)} won")
    print("  endings:", dict(Counter(r["reason"] for r in rows).most_common()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--cap", type=int, default=60, help="the bots' turn cap (R20)")
    ap.add_argument("--variant", default="basic", choices=("basic", "standard", "expert"))
    ap.add_argument("--jsonl", help="append one line per game")
    ap.add_argument("--summarise", nargs="+", metavar="JSONL")
    args = ap.parse_args()
    if args.summarise:
        rows = []
        for name in args.summarise:
            with open(name, encoding="utf-8") as f:
                rows += [json.loads(line) for line in f if line.strip()]
        summary(rows)
        return
    table = load_pieces()
    rows = []
    t0 = time.process_time()
    for g in range(args.start, args.start + args.games):
        plan_side = SIDES[1] if g % 2 == 0 else SIDES[0]
        rand_side = other_side(plan_side)
        bots = {plan_side: GreedyBot(table, "plan"), rand_side: GreedyBot(table, "random")}
        out = play(g, bots, args.cap, table, args.variant)
        winner = out["winner"]
        result = "draw" if winner is None else "plan" if winner == plan_side else "random"
        row = {"game": g, "plan_side": plan_side, "result": result, "reason": out["reason"],
               "variant": args.variant}
        rows.append(row)
        if args.jsonl:
            with open(args.jsonl, "a", encoding="utf-8") as f:
                f.write(json.dumps(row) + "\n")
    cpu = time.process_time() - t0
    print(f"variant {args.variant}, seeds {args.start}-{args.start + args.games - 1},"
          f" turn cap {args.cap}; {cpu:.0f} s CPU")
    summary(rows)


if __name__ == "__main__":
    main()
