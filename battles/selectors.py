"""Reads about battles: whose battle it is, who moves, and what a player sees.

``battle_view`` is the only way a battle reaches a player: the engine's ``view`` of their
side, their legal actions when they have priority, the log filtered by ``events_for``, and the
seed once the battle is over; nothing else of the state, the setup or the unfiltered events.
Looking up someone else's battle raises ``NotFound`` (the API answers 404). Someone who does
not play a battle sees at most its public summary (``open_summary``: battle, free side,
creator, settings), and only while it waits for an opponent they may be: an open battle, or
one they are invited to (``joinable``).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils import timezone

from game import other_side
from play import clock, lists, presence, sql
from play.log import auto_entry
from play.seats import side_of
from play.turns import Snapshot  # a position parsed once and its log rows

from .engine import SIDES, events_for, from_json, legal_actions, view
from .errors import NotFound
from .models import Battle, Status
from .setup import cards_of
from .warnings import action_warnings


def computer_side(battle: Battle) -> str | None:
    """The side the computer plays (None: two people play)."""
    return battle.computer_side()


def invited_side(battle: Battle, user) -> str | None:
    """The side reserved for ``user`` in a battle they are invited to and have not joined."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if battle.invited_id == user.pk and side_of(battle, user) is None:
        return battle.free_seat()
    return None


def priority(battle: Battle) -> str | None:
    """The side to act now (None unless the battle is under way): the ``to_move`` column."""
    if battle.status != Status.ACTIVE or not battle.to_move:
        return None
    return battle.to_move


def waiting_for(battle: Battle, side: str) -> str | None:
    """Whom the battle waits for, seen from ``side``: ``you``, ``opponent`` (the other
    player's move, or a seat not taken yet), ``computer``; None once over or cancelled."""
    if battle.status == Status.WAITING:
        return "you" if battle.free_seat() == side else "opponent"
    who = priority(battle)
    if who is None:
        return None
    if who == side:
        return "you"
    return "computer" if who == battle.computer_side() else "opponent"


def battle_pk(value) -> int:
    """A battle id from a URL or a body; NotFound for anything that cannot be one."""
    value = getattr(value, "pk", value)
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 12:
        value = int(value)
    if type(value) is not int:
        raise NotFound("no such battle")
    return value


def _related(qs: QuerySet[Battle]) -> QuerySet[Battle]:
    return qs.select_related("french_player", "allied_player", "invited")


def battles_of(user) -> QuerySet[Battle]:
    """The battles the user plays (took a seat in), newest first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Battle.objects.none()
    return _related(Battle.objects.filter(Q(french_player=user) | Q(allied_player=user))
                    .order_by("-created_at", "-id"))


def invitations_of(user) -> QuerySet[Battle]:
    """The battles the user is invited to and has not joined (waiting, or declined /
    cancelled before they joined), newest first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Battle.objects.none()
    return _invitations(user)


def _invitations(user) -> QuerySet[Battle]:  # a user or a user's id
    return _related(Battle.objects.filter(invited=user)
                    .exclude(Q(french_player=user) | Q(allied_player=user))
                    .order_by("-created_at", "-id"))


LIST_COLUMNS = lists.columns("battle")  # what ``battle_summary`` reads of a battle
# what ``open_summary`` reads too, and a watch row (``turn``): a list of open, invited or
# live battles reads these (``.only``), never the position, decks or card records
WAITING_COLUMNS = (*LIST_COLUMNS, "settings", "scale", "turn")


def battle_list(user, status: str | None = None, invitations: bool = True
                ) -> list[QuerySet[Battle]]:
    """What the user's battle list shows, as ``play.lists`` branches (each read newest first
    from its index, a page at a time): the battles they play and (``invitations``) the ones
    they are invited to (``battle_summary`` tells them apart with ``invited``), with only the
    columns a row shows; ``status``: only those."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    qs = _related(Battle.objects.only(*LIST_COLUMNS))
    if status:
        qs = qs.filter(status=status)
    # compiled once per (status, invitations); a status that is none is not a key of its own
    known = not status or status in Status.values
    return lists.branches(qs, user, Q() if invitations else None,
                          key=("battles", status or None, invitations) if known else None)


def open_battles(user=None) -> QuerySet[Battle]:
    """Battles waiting for anyone to take their empty seat, newest first (without the
    user's own: nobody plays against themselves)."""
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    return _open(user, timezone.now())


def _open(user, now) -> QuerySet[Battle]:  # user: a user, a user's id or None
    qs = Battle.objects.filter(status=Status.WAITING, invited__isnull=True, bot="")
    qs = qs.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))
    if user is not None:
        qs = qs.exclude(Q(french_player=user) | Q(allied_player=user))
    return _related(qs.order_by("-created_at", "-id"))


