"""Attacks, the battle die and artillery fire (001 §4, §5, §8; RULINGS R7-R12).

Dice are drawn one ``next()`` per roll from the iterable the caller hands in: a test forces
them, play uses the module's seeded stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .board import FORWARD, FRENCH, col_row, step, to_pair
from .state import Piece, State

Event = dict[str, Any]

# 001 §8, the six faces of the Battle die: (winning colour, '+', 'R'). Blue is the French
# army, Red the Allied army and the Prussians ("the Red/Black piece").
FACES: dict[int, tuple[str, bool, bool]] = {
    1: ("blue", False, False), 2: ("red", False, False),
    3: ("blue", True, False), 4: ("red", True, False),
    5: ("blue", False, True), 6: ("red", False, True),
}
FACE_NAMES = {1: "Blue", 2: "Red", 3: "Blue +", 4: "Red +", 5: "Blue R", 6: "Red R"}


class DiceExhausted(ValueError):
    """The forced dice ran out (a test handed in too few)."""


def colour(side: str) -> str:
    return "blue" if side == FRENCH else "red"


def roll(dice: Iterator[int]) -> int:
    try:
        face = next(dice)
    except StopIteration:
        raise DiceExhausted("no die left") from None
    if face not in FACES:
        raise ValueError(f"not a face of the battle die: {face!r}")
    return face


def public(p: Piece) -> dict[str, Any]:
    """A revealed piece as everyone may see it."""
    return {"id": p.id, "army": p.spec.army, "name": p.spec.name, "type": p.type,
            "strength": p.strength}


def eliminate(st: State, p: Piece, events: list[Event]) -> None:
    """001 §8: 'is taken from the board and is given to the opponent'."""
    p.revealed = True
    st.lift(p, "eliminated")
    events.append({"type": "eliminated", "piece": public(p)})


def withdraw(st: State, p: Piece, events: list[Event]) -> None:
    """001 §8 'R': off the board, back 'at the cost of one action, starting next turn' (R10):
    from its owner's first turn that starts after this one. Off the board, heavy cavalry
    regains its strength (R11)."""
    st.lift(p, "withdrawn")
    p.back_from = st.half + (2 if p.side == st.active else 1)
    p.weakened = 0
    events.append({"type": "withdrawn", "piece": public(p), "back_from_half": p.back_from})


def attacked_from_front(art: Piece, dvec: tuple[int, int]) -> bool:
    """R4: artillery faces the enemy's back row; an attack moving against that facing comes
    from its front."""
    return dvec == (0, -FORWARD[art.side])


def fight(st: State, att: Piece, dfn: Piece, dvec: tuple[int, int], dice: Iterator[int],
          events: list[Event], rampage: bool = False) -> None:
    """``att`` (next to ``dfn``) attacks it, moving by ``dvec``; '+' goes on (R7, R8)."""
    sa, sd = att.square, dfn.square
    assert sa is not None and sd is not None
    friendly = att.side == dfn.side
    att.revealed = dfn.revealed = True  # 001 §8: 'Both pieces are then revealed.'
    ev: Event = {"type": "combat", "side": st.active, "rampage": rampage,
                 "from": to_pair(sa), "at": to_pair(sd),
                 "attacker": public(att), "defender": public(dfn)}
    events.append(ev)
    face: int | None = None
    plus = retreat = False
    if dfn.type == "commander_in_chief":
        # 001 §5: 'If they are attacked however, whether it's a piece with high strength or
        # low, they will be eliminated'.
        winner, why = att, "commander_in_chief_attacked"
    elif dfn.type == "artillery":
        if not friendly and attacked_from_front(dfn, dvec):
            # 001 §4: 'If an enemy piece attacks an Artillery unit from the front, the enemy
            # piece in question will be eliminated.'
            winner, why = dfn, "artillery_front"
        else:
            winner, why = att, "artillery_flank" if not friendly else "friendly_artillery"
    elif att.type == "commander_in_chief":
        winner, why = att, "commander_in_chief_attacks"  # 001 §5: 'can destroy ALL units'
    else:
        s_att, s_dfn = att.strength or 0, dfn.strength or 0
        if s_att != s_dfn:
            winner, why = (att, "strength") if s_att > s_dfn else (dfn, "strength")
        else:
            face = roll(dice)
            ev["die"] = face
            ev["face"] = FACE_NAMES[face]
            ev["dice"] = [face]
            col, plus, retreat = FACES[face]
            if friendly:
                # R8: the die's colour decides between two pieces of one army; its '+' and
                # 'R' do not apply.
                winner = att if col == colour(att.side) else dfn
                plus = retreat = False
                why = "die_friendly"
            else:
                winner = att if col == colour(att.side) else dfn
                why = "die"
    loser = dfn if winner is att else att
    ev["winner"] = "attacker" if winner is att else "defender"
    ev["why"] = why
    if retreat:
        withdraw(st, loser, events)
    else:
        eliminate(st, loser, events)
    if winner is att:
        st.put(att, sd)  # 001 §8: 'it will take the place of the unit ... eliminated'
    elif plus:
        st.put(dfn, sa)  # 001 §8 '+': 'may now take the place of the Blue piece'
    if not plus:
        return
    # 001 §8 '+': 'attack the next adjacent piece ... from the same direction as the original
    # attack was made' (R7: along the line of the attack, away from where it came from).
    d = dvec if winner is att else (-dvec[0], -dvec[1])
    assert winner.square is not None
    nxt = step(winner.square, d[0], d[1])
    target = None if nxt is None else st.at(nxt)
    if target is None:
        events.append({"type": "rampage_ends", "at": to_pair(winner.square)})
        return
    fight(st, winner, target, d, dice, events, rampage=True)


def attack(st: State, piece: Piece, via: int, target: int, dice: Iterator[int],
           events: list[Event]) -> None:
    """One attack action: move to ``via`` (the square the attack is made from), then fight."""
    assert piece.square is not None
    start = piece.square
    if via != start:
        st.put(piece, via)
    dfn = st.at(target)
    assert dfn is not None
    vc, vr = col_row(via)
    tc, tr = col_row(target)
    events.append({"type": "attack", "side": piece.side, "from": to_pair(start),
                   "via": to_pair(via), "target": to_pair(target)})
    fight(st, piece, dfn, (tc - vc, tr - vr), dice, events)
    # 001 §4: 'Heavy Cavalry pieces lose 1 strength each time they charge a piece' (R11: once
    # per attack action, after it, if it is still on the board).
    if piece.type == "heavy_cavalry" and piece.where == "board":
        piece.weakened += 1
        piece.charged_at = st.half
        events.append({"type": "weakened", "piece": public(piece), "blocks": piece.weakened})


def fire_target(st: State, art: Piece) -> int | None:
    """001 §4: 'Artillery can fire frontally up to a distance of 3 spaces IF the spaces in
    front are empty': the first piece straight ahead within 3 squares, if an enemy's."""
    assert art.square is not None
    square: int | None = art.square
    for _ in range(3):
        assert square is not None
        square = step(square, 0, FORWARD[art.side])
        if square is None:
            return None
        other = st.at(square)
        if other is not None:
            return square if other.side != art.side else None
    return None


def fire(st: State, art: Piece, target: int, events: list[Event]) -> None:
    assert art.square is not None
    victim = st.at(target)
    assert victim is not None
    art.revealed = True  # R12: a cannon that fires shows what it is
    ev: Event = {"type": "fire", "side": art.side, "from": to_pair(art.square),
                 "target": to_pair(target), "artillery": public(art)}
    events.append(ev)
    victim.revealed = True
    if victim.type == "light_infantry":
        # 001 §4: 'Light Infantry is immune to artillery fire' (R12: and so shown).
        ev["result"] = "immune"
        ev["victim"] = public(victim)
        return
    ev["result"] = "destroyed"
    eliminate(st, victim, events)
