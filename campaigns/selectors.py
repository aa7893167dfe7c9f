"""Reads of the campaign service: lists, and ``campaign_view``, the ONLY thing a player (or a
spectator) is shown of a campaign. It is built from the core's ``view(campaign, side)``, the
side's legal actions and the log filtered by ``events_for``: the other side's pool, split,
Reserve, decks and face-down cards never appear (tests/test_campaign_service.py checks it
over whole campaigns)."""

from __future__ import annotations

from django.core.cache import cache
from django.db.models import Q, QuerySet
from django.utils import timezone

from battles.campaign import legal_actions, view
from battles.engine import SIDES, events_for
from config.errors import NotFound
from play import clock, lists, presence
from play.log import auto_entry
from play.seats import side_of

from .kind import KIND, campaign_pk, core_of
from .models import Campaign, Status

LIST_COLUMNS = lists.columns("phase")  # what ``campaign_summary`` reads of a campaign


def campaigns_of(user) -> list[QuerySet[Campaign]]:
    """The user's campaigns and the campaigns they are invited to, as ``play.lists``
    branches (each read newest first from its index, a page at a time), with only the
    columns a row shows."""
    if user is None or not user.is_authenticated:
        return []
    qs = (Campaign.objects.only(*LIST_COLUMNS)
          .select_related("french_player", "allied_player", "invited"))
    return lists.branches(qs, user, Q(status=Status.WAITING), key="campaigns")


def open_campaigns(user) -> QuerySet[Campaign]:
    """Waiting campaigns anyone may join (not the user's own)."""
    qs = Campaign.objects.filter(status=Status.WAITING, invited__isnull=True, bot="")
    qs = qs.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
    if user is not None and user.is_authenticated:
        qs = qs.exclude(Q(french_player=user) | Q(allied_player=user))
    return qs.select_related("french_player", "allied_player")


def watchable_campaigns(user) -> QuerySet[Campaign]:
    """Public campaigns under way that ``user`` does not play: anyone may watch them (the
    spectator view: neither side's hidden cards)."""
    qs = Campaign.objects.filter(status=Status.ACTIVE, public=True)
    if user is not None and user.is_authenticated:
        qs = qs.exclude(Q(french_player=user) | Q(allied_player=user))
    return qs.select_related("french_player", "allied_player")


def campaign_of(user, pk) -> Campaign:
    """A campaign ``user`` may look at: theirs, one they are invited to, or a public one
    that has started (a spectator). 404 otherwise: its existence stays private."""
    c = (Campaign.objects.filter(pk=campaign_pk(pk))
         .select_related("french_player", "allied_player", "invited").first())
    if c is None:
        raise NotFound("no such campaign")
    if side_of(c, user) is not None:
        return c
    if user is not None and user.is_authenticated and c.invited_id == user.pk:
        return c
    if c.public and c.status in (Status.ACTIVE, Status.FINISHED):
        return c
    if c.status == Status.WAITING and not c.invited_id and c.public:
        return c
    raise NotFound("no such campaign")


def player_names(c: Campaign) -> dict[str, str | None]:
    out = {}
    for side in SIDES:
        p = c.player(side)
        out[side] = p.username if p is not None else (
            f"computer ({c.bot})" if c.bot else None)
    return out


def waiting_for(c: Campaign, side: str | None) -> str | None:
    """``you``, ``opponent``, ``computer`` (None: over, cancelled, or a spectator)."""
    if c.status == Status.WAITING:
        return "opponent" if side is not None else None
    if c.status != Status.ACTIVE or not c.to_move or side is None:
        return None
    if c.to_move == side:
        return "you"
    return "computer" if c.to_move == c.computer_side() else "opponent"


def campaign_summary(c: Campaign, user) -> dict:
    side = side_of(c, user)
    return {"id": c.pk, "my_side": side, "opponent": c.opponent_name(side),
            "players": player_names(c), "status": c.status, "phase": c.phase,
            "seq": c.seq, "waiting_for": waiting_for(c, side),
            "winner": (c.outcome or {}).get("winner"),
            "created_at": c.created_at.isoformat() if c.created_at else None,
            "rated": c.rated, "time_control": dict(c.time_control or {}),
            "expires_at": _iso(c.expires_at) if c.status == Status.WAITING else None}


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None


def clocks_of(c: Campaign) -> dict:
    """The time control, each side's seconds left now (the running clock's elapsed time
    taken off: one clock per side for the whole campaign, RULINGS 16-o) and the deadline."""
    return {"time_control": dict(c.time_control or {}),
            "clocks": clock.clocks_now(c, timezone.now()),
            "deadline": _iso(c.deadline)}


def log_for(c: Campaign, side: str | None, since: int = 0) -> list[dict]:
    """The events of actions after ``since`` that ``side`` may see (None: public only)."""
    rows = (c.actions.filter(seq__gt=since, seq__lte=c.seq).order_by("seq")
            .values_list("seq", "side", "action", "events", "auto", "auto_reason"))
    return entries_of(rows, side)


