"""Ratings and lobby API shapes (documentation: the selectors build the answers)."""

from rest_framework import serializers

from battles.models import Side
from battles.serializers import BattleViewSerializer, OpenBattleSerializer


class FiguresSerializer(serializers.Serializer):
    rating = serializers.FloatField(help_text="Glicko-2 rating (Glicko scale, 1500 to start).")
    rd = serializers.FloatField(help_text="Rating deviation, grown for idle months.")
    volatility = serializers.FloatField()
    games = serializers.IntegerField(help_text="Rated battles and campaigns played.")
    provisional = serializers.BooleanField(help_text="RD above 110: still a rough guess.")


class RecordSerializer(serializers.Serializer):
    battle = serializers.CharField()
    side = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    drawn = serializers.IntegerField()


class RecentSerializer(serializers.Serializer):
    battle_id = serializers.IntegerField()
    battle = serializers.CharField()
    side = serializers.CharField()
    opponent = serializers.CharField()
    result = serializers.ChoiceField(choices=["won", "lost", "drawn"])
    reason = serializers.CharField(allow_null=True)
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    change = serializers.FloatField()
    at = serializers.DateTimeField()


class CampaignRecordSerializer(serializers.Serializer):
    side = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    drawn = serializers.IntegerField()


class RecentCampaignSerializer(serializers.Serializer):
    campaign_id = serializers.IntegerField()
    side = serializers.CharField()
    opponent = serializers.CharField()
    result = serializers.ChoiceField(choices=["won", "lost", "drawn"])
    reason = serializers.CharField(allow_null=True, help_text="campaign, resigned or time.")
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    change = serializers.FloatField()
    at = serializers.DateTimeField()


class PlayerCampaignsSerializer(serializers.Serializer):
    records = CampaignRecordSerializer(many=True, help_text="Both sides, zeros included.")
    recent = RecentCampaignSerializer(many=True,
                                      help_text="The last 20 rated campaigns, newest first.")


class KindRecordSerializer(serializers.Serializer):
    kind = serializers.CharField()
    side = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    drawn = serializers.IntegerField()


class RecentMatchSerializer(serializers.Serializer):
    kind = serializers.CharField()
    match_id = serializers.IntegerField()
    side = serializers.CharField()
    opponent = serializers.CharField()
    result = serializers.ChoiceField(choices=["won", "lost", "drawn"])
    reason = serializers.CharField(allow_null=True)
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    change = serializers.FloatField()
    at = serializers.DateTimeField()


class OtherGameSerializer(FiguresSerializer):
    pool = serializers.CharField(help_text="The rating pool (a kind's rating_pool).")
    title = serializers.CharField()
    records = KindRecordSerializer(many=True, help_text="Every kind of the pool and side, "
                                                        "zeros included.")
    recent = RecentMatchSerializer(many=True, help_text="The last 20 rated matches.")


class PlayerSerializer(FiguresSerializer):
    username = serializers.CharField()
    records = RecordSerializer(many=True, help_text="Every battle and side, zeros included.")
    recent = RecentSerializer(many=True, help_text="The last 20 rated battles, newest first.")
    campaigns = PlayerCampaignsSerializer(help_text="Rated campaigns (16.0): one rated game "
                                                    "each, a record per side.")
    other_games = OtherGameSerializer(many=True, help_text="The rating in each other rated "
                                                           "game (Stratego: Waterloo, ...).")


class LeaderboardRowSerializer(FiguresSerializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()


class PoolSerializer(serializers.Serializer):
    pool = serializers.CharField()
    title = serializers.CharField()


class LeaderboardSerializer(serializers.Serializer):
    pool = serializers.CharField(help_text="The game ranked (eagles, stratego).")
    pools = PoolSerializer(many=True, help_text="Every game with a leaderboard.")
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    per_page = serializers.IntegerField()
    min_games = serializers.IntegerField()
    provisional_rd = serializers.FloatField()
    results = LeaderboardRowSerializer(many=True)


class ChallengeSerializer(OpenBattleSerializer):
    rated = serializers.BooleanField()
    time_control = serializers.DictField()
    time_kind = serializers.CharField(help_text="untimed, live or correspondence.")
    deck_kind = serializers.CharField(help_text="The creator's deck kind: dealt or custom.")
    creator_rating = FiguresSerializer()


class ChallengeListSerializer(serializers.Serializer):
    results = ChallengeSerializer(many=True)


class PlayNowInput(serializers.Serializer):
    battle = serializers.CharField()
    side = serializers.ChoiceField(choices=Side.choices)
    rated = serializers.BooleanField(default=False)
    scale = serializers.CharField(default="1")
    time = serializers.CharField(required=False, help_text="Only this time control kind: "
                                                           "untimed, live or correspondence "
                                                           "(default: any).")
    deal = serializers.DictField(required=False)
    deck_version = serializers.IntegerField(required=False, allow_null=True)


class PlayNowSerializer(serializers.Serializer):
    joined = serializers.BooleanField(help_text="Paired with a waiting player (200); false: "
                                                "a new open battle waits for one (201).")
    gap = serializers.FloatField(allow_null=True, help_text="The rating gap when joined.")
    window = serializers.IntegerField(allow_null=True)
    battle = BattleViewSerializer()
