# Over 500 lines on purpose: one idea, the Campaign Game's state machine (16.0), rule by rule.
"""The Campaign Game (16.0): state, decisions and the way battles end, beside the engine.

A campaign holds its running boards (engine ``State`` objects keyed by battle), each side's
pool (cards kept for a future battle), eliminated cards (for good), cards set aside (present
at neither Quatre Bras nor Ligny), the history and the winner. ``legal_actions`` /
``apply`` work like the engine's: campaign decisions (``split``, ``retreat``, ``reinforce``,
``keep``) and battle actions routed to a board by their ``board`` key. Readings of the open
points: battles/engine/RULINGS.md, section "16.0 Campaign" (rulings 16-a ... 16-o).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from battles.engine import (
    SIDES,
    CardTable,
    DiceExhausted,
    IllegalAction,
    SeededDice,
    State,
    card_table,
    new_battle,
)
from battles.engine import apply as engine_apply
from battles.engine import legal_actions as engine_legal
from game import ARMY_SIDE, apportion, chart_row, other_side

VERSION = 1
PHASES = ("first", "second", "charleroi", "over")
# 16.0 "Play sequence is Quatre Bras ... and then Ligny"; the second phase by analogy (16-b).
ORDER = {"first": ("quatre-bras", "ligny"), "second": ("waterloo", "wavre"),
         "charleroi": ("charleroi",)}
FIRST_BATTLES = ("quatre-bras", "ligny")
DECK_KIND = {"kind": "campaign", "scale": "1"}
POSITIONS = (1, 2, 3, 5, 6, 7)
Event = dict[str, Any]


def side_index(side: str) -> int:
    if side not in SIDES:
        raise IllegalAction(f"unknown side {side!r}")
    return SIDES.index(side)


class Campaign:
    """A campaign in progress. ``boards``: running battles; ``results``: battle -> outcome."""

    __slots__ = ("cards", "seed", "settings", "phase", "step", "boards", "fresh", "results",
                 "pools", "eliminated", "set_aside", "splits", "decision", "history",
                 "winner", "sequence")
    cards: CardTable
    seed: str
    settings: dict[str, Any]  # turn_cap, decoys
    phase: str  # one of PHASES
    step: str  # split, play, reinforce, over
    boards: dict[str, State]
    fresh: dict[str, bool]  # battle -> its side to move may retreat (16-e: not moved or fired)
    results: dict[str, dict[str, Any]]
    pools: list[list[int]]  # per side index
    eliminated: list[list[int]]
    set_aside: list[list[int]]
    splits: dict[str, dict[str, list[int]]]  # side -> battle -> cards
    decision: dict[str, Any] | None  # the pending reinforce decision
    history: list[Event]
    winner: str | None
    sequence: int

    def copy(self) -> Campaign:
        c = Campaign.__new__(Campaign)
        c.cards, c.seed, c.settings = self.cards, self.seed, dict(self.settings)
        c.phase, c.step = self.phase, self.step
        c.boards = {b: st.copy() for b, st in self.boards.items()}
        c.fresh = dict(self.fresh)
        c.results = {b: dict(r) for b, r in self.results.items()}
        c.pools = [list(self.pools[0]), list(self.pools[1])]
        c.eliminated = [list(self.eliminated[0]), list(self.eliminated[1])]
        c.set_aside = [list(self.set_aside[0]), list(self.set_aside[1])]
        c.splits = {s: {b: list(v) for b, v in d.items()} for s, d in self.splits.items()}
        c.decision = dict(self.decision) if self.decision else None
        c.history = [dict(h) for h in self.history]
        c.winner, c.sequence = self.winner, self.sequence
        return c

    def restore(self, other: Campaign) -> None:
        for name in Campaign.__slots__:
            setattr(self, name, getattr(other, name))


# --- setting up -------------------------------------------------------------------------

def new_campaign(seed: int | str = 0, cards: CardTable | Iterable[Mapping[str, Any]] | None = None,
                 pools: Mapping[str, Iterable[int]] | None = None,
                 settings: Mapping[str, Any] | None = None) -> Campaign:
    """A campaign at its first decision (the French split, 16.0). ``pools``: side -> card
    numbers (a collection, one copy per number); a side not named has the whole set.
    ``settings``: ``turn_cap`` per battle (None for people, RULINGS 16-n), ``decoys``."""
    table = card_table(cards)
    c = Campaign.__new__(Campaign)
    c.cards, c.seed = table, str(seed)
    c.settings = {"turn_cap": None, "decoys": False, **(settings or {})}
    c.phase, c.step = "first", "split"
    c.boards, c.fresh, c.results, c.splits = {}, {}, {}, {}
    c.pools, c.eliminated, c.set_aside = [[], []], [[], []], [[], []]
    c.decision, c.history, c.winner, c.sequence = None, [], None, 0
    for s, side in enumerate(SIDES):
        given = (pools or {}).get(side)
        nums = sorted({int(n) for n in given}) if given is not None else sorted(
            n for n, card in table.items() if ARMY_SIDE[card.army] == s)
        for n in nums:
            if n not in table or ARMY_SIDE[table[n].army] != s:
                raise IllegalAction(f"card {n} is not a {side} card")
            # 16.0 "excluding all cards not present at either battle"
            here = any(b in table[n].battles for b in FIRST_BATTLES)
            (c.pools if here else c.set_aside)[s].append(n)
    c.history.append({"type": "start", "pools": [len(c.pools[0]), len(c.pools[1])],
                      "set_aside": [len(c.set_aside[0]), len(c.set_aside[1])]})
    _open_phase(c, "first", [])
    return c


def _terrain_battle(c: Campaign, n: int) -> str | None:
    card = c.cards[n]
    return card.tbattle if card.kind == "terrain" else ""


def split_plan(c: Campaign, side: str) -> tuple[list[int], dict[str, list[int]]]:
    """(free cards the side places, forced placements) for the phase's split (RULINGS 16-a):
    terrain goes to its own battle (2.0 note), an army only where the chart gives it a column
    (British at Waterloo, never Wavre); other terrain stays in the pool."""
    s = side_index(side)
    battles = ORDER[c.phase]
    free: list[int] = []
    forced: dict[str, list[int]] = {b: [] for b in battles}
    for n in c.pools[s]:
        card = c.cards[n]
        tb = _terrain_battle(c, n)
        if tb != "":
            if tb in battles:
                forced[tb].append(n)
            continue
        where = [b for b in battles if card.army in chart_row(b)]
        if len(where) == 1:
            forced[where[0]].append(n)
        elif where:
            free.append(n)
    return free, forced


def splitter(c: Campaign) -> str | None:
    """Who splits now: the French first, then the Allies where they have a choice (16-a)."""
    if c.step != "split":
        return None
    for side in SIDES:
        if side not in c.splits:
            return side
    return None


def _proposals(c: Campaign, side: str) -> list[dict[str, list[int]]]:
    """A few whole splits to choose from (any partition of the free cards is legal)."""
    free, _ = split_plan(c, side)
    a, b = ORDER[c.phase]
    army_size = {x: sum(e.deck for army, e in chart_row(x).items()
                        if ARMY_SIDE[army] == side_index(side)) for x in (a, b)}
    big = a if army_size[a] >= army_size[b] else b

    def hist(n: int) -> str:
        fought = [x for x in (a, b) if x in c.cards[n].battles]
        return fought[0] if len(fought) == 1 else big  # RULINGS 16-a: both or neither

    out = [{a: [n for n in free if hist(n) == a], b: [n for n in free if hist(n) == b]}]
    by_kind: dict[str, list[int]] = {}
    for n in free:
        by_kind.setdefault(c.cards[n].kind, []).append(n)
    small = b if big == a else a
    for share in (2, 4):  # one card in two, one in four to the smaller battle
        # RULINGS 4.1-e: the larger battle's deck keeps every card type (game.apportion)
        keep = apportion({k: len(v) for k, v in by_kind.items()},
                         len(free) - -(-len(free) // share))
        stay = {n for k, v in by_kind.items() for n in _spread(v, keep[k])}
        out.append({small: [n for n in free if n not in stay], big: sorted(stay)})
    uniq: list[dict[str, list[int]]] = []
    for p in out:
        p = {x: sorted(p[x]) for x in (a, b)}
        if p not in uniq:
            uniq.append(p)
    return uniq


def _spread(nums: list[int], k: int) -> list[int]:
    """``k`` of ``nums`` spread evenly over the list (the first always)."""
    return [nums[i * len(nums) // k] for i in range(k)] if k else []


def _open_phase(c: Campaign, phase: str, events: list[Event]) -> None:
    c.phase = phase
    c.splits = {}
    events.append({"type": "campaign_phase", "phase": phase, "visibility": "all"})
    c.history.append({"type": "phase", "phase": phase})
    if phase == "over":
        c.step = "over"
        return
    if phase == "second":  # 16.0 "adding Waterloo cards not yet in play" (RULINGS 16-k)
        _unset(c, lambda n: "waterloo" in c.cards[n].battles or c.cards[n].tbattle == "wavre")
    elif phase == "charleroi":  # 16.0 "all surviving cards (including Waterloo and Hal)"
        _unset(c, lambda n: True)
    c.step = "split"
    _maybe_start(c, events)


def _unset(c: Campaign, keep: Callable[[int], bool]) -> None:
    for s in (0, 1):
        moving = [n for n in c.set_aside[s] if keep(n)]
        c.set_aside[s] = [n for n in c.set_aside[s] if n not in set(moving)]
        c.pools[s] = sorted(c.pools[s] + moving)


def _maybe_start(c: Campaign, events: list[Event]) -> None:
    """Skip splits without a choice; start the boards once every side has split."""
    while c.step == "split":
        side = splitter(c)
        if side is None:
            _start_boards(c, events)
            return
        free, _ = split_plan(c, side)
        if free:
            return
        c.splits[side] = {b: [] for b in ORDER[c.phase]}


def _start_boards(c: Campaign, events: list[Event]) -> None:
    c.step = "play"
    for b in ORDER[c.phase]:
        decks: dict[str, list[int]] = {army: [] for army in chart_row(b)}
        for side in SIDES:
            _, forced = split_plan(c, side)
            for n in forced[b] + c.splits[side][b]:
                decks[c.cards[n].army].append(n)
        for army in decks:
            decks[army].sort()
            for n in decks[army]:
                c.pools[ARMY_SIDE[army]].remove(n)
        sizes = [sum(len(v) for a, v in decks.items() if ARMY_SIDE[a] == s) for s in (0, 1)]
        if not sizes[0] or not sizes[1]:  # RULINGS 16-c: a walkover
            winner = None if sizes[0] == sizes[1] else SIDES[0 if sizes[0] else 1]
            for army, nums in decks.items():
                c.pools[ARMY_SIDE[army]] = sorted(c.pools[ARMY_SIDE[army]] + nums)
            c.results[b] = {"winner": winner, "reason": "walkover", "turn": 0}
            events.append({"type": "campaign_battle_over", "battle": b, **c.results[b],
                           "visibility": "all"})
            c.history.append({"type": "result", "battle": b, **c.results[b]})
            continue
        st = new_battle(b, f"{c.seed}:{b}", decks,
                        {"turn_cap": c.settings["turn_cap"], "decoys": c.settings["decoys"]},
                        cards=c.cards, deck_kinds={a: DECK_KIND for a in decks})
        for army, nums in decks.items():  # RULINGS 16-c: a lone card musters itself
            s = ARMY_SIDE[army]
            if len(nums) == 1 and chart_row(b)[army].muster is not None and \
                    st.decks[army]:
                st.reserve[s].append(st.decks[army].pop())
                st.reserve[s].sort()
        c.boards[b] = st
        c.fresh[b] = False
        events.append({"type": "battle_start", "battle": b,
                        "cards": {SIDES[s]: sizes[s] for s in (0, 1)}, "visibility": "all"})
        c.history.append({"type": "battle", "battle": b,
                          "cards": {SIDES[s]: sizes[s] for s in (0, 1)}})
    _after(c, events)


# --- who moves --------------------------------------------------------------------------

def current_board(c: Campaign) -> str | None:
    """RULINGS 16-b: the boards advance Battle Turn by Battle Turn in play sequence: the
    running board with the lowest turn number, the first in sequence on a tie."""
    if c.step != "play" or not c.boards:
        return None
    order = ORDER[c.phase]
    return min(c.boards, key=lambda b: (c.boards[b].turn, order.index(b)))


def to_move(c: Campaign) -> dict[str, Any] | None:
    """{"side", "board" (or None), "step"}: who must act now; None once the campaign is over."""
    if c.step == "over":
        return None
    if c.step == "split":
        return {"side": splitter(c), "board": None, "step": "split"}
    if c.step == "reinforce":
        assert c.decision is not None  # the reinforce step is the decision's
        return {"side": c.decision["side"], "board": None, "step": "reinforce"}
    b = current_board(c)
    assert b is not None  # the play step has a running board
    return {"side": SIDES[c.boards[b].priority], "board": b, "step": "play"}


def can_retreat(c: Campaign, b: str, side: str) -> bool:
    """16.0: after one's own Morale Phase, before moving or firing any card (RULINGS 16-e)."""
    st = c.boards.get(b)
    return (st is not None and c.fresh.get(b, False) and st.outcome is None
            and SIDES[st.active] == side and SIDES[st.priority] == side
            and st.phase == "combat" and st.step == "main")


