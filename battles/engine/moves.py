# Over 500 lines on purpose: one idea, movement (8.0) and its stacking limits, clause by clause.
"""Battle Moves (8.0-8.4), formations on the move (9.0), river Move Limits (11.3) and
occupying terrain (11.5)."""

from __future__ import annotations

from bisect import insort
from typing import Any, Final

from .board import (
    PLACE_INDEX,
    PLACE_NAMES,
    POSITIONS,
    SIDES,
    facing,
    front,
    is_position,
    owner,
    reserve,
)
from .cards import Card
from .effects import nation_ok, type_ok
from .errors import IllegalAction
from .queries import (
    Field,
    counts_as_troop,
    index,
    is_decoy,
    on_field,
    rivers,
    shifted,
)
from .state import FORMATIONS, LINE, Piece, State

STACK_LIMIT: Final = 4  # 8.4
GENERAL_LIMIT: Final = 1  # 12.0 "Only one (1) General may occupy each Position"
PRUSSIAN_PLACES: Final = (4, 5, 3)  # 10.0: allied reserve, British Left, French Right


def max_moves(c: Card) -> int:
    """8.3/12.0: Cavalry and Generals two moves; everyone else one (7.24: horse artillery)."""
    return 2 if c.kind in ("cavalry", "general") else 1


def adjacent(side: int, place: int) -> tuple[int, ...]:
    """Diagram 3 (see board.py): a side never enters the enemy Reserve."""
    if place == reserve(side):
        b = 4 * side
        return (b + 1, b + 2, b + 3)
    if owner(place) == side:
        return (reserve(side), facing(place))
    return (facing(place),)


def prussian_barred(st: State, c: Card, dst: int) -> bool:
    return st.battle == "waterloo" and c.army == "prussian" and dst not in PRUSSIAN_PLACES


def cos_barred(st: State, c: Card) -> bool:
    """12.3: a chief of staff stays in the Reserve while his commander is on the field."""
    if not c.cos:
        return False
    cmd = st.cards.commanders.get(c.army)
    return cmd is not None and on_field(st, cmd)


def river_limit(st: State, idx: Field, pos: int) -> int:
    """11.3: the Move Limit of the rivers in front of a Position (several add up); 0 = none."""
    return sum(st.cards[p.num].move_limit for p in rivers(st, idx, pos))


def _aids(st: State, e: dict, c: Card) -> bool:
    """13.0: whether the special in effect e aids card c (its type, elite and nationality
    restrictions; British Specials, and Prussian ones at Waterloo, aid only their own)."""
    sc = st.cards[e["card"]]
    return type_ok(sc, c) and nation_ok(sc, c, st.battle)


def river_ignored(st: State, side: int, fr: int, c: Card) -> bool:
    """13.0 ignore_river_limit at a Position on this front, aiding card c."""
    for e in st.effects:
        if e["side"] == side and front(e["place"]) == fr and \
                st.cards[e["card"]].effect["kind"] == "ignore_river_limit" and _aids(st, e, c):
            return True
    return False


def extra_token(st: State, side: int, place: int, c: Card) -> dict | None:
    """13.0 extra_move: an extra move left at this place for card c."""
    for e in st.effects:
        if e["side"] == side and e["place"] == place and e["left"] > 0 and \
                st.cards[e["card"]].effect["kind"] == "extra_move" and _aids(st, e, c):
            return e
    return None


def step_ok(st: State, idx: Field, side: int, c: Card, p: Piece | None,
            src: int, dst: int, *, second: bool) -> bool:
    """Whether one Battle Move src -> dst is legal for card c (piece p, None from Reserve),
    leaving aside the limits of 8.4 and 12.0, which bind only once movement is completed
    (``limits_ok_after``, RULINGS 8.4-a)."""
    if dst != reserve(side) and prussian_barred(st, c, dst):
        return False
    res = 4 * side
    src_engaged = src != res and idx.eng[src]
    dst_enemy = dst != res and idx.pres[1 - side][dst]
    if src_engaged:
        # 8.2 disengaging: only to an unengaged friendly place, never after engaging (8.3).
        if second or owner(dst) != side or dst_enemy or (p is not None and p.eng):
            return False
    elif dst_enemy:
        # 8.1 engaging; 8.3 never after disengaging; foot artillery and decoys never engage.
        if p is not None and p.dis:
            return False
        if c.kind == "artillery" and not c.horse:
            return False
    if src != res and dst != res and c.kind != "general":
        fr = front(src)
        if idx[fr]:
            limit = river_limit(st, idx, src)
            if limit and not river_ignored(st, side, fr, c) and st.crossings.get(fr, 0) >= limit:
                return False  # 11.3
    return True


