"""Auto-pass and forced moves: the clicks a human player would make with no choice at all.

``extend(battle, state, moves)`` is called by ``services.act`` and ``services.bot_move`` under
the battle's row lock, after the player's (or the computer's) own actions were applied to
``state`` and just before ``moves`` are recorded. While the battle is not over and a HUMAN has
priority, it applies for that human:

- a **pass** when it is the only legal action (a response window where the player holds no
  special that could answer), unless the player's ``Preferences.always_ask`` is set;
- any **other single legal action** (``roll_morale``, ``deployment_done``, a forced move),
  except ending one's own phase or turn (``end_phase``, ``end_turn``): those stay a click so
  the player can look at the board first.

Each auto-played action is recorded as that human's action with the dice of its own ``seq``
(``services.dice_for``), so ``services.replay`` reproduces it exactly. The computer's side is
never auto-played here (the bot chooses its own moves).

What an auto-pass tells the opponent: that the player had no answer (as saying "no" at once
at the table), never which cards they hold; a pass names no card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .engine import SIDES, State, apply, legal_actions

AUTO_MAX_ACTIONS = 50  # a guard: a normal streak is a few passes and a morale roll
KEPT_AS_CLICK = ("end_phase", "end_turn")  # one's own turn: the player reviews first


def forced_action(legal: list[dict], always_ask: bool) -> dict | None:
    """The action to play for the player, or None (they choose). Pure."""
    if len(legal) != 1:
        return None
    action = legal[0]
    kind = action.get("type")
    if kind in KEPT_AS_CLICK:
        return None
    if kind == "pass" and always_ask:
        return None
    return action


def _always_ask(user) -> bool:
    from accounts.models import preferences_of

    return preferences_of(user).always_ask


def extend(battle: Any, state: State, moves: list[tuple[str, dict, list]], *,
           dice_for: Callable[[int, int], Any] | None = None,
           always_ask: Callable[[Any], bool] = _always_ask) -> int:
    """Append to ``moves`` the actions forced on the human with priority (see the module);
    returns how many were added. ``battle.seq`` is the seq before ``moves``."""
    if dice_for is None:
        from .services import dice_for
    asked: dict[str, bool] = {}
    added = 0
    while state.outcome is None and added < AUTO_MAX_ACTIONS:
        side = SIDES[state.priority]
        user = battle.player(side)
        if user is None:  # the computer's side (or an empty seat): never auto-played
            break
        legal = legal_actions(state, side)
        # The preference matters only for a lone pass: read it then (not on every action).
        if side not in asked and len(legal) == 1 and legal[0].get("type") == "pass":
            asked[side] = always_ask(user)
        action = forced_action(legal, asked.get(side, False))
        if action is None:
            break
        n = battle.seq + len(moves) + 1
        events = apply(state, action, dice_for(battle.seed, n), check=False)
        moves.append((side, action, events))
        added += 1
    return added
