"""The rules the rulebook gives, exactly; everything card-specific comes from ``state.cards``.

Actions (dicts, as stored):

- ``{"type": "act", "card": id, "action": id, "target": id | None, "napoleon": bool}``: the
  phasing player activates a card (``napoleon`` on French actions only: Napoleon used with it);
- ``{"type": "casualty", "card": id}``: the owner of an army chooses which corps takes a
  casualty when the targeted (or acting) corps has no division marker left;
- ``{"type": "pass"}``: only when nothing else is legal (RULINGS R11).

``apply(state, action, dice)`` plays one action in place and returns its events; the dice are
an explicit input (an iterable of 1-6; one per die, in the order rolled: the action's die or
dice, then the rout tests, non-phasing army first). ``chances(state, action)`` gives the same
action's exact outcomes, ``[(probability, state)]``, for the computer players.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .cards import ActionDef, CardDef, Condition, Effect
from .state import State, other

Action = dict[str, Any]
Event = dict[str, Any]

# TIME: "When Prussians get their 5th division marker onto the battlefield"; "When the French
# and Anglo-Allied armies together have 10 or more division markers on the casualty tracks".
TIME_PRUSSIANS = 5
TIME_CASUALTIES = 10
ARMY_OF = {"FC": "french", "AC": "allied"}


class IllegalAction(ValueError):
    """An action that is not legal in this position; the state is unchanged."""


class DiceExhausted(ValueError):
    """``apply`` needed more dice than it was handed."""


def holds(state: State, cond: Condition) -> bool:
    for place, side in cond.control:
        if state.control[place] != side:
            return False
    if cond.time_at_least is not None and state.time < cond.time_at_least:
        return False
    for card, n in cond.markers_at_least:
        if state.markers.get(card, 0) < n:
            return False
    for card, n in cond.markers_at_most:
        if state.markers.get(card, 0) > n:
            return False
    if cond.reserve_at_least is not None and state.reserve < cond.reserve_at_least:
        return False
    for name, flag in cond.used:
        if (state.napoleon_used if name == "napoleon" else state.wellington_used) != flag:
            return False
    return True


def modifier(state: State, adef: ActionDef) -> int:
    """The sum of the card's die modifiers that apply now (DIE ROLL: "In some cases modifiers
    are added to the die roll results. These are noted on the Corps cards.")."""
    return sum(m.value for m in adef.modifiers if holds(state, m.when))


def can_activate(state: State, card: CardDef) -> bool:
    """ACTIONS: "a Corps cannot be activated if it has no division markers left. Nor can the
    Grand Battery be activated if it has no markers left."; Wellington "Once per game"."""
    if card.kind in ("corps", "battery"):
        return state.markers[card.id] > 0
    if card.kind == "wellington":
        return not state.wellington_used
    return card.kind == "prussians"


def candidates(state: State, army: str) -> list[str]:
    """The cards of ``army`` that hold division markers on the battlefield (the Grand
    Battery's markers are not division markers: RULINGS R6)."""
    return [c.id for c in state.cards.side_cards(army)
            if c.kind in ("corps", "prussians") and state.markers[c.id] > 0]


def legal_actions(state: State, side: str) -> list[Action]:
    if state.winner is not None or state.to_move() != side:
        return []
    if state.pending is not None:
        army = state.pending["queue"][0][0]
        return [{"type": "casualty", "card": c} for c in candidates(state, army)]
    out: list[Action] = []
    opp_last = state.last_card[other(side)]
    for card in state.cards.side_cards(side):
        if not can_activate(state, card):
            continue
        for adef in card.actions:
            if not holds(state, adef.requires):
                continue
            if adef.kind == "counter":
                # ACTIONS: "can only be chosen if the opponent's last action was undertaken by
                # the target of the counter attack."
                targets: list[str | None] = [t for t in adef.targets if t == opp_last]
            else:
                targets = list(adef.targets) or [None]
            for t in targets:
                base = {"type": "act", "card": card.id, "action": adef.id, "target": t}
                if side == "french":
                    out.append({**base, "napoleon": False})
                    if not state.napoleon_used:
                        out.append({**base, "napoleon": True})
                else:
                    out.append(base)
    return out or [{"type": "pass"}]


def _next_die(dice: Iterator[int]) -> int:
    try:
        d = next(dice)
    except StopIteration:
        raise DiceExhausted("the action needs another die") from None
    if not isinstance(d, int) or not 1 <= d <= 6:
        raise ValueError(f"a die is 1-6, not {d!r}")
    return d


