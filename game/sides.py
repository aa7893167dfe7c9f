"""The two sides: the French, and the Allies (the British and the Prussian armies; intro)."""

from __future__ import annotations

SIDES: tuple[str, ...] = ("french", "allied")
SIDE_NAMES: dict[str, str] = {"french": "French", "allied": "Allied"}
ARMY_SIDE: dict[str, int] = {"french": 0, "british": 1, "prussian": 1}  # index into SIDES


def side_of(army: str) -> str:
    """``"french"`` or ``"allied"``; KeyError for an unknown army."""
    return SIDES[ARMY_SIDE[army]]


def other_side(side: str) -> str:
    """The side facing ``side``; KeyError for an unknown side."""
    return _OTHER[side]


_OTHER: dict[str, str] = {SIDES[0]: SIDES[1], SIDES[1]: SIDES[0]}
