"""Stratego: Waterloo's part of the live channel (``play/live/``; ``KIND.live`` names
``LIVE``): ``ws/games/stratego/<id>/``. Who may look at a game (``selectors.game_of``), what
each viewer class sees of it (``selectors.side_view``: a player their side's view, a
spectator nobody's side: no unrevealed identity), who may watch it, how a socket's player
acts (``services.act``), and the players' presence (an open socket is being there)."""

from __future__ import annotations

from typing import Any

from play import presence, seats
from play.live.hooks import LiveHooks

from . import selectors, services
from .models import Status


def watched(match: Any) -> bool:
    """Anyone may be watching a public game under way or over."""
    return bool(match.public) and match.status in (Status.ACTIVE, Status.FINISHED)


def view(match: Any, side: str | None, since: int, snap: Any = None) -> dict[str, Any]:
    return selectors.side_view(match, side, since, snap)


LIVE = LiveHooks(
    find=lambda user, match_id: selectors.game_of(user, match_id),
    side_of=lambda match, user: seats.side_of(match, user),
    view=view,
    watched=watched,
    act=lambda match_id, user, seq, action: services.act(match_id, user, seq, action),
    presence=presence.SOCKET)
