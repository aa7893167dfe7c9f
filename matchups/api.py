"""Matchup lab API (issue 14).

``POST /api/matchups/`` ``{"deck_a": version id, "deck_b": version id or null/"historical",
"bots": ["greedy", "greedy"] or "greedy,greedy", "games": N, "seed": S}``: 201 with the new
matchup (its chunks queued), 200 with the stored one when the same question was asked before.
``GET /api/matchups/<id>/``: status, progress (games played) and, once done, the results
(``matchups/stats.py``). The asker's own only: someone else's deck or matchup answers 404 as a
missing one. 400 bad input, 429 ``too_many_matchups`` (and the per-minute limit of expensive
endpoints, URL name ``api-matchup-lab``).
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import BadInput

from . import services

MatchupInput = inline_serializer("MatchupInput", {
    "deck_a": serializers.IntegerField(help_text="one of your deck versions"),
    "deck_b": serializers.CharField(required=False, allow_null=True,
                                    help_text='a deck version id, or null / "historical"'),
    "bots": serializers.JSONField(required=False, help_text='["greedy", "random"] or '
                                                            '"greedy,random"'),
    "games": serializers.IntegerField(required=False, help_text="N (default 100)"),
    "seed": serializers.IntegerField(required=False),
})


class MatchupCreateView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MatchupInput, responses={201: OpenApiTypes.OBJECT,
                                                    200: OpenApiTypes.OBJECT})
    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            raise BadInput("send a JSON object: deck_a, deck_b, bots, games, seed")
        unknown = sorted(set(data) - {"deck_a", "deck_b", "bots", "games", "seed"})
        if unknown:
            raise BadInput(f"unknown field {unknown[0]!r}; known: bots, deck_a, deck_b, "
                           f"games, seed")
        if "deck_a" not in data:
            raise BadInput("deck_a is required: the id of one of your deck versions")
        m, created = services.ask(request.user, data.get("deck_a"), data.get("deck_b"),
                                  data.get("bots"), data.get("games"), data.get("seed"))
        return Response(services.as_dict(m),
                        status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class MatchupDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, pk: int):
        return Response(services.as_dict(services.matchup_of(request.user, pk)))
