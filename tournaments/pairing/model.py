"""Players, ranking and errors shared by every pairing system (no Django here)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from game import SIDES

FRENCH, ALLIED = SIDES


class PairingError(ValueError):
    """Malformed input (bad JSON shape, unknown ids, ...)."""


class NoValidPairing(PairingError):
    """The field cannot be paired without breaking a hard rule."""


@dataclass
class Player:
    id: str
    rating: float = 0
    points: Fraction = Fraction(0)
    opponents: list[str | None] = field(default_factory=list)
    sides: list[str | None] = field(default_factory=list)
    had_bye: bool = False
    dropped: bool = False
    seed: int | None = None
    tiebreaks: tuple = ()

    @property
    def met(self) -> set[str]:
        return {o for o in self.opponents if o is not None}


def rank_key(p: Player) -> tuple[Fraction, tuple[Any, ...], float, str]:
    """Ranking used everywhere: points, then tiebreaks, then rating (all descending),
    then id (ascending) so that the order is total and deterministic."""
    return (-p.points, tuple(-t for t in p.tiebreaks), -p.rating, p.id)


def ranked(players: list[Player]) -> list[Player]:
    return sorted(players, key=rank_key)


def keep_apart_index(groups: list[list[str]] | None) -> dict[str, set[int]]:
    """Map player id -> indices of the keep-apart groups it belongs to."""
    index: dict[str, set[int]] = {}
    for i, group in enumerate(groups or []):
        for pid in group:
            index.setdefault(pid, set()).add(i)
    return index
