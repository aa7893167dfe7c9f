"""legal_actions(state, side): every action a side may take now, in a fixed order."""

from __future__ import annotations

from .board import PLACE_NAMES, SIDE_INDEX, SIDES, front, position_of, positions, reserve
from .combat import fire_targets, shock_targets
from .moves import cos_barred, move_actions, occupy_options
from .queries import engaged, general_at, index, is_decoy, stack
from .specials import playable, special_actions
from .state import FORMATIONS, Piece, State


def legal_actions(st: State, side: str) -> list[dict]:
    s = SIDE_INDEX[side]
    if st.outcome is not None or st.priority != s:
        return []
    idx = index(st)
    phase, step = st.phase, st.step
    if phase == "deploy":
        return deploy_actions(st, idx, s)
    if step == "response":
        return special_actions(st, idx, s) + [{"type": "pass", "side": side}]
    if phase == "morale":
        return special_actions(st, idx, s) + [{"type": "roll_morale", "side": side}]
    if phase == "reinforce":
        return special_actions(st, idx, s) + [{"type": "end_turn", "side": side}]
    # combat phase, main step
    if st.transit:
        p = st.pieces[st.transit]
        return move_actions(st, idx, s, st.cards[p.num], p, {"piece": p.pid})
    out: list[dict] = []
    for p in st.pieces.values():
        if p.side == s:
            out.extend(piece_actions(st, idx, s, p))
    seen = set()
    for num in st.reserve[s]:
        if num in seen or not playable(st, s, num):
            continue
        seen.add(num)
        c = st.cards[num]
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
    return out


def piece_actions(st: State, idx: list[list[Piece]], s: int, p: Piece) -> list[dict]:
    c = st.cards[p.num]
    side = SIDES[s]
    out = move_actions(st, idx, s, c, p, {"piece": p.pid}) if (c.troop or c.kind == "general"
                                                               ) else []
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
            for f, name in enumerate(FORMATIONS):
                if f != p.form:
                    out.append({"type": "change_formation", "side": side, "piece": p.pid,
                                "formation": name})
    if p.moves == 0 and not p.occ:
        for t in occupy_options(st, idx, s, c, p.place):
            out.append({"type": "occupy", "side": side, "piece": p.pid, "terrain": t})
    return out


def terrain_action(st: State, idx: list[list[Piece]], s: int, num: int, deploying: bool
                   ) -> dict | None:
    """4.2/11.0: Terrain only in its own battle and printed Position, only in a friendly
    unengaged Position, face-up; a River goes to the Middle Ground in front (11.3)."""
    c = st.cards[num]
    if c.tbattle != st.battle or c.tpos is None:
        return None
    pos = position_of(s, c.tpos)
    if not deploying and engaged(st, idx[pos]):
        return None
    return {"type": "play_terrain", "side": SIDES[s], "card": num}


def decoy_actions(st: State, idx: list[list[Piece]], s: int, num: int, kind: str
                  ) -> list[dict]:
    """14.0: a General, Special or Terrain face-down in an unengaged own Position."""
    out = []
    for pos in positions(s):
        if engaged(st, idx[pos]) or stack(st, idx[pos], s) >= 4:
            continue
        out.append({"type": kind, "side": SIDES[s], "card": num, "to": PLACE_NAMES[pos]})
    return out


def deploy_actions(st: State, idx: list[list[Piece]], s: int) -> list[dict]:
    """4.1 Battle Deployment: 1-4 face-down cards per Position; Generals and Terrain face-up
    beyond the limit."""
    side = SIDES[s]
    out: list[dict] = []
    seen = set()
    for num in st.reserve[s]:
        if num in seen:
            continue
        seen.add(num)
        c = st.cards[num]
        if c.army == "prussian" and not st.prussians:
            continue
        if c.troop:
            for pos in positions(s):
                if stack(st, idx[pos], s) >= 4:
                    continue
                a = {"type": "deploy", "side": side, "card": num, "to": PLACE_NAMES[pos]}
                out.append(a)
                for t in occupy_options(st, idx, s, c, pos):
                    out.append({**a, "occupy": t})
        elif c.kind == "general":
            if cos_barred(st, c):
                continue
            for pos in positions(s):
                if general_at(st, idx[pos], s) is None:
                    out.append({"type": "deploy", "side": side, "card": num,
                                "to": PLACE_NAMES[pos]})
        elif c.kind == "terrain":
            t = terrain_action(st, idx, s, num, deploying=True)
            if t:
                out.append(t)
        if st.settings.get("decoys") and not c.troop:
            out.extend(decoy_actions(st, idx, s, num, "decoy"))
    can_deploy = any(a["type"] == "deploy" for a in out)
    out.extend(special_actions(st, idx, s))
    if deployment_complete(st, idx, s, can_deploy):
        out.append({"type": "deployment_done", "side": side})
    return out


def deployment_complete(st: State, idx: list[list[Piece]], s: int, can_deploy: bool) -> bool:
    """4.1: at least one card in each Position, unless nothing more can be deployed
    (RULINGS 4.1-b)."""
    if all(any(q.side == s for q in idx[pos]) for pos in positions(s)):
        return True
    return not can_deploy


def terrain_place(st: State, s: int, num: int) -> int:
    c = st.cards[num]
    pos = position_of(s, c.tpos)
    return front(pos) if c.tclass == "river" else pos


__all__ = ["legal_actions", "reserve"]
