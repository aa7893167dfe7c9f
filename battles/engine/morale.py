"""Morale (6.0), with Generals' command (12.1-12.3), their own hits (12.4), squares (9.3),
terrain and specials (13.0)."""

from __future__ import annotations

from bisect import insort

from .board import SIDES
from .cards import Card
from .combat import eliminate
from .effects import modifier, nation_ok, type_ok
from .phases import capture, check_victory, settle
from .queries import Field, attacking, current, general_at, index, on_field, shifted, terrain_of
from .rolls import Roller
from .state import LINE, SQUARE, Piece, State, is_over

TERRAIN_MORALE = ("hill", "woods", "building")


def supports(st: State, g: Card, c: Card) -> bool:
    """12.2 corps integrity; army commanders any corps of their own army only; 12.3 chiefs of
    staff and the second in command act as commander only while he is absent."""
    if g.army != c.army:
        return False  # and never Prussian for British (or vice-versa)
    cmd = st.cards.commanders.get(g.army)
    if g.cos:
        return cmd is None or not on_field(st, cmd)
    if g.sic and (cmd is None or not on_field(st, cmd)):
        return True
    if g.corps == "A":
        return True
    return g.corps == c.ob_corps


def morale_parts(st: State, idx: Field, p: Piece) -> list[tuple[str, int]]:
    """What a troop card's morale is made of: its grade (``"grade"``) and each modifier
    (``"general"`` 12.1, ``"square"`` 9.3, ``"terrain"`` 6.0, ``"special"`` 13.0), as the log
    shows a morale roll."""
    c = st.cards[p.num]
    parts = [("grade", c.morale)]
    g = general_at(st, idx[p.place], p.side)
    if g is not None:
        gc = st.cards[g.num]
        if supports(st, gc, c):
            parts.append(("general", gc.off if attacking(p) else gc.dfn))  # 12.1
    if c.kind == "infantry" and p.form == SQUARE:
        parts.append(("square", 1))  # 9.3
    t = terrain_of(st, p)
    if t is not None and t.tclass in TERRAIN_MORALE:
        parts.append(("terrain", 1))  # 6.0 supporting terrain (RULINGS 6.0-c)
    special = modifier(st, "morale_modifier", p.side, p.place, c, p.place, None)
    if special:
        parts.append(("special", special))
    return parts


def morale_value(st: State, idx: Field, p: Piece) -> int:
    return sum(n for _, n in morale_parts(st, idx, p))


def passes(roll: int, value: int) -> bool:
    """6.0: equal or less passes; a natural 6 always routs, a natural 1 always passes."""
    if roll == 6:
        return False
    if roll == 1:
        return True
    return roll <= value


def resolve_morale(st: State, roller: Roller, events: list[dict]) -> None:
    """Generals' hits first (12.4), then one roll per hit for each troop card, in piece
    order, stopping a card's rolls at its first failure (RULINGS 6.0-a)."""
    side = st.active
    for g in [p for p in st.pieces.values() if p.side == side and p.ghits]:
        rolls = []
        killed = False
        for _ in range(g.ghits):
            r = roller.roll()
            rolls.append(r)
            if r == 6:
                killed = True
                break
        g.ghits = 0
        events.append({"type": "general_morale", "piece": g.pid, "dice": rolls,
                       "killed": killed, "visibility": "all"})
        if killed:
            eliminate(st, g, events, reason="killed")
    for p in [q for q in st.pieces.values() if q.side == side and q.hits]:
        if is_over(st):
            return
        idx = index(st)
        parts = morale_parts(st, idx, p)
        value = sum(n for _, n in parts)
        rolls = []
        routed = False
        for _ in range(p.hits):
            r = roller.roll()
            rolls.append(r)
            if not passes(r, value):
                routed = True
                break
        roll = {"type": "morale", "piece": p.pid, "value": value, "dice": rolls,
                "routed": routed, "visibility": "all"}
        general = general_at(st, idx[p.place], p.side)
        if p.up and (general is None or general.up):
            # what the value is made of, only when no face-down card is part of it
            roll["modifiers"] = [[why, n] for why, n in parts[1:] if n]
        events.append(roll)
        p.hits = 0
        if routed:
            rally = _rally_effect(st, p)
            if rally is not None:
                rally["left"] -= 1
                _rally(st, p, events)
            else:
                eliminate(st, p, events, reason="routed")
            capture(st, events)
            check_victory(st, events)
    settle(st, events)


def _rally_effect(st: State, p: Piece) -> dict | None:
    c = st.cards[p.num]
    for e in st.effects:
        sc = st.cards[e["card"]]
        if sc.effect["kind"] == "rally_routed" and e["side"] == p.side and \
                e["place"] == p.place and e["left"] > 0 and type_ok(sc, c) and \
                nation_ok(sc, c, st.battle):
            return e
    return None


def _rally(st: State, p: Piece, events: list[dict]) -> None:
    old = current(st)
    del st.pieces[p.pid]
    st.cache = shifted(st, old, p, p.place, None)
    for q in st.pieces.values():
        if q.occ == p.pid:
            q.occ = 0
    p.form = LINE
    insort(st.reserve[p.side], p.num)
    st.fresh[p.side].append(p.num)  # RULINGS 13.0-e: back in play next turn
    events.append({"type": "rallied", "side": SIDES[p.side], "piece": p.pid, "card": p.num,
                   "visibility": "all"})
