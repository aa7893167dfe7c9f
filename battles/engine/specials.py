"""Special cards (13.0): when each may be played, where, and what it does, through the
catalogue's closed effect vocabulary (cards/catalogue/rules.py EFFECT_KINDS)."""

from __future__ import annotations

from bisect import insort
from itertools import combinations
from typing import Any, Final

from .board import PLACE_INDEX, PLACE_NAMES, POSITIONS, SIDES, facing, front, owner
from .cards import TROOPS, Card, CardTable, keep
from .combat import eliminate, reveal
from .effects import nation_ok, nationals_only, type_ok
from .phases import draw
from .queries import Field, general_at, index, rivers
from .state import FORMATIONS, Piece, State

# (phase, step) -> the timing a special needs (catalogue TIMINGS)
WINDOWS: Final = {("deploy", "deploy"): "deployment", ("morale", "specials"): "own_morale",
           ("morale", "response"): "enemy_morale", ("combat", "main"): "own_combat",
           ("combat", "response"): "enemy_combat", ("reinforce", "main"): "own_reinforce"}
# the same by phase, then step (compiled: two lookups by interned strings, no key tuple)
_WINDOW_OF: Final[dict[str, dict[str, str]]] = {}
for (_phase, _step), _window in WINDOWS.items():
    _WINDOW_OF.setdefault(_phase, {})[_step] = _window


def playable(st: State, side: int, num: int) -> bool:
    """10.0: cards drawn this turn wait for the next Battle Turn, except a Special playable on
    an enemy turn; Prussians at Waterloo wait for a Prussian General."""
    c = st.cards[num]
    if c.army == "prussian" and not st.prussians:
        return False
    if c.kind == "special" and c.timing and c.timing.startswith("enemy"):
        return True
    fresh = st.fresh[side]
    return not fresh or st.reserve[side].count(num) > fresh.count(num)


def _own(st: State, idx: Field, side: int, place: int, sc: Card) -> list[Piece]:
    """Own cards at a place the special may aid (type, elite, nationality)."""
    out = []
    cards = st.cards
    aids = aided(cards, sc, st.battle)
    for q in idx[place]:
        if q.side != side or q.num not in aids:
            continue
        if q.up and cards[q.num].kind == "terrain":
            continue
        out.append(q)
    return out


def aided(cards: CardTable, sc: Card, battle: str) -> frozenset:
    """The card numbers a special's type, elite and nationality restrictions let it aid
    (``type_ok`` and ``nation_ok``), worked out once per card table."""
    memo: dict[tuple[int, str], frozenset] | None = getattr(cards, "_aids", None)
    if memo is None:
        memo = {}
        keep(cards, "_aids", memo)
    key = (sc.num, battle)
    got = memo.get(key)
    if got is None:
        got = memo[key] = frozenset(n for n, c in cards.items()
                                    if type_ok(sc, c) and nation_ok(sc, c, battle))
    return got


def played_at(st: State, place: int) -> list[int]:
    """13.0 the Special cards played on a Position this phase, by both sides: those in
    effect there, cancel cards played there, and the cards they cancelled there."""
    out = []
    for e in st.effects:
        if e["place"] == place:
            out.append(e["card"])
        gone = e.get("cancelled")
        if gone is not None and gone["place"] == place:
            out.append(gone["card"])
    return out


def base_ok(st: State, idx: Field, side: int, sc: Card, place: int) -> bool:
    if st.effects:
        # 13.0 "A maximum of two Special cards can be played on the same Position at the
        # same time (phase) and these must be two different cards": both sides count
        # (RULINGS 13.0-a)
        there = played_at(st, place)
        if len(there) >= 2 or sc.num in there:
            return False
    r = sc.restrictions
    if not r and sc.army != "british" and not (sc.army == "prussian" and
                                               st.battle == "waterloo"):
        return True
    if "requires_general" in r and general_at(st, idx[place], side) is None:
        return False
    if "engaged_only" in r and not idx.eng[place]:
        return False
    if "unengaged_only" in r and idx.eng[place]:
        return False
    if "river_present" in r and not rivers(st, idx, place):
        return False
    if "one_per_position" in r and any(e["card"] == sc.num and e["place"] == place
                                       for e in st.effects):
        return False
    if nationals_only(sc, st.battle):
        # 13.0 only in a Position holding cards of the owning army (and nationality)
        cards = st.cards
        army, nat = sc.army, sc.nat
        for q in idx[place]:
            if q.side == side:
                c = cards[q.num]
                if c.army == army and (nat is None or c.nat == nat) and \
                        not (q.up and c.kind == "terrain"):
                    break
        else:
            return False
    if st.battle == "waterloo" and sc.army == "prussian" and place not in (5, 3):
        return False  # 10.0 Prussians only on the British Left / French Right
    return True


