"""Stratego: Waterloo API shapes (documentation: the services validate)."""

from __future__ import annotations

from rest_framework import serializers

from battles.models import Side
from play.help_texts import STATUS_HELP, TIME_CONTROL_HELP, WAITING_FOR

from .models import BotName, Variant

VIEW_HELP = ("stratego.engine.view for your side: the board (your pieces with their type and "
             "strength; the enemy's unrevealed pieces as their square and back only), the "
             "reserves (yours by piece, the enemy's as a count), your Line of Retreat card, "
             "the turn and the time track.")


class StrategoCreateInput(serializers.Serializer):
    side = serializers.ChoiceField(choices=Side.choices, help_text="The side you play (the "
                                   "Allies set up first and move first).")
    opponent = serializers.CharField(
        default="computer", help_text='"computer" (bot plays the other side; starts at '
        'once), "open" (anyone may join) or a username (only they may join).')
    bot = serializers.ChoiceField(choices=BotName.choices, default=BotName.GREEDY)
    variant = serializers.ChoiceField(choices=Variant.choices, default=Variant.BASIC,
                                      help_text="The rules: those the engine offers so far "
                                                "(400 otherwise).")
    public = serializers.BooleanField(default=True, help_text="Anyone may watch it.")
    rated = serializers.BooleanField(default=False, help_text="Between two people only: the "
                                     "result updates both players' Stratego ratings (400 "
                                     "against the computer).")
    time_control = serializers.DictField(required=False, help_text=TIME_CONTROL_HELP)


class StrategoJoinInput(serializers.Serializer):
    """Joining takes no input: the empty seat and the set-up come with the game."""


class StrategoActInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The game's seq you last saw (409 stale_seq if "
                                             "it has moved on).")
    action = serializers.DictField(help_text='One of legal_actions; in the set-up also '
                                   '{"type": "deploy", "placement": {piece id: [col, row]}}.')


class StrategoUndoInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The game's seq you last saw (409 stale_seq if "
                                             "it has moved on).")


class StrategoSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    my_side = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    opponent = serializers.CharField(allow_null=True)
    players = serializers.DictField(child=serializers.CharField(allow_null=True))
    status = serializers.CharField(help_text=STATUS_HELP)
    variant = serializers.CharField()
    phase = serializers.CharField(help_text="setup, play or over (empty before the start).")
    turn = serializers.IntegerField(help_text="The game turn (0: set-up).")
    seq = serializers.IntegerField()
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True)
    winner = serializers.CharField(allow_null=True)
    rated = serializers.BooleanField(help_text="The result updates both players' Stratego "
                                               "ratings.")
    created_at = serializers.DateTimeField(allow_null=True)
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    expires_at = serializers.DateTimeField(allow_null=True)


class StrategoListSerializer(serializers.Serializer):
    results = StrategoSummarySerializer(many=True)
    next = serializers.CharField(allow_null=True,
                                 help_text="The next page's cursor (?before=), null after "
                                           "the last page.")


class StrategoViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    my_side = serializers.ChoiceField(choices=Side.choices, allow_null=True,
                                      help_text="Null: you watch (a public game).")
    opponent = serializers.CharField(allow_null=True)
    players = serializers.DictField(child=serializers.CharField(allow_null=True))
    seq = serializers.IntegerField(help_text="Send it back with your next action.")
    status = serializers.CharField(help_text=STATUS_HELP)
    variant = serializers.CharField()
    phase = serializers.CharField()
    turn = serializers.IntegerField()
    view = serializers.DictField(allow_null=True, help_text=VIEW_HELP)
    legal_actions = serializers.ListField(child=serializers.DictField())
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True)
    log = serializers.ListField(child=serializers.DictField(),
                                help_text="The events you may see, with seq and by (side).")
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Once over.")
    outcome = serializers.DictField(allow_null=True, help_text="{winner, reason, turn, "
                                    "loser?}: reason lines_of_retreat, commanders_lost, "
                                    "commander_in_chief, agreement, resigned, time or absent.")
    public = serializers.BooleanField()
    rated = serializers.BooleanField()
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    clocks = serializers.DictField(child=serializers.IntegerField())
    deadline = serializers.DateTimeField(allow_null=True)
    expires_at = serializers.DateTimeField(allow_null=True)
    can_undo = serializers.BooleanField(help_text="Whether undo/ would take back your last "
                                        "action now (your turn, no die rolled, no piece "
                                        "revealed since).")
    can_claim = serializers.BooleanField()
    paused = serializers.BooleanField()
