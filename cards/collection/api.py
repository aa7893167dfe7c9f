"""Collection, wants, starter decks and trades API: thin views over the services.

Errors are {"detail": "..."} with a 4xx status: 400 bad input, 404 not found (including another
user's trade or want), 403 not allowed, 409 a trade that can no longer be completed.
"""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, parsers, permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.parsers import CleanFormParser, CleanMultiPartParser, ObjectJSONParser

from ..models import Card, CollectionEntry, StarterDeck, Trade, WantEntry
from . import csv as csv_io
from . import services as svc
from . import trades
from .serializers import (
    CardBriefSerializer,
    CompletionSerializer,
    CopiesInput,
    EntryResultSerializer,
    EntrySerializer,
    ImportInput,
    ImportReportSerializer,
    ImportTextInput,
    ImportUploadInput,
    OfferInput,
    StarterDeckSerializer,
    SuggestionsSerializer,
    TradeQuantityInput,
    TradeSerializer,
    WantInput,
    WantSerializer,
    WantUpdateInput,
)


def _flatten(errors, prefix: str = "") -> list[str]:
    if isinstance(errors, dict):
        return [m for key, value in errors.items()
                for m in _flatten(value, f"{prefix}[{key}]" if str(key).isdigit() else
                                  f"{prefix}.{key}" if prefix else str(key))]
    if isinstance(errors, list):
        if all(isinstance(e, str) for e in errors):
            return [f"{prefix}: {e}" if prefix and prefix != "non_field_errors" else str(e)
                    for e in errors]
        return [m for i, e in enumerate(errors) for m in _flatten(e, f"{prefix}[{i}]")]
    return [f"{prefix}: {errors}" if prefix else str(errors)]


class ServiceView(APIView):
    """Logged-in users only. Errors take the house shape (config.api_errors); bad input names
    every field in one line."""

    permission_classes = [permissions.IsAuthenticated]
    flatten_errors = staticmethod(_flatten)

    def valid(self, serializer_class, data=None):
        serializer = serializer_class(data=self.request.data if data is None else data)
        serializer.is_valid(raise_exception=True)
        return serializer


class ServiceListView(ServiceView, generics.ListAPIView):
    pass


def entry_response(entry, code=status.HTTP_200_OK) -> Response:
    data = {"number": entry.printing.card.number, "name": entry.printing.card.name,
            "finish": entry.printing.finish, "quantity": entry.quantity,
            "trade_quantity": entry.trade_quantity}
    return Response(data, status=code)


FILTERS = [OpenApiParameter(name, str, description=desc) for name, desc in [
    ("army", "french, british or prussian"), ("type", "general, infantry, ..."),
    ("finish", "gold, silver or bronze"), ("number", "card number")]]


class CollectionView(ServiceListView):
    """GET: my collection rows (filter by army, type, finish, number). POST: add copies."""

    serializer_class = EntrySerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return CollectionEntry.objects.none()
        p = self.request.query_params
        return svc.entries(self.request.user, army=p.get("army", ""), type=p.get("type", ""),
                           finish=p.get("finish", ""), number=p.get("number"))

    @extend_schema(parameters=FILTERS)
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(request=CopiesInput, responses={201: EntryResultSerializer})
    def post(self, request):
        data = self.valid(CopiesInput).validated_data
        entry = svc.add_copies(request.user, data["number"], data["finish"], data["count"])
        return entry_response(entry, status.HTTP_201_CREATED)


class AddView(ServiceView):
    @extend_schema(request=CopiesInput, responses=EntryResultSerializer)
    def post(self, request):
        data = self.valid(CopiesInput).validated_data
        return entry_response(svc.add_copies(request.user, data["number"], data["finish"],
                                             data["count"]))


class RemoveView(ServiceView):
    @extend_schema(request=CopiesInput, responses=EntryResultSerializer)
    def post(self, request):
        data = self.valid(CopiesInput).validated_data
        return entry_response(svc.remove_copies(request.user, data["number"], data["finish"],
                                                data["count"]))


class TradeQuantityView(ServiceView):
    @extend_schema(request=TradeQuantityInput, responses=EntryResultSerializer)
    def post(self, request):
        data = self.valid(TradeQuantityInput).validated_data
        return entry_response(svc.set_trade_quantity(request.user, data["number"],
                                                     data["finish"], data["trade_quantity"]))


class CompletionView(ServiceView):
    @extend_schema(responses=CompletionSerializer)
    def get(self, request):
        return Response(svc.completion(request.user))


@extend_schema_view(get=extend_schema(parameters=[
    OpenApiParameter("army", str, description="french, british or prussian")]))
class MissingView(ServiceListView):
    serializer_class = CardBriefSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Card.objects.none()
        return svc.missing_cards(self.request.user, self.request.query_params.get("army", ""))


class CsvTextParser(parsers.BaseParser):
    """A raw CSV body (text/csv or text/plain): passed on as bytes."""

    media_type = "text/*"

    def parse(self, stream, media_type=None, parser_context=None):
        return {"csv_bytes": stream.read(csv_io.MAX_BYTES + 1) if stream else b""}


