"""Battle Turns (5.0), settling the field after each action (8.1, 11.5, 12.4, 14.0), victory
(4.3), reinforcements (10.0) and the optional turn cap (RULINGS 5.0-c)."""

from __future__ import annotations

from bisect import insort
from typing import Any

from .board import PLACE_NAMES, POSITIONS, SIDES, positions
from .combat import eliminate, reveal
from .queries import Field, index, is_decoy
from .state import State, is_over


def settle(st: State, events: list[dict]) -> None:
    """What happens at once after an action: engaged cards are revealed and decoys engaged
    are eliminated (8.1, 14.0), lone engaged Generals die (12.4 NOTE), vacant terrain is
    captured (11.5), and sole occupation wins (4.3)."""
    if is_over(st):
        return
    idx = index(st)
    if idx.memo.get("settled"):
        # a settle found nothing on this Field: nothing lies face-down in an engaged
        # Position, no General is alone there, nobody occupies alone (Field-only facts:
        # pieces only turn face-down or move with a new Field); only terrain captures read
        # more (occupants)
        capture(st, events, idx)
        return
    changed = False
    acted = False  # whether anything was revealed or eliminated (then settle again fully)
    for pos in POSITIONS:
        if not idx.eng[pos]:
            continue
        for p in idx[pos]:
            if p.up:
                continue
            acted = True
            decoy = is_decoy(st, p)
            reveal(st, p, events)
            if decoy:
                eliminate(st, p, events, reason="decoy")
                changed = True
    if changed:
        idx = index(st)
    changed = False
    for pos in POSITIONS:
        if not idx.eng[pos]:
            continue
        for side in range(2):
            g = idx.gen[side][pos]
            if g is not None and not idx.stk[side][pos]:
                eliminate(st, g, events, reason="alone")
                changed = acted = True
    if changed:
        idx = index(st)
    capture(st, events, idx)
    check_victory(st, events, idx)
    if not acted and not is_over(st) and st.cache is idx:
        idx.memo["settled"] = True  # found nothing to do: so would another pass


def capture(st: State, events: list[dict], idx: Field | None = None) -> None:
    """11.5: vacant terrain (or terrain whose defenders routed) is captured at once by
    enemy Infantry in its Position."""
    idx = idx if idx is not None else index(st)
    ter = idx.ter
    if True not in ter:
        return  # no face-up Terrain on the field (the usual case)
    cards = st.cards
    for pos in POSITIONS:
        if not ter[pos]:
            continue
        here = idx[pos]
        for t in here:
            if not t.up or cards[t.num].kind != "terrain" or not idx.pres[1 - t.ctrl][pos]:
                continue
            if any(q.occ == t.pid for q in here):
                continue
            foe = [q for q in here
                   if q.side != t.ctrl and q.up and st.cards[q.num].kind == "infantry"
                   and not q.occ]
            if not foe:
                continue
            t.ctrl = 1 - t.ctrl
            taken = foe[:2]
            for q in taken:
                q.occ = t.pid
            events.append({"type": "captured", "terrain": t.pid, "by": SIDES[t.ctrl],
                           "occupants": [q.pid for q in taken], "visibility": "all"})


def check_victory(st: State, events: list[dict], idx: Field | None = None) -> None:
    """4.3: sole occupation of an enemy Position by Infantry and/or Cavalry, at any instant;
    the side whose turn it is is checked first."""
    if is_over(st):
        return
    idx = idx if idx is not None else index(st)
    for k in range(2):  # the side whose turn it is first
        side = st.active if k == 0 else 1 - st.active
        for pos in positions(1 - side):
            if idx.pres[1 - side][pos] or not idx.pres[side][pos]:
                continue
            if any(q.side == side and st.cards[q.num].kind in ("infantry", "cavalry")
                   for q in idx[pos]):
                finish(st, events, SIDES[side], "occupation", position=PLACE_NAMES[pos])
                return


