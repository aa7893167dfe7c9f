# Over 500 lines on purpose: one idea, every legal action of every phase, in one fixed order.
"""legal_actions(state, side): every action a side may take now, in a fixed order."""

from __future__ import annotations

from typing import Any, Final, cast

from .board import (
    FRONTS,
    PLACE_NAMES,
    POSITIONS,
    SIDE_INDEX,
    SIDES,
    front,
    position_of,
    positions,
    reserve,
)
from .cards import TROOPS, Card, CardTable, keep
from .combat import shock_barred
from .moves import (
    PRUSSIAN_PLACES,
    STACK_LIMIT,
    LimitCounts,
    cos_barred,
    extra_token,
    limits_ok_counted,
    move_actions,
    occupy_options,
    over_limits,
    river_ignored,
    second_from_reserve,
)
from .queries import Field, engaged, index, on_field
from .specials import special_actions
from .state import COLUMN, FORMATIONS, Piece, State, is_over


def legal_actions(st: State, side: str) -> list[dict]:
    s = SIDE_INDEX[side]
    if is_over(st) or st.priority != s:
        return []
    idx = index(st)
    phase, step = st.phase, st.step
    if phase == "deploy":
        return deploy_actions(st, idx, s)
    if step == "response":
        return special_actions(st, idx, s) + [{"type": "pass", "side": side}]
    if phase == "morale":
        return special_actions(st, idx, s) + [{"type": "roll_morale", "side": side}]
    if phase == "reinforce":
        return special_actions(st, idx, s) + [{"type": "end_turn", "side": side}]
    # combat phase, main step
    return combat_actions(st, idx, s)


def terrain_action(st: State, idx: Field, s: int, num: int, deploying: bool
                   ) -> dict | None:
    """4.2/11.0: Terrain only in its own battle and printed Position, only in a friendly
    unengaged Position, face-up; a River goes to the Middle Ground in front (11.3)."""
    c = st.cards[num]
    if c.tbattle != st.battle or c.tpos is None:
        return None
    pos = position_of(s, c.tpos)
    if not deploying and engaged(st, idx[pos]):
        return None
    return {"type": "play_terrain", "side": SIDES[s], "card": num}


def decoy_actions(st: State, idx: Field, s: int, num: int, kind: str
                  ) -> list[dict]:
    """14.0: a General, Special or Terrain face-down in an unengaged own Position."""
    out = []
    eng, stk = idx.eng, idx.stk[s]
    for pos in positions(s):
        if eng[pos] or stk[pos] >= 4:
            continue
        out.append({"type": kind, "side": SIDES[s], "card": num, "to": PLACE_NAMES[pos]})
    return out


def deploy_actions(st: State, idx: Field, s: int) -> list[dict]:
    """4.1 Battle Deployment: 1-4 face-down cards per Position; Generals and Terrain face-up
    beyond the limit."""
    side = SIDES[s]
    out: list[dict] = []
    stk, gen, ter = idx.stk[s], idx.gen[s], idx.ter
    mine = positions(s)
    occs: dict[tuple[int, bool], list[int]] = {}
    decoys = st.settings.get("decoys")
    cards = st.cards
    can_deploy = False
    # action dicts are copies of this one, their keys in the same order (compiled, copying a
    # small dict and setting a value costs less than building the dict key by key)
    base: dict[str, Any] = {"type": "deploy", "side": side, "card": 0, "to": ""}
    seen = set()
    for num in st.reserve[s]:
        if num in seen:
            continue
        seen.add(num)
        c = cards[num]
        if c.army == "prussian" and not st.prussians:
            continue
        kind = c.kind
        if c.troop:
            infantry = kind == "infantry"
            for pos in mine:
                if stk[pos] >= 4:
                    continue
                can_deploy = True
                a = base.copy()  # {"type": "deploy", "side": side, "card": num, "to": ...}
                a["card"] = num
                a["to"] = PLACE_NAMES[pos]
                out.append(a)
                if infantry:
                    # MagWeb Q&A 4.1: Infantry deploy in any formation (RULINGS 4.1-c); Line
                    # when the action names none
                    b = a.copy()
                    b["formation"] = "column"
                    out.append(b)
                    b = a.copy()
                    b["formation"] = "square"
                    out.append(b)
                if ter[pos]:
                    key = (pos, infantry)
                    if key not in occs:
                        occs[key] = occupy_options(st, idx, s, c, pos)
                    for t in occs[key]:
                        for f in (_DEPLOY_FORMS if infantry else _NO_FORM):
                            b = a.copy()
                            if f is not None:
                                b["formation"] = f
                            b["occupy"] = t
                            out.append(b)
        elif kind == "general":
            if cos_barred(st, c):
                continue
            for pos in mine:
                if gen[pos] is None:
                    can_deploy = True
                    out.append({"type": "deploy", "side": side, "card": num,
                                "to": PLACE_NAMES[pos]})
        elif kind == "terrain":
            ta = terrain_action(st, idx, s, num, deploying=True)
            if ta:
                out.append(ta)
        if decoys and not c.troop:
            out.extend(decoy_actions(st, idx, s, num, "decoy"))
    out.extend(special_actions(st, idx, s))
    if deployment_complete(st, idx, s, can_deploy):
        out.append({"type": "deployment_done", "side": side})
    return out


