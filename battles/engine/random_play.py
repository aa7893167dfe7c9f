"""play_random: a whole battle of uniformly random legal actions (property tests, benches)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .board import SIDES
from .cards import CardTable
from .dice import SeededDice
from .engine import apply
from .legal import legal_actions
from .state import SIMULATION_TURN_CAP, State, below, is_over, new_battle


@dataclass
class RandomGame:
    state: State
    actions: list[dict] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    steps: int = 0


def play_random(battle: str, seed: int | str, *, settings: dict[str, Any] | None = None,
                decks: dict[str, list[int]] | None = None, record: bool = False,
                check: bool = False,
                on_step: Callable[[State, dict, list[dict]], object] | None = None,
                cards: CardTable | Iterable[Mapping[str, Any]] | None = None) -> RandomGame:
    """Play ``battle`` to its end choosing uniformly among the legal actions.

    Choices come from ``random.Random("eagles-random:<seed>")`` and dice from
    ``SeededDice(seed)``, so the same arguments replay the same battle. ``on_step(state,
    action, events)`` is called after each action (tests use it for invariants).

    A simulation: the turn cap is SIMULATION_TURN_CAP unless ``settings`` says otherwise
    (``{"turn_cap": None}``: none; random play is then not bounded, RULINGS 5.0-c)."""
    st = new_battle(battle, seed, decks, {"turn_cap": SIMULATION_TURN_CAP, **(settings or {})},
                    cards=cards)
    rng = random.Random(f"eagles-random:{seed}")
    dice = SeededDice(seed)
    game = RandomGame(st)
    while not is_over(st):
        acts = legal_actions(st, SIDES[st.priority])
        a = acts[below(rng, len(acts))]  # rng.randrange(len(acts))
        ev = apply(st, a, dice, check=check)
        game.steps += 1
        if record:
            game.actions.append(a)
            game.events.extend(ev)
        if on_step is not None:
            on_step(st, a, ev)
    return game
