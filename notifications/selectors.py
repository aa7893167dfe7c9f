"""The menu's counts: one query each."""

from __future__ import annotations

from django.db.models import Q

from battles.models import Battle, Status
from game import SIDES

from .models import UNREAD_SHOWN, Notification


def your_move_battles(user):
    """Active battles where ``user``'s side has priority: the ``to_move`` column against each
    seat (the player indexes serve it), never the state JSON."""
    mine = Q()
    for side in SIDES:
        mine |= Q(to_move=side, **{f"{side}_player": user})
    return Battle.objects.filter(mine, status=Status.ACTIVE)


def your_move_count(user) -> int:
    return your_move_battles(user).count()


def unread_count(user) -> int:
    return Notification.objects.filter(UNREAD_SHOWN, user=user).count()