def deployment_complete(st: State, idx: Field, s: int, can_deploy: bool) -> bool:
    """4.1: at least one card in each Position, unless nothing more can be deployed
    (RULINGS 4.1-b)."""
    if all(any(q.side == s for q in idx[pos]) for pos in positions(s)):
        return True
    return not can_deploy


def terrain_place(st: State, s: int, num: int) -> int:
    c = st.cards[num]
    pos = position_of(s, cast(str, c.tpos))  # a playable Terrain card has its Position
    return front(pos) if c.tclass == "river" else pos


# --- the Combat Phase main step, fast path -------------------------------------------------
# ``legal_actions`` spends nearly all its time here, so this is one flat function with the
# per-call facts (targets per place, blocked river fronts, reserve-entry destinations) worked
# out once. It lists exactly what the rule-by-rule ``reference_combat_actions`` of
# tests/engine/reference.py lists, in the same order; tests/engine/test_golden_replays.py
# checks the two agree along random battles.

_FORM_NAMES: Final = FORMATIONS
_TWO_MOVES: Final = ("cavalry", "general")
_FRONT: Final = tuple(front(p) if p in POSITIONS else 0 for p in range(11))
# Line when the action names none
_DEPLOY_FORMS: Final[tuple[str | None, ...]] = (None, "column", "square")
_NO_FORM: Final[tuple[str | None, ...]] = (None,)
_COMBAT: Final[tuple[str, ...]] = ("combat:french", "combat:allied")  # Field memo keys


def _templates(*keys: str) -> tuple[dict[str, Any], ...]:
    """One action dict per side, ``keys`` after type and side set to 0: the templates that
    ``combat_actions`` copies (compiled, copying a small dict and setting one or two values
    costs less than building it key by key). Never changed: only their copies are listed."""
    return tuple({"type": keys[0], "side": side, **dict.fromkeys(keys[1:], 0)}
                 for side in SIDES)


_MOVE: Final = _templates("move", "piece", "to")
_FIRE: Final = _templates("fire", "piece", "target")
_SHOCK: Final = _templates("shock", "piece", "target")
_FORM: Final = _templates("change_formation", "piece", "formation")
_OCCUPY: Final = _templates("occupy", "piece", "terrain")
_END_PHASE: Final = _templates("end_phase")
_NO_TERRAIN: Final[list[int]] = []  # no terrain to occupy (shared: never changed)
_OTHER_FORMS: Final = tuple(tuple(n for g, n in enumerate(FORMATIONS) if g != f) for f in range(3))


