"""What one viewer of a campaign receives over the socket, built from the selectors only.

A player gets ``selectors.campaign_view`` for their user (their side's view of both boards,
their pools, their legal actions, the log filtered for their side); a spectator the same
selector from nobody's side. The log goes out as ``events`` (only the actions after
``since``). Every message is built for its own viewer: nothing built for one viewer is ever
sent to another.
"""

from __future__ import annotations

from dataclasses import dataclass

from campaigns import selectors
from campaigns.models import Campaign
from config.errors import NotFound

GROUP = "campaign.{}"


def group_name(campaign_id: int) -> str:
    return GROUP.format(campaign_id)


@dataclass(frozen=True)
class Viewer:
    """Who is connected: ``user`` plays ``side``, or (side None) watches or is invited."""

    campaign_id: int
    user: object
    side: str | None


def viewer_for(user, campaign_id) -> Viewer:
    """The viewer ``user`` is in campaign ``campaign_id``. ``NotFound`` for a private
    campaign that is not theirs (or none): the same rule as the page and the API."""
    campaign = selectors.campaign_of(user, campaign_id)
    return Viewer(campaign.pk, user, selectors.side_of(campaign, user))


def current(campaign_ids: list[int]) -> dict[int, tuple[int, str]]:
    """Each campaign's ``(seq, status)``: one query for every campaign with open sockets in
    this process (the safety-net check, ``CampaignPoller`` in ``live.consumers``)."""
    return {pk: (seq, status) for pk, seq, status in
            Campaign.objects.filter(pk__in=campaign_ids).values_list("id", "seq", "status")}


def campaign_message(viewer: Viewer, since: int) -> dict:
    """``{"type": "campaign", "seq", "status", "events": [after since], ...the viewer's
    campaign view (as ``GET /api/campaigns/<id>/?since=n``)}``."""
    campaign = (Campaign.objects.filter(pk=viewer.campaign_id)
                .select_related("french_player", "allied_player", "invited").first())
    if campaign is None:
        raise NotFound("no such campaign")
    data = selectors.campaign_view(campaign, viewer.user, since=since)
    events = data.pop("log")
    return {"type": "campaign", **data, "since": since, "events": events}
