"""Battle API shapes. Input serializers document the request bodies (the services validate);
output serializers document what ``services.battle_view``, ``battle_summary`` and
``selectors.spectator_view`` return."""

from rest_framework import serializers

from cards.models import Battle as BattleName
from decks.models import DeckPool
from play.help_texts import WAITING_FOR

from .models import BotName, Side, Status

TIME_CONTROL_HELP = ('{} untimed; {"kind": "live", "base", "increment"} (seconds) or '
                     '{"kind": "correspondence", "days"}.')
CLOCKS_HELP = "Seconds left per side now ({} untimed); only the side to move's clock runs."
DEADLINE_HELP = "When the side to move runs out of time (null: no clock running)."
OPPONENT_HELP = ('A username, or "computer (<bot>)"; while the other seat is empty, the '
                 "invited player's username, or null for an open battle.")


class DealInput(serializers.Serializer):
    pool = serializers.ChoiceField(choices=DeckPool.choices, default="set")
    historical = serializers.BooleanField(default=False,
                                          help_text="2.0 note: only cards that fought there "
                                                    "(Terrain is always historical).")


class BattleCreateInput(serializers.Serializer):
    battle = serializers.ChoiceField(choices=BattleName.choices)
    side = serializers.ChoiceField(choices=Side.choices, help_text="The side you play.")
    opponent = serializers.CharField(
        default="computer",
        help_text='"computer" (the default: bot plays the other side), "open" (anyone may '
                  "join) or a player's username (only they may join). Against a person the "
                  'battle is "waiting" until they join.')
    bot = serializers.ChoiceField(choices=BotName.choices, default=BotName.GREEDY,
                                  help_text="The computer player of the other side (only "
                                            'with opponent "computer").')
    deck_version = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="A custom deck version of yours for this battle, an army of your side and "
                  "the battle's scale (or a saved dealt deck: its pool). Not with deal.")
    deal = DealInput(required=False, help_text="2.0: your deck is dealt face-down with the "
                                               "battle's seed from this pool. With neither "
                                               "deal nor deck_version: the whole set, "
                                               "historical only.")
    scale = serializers.CharField(default="1", help_text="2.0: one scale for every army (D x "
                                                         "scale whole for each): '1', '1/2'.")
    rated = serializers.BooleanField(default=False, help_text="The result updates both "
                                     "players' ratings (between people only; 400 against the "
                                     "computer).")
    settings = serializers.DictField(
        required=False, help_text='Engine settings: {"turn_cap": 1-100 or null (null: no limit), '
        '"decoys": bool}.')
    time_control = serializers.DictField(
        required=False, help_text='{} untimed (the default); {"kind": "live", "base": 60-7200 s, '
        '"increment": 0-300 s a turn}; {"kind": "correspondence", "days": 1-14 a move}.')
    public = serializers.BooleanField(default=True, help_text="Anyone may watch it.")


class JoinInput(serializers.Serializer):
    deck_version = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="A custom deck version of yours for this battle, an army of the free side "
                  "and the battle's scale. Not with deal.")
    deal = DealInput(required=False, help_text="The pool your deck is dealt from (2.0).")


class ActInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The battle's seq you last saw (optimistic "
                                             "concurrency: 409 if it has moved on).")
    action = serializers.DictField(help_text="One of the battle's legal_actions, as given.")


class BattleSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    battle = serializers.ChoiceField(choices=BattleName.choices)
    my_side = serializers.ChoiceField(choices=Side.choices,
                                      help_text="Your side (invited: the side kept for you).")
    opponent = serializers.CharField(allow_null=True, help_text=OPPONENT_HELP)
    invited = serializers.BooleanField(help_text="A battle you are invited to and have not "
                                                 "joined (join or cancel it).")
    seq = serializers.IntegerField(help_text="Number of actions applied so far.")
    status = serializers.ChoiceField(choices=Status.choices)
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True,
                                          help_text="Who has priority (waiting: who must "
                                                    "join); null once over or cancelled.")
    outcome = serializers.DictField(allow_null=True)
    scale = serializers.CharField(help_text="2.0: the battle's one scale.")
    decks = serializers.DictField(child=serializers.CharField(),
                                  help_text="Each side's deck kind in words (never its cards).")
    my_deal = serializers.DictField(allow_null=True,
                                    help_text="Once over: for each of my dealt armies the "
                                              "pool and the cards dealt, to check with the "
                                              "seed (battles/dealing.py).")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    clocks = serializers.DictField(child=serializers.IntegerField(), help_text=CLOCKS_HELP)
    deadline = serializers.DateTimeField(allow_null=True, help_text=DEADLINE_HELP)
    rated = serializers.BooleanField(help_text="Updates both players' ratings when over.")