def legal_actions(c: Campaign, side: str) -> list[dict]:
    """The side's legal actions now ([] unless it is that side's move). A ``split`` lists a
    few whole proposals; any partition of the free cards (``split_plan``) is legal too."""
    side_index(side)
    turn = to_move(c)
    if turn is None or turn["side"] != side:
        return []
    if turn["step"] == "split":
        return [{"type": "split", "side": side, "decks": p} for p in _proposals(c, side)]
    if turn["step"] == "reinforce":
        d = c.decision
        assert d is not None  # the reinforce step is the decision's
        return [{"type": "reinforce", "side": side, "from": d["from"], "to": d["to"]},
                {"type": "keep", "side": side, "from": d["from"]}]
    b = turn["board"]
    acts = [{**a, "board": b} for a in engine_legal(c.boards[b], side)]
    if can_retreat(c, b, side):
        acts.append({"type": "retreat", "side": side, "board": b})
    return acts


# --- applying ---------------------------------------------------------------------------

def _die(dice: Iterator[int]) -> int:
    try:
        v = next(dice)
    except StopIteration:
        raise DiceExhausted("the campaign needs more dice than given") from None
    if type(v) is not int or not 1 <= v <= 6:
        raise DiceExhausted(f"a die must be an int 1-6, got {v!r}")
    return v