class _Listing:
    """What ``combat_actions`` works out on demand for one listing: targets per place (7.4,
    after the "hit first" lock), the side's ``LimitCounts`` (8.4-a), terrain to occupy per
    place and kind (11.0). A class rather than closures: compiled, closures make reference
    cycles (their environment and the functions) that only the cyclic GC frees, and each
    call goes through Python's calling convention."""

    __slots__ = ("st", "idx", "s", "cand_memo", "terrain_at", "tcache", "counted", "occ_cache")
    st: State
    idx: Field
    s: int
    cand_memo: dict[int, list[Piece]]
    terrain_at: list[bool]
    tcache: dict[int, list[Piece]]
    counted: LimitCounts | None
    occ_cache: dict[tuple[int, bool], list[int]]

    def __init__(self, st: State, idx: Field, s: int, cand_memo: dict[int, list[Piece]],
                 terrain_at: list[bool]) -> None:
        self.st, self.idx, self.s = st, idx, s
        self.cand_memo, self.terrain_at = cand_memo, terrain_at
        self.tcache = {}
        self.counted = None
        self.occ_cache = {}

    def targets(self, place: int) -> list[Piece]:
        got = self.tcache.get(place)
        if got is not None:
            return got
        cands = self.cand_memo.get(place)
        if cands is None:
            cards, foe = self.st.cards, 1 - self.s
            cands = self.cand_memo[place] = [q for q in self.idx[place] if q.side == foe and
                                             (not q.up or cards[q.num].kind in TROOPS)]
        hit = self.st.hit
        if hit and cands:
            fresh = [q for q in cands if q.pid not in hit]
            got = self.tcache[place] = fresh if fresh else cands
        else:
            got = self.tcache[place] = cands
        return got

    def limits_ok(self, c: Card, p: Piece | None, dst: int) -> bool:
        counted = self.counted
        if counted is None:  # made when first needed
            counted = self.counted = LimitCounts(self.st, self.idx, self.s)
        return limits_ok_counted(counted, c, p, dst)

    def occupy(self, c: Card, place: int) -> list[int]:
        if not self.terrain_at[place] or c.kind not in TROOPS:
            return _NO_TERRAIN
        key = (place, c.kind == "infantry")
        got = self.occ_cache.get(key)
        if got is None:
            got = self.occ_cache[key] = occupy_options(self.st, self.idx, self.s, c, place)
        return got


def _in_woods(st: State, q: Piece) -> bool:
    if q.occ:
        t = st.pieces.get(q.occ)
        return t is not None and st.cards[t.num].tclass == "woods"
    return False


