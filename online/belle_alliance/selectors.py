"""Reads of the La Belle Alliance service: lists and ``side_view``, what a player or a
spectator is shown of a game (``play.lobby.KindLobby``'s, bound to the kind; a summary and a
view add the card edition, the phase and the turn). The game has no hidden information, but
the view still goes through the module's ``view(state, side)`` and ``events_for``, one text
per viewer class, as every kind's does."""

from __future__ import annotations

from play import lobby

from .kind import KIND

player_names = lobby.player_names  # the players' names (anyone may see them: /watch/ lists them)

LOBBY = lobby.KindLobby(KIND, ("edition", "phase", "turn"))
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
