"""Serializers for the collection, wants, starter decks and trades API.

Input serializers only check that the fields are there; the values (card numbers, printings,
quantities) are checked by the services, which give the precise messages.
"""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..models import CollectionEntry, StarterDeck
from .services import starter_summary
from .trades import trade_summary


class AnyValue(serializers.Field):
    """Passed through as given (JSON number or form string); the service validates it."""

    def to_internal_value(self, data):
        return data

    def to_representation(self, value):
        return value


@extend_schema_field(OpenApiTypes.INT)
class IntValue(AnyValue):
    """Documented as an integer; passed through as given, like AnyValue."""


@extend_schema_field(OpenApiTypes.STR)
class StrValue(AnyValue):
    """Documented as a string; passed through as given, like AnyValue."""


class CopiesInput(serializers.Serializer):
    number = IntValue(help_text="Card number 1-300")
    finish = StrValue(help_text="gold, silver or bronze")
    count = IntValue(required=False, default=1, help_text="Copies, 1-9999 (default 1)")


class TradeQuantityInput(serializers.Serializer):
    number = IntValue(help_text="Card number 1-300")
    finish = StrValue(help_text="gold, silver or bronze")
    trade_quantity = IntValue(help_text="How many of the copies you own you would trade")


class WantInput(serializers.Serializer):
    number = IntValue(help_text="Card number 1-300")
    finish = StrValue(required=False, default="", help_text="gold/silver/bronze, '' for any")
    quantity = IntValue(required=False, default=1, help_text="0 removes the want")


class WantUpdateInput(serializers.Serializer):
    quantity = IntValue(help_text="Copies wanted, at least 1")


class TradeLineInput(serializers.Serializer):
    number = IntValue(help_text="Card number 1-300")
    finish = StrValue(help_text="gold, silver or bronze")
    quantity = IntValue(required=False, default=1)


class OfferInput(serializers.Serializer):
    recipient = serializers.CharField(max_length=150, help_text="Username")
    give = serializers.ListField(child=TradeLineInput(), required=False, default=list,
                                 max_length=100, help_text="Cards you give")
    receive = serializers.ListField(child=TradeLineInput(), required=False, default=list,
                                    max_length=100, help_text="Cards you receive")
    message = serializers.CharField(required=False, allow_blank=True, default="",
                                    max_length=500)

    def lines(self, side: str) -> list[tuple]:
        return [(x["number"], x["finish"], x["quantity"]) for x in self.validated_data[side]]


class ImportInput(serializers.Serializer):
    mode = serializers.ChoiceField(choices=["add", "replace"], default="add")
    file = serializers.FileField(required=False)
    csv = serializers.CharField(required=False, trim_whitespace=False, allow_blank=True)


# --- Documentation-only shapes (the views build these responses as plain dicts) -----------

IMPORT_MODE_HELP = "add (default) adds the file's copies; replace makes the collection the file"


@extend_schema_field(OpenApiTypes.BINARY)
class UploadField(serializers.FileField):
    """A file upload, documented as binary content."""


class ImportUploadInput(serializers.Serializer):
    """A multipart upload: the CSV file and the mode."""

    mode = serializers.ChoiceField(choices=["add", "replace"], default="add",
                                   help_text=IMPORT_MODE_HELP)
    file = UploadField(help_text="The CSV file (UTF-8, at most 1 MB)")


class ImportTextInput(serializers.Serializer):
    """A JSON body: the CSV as text and the mode."""

    mode = serializers.ChoiceField(choices=["add", "replace"], default="add",
                                   help_text=IMPORT_MODE_HELP)
    csv = serializers.CharField(trim_whitespace=False, allow_blank=True,
                                help_text="The CSV text (at most 1 MB)")


class ImportReportSerializer(serializers.Serializer):
    mode = serializers.CharField()
    rows = serializers.IntegerField(help_text="CSV rows read")
    copies = serializers.IntegerField(help_text="Copies in the file")
    entries_before = serializers.IntegerField()
    entries_after = serializers.IntegerField()


