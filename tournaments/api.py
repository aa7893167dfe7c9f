"""Tournament API: thin views over ``services`` (writes) and ``selectors`` (reads).

Errors: ``{"detail": ...}`` with the service error's status (400 bad input, 403 not allowed,
404 unknown, 409 wrong state); nothing changes.
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from play import registry

from . import selectors, services
from .models import BATTLE, attach_played
from .serializers import (
    DropInput,
    MatchSerializer,
    OrganiserTournamentSerializer,
    PublishInput,
    RegisterInput,
    ResultInput,
    ResultLogSerializer,
    RoundSerializer,
    TournamentEntrySerializer,
    TournamentInput,
    TournamentSerializer,
)
from .services import exports
from .services.common import is_organiser, require_organiser
from .services.errors import TournamentError
from .services.setup import EDITABLE


class TournamentAPIView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def tournament(self, pk):
        return selectors.tournament(pk)


def _fields(data) -> dict:
    return {k: data[k] for k in EDITABLE if k in data}


def _tournament_data(t, user) -> dict:
    cls = OrganiserTournamentSerializer if is_organiser(t, user) else TournamentSerializer
    return cls(t).data


def _result(data) -> dict:
    return {
        k: data[k]
        for k in ("result", "games", "french_games", "allied_games", "draws", "double_loss")
        if k in data
    }


def _report_data(report) -> dict:
    """A player's report: totals, and ``games`` (per-game outcomes) for two-game matches."""
    return {
        "french_games": report.french_games,
        "allied_games": report.allied_games,
        "draws": report.draws,
        "games": report.games,
    }


class TournamentList(TournamentAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        summary="Tournaments",
        operation_id="tournaments_list",
        parameters=[OpenApiParameter("status", str)],
    )
    def get(self, request):
        qs = selectors.tournaments(request.query_params.get("status"))
        return Response({"results": TournamentSerializer(qs[:200], many=True).data})

    @extend_schema(
        request=TournamentInput,
        responses={201: OrganiserTournamentSerializer},
        summary="Create a tournament",
    )
    def post(self, request):
        t = services.create_tournament(request.user, **_fields(request.data))
        return Response(
            _tournament_data(selectors.tournament(t.pk), request.user),
            status=status.HTTP_201_CREATED,
        )


class TournamentDetail(TournamentAPIView):
    @extend_schema(responses=TournamentSerializer, summary="A tournament")
    def get(self, request, pk):
        return Response(_tournament_data(self.tournament(pk), request.user))

    @extend_schema(
        request=TournamentInput,
        responses=TournamentSerializer,
        summary="Change settings before the start (organiser)",
    )
    def patch(self, request, pk):
        services.update_tournament(pk, request.user, **_fields(request.data))
        return Response(_tournament_data(self.tournament(pk), request.user))


