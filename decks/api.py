"""Deck API: thin views over ``decks`` (services, checks, exchange, inputs) and selectors.

Owner only: another user's deck answers 404, as if it did not exist. Errors are the house
shape ``{"detail": "...", "code": "...", "problems": [...]}`` with a 4xx status: 400 bad input
(nothing saved), 404 not found, 409 a deck locked by a tournament (``deck_locked``).
``POST /api/decks/validate/`` and ``GET /api/shared-decks/<token>/`` are open to anyone.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from config.errors import NotFound

from . import checks, exchange, inputs, selectors, services
from .catalogue import cards_by_number
from .models import Deck, DeckVersion
from .serializers import (
    DeckCreateInput,
    DeckListSerializer,
    DeckUpdateInput,
    SeedInput,
    SharedDeckSerializer,
    ValidateInput,
    VersionSerializer,
    entry_dicts,
)
from .stats import deck_statistics


class AsciiJSONRenderer(JSONRenderer):
    """JSON with non-ASCII escaped: text echoed from input can never fail to encode."""

    ensure_ascii = True


class IgnoreFormatParam(DefaultContentNegotiation):
    """``?format=text|code`` names the export format here, not a renderer."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


def _flatten(errors, prefix: str = "") -> list[str]:
    if isinstance(errors, dict):
        return [m for key, value in errors.items()
                for m in _flatten(value, str(key) if key != "non_field_errors" else prefix)]
    if isinstance(errors, list):
        return [m for e in errors for m in _flatten(e, prefix)]
    return [f"{prefix}: {errors}" if prefix else str(errors)]


class DeckAPIView(APIView):
    """Logged-in owners only. Errors take the house shape (config.api_errors); bad input
    names every field in one line; lookups answer 404 "No such deck." / "No such version."."""

    permission_classes = [permissions.IsAuthenticated]
    renderer_classes = [AsciiJSONRenderer]
    flatten_errors = staticmethod(_flatten)

    def valid(self, serializer_class, **context) -> dict:
        serializer = serializer_class(data=self.request.data, context=context)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def deck(self, pk) -> Deck:
        try:
            return selectors.deck_of(self.request.user, pk)
        except Deck.DoesNotExist:
            raise NotFound(NO_DECK) from None

    def version(self, deck: Deck) -> DeckVersion:
        """``?version=N`` or the latest version."""
        number = self.request.query_params.get("version")
        if number is None:
            latest = deck.latest
            if latest is None:
                raise NotFound(NO_VERSION)
            return latest
        if not (number.isascii() and number.isdigit() and len(number) < 10):
            raise inputs.DeckInputError("version must be a version number")
        return version_of(deck, int(number))


# The lookups' refusals: another user's deck is "no such deck" (its existence stays private).
NO_DECK = "No such deck."
NO_VERSION = "No such version."


def version_of(deck: Deck, number: int) -> DeckVersion:
    """Version ``number`` of ``deck``, or the house 404."""
    try:
        return selectors.version_of(deck, number)
    except DeckVersion.DoesNotExist:
        raise NotFound(NO_VERSION) from None


def deck_detail(request, deck: Deck) -> dict:
    """A deck as its owner sees it: settings, latest version, its check against the owner's
    collection now, the playable version and the deck code."""
    deck = selectors.decks_of(deck.owner).get(pk=deck.pk)
    data = DeckListSerializer(deck).data
    latest = deck.latest
    cards = cards_by_number()
    playable = selectors.playable_version(deck)
    data["share_token"] = deck.share_token
    data["share_url"] = (reverse("api-shared-deck", args=[deck.share_token], request=request)
                         if deck.share_token else None)
    data["latest"] = VersionSerializer(latest, context={"cards": cards}).data if latest else None
    data["check"] = checks.check_version(latest, deck.owner).to_dict() if latest else None
    data["playable_version"] = playable.number if playable else None
    try:
        data["code"] = exchange.deck_code(latest) if latest else None
    except inputs.DeckInputError:
        data["code"] = None
    return data


