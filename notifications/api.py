"""Notifications API: thin views over ``services`` and ``selectors``.

* ``GET /api/notifications/``: my notifications, newest first (``?unread=1``: unread only),
  paginated, with ``unread_count`` and ``your_move_count``.
* ``POST /api/notifications/read/``: ``{"ids": [...]}`` or ``{"all": true}``.
* ``GET /api/notifications/settings/``, ``PUT`` (``{kind: {"in_app", "email"}}``, kinds left
  out unchanged): each kind's switches.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import BadInput

from . import selectors, services
from .serializers import FlagsSerializer, NotificationSerializer, ReadInput

SETTINGS_SCHEMA = inline_serializer("NotificationSettings", {
    kind: FlagsSerializer() for kind in ("your_move", "invitation", "battle_over",
                                         "round_paired", "deadline_near")})


class NotificationAPIView(APIView):
    permission_classes = [permissions.IsAuthenticated]


class NotificationList(NotificationAPIView):
    @extend_schema(responses=NotificationSerializer(many=True), operation_id="notifications_list",
                   summary="My notifications, newest first",
                   parameters=[OpenApiParameter("unread", bool, description="1: unread only")])
    def get(self, request):
        qs = services.listed(request.user)
        if request.query_params.get("unread") in ("1", "true"):
            qs = qs.filter(read_at__isnull=True)
        pager = PageNumberPagination()
        page = pager.paginate_queryset(qs, request, view=self)
        response = pager.get_paginated_response(NotificationSerializer(page, many=True).data)
        response.data["unread_count"] = selectors.unread_count(request.user)
        response.data["your_move_count"] = selectors.your_move_count(request.user)
        return response


class MarkRead(NotificationAPIView):
    @extend_schema(request=ReadInput, operation_id="notifications_read",
                   responses=inline_serializer("Marked", {
                       "marked": serializers.IntegerField(),
                       "unread_count": serializers.IntegerField()}),
                   summary="Mark some (ids) or all of my notifications read")
    def post(self, request):
        data = request.data
        if not isinstance(data, dict):
            raise BadInput("the body must be a JSON object")
        everything = data.get("all", False)
        if type(everything) is not bool:
            raise BadInput("all must be true or false")
        marked = services.mark_read(request.user, data.get("ids"), everything=everything)
        return Response({"marked": marked,
                         "unread_count": selectors.unread_count(request.user)})


class Settings(NotificationAPIView):
    @extend_schema(responses=SETTINGS_SCHEMA, operation_id="notifications_settings",
                   summary="Which notifications I get, per kind: in the list, by e-mail")
    def get(self, request):
        return Response(services.settings_of(request.user))

    @extend_schema(request=SETTINGS_SCHEMA, responses=SETTINGS_SCHEMA,
                   operation_id="notifications_settings_update",
                   summary="Switch kinds on or off (kinds left out are unchanged)")
    def put(self, request):
        return Response(services.update_settings(request.user, request.data))
