"""Set-up, turns, actions and victory (001 §1-§9, Part II; RULINGS.md).

``legal_actions(st, side)`` lists what ``side`` may do now; ``apply(st, action, dice)`` plays
one action in place and returns its events, unfiltered (``view.events_for`` masks them).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from . import cards, pursuit
from .battlefield import fielded_ids
from .battlefield import parse as parse_battlefield
from .board import (
    ALLIED,
    BACK_ROW,
    COLS,
    FRENCH,
    PRUSSIAN_FLAG,
    SECTORS,
    from_pair,
    home_squares,
    lines_of_retreat,
    other,
    time_of_turn,
    to_pair,
)
from .combat import after_attack, attack, fight, fire, rampage_on, roll
from .ending import finish
from .moves import piece_actions
from .pieces import BACK, PieceTable
from .state import Piece, State
from .terrain import building_at, initial_buildings, may_enter, tiles, update_flags

Action = dict[str, Any]
Event = dict[str, Any]

PRUSSIANS_FROM = 13  # 001 §9: 'Staring from the 13th turn, the Prussians join the battle.'
MAX_RESERVE = 10  # 001 §6: 'a maximum of 10 pieces in reserve'
COMMANDERS = ("commander", "commander_in_chief")
MODES = ("basic", "standard", "expert")
GROUCHY_TURN = 9  # 001 §14: 'roll the Battle die at game turn 9 (3 o'clock)'
EARLY_TURNS = 3  # 001 §14: 'start the battle three turns earlier, thus at 9:30 am'
# 001 §14 'Start the battle early!': 'The following 14 blue pieces will remain off the board
# during the army set-up' (R36: by type and strength).
EARLY_HELD_BACK = (("light_infantry", 1, 1), ("line_infantry", 3, 5), ("line_infantry", 5, 2),
                   ("line_infantry", 6, 1), ("heavy_cavalry", 4, 2), ("heavy_cavalry", 6, 1),
                   ("artillery", None, 2))


class IllegalAction(ValueError):
    """An action that is not legal now: nothing was changed."""


def new_game(seed: int, table: PieceTable, mode: str = "basic",
             turn_cap: int | None = None, options: Mapping[str, Any] | None = None) -> State:
    """The game before set-up. From the seed (not from the dice: nothing here is a roll):
    each player's Line of Retreat card (001 §3, R3) and the Prussians' order (001 §2:
    'shuffle them'). ``options`` (Expert only): ``early_start``, ``grouchy`` (001 §14)."""
    if mode not in MODES:
        raise ValueError(f"unknown mode: {mode!r}")
    opts: dict[str, Any] = {k: bool(v) for k, v in (options or {}).items()
                            if k in ("early_start", "grouchy") and v}
    battlefield = (options or {}).get("battlefield")
    if (opts or battlefield) and mode != "expert":
        raise ValueError("the scenarios are played in the Expert game (001 §14)")
    if battlefield:
        opts.update(parse_battlefield(mode, battlefield, table))  # R43, validated
    fielded = fielded_ids(table, opts)
    rng = random.Random(f"stratego-setup:{seed}")
    lines = {FRENCH: rng.choice(SECTORS), ALLIED: rng.choice(SECTORS)}
    pieces: dict[str, Piece] = {}
    pool = []
    for spec in table.specs.values():
        if spec.id not in fielded:
            continue  # R43: not in this battle's armies
        side = FRENCH if spec.army == "french" else ALLIED
        where = "pool" if spec.army == "prussian" else "reserve"
        pieces[spec.id] = Piece(spec, side, where)
        if spec.army == "prussian":
            pool.append(spec.id)
    rng.shuffle(pool)
    if mode == "expert":
        lines = {}  # 001 §11 Expert: 'The Lines of Retreat cards are not used.'
    if opts.get("early_start"):
        for typ, strength, n in EARLY_HELD_BACK:
            ids = [sp.id for sp in table.army("french") if sp.id in fielded
                   and sp.type == typ and sp.strength == strength][:n]
            for pid in ids:
                pieces[pid].where = "delayed"
    # 001 §6: 'the Allied player will start setting up his army'.
    st = State(table, seed, mode, pieces, lines, pool, phase="setup", active=ALLIED,
               turn_cap=turn_cap, options=opts)
    if mode != "basic":
        st.cards = cards.new_cards()
        st.buildings = initial_buildings(mode)
        if mode == "expert":
            st.buildings["hougoumont"]["owner"] = ALLIED  # R35: garrisoned, so held
    return st


def first_side(st: State) -> str:
    """001 §7: 'The Allied player starts the battle'; §14 early start: 'It is also the French
    player who will move first.'"""
    return FRENCH if st.options.get("early_start") else ALLIED