def special_actions(st: State, idx: Field, side: int) -> list[dict]:
    steps = _WINDOW_OF.get(st.phase)
    if steps is None:
        return []
    window = steps.get(st.step)
    if window is None:
        return []
    cards = st.cards
    wanted = _by_window(cards).get(window)
    if not wanted:
        return []
    reserve = st.reserve[side]
    for num in reserve:  # (a loop: compiled, ``in`` is a primitive, isdisjoint a method call)
        if num in wanted:
            break
    else:
        return []  # the usual case: no Special of this window in the Reserve
    out: list[dict] = []
    seen = set()
    for num in reserve:
        if num not in wanted or num in seen:
            continue
        seen.add(num)
        sc = cards[num]
        # RULINGS 13.0-d: no list of battles; 13.0 restricts only British Specials and
        # Prussian ones at Waterloo (base_ok, effects.nationals_only)
        if not playable(st, side, num):
            continue
        out.extend(_options(st, idx, side, sc))
    return out


class _TableMemo:
    """The last card table's ``_by_window`` (compiled: a native object, read without the
    generic ``getattr`` on the table, a ``dict`` subclass). One attribute, replaced whole, so
    that two threads with different tables never pair one table with the other's answer."""

    def __init__(self) -> None:
        self.entry: tuple[CardTable | None, int, dict[str, frozenset]] = (None, -1, {})


_MEMO: Final = _TableMemo()


def _by_window(cards: CardTable) -> dict[str, frozenset]:
    """timing window -> the numbers of the Special cards played in it, once per card table
    (the last one asked about: a program plays with one table)."""
    table, size, by_window = _MEMO.entry
    if table is not cards or size != len(cards):
        by: dict = {}
        for num, c in cards.items():
            if c.kind == "special" and c.timing:
                by.setdefault(c.timing, set()).add(num)
        by_window = {w: frozenset(nums) for w, nums in by.items()}
        _MEMO.entry = (cards, len(cards), by_window)
    return by_window


def _act(side: int, num: int, place: int, **extra: Any) -> dict:
    return {"type": "play_special", "side": SIDES[side], "card": num, "at": PLACE_NAMES[place],
            **extra}


# effects whose "enemy" form looks at enemy cards, not own ones
_ENEMY_TARGETED: Final = ("morale_modifier", "cv_modifier", "firepower_modifier", "shock_modifier")


def _own_aided(st: State, idx: Field, side: int, place: int, aids: frozenset) -> list[Piece]:
    """``_own`` with the card's aid set looked up once."""
    cards = st.cards
    return [q for q in idx[place] if q.side == side and q.num in aids and
            not (q.up and cards[q.num].kind == "terrain")]


