"""Stratego: Waterloo's part of the live channel (``play/live/``; ``KIND.live`` names
``LIVE``): ``ws/games/stratego/<id>/``. Who may look at a game (``selectors.game_of``), what
each viewer class sees of it (``selectors.side_view``: a player their side's view, a
spectator nobody's side: no unrevealed identity) and how a socket's player acts
(``services.act``); who may watch and the players' presence are ``play.live.seated``'s."""

from __future__ import annotations

from play.live.seated import seated_hooks

from . import selectors, services

LIVE = seated_hooks(find=selectors.game_of, view=selectors.side_view, act=services.act)
