"""Bot strength: one bot against another over the four battles, half the games on each side.

    .venv/bin/python bench/bot_strength.py --games 100 --bot search --vs greedy \
        [--budget SAMPLES] [--width W] [--horizon H] [--max-ms MS] [--prior P] [--battles a,b] \
        [--set KEY=VALUE ...] [--seed S] [--start I] [--paired] [--jobs J] [--json]
    .venv/bin/python bench/bot_strength.py --merge run1.json run2.json

``--games`` is per battle (half as French, half as Allied). Game ``i`` of a battle uses the
seed ``"<seed>:<i>"`` (setup, dice, bots' rngs: ``battles.simulate.play_game``), so a run is
reproducible when the budget is in samples (``--max-ms`` off, the default here). Prints the
win rate of ``--bot`` with its 95 % Wilson interval per battle and side and overall, and the
CPU seconds per decision of ``--bot`` (median and 95th percentile, over all its decisions and
over those it searched). Draws (turn cap, equal losses) count as not won. ``--jobs`` runs
games in that many processes (each decision is still timed on one core).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battles.bots import BOTS, get_bot  # noqa: E402
from battles.engine import load_cards  # noqa: E402
from battles.simulate import play_game, wilson  # noqa: E402
from cards.catalogue.file import catalogue_records  # noqa: E402
from game import BATTLES  # noqa: E402

CARDS = load_cards(catalogue_records())


def make_bot(name: str, opts: dict):
    bot = get_bot(name, CARDS)
    if name.startswith("search"):
        for key in ("samples", "width", "horizon", "prior"):
            if opts.get(key) is not None:
                setattr(bot, key, opts[key])
        bot.max_ms = opts.get("max_ms")
        for key, value in (opts.get("set") or {}).items():
            setattr(bot, key, value)
    return bot


def parse_set(items: list[str]) -> dict:
    """``key=value`` search attributes: numbers as numbers, ``a,b`` lists as tuples."""
    out: dict = {}
    for item in items:
        key, _, raw = item.partition("=")
        value: object = raw
        if "," in raw:
            value = tuple(x for x in raw.split(",") if x)
        else:
            for kind in (int, float):
                try:
                    value = kind(raw)
                    break
                except ValueError:
                    pass
        out[key] = value
    return out


def one_game(job: tuple) -> dict:
    battle, i, seed, side, bot_name, vs_name, opts = job
    bot = make_bot(bot_name, opts)
    other = make_bot(vs_name, opts)
    times: list[float] = []
    searched: list[float] = []
    choose = bot.choose

    def timed(view, legal, rng):
        t = time.process_time()
        a = choose(view, legal, rng)
        dt = time.process_time() - t
        times.append(dt)
        if len(legal) > 1:
            searched.append(dt)
        return a

    bot.choose = timed
    bots = {"french": bot, "allied": other} if side == "french" else \
        {"french": other, "allied": bot}
    st, steps = play_game(battle, f"{seed}:{i}", bots, cards=CARDS)
    out = {"battle": battle, "game": i, "side": side, "winner": st.outcome.get("winner"),
           "reason": st.outcome.get("reason"), "turns": st.turn, "steps": steps,
           "times": times, "searched": searched, "stats": dict(getattr(bot, "stats", {}))}
    if opts.get("paired"):
        # the same battle (seed) with greedy in the bot's seat: the search plays greedy's
        # moves until it first overrules greedy, so the two battles differ only after that
        ref = {"french": make_bot("greedy", opts), "allied": other} if side == "french" \
            else {"french": other, "allied": make_bot("greedy", opts)}
        rst, _ = play_game(battle, f"{seed}:{i}", ref, cards=CARDS)
        out["greedy_winner"] = rst.outcome.get("winner")
    return out


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10, help="per battle, half on each side")
    ap.add_argument("--bot", default="search", choices=sorted(BOTS))
    ap.add_argument("--vs", default="greedy", choices=sorted(BOTS))
    ap.add_argument("--budget", type=int, default=None, help="search: samples per decision")
    ap.add_argument("--width", type=int, default=None)
    ap.add_argument("--horizon", type=int, default=None)
    ap.add_argument("--max-ms", type=float, default=None)
    ap.add_argument("--prior", type=float, default=None, help="search: greedy's edge")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="search: any attribute (evaluation=material, phases=combat,morale)")
    ap.add_argument("--battles", default=",".join(BATTLES))
    ap.add_argument("--seed", default="strength")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--paired", action="store_true",
                    help="also play each battle with greedy in the bot's seat (same seed)")
    ap.add_argument("--start", type=int, default=0, help="first game index (per battle)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--merge", nargs="+", metavar="JSON", help="report on saved --json runs")
    args = ap.parse_args()
    if args.merge:
        merge(args.merge)
        return
    opts = {"samples": args.budget, "width": args.width, "horizon": args.horizon,
            "max_ms": args.max_ms, "prior": args.prior,
            "set": parse_set(args.set), "paired": args.paired}
    jobs = []
    for battle in args.battles.split(","):
        for i in range(args.start, args.start + args.games):
            side = "french" if i % 2 == 0 else "allied"
            jobs.append((battle, i, args.seed, side, args.bot, args.vs, opts))
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one_game, jobs))
    else:
        results = []
        for job in jobs:
            results.append(one_game(job))
            r = results[-1]  # progress on stderr (--json goes to stdout)
            print(f"  {r['battle']} #{r['game']} {args.bot} {r['side']}: winner "
                  f"{r['winner']} ({r['reason']}, turn {r['turns']})", file=sys.stderr,
                  flush=True)
    wall = time.perf_counter() - start
    summary = summarise(results, {"bot": args.bot, "vs": args.vs, "options": opts,
                                  "seed": args.seed, "wall_seconds": wall})
    if args.json:
        summary["results"] = results  # per game, with its decision times (--merge reads them)
        print(json.dumps(summary))
        return
    report(summary)


def summarise(results: list[dict], head: dict) -> dict:
    """Win rates per battle and side and overall (95 % Wilson), decision times, counters."""
    rows = []
    cells: dict[tuple[str, str], list[dict]] = {}
    for r in results:
        cells.setdefault((r["battle"], r["side"]), []).append(r)
    for (battle, side), rs in sorted(cells.items()):
        k = sum(r["winner"] == side for r in rs)
        lo, hi = wilson(k, len(rs))
        rows.append({"battle": battle, "side": side, "games": len(rs), "wins": k,
                     "rate": k / len(rs), "ci95": [lo, hi],
                     "turns": statistics.mean(r["turns"] for r in rs)})
    k = sum(r["winner"] == r["side"] for r in results)
    lo, hi = wilson(k, len(results))
    times = [t for r in results for t in r.get("times", ())]
    searched = [t for r in results for t in r.get("searched", ())]
    stats: dict[str, int] = {}
    for r in results:
        for key, n in r.get("stats", {}).items():
            stats[key] = stats.get(key, 0) + n

    def spread(xs: list[float]) -> dict:
        return {"n": len(xs), "median": pct(xs, 0.5), "p95": pct(xs, 0.95), "max": pct(xs, 1)}

    paired = [r for r in results if "greedy_winner" in r]
    if paired:
        gw = sum(r["greedy_winner"] == r["side"] for r in paired)
        better = sum(r["winner"] == r["side"] and r["greedy_winner"] != r["side"]
                     for r in paired)
        worse = sum(r["winner"] != r["side"] and r["greedy_winner"] == r["side"]
                    for r in paired)
        # a search that never overruled greedy played greedy's battle (since session 6):
        # the discordant battles split by whether it overruled
        ruled = [r for r in paired if overrules(r)]
        head = {**head, "paired": {"games": len(paired), "greedy_wins": gw,
                                   "bot_won_greedy_lost": better,
                                   "bot_lost_greedy_won": worse,
                                   "overruled_games": len(ruled),
                                   "overruled_better": sum(
                                       r["winner"] == r["side"] != r["greedy_winner"]
                                       for r in ruled),
                                   "overruled_worse": sum(
                                       r["greedy_winner"] == r["side"] != r["winner"]
                                       for r in ruled)}}
    return {**head, "stats": stats, "games": len(results), "wins": k,
            "rate": k / max(1, len(results)), "ci95": [lo, hi], "cells": rows,
            "decision_seconds": {"all": spread(times), "searched": spread(searched),
                                 "timed_games": sum(1 for r in results if "times" in r)}}


def overrules(result: dict) -> int:
    """How many times the search overruled greedy's choice in one battle."""
    return sum(n for key, n in result.get("stats", {}).items() if key.startswith("overruled"))


