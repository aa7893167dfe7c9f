"""Reads of the La Belle Alliance service: lists (``play.lobby``'s, bound to the table) and
``side_view``, what a player or a spectator is shown of a game. The game has no hidden
information, but the view still goes through the module's ``view(state, side)`` and
``events_for``, one text per viewer class, as every kind's does."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from play import lobby, presence
from play.seats import side_of
from play.undo import can_undo

from .kind import GAME, KIND, NOUN, state_of
from .models import BelleAllianceMatch, Status


def games_of(user: Any) -> Any:
    """The user's games and the games they are invited to, newest first."""
    return lobby.mine(BelleAllianceMatch, user)


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
    st = snap.state if snap is not None else state_of(m)
    mine = (m.status == Status.ACTIVE and side is not None and m.to_move == side
            and m.paused_at is None)
    log = (lobby.log_for(GAME, m, side, since) if snap is None
           else lobby.snap_log(GAME, snap, side))
    return {
        "id": m.pk,
        "my_side": side,
        "opponent": m.opponent_name(side),
        "players": lobby.player_names(m),
        "seq": m.seq,
        "status": m.status,
        "edition": m.edition,
        "phase": m.phase,
        "turn": m.turn,
        "view": GAME.view(st, side) if st is not None else None,
        "legal_actions": (GAME.legal_actions(st, side) if mine and side is not None
                          and st is not None else []),
        "waiting_for": lobby.waiting_for(m, side),
        "log": log,
        "seed_hash": m.seed_hash,
        "seed": str(m.seed) if m.status == Status.FINISHED else None,
        "outcome": m.outcome,
        "public": m.public,
        "rated": m.rated,
        **lobby.clocks_of(m),
        "expires_at": lobby.iso(m.expires_at) if m.status == Status.WAITING else None,
        "can_undo": mine and side is not None and can_undo(
            KIND, m, side, last=snap.last if snap is not None else None),
        "can_claim": presence.claimable(m, side, timezone.now(), KIND),
        "paused": m.paused_at is not None,
    }
