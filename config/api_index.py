"""``GET /api/``: where the API's description lives. The simplest DRF endpoint there is (no
database, no models), so it doubles as the health check of a web process behind a proxy and
as the bare baseline of ``bench/request_cpu.py``."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

INDEX = {"schema": "/api/schema/", "docs": "/api/docs/"}


class ApiIndex(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=inline_serializer("ApiIndex", {
        "schema": serializers.CharField(), "docs": serializers.CharField()}))
    def get(self, request: Request) -> Response:
        return Response(INDEX)
