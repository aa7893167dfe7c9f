"""The reads every two-seat game's app shares (issue 27: one home, not a copy per game): its
lists (``mine``, ``open_matches``, ``watchable``), who may look at a match (``visible``),
the players' names, whose move it is for a viewer (``waiting_for``), the clocks and the log
as a viewer sees it. A kind's ``selectors`` bind them to its model and add what is its own
(its summary's columns, its view)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q
from django.utils import timezone

from config.errors import NotFound
from game import SIDES

from . import clock, lists, sql
from .models import MatchStatus as Status
from .seats import match_pk, side_of

SLIM = ("state",)  # the column a list never reads (the card records are another table's)


def _not_theirs(qs: Any, user: Any) -> Any:
    if user is not None and user.is_authenticated:
        qs = qs.exclude(Q(french_player=user) | Q(allied_player=user))
    return qs.select_related("french_player", "allied_player").defer(*SLIM)


def mine(model: Any, user: Any, columns: tuple[str, ...]) -> list[Any]:
    """The user's matches and the ones they are invited to, as ``play.lists`` branches (each
    read newest first from its index, a page at a time), with only ``columns`` (what a row
    shows: ``lists.columns(...)``)."""
    if user is None or not user.is_authenticated:
        return []
    qs = (model.objects.only(*columns)
          .select_related("french_player", "allied_player", "invited"))
    return lists.branches(qs, user, Q(status=Status.WAITING), key=(model, columns))


def open_matches(model: Any, user: Any) -> Any:
    """Waiting matches anyone may join (not the user's own, not expired)."""
    return _not_theirs(_open(model, timezone.now()), user)


def _open(model: Any, now: Any) -> Any:
    qs = model.objects.filter(status=Status.WAITING, invited__isnull=True, bot="")
    return qs.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))


# The list pages' open and watch lists of a signed-in user, with only a row's columns, by
# SQL compiled once per process (``play.sql.Compiled``: issue 31, compiling these joined
# queries cost more than running them); keys are a kind's model, the list and the page's
# constant size, so this stays small.
_page_lists: dict[tuple[Any, str, int, tuple[str, ...]], sql.Compiled] = {}


def page_list(model: Any, name: str, user: Any, limit: int, columns: tuple[str, ...]
              ) -> list[Any]:
    """The first ``limit`` of ``open_matches(model, user)`` (``name`` "open") or of
    ``watchable(model, user)`` ("watch"), reading only ``columns``
    (``lists.columns(...)``: the players' names with them)."""
    if user is None or not user.is_authenticated:
        qs = open_matches(model, user) if name == "open" else watchable(model, user)
        return list(qs[:limit])
    key = (model, name, limit, columns)
    found = _page_lists.get(key)
    if found is None:
        def theirs_not(qs: Any, uid: int) -> Any:
            return (qs.exclude(Q(french_player=uid) | Q(allied_player=uid))
                    .select_related("french_player", "allied_player", "invited")
                    .only(*columns)[:limit])

        if name == "open":
            found = sql.Compiled(lambda uid, now: theirs_not(_open(model, now), uid),
                                 ("id", "moment"))
        else:
            found = sql.Compiled(lambda uid: theirs_not(_watched(model), uid), ("id",))
        _page_lists[key] = found
    return found.rows(user.pk, timezone.now()) if name == "open" else found.rows(user.pk)


def watchable(model: Any, user: Any) -> Any:
    """Public matches under way that ``user`` does not play (the spectator's view)."""
    return _not_theirs(_watched(model), user)


def _watched(model: Any) -> Any:
    return model.objects.filter(status=Status.ACTIVE, public=True)


def visible(model: Any, user: Any, pk: Any, noun: str) -> Any:
    """A match ``user`` may look at: theirs, one they are invited to, an open public one, or
    a public one that has started (a spectator). 404 otherwise: its existence stays
    private."""
    m = (model.objects.filter(pk=match_pk(pk, noun))
         .select_related("french_player", "allied_player", "invited").first())
    if m is None:
        raise NotFound(f"no such {noun}")
    if side_of(m, user) is not None:
        return m
    if user is not None and user.is_authenticated and m.invited_id == user.pk:
        return m
    if m.public and m.status in (Status.ACTIVE, Status.FINISHED):
        return m
    if m.status == Status.WAITING and not m.invited_id and m.public:
        return m
    raise NotFound(f"no such {noun}")


def player_names(m: Any) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for side in SIDES:
        p = m.player(side)
        out[side] = p.username if p is not None else (
            f"computer ({m.bot})" if m.bot else None)
    return out


def waiting_for(m: Any, side: str | None) -> str | None:
    """``you``, ``opponent``, ``computer`` (None: over, cancelled, or a spectator)."""
    if m.status == Status.WAITING:
        return "opponent" if side is not None else None
    if m.status != Status.ACTIVE or not m.to_move or side is None:
        return None
    if m.to_move == side:
        return "you"
    return "computer" if m.to_move == m.computer_side() else "opponent"


def iso(moment: Any) -> str | None:
    return moment.isoformat() if moment else None


def summary(m: Any, user: Any) -> dict[str, Any]:
    """The columns every kind's list row shows (a kind adds its own)."""
    side = side_of(m, user)
    return {"id": m.pk, "my_side": side, "opponent": m.opponent_name(side),
            "players": player_names(m), "status": m.status, "seq": m.seq,
            "waiting_for": waiting_for(m, side),
            "winner": (m.outcome or {}).get("winner"), "rated": m.rated,
            "created_at": iso(m.created_at), "time_control": dict(m.time_control or {}),
            "expires_at": iso(m.expires_at) if m.status == Status.WAITING else None}