def prussians_come(st: State) -> bool:
    """False once Grouchy has held them (001 §14 'Where are the Prussians?')."""
    return st.options.get("prussians", True) is not False


def to_move(st: State) -> str | None:
    if st.phase == "over":
        return None
    if st.pending is not None:
        return str(st.pending["for"])
    return st.active


# --- listing -----------------------------------------------------------------------------

def allowed_armies(st: State, by_army: Mapping[str, list[Action]]) -> set[str]:
    """001 §9: 'at least one action must be carried out by the Prussians and one by the
    Allied forces' (R15: an army may take an action only if enough actions stay for the other
    army's first, when that army has anything it could do)."""
    armies = {a for a, acts in by_army.items() if acts}
    if st.active != ALLIED or st.turn < PRUSSIANS_FROM or not prussians_come(st):
        return armies
    unmet = {a for a in ("allied", "prussian") if not st.used.get(a) and by_army.get(a)}
    return {a for a in armies if st.actions_left - 1 >= len(unmet - {a})}


def legal_actions(st: State, side: str) -> list[Action]:
    if st.phase == "over":
        return []
    if st.pursuit is not None:
        return pursuit.legal(st, side)
    if st.pending is not None:
        return pending_actions(st, side) if st.pending["for"] == side else []
    if st.active != side:
        return []
    if st.phase == "setup":
        # Any valid placement is legal (``deploy``'s ``placement``); the listed one asks the
        # engine for a random set-up drawn with the dice.
        return [{"type": "deploy", "side": side, "random": True}]
    if st.phase == "draft":
        return cards.draft_actions(st, side)
    if st.due:
        if st.due[0] == "take_cards":
            return cards.take_actions(st, side)
        return [{"type": "roll_for_prussians", "side": side}]
    if st.card is not None:
        acts = [a for p in st.side_pieces(side) if p.where == "board"
                for a in piece_actions(st, p) if a["type"] != "rest"]
        return cards.step_actions(st, side, acts)
    by_army: dict[str, list[Action]] = {}
    free: list[Action] = []
    for p in sorted(st.side_pieces(side), key=lambda q: (q.square if q.square is not None
                                                          else -1, q.id)):
        army = p.spec.army
        acts = by_army.setdefault(army, [])
        if p.where == "board":
            for a in piece_actions(st, p):
                (free if a["type"] == "rest" else acts).append(a)
        elif p.where == "reserve" or (p.where in ("withdrawn", "resting")
                                      and p.back_from <= st.half):
            for s in entry_squares(st, p):
                acts.append({"type": "enter", "side": side, "piece": p.id, "to": to_pair(s)})
    allowed = allowed_armies(st, by_army)
    out = [a for army in sorted(by_army) if army in allowed for a in by_army[army]]
    out += free
    if st.cards is not None and card_allowed(st, by_army):
        out += cards.play_actions(st, side, [a for acts in by_army.values() for a in acts])
    if st.draw_offer == other(side):
        out.append({"type": "accept_draw", "side": side})
    elif st.draw_offer is None:
        out.append({"type": "offer_draw", "side": side})
    out.append({"type": "end_turn", "side": side})
    return out


