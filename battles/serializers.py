"""Battle API shapes. Input serializers document the request bodies (the services validate);
output serializers document what ``services.battle_view`` and ``battle_summary`` return."""

from rest_framework import serializers

from cards.models import Battle as BattleName

from .models import BotName, Side, Status

WAITING_FOR = [("you", "you"), ("opponent", "opponent"), ("computer", "computer")]


class BattleCreateInput(serializers.Serializer):
    battle = serializers.ChoiceField(choices=BattleName.choices)
    side = serializers.ChoiceField(choices=Side.choices, help_text="The side you play.")
    bot = serializers.ChoiceField(choices=BotName.choices, default=BotName.GREEDY,
                                  help_text="The computer player of the other side.")
    deck_version = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="One of your valid deck versions for this battle and an army of your side; "
                  "absent or null: every deck is dealt historically.")
    settings = serializers.DictField(
        required=False, help_text='Engine settings: {"turn_cap": 1-100 (40), "decoys": bool}.')


class ActInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The battle's seq you last saw (optimistic "
                                             "concurrency: 409 if it has moved on).")
    action = serializers.DictField(help_text="One of the battle's legal_actions, as given.")


class BattleSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    battle = serializers.ChoiceField(choices=BattleName.choices)
    my_side = serializers.ChoiceField(choices=Side.choices)
    opponent = serializers.CharField(help_text='A username, or "computer (<bot>)".')
    seq = serializers.IntegerField(help_text="Number of actions applied so far.")
    status = serializers.ChoiceField(choices=Status.choices)
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True,
                                          help_text="Who has priority; null once over.")
    outcome = serializers.DictField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class BattleListSerializer(serializers.Serializer):
    results = BattleSummarySerializer(many=True)


class BattleViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    battle = serializers.ChoiceField(choices=BattleName.choices)
    my_side = serializers.ChoiceField(choices=Side.choices)
    opponent = serializers.CharField(help_text='A username, or "computer (<bot>)".')
    seq = serializers.IntegerField(help_text="Number of actions applied so far: send it "
                                             "back with your next action.")
    status = serializers.ChoiceField(choices=Status.choices)
    view = serializers.DictField(help_text="The engine's view of the battle for your side "
                                           "(face-down enemy cards show only their army).")
    legal_actions = serializers.ListField(child=serializers.DictField(),
                                          help_text="Your legal actions; empty unless you "
                                                    "have priority.")
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True)
    log = serializers.ListField(child=serializers.DictField(),
                                help_text="The events you may see, each with the seq of "
                                          "the action that made it.")
    seed_hash = serializers.CharField(help_text="sha256 hex of the seed's text, from the start.")
    seed = serializers.CharField(allow_null=True, help_text="The seed (as text), once over.")
    outcome = serializers.DictField(allow_null=True)
