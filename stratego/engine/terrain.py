"""The terrain tiles of the Standard and Expert games (001 §10, §12; RULINGS R6, R23-R26,
R33): buildings (Hougoumont, La Haye Sainte/Papelotte), the hill of Mont St Jean, and the
Expert game's village of Plancenoit. A Basic game has no tile: every function here is then
the flat battlefield's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import COLS, NEIGHBOURS, ROWS, from_pair, terrain_of, to_pair
from .pieces import CAVALRY
from .state import Piece, State

Event = dict[str, Any]

BUILDING_STRENGTH = 4  # 001 §10: 'A building has a strength of 4.'
MAX_STRENGTH = 6  # 001 §10: 'Pieces can NEVER be upgraded to more than 6 strength!'
INFANTRY = ("light_infantry", "line_infantry")

Layout = dict[str, tuple[str, tuple[int, ...]]]
_LAYOUTS: dict[tuple[Any, ...], tuple[Layout, dict[int, tuple[str, str]]]] = {}


def tile_squares(col: int, row: int) -> tuple[int, ...]:
    """The four squares of a 2 x 2 tile whose lower-left square is (col, row)."""
    return tuple((row + dr) * COLS + col + dc for dr in (0, 1) for dc in (0, 1))


def _layout(st: State) -> tuple[Layout, dict[int, tuple[str, str]]]:
    """The tiles where they lie: R6 and R33's places, or the players' own (R43:
    ``options["tiles"]``, name -> lower-left [col, row]); with each square's tile."""
    moved = st.options.get("tiles")
    key = (st.mode, *sorted((n, c, r) for n, (c, r) in moved.items())) if moved else (st.mode,)
    hit = _LAYOUTS.get(key)
    if hit is None:
        out = terrain_of(st.mode)
        for name, (c, r) in (moved or {}).items():
            out[name] = (out[name][0], tile_squares(c, r))
        hit = _LAYOUTS[key] = (out, {s: (name, kind) for name, (kind, squares) in out.items()
                                     for s in squares})
    return hit


def tiles(st: State) -> Layout:
    return _layout(st)[0]


def _square_map(st: State) -> dict[int, tuple[str, str]]:
    return _layout(st)[1]


def initial_buildings(mode: str) -> dict[str, dict[str, Any]]:
    return {name: {"damage": 0, "owner": None}
            for name, (kind, _) in terrain_of(mode).items() if kind != "hill"}


def standing(st: State, name: str) -> bool:
    b = st.buildings.get(name)
    return b is not None and b["damage"] < BUILDING_STRENGTH


def building_at(st: State, square: int) -> str | None:
    """The standing building or village on ``square`` (a ruin is open ground: 001 §10 'taken
    off the board')."""
    hit = _square_map(st).get(square)
    if hit is None or hit[1] == "hill" or not standing(st, hit[0]):
        return None
    return hit[0]


def kind_of(name: str, st: State) -> str:
    return tiles(st)[name][0]


def on_hill(st: State, square: int | None) -> bool:
    if square is None:
        return False
    hit = _square_map(st).get(square)
    return hit is not None and hit[1] == "hill"


MUD_TILES = 2  # 001 §1: '2 x Mud tiles'


def mud_tiles(battlefield: object, layout: Layout) -> list[list[int]]:
    """A battlefield of one's own (001 §14, R43): ``{"mud": [[col, row], ...]}``, each the
    lower-left square of a 2 x 2 mud tile, at most two, on the board, over no other tile
    (as ``layout`` lays them) and no other mud. Returns the tiles' squares as pairs (the
    state's ``options["mud"]``)."""
    assert isinstance(battlefield, Mapping)
    corners = battlefield.get("mud", [])
    if not isinstance(corners, list) or len(corners) > MUD_TILES:
        raise ValueError(f"battlefield: at most {MUD_TILES} mud tiles (001 §1)")
    taken = {s for _, squares in layout.values() for s in squares}
    out: list[list[int]] = []
    for corner in corners:
        squares = tile_at(corner, "a mud tile")
        if taken & set(squares):
            raise ValueError(f"a mud tile at {corner!r} lies over another tile")
        taken |= set(squares)
        out += [to_pair(s) for s in squares]
    return out


