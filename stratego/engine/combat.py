"""Attacks, the battle die and artillery fire (001 §4, §5, §8; RULINGS R7-R12).

Dice are drawn one ``next()`` per roll from the iterable the caller hands in: a test forces
them, play uses the module's seeded stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .board import FORWARD, FRENCH, col_row, step, to_pair
from .state import Piece, State
from .terrain import (
    adjoining_in_building,
    bombard,
    bonuses,
    building_at,
    combat_strength,
    kind_of,
    may_enter,
    on_hill,
)

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
          events: list[Event], rampage: bool = False) -> dict[str, Any] | None:
    """``att`` (next to ``dfn``) attacks it, moving by ``dvec``; '+' goes on (R7, R8).
    Returns a choice the rampaging piece's player must make first (R25), or None."""
    sa, sd = att.square, dfn.square
    assert sa is not None and sd is not None
    flat = st.mode == "basic"
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
        if flat:
            s_att, s_dfn = att.strength or 0, dfn.strength or 0
        else:
            b_att, b_dfn = bonuses(st, att, sd, False), bonuses(st, dfn, sa, True)
            if b_att or b_dfn:
                ev["bonus"] = {"attacker": b_att, "defender": b_dfn}
            s_att = combat_strength(st, att, sd, False)
            s_dfn = combat_strength(st, dfn, sa, True)
            if b_att or b_dfn:
                ev["strengths"] = [s_att, s_dfn]
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
        if not flat and not may_enter(st, dfn, sa):
            # R25: cavalry never enters a building: it stays, and its '+' ends there.
            events.append({"type": "rampage_ends", "at": to_pair(sd)})
            return None
        st.put(dfn, sa)  # 001 §8 '+': 'may now take the place of the Blue piece'
    if not plus:
        return None
    # 001 §8 '+': 'attack the next adjacent piece ... from the same direction as the original
    # attack was made' (R7: along the line of the attack, away from where it came from).
    d = dvec if winner is att else (-dvec[0], -dvec[1])
    w = winner.square
    assert w is not None
    nxt = step(w, d[0], d[1])
    options = [] if nxt is None or nxt not in st.board else [nxt]
    if not flat:
        # 001 §10: 'When a Battle die is rolled IN a building and a '+' (frenzy) has been
        # rolled, the victorious unit may choose which piece to attack in the building.'
        options += [n for n in adjoining_in_building(st, w) if n not in options]
        options = [n for n in options if may_enter(st, winner, n)]
    if not options:
        events.append({"type": "rampage_ends", "at": to_pair(w)})
        return None
    if len(options) > 1:
        return {"kind": "rampage", "for": winner.side, "winner": winner.id,
                "options": [to_pair(n) for n in sorted(options)]}
    return rampage_on(st, winner, options[0], dice, events)


def rampage_on(st: State, winner: Piece, target: int, dice: Iterator[int],
               events: list[Event]) -> dict[str, Any] | None:
    assert winner.square is not None
    wc, wr = col_row(winner.square)
    tc, tr = col_row(target)
    dfn = st.at(target)
    assert dfn is not None
    return fight(st, winner, dfn, (tc - wc, tr - wr), dice, events, rampage=True)


def attack(st: State, piece: Piece, via: int, target: int, dice: Iterator[int],
           events: list[Event]) -> dict[str, Any] | None:
    """One attack action: move to ``via`` (the square the attack is made from), then fight.
    Returns a choice another player makes before it goes on (R29, R25), or None (done)."""
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
    dvec = (tc - vc, tr - vr)
    if st.cards is not None and st.cards["hands"][dfn.side]:
        # R29: the defender holding a card is asked whether he plays Fighting spirit.
        return {"kind": "defend", "for": dfn.side, "attacker": piece.id,
                "target": to_pair(target), "dvec": list(dvec)}
    out = fight(st, piece, dfn, dvec, dice, events)
    if out is not None:
        out["attacker"] = piece.id
        return out
    after_attack(st, piece, events)
    return None


def after_attack(st: State, piece: Piece, events: list[Event]) -> None:
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


def own_inside(st: State, name: str, side: str) -> bool:
    return any(building_at(st, s) == name and st.pieces[pid].side == side
               for s, pid in st.board.items())


def fire_targets(st: State, art: Piece) -> list[tuple[int, str | None]]:
    """What ``art`` may fire on: (square, None) a piece, (square, name) a building (R26).
    Basic game: ``fire_target``. On the hill (001 §10): 4 squares ahead and to both sides,
    over pieces (R25); never a cannon on the hill from the ground."""
    assert art.square is not None
    if st.mode == "basic":
        t = fire_target(st, art)
        return [] if t is None else [(t, None)]
    hill = on_hill(st, art.square)
    dirs = ((0, FORWARD[art.side]), (-1, 0), (1, 0)) if hill else ((0, FORWARD[art.side]),)
    out: list[tuple[int, str | None]] = []
    done: set[str] = set()
    for dc, dr in dirs:
        square: int | None = art.square
        for _ in range(4 if hill else 3):
            assert square is not None
            square = step(square, dc, dr)
            if square is None:
                break
            name = building_at(st, square)
            other = st.at(square)
            if name is not None:
                # 001 §10: 'Artillery cannot fire on units within a building, they will always
                # fire ON the building first'; §12: Plancenoit, 'the units OR the village'.
                if name not in done and not own_inside(st, name, art.side):
                    done.add(name)
                    out.append((square, name))
                if (other is not None and other.side != art.side
                        and kind_of(name, st) == "village"):
                    out.append((square, None))
                if not hill:
                    break
                continue
            if other is None:
                continue
            if other.side != art.side and not (other.type == "artillery" and not hill
                                               and on_hill(st, square)):
                # 001 §10: 'Artillery on a hill CANNOT be destroyed by Artillery on the ground!'
                out.append((square, None))
            if not hill:
                break
    return out


def fire(st: State, art: Piece, target: int, events: list[Event],
         building: str | None = None) -> None:
    assert art.square is not None
    art.revealed = True  # R12: a cannon that fires shows what it is
    if building is not None:
        events.append({"type": "fire", "side": art.side, "from": to_pair(art.square),
                       "target": to_pair(target), "artillery": public(art),
                       "building": building, "result": "building_hit"})
        bombard(st, building, events)
        return
    victim = st.at(target)
    assert victim is not None
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
