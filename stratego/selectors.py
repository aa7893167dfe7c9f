"""Reads of the Stratego: Waterloo service: lists, and ``side_view``, the ONLY thing a
player (or a spectator) is shown of a game. It is built from the module's
``view(state, side)``, the side's legal actions and the log filtered by ``events_for``: an
unrevealed enemy piece is its square and its back, nothing more (RULINGS R13;
tests/test_stratego_hidden.py checks every answer against the true state)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from play import lists, lobby
from play.seats import side_of

from .kind import KIND, game_pk
from .models import StrategoMatch

player_names = lobby.player_names  # the players' names (anyone may see them: /watch/ lists them)

LIST_COLUMNS = lists.columns("variant", "phase", "turn")  # what ``game_summary`` reads


def games_of(user: Any) -> list[QuerySet[StrategoMatch]]:
    """The user's games and the games they are invited to (``play.lists`` branches)."""
    return lobby.mine(StrategoMatch, user, LIST_COLUMNS)


def open_games(user: Any) -> QuerySet[StrategoMatch]:
    """Waiting games anyone may join (not the user's own)."""
    games: QuerySet[StrategoMatch] = lobby.open_matches(StrategoMatch, user)
    return games


def watchable_games(user: Any) -> QuerySet[StrategoMatch]:
    """Public games under way that ``user`` does not play (the spectator's view)."""
    games: QuerySet[StrategoMatch] = lobby.watchable(StrategoMatch, user)
    return games


def game_of(user: Any, pk: Any) -> StrategoMatch:
    """A game ``user`` may look at (``play.lobby.visible``); 404 otherwise."""
    m: StrategoMatch = lobby.visible(StrategoMatch, user, game_pk(pk), "game")
    return m


def game_summary(m: StrategoMatch, user: Any) -> dict[str, Any]:
    return {**lobby.summary(m, user), "variant": m.variant, "phase": m.phase,
            "turn": m.turn}


def game_view(m: StrategoMatch, user: Any, since: int = 0) -> dict[str, Any]:
    """Everything ``user`` may know about game ``m`` (a spectator: no hidden identity)."""
    return side_view(m, side_of(m, user), since)


def side_view(m: StrategoMatch, side: str | None, since: int = 0, snap: Any = None
              ) -> dict[str, Any]:
    """``game_view`` for the player of ``side`` (None: anyone else): it depends on the side
    only. From ``snap`` (``play.turns.Snapshot``) when given: the live channel's messages of
    one change, with no read of the position or the log."""
    return lobby.side_view(KIND, m, side, since, snap, variant=m.variant, phase=m.phase,
                            turn=m.turn)
