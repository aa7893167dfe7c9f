"""The menu's counts: one query each."""

from __future__ import annotations

from django.db.models import Q, Value

from game import SIDES
from play import registry
from play.models import MatchStatus

from .models import UNREAD_SHOWN, Notification


def _mine_to_move(user) -> Q:
    """The user's seat has the move: the ``to_move`` column against each seat (the player
    indexes serve it), never the state JSON."""
    mine = Q()
    for side in SIDES:
        mine |= Q(to_move=side, **{f"{side}_player": user})
    return mine


def your_move_matches(kind, user):
    """Active matches of ``kind`` (a ``play.registry`` kind) where ``user``'s side must act."""
    return kind.model.objects.filter(_mine_to_move(user), status=MatchStatus.ACTIVE)


def your_move_counts(user) -> dict[str, int]:
    """``{kind: n}`` for every kind of match (``play.registry``: battles, campaigns,
    Stratego, La Belle Alliance...) in ONE query: a UNION ALL of one small row per match
    where it is the user's move."""
    kinds = list(registry.kinds())
    rows = [your_move_matches(k, user).order_by().annotate(area=Value(k.kind))
            .values_list("area") for k in kinds]
    counts = {k.kind: 0 for k in kinds}
    if rows:
        for (area,) in rows[0].union(*rows[1:], all=True).order_by():
            counts[area] += 1
    return counts


def your_move_count(user) -> int:
    """Matches of every kind where it is the user's move (one query)."""
    return sum(your_move_counts(user).values())


def unread_count(user) -> int:
    return Notification.objects.filter(UNREAD_SHOWN, user=user).count()
