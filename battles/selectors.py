"""Reads about battles: whose battle it is, who moves, and what a player sees.

``battle_view`` is the only way a battle reaches a player: the engine's ``view`` of their
side, their legal actions when they have priority, the log filtered by ``events_for``, and the
seed once the battle is over; nothing else of the state, the setup or the unfiltered events.
Looking up someone else's battle raises ``NotFound`` (the API answers 404).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from .engine import SIDES, events_for, from_json, legal_actions, view
from .errors import NotFound
from .models import Battle, Status


def side_of(battle: Battle, user) -> str | None:
    """The side ``user`` plays in ``battle`` (None: not theirs)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for side in SIDES:
        if battle.player_id(side) == user.pk:
            return side
    return None


def computer_side(battle: Battle) -> str | None:
    for side in SIDES:
        if battle.player_id(side) is None:
            return side
    return None


def _other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


def priority(battle: Battle) -> str | None:
    """The side to act now (None when the battle is over), from the snapshot."""
    if battle.status != Status.ACTIVE or battle.state.get("outcome"):
        return None
    return battle.state["priority"]


def waiting_for(battle: Battle, side: str) -> str | None:
    who = priority(battle)
    if who is None:
        return None
    if who == side:
        return "you"
    return "computer" if battle.player_id(who) is None else "opponent"


def opponent_name(battle: Battle, side: str) -> str:
    other = _other(side)
    player = battle.player(other)
    return f"computer ({battle.bot})" if player is None else player.username


def battle_pk(value) -> int:
    """A battle id from a URL or a body; NotFound for anything that cannot be one."""
    value = getattr(value, "pk", value)
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 12:
        value = int(value)
    if type(value) is not int:
        raise NotFound("no such battle")
    return value


def battles_of(user) -> QuerySet[Battle]:
    """The user's battles, newest first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Battle.objects.none()
    return (Battle.objects.filter(Q(french_player=user) | Q(allied_player=user))
            .select_related("french_player", "allied_player").order_by("-created_at", "-id"))


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
    (a face-down enemy card's number never appears)."""
    side = side_of(battle, user)
    if side is None:
        raise NotFound("no such battle")
    state = from_json(battle.state)
    mine = priority(battle) == side
    rows = battle.actions.filter(seq__gt=since).order_by("seq").values_list("seq", "events")
    entries = [{"seq": n, **e} for n, events in rows for e in events_for(events, side)]
    finished = battle.status == Status.FINISHED
    return {
        "id": battle.pk,
        "battle": battle.battle,
        "my_side": side,
        "opponent": opponent_name(battle, side),
        "seq": battle.seq,
        "status": battle.status,
        "view": view(state, side),
        "legal_actions": legal_actions(state, side) if mine else [],
        "waiting_for": waiting_for(battle, side),
        "log": entries,
        "seed_hash": battle.seed_hash,
        "seed": str(battle.seed) if finished else None,
        "outcome": battle.outcome,
    }


def battle_summary(battle: Battle, user) -> dict:
    """A row of the user's battle list (no state beyond whose move it is)."""
    side = side_of(battle, user)
    return {
        "id": battle.pk,
        "battle": battle.battle,
        "my_side": side,
        "opponent": opponent_name(battle, side),
        "seq": battle.seq,
        "status": battle.status,
        "waiting_for": waiting_for(battle, side),
        "outcome": battle.outcome,
        "created_at": battle.created_at,
        "finished_at": battle.finished_at,
    }
