"""Online campaigns (16.0): a setup plus an append-only list of actions, like battles.

A ``Campaign`` holds the setup (each side's pool of card numbers, the card records as at
setup, the secret seed, the settings) and a snapshot of the pure core's state after its last
action (``state``: ``battles.campaign.to_json``; a cache the log rebuilds, see
``services.replay``). Each applied action is a ``CampaignAction`` with its own sequence number,
unique per campaign: two requests from the same ``seq`` can never both be recorded.

Seats work as in battles: a side without a player is the computer's when ``bot`` is set
(the campaign starts at once); with no ``bot`` it is a human seat still empty (``waiting``:
open to anyone, or reserved for ``invited``). Nothing secret leaves the server as it is:
players see ``selectors.campaign_view`` only.
"""

from django.db import models
from django.db.models import Q

from battles.models import BotName, Side
from play.models import Match, MatchAction, MatchStatus, action_constraints, match_indexes

Status = MatchStatus


class PoolChoice(models.TextChoices):
    SET = "set", "The whole set"
    COLLECTION = "collection", "My collection (one copy of each card I own)"


class Campaign(Match):
    # Every computer player plays whole campaigns (battles/campaign/bots.py wraps the battle
    # bots, the search levels included, and decides splits, retreats and reinforcements).
    bot = models.CharField(max_length=20, blank=True, default="", choices=BotName.choices,
                           help_text="Set only when the computer plays the side without a "
                                     "player.")
    pool_choices = models.JSONField(default=dict, help_text="side -> set | collection.")
    pools = models.JSONField(default=dict, help_text="Secret: side -> card numbers of its "
                                                     "pool (16.0: one copy each).")
    to_move = models.CharField(max_length=10, choices=Side.choices, blank=True, default="",
                               help_text="Who acts now (empty: not started, or over).")
    board = models.CharField(max_length=12, blank=True, default="",
                             help_text="The battle to move on (empty: a campaign decision).")
    phase = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = match_indexes("campaigns_computer_idx", "campaigns_deadline_idx",
                                  "campaigns")
        constraints = [
            models.CheckConstraint(condition=Q(french_player__isnull=False)
                                   | Q(allied_player__isnull=False),
                                   name="campaign_has_a_player"),
            models.CheckConstraint(condition=Q(state__isnull=False)
                                   | Q(status__in=["waiting", "cancelled", "expired"]),
                                   name="started_campaign_has_a_state"),
            models.CheckConstraint(condition=Q(invited__isnull=True) | Q(bot=""),
                                   name="campaign_invitations_are_for_people"),
            models.CheckConstraint(condition=Q(rated=False) | Q(bot=""),
                                   name="campaigns_against_the_computer_are_unrated"),
        ]

    def __str__(self) -> str:
        return f"Campaign #{self.pk}"


class CampaignAction(MatchAction):
    """Action number ``seq`` (from 1) with every event it produced, unfiltered."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="actions")
    side = models.CharField(max_length=10, choices=Side.choices)

    class Meta:
        ordering = ["campaign", "seq"]
        constraints = action_constraints("campaign", "one_campaign_action_per_seq",
                                         "campaign_action_seq_from_one")

    def __str__(self) -> str:
        return f"campaign {self.campaign_id}#{self.seq} {self.side}"
