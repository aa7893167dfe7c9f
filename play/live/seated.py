"""The live hooks of a two-seat game whose app has the usual reads and writes (Stratego: Waterloo,
La Belle Alliance): who may look at a match (``find``), a viewer class's message (``view``)
and the player's action (``act``) are the app's; the rest is the same for each such kind:
the seats (``play.seats.side_of``), anyone may watch a public match under way or over, an
open socket counts as being there."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from play import presence, seats
from play.models import MatchStatus

from .hooks import LiveHooks


def watched(match: Any) -> bool:
    """Anyone may be watching a public match under way or over."""
    return bool(match.public) and match.status in (MatchStatus.ACTIVE, MatchStatus.FINISHED)


def seated_hooks(find: Callable[[Any, Any], Any],
                 view: Callable[[Any, str | None, int, Any], dict],
                 act: Callable[[int, Any, Any, Any], Any]) -> LiveHooks:
    return LiveHooks(find=find, side_of=seats.side_of, view=view, watched=watched, act=act,
                     presence=presence.SOCKET)
