"""Dice are explicit chance inputs (ARCHITECTURE: dice are inputs, not hidden globals).

``apply(state, action, dice)`` takes any iterable of ints 1-6 and pulls exactly the dice the
action needs, one ``next()`` per die, in a fixed order. In play, ``SeededDice(seed)`` is an
endless stream from a seeded ``random.Random``; tests pass a list of forced values.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from .errors import DiceExhausted


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


class Roller:
    """Wraps the caller's dice; validates each value and counts what was used."""

    __slots__ = ("_it", "rolled")

    def __init__(self, dice: Iterable[int] | None) -> None:
        self._it = iter(dice) if dice is not None else iter(())
        self.rolled: list[int] = []

    def roll(self) -> int:
        try:
            value = next(self._it)
        except StopIteration:
            raise DiceExhausted(f"the action needs more dice than the {len(self.rolled)}"
                                " given") from None
        if type(value) is not int or not 1 <= value <= 6:
            raise DiceExhausted(f"a die must be an int 1-6, got {value!r}")
        self.rolled.append(value)
        return value

    def rolls(self, n: int) -> list[int]:
        return [self.roll() for _ in range(n)]