class ImportView(ServiceView):
    """Multipart (`file`, `mode`), JSON (`csv`, `mode`) or a text/csv body (?mode=...)."""

    parser_classes = [CleanMultiPartParser, CleanFormParser, ObjectJSONParser,
                      CsvTextParser]

    @extend_schema(
        request={"multipart/form-data": ImportUploadInput,
                 "application/json": ImportTextInput,
                 "text/csv": OpenApiTypes.STR},
        parameters=[OpenApiParameter("mode", str, enum=["add", "replace"],
                                     description="For a text/csv body (and the default when the"
                                                 " body has no mode): add or replace")],
        responses=ImportReportSerializer)
    def post(self, request):
        raw = request.data
        if raw is None or not hasattr(raw, "keys"):  # e.g. a body with no content type
            raise svc.ServiceError("send the CSV as a 'file' upload, as 'csv' text or as"
                                   " a text/csv body")
        if "csv_bytes" in raw:
            data = self.valid(ImportInput, {"mode": request.query_params.get("mode", "add")})
            content = raw["csv_bytes"]
        else:
            fields = {key: raw[key] for key in ("mode", "csv", "file") if key in raw}
            fields.setdefault("mode", request.query_params.get("mode", "add"))
            data = self.valid(ImportInput, fields)
            upload = data.validated_data.get("file")
            if upload is not None:
                content = upload.read(csv_io.MAX_BYTES + 1)
            elif "csv" in data.validated_data:
                content = data.validated_data["csv"]
            else:
                raise svc.ServiceError("send the CSV as a 'file' upload, as 'csv' text or as"
                                       " a text/csv body")
        report = csv_io.import_csv(request.user, content, data.validated_data["mode"])
        return Response(report.as_dict())


class ExportView(ServiceView):
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request):
        response = HttpResponse(csv_io.export_csv(request.user),
                                content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="eagles-collection.csv"'
        return response


class WantsView(ServiceListView):
    """GET: my want list, with copies owned and still missing. POST: set a want (0 removes)."""

    serializer_class = WantSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return WantEntry.objects.none()
        return svc.wants(self.request.user)

    @extend_schema(request=WantInput, responses={201: WantSerializer, 204: None})
    def post(self, request):
        data = self.valid(WantInput).validated_data
        want = svc.set_want(request.user, data["number"], data["finish"], data["quantity"])
        if want is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        row = next(r for r in svc.wants(request.user) if r["want"].id == want.id)
        return Response(WantSerializer(row).data, status=status.HTTP_201_CREATED)


class WantDetailView(ServiceView):
    def _row(self, want_id):
        want = svc.get_want(self.request.user, want_id)
        return next(r for r in svc.wants(self.request.user) if r["want"].id == want.id)

    @extend_schema(responses=WantSerializer)
    def get(self, request, want_id: int):
        return Response(WantSerializer(self._row(want_id)).data)

    @extend_schema(request=WantUpdateInput, responses=WantSerializer)
    def patch(self, request, want_id: int):
        want = svc.get_want(request.user, want_id)
        data = self.valid(WantUpdateInput).validated_data
        quantity = svc.parse_whole(data["quantity"], "quantity", 1, svc.MAX_QUANTITY)
        svc.set_want(request.user, want.card.number, want.finish, quantity)
        return Response(WantSerializer(self._row(want_id)).data)

    @extend_schema(responses={204: None})
    def delete(self, request, want_id: int):
        svc.remove_want(request.user, want_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StarterDecksView(ServiceListView):
    """GET: the starter decks I opened. POST: open one (60 random cards added to my
    collection; its seed reproduces it)."""

    serializer_class = StarterDeckSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return StarterDeck.objects.none()
        return StarterDeck.objects.filter(user=self.request.user).order_by("-opened_at", "-id")

    @extend_schema(request=None, responses={201: StarterDeckSerializer})
    def post(self, request):
        deck = svc.open_starter_deck(request.user)
        return Response(StarterDeckSerializer(deck).data, status=status.HTTP_201_CREATED)


class StarterDeckDetailView(ServiceView):
    @extend_schema(responses=StarterDeckSerializer)
    def get(self, request, deck_id: int):
        deck = StarterDeck.objects.filter(user=request.user, id=deck_id).first()
        if deck is None:
            raise svc.NotFound("no such starter deck")
        return Response(StarterDeckSerializer(deck).data)


@extend_schema_view(get=extend_schema(parameters=[
    OpenApiParameter("status", str, description="offered, accepted, declined or cancelled")]))
class TradesView(ServiceListView):
    """GET: trades I proposed or received (?status=offered...). POST: offer a trade."""

    serializer_class = TradeSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Trade.objects.none()
        return trades.trades_for(self.request.user, self.request.query_params.get("status", ""))

    @extend_schema(request=OfferInput, responses={201: TradeSerializer})
    def post(self, request):
        data = self.valid(OfferInput)
        trade = trades.offer_trade(request.user, data.validated_data["recipient"],
                                   data.lines("give"), data.lines("receive"),
                                   data.validated_data["message"])
        return Response(trades.trade_summary(trade), status=status.HTTP_201_CREATED)


class TradeDetailView(ServiceView):
    @extend_schema(responses=TradeSerializer)
    def get(self, request, trade_id: int):
        return Response(trades.trade_summary(trades.get_trade(request.user, trade_id)))


class TradeActionView(ServiceView):
    service = ""  # accept_trade / decline_trade / cancel_trade

    @extend_schema(request=None, responses=TradeSerializer)
    def post(self, request, trade_id: int):
        trade = getattr(trades, self.service)(request.user, trade_id)
        return Response(trades.trade_summary(trade))


class SuggestionsView(ServiceView):
    """Users whose trade list meets my want list; two-way matches first."""

    @extend_schema(responses=SuggestionsSerializer)
    def get(self, request):
        return Response({"results": [s.as_dict()
                                     for s in trades.suggest_partners(request.user)]})