def tile_at(corner: object, what: str) -> tuple[int, ...]:
    """The squares of a 2 x 2 tile from its lower-left [col, row] (ValueError off the board)."""
    try:
        c0 = from_pair(corner)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None
    col, row = c0 % COLS, c0 // COLS
    if col + 1 >= COLS or row + 1 >= ROWS:
        raise ValueError(f"{what} at {corner!r} runs off the board")
    return tile_squares(col, row)


def mud(st: State) -> frozenset[int]:
    return frozenset(r * COLS + c for c, r in st.options.get("mud", ()))


def may_enter(st: State, p: Piece, square: int) -> bool:
    """001 §10: 'Cavalry pieces cannot enter nor attack a building tile, this includes
    Commanders'; 'Artillery pieces cannot enter a building tile'. 001 §12: cavalry,
    commanders and artillery 'can cross the Plancenoit tile unhindered'. 001 §14: 'Artillery
    can't move onto a mud tile!'"""
    if st.mode == "basic":
        return True
    if p.type == "artillery" and "mud" in st.options and square in mud(st):
        return False
    if p.type not in CAVALRY and p.type != "artillery":
        return True
    name = building_at(st, square)
    return name is None or kind_of(name, st) == "village"


def holder(st: State, name: str) -> str | None:
    """The side holding all four squares of a standing building (R23: 'fortified'), or None."""
    if not standing(st, name):
        return None
    sides = set()
    for s in tiles(st)[name][1]:
        pid = st.board.get(s)
        if pid is None:
            return None
        sides.add(st.pieces[pid].side)
    return sides.pop() if len(sides) == 1 else None


def fortified(st: State, p: Piece) -> bool:
    """001 §10: 'Infantry pieces gain +1 strength when fortified in a building.'"""
    if p.type not in INFANTRY or p.square is None:
        return False
    name = building_at(st, p.square)
    return name is not None and holder(st, name) == p.side


def bonuses(st: State, p: Piece, foe_square: int | None, defending: bool) -> list[str]:
    """What adds to ``p``'s strength in this combat (R23, R25, R28)."""
    if st.mode == "basic" or p.strength is None:
        return []
    out = []
    if fortified(st, p):
        out.append("fortified")
    if (defending and on_hill(st, p.square) and not on_hill(st, foe_square)
            and p.type in (*INFANTRY, *CAVALRY)):
        # 001 §10: 'Infantry pieces and Cavalry pieces on a hill get a +1 strength when
        # attacked by pieces on the ground.'
        out.append("hill")
    if p.spirit_half == st.half:
        out.append("fighting_spirit")  # 001 §11 (R28: for the rest of that turn)
    return out


def combat_strength(st: State, p: Piece, foe_square: int | None, defending: bool) -> int:
    base = p.strength or 0
    extra = len(bonuses(st, p, foe_square, defending))
    return min(MAX_STRENGTH, base + extra) if extra else base


def update_flags(st: State, events: list[Event]) -> None:
    """001 §10: 'Once conquered, an Ownership flag with the flag of the owner, is placed on
    the building' (R24: conquered = all four squares held; the flag stays until the other
    side holds all four)."""
    for name, b in sorted(st.buildings.items()):
        side = holder(st, name)
        if side is not None and b["owner"] != side:
            b["owner"] = side
            events.append({"type": "flag", "building": name, "owner": side})


def bombard(st: State, name: str, events: list[Event]) -> None:
    """001 §10: 'If it is fired on four times it will be completely destroyed and taken off
    the board' (R26)."""
    b = st.buildings[name]
    b["damage"] += 1
    events.append({"type": "building_hit", "building": name, "damage": b["damage"]})
    if b["damage"] >= BUILDING_STRENGTH:
        b["owner"] = None
        events.append({"type": "building_destroyed", "building": name})


def adjoining_in_building(st: State, square: int) -> list[int]:
    """Occupied squares of the same standing building orthogonally next to ``square``."""
    name = building_at(st, square)
    if name is None:
        return []
    return [n for n in NEIGHBOURS[square] if building_at(st, n) == name and n in st.board]


def view_terrain(st: State) -> list[dict[str, Any]]:
    out = []
    for name, (kind, squares) in sorted(tiles(st).items()):
        entry: dict[str, Any] = {"name": name, "kind": kind,
                                 "squares": [to_pair(s) for s in squares]}
        if name in st.buildings:
            b = st.buildings[name]
            entry.update(damage=b["damage"], owner=b["owner"],
                         destroyed=b["damage"] >= BUILDING_STRENGTH,
                         fortified_by=holder(st, name))
        out.append(entry)
    return out
