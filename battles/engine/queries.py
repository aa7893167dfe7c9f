"""Read-only questions about a state, shared by the rule modules."""

from __future__ import annotations

from .board import facing, front, owner
from .cards import Card
from .state import Piece, State


class Field(list):
    """Pieces by place (11 places, piece-id order), with per-place summaries computed once:
    ``eng[place]`` engaged (8.1), ``pres[side][place]`` any non-terrain card of the side,
    ``stk[side][place]`` cards counting for stacking (8.4), ``gen[side][place]`` its General.
    A snapshot: recompute after the state changes."""

    __slots__ = ("eng", "pres", "stk", "gen")


def index(st: State) -> Field:
    idx = Field([] for _ in range(11))
    pres = ([False] * 11, [False] * 11)
    stk = ([0] * 11, [0] * 11)
    gen: tuple[list, list] = ([None] * 11, [None] * 11)
    cards = st.cards
    for p in st.pieces.values():
        place = p.place
        idx[place].append(p)
        s = p.side
        if not p.up:
            pres[s][place] = True
            stk[s][place] += 1
            continue
        kind = cards[p.num].kind
        if kind == "terrain":
            continue
        pres[s][place] = True
        if kind == "general":
            gen[s][place] = p
        elif kind != "special":
            stk[s][place] += 1
    idx.eng = [a and b for a, b in zip(pres[0], pres[1], strict=True)]
    idx.pres, idx.stk, idx.gen = pres, stk, gen
    return idx


def card(st: State, p: Piece) -> Card:
    return st.cards[p.num]


def is_terrain(st: State, p: Piece) -> bool:
    """A played (face-up) Terrain card. A face-down one is a decoy (14.0)."""
    return p.up and st.cards[p.num].kind == "terrain"


def is_decoy(st: State, p: Piece) -> bool:
    """14.0: a General, Special or Terrain card lying face-down."""
    return not p.up and not st.cards[p.num].troop


def is_general(st: State, p: Piece) -> bool:
    return p.up and st.cards[p.num].kind == "general"


def counts_as_troop(st: State, p: Piece) -> bool:
    """Troop cards, and face-down cards (which look like troops: decoys, 8.4/14.0)."""
    return not p.up or st.cards[p.num].troop


def present(st: State, here: list[Piece], side: int) -> bool:
    """Any card of the side other than Terrain (generals and decoys count)."""
    for p in here:
        if p.side == side and not is_terrain(st, p):
            return True
    return False


def engaged(st: State, here: list[Piece]) -> bool:
    """8.1: a Position holding cards of both sides (terrain does not engage)."""
    a = b = False
    for p in here:
        if is_terrain(st, p):
            continue
        if p.side == 0:
            a = True
        else:
            b = True
        if a and b:
            return True
    return False


def stack(st: State, here: list[Piece], side: int) -> int:
    """8.4: the cards of a side that count for stacking (troops and face-down cards)."""
    return sum(1 for p in here if p.side == side and counts_as_troop(st, p))


def general_at(st: State, here: list[Piece], side: int) -> Piece | None:
    for p in here:
        if p.side == side and is_general(st, p):
            return p
    return None


def targets_at(st: State, here: list[Piece], side: int) -> list[Piece]:
    """Cards of ``side`` that may be targeted (7.4): troops and face-down cards."""
    return [p for p in here if p.side == side and counts_as_troop(st, p)]


def rivers(st: State, idx: list[list[Piece]], pos: int) -> list[Piece]:
    return [p for p in idx[front(pos)] if p.up]


def on_field(st: State, num: int) -> bool:
    for p in st.pieces.values():
        if p.num == num and p.up:
            return True
    return False


def attacking(p: Piece) -> bool:
    """12.1: a card in an enemy Position is attacking; in its own, defending."""
    return owner(p.place) != p.side


def opposing(pos: int) -> int:
    return facing(pos)


def occupants(st: State, tid: int) -> list[Piece]:
    return [p for p in st.pieces.values() if p.occ == tid]


def terrain_of(st: State, p: Piece) -> Card | None:
    if p.occ:
        t = st.pieces.get(p.occ)
        if t is not None:
            return st.cards[t.num]
    return None