class Register(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=RegisterInput,
        responses={201: TournamentEntrySerializer},
        summary="Register with one deck version per army",
    )
    def post(self, request, pk):
        entry = services.register(
            pk,
            request.user,
            french_version=request.data.get("french_version"),
            british_version=request.data.get("british_version"),
            prussian_version=request.data.get("prussian_version"),
            club=request.data.get("club", ""),
        )
        return Response(TournamentEntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class Withdraw(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None, responses=OpenApiTypes.OBJECT, summary="Withdraw (after the start: drop)"
    )
    def post(self, request, pk):
        services.withdraw(pk, request.user)
        return Response({"detail": "withdrawn"})


class CheckIn(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=TournamentEntrySerializer, summary="Check in")
    def post(self, request, pk):
        return Response(TournamentEntrySerializer(services.check_in(pk, request.user)).data)


class Drop(TournamentAPIView):
    """Organiser: ``{"entry": id}``; a player without ``entry`` drops themself."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=DropInput,
        responses=TournamentEntrySerializer,
        summary="Drop a player (organiser) or yourself",
    )
    def post(self, request, pk):
        entry_id = request.data.get("entry")
        if entry_id in (None, ""):
            mine = selectors.entry_of(self.tournament(pk), request.user)
            if mine is None:
                raise services.NotFound("you are not registered in this tournament")
            entry_id = mine.pk
        elif not str(entry_id).isdigit():
            raise TournamentError("entry must be an entry id")
        return Response(
            TournamentEntrySerializer(services.drop(pk, request.user, int(entry_id))).data
        )


class OrganiserAction(TournamentAPIView):
    """POST start / pause / resume / pair-next / cancel / publish-lists."""

    permission_classes = [permissions.IsAuthenticated]
    action = ""

    @extend_schema(
        request=PublishInput, responses=TournamentSerializer, summary="Organiser control"
    )
    def post(self, request, pk):
        user = request.user
        if self.action == "start":
            services.start_tournament(pk, user)
        elif self.action == "pause":
            services.pause(pk, user)
        elif self.action == "resume":
            services.resume(pk, user)
        elif self.action == "pair-next":
            services.pair_next_round(pk, user)
        elif self.action == "cancel":
            services.cancel_tournament(pk, user)
        elif self.action == "publish-lists":
            services.publish_lists(pk, user, bool(request.data.get("public", True)))
        return Response(_tournament_data(self.tournament(pk), user))


class Players(TournamentAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Players")
    def get(self, request, pk):
        t = self.tournament(pk)
        rows = []
        for entry in selectors.entries(t):
            row = TournamentEntrySerializer(entry).data
            row["lists_visible"] = selectors.can_see_lists(t, request.user, entry)
            rows.append(row)
        return Response({"results": rows})


class DeckLists(TournamentAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT, summary="A player's deck lists (when visible to you)"
    )
    def get(self, request, pk, entry):
        t = self.tournament(pk)
        found = (
            t.entries.select_related(
                "user", "french_version__deck", "british_version__deck", "prussian_version__deck"
            )
            .filter(pk=entry)
            .first()
            if str(entry).isdigit()
            else None
        )
        if found is None:
            raise services.NotFound("no such player in this tournament")
        return Response(
            {
                "entry": found.pk,
                "player": found.user.username,
                "decks": selectors.deck_lists(t, request.user, found),
            }
        )


class Rounds(TournamentAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT, summary="Rounds", operation_id="tournaments_rounds_list"
    )
    def get(self, request, pk):
        t = self.tournament(pk)
        return Response({"results": RoundSerializer(selectors.rounds(t), many=True).data})


class RoundDetail(TournamentAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="A round and its pairings")
    def get(self, request, pk, number):
        rnd = selectors.round_of(self.tournament(pk), number)
        return Response(
            {
                **RoundSerializer(rnd).data,
                "matches": MatchSerializer(selectors.pairings(rnd), many=True).data,
            }
        )


class MyMatch(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT, summary="My current match")
    def get(self, request, pk):
        t = self.tournament(pk)
        m = selectors.current_match(t, request.user)
        if m is None:
            raise services.NotFound("you have no match in this tournament yet")
        data = MatchSerializer(m).data
        entry = selectors.entry_of(t, request.user)
        data["my_side"] = "french" if m.french_id == entry.pk else "allied"
        report = m.reports.filter(entry=entry).first()
        data["my_report"] = None if report is None else _report_data(report)
        # online: the match's games (any kind), game order, with the side the player has in
        # each; ``battles``: the same rows of a battle tournament (its name before other games)
        data["games"] = [
            {"game": link.game, "kind": link.kind, "id": link.played_id,
             "url": registry.page_url(link.kind, link.played_id),
             "status": link.played.status,
             "my_side": "french" if link.played.french_player_id == request.user.pk
             else "allied"}
            for link in attach_played(list(m.game_links.order_by("game")))]
        data["battles"] = [{"game": row["game"], "battle": row["id"], "status": row["status"],
                            "my_side": row["my_side"]}
                           for row in data["games"] if row["kind"] == BATTLE]
        return Response(data)


class Disputes(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Disputed matches (organiser)")
    def get(self, request, pk):
        t = self.tournament(pk)
        require_organiser(t, request.user)
        out = []
        for m in selectors.disputes(t):
            row = MatchSerializer(m).data
            row["reports"] = [{"entry": r.entry_id, **_report_data(r)} for r in m.reports.all()]
            out.append(row)
        return Response({"results": out})


class Standings(TournamentAPIView):
    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        summary="Standings with how each figure was computed, a page at a time",
        parameters=[OpenApiParameter("round", int),
                    OpenApiParameter("page", int, description="From 1 (default 1)."),
                    OpenApiParameter("limit", int, description="Rows per page (default "
                                     f"{selectors.STANDINGS_PAGE}, at most "
                                     f"{selectors.MAX_STANDINGS_PAGE})."),
                    OpenApiParameter("find", str, description="A player's name: the page "
                                     "with their row (\"me\": mine).")],
    )
    def get(self, request, pk):
        query = request.query_params
        find = query.get("find", "")
        if find == "me" and request.user.is_authenticated:
            find = request.user.username
        table = selectors.standings(self.tournament(pk), query.get("round"))
        return Response(selectors.standings_page(table, query.get("page"), query.get("limit"),
                                                 find))


class Export(TournamentAPIView):
    kind = ""

    @extend_schema(
        responses={(200, "text/plain"): OpenApiTypes.STR}, summary="Export (CSV or FIDE TRF)"
    )
    def get(self, request, pk):
        t = self.tournament(pk)
        if self.kind == "standings":
            body, ctype, name = exports.standings_csv(t), "text/csv", "standings.csv"
        elif self.kind == "pairings":
            body, ctype, name = exports.pairings_csv(t), "text/csv", "pairings.csv"
        else:
            body, ctype, name = exports.trf(t), "text/plain", "tournament.trf"
        response = HttpResponse(body, content_type=f"{ctype}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="t{t.pk}-{name}"'
        return response


class Webhooks(TournamentAPIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Webhook deliveries (organiser)")
    def get(self, request, pk):
        t = self.tournament(pk)
        require_organiser(t, request.user)
        rows = list(
            t.webhook_deliveries.values(
                "id",
                "event",
                "key",
                "state",
                "attempts",
                "last_status",
                "last_error",
                "created_at",
                "delivered_at",
            )
        )
        return Response({"results": rows})


class MatchDetail(TournamentAPIView):
    @extend_schema(responses=MatchSerializer, summary="A match")
    def get(self, request, pk):
        return Response(MatchSerializer(selectors.match(pk)).data)


class MatchAction(TournamentAPIView):
    """POST report (player) / settle / correct (organiser, with ``reason``)."""

    permission_classes = [permissions.IsAuthenticated]
    action = ""

    @extend_schema(
        request=ResultInput,
        responses=MatchSerializer,
        summary="Report (player), settle or correct (organiser)",
    )
    def post(self, request, pk):
        result = _result(request.data)
        reason = str(request.data.get("reason", ""))
        if self.action == "report":
            m = services.report_result(pk, request.user, result)
        elif self.action == "settle":
            m = services.settle_dispute(pk, request.user, result, reason)
        else:
            m = services.correct_result(pk, request.user, result, reason)
        return Response(MatchSerializer(selectors.match(m.pk)).data)


class MatchLog(TournamentAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Every result that entered this match")
    def get(self, request, pk):
        m = selectors.match(pk)
        return Response({"results": ResultLogSerializer(selectors.result_log(m), many=True).data})
