from django.db import models

from play.models import Match, MatchAction, action_constraints


class Race(Match):
    status = models.CharField(max_length=10, default="active")


class RaceAction(MatchAction):
    match = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="actions")

    class Meta:
        ordering = ["match", "seq"]
        constraints = action_constraints("match", "one_race_action_per_seq",
                                         "race_action_seq_from_one")
