"""Catalogue serializers: the declared fields document the schema; the output is
cards.catalogue.records.card_record (one shape for export and API) plus the printings, built
directly for speed (no per-field serializer machinery on the hot path)."""

from rest_framework import serializers

from ..models import RARITY, Army, Battle, CardType, Finish, Morale, Nationality
from .records import card_record
from .selectors import card_finishes


class PrintingSerializer(serializers.Serializer):
    finish = serializers.ChoiceField(choices=Finish.choices)
    rarity = serializers.ChoiceField(choices=sorted(set(RARITY.values())))


class CardSerializer(serializers.Serializer):
    number = serializers.IntegerField(min_value=1, max_value=300)
    name = serializers.CharField()
    army = serializers.ChoiceField(choices=Army.choices)
    nationality = serializers.ChoiceField(choices=Nationality.choices, allow_null=True)
    type = serializers.ChoiceField(choices=CardType.choices)
    ob_corps = serializers.CharField(allow_null=True)
    ob_division = serializers.CharField(allow_null=True)
    ob_brigade = serializers.CharField(allow_null=True)
    battles = serializers.ListField(child=serializers.CharField(),
                                    help_text="battles fought: quatre-bras, ligny, wavre,"
                                              " waterloo")
    bp = serializers.IntegerField(help_text="Battle Points (15.0)")
    cv = serializers.IntegerField(allow_null=True, help_text="Combat Value (7.1)")
    firepower = serializers.IntegerField(allow_null=True)
    shock = serializers.IntegerField(allow_null=True)
    fire_long = serializers.IntegerField(allow_null=True)
    fire_short = serializers.IntegerField(allow_null=True)
    artillery_kind = serializers.ChoiceField(choices=["foot", "horse"], allow_null=True)
    morale = serializers.ChoiceField(choices=Morale.choices, allow_null=True)
    offense = serializers.IntegerField(allow_null=True)
    defense = serializers.IntegerField(allow_null=True)
    corps = serializers.CharField(allow_null=True)
    chief_of_staff = serializers.BooleanField(allow_null=True)
    second_in_command = serializers.BooleanField(allow_null=True)
    terrain_battle = serializers.ChoiceField(choices=Battle.choices, allow_null=True)
    terrain_position = serializers.ChoiceField(choices=["l", "c", "r"], allow_null=True)
    terrain_class = serializers.ChoiceField(choices=["hill", "woods", "river", "building"],
                                            allow_null=True)
    move_limit = serializers.IntegerField(allow_null=True)
    special_text = serializers.CharField(allow_null=True)
    special_timing = serializers.CharField(allow_null=True)
    special_restrictions = serializers.ListField(child=serializers.CharField(),
                                                 allow_null=True)
    effect = serializers.JSONField(allow_null=True)
    men = serializers.IntegerField(allow_null=True)
    guns = serializers.IntegerField(allow_null=True)
    source = serializers.CharField()
    ob = serializers.CharField(allow_null=True, help_text="corps/division/brigade (17.4)")
    data_version = serializers.CharField()
    printings = PrintingSerializer(many=True)

    def to_representation(self, card):
        record = card_record(card)
        record["printings"] = [{"finish": finish, "rarity": RARITY[finish]}
                               for finish in card_finishes(card)]
        return record


class CountsSerializer(serializers.Serializer):
    french = serializers.IntegerField()
    british = serializers.IntegerField()
    prussian = serializers.IntegerField()


class SearchFieldSerializer(serializers.Serializer):
    name = serializers.CharField()
    aliases = serializers.ListField(child=serializers.CharField())
    kind = serializers.ChoiceField(choices=["number", "morale", "enum", "flag", "text"])
    operators = serializers.ListField(child=serializers.CharField())
    help = serializers.CharField()
    values = serializers.DictField(child=serializers.ListField(child=serializers.CharField()),
                                   required=False, help_text="canonical value -> aliases")


class SearchLanguageSerializer(serializers.Serializer):
    operators = serializers.ListField(child=serializers.CharField())
    fields = SearchFieldSerializer(many=True)


class CatalogueSerializer(serializers.Serializer):
    version = serializers.CharField(allow_null=True, help_text="catalogue data version loaded")
    cards = serializers.IntegerField()
    by_army = CountsSerializer()
    by_type = serializers.DictField(child=serializers.IntegerField())
    by_army_and_type = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()))
    battles = serializers.ListField(child=serializers.CharField())
    search = SearchLanguageSerializer()

    def to_representation(self, instance):
        return instance


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField(required=False, help_text="the stable reason, e.g. bad_query")
    query = serializers.CharField(required=False)
    position = serializers.IntegerField(required=False, allow_null=True)
