"""Battle API: thin views over ``services`` (writes) and ``selectors`` (reads).

Errors: ``{"detail": ...}`` with the service error's status (400 bad input or illegal action,
403 not yours to cancel, 404 not one of your battles, 409 stale seq / not your move / over /
waiting for an opponent / the seat is taken); nothing changes.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from . import presence, replays, selectors, services
from .errors import BattleError
from .serializers import (
    ActInput,
    BattleCreateInput,
    BattleListSerializer,
    BattleSummarySerializer,
    BattleViewSerializer,
    JoinInput,
    OpenBattleListSerializer,
    SpectatorViewSerializer,
    UndoInput,
)

MAX_LIST = 200


class BattleAPIView(APIView):
    permission_classes = [permissions.IsAuthenticated]


class BattleList(BattleAPIView):
    @extend_schema(responses=BattleListSerializer, operation_id="battles_list",
                   summary="My battles and the battles I am invited to, newest first",
                   parameters=[OpenApiParameter(
                       "status", str, description="waiting, active, finished, cancelled or "
                                                  "declined")])
    def get(self, request):
        qs = selectors.battle_list(request.user)
        if request.query_params.get("status"):
            qs = qs.filter(status=request.query_params["status"])
        return Response({"results": [selectors.battle_summary(b, request.user)
                                     for b in qs[:MAX_LIST]]})

    @extend_schema(request=BattleCreateInput, responses={201: BattleViewSerializer},
                   summary="Start a battle against the computer, or one another player joins")
    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            raise BattleError("the body must be a JSON object")
        b = services.create_battle(
            request.user, data.get("battle"), data.get("side"), bot=data.get("bot", "greedy"),
            deck_version_id=data.get("deck_version"), settings=data.get("settings"),
            opponent=data.get("opponent", services.COMPUTER), scale=data.get("scale"),
            deal=data.get("deal"), time_control=data.get("time_control"),
            public=data.get("public", True), rated=data.get("rated", False))
        return Response(selectors.battle_view(b, request.user), status=status.HTTP_201_CREATED)


class OpenBattles(BattleAPIView):
    @extend_schema(responses=OpenBattleListSerializer, operation_id="battles_open_list",
                   summary="Battles anyone may join, newest first (not my own)")
    def get(self, request):
        return Response({"results": [selectors.open_summary(b) for b in
                                     selectors.open_battles(request.user)[:MAX_LIST]]})


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
        presence.touch(battle, selectors.side_of(battle, request.user))
        return Response(selectors.battle_view(battle, request.user, since=since))


class Join(BattleAPIView):
    @extend_schema(request=JoinInput, responses=BattleViewSerializer,
                   summary="Take the empty seat of an open battle or one I am invited to")
    def post(self, request, pk):
        data = request.data
        if not isinstance(data, dict):
            raise BattleError("the body must be a JSON object")
        services.join_battle(pk, request.user, deck_version_id=data.get("deck_version"),
                             deal=data.get("deal"))
        return Response(selectors.battle_view(selectors.battle_of(request.user, pk), request.user))


class Cancel(BattleAPIView):
    @extend_schema(request=None, responses=BattleSummarySerializer,
                   summary="Cancel my battle nobody has joined, or decline an invitation")
    def post(self, request, pk):
        b = services.cancel_battle(pk, request.user)
        return Response(selectors.battle_summary(b, request.user))


class Act(BattleAPIView):
    @extend_schema(request=ActInput, responses=BattleViewSerializer,
                   summary="Play one of your legal actions")
    def post(self, request, pk):
        services.act(pk, request.user, request.data.get("seq"), request.data.get("action"))
        return Response(selectors.battle_view(selectors.battle_of(request.user, pk), request.user))


class Resign(BattleAPIView):
    @extend_schema(request=None, responses=BattleViewSerializer,
                   summary="Resign my battle (any moment while it is active): the opponent "
                           "wins")
    def post(self, request, pk):
        services.resign(pk, request.user)
        return Response(selectors.battle_view(selectors.battle_of(request.user, pk), request.user))


class Claim(BattleAPIView):
    @extend_schema(request=None, responses=BattleViewSerializer,
                   summary="Claim a live battle whose opponent has the move and has been away "
                           "too long (battles/presence.py): I win")
    def post(self, request, pk):
        services.claim_absence(pk, request.user)
        return Response(selectors.battle_view(selectors.battle_of(request.user, pk), request.user))


class Undo(BattleAPIView):
    @extend_schema(request=UndoInput, responses=BattleViewSerializer,
                   summary="Take back your last action (your turn; no die rolled, no card "
                           "revealed since)")
    def post(self, request, pk):
        data = request.data if isinstance(request.data, dict) else {}
        services.undo(pk, request.user, data.get("seq"))
        return Response(selectors.battle_view(selectors.battle_of(request.user, pk), request.user))


class Export(APIView):
    permission_classes = [permissions.AllowAny]  # a public battle's replay is anyone's

    @extend_schema(responses=dict, summary="A finished battle's setup, seed and actions "
                                           "(replay it with python -m "
                                           "battles.engine.replay_file)")
    def get(self, request, pk):
        return Response(replays.export(replays.replayable(request.user, pk)))


class Watch(APIView):
    """A battle as a spectator sees it: anyone, logged in or not, for a public battle; a
    private battle is 404 (its players see it through ``BattleDetail``)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=SpectatorViewSerializer, operation_id="battles_watch",
                   summary="Watch a public battle (nobody's side: both sides' hidden cards hidden)",
                   parameters=[OpenApiParameter(
                       "since", int, description="Only log events of actions after this seq.")])
    def get(self, request, pk):
        since = _since(request)
        battle = selectors.watchable(None, pk)
        return Response(selectors.spectator_view(battle, since=since))
