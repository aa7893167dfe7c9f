"""Reads of the Stratego: Waterloo service: lists, and ``side_view``, the ONLY thing a
player (or a spectator) is shown of a game. It is built from the module's
``view(state, side)``, the side's legal actions and the log filtered by ``events_for``: an
unrevealed enemy piece is its square and its back, nothing more (RULINGS R13;
tests/test_stratego_hidden.py checks every answer against the true state)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from config.errors import NotFound
from game import SIDES
from play import clock, lists, presence
from play.seats import side_of
from play.undo import can_undo

from .kind import GAME, KIND, game_pk, state_of
from .models import Status, StrategoMatch

LIST_COLUMNS = lists.columns("variant", "phase", "turn")  # what ``game_summary`` reads


def games_of(user: Any) -> list[QuerySet[StrategoMatch]]:
    """The user's games and the games they are invited to, as ``play.lists`` branches (each
    read newest first from its index, a page at a time), with only the columns a row
    shows."""
    if user is None or not user.is_authenticated:
        return []
    qs = (StrategoMatch.objects.only(*LIST_COLUMNS)
          .select_related("french_player", "allied_player", "invited"))
    return lists.branches(qs, user, Q(status=Status.WAITING))


def open_games(user: Any) -> QuerySet[StrategoMatch]:
    """Waiting games anyone may join (not the user's own)."""
    qs = StrategoMatch.objects.filter(status=Status.WAITING, invited__isnull=True, bot="")
    qs = qs.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
    if user is not None and user.is_authenticated:
        qs = qs.exclude(Q(french_player=user) | Q(allied_player=user))
    return qs.select_related("french_player", "allied_player").defer("state")


def watchable_games(user: Any) -> QuerySet[StrategoMatch]:
    """Public games under way that ``user`` does not play (the spectator's view)."""
    qs = StrategoMatch.objects.filter(status=Status.ACTIVE, public=True)
    if user is not None and user.is_authenticated:
        qs = qs.exclude(Q(french_player=user) | Q(allied_player=user))
    return qs.select_related("french_player", "allied_player").defer("state")


def game_of(user: Any, pk: Any) -> StrategoMatch:
    """A game ``user`` may look at: theirs, one they are invited to, an open public one, or a
    public one that has started (a spectator). 404 otherwise: its existence stays private."""
    m = (StrategoMatch.objects.filter(pk=game_pk(pk))
         .select_related("french_player", "allied_player", "invited").first())
    if m is None:
        raise NotFound("no such game")
    if side_of(m, user) is not None:
        return m
    if user is not None and user.is_authenticated and m.invited_id == user.pk:
        return m
    if m.public and m.status in (Status.ACTIVE, Status.FINISHED):
        return m
    if m.status == Status.WAITING and not m.invited_id and m.public:
        return m
    raise NotFound("no such game")


def player_names(m: StrategoMatch) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for side in SIDES:
        p = m.player(side)
        out[side] = p.username if p is not None else (
            f"computer ({m.bot})" if m.bot else None)
    return out


def waiting_for(m: StrategoMatch, side: str | None) -> str | None:
    """``you``, ``opponent``, ``computer`` (None: over, cancelled, or a spectator)."""
    if m.status == Status.WAITING:
        return "opponent" if side is not None else None
    if m.status != Status.ACTIVE or not m.to_move or side is None:
        return None
    if m.to_move == side:
        return "you"
    return "computer" if m.to_move == m.computer_side() else "opponent"


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment else None


def game_summary(m: StrategoMatch, user: Any) -> dict[str, Any]:
    side = side_of(m, user)
    return {"id": m.pk, "my_side": side, "opponent": m.opponent_name(side),
            "players": player_names(m), "status": m.status, "variant": m.variant,
            "phase": m.phase, "turn": m.turn, "seq": m.seq,
            "waiting_for": waiting_for(m, side),
            "winner": (m.outcome or {}).get("winner"), "rated": m.rated,
            "created_at": _iso(m.created_at), "time_control": dict(m.time_control or {}),
            "expires_at": _iso(m.expires_at) if m.status == Status.WAITING else None}


def clocks_of(m: StrategoMatch) -> dict[str, Any]:
    return {"time_control": dict(m.time_control or {}),
            "clocks": clock.clocks_now(m, timezone.now()), "deadline": _iso(m.deadline)}


def entries_of(rows: Iterable[tuple[int, str, list[dict[str, Any]]]], side: str | None
               ) -> list[dict[str, Any]]:
    """Log rows ``(seq, side, events)`` as ``side`` (None: a spectator) sees them: each event
    as ``GAME.events_for`` lets it through, with its action's ``seq`` and side (``by``)."""
    return [{"seq": n, "by": who, **e} for n, who, events in rows
            for e in GAME.events_for(events, side)]


def log_for(m: StrategoMatch, side: str | None, since: int = 0) -> list[dict[str, Any]]:
    rows = (m.actions.filter(seq__gt=since, seq__lte=m.seq).order_by("seq")
            .values_list("seq", "side", "events"))
    return entries_of(rows, side)


def game_view(m: StrategoMatch, user: Any, since: int = 0) -> dict[str, Any]:
    """Everything ``user`` may know about game ``m`` (a spectator: no hidden identity)."""
    return side_view(m, side_of(m, user), since)


def side_view(m: StrategoMatch, side: str | None, since: int = 0, snap: Any = None
              ) -> dict[str, Any]:
    """``game_view`` for the player of ``side`` (None: anyone else): it depends on the side
    only. From ``snap`` (``play.turns.Snapshot``) when given: the live channel's messages of
    one change, with no read of the position or the log."""
    st = snap.state if snap is not None else state_of(m)
    finished = m.status == Status.FINISHED
    mine = (m.status == Status.ACTIVE and side is not None and m.to_move == side
            and m.paused_at is None)
    log = (log_for(m, side, since) if snap is None
           else entries_of(((n, who, events) for n, who, _, events, *_ in snap.rows), side))
    return {
        "id": m.pk,
        "my_side": side,
        "opponent": m.opponent_name(side),
        "players": player_names(m),
        "seq": m.seq,
        "status": m.status,
        "variant": m.variant,
        "phase": m.phase,
        "turn": m.turn,
        "view": GAME.view(st, side) if st is not None else None,
        "legal_actions": (GAME.legal_actions(st, side) if mine and side is not None
                          and st is not None else []),
        "waiting_for": waiting_for(m, side),
        "log": log,
        "seed_hash": m.seed_hash,
        "seed": str(m.seed) if finished else None,
        "outcome": m.outcome,
        "public": m.public,
        "rated": m.rated,
        **clocks_of(m),
        "expires_at": _iso(m.expires_at) if m.status == Status.WAITING else None,
        "can_undo": mine and side is not None and can_undo(
            KIND, m, side, last=snap.last if snap is not None else None),
        "can_claim": presence.claimable(m, side, timezone.now(), KIND),
        "paused": m.paused_at is not None,
    }
