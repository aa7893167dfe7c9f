"""The Pursuit (001 §13; RULINGS R34, R37-R41): after a retreat in the Expert game, only the
cavalry plays on; the casualties decide an indecisive battle, a minor or a major victory.

``st.pursuit`` holds it while it lasts: ``victor``, ``defeated``, ``sector`` (the retreat),
``aside`` (each player's cavalry set aside next to the board, in an order drawn from the
seed: the opponent names one by its ``slot``, never by its identity) and ``pursued``
(whether the victorious player has pursued in his present turn). Nothing is rolled: the
text gives the Pursuit no die ('If there's a draw, the cavalry of the victorious player
always wins').
"""

from __future__ import annotations

import random
from typing import Any

from .board import from_pair, other, to_pair
from .combat import public
from .ending import finish
from .pieces import BACK, CAVALRY
from .state import Piece, State

Action = dict[str, Any]
Event = dict[str, Any]

COMMANDERS = ("commander", "commander_in_chief")
# 001 §13: 'If there is NO difference or a difference of a maximum of 3 pieces between both
# armies, the battle will have been Indecisive'; 'between 4 and a maximum of 9 pieces ... a
# Minor victory'; 'a difference of 10 pieces or more ... a Major victory'.
MINOR_FROM = 4
MAJOR_FROM = 10


def result_of(difference: int) -> str:
    if difference >= MAJOR_FROM:
        return "major"
    if difference >= MINOR_FROM:
        return "minor"
    return "indecisive"


def begin(st: State, victor: str, sector: str, events: list[Event]) -> None:
    """001 §13: 'Both players take their remaining cavalry units off the board and set them
    aside next to the board' ('including the cavalry reserves'); 'Napoleon and Wellington
    are taken off the board and set aside ... they do not take part in the pursuit'."""
    defeated = other(victor)
    st.pending = st.card = None
    st.due = []
    st.draw_offer = None
    aside: dict[str, list[str]] = {}
    rng = random.Random(f"stratego-pursuit:{st.seed}")
    for side in (victor, defeated):
        ids = []
        for p in sorted(st.side_pieces(side), key=lambda q: q.id):
            if p.type in CAVALRY and p.where in ("board", "reserve", "withdrawn", "resting"):
                st.lift(p, "aside")
                if p.type != "commander_in_chief":
                    ids.append(p.id)
        rng.shuffle(ids)
        aside[side] = ids
    st.pursuit = {"victor": victor, "defeated": defeated, "sector": sector,
                  "aside": aside, "pursued": False}
    events.append({"type": "pursuit", "victor": victor, "defeated": defeated, "sector": sector,
                   "aside": {s: len(ids) for s, ids in aside.items()}})
    start(st, victor, events)


def actions_of(st: State, side: str) -> int:
    """001 §13: 'The remaining commanders in chief and commanders determine the number of
    actions for each player' (R38: three, less one for an eliminated commander and two for
    an eliminated commander-in-chief, as R16)."""
    lost = sum(2 if p.type == "commander_in_chief" else 1 for p in st.side_pieces(side)
               if p.type in COMMANDERS and p.where == "eliminated")
    return max(0, 3 - lost)


def pursuers(st: State, side: str) -> list[Piece]:
    assert st.pursuit is not None
    return [st.pieces[pid] for pid in st.pursuit["aside"][side]
            if st.pieces[pid].where == "aside"]


def fleeing(st: State, side: str) -> list[Piece]:
    """001 §13: 'The infantry and artillery pieces of the defeated player remain standing
    where they were.'"""
    return sorted((p for p in st.side_pieces(side) if p.where == "board"
                   and p.type not in CAVALRY), key=lambda p: p.square or 0)


def can_pursue(st: State) -> bool:
    assert st.pursuit is not None
    v, d = st.pursuit["victor"], st.pursuit["defeated"]
    return bool(actions_of(st, v) and pursuers(st, v) and (fleeing(st, d) or pursuers(st, d)))


def start(st: State, side: str, events: list[Event]) -> None:
    assert st.pursuit is not None
    st.active = side
    st.pursuit["pursued"] = False
    if side == st.pursuit["victor"] and not can_pursue(st):
        count(st, events)
        return
    st.actions_left = actions_of(st, side)
    events.append({"type": "turn", "side": side, "turn": st.turn, "pursuit": True,
                   "actions": st.actions_left})
    if st.actions_left == 0:
        end_turn(st, events)


def slot_of(st: State, side: str, pid: str) -> int:
    assert st.pursuit is not None
    return int(st.pursuit["aside"][side].index(pid))


def legal(st: State, side: str) -> list[Action]:
    assert st.pursuit is not None
    if st.active != side:
        return []
    enemy = other(side)
    out: list[Action] = []
    mine = pursuers(st, side)
    victor = side == st.pursuit["victor"]
    for p in mine:
        if victor:
            # 'with his/her cavalry piece chooses a piece of the opponent's infantry or
            # artillery to attack'
            for q in fleeing(st, enemy):
                assert q.square is not None
                out.append({"type": "pursue", "side": side, "piece": p.id,
                            "target": to_pair(q.square)})
        # 'The winner could also choose to attack the remaining pieces of enemy cavalry';
        # the defeated player 'may use ... his own remaining pieces of cavalry to attack a
        # pursued piece of cavalry'
        for q in pursuers(st, enemy):
            out.append({"type": "pursue", "side": side, "piece": p.id,
                        "slot": slot_of(st, enemy, q.id)})
    if not victor:
        # 'he may use his or her actions to take his/her pieces of infantry or artillery off
        # the board'
        for q in fleeing(st, side):
            assert q.square is not None
            out.append({"type": "save", "side": side, "square": to_pair(q.square)})
    # 'It's therefore wise to take weakened cavalry pieces off the board for good' (R40)
    for p in mine:
        out.append({"type": "save", "side": side, "piece": p.id})
    out.append({"type": "end_turn", "side": side})
    return out


