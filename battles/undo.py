"""Undo: take back one's last action(s) within one's own turn (issue 12, "Undo").

A player may take back their last action still counting, one per request, while:

- the battle is under way, it is their turn (the phasing side: ``state.active``; during
  deployment the side deploying, ``state.priority``) and they have priority;
- the action is theirs, and nothing of the opponent's came after it (a response window
  the opponent answered ends undo: their answer is an action of theirs);
- the action did not end the turn (its events hold a ``turn``) or the deployment
  (``deployment_done``);
- the action rolled no die (an event with ``dice``), revealed no card (``reveal``), drew
  none (``drawn``: its owner saw the top of the deck), showed no card to the opponent (any
  event the opponent may see that names a card they had not been shown before by an
  earlier action: a General entering face up, a special, a terrain, an elimination) and did
  not end the battle (``battle_over``).

An undo is a new ``BattleAction`` (``{"type": "undo", "undoes": k}``, one public event
``{"type": "undone", "undoes": k, "side": ...}``), never a rewrite of the log; the position
is rebuilt from the setup by replaying the actions still counting
(``engine.replay_file.effective_actions``, the same function ``services.replay`` and the
export replay use). The opponent keeps what they saw of the undone action (its public
events) and learns only that it was taken back. The next action rolls the dice of its own
new ``seq`` (see README: fair, since the seed is secret and no die was rolled by the
undone action).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from game import other_side

from .engine import SIDES, State, apply
from .engine.replay_file import UNDO, UNDONE, effective_actions, is_undo, plain
from .models import Battle, Status
from .modules import shown_cards
from .modules import undo_refusal as event_refusal


def phasing_side(state: State) -> str:
    """Whose turn it is: the active side; during deployment the side deploying."""
    return SIDES[state.priority if state.phase == "deploy" else state.active]


def undo_target(battle: Battle, side: str,
                rows: list[tuple[int, str, dict]] | None = None) -> tuple[int | None, str]:
    """(the seq ``side`` may take back now, "") or (None, why not). ``rows``: the battle's
    (seq, side, action) in order, if already read."""
    if battle.status != Status.ACTIVE or battle.state is None:
        return None, "the battle is not under way"
    if battle.to_move != side:
        return None, "it is not your move"
    st = battle.state  # the snapshot's JSON: side names (engine/position.py)
    phasing = st["priority"] if st["phase"] == "deploy" else st["active"]
    if phasing != side:
        return None, "it is not your turn"
    last, after = _last_counting(battle, rows)
    if last is None:
        return None, "there is nothing to take back"
    if last[1] != side or any(who != side for who in after):
        return None, "your opponent has acted since your last action"
    events = battle.actions.filter(seq=last[0]).values_list("events", flat=True).first()
    why = event_refusal(events or [], side)
    if why is not None and shown_cards(events or [], other_side(side)):
        # Only a card the opponent had not been shown before ends undo.
        known: set[int] = set()
        for earlier in battle.actions.filter(seq__lt=last[0]).values_list("events", flat=True):
            known |= shown_cards(earlier, other_side(side))
        why = event_refusal(events or [], side, known)
    if why is not None:
        return None, f"your last action cannot be taken back: {why}"
    return last[0], ""


def _last_counting(battle: Battle, rows=None) -> tuple[tuple | None, list[str]]:
    """The last action still counting as (seq, side), and the sides of the rows after it
    (undos and undone actions), read from the end of the log: an undo takes back the last
    action still counting, so undos and what they undo nest like brackets."""
    if rows is None:
        rows = _rows_from_the_end(battle)
    else:
        rows = reversed(rows)
    pending = 0
    after: list[str] = []
    for seq, who, action in rows:
        if is_undo(action):
            pending += 1
        elif pending:
            pending -= 1
        else:
            return (seq, who), after
        after.append(who)
    return None, after


def _rows_from_the_end(battle: Battle, chunk: int = 16):
    qs = battle.actions.filter(seq__lte=battle.seq).order_by("-seq")
    start = 0
    while True:
        rows = list(qs.values_list("seq", "side", "action")[start:start + chunk])
        yield from rows
        if len(rows) < chunk:
            return
        start += chunk


def can_undo(battle: Battle, side: str, rows: list[tuple[int, str, dict]] | None = None) -> bool:
    return undo_target(battle, side, rows)[0] is not None


def undo_record(side: str, seq: int) -> tuple[str, dict, list[dict]]:
    """The (side, action, events) of the undo row taking back action ``seq``."""
    return side, {"type": UNDO, "undoes": seq}, \
        [{"type": UNDONE, "undoes": seq, "side": side, "visibility": "all"}]


def rebuild(battle: Battle, start: State, rows: Iterable[Any], dice_for, *,
            check: bool = True) -> State:
    """``start`` (the setup position) advanced by the actions of ``rows`` still counting,
    each checked against its recorded events (``RuntimeError`` when one differs); ``check``:
    test each action's legality too."""
    for row in effective_actions(list(rows)):
        events = apply(start, row.action, dice_for(battle.seed, row.seq), check=check)
        if plain(events) != row.events:
            raise RuntimeError(f"battle {battle.pk}: action {row.seq} replays differently")
    return start


__all__ = ["can_undo", "event_refusal", "is_undo", "phasing_side", "rebuild", "undo_record",
           "undo_target"]