def _options(st: State, idx: Field, side: int, sc: Card) -> list[dict]:
    eff = sc.effect
    kind: str = eff["kind"]  # (typed: compiled, compared as strings)
    enemy = eff.get("target") == "enemy"
    out = []
    pend = st.pending
    target_place = st.pieces[pend["target"]].place if pend else None
    if kind == "cancel_special":
        for e in st.effects:
            if e["side"] == side or "cancelled" in e:
                continue  # a cancel card stays played for the phase, but has no effect
            for place in (e["place"], facing(e["place"])):
                if base_ok(st, idx, side, sc, place):
                    out.append(_act(side, sc.num, place, cancel=e["eid"]))
                    break
        return out
    if kind == "draw_reinforcements":
        if not st.decks.get(sc.army):
            return []
        for place in POSITIONS:
            if base_ok(st, idx, side, sc, place) and (not nationals_only(sc, st.battle) or
                                                      _own(st, idx, side, place, sc)):
                return [_act(side, sc.num, place)]
        return []
    needs_own = not enemy or kind not in _ENEMY_TARGETED
    own_pres = idx.pres[side]
    cards = st.cards
    aids = aided(cards, sc, st.battle)

    # each Position: the effect's own test first, then the common limits (``base_ok``);
    # both are pure, so the order only saves time
    # restrictions ``base_ok`` would refuse on the Field alone, checked first (a quick no)
    r = sc.restrictions
    need_river = "river_present" in r
    need_eng = "engaged_only" in r
    need_uneng = "unengaged_only" in r
    eng = idx.eng
    for place in POSITIONS:
        if needs_own and not own_pres[place] and kind != "reveal_enemy":
            continue  # the effect needs own cards here (a quick no for ``_own`` below)
        if need_river and not any(q.up for q in idx[front(place)]):
            continue
        if (need_eng and not eng[place]) or (need_uneng and eng[place]):
            continue
        if kind == "morale_modifier":
            if enemy:
                ok = any(q.side != side and q.hits and type_ok(sc, cards[q.num])
                         for q in idx[place])
            else:
                ok = any(q.hits for q in _own_aided(st, idx, side, place, aids))
        elif kind in ("cv_modifier", "firepower_modifier", "shock_modifier"):
            if enemy:
                ok = place == target_place
            else:
                ok = any(cards[q.num].kind in TROOPS and not q.fired
                         for q in _own_aided(st, idx, side, place, aids))
        elif kind == "remove_hits":
            # 13.0-c the player picks the cards that lose hits (a card may lose several)
            hurt = [q for q in _own_aided(st, idx, side, place, aids) if q.hits]
            if hurt and base_ok(st, idx, side, sc, place):
                out.extend(_act(side, sc.num, place, pieces=list(pick))
                           for pick in _hit_picks(hurt, eff.get("count", 1)))
            continue
        elif kind == "rally_routed":
            ok = any(q.hits for q in _own_aided(st, idx, side, place, aids))
        elif kind == "extra_move":
            ok = bool(_own_aided(st, idx, side, place, aids))
        elif kind == "recover_blown":
            ok = any(q.blown for q in _own_aided(st, idx, side, place, aids))
        elif kind == "ignore_river_limit":
            ok = bool(_own_aided(st, idx, side, place, aids))
        elif kind == "reveal_enemy":
            # 13.0-c the player picks which face-down enemy cards to turn up
            if owner(place) != side:
                continue
            hidden = [q.pid for q in idx[facing(place)] if q.side != side and not q.up]
            if hidden and base_ok(st, idx, side, sc, place):
                k = min(eff["count"], len(hidden))
                out.extend(_act(side, sc.num, place, pieces=list(pick))
                           for pick in combinations(hidden, k))
            continue
        elif kind == "change_formation":
            if window_enemy(st) and place != target_place:
                continue
            # 13.0-c the player picks up to ``count`` Infantry cards and the formation
            infantry = [q for q in _own_aided(st, idx, side, place, aids)
                        if cards[q.num].kind == "infantry"]
            opts: list = []
            for f, name in enumerate(FORMATIONS):
                can = [q.pid for q in infantry if q.form != f]
                for k in range(1, min(eff["count"], len(can)) + 1):
                    opts.extend(_act(side, sc.num, place, formation=name, pieces=list(pick))
                                for pick in combinations(can, k))
            if opts and base_ok(st, idx, side, sc, place):
                out.extend(opts)
            continue
        else:
            ok = False
        if ok and base_ok(st, idx, side, sc, place):
            out.append(_act(side, sc.num, place))
    return out


def _hit_picks(hurt: list[Piece], count: int) -> list[tuple[int, ...]]:
    """Ways to take ``count`` hits (or all there are) off these cards: piece ids in order,
    an id repeated for each hit it loses."""
    pool = [q.pid for q in hurt for _ in range(q.hits)]
    k = min(count, len(pool))
    return sorted(set(combinations(pool, k)))


def window_enemy(st: State) -> bool:
    return st.step == "response"


