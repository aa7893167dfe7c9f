"""La Belle Alliance's part of the games API (``play.api``: the views every kind shares, under
``/api/games/belle_alliance/``), over ``services`` (writes) and ``selectors`` (reads)."""

from __future__ import annotations

from typing import Any

from play import api as games
from play import presence

from . import selectors, services
from .serializers import (
    BelleAllianceActInput,
    BelleAllianceCreateInput,
    BelleAllianceJoinInput,
    BelleAllianceListSerializer,
    BelleAllianceSummarySerializer,
    BelleAllianceUndoInput,
    BelleAllianceViewSerializer,
)


def _create(user: Any, data: dict[str, Any]) -> Any:
    return services.create_game(
        user, data.get("side"), opponent=data.get("opponent", services.COMPUTER),
        bot=data.get("bot", "greedy"), public=data.get("public", True),
        time_control=data.get("time_control"), rated=data.get("rated", False))


def _join(pk: Any, user: Any, data: dict[str, Any]) -> None:
    services.join_game(pk, user)


GAME = games.register(games.GameAPI(
    kind="belle_alliance", match_of=selectors.game_of, view=selectors.game_view,
    summary=selectors.game_summary, mine=lambda user, query: selectors.games_of(user),
    open=selectors.open_games, open_row=selectors.game_summary, create=_create, join=_join,
    cancel=services.cancel_game, act=services.act, undo=services.undo,
    resign=services.resign, looked_at=presence.looked_at,
    docs=games.Docs(
        view=BelleAllianceViewSerializer, summary=BelleAllianceSummarySerializer,
        mine=BelleAllianceListSerializer, open=BelleAllianceListSerializer,
        create=BelleAllianceCreateInput, join=BelleAllianceJoinInput,
        act=BelleAllianceActInput, undo=BelleAllianceUndoInput,
        notes={"act": "One of your legal actions.",
               "undo": "In your phase, before a die is rolled."})))