class EntryResultSerializer(serializers.Serializer):
    """One collection row after a change."""

    number = serializers.IntegerField()
    name = serializers.CharField()
    finish = serializers.CharField()
    quantity = serializers.IntegerField()
    trade_quantity = serializers.IntegerField()


class ProgressSerializer(serializers.Serializer):
    owned = serializers.IntegerField()
    total = serializers.IntegerField()
    percent = serializers.FloatField()


class GroupProgressSerializer(serializers.Serializer):
    cards = ProgressSerializer(help_text="Distinct cards owned in any finish")
    printings = ProgressSerializer(help_text="Card-printings (card and finish) owned")


class CompletionSerializer(serializers.Serializer):
    cards = ProgressSerializer(help_text="Distinct cards owned, of all cards")
    printings = ProgressSerializer(help_text="Card-printings owned, of all printings")
    copies = serializers.IntegerField(help_text="All copies owned")
    by_army = serializers.DictField(child=GroupProgressSerializer(), help_text="Keyed by army")
    by_type = serializers.DictField(child=GroupProgressSerializer(),
                                    help_text="Keyed by card type")
    by_finish = serializers.DictField(child=ProgressSerializer(),
                                      help_text="Keyed by finish: printings of that finish")


class SuggestedCardSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    finish = serializers.CharField()
    available = serializers.IntegerField(help_text="Copies on the owner's trade list")


class SuggestionSerializer(serializers.Serializer):
    username = serializers.CharField()
    two_way = serializers.BooleanField(help_text="They also want something I would trade")
    they_have = SuggestedCardSerializer(many=True, help_text="Their trade list, my want list")
    they_want = SuggestedCardSerializer(many=True, help_text="My trade list, their want list")


class SuggestionsSerializer(serializers.Serializer):
    results = SuggestionSerializer(many=True)


class EntrySerializer(serializers.ModelSerializer):
    number = serializers.IntegerField(source="printing.card.number")
    name = serializers.CharField(source="printing.card.name")
    army = serializers.CharField(source="printing.card.army")
    type = serializers.CharField(source="printing.card.type")
    finish = serializers.CharField(source="printing.finish")
    rarity = serializers.CharField(source="printing.rarity")

    class Meta:
        model = CollectionEntry
        fields = ["number", "name", "army", "type", "finish", "rarity", "quantity",
                  "trade_quantity"]


class CardBriefSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    army = serializers.CharField()
    type = serializers.CharField()


class WantSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="want.id")
    number = serializers.IntegerField(source="want.card.number")
    name = serializers.CharField(source="want.card.name")
    finish = serializers.CharField(source="want.finish")
    quantity = serializers.IntegerField(source="want.quantity")
    owned = serializers.IntegerField()
    missing = serializers.IntegerField()


class StarterDeckSerializer(serializers.ModelSerializer):
    summary = serializers.SerializerMethodField()

    class Meta:
        model = StarterDeck
        fields = ["id", "seed", "catalogue_version", "opened_at", "printings", "summary"]

    def get_summary(self, deck) -> dict:
        return starter_summary(deck)


class TradeLineSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    finish = serializers.CharField()
    quantity = serializers.IntegerField()


class TradeSerializer(serializers.Serializer):
    """Output only: the fields document ``trade_summary``, which builds the data."""

    id = serializers.IntegerField()
    proposer = serializers.CharField(help_text="Username")
    recipient = serializers.CharField(help_text="Username")
    status = serializers.CharField(help_text="offered, accepted, declined or cancelled")
    message = serializers.CharField()
    created_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    give = TradeLineSerializer(many=True, help_text="Cards the proposer gives")
    receive = TradeLineSerializer(many=True, help_text="Cards the proposer receives")

    def to_representation(self, trade):
        return trade_summary(trade)
