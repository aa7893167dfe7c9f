"""Auto-pass and forced moves: the clicks a person would make with no choice at all, for
every game.

``extend(kind, match, state, moves)`` is called under the match's row lock after the
player's (or the computer's) own actions were applied to ``state`` and just before ``moves``
are recorded. While the match is not over and a PERSON must act, it plays for them the
action the game module calls forced (``game.forced_action(legal, always_ask)``: for EAGLES a
lone pass, unless the player's ``Preferences.always_ask`` is set, or another lone action
that is not the end of their own phase, turn or a campaign decision). The computer's side is
never auto-played (the bot chooses its own moves). The lone end of their own phase or turn
(the module's ``own_endings``) is played for them only if they asked for it
(``Preferences.end_for_me``, off by default), with the reason "end" ("ended for you: your
setting" in the log), and only when their action before it could not be taken back anyway
(a die rolled, a card revealed...): an end played for them never closes an undo they had.

The player's own standing choices to pass (``Match.pass_choices[side]``: "pass for the rest
of this enemy turn", the kinds of response window they do not want to be asked in) are
honoured through the module too (``protocol.PassChoices.chosen_action``, optional): what they
play is recorded like any auto-played action, with the module's reason (``auto_reason``), so
that the log can say it was the player's choice. This module never reads the choices.
The same goes for a standing order to act (EAGLES: "Fire with every ready card" for one
Combat Phase, ``play.passing.fire_order``, reason "order"), with one guard: like an end
played for them, an ordered action is not played right after an action of theirs that
could still be taken back (it would close that undo); their next action lets it go on.

Each auto-played action is recorded as that person's action with the dice of its own
``seq``, so a replay reproduces it exactly. What an auto-pass tells the opponent: that the
player had no answer, never which cards they hold.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

AUTO_MAX_ACTIONS = 50  # a guard: a normal streak is a few passes and a morale roll
ORDER = "order"  # the reason of an action a standing order played (not a pass)


def _always_ask(user: Any) -> bool:
    from accounts.models import preference

    return preference(user, "always_ask")


def _end_for_me(user: Any) -> bool:
    from accounts.models import preference

    return preference(user, "end_for_me")


def _could_undo(game: Any, match: Any, moves: list[tuple[str, dict, list]], side: str
                ) -> bool:
    """Whether ``side``'s last action among ``moves`` could still be taken back (the game's
    ``undo_refusal`` finds nothing; cards named before are counted as new, so a doubt is a
    refusal): ending their turn for them would close that undo, so the end stays theirs to
    click. False when ``moves`` hold no action of theirs (an enemy action came after theirs:
    nothing of theirs can be undone)."""
    refusal = getattr(game, "undo_refusal", None)
    mine = [(a, ev) for s, a, ev in moves if s == side]
    if refusal is None or not mine:
        return False
    action, events = mine[-1]
    return refusal(action, events, side, None, match.state) is None


def extend(kind: Any, match: Any, state: Any, moves: list[tuple[str, dict, list]], *,
           always_ask: Callable[[Any], bool] = _always_ask,
           end_for_me: Callable[[Any], bool] = _end_for_me,
           reasons: list[str] | None = None, listed: dict[str, list] | None = None) -> int:
    """Append to ``moves`` the actions forced on the person to move, or played by their own
    standing choice; returns how many were added, and appends each one's reason to
    ``reasons`` ("" forced; the module's key for a choice). ``match.seq`` is the seq before
    ``moves``. ``listed``: filled with the legal actions of the person to move in the final
    position (listed here to find a forced one; the messages of the change reuse them
    instead of listing them again)."""
    game = kind.game
    chosen = getattr(game, "chosen_action", None)
    choices = getattr(match, "pass_choices", None) or {}
    asked: dict[str, bool] = {}
    ends: dict[str, bool] = {}
    own_endings = frozenset(getattr(game, "own_endings", ()))
    added = 0
    while added < AUTO_MAX_ACTIONS:
        side = game.to_move(state)
        if side is None or match.player_id(side) is None:
            break  # over, or the computer's side (or an empty seat)
        legal = game.legal_actions(state, side)
        # The preference matters only for a lone pass: read it then (not on every action).
        if side not in asked and len(legal) == 1 and legal[0].get("type") == "pass":
            asked[side] = always_ask(match.player(side))
        action, why = game.forced_action(legal, asked.get(side, False)), ""
        if action is None and chosen is not None and choices.get(side):
            action, why = chosen(state, side, legal, choices[side]) or (None, "")
            if why == ORDER and _could_undo(game, match, moves, side):
                action, why = None, ""  # a standing order never closes an undo they had
        if action is None and len(legal) == 1 and legal[0].get("type") in own_endings:
            if side not in ends:  # read only when ending is all they have left
                ends[side] = end_for_me(match.player(side))
            if ends[side] and not _could_undo(game, match, moves, side):
                action, why = legal[0], "end"
        if action is None:
            if listed is not None:
                listed[side] = legal
            break
        n = match.seq + len(moves) + 1
        events = game.apply(state, action, game.dice(match.seed, n), legal=legal)
        moves.append((side, action, events))
        if reasons is not None:
            reasons.append(why)
        added += 1
    return added
