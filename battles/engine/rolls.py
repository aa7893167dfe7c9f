"""The dice an action pulls (``apply``'s ``Roller``), in its own module so that mypyc compiles
it (``dice.py``, with ``SeededDice``, is not compiled): one is made for every action applied."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .errors import DiceExhausted


class Roller:
    """Wraps the caller's dice; validates each value and counts what was used. The dice are
    turned into an iterator at the first roll (most actions roll none)."""

    __slots__ = ("_dice", "_it", "used")

    def __init__(self, dice: Iterable[int] | None) -> None:
        self._dice = dice
        self._it: Any = None
        self.used = 0

    def roll(self) -> int:
        it: Iterator[int] | None = self._it
        if it is None:
            it = self._it = iter(self._dice) if self._dice is not None else iter(())
        try:
            value = next(it)
        except StopIteration:
            raise DiceExhausted(f"the action needs more dice than the {self.used}"
                                " given") from None
        if type(value) is not int or not 1 <= value <= 6:
            raise DiceExhausted(f"a die must be an int 1-6, got {value!r}")
        self.used += 1
        return value

    def rolls(self, n: int) -> list[int]:
        return [self.roll() for _ in range(n)]
