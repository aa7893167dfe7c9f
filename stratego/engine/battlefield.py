"""A battlefield of one's own (001 §14; RULINGS R43): the Expert game's setup option
``battlefield``, agreed before set-up, checked here and turned into the state's options.

    {"tiles": {"hougoumont": [col, row], ...},          # where each printed tile lies
     "mud": [[col, row], ...],                          # the two mud tiles (R42)
     "armies": {"french": [piece id, ...], ...}}        # which pieces each army fields

Each key may be left out: a tile not named stays where R6/R33 put it, an army not named
fields all its pieces, no mud is no mud. A ``[col, row]`` is a tile's lower-left square.
Anything that does not fit is refused with a ``ValueError`` saying what and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .board import HOME_ROWS, PRUSSIAN_FLAG, terrain_of, to_pair
from .pieces import PieceTable
from .terrain import Layout, mud_tiles, tile_at

KEYS = ("tiles", "mud", "armies")
ARMIES = ("french", "allied", "prussian")
# 001 §5, R34: each player's army has its commander-in-chief (Napoleon's fall ends the Expert
# game; Wellington's costs two actions): an army without one is no army of these rules.
CHIEF = "commander_in_chief"
GARRISON = 2  # 001 §11, R35: 'occupied by two Allied Infantry pieces'
INFANTRY = ("light_infantry", "line_infantry")


def parse(mode: str, battlefield: object, table: PieceTable) -> dict[str, Any]:
    """The state's options for ``battlefield`` (``tiles``, ``mud``, ``armies``, and
    ``prussians`` False when the Allies field no Prussian), checked."""
    if not isinstance(battlefield, Mapping) or set(battlefield) - set(KEYS):
        raise ValueError('battlefield: {"tiles": {...}, "mud": [...], "armies": {...}} '
                         "(R43), nothing else")
    out: dict[str, Any] = {}
    layout = terrain_of(mode)
    if "tiles" in battlefield:
        out["tiles"] = corners = place_tiles(mode, battlefield["tiles"])
        for name, (c, r) in corners.items():
            layout[name] = (layout[name][0], tile_at([c, r], name))
    if battlefield.get("mud"):
        out["mud"] = mud_tiles(battlefield, layout)
    if "armies" in battlefield:
        out["armies"] = armies = field_armies(mode, battlefield["armies"], table)
        if not armies["prussian"]:
            out["prussians"] = False  # none to come: as when Grouchy holds them (R36)
    return out


def fielded_ids(table: PieceTable, options: Mapping[str, Any]) -> set[str]:
    """The pieces in this battle: every piece of the table, or the armies agreed (R43)."""
    armies = options.get("armies")
    if armies is None:
        return set(table.specs)
    return {pid for ids in armies.values() for pid in ids}


def place_tiles(mode: str, spec: object) -> dict[str, list[int]]:
    """The printed tiles moved: name -> lower-left [col, row]. Each is a tile of this game
    (R6; Plancenoit, R33, in the Expert game), 2 x 2 on the board, over no other tile, off
    the Prussian flag (R5: the Prussians arrive there, cavalry and guns among them, which
    may not stand in a building), and Hougoumont off the French set-up rows (R35: the Allies
    garrison it at their set-up)."""
    printed = terrain_of(mode)
    if not isinstance(spec, Mapping):
        raise ValueError('battlefield tiles: {"hougoumont": [col, row], ...} (R43)')
    unknown = sorted(set(spec) - set(printed))
    if unknown:
        raise ValueError(f"battlefield tiles: no tile {unknown[0]!r} in this game; "
                         f"choose from {', '.join(sorted(printed))} (R6, R33)")
    layout: Layout = {n: t for n, t in printed.items() if n not in spec}
    out: dict[str, list[int]] = {}
    for name in sorted(spec):
        squares = tile_at(spec[name], name)
        if set(squares) & set(PRUSSIAN_FLAG):
            raise ValueError(f"{name} at {spec[name]!r} lies over the Prussian flag (R5)")
        if name == "hougoumont" and {s // 12 for s in squares} & set(HOME_ROWS["french"]):
            raise ValueError(f"hougoumont at {spec[name]!r} lies in the French set-up rows: "
                             "the Allies garrison it at their set-up (R35)")
        out[name] = [squares[0] % 12, squares[0] // 12]
        layout[name] = (printed[name][0], squares)
    taken: dict[int, str] = {}
    for name, (_, squares) in sorted(layout.items()):
        for s in squares:
            if s in taken:
                raise ValueError(f"{name} and {taken[s]} overlap at {to_pair(s)!r}")
            taken[s] = name
    return out


def field_armies(mode: str, spec: object, table: PieceTable) -> dict[str, list[str]]:
    """Which pieces each army fields ("any number of units", 001 §14): a list of the army's
    piece ids (the box's pieces: no piece twice). The French and the Allies field their
    commander-in-chief; in the Expert game the Allies field two infantry pieces at least
    (Hougoumont's garrison, R35). An army not named fields all its pieces."""
    if not isinstance(spec, Mapping) or set(spec) - set(ARMIES):
        raise ValueError('battlefield armies: {"french": [piece id, ...], "allied": [...], '
                         '"prussian": [...]} (R43)')
    out: dict[str, list[str]] = {}
    for army in ARMIES:
        printed = [s.id for s in table.army(army)]
        ids = spec.get(army, printed)
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ValueError(f"battlefield armies: {army}: a list of piece ids")
        wrong = [i for i in ids if i not in printed]
        if wrong:
            raise ValueError(f"battlefield armies: {wrong[0]!r} is not a piece of the "
                             f"{army} army")
        if len(set(ids)) != len(ids):
            raise ValueError(f"battlefield armies: {army}: a piece listed twice (the box "
                             "holds one of each)")
        types = [table[i].type for i in ids]
        if army != "prussian" and CHIEF not in types:
            raise ValueError(f"battlefield armies: the {army} army fields its "
                             "commander-in-chief (001 §5, R34)")
        if (army == "allied" and mode == "expert"
                and sum(t in INFANTRY for t in types) < GARRISON):
            raise ValueError("battlefield armies: the allied army fields two infantry pieces "
                             "at least, Hougoumont's garrison (R35)")
        out[army] = [i for i in printed if i in set(ids)]  # in the table's order
    return out
