"""Battle decks and their versions.

A deck is dealt (2.0: it names a pool, the battle deals D x scale cards from it), custom (15.0:
chosen cards within a BP limit) or campaign (16.0).

Every save keeps a version (DeckVersion); the history shows what changed between versions.
A version may be saved with problems (a draft); only a valid version can be used to play, and a
tournament (a later issue) locks one version, committing its cards.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from cards.models import Army, Battle


class DeckKind(models.TextChoices):
    DEALT = "dealt", "Dealt from a pool (2.0)"
    CUSTOM = "custom", "Custom Battle Points (15.0)"
    CAMPAIGN = "campaign", "Campaign (16.0)"


class DeckPool(models.TextChoices):
    """Where a dealt deck (2.0) is dealt from."""

    COLLECTION = "collection", "the copies I own"
    SET = "set", "the whole set"


class Deck(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="decks")
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True, default="", max_length=2000)
    battle = models.CharField(max_length=12, choices=Battle.choices)
    army = models.CharField(max_length=10, choices=Army.choices)
    kind = models.CharField(max_length=10, choices=DeckKind.choices, default=DeckKind.DEALT)
    pool = models.CharField(max_length=10, choices=DeckPool.choices, default=DeckPool.COLLECTION,
                            help_text="Dealt decks (2.0): where the cards are dealt from.")
    scale = models.CharField(max_length=12, default="1",
                             help_text="Exact fraction as text: '1', '1/2', '3/2'.")
    historical = models.BooleanField(default=False,
                                     help_text="2.0 option: every card fought in this battle.")
    share_token = models.CharField(max_length=32, unique=True, null=True, blank=True,
                                   help_text="Set when the owner shares the deck read-only.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_army_display()}, {self.get_battle_display()})"

    @property
    def latest(self) -> "DeckVersion | None":
        return self.versions.order_by("-number").first()

    @staticmethod
    def new_share_token() -> str:
        return secrets.token_urlsafe(16)


class DeckVersion(models.Model):
    """One saved state of a deck: its settings and cards, and what the rules said then."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    note = models.CharField(max_length=200, blank=True, default="")
    battle = models.CharField(max_length=12, choices=Battle.choices)
    army = models.CharField(max_length=10, choices=Army.choices)
    kind = models.CharField(max_length=10, choices=DeckKind.choices)
    pool = models.CharField(max_length=10, choices=DeckPool.choices, default=DeckPool.COLLECTION)
    scale = models.CharField(max_length=12)
    historical = models.BooleanField(default=False)
    entries = models.JSONField(help_text="[[card number, count, printing or null], ...] sorted")
    valid = models.BooleanField(default=False, help_text="No rule errors when saved.")
    size = models.PositiveIntegerField(default=0)
    bp_total = models.PositiveIntegerField(default=0)
    problems = models.JSONField(default=list, help_text="The problems found when saved.")
    locked_at = models.DateTimeField(null=True, blank=True,
                                     help_text="Locked by a tournament: its cards are committed.")

    class Meta:
        ordering = ["deck", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["deck", "number"], name="one_version_number_per_deck"),
            models.CheckConstraint(condition=Q(number__gte=1), name="version_number_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.deck.name} v{self.number}"