def clocks_of(m: Any) -> dict[str, Any]:
    return {"time_control": dict(m.time_control or {}),
            "clocks": clock.clocks_now(m, timezone.now()), "deadline": iso(m.deadline)}


def entries_of(game: Any, rows: Iterable[tuple[int, str, list[dict[str, Any]]]],
               side: str | None) -> list[dict[str, Any]]:
    """Log rows ``(seq, side, events)`` as ``side`` (None: a spectator) sees them: each event
    as the module's ``events_for`` lets it through, with its action's ``seq`` and side
    (``by``)."""
    return [{"seq": n, "by": who, **e} for n, who, events in rows
            for e in game.events_for(events, side)]


def log_for(game: Any, m: Any, side: str | None, since: int = 0) -> list[dict[str, Any]]:
    rows = (m.actions.filter(seq__gt=since, seq__lte=m.seq).order_by("seq")
            .values_list("seq", "side", "events"))
    return entries_of(game, rows, side)


def snap_log(game: Any, snap: Any, side: str | None) -> list[dict[str, Any]]:
    """The log of one change from its ``play.turns.Snapshot`` (no read of the log)."""
    return entries_of(game, ((n, who, events) for n, who, _, events, *_ in snap.rows), side)


def side_view(kind: Any, m: Any, side: str | None, since: int = 0, snap: Any = None,
              **columns: Any) -> dict[str, Any]:
    """What the player of ``side`` (None: anyone else) is shown of ``m``: it depends on the
    side only (one text per viewer class). The module's ``view`` of the position, the side's
    legal actions when it is to move, the log after ``since`` as ``events_for`` lets it
    through, the seed once over, the clocks, whether an undo or an absence claim is open;
    ``columns`` are the kind's own (its variant, phase, turn). From ``snap``
    (``play.turns.Snapshot``) when given: the live channel's messages of one change, with no
    read of the position or the log."""
    from .presence import claimable
    from .undo import can_undo

    game = kind.game
    if snap is not None:
        st = snap.state
    else:
        st = None if m.state is None else game.from_json(m.state, kind.cards(m))
    mine = (m.status == Status.ACTIVE and side is not None and m.to_move == side
            and m.paused_at is None)
    return {
        "id": m.pk,
        "my_side": side,
        "opponent": m.opponent_name(side),
        "players": player_names(m),
        "seq": m.seq,
        "status": m.status,
        **columns,
        "view": game.view(st, side) if st is not None else None,
        "legal_actions": (game.legal_actions(st, side) if mine and side is not None
                          and st is not None else []),
        "waiting_for": waiting_for(m, side),
        "log": log_for(game, m, side, since) if snap is None else snap_log(game, snap, side),
        "seed_hash": m.seed_hash,
        "seed": str(m.seed) if m.status == Status.FINISHED else None,
        "outcome": m.outcome,
        "public": m.public,
        "rated": m.rated,
        **clocks_of(m),
        "expires_at": iso(m.expires_at) if m.status == Status.WAITING else None,
        "can_undo": mine and side is not None and can_undo(
            kind, m, side, last=snap.last if snap is not None else None),
        "can_claim": claimable(m, side, timezone.now(), kind),
        "paused": m.paused_at is not None,
    }


class KindLobby:
    """A two-seat game's selectors bound to its kind (La Belle Alliance's and Stratego's
    ``selectors``): its lists, who may look at a game, a game's summary and what a viewer
    is shown. ``columns``: the kind's own setup and position columns (its edition or
    variant, the phase, the turn), read by a list and shown in every summary and view."""

    def __init__(self, kind: Any, columns: tuple[str, ...]) -> None:
        self.kind = kind
        self.columns = columns
        self.list_columns = lists.columns(*columns)  # what ``game_summary`` reads

    def games_of(self, user: Any) -> list[Any]:
        """The user's games and the games they are invited to (``play.lists`` branches)."""
        return mine(self.kind.model, user, self.list_columns)

    def open_games(self, user: Any) -> Any:
        """Waiting games anyone may join (not the user's own)."""
        return open_matches(self.kind.model, user)

    def watchable_games(self, user: Any) -> Any:
        """Public games under way that ``user`` does not play (the spectator's view)."""
        return watchable(self.kind.model, user)

    def open_list(self, user: Any, limit: int) -> list[Any]:
        """The first ``limit`` of ``open_games(user)``, with a list row's columns only."""
        return page_list(self.kind.model, "open", user, limit, self.list_columns)

    def watch_list(self, user: Any, limit: int) -> list[Any]:
        """The first ``limit`` of ``watchable_games(user)``, a list row's columns only."""
        return page_list(self.kind.model, "watch", user, limit, self.list_columns)

    def game_of(self, user: Any, pk: Any) -> Any:
        """A game ``user`` may look at (``visible``); 404 otherwise."""
        return visible(self.kind.model, user, pk, self.kind.noun)

    def own_columns(self, m: Any) -> dict[str, Any]:
        return {name: getattr(m, name) for name in self.columns}

    def game_summary(self, m: Any, user: Any) -> dict[str, Any]:
        return {**summary(m, user), **self.own_columns(m)}

    def game_view(self, m: Any, user: Any, since: int = 0) -> dict[str, Any]:
        """Everything ``user`` may know about game ``m`` (``side_view`` of their side)."""
        return self.side_view(m, side_of(m, user), since)

    def side_view(self, m: Any, side: str | None, since: int = 0, snap: Any = None
                  ) -> dict[str, Any]:
        """``game_view`` for the player of ``side`` (None: anyone else): it depends on the
        side only. From ``snap`` (``play.turns.Snapshot``) when given: the live channel's
        messages of one change, with no read of the position or the log."""
        return side_view(self.kind, m, side, since, snap, **self.own_columns(m))
