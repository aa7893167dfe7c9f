"""The manoeuvre cards of the Standard and Expert games (001 §7, §9, §11; RULINGS R27-R32):
the draft, playing a card, and the steps of a card being carried out (``st.card``)."""

from __future__ import annotations

from typing import Any

from .board import ALLIED, FRENCH, NEIGHBOURS, from_pair, other, to_pair
from .combat import public
from .pieces import BACK, CAVALRY
from .state import Piece, State

Action = dict[str, Any]
Event = dict[str, Any]

# 001 §11: '15 Manoeuvre cards'; 'There are five different cards available' (R27: three of
# each).
CARDS = ("combined_attack", "fighting_spirit", "grand_battery", "initiative", "reconnaissance")
PER_CARD = 3
HAND = 4  # 001 §11: 'this goes on until both players have 4 cards in their possession'
STEPS = {"initiative": 3, "combined_attack": 3, "reconnaissance": 4, "grand_battery": 99}
KIND_OF = {"light_infantry": "infantry", "line_infantry": "infantry", "artillery": "artillery",
           **{t: "cavalry" for t in CAVALRY}}


def new_cards() -> dict[str, Any]:
    return {"pile": [c for c in CARDS for _ in range(PER_CARD)],
            "hands": {FRENCH: [], ALLIED: []}, "discards": {FRENCH: [], ALLIED: []},
            "played": {FRENCH: [], ALLIED: []}, "turn_card": {FRENCH: -1, ALLIED: -1},
            "seen_discards": []}


# --- the draft (R30) -------------------------------------------------------------------------

def draft_actions(st: State, side: str) -> list[Action]:
    assert st.cards is not None
    pile = st.cards["pile"]
    if len(pile) == 1:
        # R30: the 16th card does not exist: the French player's last pick takes the one card
        # left and discards none.
        return [{"type": "draft", "side": side, "keep": pile[0], "discard": None}]
    kinds = sorted(set(pile))
    return [{"type": "draft", "side": side, "keep": k, "discard": d}
            for k in kinds for d in kinds if k != d or pile.count(k) >= 2]


def draft(st: State, act: Action, events: list[Event]) -> bool:
    """One pick of the draft; True when the draft is over."""
    assert st.cards is not None
    c = st.cards
    side = act["side"]
    c["pile"].remove(act["keep"])
    c["hands"][side] = sorted([*c["hands"][side], act["keep"]])
    if act["discard"] is not None:
        c["pile"].remove(act["discard"])
        c["discards"][side] = sorted([*c["discards"][side], act["discard"]])
    events.append({"type": "draft", "side": side, "pile": list(c["pile"]),
                   "secret": {"for": side, "keep": act["keep"], "discard": act["discard"]}})
    return all(len(c["hands"][s]) >= HAND for s in (FRENCH, ALLIED))


def take_actions(st: State, side: str) -> list[Action]:
    """001 §11: 'When the Prussians arrive on the 13th game turn the Allied player may also
    choose 2 cards from the discard deck' (R31)."""
    assert st.cards is not None
    pool = sorted(st.cards["discards"][FRENCH] + st.cards["discards"][ALLIED])
    if len(pool) <= 2:
        return [{"type": "take_cards", "side": side, "cards": pool}]
    kinds = sorted(set(pool))
    return [{"type": "take_cards", "side": side, "cards": [a, b]}
            for i, a in enumerate(kinds) for b in kinds[i:] if a != b or pool.count(a) >= 2]


def take(st: State, act: Action, events: list[Event]) -> None:
    assert st.cards is not None
    c = st.cards
    side = act["side"]
    for card in act["cards"]:
        pile = c["discards"][side] if card in c["discards"][side] else c["discards"][other(side)]
        pile.remove(card)
        c["hands"][side] = sorted([*c["hands"][side], card])
    c["seen_discards"] = sorted({*c["seen_discards"], side})
    events.append({"type": "take_cards", "side": side, "count": len(act["cards"]),
                   "secret": {"for": side, "cards": list(act["cards"])}})


# --- playing a card ----------------------------------------------------------------------------

def army_of(side: str) -> str:
    return "french" if side == FRENCH else "allied"


def has_strength(p: Piece) -> bool:
    return p.strength is not None


def artillery_group(st: State, p: Piece) -> list[str]:
    """R32: 'all adjoining Artillery': the artillery of its side joined to ``p`` square by
    square (orthogonally), ``p`` included."""
    assert p.square is not None
    seen = {p.square}
    todo = [p.square]
    while todo:
        s = todo.pop()
        for n in NEIGHBOURS[s]:
            q = st.at(n)
            if n not in seen and q is not None and q.side == p.side and q.type == "artillery":
                seen.add(n)
                todo.append(n)
    return [st.board[s] for s in sorted(seen)]


def play_actions(st: State, side: str, piece_acts: list[Action]) -> list[Action]:
    """001 §11: 'The cards, with the exception of 'Fighting spirit', must be played out at the
    start of a player's turn and only one card may be played each turn' (R28)."""
    assert st.cards is not None
    hand = st.cards["hands"][side]
    if not hand or st.cards["turn_card"][side] == st.half:
        return []
    at_start = not any(st.used.values())
    out: list[Action] = []
    mine = sorted((p for p in st.side_pieces(side) if p.where == "board"),
                  key=lambda p: p.square if p.square is not None else -1)
    for card in sorted(set(hand)):
        if card == "fighting_spirit":
            out += [{"type": "card", "side": side, "card": card, "square": to_pair(p.square)}
                    for p in mine if p.square is not None and has_strength(p)
                    and p.spirit_half != st.half]
            continue
        if not at_start:
            continue
        if card == "reconnaissance":
            if any(p.where == "board" for p in st.side_pieces(other(side))):
                out.append({"type": "card", "side": side, "card": card})
        elif card == "initiative":
            if any(a["type"] == "move" for a in piece_acts):
                out.append({"type": "card", "side": side, "card": card})
        elif card == "combined_attack":
            if any(a["type"] in ("attack", "fire") for a in piece_acts):
                out.append({"type": "card", "side": side, "card": card})
        elif card == "grand_battery":
            firing = {tuple(a["from"]) for a in piece_acts if a["type"] == "fire"}
            done: set[str] = set()
            for p in mine:
                if p.type == "artillery" and p.id not in done:
                    group = artillery_group(st, p)
                    done.update(group)
                    if any(tuple(to_pair(st.pieces[g].square or 0)) in firing for g in group):
                        out.append({"type": "card", "side": side, "card": card,
                                    "from": to_pair(p.square or 0)})
    return out


