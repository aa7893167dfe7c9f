"""The spectator's view (``selectors.spectator_view``) for the API schema."""

from rest_framework import serializers

from cards.models import Battle as BattleName

from ..models import Side, Status


class PlayersSerializer(serializers.Serializer):
    french = serializers.CharField(allow_null=True)
    allied = serializers.CharField(allow_null=True)


class SpectatorViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    battle = serializers.ChoiceField(choices=BattleName.choices)
    my_side = serializers.CharField(allow_null=True, help_text="Always null: nobody's side.")
    players = PlayersSerializer(help_text='Each side\'s player: a username, "computer (<bot>)", '
                                          "or null (a seat nobody has taken).")
    seq = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Status.choices)
    view = serializers.DictField(allow_null=True,
                                 help_text="The engine's view from nobody's side: both sides' "
                                           "face-down cards show only their army.")
    legal_actions = serializers.ListField(child=serializers.DictField(),
                                          help_text="Always empty.")
    to_move = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    waiting_for = serializers.CharField(allow_null=True, help_text="Always null.")
    log = serializers.ListField(child=serializers.DictField(),
                                help_text="The public events, each with its action's seq.")
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="The seed (as text), once over.")
    outcome = serializers.DictField(allow_null=True)
    scale = serializers.CharField()
    decks = serializers.DictField(child=serializers.CharField())
    my_deal = serializers.DictField(allow_null=True, help_text="Always null.")
