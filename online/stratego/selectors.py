"""Reads of the Stratego: Waterloo service: lists, and ``side_view``, the ONLY thing a
player (or a spectator) is shown of a game (``play.lobby.KindLobby``'s, bound to the kind; a
summary and a view add the variant, the phase and the turn). It is built from the module's
``view(state, side)``, the side's legal actions and the log filtered by ``events_for``: an
unrevealed enemy piece is its square and its back, nothing more (RULINGS R13;
tests/test_stratego_hidden.py checks every answer against the true state)."""

from __future__ import annotations

from play import lobby

from .kind import KIND

player_names = lobby.player_names  # the players' names (anyone may see them: /watch/ lists them)

LOBBY = lobby.KindLobby(KIND, ("variant", "phase", "turn"))
LIST_COLUMNS = LOBBY.list_columns  # what ``game_summary`` reads

games_of = LOBBY.games_of
open_games = LOBBY.open_games
watchable_games = LOBBY.watchable_games
open_list = LOBBY.open_list
watch_list = LOBBY.watch_list
game_of = LOBBY.game_of
game_summary = LOBBY.game_summary
game_view = LOBBY.game_view
side_view = LOBBY.side_view