def _settings(data: dict) -> dict:
    return {k: data[k] for k in ("battle", "army", "kind", "scale", "historical", "pool")
            if k in data}


class DeckListView(DeckAPIView):
    pagination_class = PageNumberPagination

    @extend_schema(responses=DeckListSerializer(many=True), summary="My decks")
    def get(self, request):
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.decks_of(request.user), request, view=self)
        return paginator.get_paginated_response(DeckListSerializer(page, many=True).data)

    @extend_schema(request=DeckCreateInput, responses={201: OpenApiTypes.OBJECT},
                   summary="Create a deck from entries, a deck-list text or a deck code")
    def post(self, request):
        data = self.valid(DeckCreateInput)
        text = {k: data[k] for k in ("description", "note") if k in data}
        if "code" in data or "decklist" in data:  # a code is recognised in either field
            pasted = data.get("code", data.get("decklist"))
            deck = exchange.import_pasted(request.user, text=pasted, name=data["name"],
                                          as_code="code" in data, **_settings(data))
            if text:
                services.save_version(deck, description=text.get("description"),
                                      note=text.get("note", ""))
        else:
            deck = services.create_deck(request.user, name=data["name"],
                                        entries=data.get("entries", ()), **_settings(data),
                                        **text)
        return Response(deck_detail(request, deck), status=status.HTTP_201_CREATED)


