"""Ratings: one Glicko-2 rating per player, a record per battle and side, and the rated
battles with each player's rating before and after (see README.md)."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from battles.models import Side
from cards.models import Battle as BattleName

from . import glicko2


class Rating(models.Model):
    """A player's Glicko-2 rating (on the Glicko scale: a newcomer is 1500 / RD 350 / 0.06);
    made at their first rated battle."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="rating")
    rating = models.FloatField(default=glicko2.BASE)
    rd = models.FloatField(default=glicko2.DEFAULT_RD,
                           help_text="Rating deviation as of updated_at (it grows while the "
                                     "player does not play: see ratings.services.current).")
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0,
                                        help_text="Rated battles and campaigns played.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-rating"], name="ratings_by_rating_idx")]

    def __str__(self) -> str:
        return f"{self.user} {self.rating:.0f} ±{self.rd:.0f}"

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class SideRecord(models.Model):
    """A player's rated results in one battle (Quatre Bras, Ligny, Wavre, Waterloo) on one
    side: EAGLES sides are not alike, so the record is kept apart per battle and side."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="side_records")
    battle = models.CharField(max_length=12, choices=BattleName.choices)
    side = models.CharField(max_length=10, choices=Side.choices)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "battle", "side"],
                                    name="one_record_per_battle_and_side"),
            models.CheckConstraint(condition=Q(played=models.F("won") + models.F("lost")
                                               + models.F("drawn")),
                                   name="record_adds_up"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.battle} {self.side} {self.won}-{self.lost}-{self.drawn}"


class RatedBattle(models.Model):
    """A battle that updated ratings: at most one row per battle (a battle is rated once),
    with both players' rating and RD before and after."""

    battle = models.OneToOneField("battles.Battle", on_delete=models.CASCADE,
                                  related_name="rated_result")
    french_player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                      related_name="+")
    allied_player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                      related_name="+")
    french_score = models.FloatField(help_text="1 the French won, 0.5 a draw, 0 the Allies won.")
    french_before = models.FloatField()
    french_after = models.FloatField()
    french_rd_before = models.FloatField()
    french_rd_after = models.FloatField()
    allied_before = models.FloatField()
    allied_after = models.FloatField()
    allied_rd_before = models.FloatField()
    allied_rd_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["french_player", "-created_at"]),
                   models.Index(fields=["allied_player", "-created_at"])]

    def __str__(self) -> str:
        return f"rated battle {self.battle_id}"


class RatedCampaign(models.Model):
    """A campaign (16.0) that updated ratings: at most one row per campaign (rated once, in
    the transaction that ends it), with both players' rating and RD before and after. A
    campaign is one rated game, like a battle; its result is kept per side here (the
    player page's campaign record), not in ``SideRecord`` (which is per battle)."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE,
                                    related_name="rated_result")
    french_player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                      related_name="+")
    allied_player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                      related_name="+")
    french_score = models.FloatField(help_text="1 the French won, 0.5 a draw, 0 the Allies won.")
    french_before = models.FloatField()
    french_after = models.FloatField()
    french_rd_before = models.FloatField()
    french_rd_after = models.FloatField()
    allied_before = models.FloatField()
    allied_after = models.FloatField()
    allied_rd_before = models.FloatField()
    allied_rd_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["french_player", "-created_at"],
                                name="rated_campaign_french_idx"),
                   models.Index(fields=["allied_player", "-created_at"],
                                name="rated_campaign_allied_idx")]

    def __str__(self) -> str:
        return f"rated campaign {self.campaign_id}"
