"""Special cards (13.0): when each may be played, where, and what it does, through the
catalogue's closed effect vocabulary (cards/catalogue_rules.py EFFECT_KINDS)."""

from __future__ import annotations

from bisect import insort

from .board import PLACE_NAMES, POSITIONS, SIDES, facing, owner
from .combat import reveal
from .effects import nation_ok, type_ok
from .phases import draw
from .queries import engaged, general_at, is_terrain, rivers
from .state import FORMATIONS, Piece, State

# (phase, step) -> the timing a special needs (catalogue TIMINGS)
WINDOWS = {("deploy", "deploy"): "deployment", ("morale", "specials"): "own_morale",
           ("morale", "response"): "enemy_morale", ("combat", "main"): "own_combat",
           ("combat", "response"): "enemy_combat", ("reinforce", "main"): "own_reinforce"}


def playable(st: State, side: int, num: int) -> bool:
    """10.0: cards drawn this turn wait for the next Battle Turn, except a Special playable on
    an enemy turn; Prussians at Waterloo wait for a Prussian General."""
    c = st.cards[num]
    if c.army == "prussian" and not st.prussians:
        return False
    if c.kind == "special" and c.timing and c.timing.startswith("enemy"):
        return True
    fresh = st.fresh[side]
    return not fresh or st.reserve[side].count(num) > fresh.count(num)


def _own(st: State, idx: list[list[Piece]], side: int, place: int, sc) -> list[Piece]:
    """Own cards at a place the special may aid (type, elite, nationality)."""
    out = []
    for q in idx[place]:
        if q.side != side or is_terrain(st, q):
            continue
        c = st.cards[q.num]
        if type_ok(sc, c) and nation_ok(sc, c):
            out.append(q)
    return out


def base_ok(st: State, idx: list[list[Piece]], side: int, sc, place: int) -> bool:
    mine = [e for e in st.effects if e["side"] == side and e["place"] == place]
    if len(mine) >= 2 or any(e["card"] == sc.num for e in mine):
        return False  # 13.0 at most two different Specials per Position per phase
    r = sc.restrictions
    if not r:
        return True
    if "requires_general" in r and general_at(st, idx[place], side) is None:
        return False
    if "engaged_only" in r and not engaged(st, idx[place]):
        return False
    if "unengaged_only" in r and engaged(st, idx[place]):
        return False
    if "river_present" in r and not rivers(st, idx, place):
        return False
    if "one_per_position" in r and any(e["card"] == sc.num and e["place"] == place
                                       for e in st.effects):
        return False
    if "own_nationals_only" in r:
        # 13.0 only in a Position holding cards of the owning army (and nationality)
        if not any(q.side == side and not is_terrain(st, q) and
                   st.cards[q.num].army == sc.army and
                   (sc.nat is None or st.cards[q.num].nat == sc.nat) for q in idx[place]):
            return False
    if st.battle == "waterloo" and sc.army == "prussian" and place not in (5, 3):
        return False  # 10.0 Prussians only on the British Left / French Right
    return True


def special_actions(st: State, idx: list[list[Piece]], side: int) -> list[dict]:
    window = WINDOWS.get((st.phase, st.step))
    if window is None:
        return []
    out: list[dict] = []
    seen = set()
    for num in st.reserve[side]:
        if num in seen:
            continue
        seen.add(num)
        sc = st.cards[num]
        if sc.kind != "special" or sc.timing != window or st.battle not in sc.battles:
            continue
        if not playable(st, side, num):
            continue
        out.extend(_options(st, idx, side, sc))
    return out


def _act(side: int, num: int, place: int, **extra) -> dict:
    return {"type": "play_special", "side": SIDES[side], "card": num, "at": PLACE_NAMES[place],
            **extra}


