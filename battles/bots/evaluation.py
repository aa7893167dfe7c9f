"""Leaf evaluations for the ``search`` bot: a State scored for one side in [-1, 1].

A battle is lost by the occupation of one Position (4.3), seldom by attrition, so besides the
material (troop strength in play) the evaluation prices each Position that hangs by a thread:
a Position engaged by enemy Infantry or Cavalry whose defenders all carry hits is lost if
every one of them fails its Morale roll (6.0: one roll per hit, a natural 6 always routs).
That probability (exact for the rolls pending, with the engine's own morale value: Generals,
square, terrain, specials in effect) counts nearly as much as the loss itself.

Pure: no Django.
"""

from __future__ import annotations

from battles.engine import SIDES
from battles.engine.morale import morale_value
from battles.engine.queries import index
from battles.engine.state import State

from .greedy import durability, pass_chance, strength

WINNERS = ("infantry", "cavalry")  # 4.3: only they occupy for victory


def material(st: State) -> tuple[float, float]:
    """Troop strength in play per side: field (hits discount a card by its chance to rout),
    Reserve, and 0.8 x the undrawn decks."""
    cards = st.cards
    power = [0.0, 0.0]
    for p in st.pieces.values():
        c = cards[p.num]
        if not c.troop:
            continue
        v = strength(c)
        if p.hits:
            v *= max(0.0, 1.0 - p.hits / durability(c.morale))
        power[p.side] += v
    for side in (0, 1):
        for num in st.reserve[side]:
            c = cards[num]
            if c.troop:
                power[side] += strength(c)
    for army, deck in st.decks.items():
        side = 0 if army == "french" else 1
        for num in deck:
            c = cards[num]
            if c.troop:
                power[side] += 0.8 * strength(c)
    return power[0], power[1]


def held(st: State) -> tuple[int, int]:
    """Positions each side holds alone with a troop card (its own)."""
    out = [0, 0]
    seen: dict[int, int] = {}
    cards = st.cards
    for p in st.pieces.values():
        if 1 <= p.place <= 7 and p.place != 4 and cards[p.num].troop:
            seen[p.place] = seen.get(p.place, 0) | (1 << p.side)
    for place, mask in seen.items():
        own = 0 if place < 4 else 1
        if mask == 1 << own:
            out[own] += 1
    return out[0], out[1]


def danger(st: State) -> tuple[float, float]:
    """Per side, the chance of losing one of its Positions at its pending Morale rolls: a
    Position engaged by enemy Infantry or Cavalry whose troop cards all carry hits falls if
    every one of them routs (4.3). Positions combine as independent events."""
    cards = st.cards
    idx = index(st)
    out = [0.0, 0.0]
    for side in (0, 1):
        keep = 1.0
        base = 4 * side
        for pos in (base + 1, base + 2, base + 3):
            if not idx.eng[pos]:
                continue
            here = idx[pos]
            if not any(q.side != side and cards[q.num].kind in WINNERS for q in here):
                continue
            fall = 1.0
            for q in here:
                if q.side != side:
                    continue
                c = cards[q.num]
                if not c.troop:
                    continue
                if not q.hits:
                    fall = 0.0
                    break
                stay = pass_chance(morale_value(st, idx, q)) ** q.hits
                fall *= 1.0 - stay
            keep *= 1.0 - fall
        out[side] = 1.0 - keep
    return out[0], out[1]


def open_goal(st: State, side: int) -> bool:
    """Whether ``side``, about to act, can walk into an enemy Position holding no enemy
    troop (4.3; a General left alone there dies, 12.4): Infantry or Cavalry in the unengaged
    Position facing it move in, or Cavalry from the Reserve makes two moves (8.3). Rivers
    (11.3) and the Prussians' restrictions beyond their arrival are not looked at."""
    cards = st.cards
    idx = index(st)
    foe = 1 - side
    cav_in_reserve = False
    fresh = st.fresh[side]
    for num in st.reserve[side]:
        c = cards[num]
        if c.kind == "cavalry" and num not in fresh and \
                (c.army != "prussian" or st.battle != "waterloo" or st.prussians):
            cav_in_reserve = True
            break
    base = 4 * foe
    for pos in (base + 1, base + 2, base + 3):
        if any(q.side == foe and (not q.up or cards[q.num].troop) for q in idx[pos]):
            continue
        mine = 8 - pos  # the Position facing it (board.facing)
        if idx.eng[mine]:
            continue  # nothing moves out of (or through) an engagement into it (8.3)
        if cav_in_reserve:
            return True
        if any(q.side == side and cards[q.num].kind in WINNERS for q in idx[mine]):
            return True
    return False


def evaluate_material(st: State, me: int) -> float:
    """The first evaluation (kept for comparison): the outcome if over, else 0.7 x the
    material share + 0.05 x the Positions held alone (difference)."""
    out = st.outcome
    if out is not None:
        return outcome_value(out, me)
    power = material(st)
    total = power[0] + power[1]
    share = (power[me] - power[1 - me]) / total if total > 0 else 0.0
    h = held(st)
    return 0.7 * share + 0.05 * (h[me] - h[1 - me])


def outcome_value(out: dict, me: int) -> float:
    w = out.get("winner")
    if w is None:
        return 0.0
    return 1.0 if w == SIDES[me] else -1.0


def evaluate_threats(st: State, me: int, *, w_material: float = 0.5,
                     w_danger: float = 0.9, w_open: float = 0.8) -> float:
    """Material and held Positions as ``evaluate_material``, plus ``w_danger`` x (the
    enemy's chance of losing a Position at its pending Morale rolls − ours), plus
    ``w_open`` for the side about to act when it can walk into an empty enemy Position
    (``open_goal``); in [-1, 1]."""
    out = st.outcome
    if out is not None:
        return outcome_value(out, me)
    power = material(st)
    total = power[0] + power[1]
    share = (power[me] - power[1 - me]) / total if total > 0 else 0.0
    h = held(st)
    d = danger(st)
    v = w_material * share + 0.05 * (h[me] - h[1 - me]) + w_danger * (d[1 - me] - d[me])
    if w_open and st.phase in ("morale", "combat"):
        mover = st.active
        if open_goal(st, mover):
            v += w_open if mover == me else -w_open
    return max(-1.0, min(1.0, v))


EVALUATIONS = {"material": evaluate_material, "threats": evaluate_threats}
