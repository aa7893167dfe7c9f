"""Stratego: Waterloo as a kind of match of the game service (``play.registry``): the pure
module (``stratego.module.GAME``) bound to the ``StrategoMatch`` table, the piece table it
hands the engine, the columns read from a position, its export and its part of the live
channel (``live_view``); the hooks it shares with La Belle Alliance (one clock per side, the
end, the lock) are ``play.game_kind``'s. Found by ``play.registry.autodiscover``."""

from __future__ import annotations

from typing import Any

from play import tables
from play.game_kind import game_kind, stored_state
from play.protocol import GameModule
from play.registry import imported
from play.seats import match_pk
from stratego.engine import PieceTable, State
from stratego.loader import load_pieces
from stratego.module import GAME

from .models import StrategoAction, StrategoMatch

# The module as is: its bots' own set-ups are checked by the engine as any player's deploy
# (``play.turns.computer_turn``), as no list could hold every placement.
AS_PROTOCOL: GameModule = GAME
EXPORT_FORMAT = "stratego-waterloo/1"
NOUN = "game"


def cards_of(match: Any) -> PieceTable:
    """The piece table the match plays with (its versioned data file), once per process
    (``play.tables``; ``load_pieces`` caches each file too)."""
    return tables.kept(("stratego", match.pieces), lambda: load_pieces(match.pieces))


def options_of(match: Any) -> dict[str, Any]:
    """The module's setup options: the variant (the engine's mode), the Expert game's
    scenarios and battlefield (``services._clean_options``) and, for bots only, a turn cap
    (RULINGS R21; none for a game with a person in it)."""
    settings = match.settings or {}
    return {"mode": match.variant, "turn_cap": settings.get("turn_cap"),
            **{k: settings[k] for k in ("early_start", "grouchy", "battlefield")
               if settings.get(k)}}


state_of = stored_state(GAME, cards_of)  # the position a row keeps (None before the start)


def setup_game(match: Any) -> State:
    """The game before its first action (both armies in reserve, the Allies to set up)."""
    return GAME.setup(match.seed, options_of(match), cards_of(match))


def save_state(match: Any, st: State) -> list[str]:
    """The snapshot and the columns read from it (who moves, the phase, the turn)."""
    match.state = GAME.to_json(st)
    match.to_move = GAME.to_move(st) or ""
    match.phase = st.phase
    match.turn = st.turn
    return ["state", "to_move", "phase", "turn"]


def export_setup(match: Any) -> dict[str, Any]:
    """The setup columns of a ``stratego-waterloo/1`` export (``play.replays``): with the
    seed and the actions, ``setup_game`` and the module rebuild the game."""
    return {"variant": match.variant, "pieces": match.pieces,
            "settings": dict(match.settings or {})}


def game_pk(value: Any) -> int:
    return match_pk(value, NOUN)


KIND = game_kind(
    GAME, StrategoMatch, StrategoAction, cards=cards_of, setup=setup_game,
    save_state=save_state, noun=NOUN, live="online.stratego.live_view.LIVE",
    export_setup=export_setup, export_format=EXPORT_FORMAT, rating_pool="stratego",
    # a tournament's game (``play.seating``); services.py imports this module: imported late
    seat=imported("online.stratego.services.seat_game"), url_name="stratego-game")
