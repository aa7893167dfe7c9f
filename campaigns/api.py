"""Campaign API: the campaign's part of the games API (``play.api``: the views every kind of
match shares, under ``/api/games/campaign/`` and, the same views bound to campaigns, under
``/api/campaigns/``), over ``services`` (writes) and ``selectors`` (reads); refusals are
``config.errors`` (mapped once by ``config.api_errors``)."""

from __future__ import annotations

from play import api as games
from play import presence

from . import selectors, services
from .serializers import (
    CampaignActInput,
    CampaignCreateInput,
    CampaignJoinInput,
    CampaignListSerializer,
    CampaignSummarySerializer,
    CampaignUndoInput,
    CampaignViewSerializer,
)


def _create(user, data: dict):
    return services.create_campaign(
        user, data.get("side"), opponent=data.get("opponent", services.COMPUTER),
        bot=data.get("bot", "greedy"), pool=data.get("pool", "set"),
        settings=data.get("settings"), public=data.get("public", True),
        time_control=data.get("time_control"), rated=data.get("rated", False))


def _join(pk, user, data: dict) -> None:
    services.join_campaign(pk, user, pool=data.get("pool", "set"))


GAME = games.register(games.GameAPI(
    kind="campaign", match_of=selectors.campaign_of, view=selectors.campaign_view,
    summary=selectors.campaign_summary, mine=lambda user, query: selectors.campaigns_of(user),
    open=selectors.open_campaigns, open_row=selectors.campaign_summary, create=_create,
    join=_join, cancel=services.cancel_campaign, act=services.act, undo=services.undo,
    resign=services.resign, looked_at=presence.looked_at,
    docs=games.Docs(
        view=CampaignViewSerializer, summary=CampaignSummarySerializer,
        mine=CampaignListSerializer, open=CampaignListSerializer, create=CampaignCreateInput,
        join=CampaignJoinInput, act=CampaignActInput, undo=CampaignUndoInput,
        notes={"act": "One of your legal actions, or any split of your free cards.",
               "join": "A campaign nobody joins expires after 7 days, as battles.",
               "undo": "On a board, in your turn, before a die, a revealed card or a campaign "
                       "decision."})))