_OVER: Final[tuple[str, ...]] = ("over:french", "over:allied")  # over_limits' memo keys


def over_limits(st: State, idx: Field, side: int) -> bool:
    """Whether the side now exceeds a limit somewhere: more than four cards counting for
    stacking (8.4) or more than one General (12.0) in a Position. A Field-only fact."""
    key = _OVER[side]
    got = idx.memo.get(key)
    if got is None:
        stk = idx.stk[side]
        got = any(stk[place] > STACK_LIMIT for place in POSITIONS)
        if not got:
            cards = st.cards
            seen = set()
            for q in idx.own[side]:
                if q.up and cards[q.num].kind == "general":
                    if q.place in seen:
                        got = True
                        break
                    seen.add(q.place)
        idx.memo[key] = got
    return got


_NEW: Final = Piece(0, 0, 0, 0, up=True)  # stands for a card just entering from the Reserve


def _may_withdraw(st: State, q: Piece, c: Card, moves: int, mover: bool, engaged: bool
                  ) -> bool:
    """Whether own card q, in an own Position, can still make a Battle Move to the Reserve
    this turn (8.0-8.3): not fired, a move left (the second one only consecutively), and if
    engaged only as its first move and not having engaged this turn. Extra-move specials
    are left out (a sufficient test)."""
    if q.fired:
        return False  # 7.0
    kind = c.kind
    if c.troop:
        limit = 2 if kind == "cavalry" else 1
    elif kind == "general":
        if not q.up:
            return False  # 14.0 decoys never move
        limit = 2
    else:
        return False  # 14.0 decoys never move; terrain and specials do not either
    if moves >= limit or (moves and not mover):
        return False
    if engaged and (moves or q.eng):
        return False  # 8.2/8.3
    return True


def limits_ok_after(st: State, idx: Field, side: int, c: Card, p: Piece | None, src: int, dst: int,
                    entry_moves: int = 1) -> bool:
    """RULINGS 8.4-a. 8.0: "Stacking Limits (8.4) are ignored until all movement is
    completed"; the MagWeb Q&A (8.3) extends this to 12.0's one General per Position. A move
    may leave the side over a limit only if every Position over it holds enough cards that
    can still go back to the Reserve (unlimited, 8.4) to get within it, so that the moves
    then listed always lead back within the limits (never a dead end): while over, the side
    may only move (legal.py), so it is within the limits before it fires, plays a card or
    ends the Combat Phase. An enemy Position has no way back to the Reserve: never over."""
    cards = st.cards
    foe_pres = idx.pres[1 - side]
    general = c.kind == "general"
    counts = counts_as_troop(st, p) if p is not None else c.troop
    for place in POSITIONS:
        if place != dst and not idx.pres[side][place]:
            continue
        troops, gens, out_t, out_g = 0, 0, 0, 0
        own = owner(place) == side
        for q in idx[place]:
            if q.side != side or q is p:
                continue
            qc = cards[q.num]
            if q.up and qc.kind == "general":
                gens += 1
                if own and _may_withdraw(st, q, qc, q.moves, False, foe_pres[place]):
                    out_g += 1
            elif not q.up or qc.troop:
                troops += 1
                if own and _may_withdraw(st, q, qc, q.moves, False, foe_pres[place]):
                    out_t += 1
        if place == dst:
            m = entry_moves if p is None else p.moves + 1
            ok = own and (p is None or not p.fired) and \
                _may_withdraw(st, p if p is not None else _NEW, c, m, True, foe_pres[place])
            if general:
                gens += 1
                out_g += ok
            elif counts:
                troops += 1
                out_t += ok
        if troops > STACK_LIMIT and out_t < troops - STACK_LIMIT:
            return False
        if gens > GENERAL_LIMIT and out_g < gens - GENERAL_LIMIT:
            return False
    return True


