"""La Belle Alliance balance: N games between two computer players (by default the strongest,
``expectimax``, on both sides) on a card edition; prints the French win %, its 95 % interval,
how the games ended and the distribution of their length in turns.

    .venv/bin/python bench/belle_alliance_balance.py --games 1000
    .venv/bin/python bench/belle_alliance_balance.py --games 200 --french greedy --allied random
    .venv/bin/python bench/belle_alliance_balance.py --data tests/belle_alliance/fixture-v1.json
    .venv/bin/python bench/belle_alliance_balance.py --games 250 --start 250 --jsonl b.jsonl
    .venv/bin/python bench/belle_alliance_balance.py --summarise a.jsonl b.jsonl ...

Game ``i`` uses the dice stream ``SeededDice(f"{seed}:{i}")`` and the bots' tie-breaks
``Random(f"{seed}:{i}:bot")``: a run is reproducible.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from belle_alliance import engine  # noqa: E402
from belle_alliance.bots import SearchBot, get_bot  # noqa: E402
from belle_alliance.loader import edition, load_cards  # noqa: E402

TURN_CAP = 500  # a guard: the rules have no turn limit and every house action progresses


def make_bot(name: str, cards: engine.CardData, depth: int, budget: float) -> Any:
    if name == "expectimax":
        return SearchBot(cards, depth=depth, budget=budget)
    return get_bot(name, cards)


def play(cards: engine.CardData, bots: dict[str, Any], seed: str) -> tuple[engine.State, int]:
    s = engine.new_game(cards)
    dice = engine.SeededDice(seed)
    rng = random.Random(f"{seed}:bot")
    decisions = 0
    while s.winner is None and s.turn <= TURN_CAP:
        side = s.to_move()
        if side is None:
            break
        legal = engine.legal_actions(s, side)
        engine.apply(s, bots[side].choose_state(s, legal, rng), dice, check=False)
        decisions += 1
    return s, decisions


def summary(results: list[dict[str, Any]]) -> None:
    """French win %, its 95 % interval, the endings and the turns distribution."""
    n = len(results)
    wins = Counter(r["winner"] or "none" for r in results)
    reasons = Counter(f"{r['winner']} ({r['reason']})" for r in results)
    turns = sorted(r["turns"] for r in results)
    p = wins["french"] / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    print(f"{n} games: French wins {100 * p:.1f} % (95 % interval {100 * (p - half):.1f}-"
          f"{100 * (p + half):.1f}); Allied {100 * wins['allied'] / n:.1f} %;"
          f" unfinished {wins['none']}")
    for r, c in reasons.most_common():
        print(f"  {c:5d}  {r}")
    print(f"turns: mean {sum(turns) / n:.1f}, median {turns[n // 2]}, min {turns[0]},"
          f" max {turns[-1]}, 10th-90th percentile {turns[n // 10]}-{turns[(9 * n) // 10]}")
    hist = Counter(turns)
    for t in range(turns[0], turns[-1] + 1):
        print(f"  turn {t:3d}: {hist[t]:5d} {'#' * round(60 * hist[t] / n)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--french", default="expectimax")
    ap.add_argument("--allied", default="expectimax")
    ap.add_argument("--depth", type=int, default=2, help="expectimax depth (decisions)")
    ap.add_argument("--budget", type=float, default=30.0,
                    help="expectimax CPU seconds a decision (the default lets depth 2 always "
                         "finish, so that a run does not depend on the machine)")
    ap.add_argument("--data", help="a card-data file (default: the house edition)")
    ap.add_argument("--seed", default="balance")
    ap.add_argument("--start", type=int, default=0,
                    help="the first game's number (a slice of a run: the same games)")
    ap.add_argument("--progress", type=int, default=0, help="print a line every N games")
    ap.add_argument("--jsonl", help="append one line per game (seed, winner, reason, turns)")
    ap.add_argument("--summarise", metavar="JSONL", nargs="+",
                    help="print the summary of finished games (--jsonl files), play none")
    args = ap.parse_args()
    if args.summarise:
        rows: list[dict[str, Any]] = []
        for name in args.summarise:
            with open(name, encoding="utf-8") as f:
                rows.extend(json.loads(line) for line in f if line.strip())
        summary(rows)
        return
    cards = load_cards(args.data) if args.data else edition()
    bots = {"french": make_bot(args.french, cards, args.depth, args.budget),
            "allied": make_bot(args.allied, cards, args.depth, args.budget)}
    results: list[dict[str, Any]] = []
    decisions = 0
    t0 = time.perf_counter()
    for i in range(args.start, args.start + args.games):
        s, n = play(cards, bots, f"{args.seed}:{i}")
        decisions += n
        result = {"game": i, "winner": s.winner, "reason": s.reason, "turns": s.turn}
        results.append(result)
        if args.jsonl:
            with open(args.jsonl, "a", encoding="utf-8") as f:
                f.write(json.dumps(result) + "\n")
        if args.progress and len(results) % args.progress == 0:
            french = sum(1 for r in results if r["winner"] == "french")
            print(f"  {len(results)} games: French {100 * french / len(results):.1f} %",
                  flush=True)
    elapsed = time.perf_counter() - t0
    print(f"edition {cards.edition}; French {args.french} vs Allied {args.allied}"
          f" (depth {args.depth}, budget {args.budget} s); seed {args.seed!r}")
    summary(results)
    print(f"{decisions} decisions in {elapsed:.0f} s ({1000 * elapsed / max(1, decisions):.1f}"
          " ms each)")


if __name__ == "__main__":
    main()