# The battles page's other lists (its waiting invitations, the open battles, the public ones
# under way), each read with WAITING_COLUMNS by SQL compiled once per process and size
# (``play.sql.Compiled``: compiling these joined queries cost more CPU than running them,
# issue 31). Sizes are the page's constants, so this stays small.
_page_lists: dict[tuple[str, int], sql.Compiled] = {}


def _page_list(name: str, limit: int) -> sql.Compiled:
    found = _page_lists.get((name, limit))
    if found is None:
        if name == "invited":
            found = sql.Compiled(lambda uid: _invitations(uid).filter(status=Status.WAITING)
                                 .only(*WAITING_COLUMNS)[:limit], ("id",))
        elif name == "open":
            found = sql.Compiled(lambda uid, now: _open(uid, now)
                                 .only(*WAITING_COLUMNS)[:limit], ("id", "moment"))
        else:
            found = sql.Compiled(lambda: live_public_battles()
                                 .only(*WAITING_COLUMNS)[:limit], ())
        _page_lists[(name, limit)] = found
    return found


def waiting_invitations(user, limit: int) -> list[Battle]:
    """The first ``limit`` of ``invitations_of(user)`` still waiting (WAITING_COLUMNS)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    return _page_list("invited", limit).rows(user.pk)


def open_battles_for(user, limit: int) -> list[Battle]:
    """The first ``limit`` of ``open_battles(user)`` (WAITING_COLUMNS)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return list(open_battles(None).only(*WAITING_COLUMNS)[:limit])
    return _page_list("open", limit).rows(user.pk, timezone.now())


def live_battles(limit: int) -> list[Battle]:
    """The first ``limit`` of ``live_public_battles()`` (WAITING_COLUMNS)."""
    return _page_list("live", limit).rows()