def play_special(st: State, side: int, a: dict, events: list[dict]) -> None:
    num = a["card"]
    sc = st.cards[num]
    place = PLACE_INDEX[a["at"]]
    st.reserve[side].remove(num)
    if st.fresh[side].count(num) > st.reserve[side].count(num):
        st.fresh[side].remove(num)
    events.append({"type": "special", "side": SIDES[side], "card": num, "at": a["at"],
                   **({"formation": a["formation"]} if "formation" in a else {}),
                   **({"pieces": list(a["pieces"])} if "pieces" in a else {}),
                   "visibility": "all"})
    eff = sc.effect
    kind = eff["kind"]
    if kind == "cancel_special":
        for i, e in enumerate(st.effects):
            if e["eid"] == a["cancel"]:
                del st.effects[i]
                insort(st.discard[e["side"]], e["card"])
                # the cancel card stays in play (without effect) until the phase ends, with
                # the card it cancelled: both were played on their Positions (13.0-a)
                st.effects.append({"eid": st.next_eid, "card": num, "side": side,
                                   "place": place, "left": 0,
                                   "cancelled": {"card": e["card"], "place": e["place"]}})
                st.next_eid += 1
                events.append({"type": "cancelled", "card": e["card"], "by": num,
                               "visibility": "all"})
                return
        raise AssertionError("cancel target vanished")
    left = eff.get("count", eff.get("amount", 1))
    st.effects.append({"eid": st.next_eid, "card": num, "side": side, "place": place,
                       "left": left})
    if kind == "remove_hits" and "pieces" in a:
        st.effects[-1]["pieces"] = list(a["pieces"])  # applied at the rolls
    st.next_eid += 1
    idx = index(st)
    if kind == "draw_reinforcements":
        draw(st, sc.army, eff["count"], events)  # drawn cards wait for the next turn (10.0)
    elif kind == "recover_blown":
        for q in _own(st, idx, side, place, sc):
            if q.blown:
                q.blown = False
                events.append({"type": "recovered", "piece": q.pid, "visibility": "all"})
    elif kind == "reveal_enemy":
        hidden = [q for q in idx[facing(place)] if q.side != side and not q.up]
        if "pieces" in a:
            hidden = [q for q in hidden if q.pid in a["pieces"]]
        for q in hidden[:eff["count"]]:
            decoy = not st.cards[q.num].troop
            reveal(st, q, events)
            if decoy:
                eliminate(st, q, events, reason="decoy")  # RULINGS 14.0-b
    elif kind == "change_formation":
        f = FORMATIONS.index(a["formation"])
        infantry = [q for q in _own(st, idx, side, place, sc)
                    if st.cards[q.num].kind == "infantry" and q.form != f]
        if "pieces" in a:
            infantry = [q for q in infantry if q.pid in a["pieces"]]
        elif st.pending:  # an action without a choice (check=False callers): the old order
            pt = st.pending["target"]
            infantry.sort(key=lambda q: (q.pid != pt, q.pid))
        for q in infantry[:eff["count"]]:
            q.form = f
            events.append({"type": "formation", "piece": q.pid, "formation": a["formation"],
                           "visibility": "all"})


def apply_remove_hits(st: State, events: list[dict]) -> None:
    """remove_hits specials take effect just before the Morale rolls (so they can still be
    cancelled in the enemy's window)."""
    idx = index(st)
    for e in st.effects:
        sc = st.cards[e["card"]]
        if sc.effect["kind"] != "remove_hits":
            continue
        left = e["left"]
        if "pieces" in e:  # the player's choice (13.0-c)
            for pid in e["pieces"]:
                q = st.pieces.get(pid)
                if left and q is not None and q.hits:
                    q.hits -= 1
                    left -= 1
                    events.append({"type": "hit_removed", "piece": q.pid,
                                   "visibility": "all"})
            e["left"] = left
            continue
        cands = sorted((q for q in _own(st, idx, e["side"], e["place"], sc) if q.hits),
                       key=lambda q: (-q.hits, q.pid))
        for q in cands:
            while left and q.hits:
                q.hits -= 1
                left -= 1
                events.append({"type": "hit_removed", "piece": q.pid, "visibility": "all"})
        e["left"] = left
