"""Read-only questions about a state, shared by the rule modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

from .board import facing, front, owner
from .cards import Card, CardTable, keep
from .state import Piece, State


class Field:
    """Pieces by place (``field[place]``: 11 places, piece-id order), with per-place
    summaries computed once:
    ``eng[place]`` engaged (8.1), ``pres[side][place]`` any non-terrain card of the side,
    ``stk[side][place]`` cards counting for stacking (8.4), ``gen[side][place]`` its General,
    ``ter[place]`` whether it holds face-up Terrain (11.0), ``own[side]`` the side's pieces
    (piece-id order); ``memo`` a dict for facts that
    depend on these summaries only (legal.combat_actions).
    A snapshot of where the pieces are: read-only for its users. Not a ``list`` subclass, so
    that mypyc compiles it as a native class (bench/engine.py --mypyc)."""

    __slots__ = ("places", "eng", "pres", "stk", "gen", "ter", "own", "key", "memo")
    places: list[list[Piece]]
    eng: list[bool]
    # per side: typed as tuples of any length (compiled, a fixed-length tuple is kept
    # unboxed and boxed anew at every index by a variable, as in ``idx.stk[side]``)
    pres: tuple[list[bool], ...]
    stk: tuple[list[int], ...]
    gen: tuple[list[Any], ...]
    ter: list[bool]
    own: tuple[list[Piece], ...]
    key: tuple[int, int]
    memo: dict[Any, Any]

    def __init__(self, places: list[list[Piece]]) -> None:
        self.places = places

    def __getitem__(self, place: int) -> list[Piece]:
        return self.places[place]

    def __iter__(self) -> Iterator[list[Piece]]:
        return iter(self.places)

    def __len__(self) -> int:
        return len(self.places)


_CODE: Final = {"terrain": 0, "general": 1, "special": 2}  # any other kind is a troop card (3)


def _codes(cards: CardTable) -> dict[int, int]:
    """card number -> 0 terrain, 1 general, 2 special, 3 troop (cached on the table)."""
    codes: dict[int, int] | None = getattr(cards, "_codes", None)
    if codes is None or len(codes) != len(cards):
        codes = {n: _CODE.get(c.kind, 3) for n, c in cards.items()}
        keep(cards, "_codes", codes)
    return codes


def index(st: State) -> Field:
    """The per-place summary of the field, kept in ``st.cache`` until the engine changes
    which pieces are where (or face-up). Code that edits a State by hand (tests) must set
    ``st.cache = None`` after moving, adding, removing or turning up a piece; adding or
    removing one is also caught by the key (piece count, next piece id)."""
    # typed here (``State.cache`` is ``Any``): compiled, ``idx.key`` is then a native read,
    # not a generic getattr
    idx: Field | None = st.cache
    key = (len(st.pieces), st.next_pid)
    if idx is not None and idx.key == key:
        return idx
    idx = Field([[], [], [], [], [], [], [], [], [], [], []])
    p0, p1 = [False] * 11, [False] * 11
    k0, k1 = [0] * 11, [0] * 11
    g0: list = [None] * 11
    g1: list = [None] * 11
    ter = [False] * 11
    own: tuple[list[Piece], ...] = ([], [])
    codes = _codes(st.cards)
    for p in st.pieces.values():
        place = p.place
        idx[place].append(p)
        own[p.side].append(p)
        if p.up:
            code = codes[p.num]
            if code == 0:
                ter[place] = True
                continue  # terrain neither engages nor stacks
        else:
            code = 3  # face-down cards look like troops (8.4, 14.0)
        if p.side:
            p1[place] = True
            if code == 3:
                k1[place] += 1
            elif code == 1:
                g1[place] = p
        else:
            p0[place] = True
            if code == 3:
                k0[place] += 1
            elif code == 1:
                g0[place] = p
    idx.eng = [a and b for a, b in zip(p0, p1, strict=True)]
    idx.pres, idx.stk, idx.gen, idx.ter, idx.own = (p0, p1), (k0, k1), (g0, g1), ter, own
    idx.key = key
    idx.memo = {}
    st.cache = idx
    return idx


def current(st: State) -> Field | None:
    """``st.cache`` if it is still the Field of the state as it is now, else None: taken just
    before a piece is added or removed, to hand to ``shifted`` just after."""
    idx: Field | None = st.cache  # typed, as in ``index``
    if idx is not None and idx.key != (len(st.pieces), st.next_pid):
        return None
    return idx


def shifted(st: State, old: Field | None, p: Piece, src: int | None, dst: int | None
            ) -> Field | None:
    """The Field after one piece ``p`` went from ``src`` to ``dst`` (None: off the field),
    made from ``old`` (the Field just before, or None: nothing to start from) by redoing
    only those two places, with the key of the state as it is now and an empty memo. Lists
    in ``old`` are left as they were (callers may still be reading them)."""
    if old is None:
        return None
    # the other places' lists are shared: nothing edits a Field's lists. Copies by ``[:]``:
    # compiled, a slice is PyList_GetSlice, ``list(x)`` the generic PySequence_List
    new = Field(old.places[:])
    eng = old.eng[:]
    pres = (old.pres[0][:], old.pres[1][:])
    stk = (old.stk[0][:], old.stk[1][:])
    gen = (old.gen[0][:], old.gen[1][:])
    ter = old.ter[:]
    own = old.own
    if src is None or dst is None:
        own = (own[0][:], own[1][:])
        mine = own[p.side]
        if src is None:
            mine.append(p)  # the newest piece id
        else:
            mine.remove(p)
    if src is not None:
        new.places[src] = old[src][:]
        new.places[src].remove(p)
    if dst is not None:
        here = new.places[dst] = old[dst][:]
        pid = p.pid
        at = len(here)
        while at and here[at - 1].pid > pid:
            at -= 1
        here.insert(at, p)
    codes = _codes(st.cards)
    for k in range(2):  # src, then dst (compiled: no tuple built and iterated)
        place = src if k == 0 else dst
        if place is None:
            continue
        p0 = p1 = t = False
        k0 = k1 = 0
        g0 = g1 = None
        for q in new[place]:
            if q.up:
                code = codes[q.num]
                if code == 0:
                    t = True
                    continue
            else:
                code = 3
            if q.side:
                p1 = True
                if code == 3:
                    k1 += 1
                elif code == 1:
                    g1 = q
            else:
                p0 = True
                if code == 3:
                    k0 += 1
                elif code == 1:
                    g0 = q
        eng[place] = p0 and p1
        pres[0][place], pres[1][place] = p0, p1
        stk[0][place], stk[1][place] = k0, k1
        gen[0][place], gen[1][place] = g0, g1
        ter[place] = t
    new.eng, new.pres, new.stk, new.gen, new.ter, new.own = eng, pres, stk, gen, ter, own
    new.key = (len(st.pieces), st.next_pid)
    new.memo = {}
    return new


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


def rivers(st: State, idx: Field, pos: int) -> list[Piece]:
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
