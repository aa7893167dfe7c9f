"""La Belle Alliance API shapes (documentation: the services validate)."""

from __future__ import annotations

from rest_framework import serializers

from battles.models import Side
from play.help_texts import STATUS_HELP, TIME_CONTROL_HELP, WAITING_FOR

from .models import BotName

VIEW_HELP = ("belle_alliance.engine.view (no hidden information: the same for everyone): the "
             "position (markers in each card's box, both casualty tracks, both morale "
             "tracks, the places' control, the time track, Napoleon's and Wellington's use), "
             "the time label, casualties, rout modifiers, the edition and its title (house-v1: "
             "the house edition, ours, not the publisher's).")
ACTION_HELP = ('One of legal_actions: {"type": "act", "card", "action", "target", '
               '"napoleon"} (napoleon: French only, once a game), {"type": "casualty", '
               '"card"} (which corps takes a casualty when the one hit is empty) or {"type": '
               '"pass"} (only when nothing else is legal).')


class BelleAllianceCreateInput(serializers.Serializer):
    side = serializers.ChoiceField(choices=Side.choices, help_text="The side you play (the "
                                   "French act first).")
    opponent = serializers.CharField(
        default="computer", help_text='"computer" (bot plays the other side; starts at '
        'once), "open" (anyone may join) or a username (only they may join).')
    bot = serializers.ChoiceField(choices=BotName.choices, default=BotName.GREEDY)
    public = serializers.BooleanField(default=True, help_text="Anyone may watch it.")
    rated = serializers.BooleanField(default=False, help_text="Between two people only: the "
                                     "result updates both players' La Belle Alliance "
                                     "ratings (400 against the computer).")
    time_control = serializers.DictField(required=False, help_text=TIME_CONTROL_HELP)


class BelleAllianceJoinInput(serializers.Serializer):
    """Joining takes no input: the empty seat comes with the game."""


class BelleAllianceActInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The game's seq you last saw (409 stale_seq if "
                                             "it has moved on).")
    action = serializers.DictField(help_text=ACTION_HELP)


class BelleAllianceUndoInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The game's seq you last saw (409 stale_seq if "
                                             "it has moved on).")


class BelleAllianceSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    my_side = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    opponent = serializers.CharField(allow_null=True)
    players = serializers.DictField(child=serializers.CharField(allow_null=True))
    status = serializers.CharField(help_text=STATUS_HELP)
    edition = serializers.CharField(help_text="The card edition (house-v1: ours).")
    phase = serializers.CharField(help_text="french or allied (empty before the start and "
                                            "once over).")
    turn = serializers.IntegerField()
    seq = serializers.IntegerField()
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True)
    winner = serializers.CharField(allow_null=True)
    rated = serializers.BooleanField()
    created_at = serializers.DateTimeField(allow_null=True)
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    expires_at = serializers.DateTimeField(allow_null=True)


class BelleAllianceListSerializer(serializers.Serializer):
    results = BelleAllianceSummarySerializer(many=True)


class BelleAllianceViewSerializer(BelleAllianceSummarySerializer):
    view = serializers.DictField(allow_null=True, help_text=VIEW_HELP)
    legal_actions = serializers.ListField(child=serializers.DictField(), help_text=ACTION_HELP)
    log = serializers.ListField(child=serializers.DictField(),
                                help_text="Every event, with seq and by (side).")
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Once over.")
    outcome = serializers.DictField(allow_null=True, help_text="{winner, reason, turn, "
                                    "loser?}: reason a failed rout test, a B box, resigned, "
                                    "time or absent.")
    public = serializers.BooleanField()
    clocks = serializers.DictField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True)
    can_undo = serializers.BooleanField(help_text="Whether undo/ would take back your last "
                                        "action now (your phase, no die rolled since).")
    can_claim = serializers.BooleanField()
    paused = serializers.BooleanField()