def apply(c: Campaign, action: dict, dice: Iterable[int] | None = None) -> list[Event]:
    """Apply one action; returns events (each with ``visibility``; board events carry
    ``board``). Illegal: ``IllegalAction``, nothing changed. Too few forced dice:
    ``DiceExhausted``, nothing changed."""
    if not isinstance(action, dict) or action.get("side") not in SIDES:
        raise IllegalAction(f"not an action: {action!r}")
    side = action["side"]
    turn = to_move(c)
    if turn is None:
        raise IllegalAction("the campaign is over")
    if turn["side"] != side:
        raise IllegalAction(f"it is not the {side} player's move")
    kind = action.get("type")
    snapshot = None if isinstance(dice, SeededDice) else c.copy()
    it = dice if isinstance(dice, SeededDice) else iter(dice if dice is not None else ())
    events: list[Event] = []
    try:
        if turn["step"] == "split":
            if kind != "split":
                raise IllegalAction(f"the {side} player must split the cards first")
            _split(c, side, action, events)
        elif turn["step"] == "reinforce":
            if action not in legal_actions(c, side):
                raise IllegalAction(f"illegal action for {side}: {action!r}")
            _decide(c, side, kind == "reinforce", events)
        elif kind == "retreat":
            if action.get("board") != turn["board"] or not can_retreat(c, turn["board"], side):
                raise IllegalAction("a retreat is allowed only after one's own Morale Phase, "
                                    "before moving or firing (16.0)")
            _retreat(c, turn["board"], side, it, events)
        else:
            _battle_action(c, turn["board"], action, it, events)
    except (DiceExhausted, IllegalAction):
        if snapshot is not None:
            c.restore(snapshot)
        raise
    c.sequence += 1
    return events