class LimitCounts:
    """``limits_ok_after`` for one listing (legal.combat_actions), counted once: per place
    (filled in when first asked), the side's (troops, Generals, troops that may withdraw,
    Generals that may withdraw). Reads per-turn piece flags (moves, fired, eng), so it
    holds only while nothing is applied: callers keep one for one listing. A plain class
    holding its list (compiled: a native class, its attributes and methods direct)."""

    __slots__ = ("st", "idx", "side", "over", "_failing", "_at")
    st: State
    idx: Field
    side: int
    over: bool
    _failing: Any
    _at: list[Any]

    def __init__(self, st: State, idx: Field, side: int) -> None:
        self._at = [None] * 11
        self.st, self.idx, self.side = st, idx, side
        self.over = over_limits(st, idx, side)
        self._failing = None

    def failing(self) -> tuple[int, ...]:
        """The Positions over a limit without enough cards able to withdraw, as they are."""
        got: Any = self._failing
        if got is None:
            got = []
            for place in POSITIONS:
                troops, gens, out_t, out_g = self.at(place)
                if (troops > STACK_LIMIT and out_t < troops - STACK_LIMIT) or \
                        (gens > GENERAL_LIMIT and out_g < gens - GENERAL_LIMIT):
                    got.append(place)
            got = self._failing = tuple(got)
        return got

    def at(self, place: int) -> tuple[int, int, int, int]:
        got = self._at[place]
        if got is None:
            st, side = self.st, self.side
            cards = st.cards
            foe = self.idx.pres[1 - side][place]
            troops, gens, out_t, out_g = 0, 0, 0, 0
            own = owner(place) == side
            for q in self.idx[place]:
                if q.side != side:
                    continue
                qc = cards[q.num]
                if q.up and qc.kind == "general":
                    gens += 1
                    if own and _may_withdraw(st, q, qc, q.moves, False, foe):
                        out_g += 1
                elif not q.up or qc.troop:
                    troops += 1
                    if own and _may_withdraw(st, q, qc, q.moves, False, foe):
                        out_t += 1
            got = self._at[place] = (troops, gens, out_t, out_g)
        return got


def limits_ok_counted(counts: LimitCounts, c: Card, p: Piece | None, dst: int,
                      entry_moves: int = 1) -> bool:
    """``limits_ok_after`` (piece p, None from the Reserve, moving to dst) from the side's
    ``LimitCounts`` taken before the move: p's share is taken out of its place and added at
    dst. While the side is within every limit (not ``over``), only dst can go over: the
    other places keep their cards or lose p."""
    st, idx, side = counts.st, counts.idx, counts.side
    foe_pres = idx.pres[1 - side]
    general = c.kind == "general"
    counts_troop = (not p.up or c.troop) if p is not None else c.troop
    if not counts.over:  # the same test as the loop below, at dst alone
        if dst & 3 == 0 or not (general or counts_troop):
            return True  # to the Reserve, or a card that counts for no limit
        troops, gens, out_t, out_g = counts.at(dst)
        if general:
            if not gens:
                return True
        elif troops < STACK_LIMIT:
            return True
        ok = owner(dst) == side and (p is None or not p.fired) and \
            _may_withdraw(st, p if p is not None else _NEW, c,
                          entry_moves if p is None else p.moves + 1, True, foe_pres[dst])
        if general:
            return out_g + ok >= gens
        return out_t + ok >= troops + 1 - STACK_LIMIT
    # over a limit somewhere: every other place keeps its counts, so it fails as it is now;
    # the place p leaves and dst are counted again with p's share moved
    src = p.place if p is not None else None
    for place in counts.failing():
        if place != src and place != dst:
            return False
    for k in range(2):  # src, then dst (compiled: no tuple built and iterated)
        place_ = src if k == 0 else dst
        if place_ is None or not is_position(place_):
            continue
        place = place_
        troops, gens, out_t, out_g = counts.at(place)
        own = owner(place) == side
        if p is not None and p.place == place:  # the piece that moves leaves its place
            pc = st.cards[p.num]
            if p.up and pc.kind == "general":
                gens -= 1
                if own and _may_withdraw(st, p, pc, p.moves, False, foe_pres[place]):
                    out_g -= 1
            elif not p.up or pc.troop:
                troops -= 1
                if own and _may_withdraw(st, p, pc, p.moves, False, foe_pres[place]):
                    out_t -= 1
        if place == dst:
            m = entry_moves if p is None else p.moves + 1
            ok = own and (p is None or not p.fired) and \
                _may_withdraw(st, p if p is not None else _NEW, c, m, True, foe_pres[place])
            if general:
                gens += 1
                out_g += ok
            elif counts_troop:
                troops += 1
                out_t += ok
        if troops > STACK_LIMIT and out_t < troops - STACK_LIMIT:
            return False
        if gens > GENERAL_LIMIT and out_g < gens - GENERAL_LIMIT:
            return False
    return True