def play(st: State, act: Action, events: list[Event]) -> None:
    """Play a card (one action: 001 §11 'Playing and carrying out the action of a card
    counts as one action'); Fighting spirit is done at once, the others open ``st.card``."""
    assert st.cards is not None
    side, card = act["side"], act["card"]
    take_from_hand(st, side, card)
    st.cards["turn_card"][side] = st.half
    ev: Event = {"type": "card", "side": side, "card": card}
    if card == "fighting_spirit":
        p = st.at(from_pair(act["square"]))
        assert p is not None
        p.spirit_half = st.half
        ev["square"] = act["square"]
        events.append(ev)
        return
    st.card = {"card": card, "side": side, "used": [], "kinds": [], "looked": [],
               "group": []}
    if card == "grand_battery":
        p = st.at(from_pair(act["from"]))
        assert p is not None
        st.card["group"] = artillery_group(st, p)
        ev["from"] = act["from"]
    events.append(ev)


def take_from_hand(st: State, side: str, card: str) -> None:
    assert st.cards is not None
    st.cards["hands"][side].remove(card)
    st.cards["played"][side].append(card)  # R31: played cards are out of the game


def defend_actions(st: State, side: str) -> list[Action]:
    """001 §11: Fighting spirit 'can also be played as a defensive move when one of his pieces
    is being attacked anytime during the game!' (R29)."""
    assert st.cards is not None and st.pending is not None
    out: list[Action] = []
    p = st.at(from_pair(st.pending["target"]))
    if ("fighting_spirit" in st.cards["hands"][side] and p is not None and has_strength(p)
            and p.spirit_half != st.half):
        out.append({"type": "fighting_spirit", "side": side, "square": st.pending["target"]})
    out.append({"type": "decline", "side": side})
    return out


# --- the steps of a card ---------------------------------------------------------------------

def step_actions(st: State, side: str, piece_acts: list[Action]) -> list[Action]:
    """What the card being carried out lets ``side`` do next (and ``end_card``)."""
    card = st.card
    assert card is not None
    name = card["card"]
    out: list[Action] = []
    if len(card["used"]) + len(card["looked"]) < STEPS[name]:
        if name == "reconnaissance":
            # R32: 'four adjoining pieces of his choice': each after the first next to one
            # already looked at.
            looked = [from_pair(s) for s in card["looked"]]
            near = {n for s in looked for n in NEIGHBOURS[s]} if looked else None
            for s, pid in sorted(st.board.items()):
                p = st.pieces[pid]
                if p.side != side and s not in looked and (near is None or s in near):
                    out.append({"type": "look", "side": side, "square": to_pair(s)})
        else:
            for a in piece_acts:
                q = st.at(from_pair(a["from"]))
                if q is None or q.id in card["used"]:
                    continue
                p = q
                if name == "initiative" and a["type"] == "move":
                    out.append(a)
                elif name == "combined_attack" and a["type"] in ("attack", "fire") \
                        and KIND_OF[p.type] not in card["kinds"]:
                    out.append(a)
                elif name == "grand_battery" and a["type"] == "fire" \
                        and p.id in card["group"]:
                    out.append(a)
    out.append({"type": "end_card", "side": side})
    return out


def note_step(st: State, p: Piece | None) -> None:
    card = st.card
    assert card is not None
    if p is not None:
        card["used"].append(p.id)
        kind = KIND_OF[p.type]
        if kind not in card["kinds"]:
            card["kinds"].append(kind)


def look(st: State, act: Action, events: list[Event]) -> None:
    assert st.card is not None
    p = st.at(from_pair(act["square"]))
    assert p is not None
    st.card["looked"].append(act["square"])
    if not p.revealed:
        p.scouted = True
    events.append({"type": "look", "side": act["side"], "square": act["square"],
                   "back": BACK[p.type], "secret": {"for": act["side"], "piece": public(p)}})


def view_cards(st: State, viewer: str | None) -> dict[str, Any]:
    c = st.cards
    assert c is not None
    out: dict[str, Any] = {
        "pile": list(c["pile"]),  # R30: the cards on offer in the draft are seen
        "hand_count": {s: len(c["hands"][s]) for s in (FRENCH, ALLIED)},
        "discard_count": {s: len(c["discards"][s]) for s in (FRENCH, ALLIED)},
        "played": {s: list(c["played"][s]) for s in (FRENCH, ALLIED)},
        "card_played_this_turn": {s: c["turn_card"][s] == st.half for s in (FRENCH, ALLIED)},
    }
    if viewer is not None:
        out["hand"] = list(c["hands"][viewer])
        out["discards"] = {viewer: list(c["discards"][viewer])}
        if viewer in c["seen_discards"]:
            out["discards"] = {s: list(c["discards"][s]) for s in (FRENCH, ALLIED)}
    return out