def combat_actions(st: State, idx: Field, s: int) -> list[dict]:
    side = SIDES[s]
    cards = st.cards
    pieces = st.pieces
    eng, pres, stk, gen = idx.eng, idx.pres, idx.stk, idx.gen
    foe_pres, own_stk, own_gen = pres[1 - s], stk[s], gen[s]
    res = 4 * s
    waterloo = st.battle == "waterloo"
    last_mover = st.last_mover
    over = over_limits(st, idx, s)  # RULINGS 8.4-a
    # Field-level facts, kept in the Field's memo: river Move Limits per front, face-up
    # Terrain per Position, and the enemy cards that could be targeted per place
    facts: tuple[list[tuple[int, int]], list[tuple[int, list[Piece]]],
                 dict[int, list[Piece]]] | None = idx.memo.get(_COMBAT[s])
    if facts is None:
        rivers_: list[tuple[int, int]] = []
        for fr in FRONTS:
            limit = 0
            for q in idx[fr]:
                if q.up:
                    limit += cards[q.num].move_limit
            if limit:
                rivers_.append((fr, limit))
        terrains: list[tuple[int, list[Piece]]] = []
        ter = idx.ter
        for place in POSITIONS:
            if ter[place]:
                ts = [q for q in idx[place] if q.up and cards[q.num].kind == "terrain"]
                if ts:
                    terrains.append((place, ts))
        facts = idx.memo[_COMBAT[s]] = (rivers_, terrains, {})
    rivers_, terrains, cand_memo = facts
    # 11.3 fronts a troop card may not cross now; 13.0 extra_move tokens by place
    # (None: a special may lift the limit for some cards, asked per card)
    blocked: list = [False] * 11
    crossings = st.crossings
    for fr, limit in rivers_:
        if crossings.get(fr, 0) >= limit:
            blocked[fr] = True
            for e in st.effects:
                if e["side"] == s and front(e["place"]) == fr and \
                        cards[e["card"]].effect["kind"] == "ignore_river_limit":
                    blocked[fr] = None
    tokens = [False] * 11  # True: an extra_move effect there (for which cards: extra_token)
    for e in st.effects:
        if e["side"] == s and e["left"] > 0 and cards[e["card"]].effect["kind"] == "extra_move":
            tokens[e["place"]] = True
    # 11.0 places holding friendly terrain (the only places where occupying is possible)
    terrain_at = [False] * 11
    for place, ts in terrains:
        for q in ts:
            if q.ctrl == s:
                terrain_at[place] = True
    lst = _Listing(st, idx, s, cand_memo, terrain_at)
    # action dicts are copies of the templates, their keys in the same order (_templates)
    move = _MOVE[s]
    fire = _FIRE[s]
    out: list[dict] = []
    pfacts = _piece_facts(cards)
    for p in idx.own[s]:
        if p.fired:
            continue  # 7.0 a card that fired or shocked does nothing more this turn
        c, kind, troop, prussian, limit = pfacts[p.num]
        if not troop and (kind != "general" or not p.up):
            if not p.up and not p.moves and (p.place >> 2) == s and \
                    (not over or lst.limits_ok(c, p, res)):
                # MagWeb Q&A 14.0: a decoy may be pulled back into the Reserve (14.0-a)
                out.append({"type": "move", "side": side, "piece": p.pid, "to": PLACE_NAMES[res]})
            continue  # terrain never acts; a decoy does nothing else (14.0)
        pid = p.pid
        src = p.place
        m = p.moves
        src_eng = eng[src]
        # ---- moves (8.0-8.4)
        if m and not tokens[src] and (m >= limit or last_mover != pid) and \
                not (kind == "artillery" and c.horse and m == 1) and \
                not (kind == "infantry" and not src_eng and not p.formed):
            continue  # a card that has moved: no move left, and nothing below needs m == 0
        go = True
        token = tokens[src] and extra_token(st, s, src, c) is not None
        if m < limit:
            second = m > 0
            if second and last_mover != pid and not token:
                go = False
        elif m == limit and token:
            second = True
        else:
            go = False
        if go and not (second and src_eng):
            dsts = []
            own_src = (src >> 2) == s
            # back to the Reserve: only from an own Position (8.2 disengaging rules)
            if own_src and not (src_eng and (second or p.eng)):
                dsts.append(res)
            # across the Middle Ground to the facing Position
            dst = 8 - src
            if not (prussian and waterloo and dst not in PRUSSIAN_PLACES):
                dst_enemy = foe_pres[dst]
                if src_eng:
                    go = not (second or own_src or dst_enemy or p.eng)
                elif dst_enemy:
                    go = not (p.dis or (kind == "artillery" and not c.horse))
                if go and kind != "general":
                    b = blocked[_FRONT[src]]
                    if b or (b is None and not river_ignored(st, s, _FRONT[src], c)):
                        go = False  # 11.3
                if go:
                    dsts.append(dst)
            if dsts and (over or (own_gen[dsts[-1]] is not None if kind == "general" else
                                  (not p.up or troop) and own_stk[dsts[-1]] >= STACK_LIMIT)):
                # 8.0 stacking ignored until movement is completed (RULINGS 8.4-a)
                dsts = [d for d in dsts if lst.limits_ok(c, p, d)]
            for dst in dsts:
                occs = lst.occupy(c, dst) if terrain_at[dst] else _NO_TERRAIN
                a = move.copy()  # {"type": "move", "side": side, "piece": pid, "to": ...}
                a["piece"] = pid
                a["to"] = PLACE_NAMES[dst]
                if kind == "infantry" and dst != res:
                    forms = (_FORM_NAMES[p.form],) if src_eng else _FORM_NAMES
                    for f in forms:
                        b = a.copy()
                        b["formation"] = f
                        out.append(b)
                        for tid in occs:
                            d = b.copy()
                            d["occupy"] = tid
                            out.append(d)
                else:
                    out.append(a)
                    for tid in occs:
                        d = a.copy()
                        d["occupy"] = tid
                        out.append(d)
        if not troop or over:
            continue  # RULINGS 8.4-a: over a limit, only moves are listed
        # ---- fire (7.21-7.24, 11.2)
        cands = None
        if kind == "artillery":
            if m <= (1 if c.horse else 0):
                if src_eng:
                    cands = lst.targets(src)
                elif (src < 4) == (s == 0):
                    there = 8 - src
                    if not any(q.side == s for q in idx[there]):
                        cands = lst.targets(there)
        elif not m and src_eng:
            cands = lst.targets(src)
        if cands:
            infantry = kind == "infantry"
            for t in cands:
                if not infantry and _in_woods(st, t):
                    continue
                a = fire.copy()  # {"type": "fire", "side": side, "piece": pid, "target": ...}
                a["piece"] = pid
                a["target"] = t.pid
                out.append(a)
        # ---- shock (7.3x, 9.x, 11.x)
        if not m and src_eng and ((kind == "infantry" and p.form == COLUMN) or
                                   (kind == "cavalry" and not p.blown)):
            mine = pieces.get(p.occ) if p.occ else None
            if mine is None or cards[mine.num].tclass != "building":
                for t in lst.targets(src):
                    if shock_barred(st, c, t):
                        continue
                    a = _SHOCK[s].copy()  # {"type": "shock", "side": side, "piece": pid, ...}
                    a["piece"] = pid
                    a["target"] = t.pid
                    out.append(a)
        # ---- formation changes (9.0) and occupying terrain (11.5)
        if kind == "infantry" and ((m == 0) if src_eng else not p.formed):
            for name in _OTHER_FORMS[p.form]:
                a = _FORM[s].copy()  # {"type": "change_formation", "side": side, ...}
                a["piece"] = pid
                a["formation"] = name
                out.append(a)
        if m == 0 and not p.occ and terrain_at[src]:
            for tid in lst.occupy(c, src):
                a = _OCCUPY[s].copy()  # {"type": "occupy", "side": side, "piece": pid, ...}
                a["piece"] = pid
                a["terrain"] = tid
                out.append(a)
    # ---- cards in the Reserve
    _reserve_actions(st, idx, s, out, lst)
    if over:
        return [a for a in out if a["type"] == "move"]  # RULINGS 8.4-a: only moves
    out.extend(special_actions(st, idx, s))
    out.append(_END_PHASE[s].copy())
    return out