def card_allowed(st: State, by_army: Mapping[str, list[Action]]) -> bool:
    """R15 for a card: it is an action of the player's own army (R28), so it leaves one for
    the Prussians when they have not acted yet."""
    if st.active != ALLIED or st.turn < PRUSSIANS_FROM or not prussians_come(st):
        return True
    unmet = {a for a in ("allied", "prussian") if not st.used.get(a) and by_army.get(a)}
    return st.actions_left - 1 >= len(unmet - {"allied"})


def pending_actions(st: State, side: str) -> list[Action]:
    assert st.pending is not None
    if st.pending["kind"] == "defend":
        return cards.defend_actions(st, side)
    return [{"type": "rampage", "side": side, "target": t} for t in st.pending["options"]]


def entry_squares(st: State, p: Piece) -> list[int]:
    """001 §7: a reserve or regenerated piece 'will always be placed on the bottom row'
    (R14: a Prussian on the Prussian flag)."""
    if p.spec.army == "prussian":
        squares = list(PRUSSIAN_FLAG)
    else:
        row = BACK_ROW[p.side]
        squares = [row * COLS + c for c in range(COLS)]
    return [s for s in squares if s not in st.board]


# --- set-up ------------------------------------------------------------------------------

def randbelow(n: int, dice: Iterator[int]) -> int:
    """A uniform integer in [0, n) from d6 rolls (base-6 digits, rejection)."""
    while True:
        span, value = 1, 0
        while span < n:
            value = value * 6 + roll(dice) - 1
            span *= 6
        limit = span - span % n
        if value < limit:
            return value % n


def garrisoned(st: State, side: str) -> bool:
    """001 §11 Expert: 'The Terrain tile Hougemont ... is occupied by two Allied Infantry
    pieces at the start of' the game (R35)."""
    return st.mode == "expert" and side == ALLIED


def hougoumont(st: State) -> tuple[int, ...]:
    """Hougoumont's squares (R6, or where the players laid it: R43)."""
    return tiles(st)["hougoumont"][1]


def random_placement(st: State, side: str, dice: Iterator[int]) -> dict[str, int]:
    ids = [p.id for p in st.side_pieces(side) if p.where == "reserve"]
    out: dict[str, int] = {}
    if garrisoned(st, side):
        infantry = [pid for pid in ids if st.pieces[pid].type in ("light_infantry",
                                                                   "line_infantry")]
        for square in hougoumont(st)[:2]:
            pid = infantry.pop(randbelow(len(infantry), dice))
            out[pid] = square
            ids.remove(pid)
    # the garrison alone holds Hougoumont at the start (R35), wherever it lies (R43)
    squares = [s for s in home_squares(side) if s not in out.values()
               and not (garrisoned(st, side) and s in hougoumont(st))]
    for i in range(len(squares) - 1, 0, -1):
        j = randbelow(i + 1, dice)
        squares[i], squares[j] = squares[j], squares[i]
    out.update(zip(ids, squares, strict=False))
    # R43: a building laid in the set-up rows holds no cavalry and no gun: each such piece
    # changes places with the first infantry (or empty square) outside the buildings.
    for pid, s in list(out.items()):
        if not barred(st, st.pieces[pid], s):
            continue
        held = {t: q for q, t in out.items()}
        for t in squares:
            q = held.get(t)
            if not barred(st, st.pieces[pid], t) and (
                    q is None or not barred(st, st.pieces[q], s)):
                out[pid] = t
                if q is not None:
                    out[q] = s
                break
    return out


def barred(st: State, p: Piece, square: int) -> bool:
    """001 §10: cavalry (commanders too) and artillery may not enter a building; R43: nor be
    set up in one (only a laid tile can lie in the set-up rows: R6 puts none there)."""
    return not may_enter(st, p, square) and building_at(st, square) is not None


