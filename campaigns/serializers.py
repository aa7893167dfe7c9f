"""Campaign API shapes (documentation: the services validate)."""

from rest_framework import serializers

from battles.models import BotName, Side
from play.help_texts import STATUS_HELP, WAITING_FOR

from .models import PoolChoice

POOL_HELP = ('16.0: "set" (the whole set) or "collection" (one copy of each card you own '
             "of your side).")
TIME_CONTROL_HELP = ('{} untimed, {"kind": "live", "base": 60-7200 s, "increment": 0-300 s} '
                     'or {"kind": "correspondence", "days": 1-14}: ONE clock per side for the '
                     "whole campaign, running while that side must act on either board or "
                     "decide (RULINGS 16-o); out of time loses the campaign (reason time).")
RATED_HELP = ("Between two people only: when the campaign ends both players' Glicko-2 "
              "ratings are updated once (one rated game).")
CLOCKS_HELP = "Seconds left per side now ({} untimed); only the side to move's clock runs."
DEADLINE_HELP = "When the side to move runs out of time (null: no clock running)."
EXPIRES_HELP = "A waiting campaign nobody joins by then expires (null once it is not waiting)."


class CampaignCreateInput(serializers.Serializer):
    side = serializers.ChoiceField(choices=Side.choices, help_text="The side you play.")
    opponent = serializers.CharField(
        default="computer", help_text='"computer" (bot plays the other side with the whole '
        'set; starts at once), "open" (anyone may join) or a username (only they may join).')
    bot = serializers.ChoiceField(choices=BotName.choices, default=BotName.GREEDY)
    pool = serializers.CharField(default=PoolChoice.SET, help_text=POOL_HELP)
    settings = serializers.DictField(required=False,
                                     help_text='{"turn_cap": 1-100 turns per battle, or null '
                                               '(no limit, the default)}.')
    public = serializers.BooleanField(default=True, help_text="Anyone may watch it.")
    time_control = serializers.DictField(
        required=False, help_text=TIME_CONTROL_HELP + " Default {} (untimed; against the "
        "computer its clock never runs).")
    rated = serializers.BooleanField(default=False, help_text=RATED_HELP + " 400 against the "
                                     "computer.")


class CampaignJoinInput(serializers.Serializer):
    pool = serializers.CharField(default=PoolChoice.SET, help_text=POOL_HELP)


class CampaignActInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The campaign's seq you last saw (409 stale_seq "
                                             "if it has moved on).")
    action = serializers.DictField(help_text="One of legal_actions, or a split with any "
                                             "partition of the free cards.")


class CampaignSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    my_side = serializers.ChoiceField(choices=Side.choices, allow_null=True)
    opponent = serializers.CharField(allow_null=True)
    players = serializers.DictField(child=serializers.CharField(allow_null=True))
    status = serializers.CharField(help_text=STATUS_HELP)
    phase = serializers.CharField()
    seq = serializers.IntegerField()
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True)
    winner = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField(allow_null=True)
    rated = serializers.BooleanField(help_text=RATED_HELP)
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    expires_at = serializers.DateTimeField(allow_null=True, help_text=EXPIRES_HELP)


class CampaignListSerializer(serializers.Serializer):
    results = CampaignSummarySerializer(many=True)
    next = serializers.CharField(allow_null=True,
                                 help_text="The next page's cursor (?before=), null after "
                                           "the last page.")


class CampaignViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    my_side = serializers.ChoiceField(choices=Side.choices, allow_null=True,
                                      help_text="Null: you watch (a public campaign).")
    opponent = serializers.CharField(allow_null=True)
    players = serializers.DictField(child=serializers.CharField(allow_null=True))
    seq = serializers.IntegerField(help_text="Send it back with your next action.")
    status = serializers.CharField(help_text=STATUS_HELP)
    phase = serializers.CharField()
    board = serializers.CharField(allow_null=True, help_text="The battle to move on (null: a "
                                                             "campaign decision).")
    view = serializers.DictField(allow_null=True, help_text="battles.campaign.view for your "
                                 "side: every board, your pool, the enemy's as counts.")
    legal_actions = serializers.ListField(child=serializers.DictField())
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True)
    log = serializers.ListField(child=serializers.DictField(),
                                help_text="The events you may see, with seq and by (side).")
    seed_hash = serializers.CharField()
    seed = serializers.CharField(allow_null=True, help_text="Once over.")
    outcome = serializers.DictField(allow_null=True, help_text="{winner, reason, loser?, "
                                    "results}: reason campaign (the core decided), resigned "
                                    "or time (loser: the side that resigned or ran out).")
    pools = serializers.DictField(child=serializers.CharField(), help_text="side -> pool kind.")
    settings = serializers.DictField()
    public = serializers.BooleanField()
    rated = serializers.BooleanField(help_text=RATED_HELP)
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    clocks = serializers.DictField(child=serializers.IntegerField(), help_text=CLOCKS_HELP)
    deadline = serializers.DateTimeField(allow_null=True, help_text=DEADLINE_HELP)
    expires_at = serializers.DateTimeField(allow_null=True, help_text=EXPIRES_HELP)
    can_undo = serializers.BooleanField(help_text="Whether undo/ would take back your last "
                                        "action now (your turn on a board, no die rolled, no "
                                        "card revealed since).")
    can_claim = serializers.BooleanField(help_text="A live campaign whose opponent has the "
                                                   "move and has been away too long: POST "
                                                   "claim/ (play/presence.py).")
    paused = serializers.BooleanField(help_text="Paused by its tournament's organiser: the "
                                                "clocks stand still and every action is 409 "
                                                "paused until the resume.")


class CampaignUndoInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The campaign's seq you last saw (409 stale_seq "
                                             "if it has moved on).")