def _split(c: Campaign, side: str, action: dict, events: list[Event]) -> None:
    decks = action.get("decks")
    battles = ORDER[c.phase]
    if not isinstance(decks, dict) or set(decks) != set(battles):
        raise IllegalAction(f"a split names a deck for each of {', '.join(battles)}")
    free, _ = split_plan(c, side)
    placed: list[int] = []
    for b in battles:
        if not isinstance(decks[b], list) or not all(type(n) is int for n in decks[b]):
            raise IllegalAction(f"the {b} deck must be a list of card numbers")
        placed += decks[b]
    if sorted(placed) != sorted(free):
        extra = sorted(set(placed) - set(free))
        missing = sorted(set(free) - set(placed))
        twice = sorted({n for n in placed if placed.count(n) > 1})
        raise IllegalAction(f"a split places each free card exactly once (not free: {extra}, "
                            f"missing: {missing}, twice: {twice})")
    c.splits[side] = {b: sorted(decks[b]) for b in battles}
    counts = {b: len(decks[b]) for b in battles}
    events.append({"type": "split", "side": side, "counts": counts, "visibility": "all"})
    events.append({"type": "split_cards", "side": side, "decks": c.splits[side],
                   "visibility": side})
    c.history.append({"type": "split", "side": side, "counts": counts,
                      "decks": c.splits[side]})
    _maybe_start(c, events)