class BattleListSerializer(serializers.Serializer):
    results = BattleSummarySerializer(many=True)
    next = serializers.CharField(allow_null=True,
                                 help_text="The next page's cursor (?before=), null after "
                                           "the last page.")


class OpenBattleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    battle = serializers.ChoiceField(choices=BattleName.choices)
    side = serializers.ChoiceField(choices=Side.choices, help_text="The side you would play.")
    creator = serializers.CharField(help_text="Who plays the other side.")
    settings = serializers.DictField(help_text="Engine settings (turn_cap, decoys).")
    scale = serializers.CharField(help_text="2.0: the battle's scale; a deck must fit it.")
    created_at = serializers.DateTimeField()
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)


class OpenBattleListSerializer(serializers.Serializer):
    results = OpenBattleSerializer(many=True)


class ActionWarningSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The action's index in legal_actions.")
    warning = serializers.CharField(help_text="What the action risks, in words (4.3).")


class BattleViewSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    battle = serializers.ChoiceField(choices=BattleName.choices)
    my_side = serializers.ChoiceField(choices=Side.choices)
    opponent = serializers.CharField(allow_null=True, help_text=OPPONENT_HELP)
    seq = serializers.IntegerField(help_text="Number of actions applied so far: send it "
                                             "back with your next action.")
    status = serializers.ChoiceField(choices=Status.choices)
    view = serializers.DictField(allow_null=True,
                                 help_text="The engine's view of the battle for your side "
                                           "(face-down enemy cards show only their army); "
                                           "null while waiting for an opponent.")
    legal_actions = serializers.ListField(child=serializers.DictField(),
                                          help_text="Your legal actions; empty unless you "
                                                    "have priority.")
    warnings = ActionWarningSerializer(
        many=True, required=False,
        help_text="4.3: the legal actions (by index) that would leave one of your Positions "
                  "without a troop card, with the text to show before playing one; advisory, "
                  "the act needs no confirmation (battles/README.md).")
    waiting_for = serializers.ChoiceField(choices=WAITING_FOR, allow_null=True)
    log = serializers.ListField(child=serializers.DictField(),
                                help_text="The events you may see, each with the seq of "
                                          "the action that made it; an action auto-play "
                                          "made opens with {\"type\": \"auto_played\", "
                                          "\"side\", \"action\": its type, \"auto\": true} "
                                          "and its events carry \"auto\": true.")
    seed_hash = serializers.CharField(help_text="sha256 hex of the seed's text, from the start.")
    seed = serializers.CharField(allow_null=True, help_text="The seed (as text), once over.")
    outcome = serializers.DictField(allow_null=True)
    time_control = serializers.DictField(help_text=TIME_CONTROL_HELP)
    clocks = serializers.DictField(child=serializers.IntegerField(), help_text=CLOCKS_HELP)
    deadline = serializers.DateTimeField(allow_null=True, help_text=DEADLINE_HELP)
    can_claim = serializers.BooleanField(help_text="A live battle whose opponent has the move "
                                                   "and has been away too long: POST claim/.")
    rated = serializers.BooleanField(help_text="Updates both players' ratings when over.")
    can_undo = serializers.BooleanField(
        required=False, help_text="Whether POST undo/ would take back your last action now "
                                  "(your turn, no die rolled, no card revealed since).")
    paused = serializers.BooleanField(
        required=False, help_text="Paused by its tournament's organiser: the clocks stand "
                                  "still and every action is 409 paused until the resume.")


class UndoInput(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The battle's seq as you last saw it.")


# --- The spectator's view (``selectors.spectator_view``: the watch API) -------------------

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