def _reserve_actions(st: State, idx: Field, s: int, out: list[dict], lst: _Listing) -> None:
    """The Combat Phase actions of the cards in a side's Reserve (part of combat_actions)."""
    decoys = st.settings.get("decoys")
    prussians = st.prussians
    reserve_ = st.reserve[s]
    fresh = st.fresh[s]
    cards = st.cards
    side = SIDES[s]
    terrain_at = lst.terrain_at
    # (plain, items) per kind of card: kept in the Field's memo, keyed by what else they
    # read (river crossings, effects, who occupies and controls own Positions' terrain)
    occsig = None
    for place in positions(s):
        if terrain_at[place]:
            if occsig is None:
                occsig = []
            for q in idx[place]:
                occsig.append(q.occ)
                occsig.append(q.ctrl)
    key = ("entry", s, tuple(st.crossings.items()), tuple(e["eid"] for e in st.effects),
           tuple(occsig) if occsig else None)
    entry: dict[Any, tuple[bool, tuple[Any, ...]]] | None = idx.memo.get(key)
    if entry is None:
        entry = idx.memo[key] = {}
    facts = _card_facts(cards)
    own_stk, own_gen = idx.stk[s], idx.gen[s]
    over = over_limits(st, idx, s)
    full = any(own_stk[d] >= STACK_LIMIT for d in positions(s))
    gen_at = any(own_gen[d] is not None for d in positions(s))
    # 10.0 cards drawn this turn (all copies of their number just drawn) wait
    stale: set[int] = {n for n in fresh if reserve_.count(n) <= fresh.count(n)} if fresh \
        else set()
    bad_memo: dict[str, set] = {}  # kind of card -> Positions it may not enter (8.4-a)
    seen = set()
    for num in reserve_:
        if num in seen:
            continue
        seen.add(num)
        kind, special, prussian, exempt, ekey, cos, troop = facts[num]
        if special and not decoys:
            continue  # specials are listed by special_actions below
        # 10.0 (specials.playable)
        if prussian and not prussians:
            continue
        if num in stale and not exempt:
            if st.back is not None and second_from_reserve(st, s, num) is not None:
                # RULINGS 8.2-b/8.3 a consecutive second move out of the Reserve
                out += move_actions(st, idx, s, cards[num], None, {"card": num})
            continue
        c = cards[num]
        if ekey is not None:  # troops and Generals
            moves: tuple[bool, tuple[Any, ...]] | None = entry.get(ekey)
            if cos:
                cmd = cards.commanders.get(c.army)
                if cmd is not None and on_field(st, cmd):
                    moves = (False, ())  # 12.3 (cos_barred)
            if moves is None:
                # (plain, items): items are destination names (or (name, formation) pairs
                # for Infantry) when no terrain can be occupied, else (name, form, terrain)
                inf = kind == "infantry"
                dsts = _entry_destinations(st, idx, s, c)
                occs = [lst.occupy(c, dst) if idx[dst] else _NO_TERRAIN for dst in dsts]
                if not any(occs):
                    if inf:
                        moves = (True, tuple((PLACE_NAMES[d], f) for d in dsts
                                             for f in _FORM_NAMES))
                    else:
                        moves = (True, tuple(PLACE_NAMES[d] for d in dsts))
                else:
                    items_ = []
                    for dst, oc in zip(dsts, occs, strict=True):
                        for f in (_FORM_NAMES if inf else (None,)):
                            for t in (0, *oc):
                                items_.append((PLACE_NAMES[dst], f, t))
                    moves = (False, tuple(items_))
                entry[ekey] = moves
            plain, items = moves
            if items and (over or (gen_at if kind == "general" else full)):
                # 8.0 stacking ignored until movement is completed (RULINGS 8.4-a)
                # a card entering from the Reserve: limits_ok reads only its kind
                bad = bad_memo.get(kind)
                if bad is None:
                    general = kind == "general"
                    bad = bad_memo[kind] = {
                        PLACE_NAMES[d] for d in positions(s)
                        if (over or (own_gen[d] is not None if general else
                                     own_stk[d] >= STACK_LIMIT)) and
                        not lst.limits_ok(c, None, d)}
                if bad:
                    items = tuple(x for x in items
                                  if (x if isinstance(x, str) else x[0]) not in bad)
            if plain:
                # copies of one dict, keys in the same order (cheaper compiled: see deploy)
                a: dict[str, Any] = {"type": "move", "side": side, "card": num, "to": ""}
                # items read typed (compiled: unpacked natively, not by the iterator
                # protocol on an Any); what they hold is said where they are built above
                if kind == "infantry":
                    for to, f in cast("tuple[tuple[str, str], ...]", items):
                        b = a.copy()
                        b["to"] = to
                        b["formation"] = f
                        out.append(b)
                else:
                    for to in cast("tuple[str, ...]", items):
                        b = a.copy()
                        b["to"] = to
                        out.append(b)
            else:
                for to, f, t in cast("tuple[tuple[str, str | None, int], ...]", items):
                    a = {"type": "move", "side": side, "card": num, "to": to}
                    if f is not None:
                        a["formation"] = f
                    if t:
                        a["occupy"] = t
                    out.append(a)
        elif over:
            continue  # RULINGS 8.4-a: only moves (combat_actions drops the rest)
        elif kind == "terrain":
            ta = terrain_action(st, idx, s, num, deploying=False)
            if ta:
                out.append(ta)
        if decoys and not troop and not over:
            out.extend(decoy_actions(st, idx, s, num, "decoy"))


