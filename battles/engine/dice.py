"""Dice are explicit chance inputs (ARCHITECTURE: dice are inputs, not hidden globals).

``apply(state, action, dice)`` takes any iterable of ints 1-6 and pulls exactly the dice the
action needs, one ``next()`` per die, in a fixed order. In play, ``SeededDice(seed)`` is an
endless stream from a seeded ``random.Random``; tests pass a list of forced values.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from .rolls import Roller  # noqa: F401  (re-exported: apply's dice, compiled there)


class SeededDice:
    """An endless, reproducible stream of d6 rolls. ``used`` counts the dice drawn so far."""

    __slots__ = ("_rng", "used", "seed")

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._rng = random.Random(f"eagles-dice:{seed}")
        self.used = 0

    def __iter__(self) -> Iterator[int]:
        return self

    def __next__(self) -> int:
        self.used += 1
        # self._rng.randint(1, 6), the same draws without randint's three Python frames
        # (CPython: 1 + _randbelow(6), i.e. 3-bit draws until one is below 6).
        r = self._rng.getrandbits(3)
        while r >= 6:
            r = self._rng.getrandbits(3)
        return r + 1