def _battle_action(c: Campaign, b: str, action: dict, dice: Iterator[int],
                   events: list[Event]) -> None:
    if action.get("board") != b:
        raise IllegalAction(f"the battle to move is {b}: an action names it as \"board\"")
    st = c.boards[b]
    plain = {k: v for k, v in action.items() if k != "board"}
    prev = st.phase
    was_open = c.fresh.get(b, False)
    spent = _moves_spent(st)
    evs = engine_apply(st, plain, dice)
    if st.phase != "combat":
        c.fresh[b] = False
    elif prev != "combat":
        c.fresh[b] = True  # the Morale Phase is over: the retreat window opens (16-e)
    else:
        c.fresh[b] = was_open and not _moved_or_fired(st, plain, spent)
    events.extend({**e, "board": b} for e in evs)
    if st.outcome is not None:
        _battle_over(c, b, st.outcome.get("winner"), st.outcome.get("reason"), dice, events)


# 16.0 "(before Moving or Firing any cards)": the actions that move a card (8.0; a decoy
# placed from the Reserve goes there as a troop moves) or fire it (7.1; Shock "functions just
# like Firepower", 7.3). A formation change is one only when engaged (9.0: it expends a Move).
MOVING_OR_FIRING = frozenset({"move", "occupy", "decoy", "fire", "shock"})


def _moves_spent(st: State) -> dict[int, int]:
    return {pid: p.moves for pid, p in st.pieces.items()}


def _moved_or_fired(st: State, action: dict, spent: Mapping[int, int]) -> bool:
    """Whether the active side's ``action`` moved or fired a card (RULINGS 16-e): a Terrain
    or Special play, an unengaged formation change or the enemy's answer does not."""
    if action.get("side") != SIDES[st.active]:
        return False
    if action.get("type") in MOVING_OR_FIRING:
        return True
    p = st.pieces.get(action.get("piece", -1))
    return action.get("type") == "change_formation" and p is not None and \
        p.moves > spent.get(p.pid, 0)


def _retreat(c: Campaign, b: str, side: str, dice: Iterator[int], events: list[Event]
             ) -> None:
    events.append({"type": "retreat", "side": side, "board": b, "visibility": "all"})
    c.history.append({"type": "retreat", "side": side, "battle": b,
                      "turn": c.boards[b].turn})
    _battle_over(c, b, other_side(side), "retreat", dice, events)


