from django.contrib import admin

from .models import Deck, DeckVersion


class DeckVersionInline(admin.TabularInline):
    model = DeckVersion
    extra = 0
    fields = ["number", "created_at", "valid", "size", "bp_total", "locked_at", "note"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "battle", "army", "kind", "scale", "updated_at"]
    list_filter = ["battle", "army", "kind", "historical"]
    search_fields = ["name", "owner__username"]
    inlines = [DeckVersionInline]


@admin.register(DeckVersion)
class DeckVersionAdmin(admin.ModelAdmin):
    list_display = ["deck", "number", "valid", "size", "bp_total", "locked_at", "created_at"]
    list_filter = ["valid", "battle", "army", "kind"]
    readonly_fields = ["entries", "problems"]