def joinable(user, battle_id) -> Battle:
    """A battle ``user`` may take the empty seat of now (open, or reserved for them);
    ``NotFound`` otherwise, so a battle someone else plays or is invited to stays private."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise NotFound("no such battle")
    found = open_battles(user).filter(pk=battle_pk(battle_id)).first() or \
        invitations_of(user).filter(pk=battle_pk(battle_id), status=Status.WAITING).first()
    if found is None:
        raise NotFound("no such battle")
    return found


def battle_of(user, battle_id) -> Battle:
    """One of the user's battles; ``NotFound`` for anyone else's (its existence is private)."""
    found = battles_of(user).filter(pk=battle_pk(battle_id)).first()
    if found is None:
        raise NotFound("no such battle")
    return found



# --- What a player sees ---------------------------------------------------------------------

def battle_view(battle: Battle, user, since: int = 0) -> dict:
    """Everything ``user`` may know about ``battle``: the engine's ``view`` of their side,
    their legal actions when they have priority, the log filtered by ``events_for`` (events of
    actions after ``since``), and the seed once the battle is over. Nothing else of the state
    (a face-down enemy card's number never appears). Before the second player takes their
    seat there is no position yet: ``view`` is null."""
    side = side_of(battle, user)
    if side is None:
        raise NotFound("no such battle")
    return side_view(battle, side, snapshot(battle, since))


def snapshot(battle: Battle, since: int) -> Snapshot:
    state = (from_json(battle.state, cards_of(battle)) if battle.state is not None
             else None)
    # One snapshot: the log only up to the battle row's own ``seq``. Actions are written in
    # the same transaction as the row's new ``seq``, so every action up to it is there, and
    # one recorded between the two reads (a computer move) waits for the next answer.
    rows = list(battle.actions.filter(seq__gt=since, seq__lte=battle.seq).order_by("seq")
                .values_list("seq", "side", "action", "events", "auto", "auto_reason"))
    return Snapshot(state, rows)


def side_view(battle: Battle, side: str, snap: Snapshot) -> dict:
    """``battle_view`` for the player of ``side`` (the caller knows they play it)."""
    state = snap.state
    cards = cards_of(battle)
    # Paused by a tournament's organiser (play/pausing.py): no action is offered.
    mine = priority(battle) == side and battle.paused_at is None
    entries = entries_of(snap.rows, side)
    finished = battle.status == Status.FINISHED
    seen = view(state, side) if state is not None else None
    legal = snap.legal_actions(side, lambda: legal_actions(state, side)) if mine else []
    return {
        "id": battle.pk,
        "battle": battle.battle,
        "my_side": side,
        "opponent": battle.opponent_name(side),
        "seq": battle.seq,
        "status": battle.status,
        "view": seen,
        "legal_actions": legal,
        # 4.3: the legal actions that leave one of my Positions without a troop card, with
        # the text to confirm (battles/warnings.py, the rule the page asks with)
        "warnings": action_warnings(seen, side, legal, cards),
        "waiting_for": waiting_for(battle, side),
        "log": entries,
        "seed_hash": battle.seed_hash,
        "seed": str(battle.seed) if finished else None,
        "outcome": battle.outcome,
        "scale": battle.scale,
        "decks": deck_kinds(battle),
        "my_deal": my_deal(battle, side) if finished else None,
        **timing(battle),
        "can_claim": presence.claimable(battle, side, timezone.now()),
        "paused": battle.paused_at is not None,
        "rated": battle.rated,
        "can_undo": mine and _can_undo(battle, side, snap.last),
    }


def log_entries(battle: Battle, since: int, viewer: str | None) -> list[dict]:
    """The log of the actions after ``since`` as ``viewer`` (a side, or None: a spectator)
    sees it (``entries_of``), up to the battle row's own ``seq``."""
    rows = (battle.actions.filter(seq__gt=since, seq__lte=battle.seq).order_by("seq")
            .values_list("seq", "side", "action", "events", "auto", "auto_reason"))
    return entries_of(rows, viewer)


def entries_of(rows, viewer: str | None) -> list[dict]:
    """Log rows ``(seq, side, action, events, auto[, auto_reason])`` as ``viewer`` sees them:
    each event ``events_for`` lets through, with its action's ``seq``. An action auto-play
    made (``autoplay``: a pass with no answer held, a forced move, or a pass by the player's
    standing choice; the row's ``auto``) opens with ``{"type": "auto_played", "side",
    "action": its type, "auto": true, "why": the row's auto_reason}`` (a pass after a move
    has no event of its own) and its events carry ``"auto": true``. Public: the instant
    answer already tells as much; the type names no card."""
    out: list[dict] = []
    for n, side, action, events, auto, *why in rows:
        if auto:
            out.append(auto_entry(n, side, action, why[0] if why else ""))
            out.extend({"seq": n, **e, "auto": True} for e in events_for(events, viewer))
        else:
            out.extend({"seq": n, **e} for e in events_for(events, viewer))
    return out


def timing(battle: Battle) -> dict:
    """The time control, each side's seconds left now (computed: the running clock's
    elapsed time is taken off) and the running side's deadline (ISO time, or null)."""
    return {"time_control": battle.time_control,
            "clocks": clock.clocks_now(battle, timezone.now()),
            "deadline": battle.deadline.isoformat() if battle.deadline else None}


def _can_undo(battle: Battle, side: str, last: tuple | None = None) -> bool:
    from play import registry
    from play.undo import can_undo  # may my last action be taken back now

    return can_undo(registry.get("battle"), battle, side, last=last)


def deck_kinds(battle: Battle) -> dict[str, str]:
    """Each side's deck in words (dealt from which pool, or custom), never its cards."""
    from .dealing import armies, describe

    choices = battle.deck_choices or {}
    return {side: "; ".join(dict.fromkeys(describe(choices.get(a))
                                          for a in armies(battle.battle, side)))
            for side in SIDES}


def my_deal(battle: Battle, side: str) -> dict | None:
    """After the battle: my dealt armies' pools and decks, so that with the revealed seed I
    can re-deal them (``random.Random(f"{seed}:deal:{army}").sample(sorted(pool), size)``)."""
    from .dealing import DEALT, armies

    out = {}
    for army in armies(battle.battle, side):
        choice = (battle.deck_choices or {}).get(army)
        if choice and choice["kind"] == DEALT:
            out[army] = {"pool": choice["from"], "dealt": battle.decks.get(army, [])}
    return out or None


def battle_summary(battle: Battle, user) -> dict:
    """A row of the user's battle list (no state beyond whose move it is). For a battle the
    user is invited to and has not joined, ``invited`` is true and ``my_side`` is the side
    kept for them."""
    side = side_of(battle, user)
    invited = side is None and invited_side(battle, user) is not None
    if invited:
        side = battle.free_seat()
    if side is None:
        raise NotFound("no such battle")
    return {
        "id": battle.pk,
        "battle": battle.battle,
        "my_side": side,
        "opponent": battle.opponent_name(side),
        "invited": invited,
        "seq": battle.seq,
        "status": battle.status,
        "waiting_for": waiting_for(battle, side),
        "outcome": battle.outcome,
        "created_at": battle.created_at,
        "finished_at": battle.finished_at,
        **timing(battle),
        "rated": battle.rated,
    }


def open_summary(battle: Battle) -> dict:
    """What anyone may know of a battle waiting for an opponent: which battle, the side to
    take, who created it, the settings and scale (2.0: the joiner's deck must fit it), when.
    Nothing of the setup (decks, seed)."""
    side = battle.free_seat()
    creator = battle.player(other_side(side)) if side is not None else None
    return {
        "id": battle.pk,
        "battle": battle.battle,
        "side": side,
        "creator": creator.username if creator is not None else None,
        "settings": battle.settings,
        "scale": battle.scale,
        "created_at": battle.created_at,
        "time_control": battle.time_control,
    }


# --- What a spectator sees (issue 12, Spectators) -------------------------------------------

WATCHABLE = (Status.ACTIVE, Status.FINISHED)  # started: never an invitation's or open seat's


def watchable(user, battle_id) -> Battle:
    """A battle ``user`` (anyone, logged in or not) may watch: a public one that has started
    (under way or over), or one they play; ``NotFound`` otherwise (a private battle's
    existence stays private, and so does a waiting one's: an invitation is its invitee's)."""
    found = _related(Battle.objects.filter(pk=battle_pk(battle_id))).first()
    if found is None or not (side_of(found, user) is not None
                             or (found.public and found.status in WATCHABLE)):
        raise NotFound("no such battle")
    return found


def live_public_battles() -> QuerySet[Battle]:
    """Public battles under way, for anyone to watch: the most recently created first."""
    return _related(Battle.objects.filter(public=True, status=Status.ACTIVE)
                    .order_by("-created_at", "-id"))


def player_names(battle: Battle) -> dict[str, str | None]:
    """Each side's player as anyone may name them: a username, ``computer (<bot>)``, or None
    (a seat nobody has taken)."""
    out: dict[str, str | None] = {}
    for side in SIDES:
        player = battle.player(side)
        out[side] = (player.username if player is not None
                     else f"computer ({battle.bot})" if side == battle.computer_side() else None)
    return out


def spectator_view(battle: Battle, since: int = 0, snap: Snapshot | None = None) -> dict:
    """What anyone watching ``battle`` sees: the engine's ``view(state, None)`` (both sides'
    face-down cards hidden), the log filtered by ``events_for(events, None)`` (actions after
    ``since``), whose move it is, and the seed once over. No legal actions, no deals."""
    snap = snap if snap is not None else snapshot(battle, since)
    state = snap.state
    entries = entries_of(snap.rows, None)
    finished = battle.status == Status.FINISHED
    return {
        "id": battle.pk,
        "battle": battle.battle,
        "my_side": None,
        "players": player_names(battle),
        "seq": battle.seq,
        "status": battle.status,
        "view": view(state, None) if state is not None else None,
        "legal_actions": [],
        "to_move": priority(battle),
        "paused": battle.paused_at is not None,
        "waiting_for": None,
        "log": entries,
        "seed_hash": battle.seed_hash,
        "seed": str(battle.seed) if finished else None,
        "outcome": battle.outcome,
        "scale": battle.scale,
        "decks": deck_kinds(battle),
        "my_deal": None,
    }
