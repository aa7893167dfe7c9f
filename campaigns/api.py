"""Campaign API: thin views over ``services`` (writes) and ``selectors`` (reads); refusals
are ``config.errors`` (mapped once by ``config.api_errors``)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import BadInput

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

MAX_LIST = 200


def _body(request) -> dict:
    if not isinstance(request.data, dict):
        raise BadInput("the body must be a JSON object")
    return request.data


class CampaignAPIView(APIView):
    permission_classes = [permissions.IsAuthenticated]


class CampaignList(CampaignAPIView):
    @extend_schema(responses=CampaignListSerializer, operation_id="campaigns_list",
                   summary="My campaigns and the ones I am invited to, newest first")
    def get(self, request):
        return Response({"results": [selectors.campaign_summary(c, request.user) for c in
                                     selectors.campaigns_of(request.user)[:MAX_LIST]]})

    @extend_schema(request=CampaignCreateInput, responses={201: CampaignViewSerializer},
                   summary="Start a campaign against the computer, or one another player joins")
    def post(self, request):
        data = _body(request)
        c = services.create_campaign(
            request.user, data.get("side"), opponent=data.get("opponent", services.COMPUTER),
            bot=data.get("bot", "greedy"), pool=data.get("pool", "set"),
            settings=data.get("settings"), public=data.get("public", True),
            time_control=data.get("time_control"), rated=data.get("rated", False))
        return Response(selectors.campaign_view(c, request.user),
                        status=status.HTTP_201_CREATED)


class OpenCampaigns(CampaignAPIView):
    @extend_schema(responses=CampaignListSerializer, operation_id="campaigns_open_list",
                   summary="Campaigns anyone may join (not my own)")
    def get(self, request):
        return Response({"results": [selectors.campaign_summary(c, request.user) for c in
                                     selectors.open_campaigns(request.user)[:MAX_LIST]]})


def _since(request) -> int:
    raw = request.query_params.get("since", "0")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        raise BadInput("since must be a whole number (a seq)")
    return int(raw)


def _view(request, pk):
    return Response(selectors.campaign_view(selectors.campaign_of(request.user, pk),
                                            request.user))


class CampaignDetail(CampaignAPIView):
    @extend_schema(responses=CampaignViewSerializer, summary="A campaign as your side sees it",
                   parameters=[OpenApiParameter("since", int, description="Only log events of "
                                                "actions after this seq (default 0).")])
    def get(self, request, pk):
        since = _since(request)
        c = selectors.campaign_of(request.user, pk)
        return Response(selectors.campaign_view(c, request.user, since=since))


class CampaignAct(CampaignAPIView):
    @extend_schema(request=CampaignActInput, responses=CampaignViewSerializer,
                   summary="Play one of your legal actions (or any split of your free cards)",
                   description="409 stale_seq, 409 not your move, 400 illegal_action; past "
                               "your deadline 409 out_of_time (the campaign ends by time in "
                               "the same request).")
    def post(self, request, pk):
        data = _body(request)
        services.act(pk, request.user, data.get("seq"), data.get("action"))
        return _view(request, pk)


class CampaignJoin(CampaignAPIView):
    @extend_schema(request=CampaignJoinInput, responses=CampaignViewSerializer,
                   summary="Take the empty seat of an open campaign or one I am invited to",
                   description="409 expired once nobody joined in time (7 days, as battles).")
    def post(self, request, pk):
        data = _body(request)
        services.join_campaign(pk, request.user, pool=data.get("pool", "set"))
        return _view(request, pk)


class CampaignCancel(CampaignAPIView):
    @extend_schema(request=None, responses=CampaignSummarySerializer,
                   summary="Cancel my campaign nobody has joined, or decline an invitation")
    def post(self, request, pk):
        c = services.cancel_campaign(pk, request.user)
        return Response(selectors.campaign_summary(c, request.user))


class CampaignResign(CampaignAPIView):
    @extend_schema(request=None, responses=CampaignViewSerializer,
                   summary="Resign the campaign: the other side wins it (reason resigned)",
                   description="Past the mover's deadline: 409 out_of_time (the campaign "
                               "ended by time instead).")
    def post(self, request, pk):
        services.resign(pk, request.user)
        return _view(request, pk)


class CampaignUndo(CampaignAPIView):
    @extend_schema(request=CampaignUndoInput, responses=CampaignViewSerializer,
                   summary="Take back your last action on a board (your turn, before a die, a "
                           "revealed card or a campaign decision); 409 cannot_undo with reason")
    def post(self, request, pk):
        data = _body(request)
        services.undo(pk, request.user, data.get("seq"))
        return _view(request, pk)