def finish(st: State, events: list[dict], winner: str | None, reason: str, **extra: Any
           ) -> None:
    st.outcome = {"winner": winner, "reason": reason, "turn": st.turn, **extra}
    st.phase = st.step = "over"
    st.pending = None
    events.append({"type": "battle_over", **st.outcome, "visibility": "all"})


def adjudicate(st: State, events: list[dict]) -> None:
    """Turn cap (RULINGS.md): the side that lost the smaller share of its Battle Deck's BP
    (eliminated cards) wins; equal shares are a draw."""
    lost = [sum(st.cards[n].bp for n in st.elim[s]) for s in range(2)]
    a = lost[0] * max(1, st.deck_bp[1])
    b = lost[1] * max(1, st.deck_bp[0])
    winner = None if a == b else ("french" if a < b else "allied")
    finish(st, events, winner, "turn_cap", lost_bp={"french": lost[0], "allied": lost[1]})


def discard_effects(st: State, events: list[dict]) -> None:
    """13.0: a special's effect lasts for the phase it was played in; then it is discarded."""
    for e in st.effects:
        insort(st.discard[e["side"]], e["card"])
    if st.effects:
        events.append({"type": "specials_discarded", "cards": [e["card"] for e in st.effects],
                       "visibility": "all"})
    st.effects = []


def start_turn(st: State, side: int, events: list[dict]) -> None:
    """5.0: a Battle Turn begins; per-turn flags reset; blown Cavalry no longer engaged
    recover (7.31); cards drawn last turn become playable (10.0)."""
    st.active = side
    st.fresh[side] = []
    st.hit = set()
    st.crossings = {}
    st.last_mover = st.transit = 0
    st.back = None
    st.pending = None
    idx = index(st)
    need_morale = False
    for p in st.pieces.values():
        if p.side != side:
            continue
        p.moves = 0
        p.fired = p.eng = p.dis = p.formed = False
        if p.blown and not idx.eng[p.place]:
            p.blown = False
            events.append({"type": "recovered", "piece": p.pid, "visibility": "all"})
        if p.hits or p.ghits:
            need_morale = True
    events.append({"type": "turn", "turn": st.turn, "side": SIDES[side], "visibility": "all"})
    if need_morale:
        st.phase, st.step, st.priority = "morale", "specials", side
    else:
        st.phase, st.step, st.priority = "combat", "main", side


def draw(st: State, army: str, count: int, events: list[dict]) -> None:
    """10.0: draw into the Reserve; not playable until the next turn. A Prussian General
    drawn at Waterloo is shown at once and the Prussians have arrived."""
    side = 0 if army == "french" else 1
    deck = st.decks[army]
    drawn = [deck.pop() for _ in range(min(count, len(deck)))]
    for n in drawn:
        insort(st.reserve[side], n)
        st.fresh[side].append(n)
    events.append({"type": "draw", "side": SIDES[side], "army": army, "count": len(drawn),
                   "visibility": "all"})
    if drawn:
        events.append({"type": "drawn", "side": SIDES[side], "cards": drawn,
                       "visibility": SIDES[side]})
    if army == "prussian" and not st.prussians:
        for n in drawn:
            if st.cards[n].kind == "general":
                st.prussians = True
                events.append({"type": "prussians_arrive", "card": n, "visibility": "all"})
                break


def reinforce(st: State, events: list[dict]) -> None:
    side = st.active
    for army in st.armies:
        if (0 if army == "french" else 1) == side:
            draw(st, army, st.rates[army], events)
    st.phase, st.step, st.priority = "reinforce", "main", side


def end_turn(st: State, events: list[dict]) -> None:
    discard_effects(st, events)
    cap = st.settings.get("turn_cap")
    if cap is not None and st.turn >= cap:  # RULINGS 5.0-c: only if a cap was set
        adjudicate(st, events)
        return
    st.turn += 1
    start_turn(st, 1 - st.active, events)