def second_from_reserve(st: State, side: int, num: int) -> dict | None:
    """RULINGS 8.2-b/8.3: the Cavalry or General card ``num`` made its first move of the turn
    to the Reserve and no other card has acted since: it may leave the Reserve again as its
    consecutive second move (8.3 "two (2) consecutive battle moves"). Any other card that
    moved to the Reserve stays there this turn (8.0 one Battle Move)."""
    b = st.back
    if b is None or b["card"] != num or st.last_mover != b["piece"] or st.active != side:
        return None
    return b


def needs_limits_check(st: State, idx: Field, side: int, c: Card, p: Piece | None, dst: int
                       ) -> bool:
    """Whether a move to dst could leave the side over a limit (8.4, 12.0)."""
    if over_limits(st, idx, side):
        return True
    if dst == reserve(side):
        return False
    if c.kind == "general":
        return idx.gen[side][dst] is not None
    counts = counts_as_troop(st, p) if p is not None else c.troop
    return counts and idx.stk[side][dst] >= STACK_LIMIT


def destinations(st: State, idx: Field, side: int, c: Card, p: Piece | None
                 ) -> list[int]:
    """Where this card may make its next Battle Move now."""
    src = reserve(side) if p is None else p.place
    back = None
    if p is None:
        if cos_barred(st, c) or (c.army == "prussian" and not st.prussians):
            return []
        second = False
        if not _playable_now(st, side, c.num):
            back = second_from_reserve(st, side, c.num)
            if back is None:
                return []
            second = True
    elif is_decoy(st, p):
        # MagWeb Q&A 14.0: a decoy may be pulled back into the Reserve during one's turn
        # to move (RULINGS 14.0-a): its one Battle Move, only that one
        res = reserve(side)
        if p.moves or owner(src) != side or \
                (needs_limits_check(st, idx, side, c, p, res) and
                 not limits_ok_after(st, idx, side, c, p, src, res)):
            return []
        return [res]
    else:
        if p.fired or not (p.up or c.troop):
            return []
        limit = max_moves(c)
        if p.moves < limit:
            second = p.moves > 0
            if second and st.last_mover != p.pid:
                second_ok = False  # 8.3: the two moves are consecutive
            else:
                second_ok = True
            if not second_ok:
                if p.moves == limit - 1 and p.moves >= 1:
                    # may still use an extra_move token instead
                    if extra_token(st, side, src, c) is None:
                        return []
                    second = True
        elif p.moves == limit and extra_token(st, side, src, c) is not None:
            second = True
        else:
            return []
        if second and src != reserve(side) and idx.eng[src]:
            return []  # 8.3 never move through an engagement
    out = []
    for dst in adjacent(side, src):
        if back is not None and back["disengaged"] and idx.pres[1 - side][dst]:
            continue  # 8.3 never disengage and engage in one turn
        if step_ok(st, idx, side, c, p, src, dst, second=second) and \
                (not needs_limits_check(st, idx, side, c, p, dst) or
                 limits_ok_after(st, idx, side, c, p, src, dst, 2 if back else 1)):
            out.append(dst)  # 8.0 stacking ignored until movement is completed (8.4-a)
    return out


def _playable_now(st: State, side: int, num: int) -> bool:
    """10.0 / RULINGS 8.2-b: not every copy of num in the Reserve arrived there this turn."""
    fresh = st.fresh[side]
    return not fresh or st.reserve[side].count(num) > fresh.count(num)


def occupy_options(st: State, idx: Field, side: int, c: Card, dst: int) -> list[int]:
    """11.0: vacant friendly terrain at dst this troop card may occupy (1-2 per terrain)."""
    if not c.troop or dst == reserve(side):
        return []
    out = []
    for t in idx[dst]:
        if not t.up or t.ctrl != side:
            continue
        tc = st.cards[t.num]
        if tc.kind != "terrain" or tc.tclass == "river":
            continue
        if tc.tclass in ("woods", "building") and c.kind != "infantry":
            continue  # 11.2, 11.4 only Infantry defend Woods and Buildings
        if sum(1 for q in idx[dst] if q.occ == t.pid) < 2:
            out.append(t.pid)
    return out


