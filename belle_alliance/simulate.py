"""Bot against bot through the game module, as the game service plays it (its dice
``GAME.dice(seed, seq)`` and the bots' ``GAME.bot_rng(seed, seq)``): ``manage.py
belle_alliance simulate``. Game ``i`` has the seed ``start + i``; the French bot plays the
French in every game (the game is not symmetric). The balance figures of the README come
from ``bench/belle_alliance_balance.py`` (the engine's own dice, shards, summaries)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from .engine import CardData
from .loader import edition
from .module import GAME

TURN_CAP = 500  # a guard: the rules have no turn limit and every house action progresses


def play(seed: int, bots: dict[str, Any], cards: CardData) -> dict[str, Any]:
    """One game: its outcome (``winner``, ``reason``, ``turn``) and the decisions made."""
    st = GAME.setup(seed, {}, cards)
    seq = 0
    while (side := GAME.to_move(st)) is not None and st.turn <= TURN_CAP:
        legal = GAME.legal_actions(st, side)
        bot = bots[side]
        seen = GAME.view(st, side) if bot.needs_view else None
        action = bot.choose(seen, legal, GAME.bot_rng(seed, seq))
        seq += 1
        GAME.apply(st, action, GAME.dice(seed, seq), legal=legal)
    out = GAME.outcome(st) or {"winner": None, "reason": "turn cap", "turn": st.turn}
    return {**out, "actions": seq}


def match(french: str, allied: str, games: int, cards: CardData | None = None,
          start: int = 0) -> dict[str, Any]:
    """``games`` games of bot ``french`` against bot ``allied`` (``random``, ``greedy``,
    ``expectimax``): wins per side, the endings, the turns the games lasted."""
    cards = cards or edition()
    wins: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    turns: list[int] = []
    started = time.process_time()
    for g in range(start, start + games):
        out = play(g, {"french": GAME.bot(french, cards), "allied": GAME.bot(allied, cards)},
                   cards)
        wins[out["winner"] or "none"] += 1
        reasons[f"{out['winner']}: {out['reason']}"] += 1
        turns.append(int(out["turn"]))
    turns.sort()
    return {"games": games, "french": french, "allied": allied, "edition": cards.edition,
            "wins": {"french": wins["french"], "allied": wins["allied"],
                     "none": wins["none"]},
            "reasons": dict(reasons.most_common()),
            "turns": {"mean": round(sum(turns) / games, 2), "median": turns[games // 2],
                      "min": turns[0], "max": turns[-1]} if games else {},
            "cpu_seconds": round(time.process_time() - started, 2)}
