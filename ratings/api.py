"""Ratings and lobby API: thin views over ``selectors`` and ``lobby``.

``GET /api/players/<username>/`` and ``GET /api/leaderboard/?game=&page=`` are public;
``GET /api/lobby/?battle=&time=&deck=&rated=`` (the open challenges) and
``POST /api/lobby/play-now/`` need a log-in.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from battles import selectors as battle_selectors
from config.errors import BadInput

from . import lobby, selectors
from .serializers import (
    ChallengeListSerializer,
    LeaderboardSerializer,
    PlayerSerializer,
    PlayNowInput,
    PlayNowSerializer,
)


class Player(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PlayerSerializer, operation_id="players_retrieve",
                   summary="A player's rating, record per battle and side, last rated battles")
    def get(self, request, username):
        return Response(selectors.player_profile(username))


class Leaderboard(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=LeaderboardSerializer, operation_id="leaderboard_list",
                   summary="Players by rating in one game (at least one rated game), 50 a "
                           "page",
                   parameters=[OpenApiParameter("page", int, description="From 1."),
                               OpenApiParameter("game", str, description="The rating pool: "
                                                "eagles (default) or stratego.")])
    def get(self, request):
        q = request.query_params
        return Response(selectors.leaderboard(q.get("page"), pool=q.get("game")))


class Lobby(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ChallengeListSerializer, operation_id="lobby_list",
                   summary="Open challenges I may join, filtered, with each creator's rating",
                   parameters=[OpenApiParameter("battle", str), OpenApiParameter("time", str,
                               description="untimed, live or correspondence"),
                               OpenApiParameter("deck", str, description="dealt or custom"),
                               OpenApiParameter("rated", str, description="yes or no")])
    def get(self, request):
        q = request.query_params
        filters = lobby.Filters.clean(q.get("battle"), q.get("time"), q.get("deck"),
                                      q.get("rated"))
        return Response({"results": lobby.challenges(request.user, filters)})


class PlayNow(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PlayNowInput, responses={200: PlayNowSerializer,
                                                    201: PlayNowSerializer},
                   operation_id="lobby_play_now",
                   summary="Join the open battle of the closest rating, or open one and wait")
    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            raise BadInput("the body must be a JSON object")
        rated = data.get("rated", False)
        if type(rated) is not bool:
            raise BadInput("rated must be true or false")
        found = lobby.play_now(request.user, data.get("battle"), data.get("side"),
                               rated=rated, scale=data.get("scale", "1"),
                               time=data.get("time"), deal=data.get("deal"),
                               deck_version_id=data.get("deck_version"))
        body = {"joined": found.joined, "gap": found.gap, "window": found.window,
                "battle": battle_selectors.battle_view(found.battle, request.user)}
        return Response(body, status=status.HTTP_200_OK if found.joined
                        else status.HTTP_201_CREATED)
