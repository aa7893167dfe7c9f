"""view(state, side): the only way state reaches a player (ARCHITECTURE).

Face-down enemy cards show only their back (army) and place; the enemy Reserve and
Reinforcement decks show only counts. ``side=None`` is a spectator: both sides redacted.
``events_for(events, side)`` filters an event list the same way.
"""

from __future__ import annotations

from typing import Any

from .board import PLACE_NAMES, SIDE_INDEX, SIDES
from .state import FORMATIONS, State, is_over


def view(st: State, side: str | None) -> dict[str, Any]:
    s = SIDE_INDEX[side] if side is not None else None
    pieces = []
    for p in st.pieces.values():
        c = st.cards[p.num]
        d: dict[str, Any] = {"piece": p.pid, "side": SIDES[p.side], "army": c.army,
                             "place": PLACE_NAMES[p.place], "face_up": p.up}
        if p.up or p.side == s:
            d["card"] = p.num
        if p.up and c.kind == "terrain":
            d["controlled_by"] = SIDES[p.ctrl]
        else:
            d.update(hits=p.hits, general_hits=p.ghits, formation=FORMATIONS[p.form],
                     blown=p.blown, moves=p.moves, fired=p.fired, occupies=p.occ or None)
        pieces.append(d)
    reserves: dict[str, Any] = {}
    decks: dict[str, int] = {army: len(cards) for army, cards in st.decks.items()}
    for i, name in enumerate(SIDES):
        if i == s:
            reserves[name] = {"cards": list(st.reserve[i]), "count": len(st.reserve[i]),
                              "drawn_this_turn": sorted(st.fresh[i])}
        else:
            reserves[name] = {"count": len(st.reserve[i])}
    return {
        "viewer": side,
        "battle": st.battle,
        "settings": dict(st.settings),
        "turn": st.turn,
        "active": SIDES[st.active],
        "phase": st.phase,
        "step": st.step,
        "priority": SIDES[st.priority] if not is_over(st) else None,
        "pieces": pieces,
        "reserves": reserves,
        "decks": decks,
        "rates": dict(st.rates),  # public: the chart's rates (doubled in a campaign, 16.0)
        "eliminated": {SIDES[i]: list(st.elim[i]) for i in range(2)},
        "discarded": {SIDES[i]: list(st.discard[i]) for i in range(2)},
        "specials": [{"id": e["eid"], "card": e["card"], "side": SIDES[e["side"]],
                      "at": PLACE_NAMES[e["place"]], "left": e["left"],
                      # a cancel card, played (without effect) for the phase (13.0-a)
                      **({"cancelled": e["cancelled"]["card"]} if "cancelled" in e else {})}
                     for e in st.effects],
        "pending": dict(st.pending) if st.pending else None,
        "hit_this_turn": sorted(st.hit),
        "prussians_arrived": st.prussians,
        "outcome": dict(st.outcome) if st.outcome else None,
    }


def events_for(events: list[dict], side: str | None) -> list[dict]:
    """The events a viewer may see (side None: public events only)."""
    return [e for e in events if e["visibility"] == "all" or e["visibility"] == side]
