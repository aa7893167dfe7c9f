"""apply(state, action, dice) -> events: the one way a state changes.

Every action is checked against ``legal_actions`` first (an illegal one raises
``IllegalAction`` and changes nothing). Dice are pulled one at a time, only as needed; if the
given dice run out, the state is restored and ``DiceExhausted`` raised.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from .board import PLACE_INDEX, PLACE_NAMES, SIDE_INDEX, SIDES, positions
from .combat import resolve, reveal
from .dice import SeededDice
from .errors import DiceExhausted, IllegalAction
from .legal import legal_actions, terrain_place
from .morale import resolve_morale
from .moves import do_move
from .phases import discard_effects, end_turn, reinforce, settle, start_turn
from .queries import current, engaged, index, shifted
from .rolls import Roller
from .specials import apply_remove_hits, play_special
from .state import FORMATIONS, Piece, State, is_over

Event = dict[str, Any]


# ``action: Any`` at the entry points: a caller may hand anything (the CLI, a request), and
# the answer must be IllegalAction; typed ``dict``, the compiled engine would raise its own
# TypeError at the call instead.
def _well_formed(st: State, action: Any) -> None:
    if not isinstance(action, dict) or action.get("side") not in SIDE_INDEX:
        raise IllegalAction(f"not an action: {action!r}")
    if is_over(st):
        raise IllegalAction("the battle is over")


def check_action(st: State, action: Any, legal: list[dict] | None = None) -> None:
    """Raise ``IllegalAction`` with the engine's reason unless ``action`` may be applied now.
    ``legal``: the side's ``legal_actions`` when the caller has listed them already (listing
    them is the expensive part, so a service lists them once)."""
    _well_formed(st, action)
    if legal is None:
        legal = legal_actions(st, action["side"])
    if action not in legal:
        raise IllegalAction(f"illegal action for {action['side']}: {action!r}")


def apply(st: State, action: Any, dice: Iterable[int] | None = None, *, check: bool = True
          ) -> list[Event]:
    """Apply one action for ``action["side"]``; returns the events, each with a
    ``visibility`` of "all", "french" or "allied"."""
    if check:
        check_action(st, action)
    else:
        _well_formed(st, action)
    act: dict = action  # a dict (_well_formed): typed, compiled lookups are dict lookups
    handler = HANDLERS.get(act.get("type"))  # type: ignore[arg-type]
    if handler is None:
        raise IllegalAction(f"unknown action type {act.get('type')!r}")
    roller = Roller(dice)
    snapshot = None if isinstance(dice, SeededDice) else st.copy()
    events: list[Event] = []
    try:
        handler(st, SIDE_INDEX[act["side"]], act, roller, events)
    except DiceExhausted:
        if snapshot is not None:
            st.restore(snapshot)
        raise
    return events


def _deploy(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    num = a["card"]
    c = st.cards[num]
    st.reserve[s].remove(num)
    p = Piece(st.next_pid, num, s, PLACE_INDEX[a["to"]], up=c.kind == "general")
    old = current(st)
    st.next_pid += 1
    st.pieces[p.pid] = p
    st.cache = shifted(st, old, p, None, p.place)
    if "occupy" in a:
        p.occ = a["occupy"]
    if "formation" in a:
        p.form = FORMATIONS.index(a["formation"])  # MagWeb Q&A 4.1 (RULINGS 4.1-c)
    # the optional keys set in turn, not merged from dicts (the same keys, the same order)
    e: Event = {"type": "deploy", "side": SIDES[s], "piece": p.pid, "to": a["to"],
                "army": c.army}
    if p.up:
        e["card"] = num
    if p.occ:
        e["occupy"] = p.occ
    if "formation" in a:
        e["formation"] = a["formation"]
    e["visibility"] = "all"
    ev.append(e)
    if not p.up:
        ev.append({"type": "deploy_card", "side": SIDES[s], "piece": p.pid, "card": num,
                   "visibility": SIDES[s]})


def _decoy(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    """14.0: deployed face-down; looks like any other face-down card."""
    num = a["card"]
    st.reserve[s].remove(num)
    p = Piece(st.next_pid, num, s, PLACE_INDEX[a["to"]], up=False)
    st.next_pid += 1
    st.pieces[p.pid] = p
    st.cache = None
    ev.append({"type": "deploy" if st.phase == "deploy" else "enter", "side": SIDES[s],
               "piece": p.pid, "to": a["to"], "army": st.cards[num].army, "visibility": "all"})
    ev.append({"type": "decoy_card", "side": SIDES[s], "piece": p.pid, "card": num,
               "visibility": SIDES[s]})
    if st.phase != "deploy":
        settle(st, ev)


def _deployment_done(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    ev.append({"type": "deployment_done", "side": SIDES[s], "visibility": "all"})
    if s == 1:
        st.priority = 0  # 4.1 the French adjust last
        return
    st.turn = 1
    start_turn(st, 0, ev)  # 5.0 the French have the first turn


def _play_terrain(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    num = a["card"]
    st.reserve[s].remove(num)
    p = Piece(st.next_pid, num, s, terrain_place(st, s, num), up=True)
    old = current(st)
    st.next_pid += 1
    st.pieces[p.pid] = p
    st.cache = shifted(st, old, p, None, p.place)
    ev.append({"type": "terrain", "side": SIDES[s], "piece": p.pid, "card": num,
               "at": _name(p.place), "visibility": "all"})
    if st.phase != "deploy":
        settle(st, ev)


def _name(place: int) -> str:
    return PLACE_NAMES[place]


def _play_special(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    play_special(st, s, a, ev)
    if st.phase != "deploy":
        settle(st, ev)


def _move(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    dst = PLACE_INDEX[a["to"]]
    engaging = dst != 4 * s and index(st).pres[1 - s][dst]  # 8.1 moving into enemy cards
    p = do_move(st, s, a, ev)
    settle(st, ev)  # 8.1: revealed once the card has completed its movement
    if engaging and not is_over(st) and st.reserve[1 - s] and p is not None and \
            p.pid in st.pieces and index(st).eng[dst]:
        # RULINGS 13.0-f: the enemy may answer an engagement with enemy_combat specials
        # (the window opens on public facts only: a non-empty Reserve)
        st.pending = {"type": "move", "piece": p.pid, "target": p.pid}
        st.step, st.priority = "response", 1 - s


def _change_formation(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    p = st.pieces[a["piece"]]
    if engaged(st, index(st)[p.place]):
        p.moves += 1  # 9.0 engaged infantry expend a Move
        st.last_mover = p.pid
    else:
        p.formed = True
    p.form = FORMATIONS.index(a["formation"])
    ev.append({"type": "formation", "piece": p.pid, "formation": a["formation"],
               "visibility": "all"})


def _occupy(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    p = st.pieces[a["piece"]]
    p.moves += 1  # 11.5 occupying terrain is a Move
    p.occ = a["terrain"]
    st.last_mover = p.pid
    ev.append({"type": "occupy", "piece": p.pid, "terrain": p.occ, "visibility": "all"})


def _attack(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    p = st.pieces[a["piece"]]
    shock = a["type"] == "shock"
    p.fired = True
    st.last_mover = p.pid
    if not p.up:
        reveal(st, p, ev)  # 7.1 a card that fires is revealed
    ev.append({"type": "declare", "side": SIDES[s], "attack": a["type"], "piece": p.pid,
               "target": a["target"], "visibility": "all"})
    if st.reserve[1 - s]:
        # the enemy may answer with enemy_combat specials before the dice (RULINGS 13.0-b)
        st.pending = {"type": a["type"], "piece": p.pid, "target": a["target"]}
        st.step, st.priority = "response", 1 - s
        return
    resolve(st, p, st.pieces[a["target"]], shock, roller, ev)
    settle(st, ev)


def _roll_morale(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    if st.reserve[1 - s]:
        st.step, st.priority = "response", 1 - s  # enemy_morale window
        return
    _morale(st, roller, ev)


def _morale(st: State, roller: Roller, ev: list[Event]) -> None:
    apply_remove_hits(st, ev)
    resolve_morale(st, roller, ev)
    if not is_over(st):
        discard_effects(st, ev)
        st.phase, st.step, st.priority = "combat", "main", st.active


def _pass(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    if st.phase == "morale":
        _morale(st, roller, ev)
        return
    pend: Any = st.pending
    st.pending = None
    st.step, st.priority = "main", st.active
    if pend["type"] == "move":
        return  # the window after an engaging move closes (RULINGS 13.0-f)
    resolve(st, st.pieces[pend["piece"]], st.pieces[pend["target"]], pend["type"] == "shock",
            roller, ev)
    settle(st, ev)


def _end_phase(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    settle(st, ev)
    if is_over(st):
        return
    discard_effects(st, ev)
    reinforce(st, ev)  # 5.0 phase 3, 10.0


def _end_turn(st: State, s: int, a: dict, roller: Roller, ev: list[Event]) -> None:
    end_turn(st, ev)


HANDLERS: Final = {
    "deploy": _deploy, "decoy": _decoy, "deployment_done": _deployment_done,
    "play_terrain": _play_terrain, "play_special": _play_special, "move": _move,
    "change_formation": _change_formation, "occupy": _occupy, "fire": _attack,
    "shock": _attack, "roll_morale": _roll_morale, "pass": _pass, "end_phase": _end_phase,
    "end_turn": _end_turn,
}


def outcome(st: State) -> dict | None:
    """None while the battle runs; else {"winner": "french"|"allied"|None, "reason", ...}."""
    return dict(st.outcome) if st.outcome else None


__all__ = ["apply", "outcome", "positions"]
