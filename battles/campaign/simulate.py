"""Whole campaigns between computer players (the ``simulate_campaign`` command, benches)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from battles.engine import SIDES, SIMULATION_TURN_CAP, CardTable, SeededDice, card_table

from .bots import CampaignBot
from .core import Campaign, apply, legal_actions, new_campaign, to_move
from .view import view


def branch_of(c: Campaign) -> str:
    """``first`` (the Allies won both first battles), ``second`` (Wavre and Waterloo) or
    ``charleroi``."""
    if "waterloo" in c.results or "wavre" in c.results or c.phase == "second":
        return "second"
    if "charleroi" in c.results or c.phase == "charleroi":
        return "charleroi"
    return "first"


def play_campaign(seed: int | str, french: str, allied: str,
                  cards: CardTable | Iterable[Mapping[str, Any]] | None, *,
                  turn_cap: int | None = SIMULATION_TURN_CAP,
                  pools: Mapping[str, Iterable[int]] | None = None,
                  on_step: Callable[[Campaign, dict, list], None] | None = None
                  ) -> dict[str, Any]:
    """Play one campaign to its end; a seed replays it (choices from
    ``Random("eagles-campaign-bots:<seed>")``, dice from ``SeededDice(seed)``)."""
    table = card_table(cards)
    c = new_campaign(seed, table, pools, {"turn_cap": turn_cap})
    bots = {"french": CampaignBot(french, table), "allied": CampaignBot(allied, table)}
    rng = random.Random(f"eagles-campaign-bots:{seed}")
    dice = SeededDice(seed)
    steps = 0
    while True:
        turn = to_move(c)
        if turn is None:
            break
        bot = bots[turn["side"]]
        legal = legal_actions(c, turn["side"])
        action = bot.choose(view(c, turn["side"]) if bot.needs_view else None, legal, rng)
        events = apply(c, action, dice)
        steps += 1
        if on_step is not None:
            on_step(c, action, events)
    turns = sum(r["turn"] for r in c.results.values())
    return {"seed": str(seed), "winner": c.winner, "branch": branch_of(c), "steps": steps,
            "turns": turns, "results": {b: dict(r) for b, r in c.results.items()},
            "losses": {"french": len(c.eliminated[0]), "allied": len(c.eliminated[1])}}


def summarize(games: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(games) or 1
    return {
        "games": len(games),
        "wins": {side: sum(g["winner"] == side for g in games) for side in SIDES},
        "branches": {b: sum(g["branch"] == b for g in games)
                     for b in ("first", "second", "charleroi")},
        "mean_turns": round(sum(g["turns"] for g in games) / n, 2),
        "mean_losses": {side: round(sum(g["losses"][side] for g in games) / n, 2)
                        for side in SIDES},
    }