class DeckDetailView(DeckAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="One of my decks")
    def get(self, request, pk):
        return Response(deck_detail(request, self.deck(pk)))

    def _save(self, request, pk, full: bool):
        deck = self.deck(pk)
        data = self.valid(DeckUpdateInput, full=full)
        entries = data.get("entries")
        if "decklist" in data:
            entries = inputs.parse_text(data["decklist"])
        services.save_version(deck, entries=entries, name=data.get("name"),
                              description=data.get("description"), note=data.get("note", ""),
                              **_settings(data))
        return Response(deck_detail(request, deck))

    @extend_schema(request=DeckUpdateInput, responses=OpenApiTypes.OBJECT,
                   summary="Save a new version (only what is sent changes)")
    def patch(self, request, pk):
        return self._save(request, pk, full=False)

    @extend_schema(request=DeckUpdateInput, responses=OpenApiTypes.OBJECT,
                   summary="Save a new version (the whole deck is sent)")
    def put(self, request, pk):
        return self._save(request, pk, full=True)

    @extend_schema(responses={204: None}, summary="Delete a deck and its versions")
    def delete(self, request, pk):
        services.delete_deck(self.deck(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


def _diff(diff: dict, cards: dict) -> dict:
    return {key: [{"number": n, "count": c, "name": (cards.get(n) or {}).get("name")}
                  for n, c in diff[key]] for key in ("added", "removed")}


class VersionListView(DeckAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Versions, newest first, with diffs",
                   operation_id="decks_versions_list")
    def get(self, request, pk):
        deck = self.deck(pk)
        cards = cards_by_number()
        rows = [{"id": row["version"].pk, "number": row["number"],
                 "created_at": row["created_at"], "note": row["note"], "valid": row["valid"],
                 "size": row["size"], "bp_total": row["bp_total"], "locked": row["locked"],
                 **_diff(row, cards)}
                for row in selectors.history(deck)]
        return Response({"count": len(rows), "results": rows})


class VersionDetailView(DeckAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="One version with its diff")
    def get(self, request, pk, number):
        deck = self.deck(pk)
        version = version_of(deck, number)
        previous = deck.versions.filter(number__lt=number).order_by("-number").first()
        cards = cards_by_number()
        data = VersionSerializer(version, context={"cards": cards}).data
        data["diff"] = _diff(selectors.version_diff(previous, version), cards)
        data["previous"] = previous.number if previous else None
        return Response(data)


class ExportView(DeckAPIView):
    content_negotiation_class = IgnoreFormatParam

    @extend_schema(parameters=[
        OpenApiParameter("format", str, enum=["text", "code"], description="text (default) "
                         "or code"),
        OpenApiParameter("version", int, required=False)],
        responses=OpenApiTypes.OBJECT, summary="Export as deck-list text or deck code")
    def get(self, request, pk):
        deck = self.deck(pk)
        version = self.version(deck)
        kind = request.query_params.get("format", "text")
        if kind == "text":
            content = exchange.export_decklist(version)
        elif kind == "code":
            content = exchange.deck_code(version)
        else:
            raise inputs.DeckInputError("format must be text or code")
        return Response({"format": kind, "version": version.number, "content": content})


class StatsView(DeckAPIView):
    @extend_schema(parameters=[OpenApiParameter("version", int, required=False)],
                   responses=OpenApiTypes.OBJECT, summary="Deck statistics")
    def get(self, request, pk):
        version = self.version(self.deck(pk))
        data = services.version_statistics(version)
        data["version"] = version.number
        return Response(data)


class SampleMusterView(DeckAPIView):
    @extend_schema(request=SeedInput, responses=OpenApiTypes.OBJECT,
                   summary="Deal a sample muster (the same seed deals the same muster)")
    def post(self, request, pk):
        deck = self.deck(pk)
        data = self.valid(SeedInput)
        version = version_of(deck, data["version"]) if data.get("version") else deck.latest
        if version is None:
            raise NotFound(NO_VERSION)
        dealt = services.sample_muster(version, data.get("seed"))
        cards = cards_by_number()
        dealt["cards"] = [{"number": n, "name": (cards.get(n) or {}).get("name")}
                          for n in dealt["muster"]]
        dealt["version"] = version.number
        return Response(dealt)


class WantsView(DeckAPIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT,
                   summary="Put the cards I am missing for this deck on my want list")
    def post(self, request, pk):
        added = services.add_missing_to_wants(request.user, self.deck(pk))
        return Response({"added": [{"number": n, "count": c} for n, c in added]})


class ShareView(DeckAPIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, summary="Share read-only")
    def post(self, request, pk):
        token = services.share(self.deck(pk))
        return Response({"token": token, "url": reverse("api-shared-deck", args=[token],
                                                        request=request)})

    @extend_schema(responses={204: None}, summary="Stop sharing")
    def delete(self, request, pk):
        services.unshare(self.deck(pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SharedDeckView(DeckAPIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT, summary="A shared deck (public, read-only)")
    def get(self, request, token):
        try:
            deck = selectors.shared_deck(token)
        except Deck.DoesNotExist:
            raise NotFound(NO_DECK) from None
        latest = deck.latest
        if latest is None:
            raise NotFound(NO_DECK)
        cards = cards_by_number()
        data = SharedDeckSerializer(deck).data
        data["version"] = latest.number
        data["entries"] = entry_dicts(latest.entries, cards)
        data["check"] = checks.check_version(latest).to_dict()
        try:
            data["code"] = exchange.deck_code(latest)
        except inputs.DeckInputError:
            data["code"] = None
        data["stats"] = deck_statistics(latest.entries, cards)
        return Response(data)


class ValidateView(DeckAPIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=ValidateInput, responses=OpenApiTypes.OBJECT,
                   summary="Check a list without saving it (entries, decklist or code)")
    def post(self, request):
        data = self.valid(ValidateInput)
        user = request.user if request.user.is_authenticated else None
        return Response(checks.check_posted(
            entries=data.get("entries"), decklist=data.get("decklist"), code=data.get("code"),
            pool=data.get("pool"), user=user,
            **{"kind": "custom", "scale": "1", "historical": False,
               **{k: v for k, v in _settings(data).items() if k != "pool"}}))


class UsageView(DeckAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT,
                   summary="For each card: which of my decks use it (latest versions)")
    def get(self, request):
        using = selectors.decks_using_cards(request.user)
        return Response({"cards": [
            {"number": number, "decks": [{"id": d.id, "name": d.name} for d in decks]}
            for number, decks in sorted(using.items())]})
