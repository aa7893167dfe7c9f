"""Reads of the La Belle Alliance service: lists (``play.lobby``'s, bound to the table) and
``side_view``, what a player or a spectator is shown of a game. The game has no hidden
information, but the view still goes through the module's ``view(state, side)`` and
``events_for``, one text per viewer class, as every kind's does."""

from __future__ import annotations

from typing import Any

from play import lists, lobby
from play.seats import side_of

from .kind import KIND, NOUN
from .models import BelleAllianceMatch

player_names = lobby.player_names  # the players' names (anyone may see them: /watch/ lists them)

LIST_COLUMNS = lists.columns("edition", "phase", "turn")  # what ``game_summary`` reads


def games_of(user: Any) -> Any:
    """The user's games and the games they are invited to (``play.lists`` branches)."""
    return lobby.mine(BelleAllianceMatch, user, LIST_COLUMNS)


def open_games(user: Any) -> Any:
    return lobby.open_matches(BelleAllianceMatch, user)


def watchable_games(user: Any) -> Any:
    return lobby.watchable(BelleAllianceMatch, user)


def game_of(user: Any, pk: Any) -> BelleAllianceMatch:
    m: BelleAllianceMatch = lobby.visible(BelleAllianceMatch, user, pk, NOUN)
    return m


def game_summary(m: BelleAllianceMatch, user: Any) -> dict[str, Any]:
    return {**lobby.summary(m, user), "edition": m.edition, "phase": m.phase,
            "turn": m.turn}


def game_view(m: BelleAllianceMatch, user: Any, since: int = 0) -> dict[str, Any]:
    """Everything ``user`` may know about game ``m``."""
    return side_view(m, side_of(m, user), since)


def side_view(m: BelleAllianceMatch, side: str | None, since: int = 0, snap: Any = None
              ) -> dict[str, Any]:
    """``game_view`` for the player of ``side`` (None: anyone else): it depends on the side
    only. From ``snap`` (``play.turns.Snapshot``) when given: the live channel's messages of
    one change, with no read of the position or the log."""
    return lobby.side_view(KIND, m, side, since, snap, edition=m.edition, phase=m.phase,
                            turn=m.turn)