def check_placement(st: State, side: str, placement: object) -> dict[str, int]:
    if not isinstance(placement, Mapping):
        raise IllegalAction("placement: a mapping of piece id to [col, row]")
    mine = {p.id for p in st.side_pieces(side) if p.spec.army != "prussian"
            and p.where != "delayed"}
    out: dict[str, int] = {}
    home = set(home_squares(side))
    if garrisoned(st, side):
        home |= set(hougoumont(st))
    for pid, pair in placement.items():
        if pid not in mine:
            raise IllegalAction(f"not one of your pieces: {pid!r}")
        try:
            s = from_pair(pair)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        if s not in home:
            # 001 §6: 'on any open square on the four bottom rows of their side'.
            raise IllegalAction(f"{pair!r} is not in your four set-up rows")
        if barred(st, st.pieces[pid], s):
            raise IllegalAction(f"{st.pieces[pid].spec.name} may not stand in "
                                f"{building_at(st, s)} (001 §10)")
        out[pid] = s
    if len(set(out.values())) != len(out):
        raise IllegalAction("two pieces on one square")
    if garrisoned(st, side):
        inside = [pid for pid, s in out.items() if s in hougoumont(st)]
        if len(inside) != 2 or any(st.pieces[pid].type not in ("light_infantry",
                                                               "line_infantry")
                                   for pid in inside):
            raise IllegalAction("Hougoumont is held by two Allied infantry pieces (R35)")
    if len(mine) - len(out) > MAX_RESERVE:
        raise IllegalAction(f"at most {MAX_RESERVE} pieces in reserve")
    for pid in mine - set(out):
        if st.pieces[pid].type in COMMANDERS:
            # 001 §6: 'Commanders and Commanders in Chief must ALWAYS be placed on the board!'
            raise IllegalAction(f"{st.pieces[pid].spec.name} must be placed on the board")
    return out


def deploy(st: State, side: str, action: Action, dice: Iterator[int],
           events: list[Event]) -> None:
    if action.get("random"):
        placement = random_placement(st, side, dice)
    else:
        placement = check_placement(st, side, action.get("placement"))
    for pid, s in placement.items():
        st.put(st.pieces[pid], s)
    events.append({"type": "deployed", "side": side,
                   # by square, never in the pieces' order (which would tell who is where)
                   "backs": [{"square": to_pair(s), "back": BACK[st.pieces[pid].type]}
                             for s, pid in sorted((s, pid) for pid, s in placement.items())],
                   "reserve": sum(1 for p in st.side_pieces(side) if p.where == "reserve"
                                  and p.spec.army != "prussian"),
                   "secret": {"for": side, "placement": {pid: to_pair(s) for pid, s
                                                         in sorted(placement.items())}}})
    if side == ALLIED:
        st.active = FRENCH  # 001 §6: 'Afterwards, the French player can set up his army'
        return
    if st.cards is not None:
        # R30: the draft of the manoeuvre cards, the Allied player first, after the set-ups.
        st.phase = "draft"
        st.active = ALLIED
        return
    begin_battle(st, events)


def begin_battle(st: State, events: list[Event]) -> None:
    st.phase = "play"
    st.turn = 1 - EARLY_TURNS if st.options.get("early_start") else 1
    st.active = first_side(st)  # 001 §7: 'The Allied player starts the battle.'
    start_turn(st, events)


# --- turns -------------------------------------------------------------------------------

def lost_actions(st: State, side: str) -> tuple[int, list[str]]:
    """001 §5: a commander is worth one action, a commander-in-chief two; §8: a commander
    withdrawn 'behind the lines' too, unless it comes back this turn (the ids returned)."""
    lost = 0
    away = []
    for p in st.side_pieces(side):
        if p.type not in COMMANDERS or p.where in ("pool",):
            continue
        if p.where == "eliminated":
            lost += 2 if p.type == "commander_in_chief" else 1
        elif p.where == "withdrawn":
            lost += 2 if p.type == "commander_in_chief" else 1
            away.append(p.id)
    return lost, away


