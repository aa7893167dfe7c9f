"""Combat (7.0-7.4): Fire and Shock, with formations (9.x) and terrain (11.1-11.4), and
what can befall a card on the field: revealed, or eliminated (for good; the phases, morale
and the specials eliminate through here too)."""

from __future__ import annotations

from bisect import insort

from .board import SIDES, facing, owner
from .cards import Card
from .effects import modifier
from .queries import Field, general_at, index, is_decoy, shifted, targets_at, terrain_of
from .rolls import Roller
from .state import COLUMN, LINE, SQUARE, Piece, State


def hit_numbers(f: int) -> int:
    """7.2: the lowest number that hits: F1 6, F2 5-6, F3 4-6, F4 3-6."""
    return 7 - f


def _allowed(st: State, cands: list[Piece]) -> list[Piece]:
    """7.4: a card already hit this combat turn may be targeted again only once every enemy
    troop card in its Position has been hit."""
    fresh = [t for t in cands if t.pid not in st.hit]
    return fresh if fresh else cands


def fire_targets(st: State, idx: Field, p: Piece) -> list[Piece]:
    """Enemy cards this card may Fire at now (7.21-7.24, 11.2)."""
    c = st.cards[p.num]
    if p.fired or is_decoy(st, p) or not c.troop:
        return []
    here = p.place
    enemy = 1 - p.side
    if c.kind == "artillery":
        if p.moves > (1 if c.horse else 0):
            return []
        if idx.eng[here]:
            cands = targets_at(st, idx[here], enemy)  # 7.23 short range
        elif owner(here) == p.side:
            there = facing(here)  # 7.23 long range, across the Middle Ground
            if any(q.side == p.side for q in idx[there]):
                return []  # not if the enemy Position is engaged by friendly cards
            cands = targets_at(st, idx[there], enemy)
        else:
            return []
    else:
        if p.moves or not idx.eng[here]:
            return []  # 7.21/7.22 must engage first, and fire on a later turn
        cands = targets_at(st, idx[here], enemy)
    out = []
    for t in _allowed(st, cands):
        tt = terrain_of(st, t)
        if tt is not None and tt.tclass == "woods" and c.kind != "infantry":
            continue  # 11.2 only Infantry attack Woods
        out.append(t)
    return out


def shock_targets(st: State, idx: Field, p: Piece) -> list[Piece]:
    """7.3x: who this card may Shock now."""
    c = st.cards[p.num]
    if p.fired or p.moves or not p.up and is_decoy(st, p):
        return []
    if c.kind == "infantry":
        if p.form != COLUMN:
            return []  # 7.32/9.1/9.3 only Columns shock
    elif c.kind == "cavalry":
        if p.blown:
            return []  # 7.31
    else:
        return []
    mine = terrain_of(st, p)
    if mine is not None and mine.tclass == "building":
        return []  # 11.4 cards in a Building only Fire
    if not idx.eng[p.place]:
        return []
    out = []
    for t in _allowed(st, targets_at(st, idx[p.place], 1 - p.side)):
        if shock_barred(st, c, t):
            continue
        out.append(t)
    return out


def shock_barred(st: State, c: Card, t: Piece) -> bool:
    tc = st.cards[t.num]
    if t.form == SQUARE:
        return True  # 7.33/9.3
    tt = terrain_of(st, t)
    if tt is not None and tt.tclass == "building":
        return True  # 7.33/11.4
    if tt is not None and tt.tclass == "woods" and c.kind != "infantry":
        return True  # 11.2
    if tc.kind == "cavalry":
        if c.kind == "infantry":
            return True  # 7.34
        if not t.blown:
            return True  # 7.34 cavalry shock only blown cavalry
    return False


