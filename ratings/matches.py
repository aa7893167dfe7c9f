"""Rated matches of every kind but the two EAGLES ones (those keep ``RatedBattle`` and
``RatedCampaign``): a finished match created rated between two people updates both players'
ratings in its kind's pool (``MatchKind.rating_pool``: "stratego", ...) once, adds the result
to their ``SideRecord`` of that kind and side, and writes a ``RatedMatch``.

``rate_finished_match`` is the generic rater of ``listeners.rate_now`` (the worker's
``ratings.rate``, the match row locked; the end left a ``PendingRating`` row: issue 31).
The ratings are locked in user-id order (``services.rate_players``); the ``RatedMatch`` row
(unique per kind and played id) makes a second call change nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from .models import RatedMatch
from .services import count_result, french_score, rate_players


def rateable(match: Any) -> bool:
    """A finished match marked rated between two people (the computer's never count)."""
    return bool(match.rated and not match.bot and match.french_player_id
                and match.allied_player_id and match.status == "finished" and match.outcome)


def rate_match(kind: str, pool: str, match: Any,
               now: datetime | None = None) -> RatedMatch | None:
    """Rate ``match`` of ``kind`` (finished, rated, two people) once in ``pool``: both
    ratings, both side records (``SideRecord`` of the kind, per side) and a ``RatedMatch``.
    None if it is not rateable, the pool is empty, or it was rated already."""
    if not pool or not rateable(match):
        return None
    now = now or timezone.now()
    french_id, allied_id = match.french_player_id, match.allied_player_id
    with transaction.atomic():
        if RatedMatch.objects.filter(kind=kind, played_id=match.pk).exists():
            return None
        score = french_score(match.outcome)
        figures = rate_players(french_id, allied_id, score, now, pool=pool)
        count_result(french_id, kind, "french", score, pool=pool)
        count_result(allied_id, kind, "allied", 1.0 - score, pool=pool)
        reason = str((match.outcome or {}).get("reason") or "")[:30]
        return RatedMatch.objects.create(kind=kind, played_id=match.pk, pool=pool,
                                         reason=reason, **figures)


def rate_finished_match(kind: str, pool: str, match: Any) -> RatedMatch | None:
    """The generic rater (``listeners.rate_now``, in the worker's transaction)."""
    if match is None:
        return None
    return rate_match(kind, pool, match)
