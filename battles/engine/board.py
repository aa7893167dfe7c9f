"""The battlefield (4.0) and its adjacency (Diagram 3, which the text does not include).

Places are small ints. Side 0 is the French, side 1 the Allied army (British and/or
Prussian). Each side has a Reserve and three Positions; the Reserve is adjacent to each of its
side's Positions; each Position is adjacent only to the enemy Position directly facing it
across the Middle Ground (my Left faces the enemy's Right). No lateral or diagonal moves: to
change Position a card goes back through its Reserve. The Middle Ground is not a Position
(4.0); only Rivers lie there (11.3), one "front" per facing pair.

    0 french reserve   1 french left   2 french center   3 french right
    4 allied reserve   5 allied left   6 allied center   7 allied right
    8 front F-L|A-R    9 front F-C|A-C  10 front F-R|A-L
"""

from __future__ import annotations

from typing import Final

from game import ARMY_SIDE
from game import SIDES as _SIDES

# Final: compiled by mypyc, a module constant is a C static instead of a lookup in the
# module's dict at every use (the same in every module of the engine)
SIDES: Final[tuple[str, ...]] = _SIDES
SIDE_INDEX: Final = {side: i for i, side in enumerate(SIDES)}
__all__ = ["ARMY_SIDE", "SIDES", "SIDE_INDEX"]  # and the places below

# (typed as tuples of any length: compiled, a fixed-length tuple is kept unboxed and boxed
# anew, all its items, at every index by a variable or loop over it)
PLACE_NAMES: Final[tuple[str, ...]] = (
    "french_reserve", "french_left", "french_center", "french_right",
    "allied_reserve", "allied_left", "allied_center", "allied_right",
    "front_left", "front_center", "front_right",
)
PLACE_INDEX: Final = {name: i for i, name in enumerate(PLACE_NAMES)}
POSITIONS: Final[tuple[int, ...]] = (1, 2, 3, 5, 6, 7)
FRONTS: Final[tuple[int, ...]] = (8, 9, 10)
_POSITIONS_OF: Final[tuple[tuple[int, ...], ...]] = ((1, 2, 3), (5, 6, 7))
LETTER = {1: "l", 2: "c", 3: "r"}


def reserve(side: int) -> int:
    return 4 * side


def positions(side: int) -> tuple[int, ...]:
    """A side's three Positions, Left to Right."""
    return _POSITIONS_OF[side]


def is_position(place: int) -> bool:
    return 0 < place < 8 and place != 4


def owner(place: int) -> int:
    """The side whose Position (or Reserve) this is."""
    return 0 if place < 4 else 1


def facing(pos: int) -> int:
    """The enemy Position directly across the Middle Ground (my Left faces your Right)."""
    return 8 - pos


def front(pos: int) -> int:
    """The Middle Ground front in front of a Position (where a River lies, 11.3)."""
    return 7 + pos if pos < 4 else 15 - pos


def position_of(side: int, letter: str) -> int:
    """A side's Position from its printed letter (4.2: L, C, R as seen by that side)."""
    return 4 * side + {"l": 1, "c": 2, "r": 3}[letter]
