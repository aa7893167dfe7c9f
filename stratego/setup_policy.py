"""The computer's own set-up (issue 26): where a bot places its army, from its side's view
only, deterministic from the bot's random stream (``rng``: the module's ``bot_rng``).

The rulebook gives the set-up's rules (001 §6: "any open square on the four bottom rows",
"a maximum of 10 pieces in reserve", "Commanders and Commanders in Chief must ALWAYS be
placed on the board!"; Expert: Hougoumont "occupied by two Allied Infantry pieces", R35) and
the pieces' powers it is built on; the plan itself is ours (a policy, not a rule):

- **Lanes.** One column in each sector (left, centre, right: 001 §3) is left empty on the
  front two set-up rows: cavalry beside a lane can move, a gun behind one has a field of
  fire, and the army can march out.
- **Guns with a field of fire.** Artillery "fires straight ahead up to 3 empty squares"
  (001 §4): first on the hill in one's own rows (Standard and Expert: it fires over pieces,
  +1 range, R25), then on the front row away from the edges and from each other (a gun's
  flanks are its weakness: R9, flanked by infantry), then behind a lane (the two emptied
  squares and the first middle row: three empty squares). A gun with no such square is
  kept in reserve. Never on mud (001 §14: "Artillery can't move onto a mud tile!").
- **Strong pieces forward.** The strongest heavy cavalry (it charges across the empty middle
  rows) and the strongest infantry take the front row; light cavalry goes beside the lanes,
  where it can move; no cavalry on mud.
- **Commanders protected.** The commander-in-chief on the back row and the commanders on
  the row before it, in the central columns away from the lanes: every square next to them
  holds one of their own pieces at the start.
- **Reserves as the rules allow.** The army fills every square but the lanes; what does not
  fit (the weakest first: light infantry of 1, then line infantry) stays in reserve, never
  more than 10 and never a commander (001 §6).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .engine.board import COLS, HOME_ROWS

Placement = dict[str, list[int]]

MAX_RESERVE = 10  # 001 §6
INFANTRY = ("light_infantry", "line_infantry")
CAVALRY = ("light_cavalry", "heavy_cavalry")
COMMANDERS = ("commander", "commander_in_chief")
# Lane candidates, one pair in each sector's four columns, away from the board's edges
# (ours).
LANE_CHOICES = ((1, 2), (5, 6), (9, 10))


def _rows_front_to_back(side: str) -> list[int]:
    rows = list(HOME_ROWS[side])
    return rows if side == "allied" else rows[::-1]


def _tile_squares(view: dict[str, Any], kind: str, name: str | None = None
                  ) -> list[tuple[int, int]]:
    return [(c, r) for t in view.get("terrain") or () if t["kind"] == kind
            and (name is None or t["name"] == name) and not t.get("destroyed")
            for c, r in t["squares"]]


def lanes(rng: random.Random) -> list[int]:
    """One empty column in each sector (the sectors' columns: ``board.SECTOR_COLUMNS``)."""
    return sorted(rng.choice(cols) for cols in LANE_CHOICES)


def plan(view: dict[str, Any], rng: random.Random) -> Placement:
    """The placement of the viewer's army: ``{piece id: [col, row]}`` (the rest in reserve)."""
    me = str(view["viewer"])
    pieces = list(view["sides"][me]["reserve"])
    rows = _rows_front_to_back(me)  # rows[0]: the front set-up row, rows[3]: the back row
    lane_cols = lanes(rng)
    # squares where cavalry, commanders and guns may not stand or are stuck: mud (001 §14)
    # and a building laid in the set-up rows (001 §10; R43); infantry takes them
    mud = {(c, r) for c, r in (view.get("options") or {}).get("mud", ())}
    mud |= set(_tile_squares(view, "building"))
    free = {(c, r) for r in rows for c in range(COLS)}
    free -= {(c, r) for c in lane_cols for r in rows[:2]}
    if view.get("mode") == "expert" and me == "allied":
        free -= set(_tile_squares(view, "building", "hougoumont"))  # the garrison's (R35)
    placement: Placement = {}
    # tie-breaks between equal pieces come from the bot's stream
    order = {p["id"]: rng.random() for p in pieces}
    sq_order = {s: rng.random() for s in free}

    def strength(p: dict[str, Any]) -> int:
        return int(p["strength"] or 0)

    def take(p: dict[str, Any], square: tuple[int, int]) -> None:
        placement[p["id"]] = [square[0], square[1]]
        free.discard(square)
        pieces.remove(p)

    def of(*types: str) -> list[dict[str, Any]]:
        return sorted((p for p in pieces if p["type"] in types),
                      key=lambda p: (-strength(p), order[p["id"]]))

    def centre_first(squares: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        return sorted(squares, key=lambda s: (abs(s[0] - 5.5), sq_order.get(s, 0.0)))

    # R35 (Expert, Allied): two infantry garrison Hougoumont; the weakest line infantry go.
    if view.get("mode") == "expert" and me == "allied":
        keep = _tile_squares(view, "building", "hougoumont")
        keep.sort(key=lambda s: (abs(s[1] - rows[0]), s[0]))
        garrison = sorted(of(*INFANTRY), key=lambda p: (p["type"] != "line_infantry",
                                                         strength(p), order[p["id"]]))
        for p, s in zip(garrison[:2], keep[:2], strict=False):
            take(p, s)

    # The reserve: what does not fit, the weakest first (never a commander).
    guns = of("artillery")
    hill = [s for s in _tile_squares(view, "hill") if s in free and s not in mud]
    hill.sort(key=lambda s: rows.index(s[1]))
    front = [(c, rows[0]) for c in range(1, COLS - 1) if (c, rows[0]) in free
             and (c, rows[0]) not in mud and (c, rows[0]) not in hill]
    front_guns: list[tuple[int, int]] = []
    for s in centre_first(front):
        if len(front_guns) == 3:
            break
        if all(abs(s[0] - g[0]) > 1 for g in front_guns) and all(
                abs(s[0] - lane) > 1 for lane in lane_cols):
            front_guns.append(s)
    behind = [(c, rows[2]) for c in lane_cols if (c, rows[2]) not in mud]
    gun_squares = list(dict.fromkeys(hill[:2] + front_guns + behind))
    spare_guns = guns[len(gun_squares):]
    capacity = len(free)
    weakest = sorted((p for p in pieces if p["type"] in INFANTRY),
                     key=lambda p: (p["type"] != "light_infantry", strength(p), order[p["id"]]))
    over = max(0, len(pieces) - capacity)
    reserve = spare_guns[:MAX_RESERVE]
    reserve += weakest[:max(0, min(MAX_RESERVE - len(reserve), over - len(reserve)))]
    for p in reserve:
        pieces.remove(p)

    for p, s in zip(guns[:len(gun_squares)], gun_squares, strict=False):
        take(p, s)

    # Commanders: the commander-in-chief on the back row, the commanders on the row before,
    # central columns, with no lane beside them.
    def guarded(row: int) -> tuple[int, int]:
        best = centre_first((c, row) for c in range(2, COLS - 2) if (c, row) in free
                            and (c, row) not in mud and all(abs(c - lane) > 1
                                                            for lane in lane_cols))
        return (best or centre_first(s for s in free if s[1] in rows[2:]) or
                centre_first(free))[0]

    for p in of("commander_in_chief"):
        take(p, guarded(rows[3]))
    for p in of("commander"):
        take(p, guarded(rows[2]))

    # Strong pieces forward: the strongest heavy cavalry (up to three) on the front row.
    front_free = [s for s in centre_first(s for s in free if s[1] == rows[0]) if s not in mud]
    for p, s in zip(of("heavy_cavalry")[:3], front_free, strict=False):
        take(p, s)
    # Cavalry where it can move: beside a lane on the first two rows, then any square with
    # the open middle ahead (the front row).
    beside = [(c, r) for r in rows[:2] for c in range(COLS) if (c, r) in free
              and (c, r) not in mud and any(abs(c - lane) == 1 for lane in lane_cols)]
    beside += [s for s in centre_first(free) if s[1] == rows[0] and s not in beside
               and s not in mud]
    for p, s in zip(of(*CAVALRY), beside, strict=False):
        take(p, s)
    # The rest, strongest forward: front row first, light infantry last (the back row).
    rest = sorted(pieces, key=lambda p: (p["type"] == "light_infantry", -strength(p),
                                         order[p["id"]]))
    # the squares beside a commander first (a short army leaves gaps: not there), then
    # front to back; cavalry avoids the mud
    chiefs = [tuple(placement[p["id"]]) for p in view["sides"][me]["reserve"]
              if p["type"] in COMMANDERS and p["id"] in placement]
    squares = sorted(free, key=lambda s: (
        all(abs(s[0] - c) + abs(s[1] - r) != 1 for c, r in chiefs), rows.index(s[1]),
        s in mud, abs(s[0] - 5.5), sq_order[s]))
    ahead = rows[0] + (rows[0] - rows[1])  # the first middle row
    open_ = {(c, r) for c in lane_cols for r in rows[:2]} | {(c, ahead) for c in range(COLS)}

    def fits(p: dict[str, Any], s: tuple[int, int]) -> bool:
        if p["type"] not in CAVALRY:
            return True
        return s not in mud and any((s[0] + dc, s[1] + dr) in open_
                                    for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)))

    kept = len(reserve)
    for p in rest:
        left = [s for s in squares if s in free]
        square = next((s for s in left if fits(p, s)), None)
        if square is None and kept < MAX_RESERVE:
            kept += 1  # cavalry with nowhere to move waits in reserve, while room is left
            continue
        take(p, square or left[0])
    return placement
