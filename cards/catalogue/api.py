"""Catalogue API: thin views over cards.catalogue.selectors.

GET /api/cards/            search (?q=) + filters + ordering, paginated
GET /api/cards/<number>/   one card with its printings
GET /api/catalogue/        version, counts, search-language fields
"""

from __future__ import annotations

import django_filters
from django import forms
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import exceptions, generics
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from config.errors import BadInput

from ..models import Card
from .cache import records_by_number
from .search import MAX_QUERY_LENGTH, QueryError
from .selectors import (
    FIRST_NUMBER,
    LAST_NUMBER,
    ORDERING_KEYS,
    cards_matching,
    catalogue_summary,
    filter_q,
    get_card,
    ordering_fields,
)
from .serializers import CardSerializer, CatalogueSerializer, ErrorSerializer

Q_HELP = (
    "Search query, e.g. `army:french type:cavalry morale<=b bp>=8 battle:waterloo guard`. "
    "Terms are ANDed; `or` between terms; `-term` negates; parentheses group; "
    "`\"quoted values\"`; bare words match the name (accents and case ignored). "
    "Fields and aliases: GET /api/catalogue/. A malformed query answers 400 with "
    "`detail`, `query` and `position` (0-based offset)."
)


# ------------------------------------------------------------------------------- filters


class _SearchValueField(forms.CharField):
    """Cleans one filter value with the search language's rules into a Q (or None)."""

    def __init__(self, *, filter_name: str, **kwargs):
        self.filter_name = filter_name
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        if value in (None, ""):
            return None
        try:
            return filter_q(self.filter_name, value)
        except QueryError as exc:
            raise forms.ValidationError(exc.message, code="invalid") from None


class _QFilterMixin:
    field_class = _SearchValueField

    def filter(self, qs, value):
        return qs if value is None else qs.filter(value)


class SearchValueFilter(_QFilterMixin, django_filters.CharFilter):
    pass


class SearchNumberFilter(_QFilterMixin, django_filters.NumberFilter):
    def get_max_validator(self):
        return None  # the search language bounds numbers itself


class _OrderingField(forms.CharField):
    def clean(self, value):
        value = super().clean(value)
        if value in (None, ""):
            return None
        try:
            return ordering_fields(value)
        except QueryError as exc:
            raise forms.ValidationError(exc.message, code="invalid") from None


class OrderingValueFilter(django_filters.CharFilter):
    field_class = _OrderingField

    def filter(self, qs, value):
        return qs if value is None else qs.order_by(*value)


class CardFilter(django_filters.FilterSet):
    army = SearchValueFilter(filter_name="army",
                             help_text="french, british, prussian (or fr, br, p ...)")
    type = SearchValueFilter(filter_name="type", help_text="general, infantry, cavalry,"
                             " artillery, terrain, special (or gen, inf, cav, art ...)")
    nationality = SearchValueFilter(filter_name="nationality", help_text="british, kgl,"
                                    " hanoverian, brunswick, nassau, netherlands")
    morale = SearchValueFilter(filter_name="morale", help_text="a, b, c or d (exact)")
    battle = SearchValueFilter(filter_name="battle",
                               help_text="quatre-bras, ligny, wavre, waterloo")
    bp_min = SearchNumberFilter(filter_name="bp_min", help_text="Battle Points at least")
    bp_max = SearchNumberFilter(filter_name="bp_max", help_text="Battle Points at most")
    number = SearchNumberFilter(filter_name="number", help_text="card number 1-300")
    ordering = OrderingValueFilter(
        help_text=f"comma-separated among {', '.join(ORDERING_KEYS)}; prefix '-' to reverse"
                  " (default: number)")

    class Meta:
        model = Card
        fields: list[str] = []


class PreciseFilterBackend(DjangoFilterBackend):
    """Like DjangoFilterBackend, but a bad value answers 400 naming the filter and problem."""

    def filter_queryset(self, request, queryset, view):
        if not any(name in request.query_params for name in CardFilter.base_filters):
            return queryset  # the common case: skip building the filter form
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        if not filterset.is_valid():
            errors = {name: [str(m) for m in messages]
                      for name, messages in filterset.errors.items()}
            name, messages = next(iter(errors.items()))
            detail = messages[0] if messages[0].startswith(f"{name}:") else (
                f"{name}: {messages[0]}")
            raise exceptions.ValidationError({"detail": detail, "errors": errors})
        return filterset.qs


class CardPagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 300


# --------------------------------------------------------------------------------- views


def _bad_query(exc: QueryError, query: str) -> BadInput:
    """The parser's refusal as the house error: the API answers the query and the position."""
    shown = query if len(query) <= MAX_QUERY_LENGTH else query[:MAX_QUERY_LENGTH] + "..."
    return BadInput(exc.message, code="bad_query", query=shown, position=exc.position)


@extend_schema(
    summary="Search the card catalogue",
    parameters=[OpenApiParameter("q", OpenApiTypes.STR, description=Q_HELP, examples=[
        OpenApiExample("French cavalry", value="army:french type:cavalry morale<=b bp>=8"
                       " battle:waterloo guard"),
        OpenApiExample("Name", value="napoleon"),
    ]), *[OpenApiParameter(name, OpenApiTypes.INT, description=text) for name, text in (
        ("bp_min", "Battle Points at least"), ("bp_max", "Battle Points at most"),
        ("number", "card number 1-300"), ("page_size", "results per page (at most 300)"))]],
    responses={200: CardSerializer(many=True), 400: ErrorSerializer},
)
class CardListView(generics.ListAPIView):
    serializer_class = CardSerializer
    permission_classes = [AllowAny]
    filter_backends = [PreciseFilterBackend]
    filterset_class = CardFilter
    pagination_class = CardPagination

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Card.objects.none()
        query = self.request.query_params.get("q", "")
        try:
            return cards_matching(query)
        except QueryError as exc:
            raise _bad_query(exc, query) from None

    def list(self, request, *args, **kwargs):
        # Only the matching numbers come from the database; the records come from the
        # per-version cache (building 50 model instances and records was most of the cost).
        numbers = self.filter_queryset(self.get_queryset()).values_list("number", flat=True)
        page = self.paginate_queryset(numbers)
        records = records_by_number()
        return self.get_paginated_response([records[number] for number in page])



@extend_schema(
    summary="One card, with its printings",
    parameters=[OpenApiParameter("number", OpenApiTypes.INT, OpenApiParameter.PATH,
                                 description="card number 1-300")],
    responses={200: CardSerializer, 404: ErrorSerializer},
)
class CardDetailView(APIView):
    permission_classes = [AllowAny]
    serializer_class = CardSerializer

    def get(self, request, number: str):
        try:
            card = get_card(number)
        except Card.DoesNotExist:
            shown = f"#{number}" if number.isdigit() and len(number) < 10 else repr(number[:20])
            raise exceptions.NotFound(f"No card {shown}: card numbers run from {FIRST_NUMBER}"
                                      f" to {LAST_NUMBER}.") from None
        return Response(CardSerializer(card).data)


@extend_schema(summary="The catalogue loaded and the search language",
               responses={200: CatalogueSerializer})
class CatalogueView(APIView):
    permission_classes = [AllowAny]
    serializer_class = CatalogueSerializer

    def get(self, request):
        return Response(catalogue_summary())
