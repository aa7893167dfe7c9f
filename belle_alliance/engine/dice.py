"""The dice: an explicit input of every action. ``SeededDice(seed)`` is the endless,
reproducible stream the game service uses (``module.dice(seed, seq)``); tests hand a list."""

from __future__ import annotations

import random
from collections.abc import Iterator


class SeededDice:
    """d6 rolls from a ``random.Random`` seeded with ``seed``; ``used`` counts them."""

    __slots__ = ("_rng", "used", "seed")

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._rng = random.Random(f"belle-alliance-dice:{seed}")
        self.used = 0

    def __iter__(self) -> Iterator[int]:
        return self

    def __next__(self) -> int:
        self.used += 1
        return self._rng.randint(1, 6)
