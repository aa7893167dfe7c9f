from rest_framework import serializers

from .models import Notification


class NotificationSerializer(serializers.ModelSerializer):
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = ["id", "kind", "text", "url", "battle_id", "tournament_id", "campaign_id",
                  "created_at", "read_at", "read"]

    def get_read(self, obj: Notification) -> bool:
        return obj.read_at is not None


class FlagsSerializer(serializers.Serializer):
    in_app = serializers.BooleanField()
    email = serializers.BooleanField()


class ReadInput(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False)
    all = serializers.BooleanField(required=False)