def _card_facts(cards: CardTable) -> dict[int, tuple[str, bool, bool, bool, Any, bool, bool]]:
    """card number -> (kind, special, Prussian, playable when just drawn (an enemy-timed
    Special, 10.0), entry key (troops and Generals: what their Reserve moves depend on; else
    None), chief of staff (12.3), troop card), worked out once per card table."""
    got: dict[int, tuple[str, bool, bool, bool, Any, bool, bool]] | None = getattr(
        cards, "_card_facts", None)
    if got is None or len(got) != len(cards):
        got = {}
        for num, c in cards.items():
            kind = c.kind
            prussian = c.army == "prussian"
            if kind == "general":
                key = ("general", False, prussian)
            elif kind in TROOPS:
                key = (kind, c.horse, prussian)
            else:
                key = None
            got[num] = (kind, kind == "special", prussian,
                        bool(kind == "special" and c.timing and c.timing.startswith("enemy")),
                        key, kind == "general" and c.cos, kind in TROOPS)
        keep(cards, "_card_facts", got)
    return got


def _piece_facts(cards: CardTable) -> dict[int, tuple[Card, str, bool, bool, int]]:
    """card number -> (card, kind, troop card, Prussian, Battle Moves a turn (8.3: two for
    Cavalry and Generals)), read by ``combat_actions`` for every piece, once per card table."""
    got: dict[int, tuple[Card, str, bool, bool, int]] | None = getattr(
        cards, "_piece_facts", None)
    if got is None or len(got) != len(cards):
        got = {num: (c, c.kind, c.kind in TROOPS, c.army == "prussian",
                     2 if c.kind in _TWO_MOVES else 1) for num, c in cards.items()}
        keep(cards, "_piece_facts", got)
    return got


def _entry_destinations(st: State, idx: Field, s: int, c: Card) -> list[int]:
    """``moves.destinations`` for a card entering from the Reserve (not barred by 12.3 or
    10.0), spelled out, before the limits of 8.4 and 12.0 (which read more than the Field).
    No river lies between a Reserve and its Positions (11.3)."""
    kind = c.kind
    foe_pres = idx.pres[1 - s]
    prussian = st.battle == "waterloo" and c.army == "prussian"
    foot_artillery = kind == "artillery" and not c.horse
    out = []
    for dst in positions(s):
        if prussian and dst not in PRUSSIAN_PLACES:
            continue
        if foe_pres[dst] and foot_artillery:
            continue
        out.append(dst)  # the limits of 8.4 and 12.0: _reserve_actions (RULINGS 8.4-a)
    return out


__all__ = ["legal_actions", "reserve"]
