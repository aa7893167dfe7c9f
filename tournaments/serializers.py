"""Read serializers (writes go through services, which validate)."""

from rest_framework import serializers

from .models import Entry, GameOutcome, Match, ResultLog, Round, Tournament

GAMES_HELP = ("Two-game matches: the outcome of game 1 and game 2, each french (won by the "
              "player listed as French, who plays French in game 1 and Allied in game 2), "
              "allied (won by the player listed as Allied) or draw.")


class TournamentSerializer(serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username", read_only=True)
    players = serializers.IntegerField(read_only=True, required=False)
    tiebreakers = serializers.ListField(source="tiebreaker_order", read_only=True)
    games_per_match = serializers.IntegerField(read_only=True)

    class Meta:
        model = Tournament
        fields = ["id", "name", "description", "organiser", "game", "game_options", "battle",
                  "deck_kind", "deal_pool",
                  "deal_historical", "scale",
                  "format", "rounds", "top_cut", "planned_rounds", "round_seconds",
                  "break_seconds", "pairing_mode", "tiebreakers", "registration_closes_at",
                  "check_in_opens_at", "starts_at", "max_players", "late_entry", "status",
                  "current_round", "next_round_at", "lists_public", "players",
                  "games_per_match", "created_at", "started_at", "finished_at", "online",
                  "time_control"]


class OrganiserTournamentSerializer(TournamentSerializer):
    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "webhook_url", "webhook_secret"]


class TournamentEntrySerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="user.username")
    dropped = serializers.BooleanField(read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "player", "seed", "club", "late", "checked_in_at", "no_show",
                  "dropped", "dropped_after_round", "drop_reason", "registered_at"]


def _name(entry):
    return None if entry is None else entry.user.username


class MatchSerializer(serializers.ModelSerializer):
    round = serializers.IntegerField(source="round.number")
    french = serializers.SerializerMethodField()
    allied = serializers.SerializerMethodField()
    french_entry = serializers.IntegerField(source="french_id")
    allied_entry = serializers.IntegerField(source="allied_id", allow_null=True)
    bye = serializers.BooleanField(source="is_bye")
    games = serializers.ListField(
        child=serializers.ChoiceField(choices=GameOutcome.choices), read_only=True,
        allow_null=True, help_text=GAMES_HELP + " Null for one-game matches, byes, double "
        "losses and unsettled matches.")

    class Meta:
        model = Match
        fields = ["id", "round", "table", "french", "allied", "french_entry", "allied_entry",
                  "bye", "state", "french_games", "allied_games", "draws", "games",
                  "double_loss", "source", "bracket", "settled_at"]

    def get_french(self, m) -> str | None:
        return _name(m.french)

    def get_allied(self, m) -> str | None:
        return _name(m.allied)


class RoundSerializer(serializers.ModelSerializer):
    matches_total = serializers.IntegerField(read_only=True, required=False)
    matches_open = serializers.IntegerField(read_only=True, required=False)

    class Meta:
        model = Round
        fields = ["number", "stage", "state", "paired_at", "ends_at", "remaining_seconds",
                  "timed_out", "finished_at", "matches_total", "matches_open"]


class ResultLogSerializer(serializers.ModelSerializer):
    by = serializers.CharField(source="by.username", default=None)

    class Meta:
        model = ResultLog
        fields = ["id", "source", "by", "reason", "before", "after", "created_at"]


# --- inputs (documentation; the services validate) -------------------------------------------

class TournamentInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    game = serializers.CharField(
        required=False, help_text="The game its matches are played in: battle (the default, "
                                  "EAGLES battles) or another kind of the site that can be "
                                  "seated; 400 for any other")
    game_options = serializers.JSONField(
        required=False, help_text="Another game than battle: its own options, passed to its "
                                  "seating when a round is paired (it checks them: an option "
                                  "it does not take refuses the pairing, 400); {} for battle")
    battle = serializers.CharField(
        required=False, help_text="quatre-bras, ligny, wavre or waterloo: required for game "
                                  "battle; refused (400) for another game, as are deck_kind, "
                                  "deal_pool, deal_historical and scale")
    description = serializers.CharField(required=False)
    deck_kind = serializers.CharField(
        required=False, help_text="dealt (2.0: no deck registered, each battle deals from "
                                  "deal_pool), custom (15.0: a custom deck per army at the "
                                  "scale, BP x scale), standard, historical (saved standard "
                                  "decks)")
    deal_pool = serializers.CharField(required=False,
                                      help_text="dealt: set (every card) or collection")
    deal_historical = serializers.BooleanField(required=False,
                                               help_text="dealt: historical cards only")
    scale = serializers.CharField(required=False)
    format = serializers.CharField(required=False, help_text="swiss, swiss_two_game, "
                                   "round_robin, single_elimination, double_elimination, "
                                   "swiss_top_cut")
    rounds = serializers.IntegerField(required=False, allow_null=True)
    top_cut = serializers.IntegerField(required=False, allow_null=True)
    round_seconds = serializers.IntegerField(required=False)
    break_seconds = serializers.IntegerField(required=False)
    pairing_mode = serializers.CharField(required=False, help_text="scheduled, on_completion")
    tiebreakers = serializers.ListField(child=serializers.CharField(), required=False)
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)
    check_in_opens_at = serializers.DateTimeField(required=False, allow_null=True)
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    max_players = serializers.IntegerField(required=False, allow_null=True)
    late_entry = serializers.BooleanField(required=False)
    webhook_url = serializers.URLField(required=False, allow_blank=True)
    online = serializers.BooleanField(
        required=False, help_text="Played on the site: each match's battles are created when "
                                  "its round is paired and report their result at once.")
    time_control = serializers.JSONField(
        required=False, help_text='Online: {} untimed, {"kind": "live", "base": s, '
                                  '"increment": s} or {"kind": "correspondence", "days": n}')


class RegisterInput(serializers.Serializer):
    french_version = serializers.IntegerField(required=False, allow_null=True,
                                              help_text="Not in a dealt tournament.")
    british_version = serializers.IntegerField(required=False, allow_null=True)
    prussian_version = serializers.IntegerField(required=False, allow_null=True)
    club = serializers.CharField(required=False, allow_blank=True)


class DropInput(serializers.Serializer):
    entry = serializers.IntegerField(required=False, help_text="Organisers: the entry to drop.")


class ResultInput(serializers.Serializer):
    result = serializers.CharField(required=False, help_text="One-game matches: french, "
                                   "allied or draw")
    games = serializers.ListField(
        child=serializers.ChoiceField(choices=GameOutcome.choices), required=False,
        min_length=2, max_length=2,
        help_text=GAMES_HELP + " Required for two-game matches unless the totals say how each "
        "game went (2-0, 0-2, both drawn); refused for one-game matches.")
    french_games = serializers.IntegerField(required=False, help_text="Optional with games "
                                            "(then it must agree)")
    allied_games = serializers.IntegerField(required=False)
    draws = serializers.IntegerField(required=False)
    double_loss = serializers.BooleanField(required=False)
    reason = serializers.CharField(required=False, allow_blank=True)


class PublishInput(serializers.Serializer):
    public = serializers.BooleanField(required=False, default=True)
