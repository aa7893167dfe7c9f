"""Bot against bot, from the command line: ``python -m stratego.simulate --games 200``.

Each game (``--variant basic|standard|expert``): seed = its number, sides alternate (the
first bot is Allied in even games), the bots' turn cap (RULINGS R20).
Prints wins, draws, reasons and complete games per second."""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from game import other_side

from .engine.pieces import PieceTable
from .loader import load_pieces
from .module import GAME
from .players import make_bot


def play(seed: int, bots: dict[str, Any], cap: int, table: PieceTable,
         variant: str = "basic", options: dict[str, Any] | None = None) -> dict[str, Any]:
    opts: dict[str, Any] = {"turn_cap": cap, **(options or {})}
    if variant != "basic":
        opts["variant"] = variant
    st = GAME.setup(seed, opts, table)
    seq = 0
    while (side := GAME.to_move(st)) is not None:
        legal = GAME.legal_actions(st, side)
        bot = bots[side]
        seen = GAME.view(st, side) if bot.needs_view else None
        action = bot.choose(seen, legal, GAME.bot_rng(seed, seq))
        GAME.apply(st, action, GAME.dice(seed, seq), legal=legal if action in legal else None)
        seq += 1
    out = GAME.outcome(st)
    assert out is not None
    return {**out, "actions": seq}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion (draws count half: ``wins``)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(centre - half, 3), round(centre + half, 3))


def match(first: str, second: str, games: int, table: PieceTable | None = None,
          cap: int = 60, variant: str = "basic", budget: float | None = None,
          start: int = 0) -> dict[str, Any]:
    """``games`` games from seed ``start``; ``budget``: the search bot's CPU seconds per
    decision (its default otherwise)."""
    table = table or load_pieces()
    opts = {} if budget is None else {"budget": budget}
    # the same bot on both sides: wins are counted by side
    wins = {"french": 0, "allied": 0, "draw": 0} if first == second else \
        {first: 0, second: 0, "draw": 0}
    reasons: dict[str, int] = {}
    actions = 0
    started = time.perf_counter()
    for g in range(start, start + games):
        a_side = "allied" if g % 2 == 0 else "french"
        b_side = other_side(a_side)
        bots = {a_side: make_bot(first, table, **(opts if first == "search" else {})),
                b_side: make_bot(second, table, **(opts if second == "search" else {}))}
        out = play(g, bots, cap, table, variant)
        winner = out["winner"]
        key = "draw" if winner is None else first if winner == a_side else second
        if first == second and winner is not None:
            key = winner
        wins[key] += 1
        reasons[out["reason"]] = reasons.get(out["reason"], 0) + 1
        actions += out["actions"]
    seconds = time.perf_counter() - started
    score = wins.get(first, 0) + 0.5 * wins["draw"] if first != second else 0.0
    return {"games": games, "wins": wins, "reasons": reasons,
            **({"first_score": round(score / games, 3) if games else None,
                "first_interval": wilson(score, games),
                "first_wins_interval": wilson(wins[first], games)}
               if first != second else {}),
            "seconds": round(seconds, 2),
            "games_per_second": round(games / seconds, 2) if seconds else None,
            "actions": actions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", default="greedy")
    parser.add_argument("--second", default="random")
    parser.add_argument("--cap", type=int, default=60)
    parser.add_argument("--budget", type=float, default=None,
                        help="the search bot's CPU seconds per decision (default 1.0)")
    parser.add_argument("--start", type=int, default=0, help="the first game's seed")
    parser.add_argument("--variant", default="basic", choices=("basic", "standard", "expert"))
    args = parser.parse_args()
    print(match(args.first, args.second, args.games, cap=args.cap, variant=args.variant,
                budget=args.budget, start=args.start))


if __name__ == "__main__":
    main()