def report(summary: dict) -> None:
    print(f"{summary['bot']} vs {summary['vs']}, options {summary['options']}, "
          f"seed {summary['seed']!r}")
    print(f"{'battle':12} {'side':7} {'games':>5} {'wins':>5} {'rate':>7}  95 % interval")
    for row in summary["cells"]:
        print(f"{row['battle']:12} {row['side']:7} {row['games']:5} {row['wins']:5} "
              f"{row['rate']:7.1%}  {row['ci95'][0]:.1%}-{row['ci95'][1]:.1%}")
    lo, hi = summary["ci95"]
    print(f"{'all':12} {'':7} {summary['games']:5} {summary['wins']:5} "
          f"{summary['rate']:7.1%}  {lo:.1%}-{hi:.1%}")
    ds = summary["decision_seconds"]
    for name, key in (("all decisions", "all"), ("searched (2+ legal)", "searched")):
        d = ds[key]
        print(f"CPU seconds per decision, {name}: n={d['n']} median {d['median']:.4f} "
              f"p95 {d['p95']:.4f} max {d['max']:.4f} (from {ds['timed_games']} games)")
    pr = summary.get("paired")
    if pr:
        print(f"paired: greedy in the same seat won {pr['greedy_wins']}/{pr['games']}; "
              f"{summary['bot']} won where greedy lost {pr['bot_won_greedy_lost']}, lost "
              f"where greedy won {pr['bot_lost_greedy_won']}")
        if "overruled_games" in pr:
            print(f"paired, the {pr['overruled_games']} battles where {summary['bot']} "
                  f"overruled greedy: won where greedy lost {pr['overruled_better']}, lost "
                  f"where greedy won {pr['overruled_worse']}")
    print(f"search counters: {summary['stats']}")
    if summary.get("wall_seconds") is not None:
        print(f"wall {summary['wall_seconds']:.0f} s")


def merge(paths: list[str]) -> None:
    """One report from several ``--json`` runs (e.g. the battles split across processes,
    or ``--start`` ranges); each game counted once."""
    games: dict[tuple, dict] = {}
    head: dict = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for r in data["results"]:
            games[r["battle"], r["game"]] = r
        head = {k: data[k] for k in ("bot", "vs", "options", "seed")}
    report(summarise(list(games.values()), {**head, "wall_seconds": None}))

if __name__ == "__main__":
    main()
