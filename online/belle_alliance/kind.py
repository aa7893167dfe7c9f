"""La Belle Alliance as a kind of match of the game service (``play.registry``): the pure
module (``belle_alliance.module.GAME``) bound to the ``BelleAllianceMatch`` table, the card
edition it hands the engine, the columns read from a position, its export and its part of the
live channel (``live_view``); the hooks it shares with Stratego (one clock per side, the end,
the lock) are ``play.game_kind``'s. Found by ``play.registry.autodiscover``."""

from __future__ import annotations

from typing import Any

from belle_alliance.engine import CardData, State
from belle_alliance.loader import edition
from belle_alliance.module import GAME
from play.game_kind import game_kind, stored_state
from play.registry import imported
from play.seats import match_pk

from .models import BelleAllianceAction, BelleAllianceMatch

EXPORT_FORMAT = "belle-alliance/1"
NOUN = "game"


def cards_of(match: Any) -> CardData:
    """The card edition the match plays with (its versioned data file, read once a
    process: ``loader.edition``); every card is public, so the computer knows it too."""
    return edition(match.edition)


state_of = stored_state(GAME, cards_of)  # the position a row keeps (None before the start)


def setup_game(match: Any) -> State:
    """The game before its first action (GAME SETUP: the French to act)."""
    return GAME.setup(match.seed, {}, cards_of(match))


def save_state(match: Any, st: State) -> list[str]:
    """The snapshot and the columns read from it (who moves, the phase, the turn)."""
    match.state = GAME.to_json(st)
    match.to_move = GAME.to_move(st) or ""
    match.phase = st.phase if st.winner is None else ""
    match.turn = st.turn
    return ["state", "to_move", "phase", "turn"]


def export_setup(match: Any) -> dict[str, Any]:
    """The setup columns of a ``belle-alliance/1`` export (``play.replays``): with the seed
    and the actions, ``setup_game`` and the module rebuild the game."""
    return {"edition": match.edition}


def game_pk(value: Any) -> int:
    return match_pk(value, NOUN)


KIND = game_kind(
    GAME, BelleAllianceMatch, BelleAllianceAction, cards=cards_of, setup=setup_game,
    save_state=save_state, noun=NOUN, live="online.belle_alliance.live_view.LIVE",
    export_setup=export_setup, export_format=EXPORT_FORMAT, rating_pool="belle_alliance",
    # a tournament's game (``play.seating``); services.py imports this module: imported late
    seat=imported("online.belle_alliance.services.seat_game"), url_name="belle-alliance-game")
