"""Battle API: thin views over ``services`` (writes) and ``selectors`` (reads).

Errors: ``{"detail": ...}`` with the service error's status (400 bad input or illegal action,
404 not one of your battles, 409 stale seq / not your move / over); nothing changes.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from . import selectors, services
from .errors import BattleError
from .serializers import ActInput, BattleCreateInput, BattleListSerializer, BattleViewSerializer

MAX_LIST = 200


class BattleAPIView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def handle_exception(self, exc):
        if isinstance(exc, BattleError):
            return Response({"detail": exc.message, **exc.extra}, status=exc.status)
        return super().handle_exception(exc)


class BattleList(BattleAPIView):
    @extend_schema(responses=BattleListSerializer, summary="My battles, newest first",
                   operation_id="battles_list",
                   parameters=[OpenApiParameter("status", str, description="active or finished")])
    def get(self, request):
        qs = selectors.battles_of(request.user)
        if request.query_params.get("status"):
            qs = qs.filter(status=request.query_params["status"])
        return Response({"results": [selectors.battle_summary(b, request.user)
                                     for b in qs[:MAX_LIST]]})

    @extend_schema(request=BattleCreateInput, responses={201: BattleViewSerializer},
                   summary="Start a battle against the computer")
    def post(self, request):
        data = request.data
        b = services.create_battle(
            request.user, data.get("battle"), data.get("side"), bot=data.get("bot", "greedy"),
            deck_version_id=data.get("deck_version"), settings=data.get("settings"))
        return Response(selectors.battle_view(b, request.user), status=status.HTTP_201_CREATED)


def _since(request) -> int:
    raw = request.query_params.get("since", "0")
    if not (raw.isascii() and raw.isdigit() and len(raw) < 10):
        raise BattleError("since must be a whole number (a seq)")
    return int(raw)


class BattleDetail(BattleAPIView):
    @extend_schema(responses=BattleViewSerializer, summary="A battle as your side sees it",
                   parameters=[OpenApiParameter(
                       "since", int, description="Only log events of actions after this seq "
                                                 "(default 0: the whole log).")])
    def get(self, request, pk):
        since = _since(request)
        battle = selectors.battle_of(request.user, pk)
        return Response(selectors.battle_view(battle, request.user, since=since))


class Act(BattleAPIView):
    @extend_schema(request=ActInput, responses=BattleViewSerializer,
                   summary="Play one of your legal actions")
    def post(self, request, pk):
        services.act(pk, request.user, request.data.get("seq"), request.data.get("action"))
        return Response(selectors.battle_view(selectors.battle_of(request.user, pk), request.user))
