"""What a piece may do on the board (001 §4, §7, §8): its moves, attacks, fire and rest."""

from __future__ import annotations

from typing import Any

from .board import FORWARD, NEIGHBOURS, RAYS, STEPS, to_pair
from .combat import fire_targets
from .pieces import CAVALRY, INFANTRY_MOVE
from .state import Piece, State
from .terrain import may_enter, mud

Action = dict[str, Any]


MUD_SLOWED = CAVALRY | {"line_infantry"}  # 001 §14: 'Infantry, Cavalry and Commander pieces'


def walk(st: State, start: int, reach: int, p: Piece | None = None,
         stuck: frozenset[int] = frozenset()) -> dict[int, int]:
    """Empty squares within ``reach`` orthogonal steps through empty squares (001 §7: 'pieces
    cannot jump over other pieces'; §4: 'This need not be in a straight line'), by distance;
    the start itself at 0. A square of ``stuck`` (mud, R42) may be entered, not crossed."""
    dist = {start: 0}
    frontier = [start]
    for d in range(1, reach + 1):
        nxt = []
        for s in frontier:
            for n in NEIGHBOURS[s]:
                if n not in dist and n not in st.board and (p is None or may_enter(st, p, n)):
                    dist[n] = d
                    if n not in stuck:
                        nxt.append(n)
        frontier = nxt
    return dist


def mud_steps(p: Piece) -> list[tuple[int, int]]:
    """R42: out of the mud 'one space ahead, to the left or right' (not back)."""
    return [(dc, dr) for dc, dr in STEPS if dr != -FORWARD[p.side]]


def in_mud_actions(st: State, p: Piece) -> list[Action]:
    """001 §14: 'When these pieces move through the mud, they will only be allowed to move
    one space ahead, to the left or right for every action' (R42: a move or an attack of one
    square, not backwards)."""
    assert p.square is not None
    here = to_pair(p.square)
    out: list[Action] = []
    col, row = p.square % 12, p.square // 12
    for dc, dr in mud_steps(p):
        c, r = col + dc, row + dr
        if not (0 <= c < 12 and 0 <= r < 10):
            continue
        n = r * 12 + c
        other = st.at(n)
        if other is None:
            if may_enter(st, p, n):
                out.append({"type": "move", "side": p.side, "from": here, "to": to_pair(n)})
        elif other.side != p.side and (p.type not in CAVALRY or may_enter(st, p, n)):
            out.append({"type": "attack", "side": p.side, "from": here, "via": here,
                        "target": to_pair(n)})
    return out


def piece_actions(st: State, p: Piece) -> list[Action]:
    """Every move, attack and fire of ``p`` (on the board, its side to act)."""
    assert p.square is not None
    side = p.side
    here = to_pair(p.square)
    out: list[Action] = []
    stuck = mud(st) if "mud" in st.options and p.type in MUD_SLOWED else frozenset()
    if p.square in stuck:
        out = in_mud_actions(st, p)
        if p.type == "heavy_cavalry" and p.weakened and st.half >= p.charged_at + 2:
            out.append({"type": "rest", "side": side, "from": here})
        return out
    if p.type in CAVALRY:
        # 001 §4: cavalry moves 'as long as the spaces in between are vacant - though only in
        # one single direction per action'; it may attack the first piece in that line.
        board = st.board
        flat = st.mode == "basic"
        for ray in RAYS[p.square]:
            last = p.square
            for s in ray:
                if not flat and not may_enter(st, p, s):
                    break  # 001 §10: cavalry 'cannot enter nor attack a building tile'
                other_id = board.get(s)
                if other_id is None:
                    out.append({"type": "move", "side": side, "from": here, "to": to_pair(s)})
                    last = s
                    if s in stuck:
                        break  # R42: into the mud, and no further
                    continue
                if st.pieces[other_id].side != side:
                    out.append({"type": "attack", "side": side, "from": here,
                                "via": to_pair(last), "target": to_pair(s)})
                break
        if p.type == "heavy_cavalry" and p.weakened and st.half >= p.charged_at + 2:
            # 001 §4: off the board to regain strength, 'AFTER the opponent has had the
            # opportunity to counter charge at least once'; it costs no action.
            out.append({"type": "rest", "side": side, "from": here})
        return out
    reach = INFANTRY_MOVE[p.type]
    dist = walk(st, p.square, reach, p if p.type == "artillery" else None, stuck)
    for s, d in sorted(dist.items()):
        if d:
            out.append({"type": "move", "side": side, "from": here, "to": to_pair(s)})
    if p.type == "artillery":
        # R9: artillery does not attack by moving; it fires (001 §4).
        for target, building in fire_targets(st, p):
            out.append({"type": "fire", "side": side, "from": here, "target": to_pair(target),
                        **({"building": building} if building else {})})
        return out
    seen: set[tuple[int, int]] = set()
    for s, d in sorted(dist.items()):
        if d >= reach or s in stuck:
            continue  # R42: a piece that enters the mud stops there
        for n in NEIGHBOURS[s]:
            if (s, n) in seen:
                continue
            other = st.at(n)
            if other is not None and other.side != side:
                seen.add((s, n))
                out.append({"type": "attack", "side": side, "from": here, "via": to_pair(s),
                            "target": to_pair(n)})
    return out
