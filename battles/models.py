"""Online battles: a setup plus an append-only list of actions (ARCHITECTURE: battles are
event logs).

A ``Battle`` holds the setup (battle, settings, every army's Battle Deck as dealt, the secret
seed) and a snapshot of the engine state after its last action (``state``: a cache; the log
rebuilds it, see ``services.replay``). Each applied action is a ``BattleAction`` with its own
sequence number, unique per battle (``one_action_per_seq``): two requests made from the same
sequence number can never both be recorded.

A null player is the computer (``bot``). The seed, the decks, the state and the unfiltered
events never leave the server as they are: players see ``services.battle_view`` only.
"""

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

from cards.models import Battle as BattleName


class Side(models.TextChoices):
    FRENCH = "french", "French"
    ALLIED = "allied", "Allied"


class BotName(models.TextChoices):
    RANDOM = "random", "Random"
    GREEDY = "greedy", "Greedy"


class Status(models.TextChoices):
    ACTIVE = "active", "Active"
    FINISHED = "finished", "Finished"


class Battle(models.Model):
    battle = models.CharField(max_length=12, choices=BattleName.choices)
    settings = models.JSONField(default=dict, help_text="Engine settings (turn_cap, decoys).")
    french_player = models.ForeignKey(django_settings.AUTH_USER_MODEL, null=True, blank=True,
                                      on_delete=models.CASCADE, related_name="+",
                                      help_text="Null: the computer plays the French.")
    allied_player = models.ForeignKey(django_settings.AUTH_USER_MODEL, null=True, blank=True,
                                      on_delete=models.CASCADE, related_name="+",
                                      help_text="Null: the computer plays the Allies.")
    bot = models.CharField(max_length=10, choices=BotName.choices, blank=True, default="",
                           help_text="The computer player of the side without a player.")
    seed = models.BigIntegerField(help_text="Secret until the battle ends: decks and dice.")
    seed_hash = models.CharField(max_length=64, help_text="sha256 hex of str(seed).")
    decks = models.JSONField(default=dict, help_text="Secret: army -> card numbers as dealt "
                                                     "(the setup a replay starts from).")
    french_deck = models.ForeignKey("decks.DeckVersion", null=True, blank=True,
                                    on_delete=models.SET_NULL, related_name="+")
    british_deck = models.ForeignKey("decks.DeckVersion", null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    prussian_deck = models.ForeignKey("decks.DeckVersion", null=True, blank=True,
                                      on_delete=models.SET_NULL, related_name="+")
    seq = models.PositiveIntegerField(default=0, help_text="Number of actions applied.")
    state = models.JSONField(help_text="Engine position after action ``seq`` (a cache).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    outcome = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["french_player", "-created_at"]),
                   models.Index(fields=["allied_player", "-created_at"])]
        constraints = [
            models.CheckConstraint(condition=Q(french_player__isnull=False)
                                   | Q(allied_player__isnull=False),
                                   name="battle_has_a_player"),
        ]

    def __str__(self) -> str:
        return f"{self.get_battle_display()} #{self.pk}"

    def player(self, side: str):
        return self.french_player if side == Side.FRENCH else self.allied_player

    def player_id(self, side: str) -> int | None:
        return self.french_player_id if side == Side.FRENCH else self.allied_player_id


class BattleAction(models.Model):
    """Action number ``seq`` (from 1) of a battle, with every event it produced, unfiltered
    (filtered per viewer on the way out with ``engine.events_for``)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    side = models.CharField(max_length=10, choices=Side.choices)
    action = models.JSONField()
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["battle", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="one_action_per_seq"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="action_seq_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.side}"
