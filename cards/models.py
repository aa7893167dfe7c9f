"""The catalogue (cards and their printings) and what each user owns, wants and trades.

Three levels of identity: a Card (rules identity, its number never changes meaning), a
Printing (the card in one finish: Gold, Silver or Bronze, 18.0) and a collection row that
holds quantities of one printing for one user.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from game import ARMIES, ARMY_FULL_NAMES, BATTLE_NAMES, BATTLES


def _choices(name: str, values: tuple[str, ...], labels: dict[str, str]) -> type:
    """TextChoices from the ``game`` vocabulary: member QUATRE_BRAS = "quatre-bras", label."""
    members = [(v.upper().replace("-", "_"), (v, labels[v])) for v in values]
    return models.TextChoices(name, members)


Army = _choices("Army", ARMIES, ARMY_FULL_NAMES)


class Nationality(models.TextChoices):
    BRITISH = "british", "British"
    KGL = "kgl", "King's German Legion"
    HANOVERIAN = "hanoverian", "Hanoverian"
    BRUNSWICK = "brunswick", "Brunswick"
    NASSAU = "nassau", "Nassau"
    NETHERLANDS = "netherlands", "Netherlands"


class CardType(models.TextChoices):
    GENERAL = "general", "General"
    INFANTRY = "infantry", "Infantry"
    CAVALRY = "cavalry", "Cavalry"
    ARTILLERY = "artillery", "Artillery"
    TERRAIN = "terrain", "Terrain"
    SPECIAL = "special", "Special"


class Morale(models.TextChoices):
    A = "a", "A (Guard/Elite)"
    B = "b", "B (Regulars/Veterans)"
    C = "c", "C (Regulars/Conscripts)"
    D = "d", "D (Militia/Landwehr)"


Battle = _choices("Battle", BATTLES, BATTLE_NAMES)


# Battle slug -> the boolean column that records presence there.
BATTLE_FIELDS = {
    Battle.QUATRE_BRAS: "at_quatre_bras",
    Battle.LIGNY: "at_ligny",
    Battle.WAVRE: "at_wavre",
    Battle.WATERLOO: "at_waterloo",
}


class Card(models.Model):
    number = models.PositiveSmallIntegerField(unique=True)
    name = models.CharField(max_length=80)
    search_name = models.CharField(max_length=80, db_index=True,
                                   help_text="Lower case, accents removed: for search.")
    army = models.CharField(max_length=10, choices=Army.choices, db_index=True)
    nationality = models.CharField(max_length=12, choices=Nationality.choices, null=True,
                                   blank=True)
    type = models.CharField(max_length=10, choices=CardType.choices, db_index=True)
    ob_corps = models.CharField(max_length=30, null=True, blank=True)
    ob_division = models.CharField(max_length=30, null=True, blank=True)
    ob_brigade = models.CharField(max_length=40, null=True, blank=True)
    at_quatre_bras = models.BooleanField(default=False)
    at_ligny = models.BooleanField(default=False)
    at_wavre = models.BooleanField(default=False)
    at_waterloo = models.BooleanField(default=False)
    bp = models.PositiveSmallIntegerField()
    # Troops
    cv = models.PositiveSmallIntegerField(null=True, blank=True)
    firepower = models.PositiveSmallIntegerField(null=True, blank=True)
    shock = models.PositiveSmallIntegerField(null=True, blank=True)
    fire_long = models.PositiveSmallIntegerField(null=True, blank=True)
    fire_short = models.PositiveSmallIntegerField(null=True, blank=True)
    artillery_kind = models.CharField(max_length=5, null=True, blank=True)
    morale = models.CharField(max_length=1, choices=Morale.choices, null=True, blank=True)
    # Generals
    offense = models.PositiveSmallIntegerField(null=True, blank=True)
    defense = models.PositiveSmallIntegerField(null=True, blank=True)
    corps = models.CharField(max_length=30, null=True, blank=True)
    chief_of_staff = models.BooleanField(null=True, blank=True)
    second_in_command = models.BooleanField(null=True, blank=True)
    # Terrain
    terrain_battle = models.CharField(max_length=12, choices=Battle.choices, null=True,
                                      blank=True)
    terrain_position = models.CharField(max_length=1, null=True, blank=True)
    terrain_class = models.CharField(max_length=10, null=True, blank=True)
    move_limit = models.PositiveSmallIntegerField(null=True, blank=True)
    # Specials
    special_text = models.TextField(null=True, blank=True)
    special_timing = models.CharField(max_length=20, null=True, blank=True)
    special_restrictions = models.JSONField(null=True, blank=True)
    effect = models.JSONField(null=True, blank=True)
    # Provenance
    men = models.PositiveIntegerField(null=True, blank=True)
    guns = models.PositiveSmallIntegerField(null=True, blank=True)
    source = models.TextField(blank=True, default="")
    data_version = models.CharField(max_length=40)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.CheckConstraint(condition=Q(number__gte=1) & Q(number__lte=300),
                                   name="card_number_1_300"),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"

    @property
    def battles(self) -> list[str]:
        return [slug for slug, field in BATTLE_FIELDS.items() if getattr(self, field)]

    @property
    def ob(self) -> str:
        return "/".join(p for p in (self.ob_corps, self.ob_division, self.ob_brigade) if p)


class Finish(models.TextChoices):
    GOLD = "gold", "Gold"
    SILVER = "silver", "Silver"
    BRONZE = "bronze", "Bronze"


# 18.0: Gold cards are rare, Silver uncommon, Bronze common (about 10/30/60 per cent).
RARITY = {Finish.GOLD: "rare", Finish.SILVER: "uncommon", Finish.BRONZE: "common"}
RARITY_WEIGHTS = {Finish.GOLD: 10, Finish.SILVER: 30, Finish.BRONZE: 60}


class Printing(models.Model):
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="printings")
    finish = models.CharField(max_length=6, choices=Finish.choices)

    class Meta:
        ordering = ["card__number", "finish"]
        constraints = [models.UniqueConstraint(fields=["card", "finish"],
                                               name="one_printing_per_finish")]

    def __str__(self) -> str:
        return f"{self.card} ({self.finish})"

    @property
    def rarity(self) -> str:
        return RARITY[self.finish]


class CatalogueRelease(models.Model):
    """Each distinct data-file version loaded, with what it changed."""

    version = models.CharField(max_length=40, unique=True)
    loaded_at = models.DateTimeField(auto_now_add=True)
    created = models.PositiveSmallIntegerField(default=0)
    updated = models.PositiveSmallIntegerField(default=0)
    checksum = models.CharField(max_length=64)

    class Meta:
        ordering = ["-loaded_at"]


class CollectionEntry(models.Model):
    """How many copies of one printing a user owns, and how many of those they would trade."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="collection")
    printing = models.ForeignKey(Printing, on_delete=models.PROTECT, related_name="owners")
    quantity = models.PositiveIntegerField(default=0)
    trade_quantity = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["printing__card__number", "printing__finish"]
        constraints = [
            models.UniqueConstraint(fields=["user", "printing"], name="one_entry_per_printing"),
            models.CheckConstraint(condition=Q(trade_quantity__lte=F("quantity")),
                                   name="trade_quantity_within_quantity"),
            models.CheckConstraint(condition=Q(quantity__lte=9999), name="quantity_sane"),
        ]


