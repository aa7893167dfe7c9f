"""The board of Stratego: Waterloo as ruled in RULINGS.md (R1-R6): 12 columns by 10 rows.

A square is an int ``row * COLS + col``; outside the engine (actions, events, views) it is a
``[col, row]`` pair. Column 0 is the French player's left (the west), row 0 the French back
row, row 9 the Allied back row. Nothing here is a rule that changes during a game.
"""

from __future__ import annotations

from collections.abc import Sequence

COLS = 12
ROWS = 10
SQUARES = COLS * ROWS

FRENCH = "french"
ALLIED = "allied"
SIDES: tuple[str, str] = (FRENCH, ALLIED)
ARMIES = ("french", "allied", "prussian")

# R2: four set-up rows per side, the two middle rows empty.
HOME_ROWS = {FRENCH: (0, 1, 2, 3), ALLIED: (6, 7, 8, 9)}
BACK_ROW = {FRENCH: 0, ALLIED: 9}
# R4: a piece's front is towards the enemy's back row.
FORWARD = {FRENCH: 1, ALLIED: -1}

# R3: a flank or the centre, as the owner of the lines sees it ("your left flank").
SECTORS = ("left", "centre", "right")
SECTOR_COLUMNS = {
    FRENCH: {"left": (0, 1, 2, 3), "centre": (4, 5, 6, 7), "right": (8, 9, 10, 11)},
    ALLIED: {"left": (11, 10, 9, 8), "centre": (7, 6, 5, 4), "right": (3, 2, 1, 0)},
}

# R5: the Prussian flag, on the Allied left (east) edge of the two middle rows.
PRUSSIAN_FLAG: tuple[int, ...] = (4 * COLS + 11, 5 * COLS + 11)

# R6 (Standard game): the terrain tiles, 2 x 2 squares each.
TERRAIN: dict[str, tuple[str, tuple[int, ...]]] = {
    "hougoumont": ("building", (4 * COLS + 1, 4 * COLS + 2, 5 * COLS + 1, 5 * COLS + 2)),
    "la_haye_sainte": ("building", (4 * COLS + 8, 4 * COLS + 9, 5 * COLS + 8, 5 * COLS + 9)),
    "mont_st_jean": ("hill", (7 * COLS + 5, 7 * COLS + 6, 8 * COLS + 5, 8 * COLS + 6)),
}

# R33 (Expert game): Plancenoit, a village on the French right flank, 2 x 2 in the French
# set-up rows next to the Prussians' road.
PLANCENOIT: tuple[str, tuple[int, ...]] = (
    "village", (2 * COLS + 9, 2 * COLS + 10, 3 * COLS + 9, 3 * COLS + 10))


def terrain_of(mode: str) -> dict[str, tuple[str, tuple[int, ...]]]:
    """The tiles on the board in ``mode``: none in the Basic game (001 §2), R6's three in
    the Standard game, and Plancenoit as well in the Expert game (001 §11)."""
    if mode == "basic":
        return {}
    if mode == "standard":
        return dict(TERRAIN)
    return {**TERRAIN, "plancenoit": PLANCENOIT}


# Orthogonal steps: (dcol, drow).
STEPS: tuple[tuple[int, int], ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))


def other(side: str) -> str:
    return ALLIED if side == FRENCH else FRENCH


def side_of(army: str) -> str:
    """The player commanding ``army``: the Allied player also commands the Prussians."""
    return FRENCH if army == "french" else ALLIED


def sq(col: int, row: int) -> int:
    return row * COLS + col


def col_row(square: int) -> tuple[int, int]:
    return square % COLS, square // COLS


def to_pair(square: int) -> list[int]:
    return [square % COLS, square // COLS]


def from_pair(pair: object) -> int:
    """A ``[col, row]`` from outside as a square; ``ValueError`` when it is not one."""
    if (not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair)):
        raise ValueError(f"not a square: {pair!r}")
    col, row = pair[0], pair[1]
    if not (0 <= col < COLS and 0 <= row < ROWS):
        raise ValueError(f"off the board: {pair!r}")
    return int(row) * COLS + int(col)


def step(square: int, dcol: int, drow: int) -> int | None:
    """The square next to ``square`` in direction (dcol, drow), or None past the edge."""
    col, row = square % COLS + dcol, square // COLS + drow
    if 0 <= col < COLS and 0 <= row < ROWS:
        return row * COLS + col
    return None


def lines_of_retreat(side: str, sector: str) -> tuple[int, ...]:
    """R3: ``side``'s lines of retreat: its back row in the four columns of ``sector``."""
    row = BACK_ROW[side]
    return tuple(sorted(row * COLS + c for c in SECTOR_COLUMNS[side][sector]))


def home_squares(side: str) -> tuple[int, ...]:
    return tuple(r * COLS + c for r in HOME_ROWS[side] for c in range(COLS))


def time_of_turn(turn: int) -> str:
    """The time track: turn 1 starts at 11:00, each turn half an hour (turn 12: 16:30)."""
    minutes = 11 * 60 + 30 * (turn - 1)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _ray(square: int, dcol: int, drow: int) -> tuple[int, ...]:
    out = []
    s: int | None = step(square, dcol, drow)
    while s is not None:
        out.append(s)
        s = step(s, dcol, drow)
    return tuple(out)


# Precomputed geometry (speed): each square's rays in the four STEPS directions, and its
# orthogonal neighbours.
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(s, dc, dr) for dc, dr in STEPS) for s in range(SQUARES))
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r[0] for r in RAYS[s] if r) for s in range(SQUARES))
