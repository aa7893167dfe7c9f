"""La Belle Alliance matches on the game service (``play``): a setup (the card edition, the
secret seed) plus an append-only log of actions, as every kind.

``state`` is the engine's ``to_json`` after the last action (a cache the log rebuilds). The
game has no hidden information: every viewer sees the whole position (``selectors``).
"""

from __future__ import annotations

from django.db import models

from belle_alliance.loader import HOUSE
from play.models import (
    Match,
    MatchAction,
    MatchStatus,
    action_constraints,
    match_indexes,
    seated_constraints,
)

Status = MatchStatus


class BotName(models.TextChoices):
    RANDOM = "random", "Random"
    GREEDY = "greedy", "Greedy"
    EXPECTIMAX = "expectimax", "Expectimax (plays the odds)"


class BelleAllianceMatch(Match):
    bot = models.CharField(max_length=20, blank=True, default="", choices=BotName.choices,
                           help_text="Set only when the computer plays the side without a "
                                     "player.")
    edition = models.CharField(max_length=40, default=HOUSE,
                               help_text="The card edition (belle_alliance/data/<edition>"
                                         ".json) the engine is handed.")
    phase = models.CharField(max_length=10, blank=True, default="",
                             help_text="french or allied: whose player phase (from the "
                                       "state); empty once over or before the start.")
    turn = models.PositiveIntegerField(default=0, help_text="The game turn (1, 2, ...).")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = match_indexes("belle_alliance_computer_idx", "belle_alliance_deadline_idx",
                                  "belle_alliance")
        constraints = seated_constraints("belle_alliance")

    def __str__(self) -> str:
        return f"La Belle Alliance #{self.pk}"


class BelleAllianceAction(MatchAction):
    """Action number ``seq`` (from 1) with every event it produced."""

    match = models.ForeignKey(BelleAllianceMatch, on_delete=models.CASCADE,
                              related_name="actions")

    class Meta:
        ordering = ["match", "seq"]
        constraints = action_constraints("match", "one_belle_alliance_action_per_seq",
                                         "belle_alliance_action_seq_from_one")

    def __str__(self) -> str:
        return f"belle_alliance {self.match_id}#{self.seq} {self.side}"
