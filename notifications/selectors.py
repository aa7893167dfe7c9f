"""The menu's counts: one query each."""

from __future__ import annotations

from django.db.models import Q, Value

from battles.models import Battle, Status
from campaigns.models import Campaign
from campaigns.models import Status as CampaignStatus
from game import SIDES

from .models import UNREAD_SHOWN, Notification


def _mine_to_move(user) -> Q:
    """The user's seat has the move: the ``to_move`` column against each seat (the player
    indexes serve it), never the state JSON."""
    mine = Q()
    for side in SIDES:
        mine |= Q(to_move=side, **{f"{side}_player": user})
    return mine


def your_move_battles(user):
    """Active battles where ``user``'s side has priority."""
    return Battle.objects.filter(_mine_to_move(user), status=Status.ACTIVE)


def your_move_campaigns(user):
    """Active campaigns where ``user``'s side must act (a split, a decision or a move)."""
    return Campaign.objects.filter(_mine_to_move(user), status=CampaignStatus.ACTIVE)


def your_move_counts(user) -> dict[str, int]:
    """``{"battles": n, "campaigns": m}`` in ONE query (a UNION ALL of the two lists' rows,
    one small row per game where it is the user's move)."""
    battles = your_move_battles(user).order_by().annotate(
        area=Value("battles")).values_list("area")
    campaigns = your_move_campaigns(user).order_by().annotate(
        area=Value("campaigns")).values_list("area")
    counts = {"battles": 0, "campaigns": 0}
    for (area,) in battles.union(campaigns, all=True).order_by():
        counts[area] += 1
    return counts


def your_move_count(user) -> int:
    """Battles and campaigns where it is the user's move (one query)."""
    return sum(your_move_counts(user).values())


def unread_count(user) -> int:
    return Notification.objects.filter(UNREAD_SHOWN, user=user).count()
