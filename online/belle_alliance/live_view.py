"""La Belle Alliance's part of the live channel (``play/live/``; ``KIND.live`` names
``LIVE``): ``ws/games/belle_alliance/<id>/``. Who may look at a game
(``selectors.game_of``), what each viewer class sees (``selectors.side_view``: the whole
position, the side's own legal actions) and how a socket's player acts (``services.act``);
the rest is ``play.live.seated``'s."""

from __future__ import annotations

from play.live.seated import seated_hooks

from . import selectors, services

LIVE = seated_hooks(find=selectors.game_of, view=selectors.side_view, act=services.act)
