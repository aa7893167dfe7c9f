"""Auto-play inside campaigns: a person's forced board action, played for them, as in battles.

``extend(campaign, core, moves)`` is called by ``services._record`` (so after ``act`` and
after the computer's moves in ``bot_move``), under the campaign's row lock, just before
``moves`` are recorded. While the campaign is not over and a PERSON is to move on a board,
it applies for them their only legal action, by the battles' rule
(``battles.autoplay.forced_action``): a lone **pass** (a response window where they hold no
special that could answer) unless their ``Preferences.always_ask`` is set, and any other lone
board action (a forced morale roll, the end of a deployment with nothing left to deploy), but:

- campaign decisions (``split``, ``reinforce`` / ``keep``, ``retreat``) are never auto-played
  (a retreat is never alone anyway: it is offered beside the battle's own actions);
- ending one's own phase or turn stays a click (the player reviews first, and may undo).

Each auto-pass is recorded as that person's action with the dice of its own ``seq``
(``services.dice_for``), so ``services.replay`` reproduces it exactly. The computer's side is
never auto-played (the bot chooses its own moves). A pass names no card: the opponent learns
only that no answer was possible, as at the table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from battles.autoplay import forced_action
from battles.campaign import Campaign as CoreCampaign
from battles.campaign import apply, legal_actions, to_move

AUTO_MAX_ACTIONS = 50  # a guard: a normal streak is a pass or two between two boards' moves


def _always_ask(user) -> bool:
    from accounts.models import preferences_of

    return preferences_of(user).always_ask


DECISIONS = ("split", "reinforce", "keep", "retreat")  # the campaign's own: always a click


def forced(legal: list[dict], always_ask: bool) -> dict | None:
    """The board action to play for the person, or None (they choose). Pure."""
    action = forced_action(legal, always_ask)
    if action is None or action.get("type") in DECISIONS:
        return None
    return action


def extend(campaign: Any, core: CoreCampaign, moves: list[tuple[str, dict, list]], *,
           dice_for: Callable[[int, int], Any] | None = None,
           always_ask: Callable[[Any], bool] = _always_ask) -> int:
    """Append to ``moves`` the forced actions of the person to move (see the module); returns
    how many were added. ``campaign.seq`` is the seq before ``moves``."""
    if dice_for is None:
        from .services import dice_for
    asked: dict[str, bool] = {}
    added = 0
    while added < AUTO_MAX_ACTIONS and (turn := to_move(core)) is not None:
        side = turn["side"]
        if campaign.player_id(side) is None or turn["step"] != "play":
            break  # the computer's side (or an empty seat), or a campaign decision
        legal = legal_actions(core, side)
        if len(legal) != 1:
            break
        if legal[0].get("type") == "pass" and side not in asked:
            asked[side] = always_ask(campaign.player(side))  # read once, for a lone pass only
        action = forced(legal, asked.get(side, False))
        if action is None:
            break
        n = campaign.seq + len(moves) + 1
        events = apply(core, action, dice_for(campaign.seed, n))
        moves.append((side, _plain(action), _plain(events)))
        added += 1
    return added


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))
