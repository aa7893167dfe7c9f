"""The matchup lab (issue 14): N battles of deck A against deck B (or the historical deal).

One row per question: (deck A's version, deck B's version or the historical deal, the bots,
N, seed) is unique (``question``), so asking again returns the stored answer. The games run
as chunks (``MatchupChunk``: one Celery task each, its games stored once per chunk); the last
chunk to finish aggregates ``results`` (``matchups/stats.py``).
"""

from django.conf import settings
from django.db import models


class Status(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


ACTIVE = (Status.QUEUED, Status.RUNNING)


class Matchup(models.Model):
    deck_a = models.ForeignKey("decks.DeckVersion", on_delete=models.CASCADE,
                               related_name="matchups_as_a")
    deck_b = models.ForeignKey("decks.DeckVersion", on_delete=models.CASCADE, null=True,
                               blank=True, related_name="matchups_as_b",
                               help_text="Empty: the historical deal (2.0 note).")
    battle = models.CharField(max_length=12)
    scale = models.CharField(max_length=12, default="1")
    bot_a = models.CharField(max_length=20)
    bot_b = models.CharField(max_length=20)
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    chunk_size = models.PositiveIntegerField(default=10, help_text="Games per chunk (task).")
    question = models.CharField(max_length=120, unique=True,
                                help_text="deck A:deck B or historical:bots:N:seed")
    plan = models.JSONField(help_text="What every game needs (matchups/lab.py).")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED,
                              db_index=True)
    progress = models.PositiveIntegerField(default=0, help_text="Games played.")
    results = models.JSONField(default=dict, blank=True)
    error = models.CharField(max_length=300, blank=True, default="")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="matchups")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True,
                                      help_text="Last progress (the tick re-sends stalled chunks).")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"matchup {self.pk}: {self.question}"

    @staticmethod
    def question_key(deck_a: int, deck_b: int | None, bot_a: str, bot_b: str, games: int,
                     seed: int) -> str:
        return f"{deck_a}:{deck_b or 'historical'}:{bot_a},{bot_b}:{games}:{seed}"


class MatchupChunk(models.Model):
    matchup = models.ForeignKey(Matchup, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    games = models.JSONField(help_text="The chunk's game records (matchups/stats.py).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["matchup", "index"]
        constraints = [models.UniqueConstraint(fields=["matchup", "index"],
                                               name="one_result_per_matchup_chunk")]