def move_actions(st: State, idx: Field, side: int, c: Card, p: Piece | None,
                 ident: dict) -> list[dict]:
    out: list[dict] = []
    src = reserve(side) if p is None else p.place
    src_engaged = src != reserve(side) and idx.eng[src]
    for dst in destinations(st, idx, side, c, p):
        base = {"type": "move", "side": SIDES[side], **ident, "to": PLACE_NAMES[dst]}
        occs = [0] + occupy_options(st, idx, side, c, dst) if idx[dst] else [0]
        if c.kind == "infantry" and dst != reserve(side):
            forms: Any
            if src_engaged:
                assert p is not None
                forms = (FORMATIONS[p.form],)  # 9.0 engaged infantry: a move is a move
            else:
                forms = FORMATIONS
        else:
            forms = (None,)
        for f in forms:
            for t in occs:
                a = dict(base)
                if f is not None:
                    a["formation"] = f
                if t:
                    a["occupy"] = t
                out.append(a)
    return out


def do_move(st: State, side: int, a: dict, events: list[dict]) -> Piece | None:
    """Apply a (legal) move; returns the piece, or None if it went to the Reserve."""
    dst = PLACE_INDEX[a["to"]]
    idx = index(st)
    if "card" in a:
        num = a["card"]
        c = st.cards[num]
        back = None if _playable_now(st, side, num) else second_from_reserve(st, side, num)
        st.reserve[side].remove(num)
        p = Piece(st.next_pid, num, side, dst, up=c.kind == "general")
        st.next_pid += 1
        st.pieces[p.pid] = p
        st.cache = shifted(st, idx, p, None, dst)
        p.moves = 1
        if back is not None:
            # RULINGS 8.2-b/8.3: the consecutive second move of a card that went back to the
            # Reserve: its last move this turn, and it keeps having disengaged
            p.moves = max_moves(c)
            p.dis = back["disengaged"]
            st.fresh[side].remove(num)
        src = reserve(side)
        e = {"type": "enter", "side": SIDES[side], "piece": p.pid, "to": a["to"],
             "army": c.army, "visibility": "all"}
        if p.up:
            e["card"] = num
        events.append(e)
        if not p.up:
            events.append({"type": "enter_card", "side": SIDES[side], "piece": p.pid,
                           "card": num, "visibility": SIDES[side]})
    else:
        p = st.pieces[a["piece"]]
        c = st.cards[p.num]
        src = p.place
        limit = max_moves(c)
        if p.moves >= limit or (p.moves and st.last_mover != p.pid):
            tok = extra_token(st, side, src, c)
            if tok is None:
                raise IllegalAction("no move left")
            tok["left"] -= 1
        if idx.eng[src]:
            p.dis = True
        p.moves += 1
        p.place = dst
        st.cache = shifted(st, idx, p, src, dst) if dst != reserve(side) else None
        p.occ = 0
        events.append({"type": "move", "side": SIDES[side], "piece": p.pid,
                       "from": PLACE_NAMES[src], "to": a["to"], "visibility": "all"})
    if dst != reserve(side) and idx.pres[1 - side][dst]:
        p.eng = True
    if src != reserve(side) and dst != reserve(side) and c.kind != "general":
        fr = front(src)
        if rivers(st, idx, src):
            st.crossings[fr] = st.crossings.get(fr, 0) + 1
    if "formation" in a:
        f = FORMATIONS.index(a["formation"])
        if f != p.form:
            p.form = f
            events.append({"type": "formation", "piece": p.pid, "formation": a["formation"],
                           "visibility": "all"})
    if "occupy" in a:
        p.occ = a["occupy"]
        events.append({"type": "occupy", "piece": p.pid, "terrain": p.occ, "visibility": "all"})
    st.last_mover = p.pid
    st.back = None
    if dst == reserve(side):
        if p.moves < max_moves(c) and (p.up or c.troop):  # a decoy pulled back: not
            # 8.3 a Cavalry or General card may still make its consecutive second move
            st.back = {"card": p.num, "piece": p.pid, "disengaged": p.dis}
        to_reserve(st, p)
        st.cache = shifted(st, idx, p, src, None)  # idx: the Field before this move
        # RULINGS 8.2-b: its Battle Move ends in the Reserve; it may not leave it again this
        # turn (a card leaving the Reserve is a new piece, with fresh per-turn flags)
        st.fresh[side].append(p.num)
        return None
    return p


def to_reserve(st: State, p: Piece) -> None:
    """8.1: a card moved to the Reserve goes face-down again, losing markers (9.0)."""
    del st.pieces[p.pid]
    st.cache = None
    for q in st.pieces.values():
        if q.occ == p.pid:
            q.occ = 0
    insort(st.reserve[p.side], p.num)
    p.form = LINE