def board_cards(st: State, s: int) -> list[int]:
    """Every card of side ``s`` still at a battle (field, Reserve, decks, specials, discards)."""
    out = [p.num for p in st.pieces.values() if p.side == s]
    out += st.reserve[s] + st.discard[s] + [e["card"] for e in st.effects if e["side"] == s]
    for army, deck in st.decks.items():
        if ARMY_SIDE[army] == s:
            out += deck
    return sorted(out)


def _engaged(st: State, place: int) -> bool:
    sides = {p.side for p in st.pieces.values() if p.place == place}
    return len(sides) == 2


def _passes(roll: int, value: int) -> bool:
    return roll != 6 and (roll == 1 or roll <= value)


def _extra_checks(c: Campaign, st: State, b: str, loser: int, dice: Iterator[int],
                  events: list[Event]) -> list[int]:
    """16.0: the loser's pending Morale checks, then one more for each engaged card (RULINGS
    16-f/16-g): 1d6 per hit, then one die if engaged, against the printed Morale Value; a
    natural 6 routs, a 1 passes; Generals roll 12.4 (a 6 kills). Returns the cards lost."""
    lost: list[int] = []
    for p in sorted(st.pieces.values(), key=lambda q: q.pid):
        if p.side != loser:
            continue
        card = c.cards[p.num]
        if card.kind not in ("general", "infantry", "cavalry", "artillery"):
            continue
        rolls = p.ghits if card.kind == "general" else p.hits
        checks = rolls + (1 if p.place in POSITIONS and _engaged(st, p.place) else 0)
        for _ in range(checks):
            roll = _die(dice)
            ok = roll != 6 if card.kind == "general" else _passes(roll, card.morale)
            events.append({"type": "retreat_check", "board": b, "piece": p.pid, "roll": roll,
                           "passed": ok, **({"card": p.num} if p.up else {}),
                           "visibility": "all"})
            if not ok:
                lost.append(p.num)
                events.append({"type": "eliminated", "board": b, "side": SIDES[loser],
                               "piece": p.pid, "card": p.num, "reason": "retreat",
                               "visibility": "all"})
                break
    return lost


def _battle_over(c: Campaign, b: str, winner: str | None, reason: str | None,
                 dice: Iterator[int], events: list[Event]) -> None:
    """A battle ended (engine outcome or a retreat): losses for good, the loser's forced
    retreat and checks, every survivor back to its pool, then the victor's choice."""
    st = c.boards.pop(b)
    c.fresh.pop(b, None)
    lost: list[int] = []
    if winner is not None and reason != "turn_cap":  # a retreat concedes a victory (16-e)
        lost = _extra_checks(c, st, b, 1 - side_index(winner), dice, events)
    survivors: dict[int, list[int]] = {}
    for s in (0, 1):
        c.eliminated[s] = sorted(c.eliminated[s] + st.elim[s] +
                                 [n for n in lost if ARMY_SIDE[c.cards[n].army] == s])
        survivors[s] = [n for n in board_cards(st, s) if n not in set(lost)]
        c.pools[s] = sorted(c.pools[s] + survivors[s])
    c.results[b] = {"winner": winner, "reason": reason, "turn": st.turn}
    events.append({"type": "campaign_battle_over", "battle": b, **c.results[b],
                   "survivors": {SIDES[s]: len(survivors[s]) for s in (0, 1)},
                   "visibility": "all"})
    c.history.append({"type": "result", "battle": b, **c.results[b],
                      "lost": {SIDES[s]: len(st.elim[s]) + len(
                          [n for n in lost if ARMY_SIDE[c.cards[n].army] == s]) for s in (0, 1)},
                      "survivors": {SIDES[s]: len(survivors[s]) for s in (0, 1)}})
    target = _reinforce_target(c, b)
    # RULINGS 16-i: Terrain fights only at its own battle (2.0): it stays in the pool
    going = [] if winner is None or target is None else [
        n for n in survivors[side_index(winner)] if _terrain_battle(c, n) in ("", target)]
    if winner is not None and target is not None and going and c.phase != "over":
        c.step = "reinforce"
        c.decision = {"side": winner, "from": b, "to": target, "cards": going}
        return
    _after(c, events)