def _clamp(result: int) -> int:
    """RULINGS R3: a modified result below 1 reads the table's row 1, above 6 its row 6."""
    return 1 if result < 1 else 6 if result > 6 else result


def broken(state: State, side: str) -> str | None:
    """ROUT TEST MODIFIERS: "If either army reach a box marked with "B" in the morale or
    casualty track, that army immediately routs without a rout test." Which track, or None."""
    if state.morale[side] <= state.cards.morale_broken_at:
        return "morale"
    if len(state.tracks[side]) >= len(state.cards.casualty_tracks[side]):
        return "casualties"
    return None


def rout_modifier(state: State, side: str) -> int:
    """"If either or both of these boxes contain casualties the highest modifier is added to
    the rout test die roll." (the French track only holds RT+1/RT+2 boxes)."""
    labels = state.cards.casualty_tracks[side]
    filled = labels[:len(state.tracks[side])]
    return max((state.cards.rt_modifier(b) for b in filled), default=0)


def _lose_morale(state: State, side: str, n: int, events: list[Event], why: str) -> None:
    if n <= 0:
        return
    floor = state.cards.morale_broken_at
    state.morale[side] = max(floor, state.morale[side] - n)
    events.append({"type": "morale", "side": side, "loss": n, "morale": state.morale[side],
                   "why": why})


def _take(state: State, army: str, card: str, events: list[Event]) -> None:
    """OUTCOMES: one division marker from ``card`` onto ``army``'s casualty track, "from top to
    bottom"; a corps' last marker costs one more morale; an RT box calls for a rout test."""
    state.markers[card] -= 1
    track = state.tracks[army]
    track.append(card)
    labels = state.cards.casualty_tracks[army]
    box = len(track)
    label = labels[box - 1] if box <= len(labels) else "B"
    events.append({"type": "casualty", "side": army, "card": card, "box": box,
                   "label": label})
    assert state.pending is not None
    if label.startswith("RT") and army not in state.pending["tests"]:
        state.pending["tests"].append(army)
    if state.markers[card] == 0:
        # "If the Corps (or Grand Battery) loses its last marker, then one extra morale loss
        # is caused for the owning player."
        _lose_morale(state, army, 1, events, f"{card} lost its last marker")


def _record(state: State, side: str, card: CardDef, target: str | None, eff: Effect,
            events: list[Event]) -> None:
    """OUTCOMES: the row's effects recorded on the map. Morale, captures, arrivals and the
    battery first; then the casualties, the targeted army's before the acting army's, each
    queued (a casualty may need its owner's choice)."""
    cards = state.cards
    _lose_morale(state, "french", eff.FM, events, "FM")
    _lose_morale(state, "allied", eff.AM, events, "AM")
    if eff.capture is not None and state.control[eff.capture] != side:
        state.control[eff.capture] = side
        events.append({"type": "capture", "place": eff.capture, "side": side})
        bonus = cards.on_capture[eff.capture]
        _lose_morale(state, "french", bonus.FM, events, f"{eff.capture} taken")
        _lose_morale(state, "allied", bonus.AM, events, f"{eff.capture} taken")
    if eff.enter:
        prussians = cards.card_of_kind("prussians").id
        n = min(eff.enter, state.reserve)
        state.reserve -= n
        state.entered += n
        state.markers[prussians] += n
        events.append({"type": "enter", "n": n, "on_map": state.markers[prussians],
                       "entered": state.entered})
    if eff.battery:
        gb = cards.card_of_kind("battery").id
        n = min(eff.battery, state.markers[gb])
        if n:
            state.markers[gb] -= n
            events.append({"type": "battery", "lost": n, "left": state.markers[gb]})
            if state.markers[gb] == 0:
                _lose_morale(state, "french", 1, events, f"{gb} lost its last marker")
    queue: list[list[Any]] = []
    target_side = other(side)
    own_source = card.id if card.kind in ("corps", "prussians") else None
    for key in ("FC", "AC") if target_side == "french" else ("AC", "FC"):
        army = ARMY_OF[key]
        # "The division must be taken from the Corps which was targeted by the action."
        # The acting army's own casualties come from the acting corps (RULINGS R5).
        source = target if army == target_side else own_source
        queue.extend([army, source] for _ in range(getattr(eff, key)))
    state.pending = {"side": None, "acting": side, "queue": queue, "tests": []}


