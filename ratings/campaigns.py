"""Rated campaigns (16.0): a finished rated campaign between two people updates both
players' Glicko-2 ratings once, like a rated battle (one rating period of one game each;
``services.rate_players``).

``rate_finished_campaign`` is called by the worker's ``ratings.rate`` (``listeners.rate_now``,
the campaign row locked) once the end of a rated campaign, whatever ended it (the core's
outcome, a resignation, a flag fall), has committed with its ``PendingRating`` row (issue
31). The
``RatedCampaign`` row (one per campaign, a one-to-one column) makes a second call change
nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from .models import RatedCampaign
from .services import french_score, rate_players


def rateable(campaign) -> bool:
    """A finished campaign marked rated between two people (the computer's never count)."""
    return bool(campaign.rated and not campaign.bot and campaign.french_player_id
                and campaign.allied_player_id and campaign.status == "finished"
                and campaign.outcome)


def rate_campaign(campaign, now: datetime | None = None) -> RatedCampaign | None:
    """Rate ``campaign`` (finished, rated, two people) once: both ratings and a
    ``RatedCampaign``. None if it is not rateable or was rated already."""
    if not rateable(campaign):
        return None
    now = now or timezone.now()
    with transaction.atomic():
        if RatedCampaign.objects.filter(campaign_id=campaign.pk).exists():
            return None
        figures = rate_players(campaign.french_player_id, campaign.allied_player_id,
                               french_score(campaign.outcome), now)
        return RatedCampaign.objects.create(campaign=campaign, **figures)


def rate_finished_campaign(sender=None, campaign=None, **kwargs) -> RatedCampaign | None:
    """A campaign's rater (``listeners.rate_now``, in the worker's transaction)."""
    if campaign is None:
        return None
    return rate_campaign(campaign)