def start_turn(st: State, events: list[Event]) -> None:
    side = st.active
    st.due = []
    coming = prussians_come(st)
    if side == ALLIED and st.turn >= PRUSSIANS_FROM and coming:
        prussians_arrive(st, events)
        if st.turn == PRUSSIANS_FROM and st.cards is not None and (
                st.cards["discards"][FRENCH] or st.cards["discards"][ALLIED]):
            st.due.append("take_cards")  # 001 §11, R31: he sees the discard pile
            st.cards["seen_discards"] = sorted({*st.cards["seen_discards"], ALLIED})
    if (side == ALLIED and st.turn == GROUCHY_TURN and st.options.get("grouchy")
            and "prussians" not in st.options):
        st.due.append("roll_for_prussians")  # 001 §14 'Where are the Prussians?'
    if side == FRENCH and st.turn == 1 and st.options.get("early_start"):
        held = sorted(p.id for p in st.side_pieces(FRENCH) if p.where == "delayed")
        for pid in held:
            st.pieces[pid].where = "reserve"  # R36: the late French arrive at 11:00
        if held:
            events.append({"type": "reinforcements", "side": FRENCH, "count": len(held)})
    lost, away = lost_actions(st, side)
    base = 3 + (1 if side == ALLIED and st.turn >= PRUSSIANS_FROM and coming else 0)
    st.actions_left = max(0, base - lost)
    if away and st.actions_left == 0:
        st.actions_left = 1  # R10: one action to bring the commander back, which it refunds
    st.refund = away
    st.used = {}
    events.append({"type": "turn", "side": side, "turn": st.turn, "time": time_of_turn(st.turn),
                   "actions": st.actions_left})
    if st.actions_left == 0 and not st.due:
        end_turn(st, events)


def prussians_arrive(st: State, events: list[Event]) -> None:
    """001 §9: two Prussians 'without looking at them ... with the rank turned towards him on
    the Black Prussian flag' (R14: each Allied turn from the 13th, as room allows)."""
    placed: list[tuple[int, Piece]] = []
    for s in PRUSSIAN_FLAG:
        if not st.prussian_pool or len(placed) == 2:
            break
        if s in st.board:
            continue
        p = st.pieces[st.prussian_pool.pop(0)]
        st.put(p, s)
        placed.append((s, p))
    if placed:
        events.append({"type": "prussians_arrive", "squares": [to_pair(s) for s, _ in placed],
                       "backs": [BACK[p.type] for _, p in placed],
                       "secret": {"for": ALLIED, "pieces": [p.id for _, p in placed]}})


def end_turn(st: State, events: list[Event]) -> None:
    if st.draw_offer == other(st.active):
        st.draw_offer = None  # R21: an offer stands for the opponent's next turn only
    st.half += 1
    st.card = None
    if st.active != first_side(st):
        if st.turn_cap is not None and st.turn >= st.turn_cap:
            finish(st, None, "turn_cap", events)
            return
        st.turn += 1
    st.active = other(st.active)
    start_turn(st, events)


def held_by(st: State, squares: Iterable[int], side: str) -> int:
    return sum(1 for s in squares if (p := st.at(s)) is not None and p.side == side)


def check_expert_lines(st: State, events: list[Event]) -> bool:
    """001 §11 Expert: 'Wellington's lines retreat are located on the Allied centre. If the
    French manage to occupy it with at least two units, the game will immediately end'; two
    French units on an Allied flank: an Allied retreat; the Allies on a French flank or
    centre: a French retreat, and the Pursuit (001 §13, R34) decides the result."""
    first = st.active
    for side in (first, other(first)):
        enemy = other(side)
        for sector in SECTORS:
            if held_by(st, lines_of_retreat(enemy, sector), side) >= 2:
                if side == FRENCH and sector == "centre":
                    finish(st, FRENCH, "wellingtons_lines", events)
                else:
                    pursuit.begin(st, side, sector, events)
                return True
    return False


