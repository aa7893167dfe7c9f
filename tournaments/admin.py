from django.contrib import admin

from .models import (
    Entry,
    Match,
    Report,
    ResultLog,
    Round,
    StandingSnapshot,
    Tournament,
    WebhookDelivery,
)


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["user", "french_version", "british_version", "prussian_version"]
    readonly_fields = ["registered_at"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "organiser", "battle", "format", "status", "current_round",
                    "planned_rounds", "starts_at"]
    list_filter = ["status", "format", "battle"]
    search_fields = ["name", "organiser__username"]
    raw_id_fields = ["organiser"]
    readonly_fields = ["wake_at", "created_at", "started_at", "finished_at"]
    inlines = [EntryInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "stage", "state", "ends_at", "timed_out",
                    "pairing_seconds"]
    list_filter = ["state", "stage"]


class ReportInline(admin.TabularInline):
    model = Report
    extra = 0


class ResultLogInline(admin.TabularInline):
    model = ResultLog
    extra = 0
    readonly_fields = ["source", "by", "reason", "before", "after", "created_at"]
    can_delete = False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Read here; change results through the API/pages (``record_result`` logs them)."""

    list_display = ["tournament", "round", "table", "french", "allied", "state",
                    "french_games", "allied_games", "draws", "source"]
    list_filter = ["state", "source"]
    raw_id_fields = ["tournament", "round", "french", "allied"]
    readonly_fields = ["state", "french_games", "allied_games", "draws", "game1", "game2",
                       "double_loss", "source", "settled_at"]
    inlines = [ReportInline, ResultLogInline]


@admin.register(StandingSnapshot)
class StandingSnapshotAdmin(admin.ModelAdmin):
    list_display = ["tournament", "round_number", "computed_at"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ["tournament", "event", "state", "attempts", "last_status", "created_at",
                    "delivered_at"]
    list_filter = ["state", "event"]
