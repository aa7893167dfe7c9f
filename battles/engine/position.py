"""The versioned JSON position format (position.schema.json): saves and restores any state
exactly. Places and sides are written by name; pieces in piece-id order."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .board import PLACE_INDEX, PLACE_NAMES, SIDE_INDEX, SIDES
from .cards import CardTable
from .errors import IllegalAction
from .state import FORMATIONS, Piece, State, card_table

FORMAT = "eagles-position"
VERSION = 1


def to_json(st: State) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "battle": st.battle,
        "armies": list(st.armies),
        "settings": dict(st.settings),
        "turn": st.turn,
        "active": SIDES[st.active],
        "phase": st.phase,
        "step": st.step,
        "priority": SIDES[st.priority],
        "next_piece": st.next_pid,
        "next_special": st.next_eid,
        "pieces": [{
            "piece": p.pid, "card": p.num, "side": SIDES[p.side], "place": PLACE_NAMES[p.place],
            "face_up": p.up, "hits": p.hits, "general_hits": p.ghits,
            "formation": FORMATIONS[p.form], "blown": p.blown, "moves": p.moves,
            "fired": p.fired, "engaged_this_turn": p.eng, "disengaged_this_turn": p.dis,
            "formation_changed": p.formed, "occupies": p.occ, "controlled_by": SIDES[p.ctrl],
        } for p in st.pieces.values()],
        "reserves": {SIDES[i]: list(st.reserve[i]) for i in range(2)},
        "drawn_this_turn": {SIDES[i]: list(st.fresh[i]) for i in range(2)},
        "decks": {army: list(cards) for army, cards in st.decks.items()},
        "rates": dict(st.rates),
        "eliminated": {SIDES[i]: list(st.elim[i]) for i in range(2)},
        "discarded": {SIDES[i]: list(st.discard[i]) for i in range(2)},
        "specials": [{"id": e["eid"], "card": e["card"], "side": SIDES[e["side"]],
                      "at": PLACE_NAMES[e["place"]], "left": e["left"],
                      **({"pieces": list(e["pieces"])} if "pieces" in e else {}),
                      **({"cancelled": {"card": e["cancelled"]["card"],
                                        "at": PLACE_NAMES[e["cancelled"]["place"]]}}
                         if "cancelled" in e else {})}
                     for e in st.effects],
        "pending": dict(st.pending) if st.pending else None,
        "hit_this_turn": sorted(st.hit),
        "river_crossings": {PLACE_NAMES[k]: v for k, v in sorted(st.crossings.items())},
        "last_mover": st.last_mover,
        "transit": st.transit,
        "second_move_from_reserve": dict(st.back) if st.back else None,
        "prussians_arrived": st.prussians,
        "outcome": dict(st.outcome) if st.outcome else None,
        "deck_bp": {SIDES[i]: st.deck_bp[i] for i in range(2)},
    }


def from_json(d: dict[str, Any],
              cards: CardTable | Iterable[Mapping[str, Any]] | None = None) -> State:
    if d.get("format") != FORMAT or d.get("version") != VERSION:
        raise IllegalAction(f"not an {FORMAT} v{VERSION} document")
    st = State.__new__(State)
    st.cards = card_table(cards)
    st.battle = d["battle"]
    st.armies = tuple(d["armies"])
    st.settings = dict(d["settings"])
    st.turn = d["turn"]
    st.active = SIDE_INDEX[d["active"]]
    st.phase, st.step = d["phase"], d["step"]
    st.priority = SIDE_INDEX[d["priority"]]
    st.next_pid, st.next_eid = d["next_piece"], d["next_special"]
    st.pieces = {}
    st.cache = None
    for r in sorted(d["pieces"], key=lambda r: r["piece"]):
        p = Piece(r["piece"], r["card"], SIDE_INDEX[r["side"]], PLACE_INDEX[r["place"]],
                  r["face_up"])
        p.hits, p.ghits = r["hits"], r["general_hits"]
        p.form = FORMATIONS.index(r["formation"])
        p.blown, p.moves, p.fired = r["blown"], r["moves"], r["fired"]
        p.eng, p.dis, p.formed = r["engaged_this_turn"], r["disengaged_this_turn"], \
            r["formation_changed"]
        p.occ, p.ctrl = r["occupies"], SIDE_INDEX[r["controlled_by"]]
        st.pieces[p.pid] = p
    st.reserve = [list(d["reserves"][n]) for n in SIDES]
    st.fresh = [list(d["drawn_this_turn"][n]) for n in SIDES]
    st.decks = {k: list(v) for k, v in d["decks"].items()}
    st.rates = dict(d["rates"])
    st.elim = [list(d["eliminated"][n]) for n in SIDES]
    st.discard = [list(d["discarded"][n]) for n in SIDES]
    st.effects = [{"eid": e["id"], "card": e["card"], "side": SIDE_INDEX[e["side"]],
                   "place": PLACE_INDEX[e["at"]], "left": e["left"],
                   **({"pieces": list(e["pieces"])} if "pieces" in e else {}),
                   **({"cancelled": {"card": e["cancelled"]["card"],
                                     "place": PLACE_INDEX[e["cancelled"]["at"]]}}
                      if "cancelled" in e else {})}
                  for e in d["specials"]]
    st.pending = dict(d["pending"]) if d["pending"] else None
    st.hit = set(d["hit_this_turn"])
    st.crossings = {PLACE_INDEX[k]: v for k, v in d["river_crossings"].items()}
    st.last_mover, st.transit = d["last_mover"], d["transit"]
    back = d.get("second_move_from_reserve")
    st.back = dict(back) if back else None
    st.prussians = d["prussians_arrived"]
    st.outcome = dict(d["outcome"]) if d["outcome"] else None
    st.deck_bp = [d["deck_bp"][n] for n in SIDES]
    return st
