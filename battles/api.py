"""Battle API: the battle's part of the games API (``play.api``: the views every kind of
match shares, under ``/api/games/battle/`` and, the same views bound to battles, under
``/api/battles/``, the absence claim among them: ``play.presence``) and the view only battles
have (watch); the export is the games API's (``play.api.Export``, over ``play.replays``). All
are thin, over ``services`` (writes) and ``selectors`` (reads).

Errors: ``{"detail", "code", ...}`` with the service error's status (400 bad input or illegal
action, 403 not yours to cancel, 404 not one of your battles, 409 stale seq / not your move /
over / waiting for an opponent / the seat is taken); nothing changes.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.response import Response
from rest_framework.views import APIView

from play import api as games
from play import presence

from . import selectors, services
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


def _mine(user, query):
    return selectors.battle_list(user, status=query.get("status") or None)


def _create(user, data: dict):
    return services.create_battle(
        user, data.get("battle"), data.get("side"), bot=data.get("bot", "greedy"),
        deck_version_id=data.get("deck_version"), settings=data.get("settings"),
        opponent=data.get("opponent", services.COMPUTER), scale=data.get("scale"),
        deal=data.get("deal"), time_control=data.get("time_control"),
        public=data.get("public", True), rated=data.get("rated", False))


def _join(pk, user, data: dict) -> None:
    services.join_battle(pk, user, deck_version_id=data.get("deck_version"),
                         deal=data.get("deal"))


GAME = games.register(games.GameAPI(
    kind="battle", match_of=selectors.battle_of, view=selectors.battle_view,
    summary=selectors.battle_summary, mine=_mine, open=selectors.open_battles,
    open_row=lambda battle, user: selectors.open_summary(battle), create=_create, join=_join,
    cancel=services.cancel_battle, act=services.act, undo=services.undo,
    resign=services.resign, looked_at=presence.looked_at,
    docs=games.Docs(
        view=BattleViewSerializer, summary=BattleSummarySerializer, mine=BattleListSerializer,
        open=OpenBattleListSerializer, create=BattleCreateInput, join=JoinInput, act=ActInput,
        undo=UndoInput,
        notes={"act": "A warned action needs no confirmation (battles/README.md, Loss "
                      "warnings).",
               "undo": "Only in your turn, while no die has been rolled and no card revealed "
                       "since.",
               "export": "The eagles-battle/1 document: replay it offline with python -m "
                         "battles.engine.replay_file."},
        mine_parameters=[OpenApiParameter("status", str, description="waiting, active, "
                                          "finished, cancelled or declined")])))




class Watch(APIView):
    """A battle as a spectator sees it: anyone, logged in or not, for a public battle; a
    private battle is 404 (its players see it through ``/api/battles/<id>/``)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=SpectatorViewSerializer, operation_id="battles_watch",
                   summary="Watch a public battle (nobody's side: both sides' hidden cards hidden)",
                   parameters=[OpenApiParameter(
                       "since", int, description="Only log events of actions after this seq.")])
    def get(self, request, pk):
        since = games.since_of(request)
        battle = selectors.watchable(None, pk)
        return Response(selectors.spectator_view(battle, since=since))
