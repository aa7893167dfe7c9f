"""Admin for the catalogue and for what users own, want and trade.

The catalogue (cards, printings, releases) comes from cards/data/catalogue.json through
``manage.py load_catalogue``: the admin shows it read-only so the file stays the one source of
truth.  Collections, wants and trades may be corrected by staff; starter decks are a record of
what was dealt and are read-only.
"""

from django.contrib import admin

from .models import (
    Card,
    CatalogueRelease,
    CollectionEntry,
    Printing,
    StarterDeck,
    Trade,
    TradeLine,
    WantEntry,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PrintingInline(admin.TabularInline):
    model = Printing
    fields = ["finish", "rarity"]
    readonly_fields = ["finish", "rarity"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Card)
class CardAdmin(ReadOnlyAdmin):
    list_display = ["number", "name", "army", "type", "bp", "cv", "morale", "ob"]
    list_display_links = ["number", "name"]
    list_filter = ["army", "type", "nationality", "morale", "at_quatre_bras", "at_ligny",
                   "at_wavre", "at_waterloo", "terrain_class", "artillery_kind", "data_version"]
    search_fields = ["=number", "name", "search_name", "ob_corps", "ob_division", "ob_brigade",
                     "special_text"]
    ordering = ["number"]
    list_per_page = 100
    inlines = [PrintingInline]


@admin.register(Printing)
class PrintingAdmin(ReadOnlyAdmin):
    list_display = ["card", "finish", "rarity"]
    list_filter = ["finish", "card__army"]
    search_fields = ["=card__number", "card__name", "card__search_name"]
    list_select_related = ["card"]


@admin.register(CatalogueRelease)
class CatalogueReleaseAdmin(ReadOnlyAdmin):
    list_display = ["version", "loaded_at", "created", "updated", "checksum"]
    date_hierarchy = "loaded_at"


@admin.register(CollectionEntry)
class CollectionEntryAdmin(admin.ModelAdmin):
    list_display = ["user", "printing", "quantity", "trade_quantity"]
    list_filter = ["printing__finish", "printing__card__army"]
    search_fields = ["user__username", "printing__card__name", "=printing__card__number"]
    list_select_related = ["user", "printing__card"]
    raw_id_fields = ["user", "printing"]


@admin.register(WantEntry)
class WantEntryAdmin(admin.ModelAdmin):
    list_display = ["user", "card", "finish", "quantity"]
    list_filter = ["finish", "card__army"]
    search_fields = ["user__username", "card__name", "=card__number"]
    list_select_related = ["user", "card"]
    raw_id_fields = ["user", "card"]


class TradeLineInline(admin.TabularInline):
    model = TradeLine
    extra = 0
    raw_id_fields = ["printing"]
    fields = ["printing", "quantity", "from_proposer"]


@admin.register(Trade)
class TradeAdmin(admin.ModelAdmin):
    list_display = ["id", "proposer", "recipient", "status", "created_at", "closed_at"]
    list_filter = ["status"]
    search_fields = ["proposer__username", "recipient__username", "message"]
    list_select_related = ["proposer", "recipient"]
    raw_id_fields = ["proposer", "recipient"]
    readonly_fields = ["created_at"]
    date_hierarchy = "created_at"
    inlines = [TradeLineInline]


@admin.register(StarterDeck)
class StarterDeckAdmin(admin.ModelAdmin):
    """Read-mostly: a dealt deck is history; staff may only delete one."""

    list_display = ["id", "user", "seed", "catalogue_version", "opened_at", "size"]
    list_filter = ["catalogue_version"]
    search_fields = ["user__username", "=seed"]
    list_select_related = ["user"]
    readonly_fields = ["user", "seed", "catalogue_version", "printings", "opened_at"]
    date_hierarchy = "opened_at"

    def has_add_permission(self, request):
        return False

    @admin.display(description="cards")
    def size(self, obj):
        return len(obj.printings or [])