def _reinforce_target(c: Campaign, b: str) -> str | None:
    """16.0: the victor may reinforce the other battle; only Wavre -> Waterloo in the second
    phase; never a battle already over (RULINGS 16-i, 16-j)."""
    if c.phase == "first":
        other = "ligny" if b == "quatre-bras" else "quatre-bras"
    elif c.phase == "second" and b == "wavre":
        other = "waterloo"
    else:
        return None
    return other if other in c.boards else None


def _decide(c: Campaign, side: str, reinforce: bool, events: list[Event]) -> None:
    d, c.decision = c.decision, None
    assert d is not None  # called at the reinforce step only
    c.step = "play"
    s = side_index(side)
    if reinforce:
        st = c.boards[d["to"]]
        row = chart_row(d["to"])
        touched: list[str] = []
        for n in d["cards"]:
            army = c.cards[n].army
            if army not in row:  # RULINGS 16-i: British reinforcing Ligny join the Allied deck
                army = next(a for a in row if ARMY_SIDE[a] == s)
            st.decks[army].append(n)
            c.pools[s].remove(n)
            if army not in touched:
                touched.append(army)
        rng = random.Random(f"eagles-campaign:{c.seed}:{c.sequence}")
        for army in touched:
            rng.shuffle(st.decks[army])  # 16.0 "add (reshuffle)"
        st.cache = None
    events.append({"type": "reinforce" if reinforce else "keep", "side": side,
                   "from": d["from"], "to": d["to"], "count": len(d["cards"]),
                   "visibility": "all"})
    c.history.append({"type": "reinforce" if reinforce else "keep", "side": side,
                      "from": d["from"], "to": d["to"], "count": len(d["cards"])})
    _after(c, events)


def french_won(c: Campaign, b: str) -> bool:
    return c.results.get(b, {}).get("winner") == "french"


def _after(c: Campaign, events: list[Event]) -> None:
    """The branch once a phase's battles are decided (16.0; a draw is no French win, 16-l)."""
    if c.step != "play":
        return
    if c.phase == "first" and all(b in c.results for b in FIRST_BATTLES):
        wins = sum(french_won(c, b) for b in FIRST_BATTLES)
        if wins == 0:
            _end(c, "allied", events)
        else:
            _open_phase(c, "second" if wins == 2 else "charleroi", events)
    elif c.phase == "second" and "waterloo" in c.results:
        _end(c, "french" if french_won(c, "waterloo") else "allied", events)
    elif c.phase == "charleroi" and "charleroi" in c.results:
        _end(c, "french" if french_won(c, "charleroi") else "allied", events)


def _end(c: Campaign, winner: str, events: list[Event]) -> None:
    c.winner = winner
    events.append({"type": "campaign_over", "winner": winner, "visibility": "all"})
    c.history.append({"type": "over", "winner": winner})
    _open_phase(c, "over", events)


def outcome(c: Campaign) -> dict | None:
    if c.winner is None:
        return None
    return {"winner": c.winner, "results": {b: dict(r) for b, r in c.results.items()}}


def places(c: Campaign) -> dict[int, str]:
    """card -> where it is (``board:<battle>``, ``pool``, ``eliminated``, ``set_aside``);
    raises AssertionError if a card is in two places (the property tests' invariant)."""
    where: dict[int, str] = {}

    def put(n: int, place: str) -> None:
        assert n not in where, f"card {n} is both in {where[n]} and {place}"
        where[n] = place

    for b, st in c.boards.items():
        for s in (0, 1):
            for n in board_cards(st, s) + st.elim[s]:
                put(n, f"board:{b}")
    for s in (0, 1):
        for n in c.pools[s]:
            put(n, "pool")
        for n in c.eliminated[s]:
            put(n, "eliminated")
        for n in c.set_aside[s]:
            put(n, "set_aside")
    return where