class WantEntry(models.Model):
    """A card a user wants, optionally in one finish only."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="wants")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="wanted_by")
    finish = models.CharField(max_length=6, choices=Finish.choices, blank=True, default="",
                              help_text="Empty: any finish.")
    quantity = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["card__number"]
        constraints = [
            models.UniqueConstraint(fields=["user", "card", "finish"], name="one_want_per_card"),
            models.CheckConstraint(condition=Q(quantity__gte=1) & Q(quantity__lte=9999),
                                   name="want_quantity_sane"),
        ]


class StarterDeck(models.Model):
    """A 60-card starter deck opened by a user; its seed reproduces the exact cards (1.0)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="starter_decks")
    seed = models.BigIntegerField()
    catalogue_version = models.CharField(max_length=40)
    printings = models.JSONField(help_text="[[card number, finish], ...] in dealing order")
    opened_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-opened_at"]


class TradeStatus(models.TextChoices):
    OFFERED = "offered", "Offered"
    ACCEPTED = "accepted", "Accepted"
    DECLINED = "declined", "Declined"
    CANCELLED = "cancelled", "Cancelled"


class Trade(models.Model):
    proposer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="trades_proposed")
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                  related_name="trades_received")
    status = models.CharField(max_length=10, choices=TradeStatus.choices,
                              default=TradeStatus.OFFERED, db_index=True)
    message = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]


class TradeLine(models.Model):
    """Cards that move in a trade: `from_proposer` True means proposer gives, else receives."""

    trade = models.ForeignKey(Trade, on_delete=models.CASCADE, related_name="lines")
    printing = models.ForeignKey(Printing, on_delete=models.PROTECT)
    quantity = models.PositiveIntegerField()
    from_proposer = models.BooleanField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(quantity__gte=1), name="trade_line_quantity_pos"),
            models.UniqueConstraint(fields=["trade", "printing", "from_proposer"],
                                    name="one_line_per_printing_direction"),
        ]