def entries_of(rows, side: str | None) -> list[dict]:
    """Log rows ``(seq, side, action, events, auto, auto_reason)`` as ``side`` (None: a
    spectator) sees them: each event ``events_for`` lets through, with its action's ``seq``
    and side (``by``). An action auto-play made opens with ``{"type": "auto_played", ...}``
    (``play.log.auto_entry``: public, with ``why`` when it was the player's standing
    choice), and its events carry ``"auto": true``."""
    out: list[dict] = []
    for n, who, action, events, auto, why in rows:
        if auto:
            out.append({**auto_entry(n, who, action, why), "by": who,
                        "board": (action or {}).get("board")})
        out.extend({"seq": n, "by": who, **e, **({"auto": True} if auto else {})}
                   for e in events_for(events, side))
    return out


def campaign_view(c: Campaign, user, since: int = 0) -> dict:
    """Everything ``user`` may know about campaign ``c`` (a spectator: both sides hidden)."""
    return side_view(c, side_of(c, user), since)


def side_view(c: Campaign, side: str | None, since: int = 0, snap=None) -> dict:
    """``campaign_view`` for the player of ``side`` (None: anyone else, a spectator): it
    depends on the side only, never on the user. From ``snap`` (``play.turns.Snapshot``: the
    position as the action left it and the log rows after ``since``) when given: the live
    channel's messages of one change, with no read of the position or the log."""
    core = snap.state if snap is not None else core_of(c)
    finished = c.status == Status.FINISHED
    # Paused by a tournament's organiser (play/pausing.py): no action is offered.
    mine = (c.status == Status.ACTIVE and side is not None and c.to_move == side
            and c.paused_at is None)
    return {
        "id": c.pk,
        "my_side": side,
        "opponent": c.opponent_name(side),
        "players": player_names(c),
        "seq": c.seq,
        "status": c.status,
        "phase": c.phase,
        "board": c.board or None,
        "view": view(core, side) if core is not None else None,
        "legal_actions": ((snap.legal_actions(side, lambda: legal_actions(core, side))
                           if snap is not None else legal_actions(core, side))
                          if mine and core is not None else []),
        "waiting_for": waiting_for(c, side),
        "log": (log_for(c, side, since) if snap is None
                else entries_of(snap.rows, side)),
        "seed_hash": c.seed_hash,
        "seed": str(c.seed) if finished else None,
        "outcome": c.outcome,
        "pools": dict(c.pool_choices),
        "settings": dict(c.settings),
        "public": c.public,
        "rated": c.rated,
        **clocks_of(c),
        "expires_at": _iso(c.expires_at) if c.status == Status.WAITING else None,
        "can_undo": mine and _can_undo(c, side, snap.last if snap is not None else None),
        "can_claim": presence.claimable(c, side, timezone.now(), KIND),
        "paused": c.paused_at is not None,
    }


def _can_undo(c: Campaign, side: str, last: tuple | None = None) -> bool:
    from play import registry
    from play.undo import can_undo  # may my last action be taken back now

    return can_undo(registry.get("campaign"), c, side, last=last)


FINAL_BOARDS_SECONDS = 24 * 3600


def final_boards(c: Campaign, side: str | None) -> dict[str, dict]:
    """Each battle that ended during finished campaign ``c``, in its final position (the
    engine's view of that board as ``side`` sees it, None: a spectator), so that its page
    keeps the boards when the campaign is over (the state no longer holds them). Rebuilt
    once from the revealed seed and the log (the position before the action that ended it,
    with that action played on the board alone: the same dice in the same order), then
    kept in the cache."""
    if c.status != Status.FINISHED or c.state is None:
        return {}
    made = c.created_at.timestamp() if c.created_at else 0  # a row id may be used again
    key = f"campaign-final-boards:{c.pk}:{made}:{c.seq}:{side or 'watch'}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    from battles import engine
    from play.log import effective_actions

    game = KIND.game
    state = KIND.setup(c)
    out: dict[str, dict] = {}
    rows = list(c.actions.order_by("seq").only("seq", "side", "action", "events"))
    for row in effective_actions(rows):
        ended = [e.get("battle") for e in row.events or ()
                 if e.get("type") == "campaign_battle_over"]
        for b in ended:
            board = state.boards.get(b)
            if board is None:
                continue
            board = board.copy()
            action = row.action or {}
            if action.get("type") != "retreat" and action.get("board") == b:
                plain = {k: v for k, v in action.items() if k != "board"}
                engine.apply(board, plain, iter(game.dice(c.seed, row.seq)), check=False)
            out[b] = engine.view(board, side)
        game.apply(state, row.action, game.dice(c.seed, row.seq), check=False)
    for b, bv in (view(state, side).get("boards") or {}).items():
        out[b] = bv  # still on the board when it ended (a resignation, a flag fall)
    cache.set(key, out, FINAL_BOARDS_SECONDS)
    return out
