"""Stratego: Waterloo matches on the game service (``play``): a setup (the variant, the
versioned piece table, the secret seed) plus an append-only log of actions, as every kind.

``state`` is the engine's ``to_json`` after the last action (a cache the log rebuilds); it
holds every identity and never leaves the server as it is: a person sees
``selectors.side_view`` only (``GAME.view`` and ``GAME.events_for``).
"""

from __future__ import annotations

from django.db import models

from play.models import (
    USER,
    Match,
    MatchAction,
    MatchStatus,
    action_constraints,
    match_indexes,
    seated_constraints,
)
from stratego.loader import CURRENT

Status = MatchStatus


class Variant(models.TextChoices):
    BASIC = "basic", "Basic game"
    STANDARD = "standard", "Standard game"
    EXPERT = "expert", "Expert game"


class BotName(models.TextChoices):
    RANDOM = "random", "Random"
    GREEDY = "greedy", "Greedy"


class StrategoMatch(Match):
    bot = models.CharField(max_length=20, blank=True, default="", choices=BotName.choices,
                           help_text="Set only when the computer plays the side without a "
                                     "player.")
    variant = models.CharField(max_length=10, choices=Variant.choices, default=Variant.BASIC,
                               help_text="The rules played (the engine's mode); only those "
                                         "the engine offers are accepted.")
    pieces = models.CharField(max_length=40, default=CURRENT,
                              help_text="The versioned piece table (stratego/data/) the "
                                        "engine is handed.")
    phase = models.CharField(max_length=10, blank=True, default="",
                             help_text="setup, play or over (from the state).")
    turn = models.PositiveIntegerField(default=0, help_text="The game turn (0: set-up).")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = match_indexes("stratego_computer_idx", "stratego_deadline_idx",
                                  "stratego")
        constraints = seated_constraints("stratego")

    def __str__(self) -> str:
        return f"Stratego #{self.pk}"


class StrategoAction(MatchAction):
    """Action number ``seq`` (from 1) with every event it produced, unfiltered."""

    match = models.ForeignKey(StrategoMatch, on_delete=models.CASCADE, related_name="actions")

    class Meta:
        ordering = ["match", "seq"]
        constraints = action_constraints("match", "one_stratego_action_per_seq",
                                         "stratego_action_seq_from_one")

    def __str__(self) -> str:
        return f"stratego {self.match_id}#{self.seq} {self.side}"


class LastSetUp(models.Model):
    """The set-up a player last used for a side ("The last set-up I used" on the set-up
    screen): each piece's square, the rest in reserve, for the piece table it was made with
    (another table's ids may not match: not offered then). Written by ``services.act`` when
    the player deploys; offered only while ``rules.check_placement`` accepts it."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE,
                             related_name="stratego_setups")
    side = models.CharField(max_length=8)
    pieces = models.CharField(max_length=40, help_text="the piece table's data file")
    placement = models.JSONField(help_text="piece id -> [col, row]")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "side"],
                                               name="one_stratego_setup_per_user_side")]