def _options(st: State, idx: list[list[Piece]], side: int, sc) -> list[dict]:
    eff = sc.effect
    kind = eff["kind"]
    enemy = eff.get("target") == "enemy"
    out = []
    pend = st.pending
    target_place = st.pieces[pend["target"]].place if pend else None
    if kind == "cancel_special":
        for e in st.effects:
            if e["side"] == side:
                continue
            for place in (e["place"], facing(e["place"])):
                if base_ok(st, idx, side, sc, place):
                    out.append(_act(side, sc.num, place, cancel=e["eid"]))
                    break
        return out
    if kind == "draw_reinforcements":
        if not st.decks.get(sc.army):
            return []
        for place in POSITIONS:
            if base_ok(st, idx, side, sc, place) and ("own_nationals_only" not in
                                                      sc.restrictions or _own(st, idx, side,
                                                                              place, sc)):
                return [_act(side, sc.num, place)]
        return []
    for place in POSITIONS:
        if not base_ok(st, idx, side, sc, place):
            continue
        if kind == "morale_modifier":
            if enemy:
                ok = any(q.side != side and q.hits and type_ok(sc, st.cards[q.num])
                         for q in idx[place])
            else:
                ok = any(q.hits for q in _own(st, idx, side, place, sc))
        elif kind in ("cv_modifier", "firepower_modifier", "shock_modifier"):
            if enemy:
                ok = place == target_place
            else:
                ok = any(st.cards[q.num].troop and not q.fired
                         for q in _own(st, idx, side, place, sc))
        elif kind in ("remove_hits", "rally_routed"):
            ok = any(q.hits for q in _own(st, idx, side, place, sc))
        elif kind == "extra_move":
            ok = bool(_own(st, idx, side, place, sc))
        elif kind == "recover_blown":
            ok = any(q.blown for q in _own(st, idx, side, place, sc))
        elif kind == "ignore_river_limit":
            ok = bool(_own(st, idx, side, place, sc))
        elif kind == "reveal_enemy":
            ok = owner(place) == side and any(q.side != side and not q.up
                                              for q in idx[facing(place)])
        elif kind == "change_formation":
            if window_enemy(st) and place != target_place:
                continue
            infantry = [q for q in _own(st, idx, side, place, sc)
                        if st.cards[q.num].kind == "infantry"]
            for f, name in enumerate(FORMATIONS):
                if any(q.form != f for q in infantry):
                    out.append(_act(side, sc.num, place, formation=name))
            continue
        else:
            ok = False
        if ok:
            out.append(_act(side, sc.num, place))
    return out


def window_enemy(st: State) -> bool:
    return st.step == "response"


def play_special(st: State, side: int, a: dict, events: list[dict]) -> None:
    from .board import PLACE_INDEX
    from .queries import index

    num = a["card"]
    sc = st.cards[num]
    place = PLACE_INDEX[a["at"]]
    st.reserve[side].remove(num)
    if st.fresh[side].count(num) > st.reserve[side].count(num):
        st.fresh[side].remove(num)
    events.append({"type": "special", "side": SIDES[side], "card": num, "at": a["at"],
                   **({"formation": a["formation"]} if "formation" in a else {}),
                   "visibility": "all"})
    eff = sc.effect
    kind = eff["kind"]
    if kind == "cancel_special":
        for i, e in enumerate(st.effects):
            if e["eid"] == a["cancel"]:
                del st.effects[i]
                insort(st.discard[e["side"]], e["card"])
                insort(st.discard[side], num)
                events.append({"type": "cancelled", "card": e["card"], "by": num,
                               "visibility": "all"})
                return
        raise AssertionError("cancel target vanished")
    left = eff.get("count", eff.get("amount", 1))
    st.effects.append({"eid": st.next_eid, "card": num, "side": side, "place": place,
                       "left": left})
    st.next_eid += 1
    idx = index(st)
    if kind == "draw_reinforcements":
        draw(st, sc.army, eff["count"], events)  # drawn cards wait for the next turn (10.0)
    elif kind == "recover_blown":
        for q in _own(st, idx, side, place, sc):
            if q.blown:
                q.blown = False
                events.append({"type": "recovered", "piece": q.pid, "visibility": "all"})
    elif kind == "reveal_enemy":
        hidden = [q for q in idx[facing(place)] if q.side != side and not q.up]
        for q in hidden[:eff["count"]]:
            reveal(st, q, events)
    elif kind == "change_formation":
        f = FORMATIONS.index(a["formation"])
        infantry = [q for q in _own(st, idx, side, place, sc)
                    if st.cards[q.num].kind == "infantry" and q.form != f]
        if st.pending:
            infantry.sort(key=lambda q: (q.pid != st.pending["target"], q.pid))
        for q in infantry[:eff["count"]]:
            q.form = f
            events.append({"type": "formation", "piece": q.pid, "formation": a["formation"],
                           "visibility": "all"})


def apply_remove_hits(st: State, events: list[dict]) -> None:
    """remove_hits specials take effect just before the Morale rolls (so they can still be
    cancelled in the enemy's window)."""
    from .queries import index

    idx = index(st)
    for e in st.effects:
        sc = st.cards[e["card"]]
        if sc.effect["kind"] != "remove_hits":
            continue
        left = e["left"]
        cands = sorted((q for q in _own(st, idx, e["side"], e["place"], sc) if q.hits),
                       key=lambda q: (-q.hits, q.pid))
        for q in cands:
            while left and q.hits:
                q.hits -= 1
                left -= 1
                events.append({"type": "hit_removed", "piece": q.pid, "visibility": "all"})
        e["left"] = left
