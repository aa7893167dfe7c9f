"""A campaign's part of the live channel (``play/live/``; ``KIND.live`` names ``LIVE``): who
may look at a campaign (``selectors.campaign_of``: the page's and the API's rule), what each
viewer class sees of it (``selectors.side_view``: a player their side's view of both boards,
their pools, their legal actions and the log filtered for their side; anyone else nobody's
side), who may watch it, how a socket's player acts (``services.act``), and the players'
presence (``play/presence.py``: an open socket is being at the campaign).
"""

from __future__ import annotations

from play import presence, seats
from play.live.hooks import LiveHooks

from . import selectors, services
from .models import Campaign, Status


def watched(campaign: Campaign) -> bool:
    """Whether anyone may be watching ``campaign`` while it moves: a public one, under way or
    over (``selectors.campaign_of``). A private campaign's spectators' text is never built."""
    return campaign.public and campaign.status in (Status.ACTIVE, Status.FINISHED)


LIVE = LiveHooks(
    find=lambda user, campaign_id: selectors.campaign_of(user, campaign_id),
    side_of=lambda campaign, user: seats.side_of(campaign, user),
    view=lambda campaign, side, since, snap=None: selectors.side_view(campaign, side, since,
                                                                      snap),
    watched=watched,
    act=lambda campaign_id, user, seq, action: services.act(campaign_id, user, seq, action),
    presence=presence.SOCKET)