def apply(st: State, act: Action, events: list[Event]) -> None:
    assert st.pursuit is not None
    side = act["side"]
    kind = act["type"]
    if kind == "end_turn":
        end_turn(st, events)
        return
    if kind == "save":
        if "piece" in act:
            p = st.pieces[act["piece"]]
        else:
            q = st.at(from_pair(act["square"]))
            assert q is not None
            p = q
        st.lift(p, "saved")
        events.append({"type": "saved", "side": side, "back": BACK[p.type],
                       **({"square": act["square"]} if "square" in act else
                          {"slot": slot_of(st, side, p.id)}),
                       **({"piece": p.id} if p.revealed else
                          {"secret": {"for": side, "piece": p.id}})})
    else:
        pursue(st, act, events)
    st.actions_left -= 1
    if st.actions_left <= 0:
        end_turn(st, events)


def pursue(st: State, act: Action, events: list[Event]) -> None:
    assert st.pursuit is not None
    side = act["side"]
    enemy = other(side)
    p = st.pieces[act["piece"]]
    if side == st.pursuit["victor"]:
        st.pursuit["pursued"] = True
    if "target" in act:
        # 'Because the enemy infantry ... pieces no longer have any playing strength, they
        # disappear into the box.'
        q = st.at(from_pair(act["target"]))
        assert q is not None
        st.lift(q, "eliminated")
        events.append({"type": "pursued", "side": side, "piece": public(p),
                       "target": act["target"], "eliminated": public(q)})
        p.revealed = q.revealed = True
    else:
        q = st.pieces[st.pursuit["aside"][enemy][act["slot"]]]
        ps, qs = p.strength or 0, q.strength or 0
        # 'If there's a draw, the cavalry of the victorious player always wins from the
        # cavalry of the defeated player.'
        if ps != qs:
            attacker_wins = ps > qs
        else:
            attacker_wins = side == st.pursuit["victor"]
        loser = q if attacker_wins else p
        p.revealed = q.revealed = True
        st.lift(loser, "eliminated")
        events.append({"type": "pursued", "side": side, "piece": public(p),
                       "slot": act["slot"], "defender": public(q),
                       "eliminated": public(loser)})
    if p.type == "heavy_cavalry" and p.where == "aside":
        # 'Heavy cavalry units still lose 1 strength after every attack, but now cannot be
        # pulled back in order to regain strength.' (its strength never below 1: R11)
        p.weakened += 1


def end_turn(st: State, events: list[Event]) -> None:
    """R39: the Pursuit ends when the victorious player ends a turn without pursuing, or
    cannot pursue at the start of his turn ('Once the victorious player no longer has or
    wishes to use any more cavalry pieces to continue the pursuit')."""
    assert st.pursuit is not None
    st.half += 1
    if st.active == st.pursuit["victor"] and not st.pursuit["pursued"]:
        count(st, events)
        return
    start(st, other(st.active), events)


def count(st: State, events: list[Event]) -> None:
    """'the casualties on both sides are counted' (R41: every piece each side lost in the
    whole battle; the saved pieces are 'not counted later along with the victims')."""
    assert st.pursuit is not None
    v, d = st.pursuit["victor"], st.pursuit["defeated"]
    lost = {s: sum(1 for p in st.side_pieces(s) if p.where == "eliminated") for s in (v, d)}
    difference = lost[d] - lost[v]
    result = result_of(difference)
    sector = st.pursuit["sector"]
    st.pursuit = None
    finish(st, None if result == "indecisive" else v, "pursuit", events, retreat=d,
           sector=sector, result=result, casualties=lost, difference=difference)


def view_pursuit(st: State, viewer: str | None) -> dict[str, Any] | None:
    """What everyone sees of the Pursuit: each player's cavalry set aside by slot (its
    identity to its owner, to all once revealed), the pieces saved (how many)."""
    if st.pursuit is None:
        return None
    aside: dict[str, list[dict[str, Any]]] = {}
    saved: dict[str, int] = {}
    for side in (st.pursuit["victor"], st.pursuit["defeated"]):
        entries = []
        for slot, pid in enumerate(st.pursuit["aside"][side]):
            p = st.pieces[pid]
            if p.where != "aside":
                continue
            entry: dict[str, Any] = {"slot": slot, "back": BACK[p.type]}
            if p.revealed or viewer == side:
                entry.update(public(p), weakened=p.weakened)
            entries.append(entry)
        aside[side] = entries
        saved[side] = sum(1 for p in st.side_pieces(side) if p.where == "saved")
    return {"victor": st.pursuit["victor"], "defeated": st.pursuit["defeated"],
            "sector": st.pursuit["sector"], "aside": aside, "saved": saved,
            "pursued": st.pursuit["pursued"]}
