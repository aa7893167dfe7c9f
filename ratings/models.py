"""Ratings: one Glicko-2 rating per player and game (its pool: ``MatchKind.rating_pool``,
"eagles" for battles and campaigns, "stratego"), a record per game and side, and the rated
matches with each player's rating before and after (see README.md)."""

from django.conf import settings
from django.db import models
from django.db.models import Q

from battles.models import Side

from . import glicko2

EAGLES = "eagles"  # the pool of EAGLES battles and campaigns (``MatchKind.rating_pool``)


class Rating(models.Model):
    """A player's Glicko-2 rating in one game (``pool``: a ``MatchKind.rating_pool``; on the
    Glicko scale: a newcomer is 1500 / RD 350 / 0.06); made at their first rated game of it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    pool = models.CharField(max_length=20, default=EAGLES,
                            help_text="The game rated: a MatchKind.rating_pool (eagles, "
                                      "stratego).")
    rating = models.FloatField(default=glicko2.BASE)
    rd = models.FloatField(default=glicko2.DEFAULT_RD,
                           help_text="Rating deviation as of updated_at (it grows while the "
                                     "player does not play: see ratings.services.current).")
    volatility = models.FloatField(default=glicko2.DEFAULT_VOLATILITY)
    games = models.PositiveIntegerField(default=0,
                                        help_text="Rated games of this pool played.")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "pool"],
                                               name="one_rating_per_pool")]
        indexes = [models.Index(fields=["-rating"], name="ratings_by_rating_idx"),
                   models.Index(fields=["pool", "-rating"], name="ratings_pool_by_rating_idx")]

    def __str__(self) -> str:
        return f"{self.user} {self.pool} {self.rating:.0f} ±{self.rd:.0f}"

    def as_glicko(self) -> glicko2.Rating:
        return glicko2.Rating(self.rating, self.rd, self.volatility)


class SideRecord(models.Model):
    """A player's rated results in one game of a pool on one side: in "eagles" per battle
    (Quatre Bras, Ligny, Wavre, Waterloo: EAGLES sides are not alike, so the record is kept
    apart per battle and side; campaigns are counted in ``RatedCampaign``), in another pool
    per kind (``battle`` holds the kind's name, "stratego": its variants share a record)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="side_records")
    pool = models.CharField(max_length=20, default=EAGLES)
    battle = models.CharField(max_length=20, help_text="An EAGLES battle (cards.Battle) in "
                                                       "the eagles pool; else the kind.")
    side = models.CharField(max_length=10, choices=Side.choices)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "pool", "battle", "side"],
                                    name="one_record_per_game_and_side"),
            models.CheckConstraint(condition=Q(played=models.F("won") + models.F("lost")
                                               + models.F("drawn")),
                                   name="record_adds_up"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.pool} {self.battle} {self.side} " \
            f"{self.won}-{self.lost}-{self.drawn}"


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


class RatedMatch(models.Model):
    """A rated match of any kind but the two EAGLES ones (``RatedBattle`` and
    ``RatedCampaign`` keep theirs, with their foreign keys): at most one row per (kind,
    played id), written in the transaction that ends the match, with both players' rating
    and RD before and after in the kind's ``pool``."""

    kind = models.CharField(max_length=20)
    played_id = models.BigIntegerField(help_text="The match's id in its kind's table.")
    pool = models.CharField(max_length=20)
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
    reason = models.CharField(max_length=30, blank=True, help_text="The outcome's reason.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["kind", "played_id"],
                                               name="one_rated_result_per_match")]
        indexes = [models.Index(fields=["french_player", "-created_at"],
                                name="rated_match_french_idx"),
                   models.Index(fields=["allied_player", "-created_at"],
                                name="rated_match_allied_idx")]

    def __str__(self) -> str:
        return f"rated {self.kind} {self.played_id}"


class PendingRating(models.Model):
    """A finished rated match not rated yet (an outbox row, issue 31): written in the
    statement that ends the match (``play.alongside``: no round trip of its own), deleted by
    the worker's ``ratings.rate`` in the transaction that rates it. A row older than a
    moment is the sweep's (``ratings.sweep``: the broker was down at the end, a worker
    died): the match is rated late, never lost; while the row is there the players' pages
    may say "rating pending"."""

    kind = models.CharField(max_length=20, help_text="The match's kind (play.registry).")
    played_id = models.BigIntegerField(help_text="The match's id in its kind's table.")
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "played_id"],
                                               name="one_pending_rating_per_match")]
        indexes = [models.Index(fields=["created_at"], name="pending_rating_age_idx")]

    def __str__(self) -> str:
        return f"rating pending: {self.kind} {self.played_id}"