def _run(state: State, events: list[Event]) -> bool:
    """Take the queued casualties; False (and the owner to choose) when a choice is needed."""
    p = state.pending
    assert p is not None
    while p["queue"]:
        army, source = p["queue"][0]
        if source is not None and state.markers[source] > 0:
            p["queue"].pop(0)
            _take(state, army, source, events)
            continue
        # "If the target Corps has no remaining division markers, the owning player can
        # choose another Corps to take the casualty."
        cands = candidates(state, army)
        if len(cands) > 1:
            p["side"] = army
            events.append({"type": "choose_casualty", "side": army,
                           "from": source, "options": cands})
            return False
        p["queue"].pop(0)
        if cands:
            _take(state, army, cands[0], events)
        else:
            events.append({"type": "no_marker", "side": army})  # RULINGS R7
    return True


def _checks(state: State) -> tuple[str | None, str, list[tuple[str, int]]]:
    """After the recording: the army in a B box (the non-phasing army first: RULINGS R9) or
    None, the track it reached, and the rout tests due, in order."""
    p = state.pending
    assert p is not None
    order = (other(state.phase), state.phase)
    for side in order:
        why = broken(state, side)
        if why is not None:
            return side, why, []
    # "If both players must make a rout test at the same time the non-phasing player tests
    # first." One test per army per action (RULINGS R8).
    return None, "", [(s, rout_modifier(state, s)) for s in order if s in p["tests"]]


def _finish(state: State, loser: str, reason: str, events: list[Event]) -> None:
    state.pending = None
    state.winner = other(loser)
    state.reason = reason
    events.append({"type": "game_over", "winner": state.winner, "loser": loser,
                   "reason": reason, "turn": state.turn})


def _end_phase(state: State, events: list[Event]) -> None:
    """TURN ORDER: French phase, Allied phase, time phase (RULINGS R1: the time marker moves
    in the time phase, once for each reason newly met)."""
    state.pending = None
    if state.phase == "french":
        state.phase = "allied"
        events.append({"type": "phase", "side": "allied", "turn": state.turn})
        return
    total = len(state.tracks["french"]) + len(state.tracks["allied"])
    last = len(state.cards.time_track) - 1
    for reason, met in (("prussians", state.entered >= TIME_PRUSSIANS),
                        ("casualties", total >= TIME_CASUALTIES)):
        if met and reason not in state.time_reasons:
            state.time_reasons.append(reason)
            state.time = min(last, state.time + 1)
            events.append({"type": "time", "reason": reason, "time": state.time,
                           "label": state.cards.time_track[state.time]})
    state.turn += 1
    state.phase = "french"
    events.append({"type": "phase", "side": "french", "turn": state.turn})


def _conclude(state: State, dice: Iterator[int], events: list[Event]) -> None:
    loser, why, tests = _checks(state)
    if loser is not None:
        _finish(state, loser, f"B box on the {why} track", events)
        return
    for side, mod in tests:
        d = _next_die(dice)
        # "If the result is higher than the current army morale level ... then the army
        # routs"; "These modifiers are added to the raw score of the d6 die rolls."
        routed = d + mod > state.morale[side]
        events.append({"type": "rout_test", "side": side, "dice": [d], "modifier": mod,
                       "morale": state.morale[side], "routed": routed})
        if routed:
            _finish(state, side, "rout test failed", events)
            return
    _end_phase(state, events)


def _action_def(state: State, action: Action) -> tuple[CardDef, ActionDef]:
    card = state.cards.cards[action["card"]]
    return card, card.action(action["action"])


def _start(state: State, action: Action, events: list[Event]) -> tuple[CardDef, ActionDef]:
    side = state.phase
    card, adef = _action_def(state, action)
    state.last_card[side] = card.id
    if action.get("napoleon"):
        state.napoleon_used = True
    if card.kind == "wellington":
        state.wellington_used = True
    events.append({"type": "action", "side": side, "card": card.id, "action": adef.id,
                   "name": adef.name, "target": action.get("target"),
                   "napoleon": bool(action.get("napoleon")), "counter": adef.kind == "counter",
                   "turn": state.turn})
    return card, adef


def check_action(state: State, action: Action, legal: list[Action] | None = None) -> None:
    side = state.to_move()
    if side is None:
        raise IllegalAction("the game is over")
    if action not in (legal if legal is not None else legal_actions(state, side)):
        raise IllegalAction(f"not a legal action for {side} now: {action!r}")