def check_victory(st: State, events: list[Event]) -> bool:
    first = st.active
    if st.mode == "expert":
        if check_expert_lines(st, events):
            return True
        if st.pieces[napoleon_id(st)].where == "eliminated":
            # 001 §11 Expert: 'If Napoleon falls in battle, the game immediately ends. In this
            # case the Allies will have achieved a decisive victory!'
            finish(st, ALLIED, "napoleon_fell", events)
            return True
    for side in (first, other(first)) if st.mode != "expert" else ():
        enemy = other(side)
        squares = lines_of_retreat(enemy, st.lines[enemy])
        held = sum(1 for s in squares if (p := st.at(s)) is not None and p.side == side)
        if held >= 2:
            # 001 §3: 'Two units on your opponent's lines of retreat mean immediate victory.'
            finish(st, side, "lines_of_retreat", events)
            return True
    for side in (first, other(first)):
        chiefs = [p for p in st.side_pieces(side) if p.type == "commander_in_chief"]
        if st.mode == "standard" and any(p.where == "eliminated" for p in chiefs):
            # Part II: 'If the Napoleon or Wellington piece is captured, the game will
            # automatically end'.
            finish(st, other(side), "commander_in_chief", events)
            return True
        main = [p for p in st.side_pieces(side) if p.type in COMMANDERS
                and p.spec.army != "prussian"]
        if all(p.where == "eliminated" for p in main):
            # 001 §1: 'the game is also lost if a player loses his commander and commander
            # in chief'.
            finish(st, other(side), "commanders_lost", events)
            return True
    return False


# --- apply -------------------------------------------------------------------------------

def normal(action: Mapping[str, Any]) -> Action:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in action.items()}


def napoleon_id(st: State) -> str:
    return next(p.id for p in st.side_pieces(FRENCH) if p.type == "commander_in_chief")


def apply(st: State, action: Mapping[str, Any], dice: Iterable[int],
          legal: list[Action] | None = None, check: bool = True) -> list[Event]:
    side = to_move(st) or st.active
    act = normal(action)
    if st.phase == "over":
        raise IllegalAction("the game is over")
    if act.get("side", side) != side:
        raise IllegalAction(f"it is {side}'s turn")
    act["side"] = side
    it = iter(dice)
    events: list[Event] = []
    if st.phase == "setup":
        if act.get("type") != "deploy":
            raise IllegalAction("set up your army first (deploy)")
        deploy(st, side, act, it, events)
        return events
    if check:
        listed = legal if legal is not None else legal_actions(st, side)
        if act not in listed:
            raise IllegalAction(f"not a legal action now: {act!r}")
    kind = act["type"]
    if st.pursuit is not None:
        pursuit.apply(st, act, events)
        return events
    if st.pending is not None:
        resume(st, act, it, events)
        return events
    if kind == "draft":
        if cards.draft(st, act, events):
            begin_battle(st, events)
        else:
            st.active = other(side)
        return events
    if kind == "take_cards":
        cards.take(st, act, events)
        st.due.pop(0)
        return events
    if kind == "roll_for_prussians":
        face = roll(it)
        # 001 §14: 'If the Allied side is rolled, the Prussians will arrive ... If the French
        # side is rolled, Marshal Grouchy will have succeeded in intercepting the Prussians.'
        st.options["prussians"] = face in (2, 4, 6)
        events.append({"type": "grouchy", "side": side, "die": face, "dice": [face],
                       "prussians": st.options["prussians"]})
        st.due.pop(0)
        return events
    if kind == "end_turn":
        end_turn(st, events)
        return events
    if kind == "end_card":
        end_card(st, events)
        return events
    if kind == "offer_draw":
        st.draw_offer = side
        events.append({"type": "draw_offered", "side": side})
        return events
    if kind == "accept_draw":
        events.append({"type": "draw_accepted", "side": side})
        finish(st, None, "agreement", events)
        return events
    if kind == "card":
        cards.play(st, act, events)
        army = cards.army_of(side)
        st.used[army] = st.used.get(army, 0) + 1
        st.actions_left -= 1
        if st.card is None:
            if st.actions_left <= 0:
                end_turn(st, events)
        elif len(cards.step_actions(st, side, card_piece_actions(st, side))) <= 1:
            end_card(st, events)
        return events
    if kind == "look":
        cards.look(st, act, events)
        finish_step(st, side, events)
        return events
    if kind == "enter":
        p = st.pieces[act["piece"]]
        army = p.spec.army
        st.put(p, from_pair(act["to"]))
        events.append({"type": "enter", "side": side, "to": act["to"], "back": BACK[p.type],
                       **({"piece": p.id} if p.revealed else
                          {"secret": {"for": side, "piece": p.id}})})
        if p.id in st.refund:
            st.refund.remove(p.id)
            st.actions_left += 2 if p.type == "commander_in_chief" else 1  # 001 §8
        finish_step(st, army, events)
        return events
    p_or_none = st.at(from_pair(act["from"]))
    assert p_or_none is not None
    p = p_or_none
    army = p.spec.army
    if kind == "rest":
        st.lift(p, "resting")
        p.weakened = 0
        p.back_from = st.half + 2  # R11: off for a full game turn
        events.append({"type": "rest", "side": side, "from": act["from"], "piece": p.id})
        return events  # 001 §4: 'Taking them off the board does not cost an action'
    if st.card is not None:
        cards.note_step(st, p)
    if kind == "move":
        st.put(p, from_pair(act["to"]))
        events.append({"type": "move", "side": side, "from": act["from"], "to": act["to"],
                       **({"piece": p.id} if p.revealed else
                          {"secret": {"for": side, "piece": p.id}})})
    elif kind == "attack":
        pending = attack(st, p, from_pair(act["via"]), from_pair(act["target"]), it, events)
        if pending is not None:
            pending["army"] = army
            st.pending = pending
            events.append(asked(st))
            return events
    elif kind == "fire":
        fire(st, p, from_pair(act["target"]), events, act.get("building"))
    else:
        raise IllegalAction(f"unknown action: {kind!r}")
    finish_step(st, army, events)
    return events