def dice_and_power(st: State, p: Piece, t: Piece, shock: bool) -> tuple[int, int]:
    """Dice (7.1) and the F or S number (7.2/7.3) for p attacking t."""
    c = st.cards[p.num]
    tc = st.cards[t.num]
    n = c.cv
    mine = terrain_of(st, p)
    if mine is not None and mine.tclass == "hill":
        n += 1  # 11.1 defending a Hill
    theirs = terrain_of(st, t)
    if theirs is not None and theirs.tclass == "woods" and c.kind == "infantry":
        n -= 1  # 11.2 attacking infantry -1cv
    n += modifier(st, "cv_modifier", p.side, p.place, c, t.place, tc if t.up else None)
    n = max(1, n)
    if shock:
        f = c.shock
    elif c.kind == "infantry":
        f = c.fp if p.form == LINE else 1  # 9.2/9.3 columns and squares fire at F1
    elif c.kind == "cavalry":
        f = 1  # 7.22
    else:
        f = c.short if p.place == t.place else c.long  # 7.23
    if c.kind == "artillery" and t.form != LINE:
        f += 1  # 9.2/9.3 artillery +1F on Columns and Squares
    if c.kind == "infantry" and t.up and tc.kind == "artillery":
        f += 1  # 7.4 infantry on engaged artillery +1F/+1S
    kind = "shock_modifier" if shock else "firepower_modifier"
    f += modifier(st, kind, p.side, p.place, c, t.place, tc if t.up else None)
    f = min(4, max(2 if shock else 1, f))
    return n, f


def resolve(st: State, p: Piece, t: Piece, shock: bool, roller: Roller, events: list[dict]
            ) -> None:
    """Roll the attack and place hits (6.0, 12.4)."""
    c = st.cards[p.num]
    if shock and shock_barred(st, c, t):
        events.append({"type": "attack_void", "piece": p.pid, "target": t.pid,
                       "visibility": "all"})
        return
    n, f = dice_and_power(st, p, t, shock)
    dice = roller.rolls(n)
    need = hit_numbers(f)
    hits = sum(1 for d in dice if d >= need)
    ones = sum(1 for d in dice if d == 1)
    events.append({"type": "shock" if shock else "fire", "side": SIDES[p.side], "piece": p.pid,
                   "target": t.pid, "dice": dice, "power": f, "hits": hits,
                   "visibility": "all"})
    if shock and c.kind == "cavalry":
        p.blown = True  # 7.31
        events.append({"type": "blown", "piece": p.pid, "visibility": "all"})
    if ones:
        g = general_at(st, index(st)[t.place], t.side)
        if g is not None:
            g.ghits += ones  # 12.4
            events.append({"type": "general_hits", "piece": g.pid, "hits": ones,
                           "visibility": "all"})
    if hits:
        st.hit.add(t.pid)
        if is_decoy(st, t):
            # 14.0 a decoy targeted and hit by artillery is eliminated
            eliminate(st, t, events, reason="decoy")
            return
        t.hits += hits
        if c.kind == "artillery" and not t.up:
            reveal(st, t, events)  # 7.23 cards artillery hit are revealed


def reveal(st: State, p: Piece, events: list[dict]) -> None:
    p.up = True
    if not st.cards[p.num].troop:
        st.cache = None  # a General or decoy turned up changes the Field (troops do not)
    events.append({"type": "reveal", "piece": p.pid, "card": p.num, "visibility": "all"})


def eliminate(st: State, p: Piece, events: list[dict], reason: str) -> None:
    """A card leaves the field for good; its identity becomes public."""
    old = st.cache
    if old is not None and old.key != (len(st.pieces), st.next_pid):
        old = None
    del st.pieces[p.pid]
    st.cache = shifted(st, old, p, p.place, None)
    for q in st.pieces.values():
        if q.occ == p.pid:
            q.occ = 0
    insort(st.elim[p.side], p.num)
    events.append({"type": "eliminated", "side": SIDES[p.side], "piece": p.pid,
                   "card": p.num, "reason": reason, "visibility": "all"})
