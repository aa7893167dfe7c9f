"""The computer players: ``random``, ``greedy`` (the best expected position after its own
action) and ``expectimax`` (actions and die faces searched exactly, ``engine.chances``, to a
depth, then the position judged by ``evaluate``; iterative deepening within a CPU-time budget).

Each reads the position from its side's view (``view["position"]``) and the card data it is
built with; ``choose_state`` is the same decision straight from a state (the simulations).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from . import engine
from .engine import CardData, State

Action = dict[str, Any]

# The evaluation's weights (the French point of view; tuned by hand against greedy play).
WEIGHTS = {"morale": 0.55, "casualties": 0.45, "test": 0.6, "prussians": 0.04,
           "reserve": 0.02, "place": 0.03, "scale": 2.2}


def distress(state: State, side: str, w: dict[str, float] = WEIGHTS) -> float:
    """How close ``side``'s army is to routing: morale lost, casualty track filled, and the
    chance of failing the rout test its next casualty would call for."""
    cards = state.cards
    top = 10 - cards.morale_broken_at
    morale = state.morale[side]
    labels = cards.casualty_tracks[side]
    n = len(state.tracks[side])
    d = w["morale"] * (10 - morale) / top + w["casualties"] * n / len(labels)
    if n < len(labels):
        nxt = labels[n]
        if nxt.startswith("RT"):
            mod = max(engine.rout_modifier(state, side), cards.rt_modifier(nxt))
            d += w["test"] * min(1.0, max(0.0, (6 + mod - morale) / 6))
    return d


def evaluate(state: State, w: dict[str, float] = WEIGHTS) -> float:
    """The position's worth to the French, in [-1, 1] (1: a French victory)."""
    if state.winner is not None:
        return 1.0 if state.winner == "french" else -1.0
    prussians = state.cards.card_of_kind("prussians").id
    x = distress(state, "allied", w) - distress(state, "french", w)
    x += w["reserve"] * state.reserve - w["prussians"] * state.markers[prussians]
    x += w["place"] * sum(1 if s == "french" else -1 for s in state.control.values())
    return math.tanh(w["scale"] * x)


def _pick(scored: list[tuple[float, int, Action]], maximise: bool, rng: random.Random
          ) -> Action:
    best = max(v for v, _, _ in scored) if maximise else min(v for v, _, _ in scored)
    ties = [a for v, _, a in scored if abs(v - best) < 1e-9]
    return ties[0] if len(ties) == 1 else rng.choice(ties)


class RandomBot:
    needs_view = False
    name = "random"

    def __init__(self, cards: CardData | None = None) -> None:
        self.cards = cards

    def choose(self, view: dict[str, Any] | None, legal: list[Action], rng: random.Random
               ) -> Action:
        return rng.choice(legal)

    def choose_state(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)


class SearchBot:
    """Expectimax to ``depth`` decisions (a casualty choice costs no depth), within ``budget``
    CPU seconds (``time.process_time``: what it finds does not depend on the machine's load;
    iterative deepening: the deepest finished search decides)."""

    needs_view = True
    name = "expectimax"

    def __init__(self, cards: CardData, depth: int = 2, budget: float = 1.0,
                 evaluate_fn: Callable[[State], float] = evaluate) -> None:
        self.cards = cards
        self.depth = depth
        self.budget = budget
        self.evaluate = evaluate_fn
        self.nodes = 0
        # ``evaluate`` reads only these features: positions that share them share its value
        self._leaf: dict[tuple[Any, ...], float] = {}
        self._prussians = cards.card_of_kind("prussians").id

    def choose(self, view: dict[str, Any] | None, legal: list[Action], rng: random.Random
               ) -> Action:
        assert view is not None
        return self.choose_state(engine.from_json(view["position"], self.cards), legal, rng)

    def choose_state(self, state: State, legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        maximise = state.to_move() == "french"
        deadline = time.process_time() + self.budget
        cache: dict[tuple[Any, int], float] = {}
        best = legal[0]
        for depth in range(1, self.depth + 1):
            try:
                scored = [(self._q(state, a, depth, cache, deadline), i, a)
                          for i, a in enumerate(legal)]
            except TimeoutError:
                break
            best = _pick(scored, maximise, rng)
        return best

    def _q(self, state: State, action: Action, depth: int,
           cache: dict[tuple[Any, int], float], deadline: float) -> float:
        return sum(p * self._value(s, depth - 1, cache, deadline)
                   for p, s in engine.chances(state, action))

    def _value(self, state: State, depth: int, cache: dict[tuple[Any, int], float],
               deadline: float) -> float:
        self.nodes += 1
        if state.winner is not None:
            return 1.0 if state.winner == "french" else -1.0
        choosing = state.pending is not None
        if depth <= 0 and not choosing:
            if self.evaluate is not evaluate:
                return self.evaluate(state)
            f = (state.morale["french"], state.morale["allied"], len(state.tracks["french"]),
                 len(state.tracks["allied"]), state.markers[self._prussians], state.reserve,
                 state.control["plancenoit"], state.control["hougoumont"],
                 state.control["la_haye_sainte"])
            v = self._leaf.get(f)
            if v is None:
                v = self._leaf[f] = evaluate(state)
            return v
        key = (state.key(), depth)
        hit = cache.get(key)
        if hit is not None:
            return hit
        if time.process_time() > deadline:
            raise TimeoutError
        side = state.to_move()
        assert side is not None
        legal = engine.legal_actions(state, side)
        nxt = depth if choosing else depth - 1
        values = [sum(p * self._value(s, nxt, cache, deadline)
                      for p, s in engine.chances(state, a)) for a in legal]
        v = max(values) if side == "french" else min(values)
        cache[key] = v
        return v


class GreedyBot(SearchBot):
    """The best expected position one action ahead (``evaluate``)."""

    name = "greedy"

    def __init__(self, cards: CardData) -> None:
        super().__init__(cards, depth=1, budget=10.0)


BOTS: dict[str, Callable[[CardData], Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expectimax": SearchBot,
}


def get_bot(name: str, cards: CardData) -> Any:
    """A fresh bot by name (``random``, ``greedy``, ``expectimax``); KeyError otherwise."""
    if name not in BOTS:
        raise KeyError(f"unknown bot {name!r}; choose from {', '.join(sorted(BOTS))}")
    return BOTS[name](cards)