def asked(st: State) -> Event:
    """The pause for the other player's choice, as everyone sees it."""
    assert st.pending is not None
    pd = st.pending
    return {"type": "asked", "kind": pd["kind"], "for": pd["for"],
            **({"target": pd["target"]} if pd["kind"] == "defend" else
               {"options": pd["options"]})}


def resume(st: State, act: Action, dice: Iterator[int], events: list[Event]) -> None:
    """The choice asked in the middle of an attack (R25, R29), and the attack goes on."""
    pd = st.pending
    assert pd is not None
    st.pending = None
    attacker = st.pieces[pd["attacker"]]
    if pd["kind"] == "defend":
        target = from_pair(pd["target"])
        dfn = st.at(target)
        assert dfn is not None
        if act["type"] == "fighting_spirit":
            assert st.cards is not None
            cards.take_from_hand(st, act["side"], "fighting_spirit")
            dfn.spirit_half = st.half
            events.append({"type": "card", "side": act["side"], "card": "fighting_spirit",
                           "square": act["square"], "defence": True})
        dv = pd["dvec"]
        out = fight(st, attacker, dfn, (dv[0], dv[1]), dice, events)
    else:
        out = rampage_on(st, st.pieces[pd["winner"]], from_pair(act["target"]), dice, events)
    if out is not None:
        out["attacker"] = pd["attacker"]
        out["army"] = pd["army"]
        st.pending = out
        events.append(asked(st))
        return
    after_attack(st, attacker, events)
    finish_step(st, pd["army"], events)


def card_piece_actions(st: State, side: str) -> list[Action]:
    return [a for p in st.side_pieces(side) if p.where == "board"
            for a in piece_actions(st, p) if a["type"] != "rest"]


def finish_step(st: State, army: str, events: list[Event]) -> None:
    """After an action (or one step of a card): flags, victory, the end of the turn."""
    if st.mode != "basic":
        update_flags(st, events)
    if st.card is not None:
        if check_victory(st, events):
            return
        if len(cards.step_actions(st, st.active, card_piece_actions(st, st.active))) <= 1:
            end_card(st, events)
        return
    st.used[army] = st.used.get(army, 0) + 1
    st.actions_left -= 1
    if check_victory(st, events):
        return
    if st.actions_left <= 0:
        end_turn(st, events)


def end_card(st: State, events: list[Event]) -> None:
    assert st.card is not None
    events.append({"type": "card_done", "side": st.active, "card": st.card["card"]})
    st.card = None
    if st.actions_left <= 0:
        end_turn(st, events)
