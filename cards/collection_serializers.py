"""Serializers for the collection, wants, starter decks and trades API.

Input serializers only check that the fields are there; the values (card numbers, printings,
quantities) are checked by the services, which give the precise messages.
"""

from rest_framework import serializers

from .collection_services import starter_summary
from .models import CollectionEntry, StarterDeck
from .trades import trade_summary


class AnyValue(serializers.Field):
    """Passed through as given (JSON number or form string); the service validates it."""

    def to_internal_value(self, data):
        return data

    def to_representation(self, value):
        return value


class CopiesInput(serializers.Serializer):
    number = AnyValue(help_text="Card number 1-300")
    finish = AnyValue(help_text="gold, silver or bronze")
    count = AnyValue(required=False, default=1, help_text="Copies, 1-9999 (default 1)")


class TradeQuantityInput(serializers.Serializer):
    number = AnyValue()
    finish = AnyValue()
    trade_quantity = AnyValue(help_text="How many of the copies you own you would trade")


class WantInput(serializers.Serializer):
    number = AnyValue()
    finish = AnyValue(required=False, default="", help_text="gold/silver/bronze, '' for any")
    quantity = AnyValue(required=False, default=1, help_text="0 removes the want")


class WantUpdateInput(serializers.Serializer):
    quantity = AnyValue()


class TradeLineInput(serializers.Serializer):
    number = AnyValue()
    finish = AnyValue()
    quantity = AnyValue(required=False, default=1)


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


class TradeSerializer(serializers.Serializer):
    def to_representation(self, trade):
        return trade_summary(trade)
