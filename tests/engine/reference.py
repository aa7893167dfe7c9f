"""The test oracle of the engine's fast Combat Phase listing: ``reference_combat_actions``,
the Combat Phase main step spelled out rule by rule.

``battles.engine.legal.combat_actions`` is one flat, cached function (issue 14); this is the
readable specification it must agree with, action for action and in the same order
(``test_fast_engine.py``, ``test_golden_replays.py``). It lives with the tests: the engine
never calls it.
"""

from __future__ import annotations

from battles.engine.board import SIDES
from battles.engine.combat import fire_targets, shock_targets
from battles.engine.legal import decoy_actions, terrain_action
from battles.engine.moves import move_actions, occupy_options, over_limits, second_from_reserve
from battles.engine.queries import Field, is_decoy
from battles.engine.specials import playable, special_actions
from battles.engine.state import FORMATIONS, Piece, State


def reference_combat_actions(st: State, idx: Field, s: int) -> list[dict]:
    """The Combat Phase main step spelled out rule by rule (the readable specification of
    ``combat_actions``, which must list the same actions in the same order)."""
    side = SIDES[s]
    out: list[dict] = []
    for p in st.pieces.values():
        if p.side == s:
            out.extend(piece_actions(st, idx, s, p))
    seen = set()
    for num in st.reserve[s]:
        if num in seen:
            continue
        seen.add(num)
        c = st.cards[num]
        if not playable(st, s, num):
            if second_from_reserve(st, s, num) is not None:  # RULINGS 8.2-b/8.3
                out.extend(move_actions(st, idx, s, c, None, {"card": num}))
            continue
        if c.troop or c.kind == "general":
            out.extend(move_actions(st, idx, s, c, None, {"card": num}))
        elif c.kind == "terrain":
            t = terrain_action(st, idx, s, num, deploying=False)
            if t:
                out.append(t)
        if st.settings.get("decoys") and not c.troop:
            out.extend(decoy_actions(st, idx, s, num, "decoy"))
    out.extend(special_actions(st, idx, s))
    out.append({"type": "end_phase", "side": side})
    if over_limits(st, idx, s):
        # RULINGS 8.4-a: over a limit, movement is not completed: only moves
        out = [a for a in out if a["type"] == "move"]
    return out


def piece_actions(st: State, idx: Field, s: int, p: Piece) -> list[dict]:
    """One piece's actions in the Combat Phase main step: its moves, fire and shock (7.0),
    a change of formation (9.0) and occupying terrain (11.0)."""
    c = st.cards[p.num]
    side = SIDES[s]
    out = move_actions(st, idx, s, c, p, {"piece": p.pid}) if (
        c.troop or c.kind == "general" or is_decoy(st, p)) else []
    if not c.troop or is_decoy(st, p):
        return out
    for t in fire_targets(st, idx, p):
        out.append({"type": "fire", "side": side, "piece": p.pid, "target": t.pid})
    if c.kind in ("infantry", "cavalry"):
        for t in shock_targets(st, idx, p):
            out.append({"type": "shock", "side": side, "piece": p.pid, "target": t.pid})
    if p.fired:
        return out
    if c.kind == "infantry":
        # 9.0 engaged infantry spend their Move; unengaged ones change freely (once a turn)
        if (p.moves == 0) if idx.eng[p.place] else not p.formed:
            for fi, name in enumerate(FORMATIONS):
                if fi != p.form:
                    out.append({"type": "change_formation", "side": side, "piece": p.pid,
                                "formation": name})
    if p.moves == 0 and not p.occ:
        for tid in occupy_options(st, idx, s, c, p.place):
            out.append({"type": "occupy", "side": side, "piece": p.pid, "terrain": tid})
    return out
