"""The La Belle Alliance service: creating, joining and cancelling a game, and playing it
through the game service (``play.opening``, ``play.turns``, ``play.undo``,
``play.presence``), as Stratego's does.

Each write runs in one transaction under the game's row lock and raises a ``config.errors``
refusal on bad input, changing nothing. The engine decides what is legal and what happens;
the dice of action number ``n`` come from the secret seed and ``n`` alone (``GAME.dice``), so
the setup plus the action list replays the game exactly (``replay``). The computer plays in
the Celery worker (``play.bot_move``, sent once the position commits with the computer to
move).
"""

from __future__ import annotations

from typing import Any

from belle_alliance.engine import State
from belle_alliance.loader import HOUSE
from config.errors import BadInput
from play import opening, presence, turns
from play import undo as undo_rules

from .kind import KIND
from .models import BelleAllianceMatch, BotName

COMPUTER, OPEN = opening.COMPUTER, opening.OPEN
BOTS = tuple(BotName.values)
TITLE = "La Belle Alliance"


def create_game(user: Any, side: Any, opponent: Any = COMPUTER, bot: Any = "greedy",
                public: Any = True, time_control: Any = None, rated: Any = False
                ) -> BelleAllianceMatch:
    """A new game of ``user`` playing ``side``. ``opponent``: ``computer`` (``bot`` plays the
    other side; the game starts at once), ``open`` or a username (``waiting`` until they
    ``join_game``, or it expires after ``play.turns.EXPIRY``). ``time_control``:
    ``play.clock``'s (default untimed). ``rated``: between two people only, the result
    updates both players' "belle_alliance" ratings when it ends."""
    new = opening.new_match(user, side, opponent, bot, BOTS, public, rated, time_control,
                            KIND.noun)
    match: BelleAllianceMatch = opening.create(KIND, new, user, settings={}, edition=HOUSE)
    return match


def join_game(match_id: Any, user: Any) -> BelleAllianceMatch:
    """Take the empty seat of an open game, or one ``user`` is invited to; it starts."""
    match: BelleAllianceMatch = opening.join(KIND, match_id, user)
    return match


SEAT_OPTIONS = ("public", "rated", "time_control")


def seat_game(french_user: Any, allied_user: Any, options: dict[str, Any]
              ) -> BelleAllianceMatch:
    """A tournament's game (the kind's ``seat`` hook, through ``play.seating``): both players
    seated from the start, active at once, the French to act, the clock running. The options
    are the ones a tournament passes (``time_control``, ``rated``, ``public``); any other is
    refused (the game has no variants)."""
    fields = opening.seat_check(options, SEAT_OPTIONS, french_user, allied_user, TITLE,
                                KIND.noun)
    match: BelleAllianceMatch = opening.seat(KIND, fields, settings={}, edition=HOUSE)
    return match


def cancel_game(match_id: Any, user: Any) -> Any:
    """End a game nobody has joined yet: its creator cancels it, the invited user declines
    it (``play.turns.cancel``)."""
    return turns.cancel(KIND, match_id, user)


def act(match_id: Any, user: Any, seq: Any, action: Any) -> list[dict[str, Any]]:
    """Apply ``user``'s ``action`` (one of their legal actions: an activation ``{"type":
    "act", "card", "action", "target", "napoleon"}``, a casualty choice or a pass) if ``seq``
    is the game's current sequence number; returns its events (``play.turns.act``)."""
    if isinstance(action, dict) and action.get("type") == "act" \
            and not isinstance(action.get("napoleon", False), bool):
        raise BadInput("napoleon must be true or false")
    return turns.act(KIND, match_id, user, seq, action)


def undo(match_id: Any, user: Any, seq: Any) -> int:
    """Take back ``user``'s last action in their phase until a die is rolled
    (``GAME.undo_refusal``); returns the seq taken back."""
    return undo_rules.undo(KIND, match_id, user, seq)


def resign(match_id: Any, user: Any) -> Any:
    """``user`` resigns (at any moment while it is active): the other side wins."""
    return turns.resign(KIND, match_id, user)


def claim_absence(match_id: Any, user: Any) -> Any:
    """A live game whose opponent has the move and has been away too long: ``user`` wins
    (``play.presence.claim``)."""
    return presence.claim(KIND, match_id, user)


def replay(match: BelleAllianceMatch) -> State:
    """The state rebuilt from the setup and the actions still counting (``undo.rebuild``);
    ``RuntimeError`` if an action's events differ from those recorded."""
    state: State = undo_rules.replay(KIND, match)
    return state