def apply(state: State, action: Action, dice: Iterable[int], check: bool = True,
          legal: list[Action] | None = None) -> list[Event]:
    if check:
        check_action(state, action, legal)
    it = iter(dice)
    events: list[Event] = []
    kind = action.get("type")
    if kind == "pass":
        side = state.phase
        state.last_card[side] = None
        events.append({"type": "pass", "side": side, "turn": state.turn})
        state.pending = {"side": None, "acting": side, "queue": [], "tests": []}
        _conclude(state, it, events)
        return events
    if kind == "casualty":
        p = state.pending
        assert p is not None
        army = p["queue"].pop(0)[0]
        p["side"] = None
        events.append({"type": "chosen", "side": army, "card": action["card"]})
        _take(state, army, action["card"], events)
    else:
        card, adef = _start(state, action, events)
        cards = state.cards
        mod = modifier(state, adef)
        if action.get("napoleon") and cards.napoleon_roll == "best_of_two":
            rolled = [_next_die(it), _next_die(it)]
            die = max(rolled)
        else:
            rolled = [_next_die(it)]
            die = rolled[0]
            if action.get("napoleon"):
                mod += cards.napoleon_modifier
        row = _clamp(die + mod)
        eff = adef.table[row - 1]
        events.append({"type": "roll", "side": state.phase, "dice": rolled, "modifier": mod,
                       "result": row, "outcome": eff.as_dict()})
        _record(state, state.phase, card, action.get("target"), eff, events)
    if _run(state, events):
        _conclude(state, it, events)
    return events


def roll_distribution(state: State, action: Action) -> dict[int, float]:
    """The table row an ``act`` reads, with its probability."""
    _, adef = _action_def(state, action)
    mod = modifier(state, adef)
    if action.get("napoleon") and state.cards.napoleon_roll == "best_of_two":
        faces = {k: (2 * k - 1) / 36 for k in range(1, 7)}
    else:
        faces = {k: 1 / 6 for k in range(1, 7)}
        if action.get("napoleon"):
            mod += state.cards.napoleon_modifier
    out: dict[int, float] = {}
    for k, p in faces.items():
        r = _clamp(k + mod)
        out[r] = out.get(r, 0.0) + p
    return out


def _branches(state: State, p: float, out: list[tuple[float, State]]) -> None:
    """The exact outcomes of the checks and rout tests that end an action."""
    loser, why, tests = _checks(state)
    events: list[Event] = []
    if loser is not None:
        _finish(state, loser, f"B box on the {why} track", events)
        out.append((p, state))
        return
    for side, mod in tests:
        fail = sum(1 for d in range(1, 7) if d + mod > state.morale[side]) / 6
        if fail > 0:
            routed = state.copy()
            _finish(routed, side, "rout test failed", events)
            out.append((p * fail, routed))
        p *= 1 - fail
        if p <= 0:
            return
    _end_phase(state, events)
    out.append((p, state))


def chances(state: State, action: Action) -> list[tuple[float, State]]:
    """Every outcome of a legal ``action`` with its probability (they sum to 1); ``state`` is
    not changed."""
    out: list[tuple[float, State]] = []
    kind = action.get("type")
    if kind != "act":
        s = state.copy()
        events: list[Event] = []
        if kind == "pass":
            s.last_card[s.phase] = None
            s.pending = {"side": None, "acting": s.phase, "queue": [], "tests": []}
        else:
            pend = s.pending
            assert pend is not None
            army = pend["queue"].pop(0)[0]
            pend["side"] = None
            _take(s, army, action["card"], events)
        if _run(s, events):
            _branches(s, 1.0, out)
        else:
            out.append((1.0, s))
        return out
    _, adef = _action_def(state, action)
    # Rows with the same outcome lead to the same position: each is played once, with the
    # rows' chances summed (the tables repeat outcomes: fewer branches for the bots' search).
    effects: dict[Effect, float] = {}
    for row, p in roll_distribution(state, action).items():
        eff = adef.table[row - 1]
        effects[eff] = effects.get(eff, 0.0) + p
    for eff, p in effects.items():
        s = state.copy()
        events = []
        card, _ = _start(s, action, events)
        _record(s, s.phase, card, action.get("target"), eff, events)
        if _run(s, events):
            _branches(s, p, out)
        else:
            out.append((p, s))
    return out


def outcome(state: State) -> dict[str, Any] | None:
    if state.winner is None:
        return None
    return {"winner": state.winner, "reason": state.reason, "turn": state.turn}
