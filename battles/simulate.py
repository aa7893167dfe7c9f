"""Simulations: N seeded battles between two bots, with win rates and a results digest.

Pure (no Django): ``run(battle, games, seed, french, allied, decks=None)``. Game ``i`` uses the
seed ``f"{seed}:{i}"`` for its setup (decks dealt historically from the catalogue unless given,
shuffles), its dice (``SeededDice``) and each bot's choices (``Random`` per side), so the same
arguments give the same results and the same digest. The digest is the sha256 of the ordered
per-game results as canonical JSON lines.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from battles.bots import Bot, get_bot
from battles.engine import (
    SIDES,
    SIMULATION_TURN_CAP,
    SeededDice,
    apply,
    legal_actions,
    load_cards,
    new_battle,
    view,
)
from cards.catalogue import file as catalogue_file

MAX_STEPS = 200_000  # a runaway bot is a bug: stop it rather than loop forever


class SimulationError(RuntimeError):
    pass


@dataclass
class GameResult:
    game: int
    seed: str
    winner: str | None
    reason: str
    turns: int
    steps: int

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "winner": self.winner,
                "reason": self.reason, "turns": self.turns, "steps": self.steps}


@dataclass
class Summary:
    battle: str
    seed: str
    bots: dict[str, str]
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> dict[str, int]:
        out = {"french": 0, "allied": 0, "draw": 0}
        for r in self.results:
            out[r.winner or "draw"] += 1
        return out

    @property
    def average_turns(self) -> float:
        return sum(r.turns for r in self.results) / self.games if self.results else 0.0

    @property
    def digest(self) -> str:
        return results_digest(self.results)

    def as_dict(self) -> dict[str, Any]:
        wins = self.wins
        return {
            "battle": self.battle, "seed": self.seed, "bots": dict(self.bots),
            "games": self.games, "wins": wins,
            "win_rate": {k: (v / self.games if self.games else 0.0) for k, v in wins.items()},
            "ci95": {k: list(wilson(v, self.games)) for k, v in wins.items()},
            "average_turns": round(self.average_turns, 3),
            "reasons": reasons(self.results),
            "digest": self.digest,
        }


def reasons(results: list[GameResult]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results:
        out[r.reason] = out.get(r.reason, 0) + 1
    return dict(sorted(out.items()))


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95 % Wilson score interval for k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def results_digest(results: list[GameResult]) -> str:
    h = hashlib.sha256()
    for r in results:
        h.update(json.dumps(r.as_dict(), sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()


def play_game(battle: str, seed: str, bots: dict[str, Bot], *,
              decks: dict[str, list[int]] | None = None,
              settings: dict[str, Any] | None = None,
              on_decision: Callable | None = None, cards=None,
              deck_kinds: dict[str, dict[str, Any]] | None = None) -> tuple[Any, int]:
    """One battle to its end; returns (final state, number of actions).

    ``on_decision(state, side, view, legal, action)`` is called before each action.
    ``cards``: card records or table (default: the catalogue data file). The turn cap is
    SIMULATION_TURN_CAP unless ``settings`` sets one (RULINGS 5.0-c). ``deck_kinds``: as
    ``new_battle`` (a custom deck's Muster, 15.0; the matchup lab passes it)."""
    st = new_battle(battle, seed, decks, {"turn_cap": SIMULATION_TURN_CAP, **(settings or {})},
                    cards=catalogue_file.catalogue_records() if cards is None else cards,
                    deck_kinds=deck_kinds)
    dice = SeededDice(seed)
    rngs = {s: random.Random(f"eagles-bot:{seed}:{s}") for s in SIDES}
    steps = 0
    while st.outcome is None:
        side = SIDES[st.priority]
        bot = bots[side]
        legal = legal_actions(st, side)
        # a forced action needs no view for a bot that reads none then (a view is ~15 % of
        # a greedy-vs-greedy battle, and 40 % of its decisions are forced)
        wants = bot.needs_view and (len(legal) > 1 or bot.view_if_forced)
        v = view(st, side) if wants or on_decision else None
        action = bot.choose(v if wants else None, legal, rngs[side])
        if on_decision is not None:
            on_decision(st, side, v, legal, action)
        apply(st, action, dice, check=False)
        steps += 1
        if steps > MAX_STEPS:
            raise SimulationError(f"{battle} game {seed}: no end after {MAX_STEPS} actions")
    return st, steps


def run(battle: str, games: int, seed: int | str, french: str | Bot, allied: str | Bot, *,
        decks: dict[str, list[int]] | None = None, settings: dict[str, Any] | None = None,
        progress: Callable[[int, int], None] | None = None,
        deck_kinds: dict[str, dict[str, Any]] | None = None) -> Summary:
    """Play ``games`` battles; ``progress(done, total)`` after each. ``deck_kinds``: as
    ``new_battle`` (``decks_from_lists`` gives both)."""
    cards = load_cards(catalogue_file.catalogue_records())  # one table for every game
    bots = {"french": get_bot(french, cards) if isinstance(french, str) else french,
            "allied": get_bot(allied, cards) if isinstance(allied, str) else allied}
    summary = Summary(battle, str(seed), {s: bots[s].name for s in SIDES})
    for i in range(games):
        game_seed = f"{seed}:{i}"
        st, steps = play_game(battle, game_seed, bots, decks=decks, settings=settings,
                              cards=cards, deck_kinds=deck_kinds)
        out = st.outcome
        summary.results.append(GameResult(i, game_seed, out.get("winner"), out.get("reason", ""),
                                          int(out.get("turn", st.turn)), steps))
        if progress is not None:
            progress(i + 1, games)
    return summary


def catalogue_records() -> dict[int, dict]:
    """Card number -> catalogue record (cards/data/catalogue.json), for deck-list files."""
    return {int(c["number"]): c for c in catalogue_file.catalogue_records()}


# What a deck-list file is to the CLIs (engine new, simulate): what validate_deck says by
# default, a custom deck (15.0: Muster 50 %); ``dealt``, the pool a 2.0 deck is dealt from
# (validate_deck --pool), mustered by the chart (issue 29).
LIST_KINDS = ("custom", "dealt")


def decks_from_lists(battle: str, seed: int | str, lists: dict[str, list[int]], kind: str,
                     records: dict[int, dict] | None = None
                     ) -> tuple[dict[str, list[int]], dict[str, dict[str, Any]]]:
    """(decks, deck_kinds) for ``new_battle`` from the armies' card lists read by
    ``deck_from_text``: a ``custom`` list is the deck as chosen; a ``dealt`` list is a pool,
    from which D cards are dealt with the seed's deal stream (``{seed}:deal:{army}``, as a
    battle deals), Terrain only this battle's. Raises ValueError (an unknown kind, a pool
    too small to deal)."""
    from decks.rules.deal import deal, pool_cards
    from game import BATTLES_CHART

    if kind not in LIST_KINDS:
        raise ValueError(f"a deck kind is one of {', '.join(LIST_KINDS)}, not {kind!r}")
    if kind == "custom":
        return {a: list(v) for a, v in lists.items()}, {a: {"kind": "custom"} for a in lists}
    records = records if records is not None else catalogue_records()
    decks = {}
    for army, nums in lists.items():
        size = BATTLES_CHART[battle][army].deck
        pool = pool_cards(records, battle, army, nums)
        if len(pool) < size:
            raise ValueError(f"2.0: the {army} pool has {len(pool)} cards for {battle}; a "
                             f"deal needs {size}")
        decks[army] = deal(pool, size, random.Random(f"{seed}:deal:{army}"))
    return decks, {a: {"kind": "dealt", "scale": "1"} for a in decks}


def deck_from_text(text: str | bytes, side: str, records: dict[int, dict] | None = None
                   ) -> dict[str, list[int]]:
    """A side's Battle Deck(s) from a deck-list text (decks/rules/decklist.py format), split
    by army: the French side gives ``{"french": [...]}``, the Allied side ``{"british": ...,
    "prussian": ...}``. Raises ValueError listing every problem."""
    from decks.rules import parse_decklist

    records = records if records is not None else catalogue_records()
    entries, errors = parse_decklist(text, records)
    problems = [str(e) for e in errors]
    armies = ("french",) if side == "french" else ("british", "prussian")
    out: dict[str, list[int]] = {}
    for e in entries:
        army = records[e.number]["army"]
        if army not in armies:
            problems.append(f"#{e.number} {records[e.number]['name']} is a {army} card, not "
                            f"{side}")
            continue
        out.setdefault(army, []).extend([e.number] * e.count)
    if not out and not problems:
        problems.append("the deck list has no cards")
    if problems:
        raise ValueError("; ".join(problems))
    return out
